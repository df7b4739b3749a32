"""Multiple-comparison corrections of p-values (Holm, Bonferroni, BH).

Also the one all-pairs family behind every "on new data" decision of the
report and the search tools (:func:`_pairwise_family`).
"""

import dataclasses

import numpy as np
from scipy.stats import false_discovery_control

__all__ = ["CORRECTIONS", "correct_pvalues"]

#: Valid values of ``correction`` (``None`` means no correction).
CORRECTIONS = ("holm", "bonferroni", "fdr_bh", None)


def _check_correction(correction):
    """Return ``correction`` if it is one of :data:`CORRECTIONS`."""
    if correction not in CORRECTIONS:
        raise ValueError(
            f"`correction` must be one of {CORRECTIONS}; got {correction!r}."
        )
    return correction


def _worse_than_best(p_best, prob_best_better, p_rest, *, confidence, correction):
    """Corrected p-values and which models are significantly worse than the best.

    The best model is picked from the same scores it is then tested on, so
    a family of the ``k - 1`` comparisons of the best with each other model
    does not control the family-wise error: with 10 equally good models
    and n = 30 paired runs, Holm over those 9 called some model "worse" in
    14.7 % of runs (s.e. 0.8 %, 2,000 simulated benchmarks; issue 29, item
    11). The family is therefore every pair of models, as for new data
    (:func:`_pairwise_family`): the ``k - 1`` p-values of the best against
    each other model (``p_best``) and the ``(k - 1)(k - 2) / 2`` p-values
    of the pairs among the others (``p_rest``), corrected together. Holm
    over all pairs controls the family-wise error strongly whatever model
    is picked as the best (Holm 1979): measured 2.9 % (s.e. 0.4 %) on the
    same 2,000 benchmarks (``tests/stats/test_multiple.py``). The price
    is power: the share of truly worse models detected fell from 0.59 to
    0.31 (five models 0.6 noise s.d. behind five equal best ones, 1,000
    benchmarks) and from 0.63 to 0.30 (one best, nine 0.8 s.d. behind).

    A model is significantly worse when its corrected p-value is below
    ``1 - confidence`` and P(best > model) > 0.5; every other model is tied
    with the best. The one rule of :class:`~skperf.ModelSelectionReport` and
    :func:`~skperf.model_selection.candidates_tied_with_best` for this
    dataset.

    Parameters
    ----------
    p_best : array-like of shape (k - 1,)
        Two-sided p-values of the best against each other model.
    prob_best_better : array-like of shape (k - 1,)
        P(best > model) for the same models.
    p_rest : array-like of shape ((k - 1)(k - 2) / 2,)
        Two-sided p-values of every other pair of models (NaN counts as 1).

    Returns
    -------
    p_adjusted : ndarray of shape (k - 1,)
        The best's pairs' p-values adjusted over all pairs.
    worse : ndarray of bool of shape (k - 1,)
    """
    p_best = np.asarray(p_best, dtype=float).ravel()
    p_rest = np.asarray(p_rest, dtype=float).ravel()
    m = p_best.size
    k = (1 + np.sqrt(1 + 8 * (m + p_rest.size))) / 2
    if m and not (k == round(k) and round(k) - 1 == m):
        raise ValueError(
            f"`p_rest` must hold the p-values of the {(m - 1) * m // 2} pairs of "
            f"the {m} models other than the best; got {p_rest.size}."
        )
    adjusted = correct_pvalues(np.r_[p_best, p_rest], correction=correction)[:m]
    est = np.asarray(prob_best_better, dtype=float)
    worse = (np.nan_to_num(adjusted, nan=1.0) < 1 - confidence) & (
        np.nan_to_num(est, nan=0.0) > 0.5
    )
    return adjusted, worse


def _tied_with_best(
    best, *, family=None, k=None, pvalue=None, prob_better=None, confidence, correction
):
    """The one "tied with the best" decision of the report and the search tools.

    :class:`~skperf.ModelSelectionReport` (``tied_with_best``, its
    p-value columns) and
    :func:`~skperf.model_selection.candidates_tied_with_best` both call
    this function, with their own inputs; the rule lives here only.

    - New data: ``family`` (the all-pairs corrected-t family of
      :func:`_pairwise_family` over ``k`` rows, already corrected). A row
      is significantly worse when its pair with ``best`` is significant
      in ``best``'s favour (:meth:`_Family.worse_than`).
    - This dataset: ``pvalue`` (``(k, k)``, the two-sided p-value of every
      pair; the diagonal is ignored) and ``prob_better`` (``(k,)``,
      P(best > row)). The ``k - 1`` p-values of the best are corrected
      together with those of every other pair (:func:`_worse_than_best`).

    Returns
    -------
    p, p_adjusted : ndarray of shape (k,)
        The best's pairs' p-values, raw and adjusted over all pairs; NaN
        at ``best``.
    tied : ndarray of bool of shape (k,)
        Not significantly worse than the best (True at ``best``).
    """
    if family is not None:
        p, p_adjusted = np.full(k, np.nan), np.full(k, np.nan)
        for row in range(k):
            if row != best:
                i = family.pair(best, row)
                p[row], p_adjusted[row] = family.pvalue[i], family.pvalue_adjusted[i]
        return p, p_adjusted, ~family.worse_than(best, k)
    pvalue = np.asarray(pvalue, dtype=float)
    k = pvalue.shape[0]
    others = np.flatnonzero(np.arange(k) != best)
    rest = [pvalue[i, j] for n, i in enumerate(others) for j in others[n + 1 :]]
    p, p_adjusted = np.full(k, np.nan), np.full(k, np.nan)
    tied = np.ones(k, dtype=bool)
    p[others] = pvalue[best, others]
    p_adjusted[others], worse = _worse_than_best(
        p[others],
        np.asarray(prob_better, dtype=float)[others],
        rest,
        confidence=confidence,
        correction=correction,
    )
    tied[others] = ~worse
    return p, p_adjusted, tied


@dataclasses.dataclass(frozen=True)
class _Family:
    """Every pair ``(a[i], b[i])``, ``a < b``, of one family of paired tests.

    ``estimate``/``low``/``high``: mean score of ``a`` minus ``b`` with its
    per-pair (unadjusted) interval; ``pvalue`` two-sided, ``pvalue_adjusted``
    after the correction over all pairs; ``decision`` from ``a``'s side;
    ``low_adjusted``/``high_adjusted``: the interval at the pair's adjusted
    level (see :func:`_adjusted_intervals`), which excludes 0 exactly when
    the decision is significant.
    """

    a: np.ndarray
    b: np.ndarray
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray
    decision: np.ndarray
    n: np.ndarray
    low_adjusted: np.ndarray
    high_adjusted: np.ndarray

    def worse_than(self, best, k):
        """Boolean mask of the k rows significantly worse than row ``best``."""
        worse = np.zeros(k, dtype=bool)
        worse[self.b[(self.a == best) & (self.decision == "better")]] = True
        worse[self.a[(self.b == best) & (self.decision == "worse")]] = True
        return worse

    def pair(self, i, j):
        """Index of the pair of rows ``i`` and ``j`` (either order)."""
        lo, hi = min(i, j), max(i, j)
        return int(np.flatnonzero((self.a == lo) & (self.b == hi))[0])


def _paired_t(d, test_train_ratio, confidence):
    """``(estimate, low, high, pvalue)`` of the corrected paired t on ``d``."""
    from ._paired_tests import corrected_paired_t

    if d.size < 2:
        return np.nan, np.nan, np.nan, np.nan
    if np.ptp(d) == 0:  # no variability: the t statistic is 0/0 or +-inf
        e = float(d[0])
        return e, e, e, (1.0 if e == 0 else 0.0)
    r = corrected_paired_t(d, test_train_ratio=test_train_ratio, confidence=confidence)
    return r.estimate, r.low, r.high, r.pvalue


def _pairwise_family(
    scores, *, test_train_ratio, confidence, correction, greater_is_better=True
):
    """Test all ``k (k - 1) / 2`` pairs of rows of ``scores`` as one family.

    ``scores`` has shape ``(k, J)``: one row per model, one column per split
    (the same train/test split in every row). Each pair is tested with Nadeau
    & Bengio's corrected resampled paired t on its ``J`` per-split score
    differences (non-finite ones dropped), with ``test_train_ratio`` =
    n_test / n_train of the splits (``1 / (K - 1)`` for K-fold). The
    p-values of all pairs are then corrected together: with ``"holm"`` or
    ``"bonferroni"`` the family-wise error is controlled strongly whatever
    model is later picked as the best (the best is picked from the same
    scores, so a family of "best vs others" alone would not be).

    A pair is *significant* when its adjusted p-value is below
    ``1 - confidence``; its decision is then ``"better"`` or ``"worse"``
    (from the first model's side, in the metric's direction), otherwise
    ``"no significant difference"``. The one rule of
    :class:`~skperf.ModelSelectionReport` and of the search tools under
    ``target="new data"``.

    References
    ----------
    Nadeau & Bengio (2003), "Inference for the generalization error",
    Sec. 4; Holm (1979); textbook chapter "Confidence Intervals for Model
    Performance", Sec. 4.3.
    """
    scores = np.asarray(scores, dtype=float)
    k = scores.shape[0]
    a, b = np.triu_indices(k, 1)
    m = a.size
    est, low, high, p = (np.full(m, np.nan) for _ in range(4))
    n = np.zeros(m, dtype=np.int64)
    diffs = scores[a] - scores[b]
    if m and diffs.shape[1] >= 2 and np.isfinite(diffs).all():
        from ._paired_tests import corrected_paired_t

        # every pair at once (the test is vectorized over leading axes)
        r = corrected_paired_t(
            diffs, test_train_ratio=test_train_ratio, confidence=confidence
        )
        est, low, high, p = (
            np.array(x, dtype=float) for x in (r.estimate, r.low, r.high, r.pvalue)
        )
        n[:] = diffs.shape[1]
    else:
        for i in range(m):  # failed fits: each pair on its finite differences
            d = diffs[i][np.isfinite(diffs[i])]
            n[i] = d.size
            est[i], low[i], high[i], p[i] = _paired_t(d, test_train_ratio, confidence)
    adjusted = correct_pvalues(p, correction=correction)
    significant = np.nan_to_num(adjusted, nan=1.0) < 1 - confidence
    ahead = np.nan_to_num((1.0 if greater_is_better else -1.0) * est, nan=0.0)
    decision = np.full(m, "no significant difference", dtype=object)
    decision[significant & (ahead > 0)] = "better"
    decision[significant & (ahead < 0)] = "worse"
    low_adj, high_adj = _adjusted_intervals(
        est, low, high, p, adjusted, n - 1, 1 - confidence
    )
    return _Family(a, b, est, low, high, p, adjusted, decision, n, low_adj, high_adj)


def _adjusted_intervals(est, low, high, p, adjusted, df, alpha):
    """Corrected-t intervals at each pair's adjusted level.

    The level ``1 - alpha p / p_adjusted``: the interval excludes 0 exactly
    when ``p < alpha p / p_adjusted``, i.e. ``p_adjusted < alpha``, the
    family's decision, so the interval of a difference shown beside a
    decision never contradicts it (an unadjusted 95 % interval can exclude 0
    for a pair that the correction keeps "not significant"). With no
    correction (``p_adjusted = p``) it is the per-pair interval. The t
    interval is symmetric: its half-width is rescaled by the ratio of the t
    quantiles (``df`` = pairs' J - 1).
    """
    from scipy import stats

    est, low, high, p, adjusted = (
        np.asarray(x, dtype=float) for x in (est, low, high, p, adjusted)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(adjusted > 0, p / adjusted, 1.0)
        alpha_adj = alpha * np.clip(np.nan_to_num(ratio, nan=1.0), 0.0, 1.0)
        df = np.maximum(np.asarray(df, dtype=float), 1.0)
        scale = stats.t.ppf(1 - alpha_adj / 2, df) / stats.t.ppf(1 - alpha / 2, df)
        half = (high - low) / 2 * scale
    return est - half, est + half


def _correct_pvalues_iv(p_values, correction):
    _check_correction(correction)
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1:
        raise ValueError(
            f"`p_values` must be 1-D (one p-value per hypothesis); got shape {p.shape}."
        )
    finite = p[~np.isnan(p)]
    if np.any((finite < 0) | (finite > 1)):
        raise ValueError(f"`p_values` must be in [0, 1] (or NaN); got {p.tolist()!r}.")
    return p, correction


def correct_pvalues(p_values, *, correction="holm"):
    """Adjust p-values for multiple comparisons.

    Parameters
    ----------
    p_values : array-like of shape (m,)
        One p-value per hypothesis of the family. NaN (an undefined test, e.g.
        a paired test with all differences zero) counts as 1 in the family and
        stays NaN in the output.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        ``"holm"`` (Holm's step-down, controls the family-wise error rate),
        ``"bonferroni"`` (controls the family-wise error rate, more
        conservative than Holm), ``"fdr_bh"`` (Benjamini-Hochberg, controls
        the false discovery rate; computed with
        :func:`scipy.stats.false_discovery_control`), ``None`` (p-values
        returned unchanged).

    Returns
    -------
    p_adjusted : ndarray of shape (m,)
        Adjusted p-values, clipped to at most 1: reject hypothesis ``i`` at
        level ``alpha`` when ``p_adjusted[i] < alpha``.

    Notes
    -----
    Bonferroni: ``min(1, m p_i)``. Holm: with the p-values sorted increasingly,
    ``p_(i) <- max_{j <= i} min(1, (m - j + 1) p_(j))``. Benjamini-Hochberg:
    ``p_(i) <- min_{j >= i} m p_(j) / j``. These are the adjusted p-values of
    ``statsmodels.stats.multitest.multipletests`` with the same names.

    References
    ----------
    Textbook chapter "Confidence Intervals for Model Performance", Sec. 4.3
    (multiple comparisons and selection effects).

    Examples
    --------
    >>> from skperf.stats._multiple import correct_pvalues
    >>> p = [0.01, 0.04, 0.03]
    >>> print(correct_pvalues(p, correction="holm").round(3))
    [0.03 0.06 0.06]
    >>> print(correct_pvalues(p, correction="bonferroni").round(3))
    [0.03 0.12 0.09]
    >>> print(correct_pvalues(p, correction="fdr_bh").round(3))
    [0.03 0.04 0.04]
    """
    p, correction = _correct_pvalues_iv(p_values, correction)
    if correction is None or p.size == 0:
        return p.copy()
    nan = np.isnan(p)
    filled = np.where(nan, 1.0, p)
    m = filled.size
    if correction == "bonferroni":
        out = np.minimum(1.0, m * filled)
    elif correction == "holm":
        order = np.argsort(filled, kind="stable")
        stepped = np.minimum(1.0, (m - np.arange(m)) * filled[order])
        out = np.empty(m)
        out[order] = np.maximum.accumulate(stepped)
    else:  # fdr_bh
        out = np.minimum(1.0, false_discovery_control(filled, method="bh"))
    out[nan] = np.nan
    return out
