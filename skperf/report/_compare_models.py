"""``compare_models``: fit every model on the same splits, then build the report.

The fitting side of :class:`~skperf.report.ModelSelectionReport`: the
models are evaluated through the one engine (one call, one progress bar;
the sequential race of issue 26 by default), the per-model headline
intervals come from each evaluator, and the report is built from the
fitted distributions.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import warnings
from collections.abc import Mapping
from numbers import Integral

import numpy as np
from sklearn.model_selection import KFold

from .._distribution import _as_loss
from ..model_selection._seeding import _root_entropy
from ..model_selection._vary import NewDataKFold, _default_new_data_cv
from ..stats._validation import (
    _check_budget,
)
from ._metrics import _shared_default_score
from ._model_selection import (
    _VARY_ALL,
    ModelSelectionReport,
    _check_report_args,
    _record,
    _Run,
)
from ._notes import Notes

__all__ = ["compare_models"]


def _describe(obj):
    return "None" if obj is None else repr(obj)


def _vary_list(vary):
    if isinstance(vary, str):
        return list(_VARY_ALL) if vary == "all" else [vary]
    return [v for v in _VARY_ALL if v in set(vary)]


def _sources_applied(estimators, vary, y):
    """The requested sources some model has, and why the others are left out.

    ``"search"`` applies when a model contains a hyperparameter search (or an
    inner ``cv``), ``"init"`` when a model uses a ``random_state``; the split
    source always applies. Returns ``(applied, skipped)`` with ``skipped`` a
    dict source -> reason.
    """
    from ..model_selection._vary import _plan

    requested = _vary_list(vary)
    plans = []
    for est in estimators.values():
        try:
            plans.append(_plan(est, y, shuffle_int_cv=True))
        except Exception:  # unusual estimator: say what was requested
            return requested, {}
    has = {
        "split": True,
        "init": any(p.init_random for p in plans),
        "search": any(p.search_prefixes or p.search_cv for p in plans),
    }
    reasons = {
        "init": "no model uses a random_state",
        "search": "no model contains a hyperparameter search",
    }
    applied = [v for v in requested if has[v]]
    skipped = {v: reasons[v] for v in requested if not has[v]}
    return applied, skipped


def compare_models(
    estimators,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    cv=None,
    n_repeats="auto",
    vary="all",
    random_state=None,
    n_jobs=None,
    gamma=0.75,
    confidence=0.95,
    correction="holm",
    target="new data",
    progress=False,
    n_boot="auto",
    requirement=None,
    memory=None,
    return_predictions=False,
    params=None,
    seeder=None,
    max_fits=None,
    precision=None,
    time_budget=None,
):
    """Evaluate several models on shared seeds and compare them.

    Parameters
    ----------
    estimators : dict of str to estimator
        Models to compare, by name. The order breaks ties for the best model.
    X : array-like of shape (n_samples, n_features)
        Data.
    y : array-like of shape (n_samples,) or None, default=None
        Target.
    groups : array-like of shape (n_samples,) or None, default=None
        Group labels. With ``cv=None`` whole groups are drawn
        (``GroupOutOfBootstrap``); a splitter that ignores groups warns
        (:class:`~skperf.exceptions.GroupsIgnoredWarning`).
    scoring : str, callable or None, default=None
        Scorer (as in :func:`sklearn.model_selection.cross_val_score`);
        ``None`` uses each estimator's ``score``, which must measure one
        metric for all models (accuracy for classifiers, R² for regressors):
        a classifier and a regressor together need an explicit ``scoring``.
        One metric per report: a list or dict of several scorers is refused
        (call ``compare_models`` once per metric; with ``memory=`` the fits
        are reused).
    cv : int, cross-validation generator, iterable or None, default=None
        Splitter of each repeat. ``None`` (or an int K, for K folds): with
        ``target="new data"`` a shuffled 10-fold, not stratified (random splits, as the corrected t
        was derived for: stratified folds made it under-cover; for a
        classifier every test fold holds every class; ``GroupKFold`` with
        ``groups``) re-drawn in every repeat, i.e. 10 x ``n_repeats`` fits per
        model (repeated 10-fold, the design of Bouckaert & Frank's corrected
        repeated CV); with ``target="this dataset"`` one out-of-bootstrap
        split per repeat (see :class:`~skperf.RepeatedEvaluator`).
    n_repeats : int or "auto", default="auto"
        Repeats per model (each repeat runs every fold of ``cv``).
        ``"auto"``: with ``target="new data"``, enough repeats of ``cv`` for
        about 100 fits per model (10 x 10-fold by default; 20 x 5-fold), the
        design of :func:`~skperf.generalization_ci`'s ``"auto"`` (Bouckaert
        & Frank's corrected repeated CV), whose interval coverage and
        false-"significant" rate the coverage study over datasets measured
        (see Notes); 1 when the splits are the same in every repeat (an
        iterable of splits, a splitter that does not shuffle, or ``vary``
        without ``"split"``): more repeats would refit the same splits,
        which the comparison averages per split. With ``target="this
        dataset"``, 10. Fewer repeats are faster and less powerful: on 400
        datasets of two equally good algorithms 3 x 10-fold said
        "significant" on 0.040 and detected a real difference on 0.2125 of
        400, 10 x 10-fold on 0.0575 and 0.2625; the headline interval (read
        with K - 1 degrees of freedom) is wider with fewer repeats.
    vary : "all" or subset of {"split", "init", "search"}, default="all"
        Sources of variation re-seeded at each repeat.
    random_state : int, numpy.random.RandomState, numpy.random.Generator or None, default=None
        Root of the one seed stream all models share. ``None`` draws fresh
        entropy, recorded in the report (``settings["random_state"]``).
    n_jobs : int or None, default=None
        Parallel jobs; all fits of all models run in one pool.
    gamma : float, default=0.75
        Threshold of a meaningful probability of outperforming.
    confidence : float, default=0.95
        Confidence level of every interval and ``1 - confidence`` as the
        significance level of the corrected p-values.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction (see :class:`ModelSelectionReport`).
    target : {"new data", "this dataset"}, default="new data"
        What every decision of the report is about. ``"new data"``: is an
        algorithm better than another when trained on about n rows from
        the same population? All pairs are tested with the corrected
        resampled paired t on the per-split score differences, with the
        ratio n_test / n_train measured on the splits, as one family
        corrected by ``correction``. ``"this dataset"``: the run-to-run
        decisions on this dataset (P(A > B) over repeats, the best against
        each other model).
    progress : bool, default=False
        Show one progress bar over all fits.
    n_boot : int or "auto", default="auto"
        Bootstrap resamples of a comparison that needs them; ``"auto"``
        chooses them from the confidence level.
    requirement : float, tuple, dict or None, default=None
        A requirement every model is checked against
        (:meth:`PerformanceDistribution.requirement`): a threshold, a
        ``(threshold, probability)`` pair or a dict of keyword arguments
        (``confidence`` defaults to the report's). The verdicts are in
        the report's ``requirements``, in the ``requirement`` column of
        :meth:`to_frame` and in the markdown and HTML reports.
    memory : None, str, os.PathLike or joblib.Memory, default=None
        Cache of the fits (see :class:`~skperf.RepeatedEvaluator`): a rerun,
        or one with more repeats or more models, fits only what is missing.
    return_predictions : bool, default=False
        Every model's evaluator keeps its test predictions (``predictions_``),
        and the report keeps, per model, the ROC and precision-recall curves
        across repeats with their pointwise band (``curves``, drawn by
        :meth:`ModelSelectionReport.plot_curves` and in the HTML report).
        Curves need a binary target, a model with ``predict_proba`` or
        ``decision_function`` and two repeats (the sequential design then
        runs at least 2 rounds); for any other model the report has no
        curves and a note says why.
    params : dict or None, default=None
        Metadata routed to the fits and scorers as
        :func:`sklearn.model_selection.cross_validate` routes ``params``
        (e.g. ``sample_weight``; passed to every model's
        :meth:`RepeatedEvaluator.fit`).
    seeder : callable or None, default=None
        ``seeder(estimator, seed)`` called in the worker right before each
        fit of every model with that fit's init seed (see
        :class:`~skperf.RepeatedEvaluator`); torch and skorch nets are
        seeded without it.
    max_fits : int or None, default=None
        The most fits per model. With ``n_repeats="auto"``, ``target="new
        data"`` and the default ``cv`` the design is sequential: rounds of
        K-fold CV (at most ``max_fits``, default 10 x 10-fold), stopped once
        every pair of models is decided or futile (a group-sequential
        corrected paired t per pair with O'Brien-Fleming spending, at the
        Bonferroni share of the pairs, so the family-wise error over looks
        and pairs is held). A race: a model decided worse than another, or
        whose pairs are all settled, stops being fitted (its open pairs are
        read on the rounds it has). With one model the rounds stop where
        :func:`~skperf.generalization_ci`'s default stops (the same fits and
        interval). The report says ``stopped``, ``max_fits`` and ``fits``
        (the fits each model spent). With a fixed design it must not be
        smaller than the design.
    precision : float or None, default=None
        Sequential design: also stop once every model's interval has at
        most this half-width (metric units).
    time_budget : float or None, default=None
        Sequential design: seconds after which no new round starts
        (``stopped="budget"``); the last round's look is read as the
        design's last, and ``stop_reason`` says which pairs it decided.

    Returns
    -------
    ModelSelectionReport
        With ``evaluators`` (the fitted :class:`~skperf.RepeatedEvaluator`
        per model, ``results_`` holding one row per fit), ``fits`` (dict:
        model -> fits spent), ``max_fits`` and ``stopped``.

    Raises
    ------
    ValueError
        With ``scoring=None``, when the models' own scores are different
        metrics (e.g. ``"accuracy (LogisticRegression.score) for 'a' vs r2
        (LinearRegression.score) for 'b'"``), with several scorers, or with
        an unknown ``target``: before anything is fitted.

    Warns
    -----
    sklearn.exceptions.FitFailedWarning
        When fits fail (``RepeatedEvaluator``'s ``error_score=np.nan``):
        every other fit is kept, and with ``target="new data"`` each pair of
        models is tested on the splits where both have a score (the
        corrected t's ``J`` is their number, ``pairwise()["n"]``), with a
        note saying how many splits each pair lost and whose score was
        missing. Such a model is marked incomplete (``report.incomplete``):
        it gets no interval on new data (the mean over the fits that
        succeeded describes the algorithm only where it fits) and is not
        chosen as the best while a model without failed fits is there, each
        with a note. A model with fewer than 2 successful fits is left out of
        the comparison, with a note (its evaluator, in ``evaluators``, keeps
        ``results_["error"]``); when no model is left its error is raised.

    Notes
    -----
    Every model gets the same ``random_state`` (``None`` resolved once to one
    drawn entropy), hence the same split, initialization and search seeds per
    repeat: the scores are paired (Bouthillier et al., App. C.2) when the fits
    used identical train/test indices (``seeds["split_id"]``; an int ``cv`` is
    chosen from ``y`` alone, so every model gets the same folds). The best
    model is the one with the best mean.

    With ``target="new data"`` the corrected paired t (Nadeau & Bengio 2003)
    uses the ratio ``n_test / n_train`` measured on the splits: ``1 / (K -
    1)`` for K-fold, which is what the correction was derived for (random
    train/test splits, of which a repeated K-fold is a special case).
    Other designs (out-of-bootstrap, whose training sets repeat rows) get
    the measured ratio and a note saying the correction is approximate
    there. Why repeated 10-fold by default: the correction's term ``n_test /
    n_train`` dominates the variance (``1/J + 1/9`` for 10-fold against
    ``1/J + 1/4`` for 5-fold), so ten folds give narrower intervals and more
    power per fit than five, and train on 90 % of the rows (the question is
    about n rows). Cost: ``10 * n_repeats`` fits per model (100 at the
    default), against ``n_repeats`` (10) with ``target="this dataset"``.

    Why 10 repeats: over datasets drawn from a population (Validity page,
    "New data"; 400 datasets of 200 rows), the paired test on 10 x 10-fold
    called two equally good algorithms different on 0.0575 (s.e. 0.012;
    3 x 10-fold: 0.040) and detected a real difference on 0.2625 (0.2125);
    each model's headline interval, the corrected t on the same fits read
    with K - 1 = 9 degrees of freedom (Bouckaert 2003), held in 125 of the
    study's 128 cells (read with J - 1 = 99, in 109).

    References
    ----------
    Nadeau & Bengio (2003), "Inference for the generalization error",
    Machine Learning 52, Sec. 4 (corrected resampled t); Bouckaert & Frank
    (2004), "Evaluating the replicability of significance tests for
    comparing learning algorithms" (corrected repeated 10-fold CV); Holm
    (1979); Bouthillier et al. (2021), Sec. 4.1, Sec. 5 and App. C.2-C.6;
    textbook chapter "Confidence Intervals for Model Performance", Sec.
    4.1-4.4.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf import compare_models
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> models = {
    ...     "logreg": LogisticRegression(),
    ...     "tree": DecisionTreeClassifier(max_depth=3),
    ...     "dummy": DummyClassifier(),
    ... }
    >>> report = compare_models(models, X, y, n_repeats=3, random_state=0)
    >>> report.best, report.tied_with_best
    ('logreg', ['logreg', 'tree'])
    >>> {name: round(p, 3) for name, p in report.pvalues_adjusted.items()}
    {'tree': 0.593, 'dummy': 0.0}
    """
    from ..model_selection._evaluator import RepeatedEvaluator, _fit_evaluators

    scoring, default_metric = _check_models(estimators, scoring, params)
    # validated once, before the (expensive) fits (the report takes them as they are)
    checked = _check_report_args(
        gamma=gamma,
        confidence=confidence,
        correction=correction,
        n_boot=n_boot,
        target=target,
        requirement=requirement,
    )
    gamma, confidence, target = (checked[k] for k in ("gamma", "confidence", "target"))
    correction, n_boot = checked["correction"], checked["n_boot"]
    entropy = _root_entropy(random_state)
    given_cv = cv
    # the design for new data: None or a number of folds (random K-fold, not
    # stratified; every other cv is used as given)
    defaulted = target == "new data" and (
        cv is None or (isinstance(cv, Integral) and not isinstance(cv, bool))
    )
    if defaulted:
        from sklearn.base import is_classifier

        classifier = any(is_classifier(e) for e in estimators.values())
        cv = _default_new_data_cv(X, y, groups, classifier=classifier, k=cv)
    sequential = (
        n_repeats == "auto"
        and target == "new data"
        and defaulted
        and not _fixed_splits(cv, vary)
    )
    max_fits, precision, time_budget = _check_budget(max_fits, precision, time_budget)
    if (precision is not None or time_budget is not None) and not sequential:
        raise ValueError(
            "`precision` and `time_budget` stop the sequential design, which is "
            "n_repeats='auto' with target='new data' and the default cv; got "
            f"n_repeats={n_repeats!r}, target={target!r}, cv={given_cv!r}."
        )
    n_repeats = _resolve_n_repeats(n_repeats, target, cv, X, y, groups, vary)
    if max_fits is not None:
        per_repeat = cv.get_n_splits() if hasattr(cv, "get_n_splits") else 1
        if sequential:
            n_repeats = max(1, min(n_repeats, max_fits // max(per_repeat, 1)))
        elif n_repeats * per_repeat > max_fits:
            raise ValueError(
                f"`max_fits`={max_fits} is smaller than the fixed design's "
                f"{n_repeats * per_repeat} fits per model (n_repeats={n_repeats})."
            )

    evaluators = {
        name: RepeatedEvaluator(
            est,
            scoring=scoring,
            cv=cv,
            n_repeats=n_repeats,
            vary=vary,
            random_state=entropy,
            n_jobs=n_jobs,
            refit=False,
            memory=memory,
            return_predictions=return_predictions,
            seeder=seeder,
        )
        for name, est in estimators.items()
    }
    lost = {}  # models whose fits all failed: left out, with a note
    routed = _routed_groups(evaluators, params)
    race = None
    if sequential and len(routed) == 1:
        # curves need the predictions of 2 repeats: no stop before round 2
        race = _RaceStopping(
            confidence,
            precision,
            metric=scoring,
            min_rounds=2 if return_predictions else 1,
        )
    for group, (fit_params, score_params) in routed:
        try:
            _fit_evaluators(
                group,
                X,
                y,
                groups=groups,
                n_jobs=n_jobs,
                progress=progress,
                _score_params=score_params,
                _look=race,
                _time_budget=time_budget if race is not None else None,
                **fit_params,
            )
        except Exception:
            failed = _models_without_scores(group)
            if not failed or len(lost) + len(failed) == len(evaluators):
                raise
            lost.update(failed)
    _warn_left_out(lost)
    fitted = {name: ev for name, ev in evaluators.items() if name not in lost}
    applied, skipped = _sources_applied(estimators, vary, y)
    # a negated loss (neg_root_mean_squared_error) is reported as the loss
    # itself, lower is better: RMSE 56.2 rather than -56.2 (same decisions)
    distributions = {name: _as_loss(ev.distribution_) for name, ev in fitted.items()}

    settings = _settings(
        estimators,
        X,
        applied=applied,
        skipped=skipped,
        n_repeats=n_repeats,
        given_cv=given_cv,
        cv=cv,
        defaulted=defaulted,
        groups=groups,
        scoring=scoring,
        default_metric=default_metric,
        entropy=entropy,
    )
    ratio, design = (None, None)
    if target == "new data":
        ratio, design = _measured_ratio(fitted, settings["n_samples"])
        settings["test_train_ratio"] = design
    first = next(iter(fitted.values()))
    fits = {name: len(ev.results_) for name, ev in fitted.items()}
    max_fits, stopped, stop_reason, open_pairs = len(first.results_), "fixed", None, ()
    if race is not None:
        max_fits = n_repeats * cv.get_n_splits()
        stopped = race.reason(
            next(
                (ev.stopped_ for ev in fitted.values() if ev.stopped_ != "settled"),
                first.stopped_,
            )
        )
        stop_reason = race.why()
        open_pairs = race.open_pairs(fitted)
    notes = Notes()
    for name, reason in lost.items():
        notes.add(name, f"{reason}: {_LEFT_OUT}", code="left_out")
    headline = None
    if target == "new data":
        refits = {
            "estimators": estimators,
            "X": X,
            "y": y,
            "groups": groups,
            "scoring": scoring,
            "random_state": entropy,
            "n_jobs": n_jobs,
            "memory": memory,
            "seeder": seeder,
        }
        metric = next(iter(distributions.values())).metric
        headline = functools.partial(
            _headline, fitted, confidence=confidence, metric=metric, refits=refits
        )
    curves, curves_missing = {}, {}
    if return_predictions:
        curves, curves_missing = _curves(fitted, notes)
    return ModelSelectionReport(
        distributions,
        target=target,
        test_train_ratio=ratio,
        gamma=gamma,
        confidence=confidence,
        correction=correction,
        n_boot=n_boot,
        random_state=entropy,
        settings=settings,
        requirement=requirement,
        _split_design=_shared_design(fitted),
        _raced_out={
            name: len(ev.results_)
            for name, ev in fitted.items()
            if getattr(ev, "stopped_", None) == "settled"
        },
        _run=_Run(
            evaluators=evaluators,
            fits=fits,
            max_fits=max_fits,
            stopped=stopped,
            stop_reason=stop_reason,
            open_pairs=open_pairs,
            headline=headline,
            notes=tuple(notes),
            curves=curves,
            curves_missing=curves_missing,
            checked=checked,
        ),
    )


def _check_models(estimators, scoring, params):
    """``(scoring, default_metric)``: compare_models' models, scoring and
    params checked (before any fit); ``default_metric`` is the metric of the
    models' own ``score`` when ``scoring`` is None."""
    if not isinstance(estimators, Mapping) or len(estimators) == 0:
        raise TypeError(
            "`estimators` must be a non-empty dict of model name to estimator; "
            f"got {type(estimators).__name__}."
        )
    for name, est in estimators.items():
        if not isinstance(name, str):
            raise TypeError(f"`estimators` keys must be str model names; got {name!r}.")
        if not hasattr(est, "fit"):
            raise TypeError(
                f"`estimators[{name!r}]` must be an estimator with `fit`; got {est!r}."
            )
    scoring = _single_scoring(scoring)
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(
            "`params` must be a dict of metadata to route to the fits and scorers "
            f"(as in cross_validate), or None; got {type(params).__name__}."
        )
    default_metric = None
    if scoring is None:
        default_metric, conflict = _shared_default_score(estimators)
        if conflict:
            raise ValueError(
                "With `scoring=None` each model is scored by its own `score` "
                f"method, and these measure different metrics: {conflict}. Pass "
                "`scoring=` a metric all the models support (e.g. "
                "scoring='accuracy' for classifiers, 'r2' for regressors)."
            )
    return scoring, default_metric


def _settings(
    estimators,
    X,
    *,
    applied,
    skipped,
    n_repeats,
    given_cv,
    cv,
    defaulted,
    groups,
    scoring,
    default_metric,
    entropy,
):
    """The report's ``settings``: how the scores were produced."""
    import sklearn

    from .._version import __version__
    from ..utils._sklearn_compat import _num_samples

    return {
        "models": {name: repr(est) for name, est in estimators.items()},
        "vary": applied,
        "not_varied": skipped,
        "n_repeats": n_repeats,
        "cv": _describe(given_cv)
        + (
            f" (one {'group ' if groups is not None else ''}out-of-bootstrap "
            "split per repeat)"
            if cv is None
            else f" ({cv.n_splits}-fold, not stratified, every test fold holding "
            "every class; shuffled anew in every repeat)"
            if defaulted and isinstance(cv, NewDataKFold)
            else f" ({cv.n_splits}-fold, shuffled anew in every repeat)"
            if defaulted and type(cv) is KFold
            else f" ({_describe(cv)}, shuffled anew in every repeat)"
            if defaulted
            else ""
        ),
        "scoring": _describe(scoring)
        + (
            f" (each estimator's score: {default_metric})"
            if default_metric
            else " (each estimator's score)"
            if scoring is None
            else ""
        ),
        "default_metric": default_metric,
        "random_state": entropy,
        "n_samples": _num_samples(X),
        "skperf": __version__,
        "scikit-learn": sklearn.__version__,
    }


_LEFT_OUT = (
    "left out of the comparison (no score, interval or decision for it; see its "
    "evaluator's results_['error'] in report.evaluators)."
)


def _models_without_scores(evaluators):
    """``{name: reason}`` for the models whose fits all (or all but one) failed.

    Empty when anything else stopped the fits (an error to re-raise).
    """
    out = {}
    for name, ev in evaluators.items():
        if hasattr(ev, "distribution_"):
            continue
        results = getattr(ev, "results_", None)
        if results is None or "error" not in results:
            return {}
        errors = results["error"]
        n_fail = int(errors.notna().sum())
        if len(errors) - n_fail >= 2:  # a distribution was possible: another error
            return {}
        out[name] = (
            f"{n_fail} of {len(errors)} fits failed (at least 2 scores are needed; "
            f"first error: {errors.dropna().iloc[0]})"
        )
    return out


def _warn_left_out(lost):
    """A FitFailedWarning per model left out of the comparison."""
    if not lost:
        return
    from sklearn.exceptions import FitFailedWarning

    from ..utils._warnings import _external_stacklevel

    for name, reason in lost.items():
        warnings.warn(
            f"{name}: {reason}: {_LEFT_OUT}",
            FitFailedWarning,
            stacklevel=_external_stacklevel(),
        )


def _shared_design(evaluators):
    """The split ids of every fit (failed ones included) when all models ran
    on the same splits, else None: what the report pairs their scores on.

    A race's model that stopped early holds the first rounds of the others'
    splits (a prefix); the longest run is the design.
    """
    if not all("split_id" in ev.results_ for ev in evaluators.values()):
        return None
    ids = [ev.results_["split_id"].to_numpy() for ev in evaluators.values()]
    longest = max(ids, key=len)
    if all(np.array_equal(i, longest[: i.size]) for i in ids):
        return longest
    return None


def _routed_groups(evaluators, params):
    """``[(evaluators, (fit_params, score_params)), ...]``: the fits to run.

    Without metadata routing every model gets ``params`` in its ``fit`` (one
    pool for all fits). With routing enabled each model's metadata is routed
    as :func:`~sklearn.model_selection.cross_validate` routes it (to the
    estimator's ``fit`` and to the scorers, as they request it; unrequested
    metadata raises ``UnsetMetadataPassedError`` before any fit); models
    with the same routing share one pool.
    """
    from sklearn.utils.metadata_routing import _routing_enabled, process_routing

    params = dict(params or {})
    if not params or not _routing_enabled():
        return [(evaluators, (params, None))]
    groups = {}
    for name, ev in evaluators.items():
        routed = process_routing(ev, "fit", **params)
        fit_params, score_params = dict(routed.estimator.fit), dict(routed.scorer.score)
        key = (tuple(sorted(fit_params)), tuple(sorted(score_params)))
        groups.setdefault(key, ({}, (fit_params, score_params)))[0][name] = ev
    return list(groups.values())


def _single_scoring(scoring):
    """One scorer; a sequence or dict of several is refused (issue 17, item 8)."""
    if isinstance(scoring, (list, tuple, set, frozenset, Mapping)):
        names = list(scoring)
        if len(names) == 1:
            return scoring[names[0]] if isinstance(scoring, Mapping) else names[0]
        raise ValueError(
            f"compare_models compares models on one metric; got scoring={scoring!r} "
            f"({len(names)} scorers). Call compare_models once per metric, e.g. "
            f"scoring={names[0]!r} (pass memory= to reuse the fits)."
            if names
            else "`scoring` must name one metric; got an empty "
            f"{type(scoring).__name__}."
        )
    from ..metrics._registry import _check_scorer_names

    return _check_scorer_names(scoring)  # before any fit, a short message


#: Fits per model that n_repeats="auto" aims at for target "new data": the
#: 10 x 10-fold design of generalization_ci's auto (docs/validity.rst, "New
#: data"), whose headline interval and paired tests the coverage study
#: measured.
_AUTO_FITS = 100


def _resolve_n_repeats(n_repeats, target, cv, X, y, groups, vary="all"):
    """``n_repeats``, with ``"auto"`` made concrete (see compare_models)."""
    if isinstance(n_repeats, str):
        if n_repeats != "auto":
            raise ValueError(
                f'`n_repeats` must be a positive int or "auto"; got {n_repeats!r}.'
            )
        if target != "new data":
            return 10
        if _fixed_splits(cv, vary):
            # every repeat would refit the same splits (the report averages
            # them per split): the corrected t's J is the number of splits
            return 1
        from sklearn.model_selection import check_cv

        try:
            splits = check_cv(cv).get_n_splits(X, y, groups)
        except (TypeError, ValueError):  # an iterable of splits, or unknown
            splits = 1
        return max(1, -(-_AUTO_FITS // max(int(splits), 1)))
    return n_repeats


def _fixed_splits(cv, vary):
    """Whether every repeat gets the same splits: an iterable of splits, a
    splitter that does not shuffle, or ``vary`` without ``"split"``."""
    from ..model_selection._vary import _check_vary, _is_random_splitter

    if "split" not in _check_vary(vary)[0]:
        return True
    if cv is None or isinstance(cv, Integral):
        return False  # out-of-bootstrap, or a K-fold shuffled in every repeat
    return not (hasattr(cv, "split") and _is_random_splitter(cv))


def _measured_ratio(evaluators, n_samples):
    """``(n_test / n_train, design text)`` measured on the fits' splits."""
    results = next(iter(evaluators.values())).results_
    n_train = results["n_train"].to_numpy(dtype=float)
    n_test = results["n_test"].to_numpy(dtype=float)
    ratio = float(n_test.mean() / n_train.mean())
    per_repeat = results.groupby("repeat")["n_test"].sum().to_numpy()
    kfold = bool(
        np.all(n_train + n_test == n_samples) and np.all(per_repeat == n_samples)
    )
    if kfold:
        k = int(results.groupby("repeat").size().max())
        text = (
            f"{ratio:.4g} (measured: mean n_test {n_test.mean():.4g} / mean "
            f"n_train {n_train.mean():.4g}; {k}-fold, 1/(K-1) = {1 / (k - 1):.4g})"
        )
    else:
        text = (
            f"{ratio:.4g} (measured: mean n_test {n_test.mean():.4g} / mean "
            f"n_train {n_train.mean():.4g}; the splits are not K-fold, so the "
            "corrected t is an approximation for this design)"
        )
    return ratio, text


def _as_loss_name(metric):
    """``"root_mean_squared_error"`` for ``"neg_root_mean_squared_error"``."""
    if isinstance(metric, str) and metric.startswith("neg_"):
        return metric[len("neg_") :]
    return metric


def _headline(evaluators, name, notes, *, confidence, metric, refits=None):
    """Model ``name``'s headline interval on new data, its notes in ``notes``.

    ``generalization_ci()`` of its evaluator, in the report's units
    (``metric``). Where ``generalization_ci(method="auto")`` would run
    nested CV (a per-row scorer below n = 100), the interval is nested CV on
    45 more fits per model (``refits``: what those fits need), not the
    corrected t on the evaluator's fits, which under-covered there.
    None where the evaluator has no interval: the report's own corrected
    resampled t is used.
    """
    from ..model_selection._generalization import _evaluator_metric, _known_gap

    ev = evaluators[name]
    method = getattr(ev, "generalization_ci", None)
    if method is None:
        return None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ci = method(confidence=confidence)
    except (ValueError, TypeError, NotImplementedError) as exc:
        why = str(exc).removeprefix("generalization_ci: ").rstrip(".")
        notes.add(
            name,
            f"generalization_ci: {why}; corrected-t used.",
            code="generalization_ci_fallback",
        )
        return None
    _record(caught, notes, name)
    ci = _nested_where_auto_would(ci, ev, name, confidence, notes, refits)
    gap = _known_gap(ev.estimator, _evaluator_metric(ev)[0], ci.n_fits, ci.method, ci.n)
    if gap:
        notes.add(name, gap, code="known_gap")
    if ci.metric != metric and metric == _as_loss_name(ci.metric):
        # the report shows the loss itself: the interval in its units
        ci = dataclasses.replace(  # + 0.0: no negative zero
            ci,
            estimate=-ci.estimate + 0.0,
            low=-ci.high + 0.0,
            high=-ci.low + 0.0,
            metric=metric,
        )
    return ci


def _nested_where_auto_would(ci, ev, name, confidence, notes, refits):
    """``ci``, or nested CV where ``generalization_ci``'s auto would run it."""
    from ..model_selection._generalization import _evaluator_gate, generalization_ci

    if refits is None or refits["groups"] is not None:
        return ci  # nested CV assumes independent rows
    if not isinstance(refits["scoring"], str):
        return ci
    found, nested = _evaluator_gate(ev)
    if not nested:
        return ci
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = generalization_ci(
                refits["estimators"][name],
                refits["X"],
                refits["y"],
                scoring=refits["scoring"],
                method="nested-cv",
                confidence=confidence,
                random_state=refits["random_state"],
                n_jobs=refits["n_jobs"],
                memory=refits["memory"],
                seeder=refits.get("seeder"),
            )
    except ValueError as exc:  # e.g. too few rows for nested CV's folds
        why = str(exc).rstrip(".")
        notes.add(
            name,
            f"nested CV not run ({why}); the corrected t on the fits kept.",
            code="nested_cv_not_run",
        )
        return ci
    _record(caught, notes, name)
    return dataclasses.replace(
        res,
        note=f"From the {ev.results_.shape[0]} fits of the comparison:{found} So "
        f"nested CV on {res.n_fits} more fits: " + res.note,
    )


def _curves(evaluators, notes):
    """``(curves, curves_missing)`` from the kept predictions; a note in
    ``notes`` for each model without curves."""
    from ._curves import _NO_CURVES, _model_curves

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        curves, missing = _model_curves(evaluators)
    _record(caught, notes, "curves")
    for name, reason in missing:
        notes.add(name, f"{_NO_CURVES}: {reason.rstrip('.')}.", code="no_curves")
    return (
        {kind: c for kind, c in curves.items() if c},
        {name: reason.rstrip(".") for name, reason in missing},
    )


class _RaceStopping:
    """``look`` of the engine for ``compare_models``' sequential default: a race.

    After each round of K-fold CV every open pair of models is looked at
    with :func:`skperf.stats._sequential.compare_look` (the group-sequential
    corrected paired t of ``compare_generalization``'s default: O'Brien-
    Fleming spending, efficacy looks at round 2 and the last, non-binding
    futility), each at the Bonferroni share ``(1 - confidence) / m`` of the
    ``m`` pairs, so the family-wise error over looks and pairs is held. A
    pair is settled at its first decided or futile look (the group-
    sequential test's first crossing; futility never raises the error).

    The race (F-race in spirit, Birattari et al. 2002, with each pair's
    error held as above): a model stops being fitted once it is decided
    worse than another model, or once every pair it belongs to is settled;
    its pairs still open are then read on the rounds it has. The model
    with the best mean so far is kept while any pair is open. ``active``
    holds the models still fitted (read by :func:`skperf.model_selection._engine._run_rounds`).
    No look is taken before round ``min_rounds`` (2 when the predictions
    are kept: curves need two repeats; skipping a futility look keeps the
    level, and the first efficacy look is at round 2 anyway).
    The run stops when no model is left, or with ``precision`` once every
    model's interval is that narrow (a model is kept until its own interval
    is). The report's decisions are then read from the fits (Holm over the
    pairs, each on the splits both models have).
    """

    def __init__(self, confidence, precision=None, metric=None, min_rounds=1):
        from ..model_selection._generalization import _interval_stopping

        self.confidence = confidence
        self.precision = precision
        self.min_rounds = min_rounds
        self.looks = {}
        self.out = set()  # models decided worse than another
        self.active = None
        self.specs = []
        # one model: generalization_ci's sequential interval, look for look
        self.single = _interval_stopping(metric, confidence, precision)

    def __call__(self, jobs, rounds, final):
        from ..stats._sequential import compare_look, interval_look

        self.specs = [j.spec for j in jobs]  # the evaluators, by index
        if rounds < self.min_rounds and not final:
            return None  # no look yet (a futility look skipped: the level holds)
        ok = [i for i, j in enumerate(jobs) if not j.results["error"].notna().any()]
        if len(jobs) == 1 and ok:
            return self.single(jobs, rounds, final)
        if len(ok) < 2:
            self.active = None  # failures: run the full design (the report says so)
            return None
        name = jobs[ok[0]].names[0]
        scores = {i: jobs[i].results[f"test_{name}"].to_numpy(float) for i in ok}
        res = jobs[ok[0]].results
        ratio = float(res["n_test"].mean() / res["n_train"].mean())
        R = jobs[ok[0]].spec.n_repeats
        K = int(res["repeat"].value_counts().iloc[0])  # folds per round
        # the Bonferroni share of every pair of the race, fixed from the first
        # look: a model whose fits start failing later does not raise the
        # level of the pairs left (their looks so far were at this share)
        m = len(jobs) * (len(jobs) - 1) // 2
        level = 1 - (1 - self.confidence) / m
        running = set(range(len(jobs))) if self.active is None else set(self.active)
        for a, b in itertools.combinations(ok, 2):
            prev = self.looks.get((a, b))
            if prev is not None and prev.state != "continue":
                continue  # settled at its first crossing
            if not {a, b} <= running:
                continue  # one of them is out of the race: read on its rounds
            look = compare_look(
                (scores[a] - scores[b]).reshape(rounds, -1),
                test_train_ratio=ratio,
                max_rounds=R,
                confidence=level,
                final=final,
            )
            self.looks[a, b] = look
            if look.state == "decided" and look.decision in ("better", "worse"):
                loser = b if look.decision == "better" else a
                self.out.add(loser)
        open_ = [p for p, lk in self.looks.items() if self._open(p, lk)]
        needed = {i for p in open_ for i in p}
        if needed:  # the leader runs on while any pair is open (F-race keeps
            # the best): the report's best is then read on every round
            leader = max(
                (i for i in ok if i in running), key=lambda i: scores[i].mean()
            )
            needed.add(leader)
        if self.precision is not None:
            halves = {
                i: interval_look(
                    x.reshape(-1, K),
                    test_train_ratio=ratio,
                    max_rounds=R,
                    confidence=self.confidence,
                    narrowing=None,
                ).half_width
                for i, x in scores.items()
            }
            if max(halves.values()) <= self.precision:
                return "precise"
            needed |= {i for i, h in halves.items() if h > self.precision}
        failed = set(range(len(jobs))) - set(ok)  # fitted on, the report says why
        self.active = sorted((needed & running) | failed)
        if not needed:
            states = [lk.state for lk in self.looks.values()]
            return "decided" if "decided" in states else "futile"
        return None

    def _open(self, pair, look):
        return look.state == "continue" and not (set(pair) & self.out)

    def state(self, rounds, stop):
        """The progress bar's words after a look: the pairs settled so far."""
        if not self.looks:
            return None
        n = len(self.looks)
        settled = sum(not self._open(p, lk) for p, lk in self.looks.items())
        out = f", {len(self.out)} model(s) out" if self.out else ""
        where = "" if stop is None else f"; {stop} after {rounds} round(s)"
        return f"{settled} of {n} pairs settled{out}{where}"

    def reason(self, stopped):
        return "budget" if stopped in ("max_fits", "budget") else stopped

    def open_pairs(self, evaluators):
        """``((a, b, state), ...)``: the pairs of ``evaluators`` (by name) the
        race stopped without deciding them."""
        name_of = {id(ev): name for name, ev in evaluators.items()}
        names = [name_of.get(id(spec)) for spec in self.specs]
        return tuple(
            (names[a], names[b], look.state)
            for (a, b), look in self.looks.items()
            if look.state != "decided" and None not in (names[a], names[b])
        )

    def why(self):
        if not self.looks and self.single.last is not None:  # one model
            return self.single.last.reason.rstrip(".")
        states = [lk.state for lk in self.looks.values()]
        n = len(states)
        raced = sum(
            bool(set(p) & self.out) and lk.state == "continue"
            for p, lk in self.looks.items()
        )
        undecided = states.count("budget")  # open at the last look
        return (
            f"{states.count('decided')} of {n} pairs decided, "
            f"{states.count('futile')} futile"
            + (f", {undecided} undecided at the last look" if undecided else "")
            + (f", {raced} left open by a model out of the race" if raced else "")
            + " (group-sequential corrected paired t per pair, Bonferroni over "
            "the pairs)"
        )
