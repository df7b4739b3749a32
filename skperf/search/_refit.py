"""``refit=`` callables for hyperparameter searches.

:func:`quantile_refit` and :func:`simplest_within_best` choose a candidate by
a lower quantile or by the probability of outperforming instead of the mean.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from ..stats import outperform_decision
from ..stats._validation import _check_n_boot
from ._distributions import _resolve_metric, _split_scores
from ._tied import _best_index, _check_gamma_confidence, _compare_with_best

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
        Validated and kept for compatibility; the exact interval draws no
        resamples.
    random_state : int, default=0
        Validated and kept for compatibility: the choice is deterministic
        (every call on the same ``cv_results`` returns the same index).

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
       splits (paired, ties count 1/2) with the paired exact (sign)
       interval at ``confidence`` (Clopper-Pearson on the won pairs, dual to
       the exact sign test, so its false-"significant" rate holds at every
       number of splits), and the decision of Bouthillier et
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
    tests. With few splits the exact interval is wide (with 5 folds no
    candidate can be significantly worse at 95 %): use many splits, e.g.
    ``cv=OutOfBootstrap(n_splits=30)``.

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
