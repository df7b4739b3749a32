"""Which candidates of a search are tied with the best one.

:func:`candidates_tied_with_best` tells which candidates are not
significantly worse than the best one; :func:`search_report` gives the same
inside a :class:`~skperf.ModelSelectionReport`.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._compare import _rank_test
from .._distribution import PerformanceDistribution
from .._multiple import _check_correction, _worse_than_best
from ..exceptions import DependentObservationsWarning
from ..report import ModelSelectionReport
from ..stats import outperform_decision, prob_outperform_ci
from ..stats._outperform import _check_gamma
from ..stats._validation import _check_confidence, _check_n_boot
from ._distributions import (
    _candidate_keys,
    _check_fitted_search,
    _default_metric,
    _resolve_metric,
    _split_groups,
    _split_scores,
    search_distributions,
)

__all__ = ["candidates_tied_with_best", "search_report"]


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
    """P(best > candidate) with the paired exact (sign) CI, all candidates at once.

    The exact sign interval (``method="auto"`` of
    :meth:`~skperf.PerformanceDistribution.compare`) keeps the decision's
    false-"significant" rate at 1 - confidence at every n; the percentile
    bootstrap does not at small n. ``n_boot`` and ``random_state`` are unused
    by it and kept for the callers' signatures.

    Failed candidates (non-finite scores) get NaN.
    """
    finite = np.all(np.isfinite(scores), axis=1)
    k = scores.shape[0]
    est, low, high = (np.full(k, np.nan) for _ in range(3))
    # one vectorized call for every candidate (paired on the shared splits)
    est[finite], low[finite], high[finite] = prob_outperform_ci(
        scores[best][None, :],
        scores[finite],
        paired=True,
        confidence=confidence,
        method="auto",
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
        Validated and kept for compatibility; the exact interval of
        P(best > candidate) draws no resamples.
    random_state : int, numpy.random.Generator or None, default=0
        Kept for compatibility (the table is deterministic).

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
    candidate), ties counting 1/2, with the paired exact (sign)
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
    max_depth=8  0.95  0.25  0.71  no significant difference            True
    max_depth=4  0.95  0.27  0.73  no significant difference            True
    max_depth=2  0.95  0.34  0.79  no significant difference            True
    max_depth=1  0.64  0.83  1.00                     better           False
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
