"""Multiple-comparison corrections of p-values (Holm, Bonferroni, BH)."""

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


def _worse_than_best(p_values, prob_best_better, *, confidence, correction):
    """Corrected p-values and which models are significantly worse than the best.

    The family is the comparisons of the best model with each other model.
    A model is significantly worse when its corrected p-value is below
    ``1 - confidence`` and P(best > model) > 0.5; every other model is tied
    with the best. The one rule of :class:`~skperf.ModelSelectionReport` and
    :func:`~skperf.model_selection.candidates_tied_with_best`.

    Returns
    -------
    p_adjusted : ndarray of shape (m,)
    worse : ndarray of bool of shape (m,)
    """
    adjusted = correct_pvalues(p_values, correction=correction)
    est = np.asarray(prob_best_better, dtype=float)
    worse = (np.nan_to_num(adjusted, nan=1.0) < 1 - confidence) & (
        np.nan_to_num(est, nan=0.0) > 0.5
    )
    return adjusted, worse


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
    >>> from skperf._multiple import correct_pvalues
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
