"""Per-candidate distributions and statistical refits for hyperparameter searches.

A fitted :class:`~sklearn.model_selection.GridSearchCV` or
:class:`~sklearn.model_selection.RandomizedSearchCV` scores every candidate on
the same splits. :func:`search_distributions` turns those per-split scores
into one :class:`~skperf.PerformanceDistribution` per candidate (paired
across candidates), :func:`candidates_tied_with_best` tells which candidates
are not significantly worse than the best one (:func:`search_report` gives
the same inside a :class:`~skperf.ModelSelectionReport`), and :func:`quantile_refit` /
:func:`simplest_within_best` are ``refit=`` callables that choose a candidate
by a lower quantile or by the probability of outperforming instead of the
mean. :func:`fixed_search` runs a search once and freezes its choice
(Bouthillier et al.'s biased FixedHOptEst, Sec. 3.2.2).
"""

from __future__ import annotations

import re
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import (
    GroupShuffleSplit,
    ShuffleSplit,
    StratifiedShuffleSplit,
)

from .._compare import _rank_test
from .._distribution import PerformanceDistribution
from .._multiple import _check_correction, _worse_than_best
from ..exceptions import DependentObservationsWarning
from ..stats import outperform_decision, prob_outperform_ci
from ..stats._outperform import _check_gamma
from ..stats._validation import _check_confidence, _check_n_boot
from ._split import GroupOutOfBootstrap, OutOfBootstrap, StratifiedOutOfBootstrap

__all__ = [
    "candidates_tied_with_best",
    "fixed_search",
    "quantile_refit",
    "search_distributions",
    "search_report",
    "simplest_within_best",
]

# Splitters whose splits are independent draws given the data: their scores
# are i.i.d. and every interval applies (Bouthillier et al., App. B).
_INDEPENDENT_SPLITTERS = (
    OutOfBootstrap,
    StratifiedOutOfBootstrap,
    GroupOutOfBootstrap,
    ShuffleSplit,
    StratifiedShuffleSplit,
    GroupShuffleSplit,
)

_SPLIT_RE = re.compile(r"^split(\d+)_test_(.+)$")


# ----------------------------------------------------------------------------
# reading cv_results_
def _metric_names(cv_results):
    """Scorer names present in ``cv_results`` (``["score"]`` when single)."""
    names = sorted(
        k[len("mean_test_") :] for k in cv_results if k.startswith("mean_test_")
    )
    if not names:
        raise ValueError(
            "`cv_results` has no 'mean_test_<metric>' column; is it the "
            "cv_results_ of a fitted GridSearchCV or RandomizedSearchCV?"
        )
    return names


def _resolve_metric(cv_results, scoring, default=None, what="search"):
    """Key of the metric in ``cv_results`` (``"score"`` for single-metric)."""
    names = _metric_names(cv_results)
    if names == ["score"]:
        # single-metric: sklearn stores it as "score" whatever the scorer
        if scoring is not None and not isinstance(scoring, str):
            raise TypeError(f"`scoring` must be a str or None; got {scoring!r}.")
        return "score"
    if scoring is None:
        scoring = default
    if scoring is None:
        raise ValueError(
            f"The {what} is multi-metric (scorers {names}); pass `scoring` to "
            "choose which metric to use, e.g. scoring="
            f"{names[0]!r}."
        )
    if scoring not in names:
        raise ValueError(f"`scoring` must be one of {names}; got {scoring!r}.")
    return scoring


def _split_scores(cv_results, metric):
    """Per-split test scores, shape (n_candidates, n_splits)."""
    idx = sorted(
        int(m.group(1))
        for k in cv_results
        if (m := _SPLIT_RE.match(k)) and m.group(2) == metric
    )
    if not idx:
        raise ValueError(f"`cv_results` has no 'split<i>_test_{metric}' columns.")
    return np.column_stack(
        [np.asarray(cv_results[f"split{i}_test_{metric}"], dtype=float) for i in idx]
    )


def _plain(value):
    """numpy scalars as Python scalars, so reprs read ``0.1`` not ``np.float64(0.1)``."""
    return value.item() if isinstance(value, np.generic) else value


def _params_key(params):
    """Readable, stable key for one candidate: ``"C=0.1, penalty='l2'"``."""
    return ", ".join(f"{k}={_plain(params[k])!r}" for k in sorted(params))


def _candidate_keys(all_params):
    keys = [_params_key(p) for p in all_params]
    seen = {}
    for k in keys:
        seen[k] = seen.get(k, 0) + 1
    # RandomizedSearchCV may sample the same candidate twice: disambiguate
    return [k if seen[k] == 1 else f"{k} [#{i}]" for i, k in enumerate(keys)]


def _split_groups(cv, n_splits):
    """Group ids marking dependent splits, or None for independent ones."""
    if isinstance(cv, _INDEPENDENT_SPLITTERS):
        return None
    per_repeat = (
        getattr(cv, "cvargs", {}).get("n_splits") if hasattr(cv, "n_repeats") else None
    )
    if per_repeat:
        # RepeatedKFold / RepeatedStratifiedKFold: the folds of one repeat
        # are dependent (they partition the data), repeats are independent
        return np.arange(n_splits) // int(per_repeat)
    # one K-fold run (int cv, KFold, StratifiedKFold, LeaveOneOut, an
    # explicit list of splits ...): all folds dependent
    return np.zeros(n_splits, dtype=int)


def _check_fitted_search(search):
    if not hasattr(search, "cv_results_"):
        raise TypeError(
            "`search` must be a fitted GridSearchCV / RandomizedSearchCV (an "
            f"object with cv_results_); got {type(search).__name__} without "
            "cv_results_. Call search.fit(X, y) first."
        )


def _default_metric(search):
    refit = getattr(search, "refit", None)
    return refit if isinstance(refit, str) else None


def search_distributions(search, *, scoring=None):
    """One score distribution per candidate of a fitted hyperparameter search.

    Parameters
    ----------
    search : fitted GridSearchCV or RandomizedSearchCV
        Any fitted search exposing ``cv_results_`` with per-split test
        scores (``split<i>_test_<metric>``), e.g.
        :class:`~skperf.model_selection.NoisyGridSearchCV`. In a halving
        search, candidates of different iterations were scored with
        different resources: compare only those of one iteration.
    scoring : str or None, default=None
        Metric of a multi-metric search. ``None`` uses the search's
        ``refit`` metric when it is a string, and is the only choice for a
        single-metric search.

    Returns
    -------
    dict of str to PerformanceDistribution
        In candidate order, keyed by a readable parameter string with
        parameter names sorted (``"C=0.1, penalty='l2'"``; a candidate
        sampled twice gets ``" [#<index>]"`` appended). Each distribution
        holds the candidate's ``n_splits_`` test scores, is named by its
        key, and carries ``seeds={"split": arange(n_splits)}``, so that any
        two are compared as paired (they share the splits).

    Warns
    -----
    FitFailedWarning
        When a candidate has a non-finite split score (a failed fit scored
        with ``error_score=np.nan``): that candidate is left out.

    Notes
    -----
    scikit-learn scorers are all "greater is better" (``neg_*`` scorers
    already hold negated losses), so every distribution has
    ``greater_is_better=True`` and ``metric`` is the scorer name.

    Whether the scores are independent depends on the search's ``cv``.
    With :class:`~skperf.model_selection.OutOfBootstrap` (or
    ``ShuffleSplit``) each split is an independent draw and every interval
    of the distribution applies (Bouthillier et al., App. B). The folds of
    one K-fold run partition the data and are dependent: the distributions
    then carry ``groups`` (one group per K-fold repeat; all zeros for a
    plain ``KFold`` or an int ``cv``), so interval methods that assume
    independent scores warn with
    :class:`~skperf.exceptions.DependentObservationsWarning`. Comparisons
    between candidates stay paired by split either way.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 2.2 (variance induced by hyperparameter optimization)
    and App. B (out-of-bootstrap splits).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import OutOfBootstrap, search_distributions
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]},
    ...     cv=OutOfBootstrap(n_splits=5, random_state=0),
    ... ).fit(X, y)
    >>> dists = search_distributions(search)
    >>> list(dists)
    ['max_depth=1', 'max_depth=3']
    >>> print(round(dists["max_depth=3"].mean(), 3), dists["max_depth=3"].n)
    0.946 5
    """
    _check_fitted_search(search)
    cv_results = search.cv_results_
    metric = _resolve_metric(cv_results, scoring, _default_metric(search))
    scores = _split_scores(cv_results, metric)
    n_splits = scores.shape[1]
    keys = _candidate_keys(cv_results["params"])
    if metric != "score":
        name = metric
    else:
        name = (
            search.scoring
            if isinstance(search.scoring, str)
            else (scoring if isinstance(scoring, str) else None)
        )
    groups = _split_groups(search.cv, n_splits)
    split_seeds = np.arange(n_splits)
    out = {}
    failed = []
    for key, row in zip(keys, scores, strict=True):
        if not np.all(np.isfinite(row)):
            failed.append(key)
            continue
        out[key] = PerformanceDistribution(
            row,
            metric=name,
            greater_is_better=True,
            name=key,
            groups=groups,
            seeds={"split": split_seeds},
        )
    if failed:
        warnings.warn(
            f"{len(failed)} candidate(s) have non-finite test scores (failed "
            f"fits) and are left out: {failed}.",
            FitFailedWarning,
            stacklevel=2,
        )
    return out


# ----------------------------------------------------------------------------
# comparing every candidate with the best one
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


def _compare_with_best(scores, best, confidence, n_boot, random_state):
    """P(best > candidate) with a paired percentile-bootstrap CI, all candidates at once.

    Failed candidates (non-finite scores) get NaN.
    """
    finite = np.all(np.isfinite(scores), axis=1)
    k = scores.shape[0]
    est, low, high = (np.full(k, np.nan) for _ in range(3))
    # one call for every candidate: they share the resampled splits
    est[finite], low[finite], high[finite] = prob_outperform_ci(
        scores[best][None, :],
        scores[finite],
        paired=True,
        confidence=confidence,
        n_boot=n_boot,
        rng=random_state,
    )
    return est, low, high


def _warn_one_kfold_run(n_splits, stacklevel):
    warnings.warn(
        f"The {n_splits} folds of one K-fold run are dependent (they partition "
        "the data): the comparisons treat them as independent pairs and are "
        "liberal. Use cv=OutOfBootstrap(n_splits=30) or a RepeatedStratifiedKFold "
        "with many repeats for valid tests.",
        DependentObservationsWarning,
        stacklevel=stacklevel + 1,
    )


def _unit_scores(scores, groups, stacklevel=3):
    """Scores per independent unit, shape (n_candidates, n_units).

    Where ``groups`` marks dependent splits (the folds of one K-fold repeat)
    the folds are averaged per group, as :class:`~skperf.ModelSelectionReport`
    does. One K-fold run has a single group: its folds are kept, with a
    warning.
    """
    if groups is None:
        return scores
    uniq, inverse = np.unique(groups, return_inverse=True)
    if uniq.size == 1:
        _warn_one_kfold_run(scores.shape[1], stacklevel)
        return scores
    return np.column_stack(  # a loop over groups (repeats), not over resamples
        [scores[:, inverse == j].mean(axis=1) for j in range(uniq.size)]
    )


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


def candidates_tied_with_best(
    search,
    *,
    gamma=0.75,
    confidence=0.95,
    correction="holm",
    scoring=None,
    n_boot=2000,
    random_state=0,
):
    """Which candidates of a search are not significantly worse than the best.

    Parameters
    ----------
    search : fitted GridSearchCV or RandomizedSearchCV
        The search (see :func:`search_distributions`).
    gamma : float, default=0.75
        Threshold of a meaningful P(A > B) (Bouthillier et al., App. C.6).
    confidence : float, default=0.95
        Confidence level of the intervals; the tests run at level
        ``1 - confidence``.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction of the p-values over the
        ``n_candidates - 1`` comparisons with the best candidate.
    scoring : str or None, default=None
        Metric of a multi-metric search (default: the ``refit`` metric).
    n_boot : int, default=2000
        Bootstrap resamples for the interval of P(best > candidate).
    random_state : int, numpy.random.Generator or None, default=0
        Seed of the bootstrap (fixed by default, so the table is
        reproducible).

    Returns
    -------
    pandas.DataFrame
        One row per candidate, indexed by the keys of
        :func:`search_distributions`, sorted by decreasing mean, with
        columns ``params`` (dict), ``mean``, ``std`` (``ddof=1``),
        ``prob_best_better`` (P(best > candidate)), ``low``, ``high`` (its
        interval), ``decision`` (from the best candidate's side; ``"best"``
        for the best itself), ``p_value`` (two-sided Wilcoxon signed-rank
        test on the paired split scores), ``p_adjusted`` (after
        ``correction``) and ``tied_with_best`` (bool).

    Warns
    -----
    DependentObservationsWarning
        When the search's ``cv`` is one K-fold run (an int, ``KFold``,
        ``StratifiedKFold`` ...): its folds are compared as if independent.

    Notes
    -----
    The best candidate is the one with the highest mean split score
    (sklearn's ``rank_test_<metric> == 1``; the first on ties), whatever
    ``refit`` chose. Every other candidate is compared with it on the
    shared splits (paired, Bouthillier et al., App. C.2): P(best >
    candidate), ties counting 1/2, with a paired percentile-bootstrap
    interval, the App. C.6 decision, and a Wilcoxon signed-rank p-value
    (the test of :meth:`~skperf.PerformanceDistribution.compare`).

    A candidate is *significantly worse* than the best when its corrected
    p-value is below ``1 - confidence`` and P(best > candidate) > 0.5;
    every other candidate is ``tied_with_best``. This is the rule of
    :class:`~skperf.ModelSelectionReport`: :func:`search_report` gives the
    same tied set inside a full report. Because the best was picked as the
    maximum of several noisy means, it is optimistic and these tests are
    slightly anti-conservative at separating it from the rest; the
    correction only accounts for the number of comparisons.

    The statistics use independent units, as the report does: one score
    per split for independent splits (:class:`OutOfBootstrap`,
    ``ShuffleSplit``); for ``RepeatedKFold`` / ``RepeatedStratifiedKFold``
    the mean of the folds of each repeat (``n = n_repeats``; ``mean`` and
    ``std`` are those of the per-repeat means). One K-fold run has no
    independent units: its folds are used as they are, with a warning.

    With few units the tests have little power: a two-sided Wilcoxon test
    on 5 pairs can never reach p < 0.0625, so with 5-fold CV every
    candidate is tied at 95 % confidence. Use many independent splits,
    e.g. ``cv=OutOfBootstrap(n_splits=30)``.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 4.1 and App. C.2, C.5, C.6; textbook chapter
    "Confidence Intervals for Model Performance", Sec. 4.3 (multiple
    comparisons).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import OutOfBootstrap, candidates_tied_with_best
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4, 8]},
    ...     cv=OutOfBootstrap(n_splits=20, random_state=0),
    ... ).fit(X, y)
    >>> table = candidates_tied_with_best(search)
    >>> table[["mean", "low", "high", "decision", "tied_with_best"]].round(2)
                 mean   low  high                   decision  tied_with_best
    candidate
    max_depth=3  0.95   NaN   NaN                       best            True
    max_depth=8  0.95  0.35  0.60  no significant difference            True
    max_depth=4  0.95  0.40  0.60  no significant difference            True
    max_depth=2  0.95  0.42  0.72  no significant difference            True
    max_depth=1  0.64  1.00  1.00                     better           False
    """
    import pandas as pd

    gamma, confidence = _check_gamma_confidence(gamma, confidence)
    _check_n_boot(n_boot)
    _check_correction(correction)
    _check_fitted_search(search)
    cv_results = search.cv_results_
    metric = _resolve_metric(cv_results, scoring, _default_metric(search))
    split = _split_scores(cv_results, metric)
    scores = _unit_scores(split, _split_groups(search.cv, split.shape[1]))
    keys = _candidate_keys(cv_results["params"])
    best = _best_index(scores)
    est, low, high = _compare_with_best(scores, best, confidence, n_boot, random_state)
    p = _wilcoxon_p(scores[best], scores)
    finite = np.all(np.isfinite(scores), axis=1)
    others = (np.arange(scores.shape[0]) != best) & finite
    p_adj = np.full_like(p, np.nan)
    worse = np.zeros(scores.shape[0], dtype=bool)
    p_adj[others], worse[others] = _worse_than_best(
        p[others], est[others], confidence=confidence, correction=correction
    )
    decision = np.full(scores.shape[0], None, dtype=object)
    decision[finite] = outperform_decision(low[finite], high[finite], gamma)
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
            "p_value": p,
            "p_adjusted": p_adj,
            "tied_with_best": ~worse & finite,
        },
        index=pd.Index(keys, name="candidate"),
    )
    frame.loc[
        keys[best], ["prob_best_better", "low", "high", "p_value", "p_adjusted"]
    ] = np.nan
    order = np.lexsort(
        (np.arange(len(keys)), -np.nan_to_num(frame["mean"].to_numpy(), nan=-np.inf))
    )
    return frame.iloc[order]


def search_report(
    search,
    *,
    gamma=0.75,
    confidence=0.95,
    correction="holm",
    scoring=None,
    n_boot=2000,
    random_state=0,
):
    """A :class:`~skperf.ModelSelectionReport` of the candidates of a search.

    Parameters
    ----------
    search : fitted GridSearchCV or RandomizedSearchCV
        The search (see :func:`search_distributions`).
    gamma : float, default=0.75
        Threshold of a meaningful P(A > B) (Bouthillier et al., App. C.6).
    confidence : float, default=0.95
        Confidence level of the intervals; the tests run at level
        ``1 - confidence``.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction over the comparisons with the best
        candidate.
    scoring : str or None, default=None
        Metric of a multi-metric search (default: the ``refit`` metric).
    n_boot : int, default=2000
        Bootstrap resamples of each comparison.
    random_state : int, numpy.random.Generator or None, default=0
        Root of the report's bootstrap seeds (fixed by default, so the
        report is reproducible).

    Returns
    -------
    ModelSelectionReport
        Built from :func:`search_distributions` (one model per candidate,
        in candidate order, paired by split); ``settings`` records the
        search, its ``cv``, the metric and the number of splits.
        ``report.tied_with_best`` is the set of candidates with
        ``tied_with_best`` in :func:`candidates_tied_with_best` (same best,
        same P(best > candidate), same Wilcoxon p-values and correction;
        only the bootstrap intervals differ, by their seeds).

    Warns
    -----
    DependentObservationsWarning
        When the search's ``cv`` is one K-fold run: its folds are compared
        as if independent (the report would otherwise average them into a
        single score per candidate).
    FitFailedWarning
        When a candidate failed; it is left out of the report.

    Notes
    -----
    Candidates that failed (a non-finite split score) are left out.
    For ``RepeatedKFold`` the report averages the folds of each repeat
    (its usual handling of ``groups``), as
    :func:`candidates_tied_with_best` does.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 4.1, Sec. 5 and App. C.2, C.5, C.6.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import OutOfBootstrap
    >>> from skperf.model_selection import search_report
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4, 8]},
    ...     cv=OutOfBootstrap(n_splits=20, random_state=0),
    ... ).fit(X, y)
    >>> report = search_report(search)
    >>> report.best, report.tied_with_best
    ('max_depth=3', ['max_depth=2', 'max_depth=3', 'max_depth=4', 'max_depth=8'])
    """
    from ..report import ModelSelectionReport

    _check_fitted_search(search)
    dists = search_distributions(search, scoring=scoring)
    if not dists:
        raise ValueError("Every candidate failed; there is nothing to report.")
    first = next(iter(dists.values()))
    n_splits = first.n
    if first.groups is not None and np.unique(first.groups).size == 1:
        _warn_one_kfold_run(n_splits, stacklevel=2)
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
    return ModelSelectionReport(
        dists,
        gamma=gamma,
        confidence=confidence,
        correction=correction,
        n_boot=n_boot,
        random_state=random_state,
        settings=settings,
    )


# ----------------------------------------------------------------------------
# refit callables
def _check_q(q):
    if not isinstance(q, Real) or isinstance(q, bool) or not 0 < q < 1:
        raise ValueError(f"`q` must be in (0, 1); got {q!r}.")
    return float(q)


def quantile_refit(q=0.1, *, scoring=None, method="linear"):
    """Refit callable choosing the candidate with the best lower quantile.

    Parameters
    ----------
    q : float, default=0.1
        Level of the quantile of the per-split scores, in (0, 1). Low
        levels select for the worst cases (risk-oriented selection).
    scoring : str or None, default=None
        Metric to use in a multi-metric search (required there).
    method : str, default="linear"
        :func:`numpy.quantile` method of the estimate (``"weibull"`` is
        Q̂_L of Lehmann & Paromau eq. 6).

    Returns
    -------
    callable
        ``refit(cv_results) -> int`` for ``GridSearchCV(refit=...)`` /
        ``RandomizedSearchCV(refit=...)``: the index of the candidate whose
        ``q``-quantile of ``split<i>_test_<metric>`` is largest; ties go to
        the lowest candidate index. Candidates with a failed split
        (non-finite score) are never chosen.

    Raises
    ------
    ValueError
        When called on a multi-metric ``cv_results`` without ``scoring``.

    Notes
    -----
    The mean hides how badly a configuration can do: two candidates with
    the same mean can differ in their lower tail. Choosing by a low
    quantile of the score distribution prefers the configuration that is
    reliably good (Lehmann & Paromau, Sec. 1). With ``n`` splits the
    estimate of the ``q``-quantile interpolates between the lowest order
    statistics, so use ``n`` well above ``1 / q`` (e.g. 20 out-of-bootstrap
    splits for ``q=0.1``).

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates: Distributional Uncertainty
    in ML Performance Evaluation", Sec. 1 and Sec. 3.1.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import OutOfBootstrap, quantile_refit
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3]},
    ...     cv=OutOfBootstrap(n_splits=10, random_state=0), refit=quantile_refit(0.1),
    ... ).fit(X, y)
    >>> search.best_params_
    {'max_depth': 2}
    """
    q = _check_q(q)
    if scoring is not None and not isinstance(scoring, str):
        raise TypeError(f"`scoring` must be a str or None; got {scoring!r}.")

    def refit(cv_results):
        metric = _resolve_metric(cv_results, scoring, what="search (quantile_refit)")
        scores = _split_scores(cv_results, metric)
        quant = np.quantile(scores, q, axis=1, method=method)
        finite = np.isfinite(quant)
        if not finite.any():
            raise ValueError(
                "Every candidate has a non-finite test score; nothing to choose."
            )
        return int(np.argmax(np.where(finite, quant, -np.inf)))

    refit.__name__ = refit.__qualname__ = f"quantile_refit(q={q})"
    return refit


def _complexity_key(complexity):
    if callable(complexity):
        return complexity
    if isinstance(complexity, str):

        def key(params):
            if complexity not in params:
                raise ValueError(
                    f"`complexity`={complexity!r} is not a parameter of candidate "
                    f"{params!r}; pass a callable on the params dict instead."
                )
            return params[complexity]

        return key
    raise TypeError(
        "`complexity` must be a parameter name (ascending value = simpler) or a "
        f"callable on the params dict returning a sortable key; got {complexity!r}."
    )


_EXCLUDE = {
    "significant": ("better", "better, not meaningful"),
    "meaningful": ("better",),
}


def simplest_within_best(
    complexity,
    *,
    gamma=0.75,
    confidence=0.95,
    scoring=None,
    exclude="significant",
    n_boot=2000,
    random_state=0,
):
    """Refit callable: the simplest candidate not significantly worse than the best.

    The one-standard-error rule, with the probability of outperforming
    P(A > B) in place of the standard error.

    Parameters
    ----------
    complexity : str or callable
        Order of simplicity. A parameter name (a smaller value is simpler,
        e.g. ``"max_depth"``; for ``C`` of a linear model pass
        ``lambda p: p["C"]``, as a smaller ``C`` is more regularized), or a
        callable ``complexity(params) -> key`` whose ascending keys go from
        simplest to most complex.
    gamma : float, default=0.75
        Threshold of a meaningful P(A > B) (Bouthillier et al., App. C.6).
    confidence : float, default=0.95
        Confidence level of the bootstrap interval of P(best > candidate).
    scoring : str or None, default=None
        Metric to use in a multi-metric search (required there).
    exclude : {"significant", "meaningful"}, default="significant"
        Which candidates are out: ``"significant"`` drops every candidate
        significantly worse than the best (decision ``"better"`` or
        ``"better, not meaningful"`` from the best's side);
        ``"meaningful"`` drops only the significantly *and* meaningfully
        worse ones (decision ``"better"``), which keeps simpler models that
        lose by less than ``gamma``.
    n_boot : int, default=2000
        Bootstrap resamples.
    random_state : int, default=0
        Seed of the bootstrap, fixed so that the choice is deterministic:
        every call on the same ``cv_results`` returns the same index.

    Returns
    -------
    callable
        ``refit(cv_results) -> int`` for ``GridSearchCV(refit=...)`` /
        ``RandomizedSearchCV(refit=...)``.

    Raises
    ------
    ValueError
        When called on a multi-metric ``cv_results`` without ``scoring``.

    Notes
    -----
    1. The best candidate is the one with the highest mean split score
       (first index on ties).
    2. For every candidate, P(best > candidate) is estimated on the shared
       splits (paired, ties count 1/2) with a paired percentile-bootstrap
       interval at ``confidence`` (all candidates share the same resampled
       splits; seed ``random_state``), and the decision of Bouthillier et
       al., App. C.6 is taken from the best candidate's side
       (:func:`skperf.stats.outperform_decision`, the decision of
       :meth:`~skperf.PerformanceDistribution.compare`: ``"better"`` when
       the lower bound exceeds 0.5 and the upper bound reaches ``gamma``,
       ``"better, not meaningful"`` when only the lower bound does).
    3. A candidate is *not significantly worse* than the best when the
       interval contains 0.5 or lies below it (the candidate is better),
       i.e. its lower bound is at most 0.5. The best itself always
       qualifies.
    4. Among these, the candidate with the smallest ``complexity`` key is
       returned; ties go to the lowest candidate index.

    No multiple-comparison correction is applied (a correction would only
    widen the set); see :func:`candidates_tied_with_best` for corrected
    tests. The paired bootstrap is too liberal with few splits (with 5
    folds, a candidate beaten on every fold has the interval [1, 1]): use
    many splits, e.g. ``cv=OutOfBootstrap(n_splits=30)``.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 4.1 and App. C.2, C.5, C.6; Hastie, Tibshirani &
    Friedman, "The Elements of Statistical Learning", Sec. 7.10 (the
    one-standard-error rule).

    Examples
    --------
    On iris, depths 2 to 8 are statistically tied with the best mean
    (depth 3); the rule picks the shallowest of them:

    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import OutOfBootstrap, simplest_within_best
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4, 8]},
    ...     cv=OutOfBootstrap(n_splits=20, random_state=0),
    ...     refit=simplest_within_best("max_depth"),
    ... ).fit(X, y)
    >>> search.best_params_
    {'max_depth': 2}
    """
    key = _complexity_key(complexity)
    gamma, confidence = _check_gamma_confidence(gamma, confidence)
    _check_n_boot(n_boot)
    if exclude not in _EXCLUDE:
        raise ValueError(
            f"`exclude` must be one of {sorted(_EXCLUDE)}; got {exclude!r}."
        )
    if scoring is not None and not isinstance(scoring, str):
        raise TypeError(f"`scoring` must be a str or None; got {scoring!r}.")
    if not isinstance(random_state, Integral) or isinstance(random_state, bool):
        raise TypeError(
            f"`random_state` must be an int (a fixed seed keeps the choice "
            f"deterministic); got {random_state!r}."
        )
    excluded = _EXCLUDE[exclude]

    def refit(cv_results):
        metric = _resolve_metric(
            cv_results, scoring, what="search (simplest_within_best)"
        )
        scores = _split_scores(cv_results, metric)
        best = _best_index(scores)
        _, low, high = _compare_with_best(
            scores, best, confidence, n_boot, random_state
        )
        ok = np.isfinite(low)
        decision = np.full(scores.shape[0], "failed", dtype=object)
        decision[ok] = outperform_decision(low[ok], high[ok], gamma)
        eligible = [
            i for i in range(scores.shape[0]) if ok[i] and decision[i] not in excluded
        ]
        eligible.append(best) if best not in eligible else None
        try:
            return min(eligible, key=lambda i: (key(cv_results["params"][i]), i))
        except TypeError as exc:
            raise TypeError(
                "The `complexity` keys of the candidates cannot be ordered "
                f"({exc}); pass a callable returning comparable keys, e.g. "
                "lambda p: p['max_depth'] or float('inf')."
            ) from None

    refit.__name__ = refit.__qualname__ = "simplest_within_best"
    return refit


# ----------------------------------------------------------------------------
# fixed hyperparameter optimization
def fixed_search(search, X, y=None, **fit_params):
    """Run a search once and return its estimator with the chosen hyperparameters.

    Parameters
    ----------
    search : GridSearchCV, RandomizedSearchCV or similar
        An unfitted (or fitted: it is refitted) search with ``estimator``
        and, after ``fit``, ``best_params_``. It is fitted in place, so its
        ``cv_results_`` stay available.
    X : array-like of shape (n_samples, n_features)
        Data the search sees.
    y : array-like of shape (n_samples,), default=None
        Targets.
    **fit_params : dict
        Passed to ``search.fit``.

    Returns
    -------
    estimator : estimator
        ``clone(search.estimator).set_params(**search.best_params_)``,
        unfitted; wrap it in :class:`~skperf.RepeatedEvaluator` to vary
        splits and initializations with the hyperparameters held fixed.

    Notes
    -----
    This is Bouthillier et al.'s biased estimator FixedHOptEst (Sec. 3.2.2):
    one hyperparameter optimization, then only the other sources varied.
    It costs one search instead of one per repeat, but

    * the variance induced by hyperparameter optimization (which is as large
      as that of weight initialization, Sec. 2.2) is left out, and the
      repeats, all conditioned on one search, are correlated: more repeats
      do not shrink the error of the mean as ``1 / n`` (their eq. 7-8);
    * when the search saw the rows later used as test sets (as it does here
      when ``X`` is the data given to the evaluator), the chosen
      hyperparameters are tuned to those rows and the scores are
      optimistic.

    The unbiased alternative (IdealEst, Sec. 3.2.1) re-runs the search in
    every repeat: pass the search itself to ``RepeatedEvaluator`` with
    ``"search"`` in ``vary``. Hold out data for ``fixed_search`` when you
    can.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 3.2 (ideal vs biased estimators).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import fixed_search
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]})
    >>> est = fixed_search(search, X, y)
    >>> est.get_params()["max_depth"], hasattr(est, "tree_")
    (3, False)
    """
    if not (hasattr(search, "fit") and hasattr(search, "estimator")):
        raise TypeError(
            "`search` must be a hyperparameter search with `estimator` and `fit` "
            f"(GridSearchCV, RandomizedSearchCV ...); got {type(search).__name__}."
        )
    search.fit(X, y, **fit_params)
    if not hasattr(search, "best_params_"):
        raise ValueError(
            "The fitted search has no best_params_ (a multi-metric search with "
            "refit=False); set `refit` to a scorer name or a callable."
        )
    return clone(search.estimator).set_params(**search.best_params_)
