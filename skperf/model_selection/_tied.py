"""Which candidates of a search are tied with the best one.

``candidates_tied_with_best`` tells which candidates are not significantly
worse than the best one; ``ModelSelectionReport.from_search`` (alias
``skperf.model_selection.search_report``) gives the same inside a report,
built from what ``_search_report_inputs`` reads here. Both take the decision
with ``skperf.stats._multiple._tied_with_best``. Nothing here imports the
reports.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np

from .._compare import _rank_test
from .._distribution import PerformanceDistribution
from ..exceptions import DependentObservationsWarning
from ..stats import outperform_decision, prob_outperform_ci
from ..stats._multiple import _check_correction, _pairwise_family, _tied_with_best
from ..stats._outperform import _check_gamma
from ..stats._validation import (
    _check_confidence,
    _check_target,
    _check_test_train_ratio,
)
from ..utils._warnings import _external_stacklevel
from ._search_distributions import (
    _candidate_keys,
    _check_fitted_search,
    _default_metric,
    _resolve_metric,
    _split_groups,
    _split_scores,
    search_distributions,
)
from ._split import GroupOutOfBootstrap, OutOfBootstrap, StratifiedOutOfBootstrap

__all__ = ["candidates_tied_with_best"]


def _check_gamma_confidence(gamma, confidence):
    return _check_gamma(gamma), _check_confidence(confidence)


def _best_index(scores):
    """Index of the highest mean (first on ties), ignoring failed candidates."""
    means = scores.mean(axis=1)
    finite = np.isfinite(means)
    if not finite.any():
        raise ValueError(
            "Every candidate has a non-finite test score; nothing to choose."
        )
    return int(np.argmax(np.where(finite, means, -np.inf)))


def _compare_with_best(scores, best, confidence):
    """P(best > candidate) with the paired exact (sign) CI, all candidates at once.

    The exact sign interval (``method="auto"`` of
    :meth:`~skperf.PerformanceDistribution.compare`) keeps the decision's
    false-"significant" rate at 1 - confidence at every n; it draws no
    resamples.

    Failed candidates (non-finite scores) get NaN.
    """
    finite = np.all(np.isfinite(scores), axis=1)
    k = scores.shape[0]
    est, low, high = (np.full(k, np.nan) for _ in range(3))
    # one vectorized call for every candidate (paired on the shared splits)
    r = prob_outperform_ci(
        scores[best][None, :],
        scores[finite],
        paired=True,
        confidence=confidence,
        method="auto",
    )
    est[finite], low[finite], high[finite] = r.estimate, r.low, r.high
    return est, low, high


def _warn_one_kfold_run(n_splits):
    warnings.warn(
        f"The {n_splits} folds of one K-fold run are dependent (they partition "
        "the data): the comparisons treat them as independent pairs and are "
        "liberal. Use cv=OutOfBootstrap(n_splits=30) or a RepeatedStratifiedKFold "
        "with many repeats for valid tests.",
        DependentObservationsWarning,
        stacklevel=_external_stacklevel(),
    )


def _unit_scores(scores, groups):
    """Scores per independent unit, shape (n_candidates, n_units).

    Where ``groups`` marks dependent splits (the folds of one K-fold repeat)
    the folds are averaged per group, as :class:`~skperf.ModelSelectionReport`
    does. One K-fold run has a single group: its folds are kept, with a
    warning.
    """
    if groups is None:
        return scores
    uniq = np.unique(groups)
    if uniq.size == 1:
        _warn_one_kfold_run(scores.shape[1])
        return scores
    # np.mean of each 1-D group, in order of first appearance: exactly the
    # floats of PerformanceDistribution.aggregate, so search_report (which
    # aggregates) gets the same rank-test p-values (issue 17, item 11)
    _, first = np.unique(groups, return_index=True)
    members = [groups == groups[i] for i in np.sort(first)]
    return np.array([[np.mean(row[m]) for m in members] for row in scores])


def _wilcoxon_p(best_scores, scores):
    """Two-sided Wilcoxon signed-rank p-value of best minus each candidate.

    The test of :meth:`PerformanceDistribution.compare` (1 when all
    differences are 0); NaN for failed candidates.
    """
    p = np.full(scores.shape[0], np.nan)
    for i, row in enumerate(scores):  # a loop over candidates, not over resamples
        if np.all(np.isfinite(row)):
            p[i] = _rank_test(best_scores, row, paired=True)[0]
    return p


def _kfold_k(cv):
    """K of a K-fold-type splitter (repeated or not), or None."""
    from sklearn.model_selection import (
        GroupKFold,
        KFold,
        RepeatedKFold,
        RepeatedStratifiedKFold,
        StratifiedGroupKFold,
        StratifiedKFold,
    )

    if cv is None:
        return 5  # the searches' default: 5-fold
    if isinstance(cv, Integral) and not isinstance(cv, bool):
        return int(cv)
    if isinstance(cv, (RepeatedKFold, RepeatedStratifiedKFold)):
        return int(cv.cvargs.get("n_splits", 5))
    if isinstance(cv, (KFold, StratifiedKFold, GroupKFold, StratifiedGroupKFold)):
        return int(cv.n_splits)
    return None


def _fraction(size):
    return isinstance(size, Real) and not isinstance(size, Integral) and 0 < size < 1


def _cv_ratio(cv):
    """``(n_test / n_train, text)`` of a search's ``cv``, or None when unknown.

    K-fold (``None``, int, ``KFold``, ``StratifiedKFold``, ``GroupKFold``, the
    repeated ones): ``1 / (K - 1)``. Shuffle splits given as fractions:
    ``test / train``. Out-of-bootstrap without ``test_size``: ``e^-1``
    (the expected out-of-bag share over ``n`` training draws; approximate).
    """
    from sklearn.model_selection import (
        GroupShuffleSplit,
        ShuffleSplit,
        StratifiedShuffleSplit,
    )

    k = _kfold_k(cv)
    if k is not None:
        return 1.0 / (k - 1), f"{k}-fold: 1/(K-1) = {1 / (k - 1):.4g}"
    if isinstance(cv, (ShuffleSplit, StratifiedShuffleSplit, GroupShuffleSplit)):
        test, train = cv.test_size, cv.train_size
        if test is None and train is None:
            # sklearn's defaults: 0.2 of the groups, 0.1 of the rows
            test = 0.2 if isinstance(cv, GroupShuffleSplit) else 0.1
        if test is None and _fraction(train):
            test = 1 - train
        if _fraction(test) and (train is None or _fraction(train)):
            train = 1 - test if train is None else train
            return test / train, f"random splits: {test:g} / {train:g}"
        return None
    if isinstance(cv, (list, tuple)) and cv:
        try:  # explicit (train, test) index pairs: measured
            n_train = np.mean([np.asarray(tr).size for tr, _ in cv])
            n_test = np.mean([np.asarray(te).size for _, te in cv])
        except (TypeError, ValueError):
            return None
        if n_train > 0:
            return n_test / n_train, (
                f"measured on the given splits: {n_test:.4g} / {n_train:.4g}"
            )
        return None
    oob = (OutOfBootstrap, StratifiedOutOfBootstrap, GroupOutOfBootstrap)
    if isinstance(cv, oob) and cv.test_size is None and cv.train_size is None:
        ratio = float(np.exp(-1.0))
        return ratio, (
            f"out-of-bootstrap: about {ratio:.3f} (out-of-bag share over n "
            "training draws; the corrected t is an approximation for this design)"
        )
    return None


def _search_ratio(cv, test_train_ratio, what):
    """The ratio for the corrected t: given, or from ``cv``, or a clear error."""
    if test_train_ratio is not None:
        return test_train_ratio, f"given: {test_train_ratio:.4g}"
    known = _cv_ratio(cv)
    if known is None:
        raise ValueError(
            f"{what} with target='new data' needs n_test / n_train of the search's "
            f"splits, which cannot be read from cv={cv!r}. Pass test_train_ratio= "
            "(1/(K-1) for K-fold, test/train sizes for random splits), or "
            "target='this dataset'."
        )
    return known


def _check_n_splits(cv, n_splits, what):
    """The search's number of splits must be that of ``cv`` (when countable)."""
    if not hasattr(cv, "get_n_splits") and not (cv is None or isinstance(cv, Integral)):
        return
    try:
        expected = (
            5 if cv is None else cv if isinstance(cv, Integral) else cv.get_n_splits()
        )
    except Exception:  # splitters that need the data to count (e.g. LeavePOut)
        return
    if expected != n_splits:
        raise ValueError(
            f"{what}: the search scored {n_splits} splits, but cv={cv!r} makes "
            f"{expected}: pass the search's own cv (its ratio n_test / n_train "
            "corrects the test), or test_train_ratio=."
        )


def _new_data_family(scores, cv, test_train_ratio, confidence, correction, what):
    """The all-pairs family of the search tools (one code path, new data).

    ``scores``: per-split scores ``(n_candidates, n_splits)``; failed
    candidates (a non-finite split score) are left out of the family.
    Returns ``(family, kept, ratio_text)`` with ``kept`` the indices tested.
    """
    ratio, text = _search_ratio(cv, test_train_ratio, what)
    kept = np.flatnonzero(np.all(np.isfinite(scores), axis=1))
    if kept.size == 0:
        raise ValueError(
            "Every candidate has a non-finite test score; nothing to choose."
        )
    family = _pairwise_family(
        scores[kept],
        test_train_ratio=ratio,
        confidence=confidence,
        correction=correction,
    )
    return family, kept, text


def _tied_new_data(search, metric, target_args):
    """The candidates table of :func:`candidates_tied_with_best` for new data."""
    import pandas as pd

    confidence, correction, test_train_ratio = target_args
    cv_results = search.cv_results_
    scores = _split_scores(cv_results, metric)
    _check_n_splits(search.cv, scores.shape[1], "candidates_tied_with_best")
    keys = _candidate_keys(cv_results["params"])
    k = scores.shape[0]
    family, kept, _ = _new_data_family(
        scores,
        search.cv,
        test_train_ratio,
        confidence,
        correction,
        "candidates_tied_with_best",
    )
    best_local = _best_index(scores[kept])
    best = int(kept[best_local])
    diff, low, high, p, p_adj = (np.full(k, np.nan) for _ in range(5))
    decision = np.full(k, None, dtype=object)
    for local, idx in enumerate(kept):
        if idx == best:
            continue
        i = family.pair(best_local, local)
        sign = 1.0 if best_local < local else -1.0  # best minus candidate
        diff[idx] = sign * family.estimate[i]
        low[idx], high[idx] = sorted((sign * family.low[i], sign * family.high[i]))
        d = str(family.decision[i])
        decision[idx] = (
            {"better": "worse", "worse": "better"}.get(d, d) if sign < 0 else d
        )
    decision[best] = "best"
    tied = np.zeros(k, dtype=bool)
    p[kept], p_adj[kept], tied[kept] = _tied_with_best(
        best_local,
        family=family,
        k=kept.size,
        confidence=confidence,
        correction=correction,
    )
    with np.errstate(invalid="ignore"):
        std = scores.std(axis=1, ddof=1)
    frame = pd.DataFrame(
        {
            "params": list(cv_results["params"]),
            "n": np.full(k, scores.shape[1]),
            "mean": scores.mean(axis=1),
            "std": std,
            "difference": diff,
            "low": low,
            "high": high,
            "decision": decision,
            "pvalue": p,
            "pvalue_adjusted": p_adj,
            "tied_with_best": tied,
            "target": "new data",
        },
        index=pd.Index(keys, name="candidate"),
    )
    frame.loc[keys[best], "difference"] = 0.0
    order = np.lexsort(
        (np.arange(k), -np.nan_to_num(frame["mean"].to_numpy(), nan=-np.inf))
    )
    return frame.iloc[order]


def candidates_tied_with_best(
    search,
    *,
    target="new data",
    gamma=0.75,
    confidence=0.95,
    correction="holm",
    scoring=None,
    test_train_ratio=None,
):
    """Which candidates of a search are not significantly worse than the best.

    Parameters
    ----------
    search : fitted GridSearchCV or RandomizedSearchCV
        The search (see :func:`search_distributions`).
    target : {"new data", "this dataset"}, default="new data"
        What the decisions are about. ``"new data"``: would the candidate,
        trained on about n rows from the same population, be worse than the
        best? All pairs of candidates are tested with the corrected resampled
        paired t on their per-split scores (``split<i>_test_<metric>``) as
        one family (see Notes). ``"this dataset"``: the run-to-run decisions
        (P(best > candidate) over independent units, Wilcoxon p-values of
        the best against each candidate).
    gamma : float, default=0.75
        Threshold of a meaningful P(A > B) (Bouthillier et al., App. C.6);
        ``target="this dataset"`` only.
    confidence : float, default=0.95
        Confidence level of the intervals; the tests run at level
        ``1 - confidence``.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction over all pairs of candidates (for
        this dataset too: the best is picked from the same scores).
    scoring : str or None, default=None
        Metric of a multi-metric search (default: the ``refit`` metric).
    test_train_ratio : float or None, default=None
        ``n_test / n_train`` of the search's splits, for ``target="new
        data"``; ``None`` reads it from ``search.cv``: ``1 / (K - 1)`` for
        K-fold (``None``, an int, ``KFold``, ``StratifiedKFold``,
        ``GroupKFold``, ``RepeatedKFold``, ``RepeatedStratifiedKFold``),
        ``test / train`` for shuffle splits given as fractions, about
        ``e^-1`` for out-of-bootstrap; any other ``cv`` is refused with a
        message asking for this parameter.

    Returns
    -------
    pandas.DataFrame
        One row per candidate, indexed by the keys of
        :func:`search_distributions`, sorted by decreasing mean.

        ``target="new data"``: columns ``params`` (dict), ``n`` (splits),
        ``mean``, ``std`` (``ddof=1``) of the split scores, ``difference``
        (best minus candidate, mean over splits), ``low``, ``high`` (its
        per-pair interval, unadjusted), ``decision`` (from the best's side:
        ``"better"`` when the pair is significant after the correction,
        else ``"no significant difference"``; ``"best"`` for the best),
        ``pvalue`` (two-sided corrected paired t), ``pvalue_adjusted`` (over
        all pairs), ``tied_with_best`` (bool) and ``target``.

        ``target="this dataset"``: ``params``, ``n``, ``mean``, ``std``,
        ``prob_best_better`` (P(best > candidate)), ``low``, ``high`` (its
        interval), ``decision`` (App. C.6, from the best's side),
        ``pvalue`` (two-sided Wilcoxon signed-rank on the paired units),
        ``pvalue_adjusted``, ``tied_with_best`` and ``target``.

    Raises
    ------
    ValueError
        With ``target="new data"``, when the split design of ``search.cv``
        is unknown and ``test_train_ratio`` is not given.

    Warns
    -----
    DependentObservationsWarning
        ``target="this dataset"`` only, when the search's ``cv`` is one
        K-fold run (an int, ``KFold``, ``StratifiedKFold`` ...): its folds
        are compared as if independent.

    Notes
    -----
    The best candidate is the one with the highest mean split score
    (sklearn's ``rank_test_<metric> == 1``; the first on ties), whatever
    ``refit`` chose.

    *New data* (default). Every pair of candidates is tested with Nadeau &
    Bengio's corrected resampled paired t on its ``J`` per-split score
    differences (variance ``(1/J + n_test/n_train) s^2``), and the p-values
    of all ``k (k - 1) / 2`` pairs are corrected together. Holm over all
    pairs controls the family-wise error strongly, whatever candidate is
    picked as the best from the same scores; a candidate is tied with the
    best unless its pair with the best is significant. The dependence
    between folds is what the correction is for, so one K-fold run needs no
    warning (with few folds the test has little power: with 5 folds a
    difference must be large to be detected; use ``RepeatedStratifiedKFold(
    n_splits=10, n_repeats=10)``). This is the procedure of
    :func:`search_report` and :class:`~skperf.ModelSelectionReport` (same
    scores, same p-values).

    *This dataset*. Every other candidate is compared with the best on the
    shared splits (paired, Bouthillier et al., App. C.2): P(best >
    candidate), ties counting 1/2, with the paired exact (sign) interval,
    the App. C.6 decision, and a Wilcoxon signed-rank p-value. A candidate
    is significantly worse when its corrected p-value is below ``1 -
    confidence`` and P(best > candidate) > 0.5. The units are independent:
    one score per split for independent splits, the mean of the folds of
    each repeat for repeated K-fold (``n = n_repeats``), computed exactly as
    :meth:`PerformanceDistribution.aggregate` does so that
    :func:`search_report` gives the same p-values. Since the best is picked
    from the same scores, the p-values of every pair of candidates are
    corrected together (the best's pairs alone called some candidate worse
    in 14.7 % of benchmarks of 10 equal candidates at level 5 %; all pairs:
    2.9 %; issue 29, item 11).

    References
    ----------
    Nadeau & Bengio (2003), "Inference for the generalization error",
    Sec. 4; Holm (1979); Bouthillier et al., "Accounting for Variance in
    Machine Learning Benchmarks", Sec. 4.1 and App. C.2, C.5, C.6; textbook
    chapter "Confidence Intervals for Model Performance", Sec. 4.3.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import candidates_tied_with_best
    >>> X, y = load_iris(return_X_y=True)
    >>> cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4, 8]},
    ...     cv=cv,
    ... ).fit(X, y)
    >>> table = candidates_tied_with_best(search)
    >>> table[["mean", "difference", "pvalue_adjusted", "tied_with_best"]].round(3)
                  mean  difference  pvalue_adjusted  tied_with_best
    candidate
    max_depth=8  0.947       0.000              NaN            True
    max_depth=3  0.938       0.009            1.000            True
    max_depth=4  0.938       0.009            1.000            True
    max_depth=2  0.924       0.022            0.953            True
    max_depth=1  0.667       0.280            0.000           False
    """
    gamma, confidence = _check_gamma_confidence(gamma, confidence)
    _check_correction(correction)
    target = _check_target(target)
    test_train_ratio = _check_test_train_ratio(test_train_ratio)
    _check_fitted_search(search)
    cv_results = search.cv_results_
    metric = _resolve_metric(cv_results, scoring, _default_metric(search))
    if target == "new data":
        return _tied_new_data(
            search, metric, (confidence, correction, test_train_ratio)
        )
    if test_train_ratio is not None:
        raise ValueError(
            "`test_train_ratio` is only used with target='new data'; got "
            f"test_train_ratio={test_train_ratio!r} with target={target!r}."
        )
    return _tied_this_dataset(search, metric, gamma, confidence, correction)


def _tied_this_dataset(search, metric, gamma, confidence, correction):
    """The candidates table of :func:`candidates_tied_with_best`, this dataset."""
    import pandas as pd

    cv_results = search.cv_results_
    split = _split_scores(cv_results, metric)
    scores = _unit_scores(split, _split_groups(search.cv, split.shape[1]))
    keys = _candidate_keys(cv_results["params"])
    best = _best_index(scores)
    est, low, high = _compare_with_best(scores, best, confidence)
    p = _wilcoxon_p(scores[best], scores)
    finite = np.all(np.isfinite(scores), axis=1)
    # every pair of the candidates that fitted joins the family: the best
    # is picked from these scores
    idx = np.flatnonzero(finite)
    pvalue = np.full((idx.size, idx.size), np.nan)
    for n, i in enumerate(idx):
        for m in range(n + 1, idx.size):
            j = idx[m]
            if i == best or j == best:
                pair = p[j if i == best else i]  # the best against the other
            else:
                pair = _rank_test(scores[i], scores[j], paired=True)[0]
            pvalue[n, m] = pvalue[m, n] = pair
    p_adj = np.full_like(p, np.nan)
    tied = np.zeros(scores.shape[0], dtype=bool)
    _, p_adj[idx], tied[idx] = _tied_with_best(
        int(np.flatnonzero(idx == best)[0]),
        pvalue=pvalue,
        prob_better=est[idx],
        confidence=confidence,
        correction=correction,
    )
    decision = np.full(scores.shape[0], None, dtype=object)
    decision[finite] = outperform_decision(low[finite], high[finite], gamma=gamma)
    decision[best] = "best"
    with np.errstate(invalid="ignore"):
        std = scores.std(axis=1, ddof=1)
    frame = pd.DataFrame(
        {
            "params": list(cv_results["params"]),
            "n": np.full(len(keys), scores.shape[1]),
            "mean": scores.mean(axis=1),
            "std": std,
            "prob_best_better": est,
            "low": low,
            "high": high,
            "decision": decision,
            "pvalue": p,
            "pvalue_adjusted": p_adj,
            "tied_with_best": tied,
            "target": "this dataset",
        },
        index=pd.Index(keys, name="candidate"),
    )
    frame.loc[
        keys[best], ["prob_best_better", "low", "high", "pvalue", "pvalue_adjusted"]
    ] = np.nan
    order = np.lexsort(
        (np.arange(len(keys)), -np.nan_to_num(frame["mean"].to_numpy(), nan=-np.inf))
    )
    return frame.iloc[order]


def _search_report_inputs(search, *, target, scoring, test_train_ratio, what):
    """What :meth:`~skperf.ModelSelectionReport.from_search` builds a report from.

    Checks the search and its split design (an unknown design fails before
    any distribution is built), then reads one distribution per candidate
    (:func:`search_distributions`). Returns ``(distributions, ratio,
    settings, one_run)``: ``ratio`` is ``n_test / n_train`` for new data
    (else None); ``one_run`` says the splits are the folds of one K-fold
    run, whose folds are then kept as independent runs (with a warning for
    this dataset), not averaged into a single score per candidate.
    """
    test_train_ratio = _check_test_train_ratio(test_train_ratio)
    _check_fitted_search(search)
    ratio = design = None
    if target == "new data":
        ratio, design = _search_ratio(search.cv, test_train_ratio, what)
    elif test_train_ratio is not None:
        raise ValueError(
            "`test_train_ratio` is only used with target='new data'; got "
            f"test_train_ratio={test_train_ratio!r} with target={target!r}."
        )
    dists = search_distributions(search, scoring=scoring)
    if not dists:
        raise ValueError("Every candidate failed; there is nothing to report.")
    first = next(iter(dists.values()))
    n_splits = first.n
    if target == "new data":
        _check_n_splits(search.cv, n_splits, what)
    one_run = first.groups is not None and np.unique(first.groups).size == 1
    if one_run:
        if target == "this dataset":
            _warn_one_kfold_run(n_splits)
        # keep the folds (the report would average them into one score)
        dists = {
            k: PerformanceDistribution(
                d.scores,
                metric=d.metric,
                greater_is_better=True,
                name=k,
                seeds=d.seeds,
            )
            for k, d in dists.items()
        }
    settings = {
        "search": type(search).__name__,
        "estimator": type(search.estimator).__name__,
        "cv": repr(search.cv),
        "metric": first.metric or "score",
        "n_splits": n_splits,
        "n_candidates": len(search.cv_results_["params"]),
    }
    if design is not None:
        settings["test_train_ratio"] = design
    return dists, ratio, settings, one_run
