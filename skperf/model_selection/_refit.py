"""``refit=`` callables for hyperparameter searches.

:func:`quantile_refit` and :func:`simplest_within_best` choose a candidate by
a lower quantile or by the probability of outperforming instead of the mean.
"""

from __future__ import annotations

import sys
from numbers import Real

import numpy as np

from ..stats import outperform_decision
from ..stats._multiple import _check_correction, _tied_with_best
from ..stats._validation import _check_target, _check_test_train_ratio
from ._search_distributions import _resolve_metric, _split_groups, _split_scores
from ._tied import (
    _best_index,
    _check_gamma_confidence,
    _check_n_splits,
    _compare_with_best,
    _new_data_family,
    _search_ratio,
    _warn_one_kfold_run,
)

__all__ = ["quantile_refit", "simplest_within_best"]


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


def _calling_search(refit):
    """The search whose ``fit`` calls the refit callable ``refit``, or None.

    scikit-learn calls ``refit(cv_results)`` with the results only; the
    search's ``cv`` (are its splits the dependent folds of one K-fold run?)
    is read from the search on the stack, the one whose ``refit`` is this
    callable. None when the callable is called by hand on ``cv_results``.
    """
    frame = sys._getframe(1)
    for _ in range(20):  # fit -> _select_best_index -> refit: a few frames
        if frame is None:
            return None
        owner = frame.f_locals.get("self")
        if owner is not None and getattr(owner, "refit", None) is refit:
            return owner
        frame = frame.f_back
    return None


def _warn_if_one_kfold_run(search, n_splits):
    """The DependentObservationsWarning of candidates_tied_with_best and
    search_report when ``search``'s splits are the folds of one K-fold run."""
    if search is None:
        return
    groups = _split_groups(getattr(search, "cv", None), n_splits)
    if groups is not None and np.unique(groups).size == 1:
        _warn_one_kfold_run(n_splits)


_EXCLUDE = {
    "significant": ("better", "better, not meaningful"),
    "meaningful": ("better",),
}


def simplest_within_best(
    complexity,
    *,
    target="new data",
    cv=None,
    test_train_ratio=None,
    gamma=0.75,
    confidence=0.95,
    correction="holm",
    scoring=None,
    exclude="significant",
):
    """Refit callable: the simplest candidate not significantly worse than the best.

    The one-standard-error rule, with a test in place of the standard error.

    Parameters
    ----------
    complexity : str or callable
        Order of simplicity. A parameter name (a smaller value is simpler,
        e.g. ``"max_depth"``; for ``C`` of a linear model pass
        ``lambda p: p["C"]``, as a smaller ``C`` is more regularized), or a
        callable ``complexity(params) -> key`` whose ascending keys go from
        simplest to most complex.
    target : {"new data", "this dataset"}, default="new data"
        What "not significantly worse" is about. ``"new data"``: the
        algorithm trained on about n rows from the same population
        (corrected resampled paired t over all pairs of candidates, as
        :func:`candidates_tied_with_best`); ``"this dataset"``: P(best >
        candidate) over the splits (the exact sign interval, uncorrected).
    cv : int, cross-validation generator or None, default=None
        The search's ``cv`` (pass the same value as to the search): the
        corrected t needs its ratio ``n_test / n_train`` (``1 / (K - 1)`` for
        K-fold). ``None`` is the searches' default, 5-fold. The number of
        splits in ``cv_results`` is checked against it. ``target="new
        data"`` only.
    test_train_ratio : float or None, default=None
        The ratio ``n_test / n_train`` itself, for a ``cv`` whose design
        cannot be read (overrides ``cv``). ``target="new data"`` only.
    gamma : float, default=0.75
        Threshold of a meaningful P(A > B) (Bouthillier et al., App. C.6);
        ``target="this dataset"`` only.
    confidence : float, default=0.95
        Confidence level; the tests run at level ``1 - confidence``.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction over all pairs of candidates
        (``target="new data"``).
    scoring : str or None, default=None
        Metric to use in a multi-metric search (required there).
    exclude : {"significant", "meaningful"}, default="significant"
        ``target="this dataset"``: which candidates are out:
        ``"significant"`` drops every candidate significantly worse than the
        best (decision ``"better"`` or ``"better, not meaningful"`` from the
        best's side); ``"meaningful"`` drops only the significantly *and*
        meaningfully worse ones (decision ``"better"``). With ``target="new
        data"`` only ``"significant"`` applies (the corrected t has no
        ``gamma``).

    Returns
    -------
    callable
        ``refit(cv_results) -> int`` for ``GridSearchCV(refit=...)`` /
        ``RandomizedSearchCV(refit=...)``; the choice is deterministic
        (every call on the same ``cv_results`` returns the same index).

    Raises
    ------
    ValueError
        When called on a multi-metric ``cv_results`` without ``scoring``;
        with ``target="new data"``, when ``cv``'s design is unknown (at
        construction, before any fit) or its number of splits is not the
        search's.

    Warns
    -----
    DependentObservationsWarning
        ``target="this dataset"`` only, when the search calling it has one
        K-fold run as ``cv`` (an int, ``KFold``, ``StratifiedKFold`` ...):
        its folds are compared as if independent (as in
        :func:`candidates_tied_with_best`).

    Notes
    -----
    1. The best candidate is the one with the highest mean split score
       (first index on ties).
    2. ``target="new data"``: every pair of candidates is tested with Nadeau
       & Bengio's corrected resampled paired t on the per-split scores, all
       pairs corrected together (the procedure of
       :func:`candidates_tied_with_best`); a candidate is eligible unless its
       pair with the best is significant.
       ``target="this dataset"``: P(best > candidate) on the shared splits
       (paired, ties count 1/2) with the paired exact (sign) interval at
       ``confidence`` and the decision of Bouthillier et al., App. C.6 from
       the best's side (:func:`skperf.stats.outperform_decision`); a
       candidate is eligible unless the decision is excluded by
       ``exclude``. No correction there (one would only widen the set).
    3. Among the eligible candidates (the best always is), the one with the
       smallest ``complexity`` key is returned; ties go to the lowest
       candidate index.

    With few splits the tests have little power (with one 5-fold run few
    candidates can be significantly worse); use e.g.
    ``RepeatedStratifiedKFold(n_splits=10, n_repeats=10)``.

    References
    ----------
    Nadeau & Bengio (2003), Sec. 4; Bouthillier et al., "Accounting for
    Variance in Machine Learning Benchmarks", Sec. 4.1 and App. C.2, C.5,
    C.6; Hastie, Tibshirani & Friedman, "The Elements of Statistical
    Learning", Sec. 7.10 (the one-standard-error rule).

    Examples
    --------
    On iris, depths 2 to 8 are statistically tied with the best mean
    (depth 3); the rule picks the shallowest of them:

    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import simplest_within_best
    >>> X, y = load_iris(return_X_y=True)
    >>> cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4, 8]},
    ...     cv=cv, refit=simplest_within_best("max_depth", cv=cv),
    ... ).fit(X, y)
    >>> search.best_params_
    {'max_depth': 2}
    """
    key = _complexity_key(complexity)
    gamma, confidence = _check_gamma_confidence(gamma, confidence)
    target = _check_target(target)
    _check_correction(correction)
    test_train_ratio = _check_test_train_ratio(test_train_ratio)
    if exclude not in _EXCLUDE:
        raise ValueError(
            f"`exclude` must be one of {sorted(_EXCLUDE)}; got {exclude!r}."
        )
    if scoring is not None and not isinstance(scoring, str):
        raise TypeError(f"`scoring` must be a str or None; got {scoring!r}.")
    if target == "new data":
        # the design is read now, so an unknown cv fails before any fit
        ratio, _ = _search_ratio(cv, test_train_ratio, "simplest_within_best")
        if exclude != "significant":
            raise ValueError(
                "`exclude` must be 'significant' with target='new data' (the "
                f"corrected t has no meaningfulness threshold); got {exclude!r}."
            )
    elif cv is not None or test_train_ratio is not None:
        raise ValueError(
            "`cv` and `test_train_ratio` are only used with target='new data'; got "
            f"cv={cv!r}, test_train_ratio={test_train_ratio!r} with "
            f"target={target!r}."
        )
    excluded = _EXCLUDE[exclude]

    def eligible_new_data(scores):
        if test_train_ratio is None:
            _check_n_splits(cv, scores.shape[1], "simplest_within_best")
        family, kept, _ = _new_data_family(
            scores, cv, ratio, confidence, correction, "simplest_within_best"
        )
        best_local = _best_index(scores[kept])
        *_, tied = _tied_with_best(
            best_local,
            family=family,
            k=kept.size,
            confidence=confidence,
            correction=correction,
        )
        return [int(i) for i, t in zip(kept, tied, strict=True) if t]

    def eligible_this_dataset(scores):
        best = _best_index(scores)
        _, low, high = _compare_with_best(scores, best, confidence)
        ok = np.isfinite(low)
        decision = np.full(scores.shape[0], "failed", dtype=object)
        decision[ok] = outperform_decision(low[ok], high[ok], gamma=gamma)
        eligible = [
            i for i in range(scores.shape[0]) if ok[i] and decision[i] not in excluded
        ]
        return eligible if best in eligible else [*eligible, best]

    def refit(cv_results):
        metric = _resolve_metric(
            cv_results, scoring, what="search (simplest_within_best)"
        )
        scores = _split_scores(cv_results, metric)
        if target == "new data":
            eligible = eligible_new_data(scores)
        else:
            _warn_if_one_kfold_run(_calling_search(refit), scores.shape[1])
            eligible = eligible_this_dataset(scores)
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
