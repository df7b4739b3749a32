"""Seeds x test rows: intervals over a two-way crossed design.

One fixed train/test split, a model trained with ``S`` seeds, every model
scored on the same ``n`` test rows: the per-row losses form an ``(S, n)``
array ``x[s, r]``. Its grand mean varies with the seeds *and* with the test
rows that happened to be drawn. Under the two-way random-effects model

    x[s, r] = mu + a[s] + b[r] + e[s, r]

(seed effect ``a``, row difficulty ``b``, seed-by-row interaction ``e``,
variances ``sa2``, ``sb2``, ``se2``) the mean over seeds and rows has

    Var(mean) = sa2 / S + sb2 / n + se2 / (S n)

and its target is ``mu``: the expected loss on new test rows of a model
trained on *this* training set, averaged over training seeds.

Which estimator (measured, ``benchmarks/crossed_coverage.py``)
---------------------------------------------------------------
* Variance components (the two-way ANOVA of a balanced crossed design,
  Searle, Casella & McCulloch 1992, ch. 4): with mean squares ``MS_seed``,
  ``MS_row``, ``MS_err``, ``(MS_seed + MS_row - MS_err) / (S n)`` is
  unbiased for ``Var(mean)``; equivalently (an identity, tested)
  ``var(seed means) / S + mean off-diagonal row covariance of two seeds /
  n``, the U-statistic form (Owen 2007, Sec. 3). A t interval with
  Satterthwaite's df (1946). **This is the default.**
* The "bootstrap both ways" (resample seeds and rows independently, the
  pigeonhole bootstrap of Owen 2007) estimates ``(sa2 + se2) / S + (sb2 +
  se2) / n + ...``: it counts the interaction in both margins (McCullagh
  2000) and is conservative, by a factor up to about 3 on the variance
  when the interaction dominates (binary losses with seed-dependent errors,
  the common case).

Measured coverage at 95 % (``benchmarks/crossed_coverage.py``, 2000 runs
per cell, s.e. about 0.005; S = 5, 10, 30 seeds x n = 50, 200, 1000 rows):

* variance components: 0.934-0.969 with normal seed / row / interaction
  effects (rows, seeds or interaction dominating) and with 0/1 losses at
  accuracy 0.80 (0.931 at S = 5, n = 1000); 0.92-0.96 at accuracy 0.96
  (0.921 at S = 30, n = 50; 0.930 at S = 10, n = 50); lognormal losses
  0.89-0.905 at n = 50, 0.92-0.945 from n = 200 (a t interval inherits the
  skew of the row means, as in the 1-D case);
* seeds only (rows held fixed): 0.25-0.95, short whenever the rows matter;
* pigeonhole percentile (200 runs per cell): 0.78-0.86 at S = 5 when the
  seeds dominate (a percentile interval over 5 seeds has no t correction)
  and 0.99 at S = 5, n = 50 when the interaction dominates (it double
  counts it).

The t interval with Satterthwaite's df is therefore the default: it keeps
the exact t over seeds when they dominate and does not double count the
interaction.

Metrics that are not a mean of per-row values (ROC AUC, F1, R^2, RMSE, a
callable) use the same formula on the *per-seed metric*: the seed part is
the variance of the per-seed metrics over seeds, the row part the mean
off-diagonal covariance of two seeds' metrics under a bootstrap of the
shared test rows (:func:`_crossed_from_covariance`). For a mean the bootstrap
covariance is ``(n - 1) / n`` times the analytic one, so both agree.

References
----------
P. McCullagh (2000), "Resampling and exchangeable arrays", Bernoulli 6(2).
A. B. Owen (2007), "The pigeonhole bootstrap", Ann. Appl. Stat. 1(2).
F. E. Satterthwaite (1946), "An approximate distribution of estimates of
variance components", Biometrics Bull. 2(6).
Bouthillier et al. (2021), "Accounting for Variance in Machine Learning
Benchmarks", Sec. 2-3 (seed and data-sampling sources of variation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._results import Interval, _fmt
from ._validation import _check_confidence

__all__ = ["CrossedInterval", "crossed_mean_ci"]

#: what a seeds x rows interval covers
TARGET = "new test data, the model trained on this training set, over training seeds"
#: what the seeds-only interval covers
SEEDS_ONLY_TARGET = (
    "these test rows, the model trained on this training set, over training seeds"
)


@dataclass(frozen=True, eq=False)
class CrossedInterval(Interval):
    """Interval for the mean over a seeds x test rows design.

    An :class:`~skperf.Interval` (``estimate, low, high, confidence,
    method, n, target``; ``n`` is the number of test rows) with the
    design's extra numbers.

    Parameters
    ----------
    estimate, low, high : float
        The mean over seeds and rows and its interval.
    confidence : float
        Confidence level.
    method : str
        The interval's method.
    n : int
        Number of test rows.
    n_boot : int or None, default=None
        Bootstrap resamples, where a method used them.
    n_undefined : int, default=0
        Resamples on which the metric was undefined.
    note : str, default=""
        What the interval describes.
    target : str or None, default=None
        What the interval covers (new test data, the model trained on this
        training set, over training seeds).
    n_seeds : int, default=0
        Number of training seeds.
    df : float, default=nan
        Satterthwaite degrees of freedom of the t interval.
    se : float, default=nan
        Standard error of the estimate (seeds and rows).
    seeds_only : Interval or None, default=None
        The t interval over the seeds alone (test rows held fixed), what a
        mean over seeds reports; it leaves out the test-row sampling
        variation.
    components : dict, default=None
        The variance of the estimate split into ``"seeds"`` (seed effects
        and interaction, ``var(seed means) / S``) and ``"rows"`` (the shared
        test-row effect).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._crossed import crossed_mean_ci
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(5, 1)) * 0.1 + rng.normal(size=(1, 200)) + 1
    >>> ci = crossed_mean_ci(x)
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
    1.012 [0.871, 1.153]
    >>> print(f"{ci.width_ratio:.1f}")
    2.7
    """

    n_seeds: int = 0
    df: float = math.nan
    se: float = math.nan
    seeds_only: Interval | None = None
    components: dict | None = None

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "n_seeds", int(self.n_seeds))
        object.__setattr__(self, "df", float(self.df))
        object.__setattr__(self, "se", float(self.se))

    @property
    def width_ratio(self):
        """Length of this interval over the seeds-only one (``inf`` if that is 0)."""
        if self.seeds_only is None:
            return math.nan
        lo = self.seeds_only.high - self.seeds_only.low
        return math.inf if lo <= 0 else (self.high - self.low) / lo

    def __repr__(self):
        middle = [f"n={self.n}", f"n_seeds={self.n_seeds}", f"df={_fmt(self.df)}"]
        return self._interval_repr(middle=middle)


def _crossed_iv(x, name="x"):
    """``x`` as a finite float array ``(..., S, n)`` with ``S, n >= 2``."""
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"`{name}` must be a numeric array of shape (n_seeds, n_rows) with the "
            "same number of rows for every seed (got ragged or non-numeric input)."
        ) from None
    if arr.ndim < 2:
        raise ValueError(
            f"`{name}` must have shape (n_seeds, n_rows); got shape {arr.shape}."
        )
    s, n = arr.shape[-2:]
    if s < 2:
        raise ValueError(
            f"`{name}` must hold at least 2 seeds (rows of the array) to measure "
            f"the seed-to-seed variation; got n_seeds = {s}."
        )
    if n < 2:
        raise ValueError(
            f"`{name}` must hold at least 2 test rows (columns); got n_rows = {n}."
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"`{name}` must be finite; found NaN or infinite values.")
    return arr


def _satterthwaite(terms):
    """df of a sum of ``(value, df)`` mean-square terms (Satterthwaite 1946).

    ``value`` is the signed term ``c_i MS_i``; df ``= (sum c_i MS_i)^2 / sum
    (c_i MS_i)^2 / df_i``.
    """
    num = sum(v for v, _ in terms) ** 2
    den = sum(np.where(d > 0, v**2 / np.maximum(d, 1), 0.0) for v, d in terms)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.inf)


def _seed_part(theta, cov, n):
    """``(var(theta) / S floored at MS_err / (S n), its df)`` of one model."""
    s = theta.shape[-1]
    v = np.var(theta, axis=-1, ddof=1) / s
    total = cov.sum(axis=(-2, -1))
    ms_err = (np.trace(cov, axis1=-2, axis2=-1) - total / s) / (s * (s - 1))
    floor = v < ms_err
    return np.where(floor, ms_err, v), np.where(floor, (s - 1) * (n - 1), s - 1)


def _crossed_from_covariance(theta, cov, n):
    """Variance parts of the seed mean of per-seed metrics ``theta``.

    Parameters
    ----------
    theta : ndarray of shape (..., S)
        The metric of each seed's model on the test rows.
    cov : ndarray of shape (..., S, S)
        Covariance of the per-seed metrics under sampling of the test rows
        (analytic ``cov(x) / n`` for a mean, or from a row bootstrap shared
        by all seeds).
    n : int
        Number of test rows.

    Returns
    -------
    v_seed, v_row, df : ndarray of shape (...)
        ``var(theta) / S`` (seed effects and interaction; at least the
        interaction part ``MS_err / (S n)``), the shared
        row part (mean off-diagonal covariance, floored at 0) and the
        Satterthwaite df of their sum. In ANOVA terms ``v_seed = MS_seed /
        (S n)``, ``v_row = (MS_row - MS_err) / (S n)``; the df treats
        ``MS_row`` with ``n - 1`` and ``MS_err`` with ``(S - 1)(n - 1)``
        degrees of freedom.
    """
    s = theta.shape[-1]
    v_seed = np.var(theta, axis=-1, ddof=1) / s
    total = cov.sum(axis=(-2, -1))
    trace = np.trace(cov, axis1=-2, axis2=-1)
    ms_row = total / s**2  # MS_row / (S n)
    ms_err = (trace - total / s) / (s * (s - 1))  # MS_err / (S n)
    v_row = np.maximum(ms_row - ms_err, 0.0)
    keep = ms_row > ms_err
    # The seed part is floored at MS_err / (S n), the interaction alone (a
    # seed variance component estimated below 0 is set to 0). Without it a
    # low draw of the noisy MS_seed (S - 1 df) came with a large
    # Satterthwaite df and too short an interval: 0.927 at S = 5, n = 50
    # when the interaction dominates; 0.94 with the floor.
    floor = v_seed < ms_err
    v_seed = np.where(floor, ms_err, v_seed)
    df = _satterthwaite(
        [
            (v_seed, np.where(floor, (s - 1) * (n - 1), s - 1)),
            (np.where(keep, ms_row, 0.0), n - 1),
            (np.where(keep, -ms_err, 0.0), (s - 1) * (n - 1)),
        ]
    )
    return v_seed, v_row, df


def _t_bounds(est, var, df, confidence):
    se = np.sqrt(var)
    q = stats.t.ppf(0.5 + confidence / 2, df)
    return est - q * se, est + q * se, se


def _crossed_interval(theta, cov, n, confidence, method, note=""):
    """:class:`CrossedInterval` from per-seed metrics and their row covariance."""
    s = theta.shape[-1]
    est = theta.mean(axis=-1)
    v_seed, v_row, df = _crossed_from_covariance(theta, cov, n)
    low, high, se = _t_bounds(est, v_seed + v_row, df, confidence)
    # what a mean over seeds reports: var(theta) / S, S - 1 df
    s_var = np.var(theta, axis=-1, ddof=1) / s
    s_low, s_high, _ = _t_bounds(est, s_var, s - 1, confidence)
    seeds_only = Interval(
        est,
        s_low,
        s_high,
        confidence,
        "t over seeds",
        s,
        note="the test rows held fixed: leaves out the test-row sampling variation",
        target=SEEDS_ONLY_TARGET,
    )
    return CrossedInterval(
        est,
        low,
        high,
        confidence,
        method,
        n,
        note=note,
        target=TARGET,
        n_seeds=s,
        df=df,
        se=se,
        seeds_only=seeds_only,
        components={"seeds": float(v_seed), "rows": float(v_row)},
    )


def crossed_mean_ci(x, *, confidence=0.95):
    """Interval for the mean of per-row values over seeds x test rows.

    Parameters
    ----------
    x : array-like of shape (n_seeds, n_rows)
        Per-row values (losses, 0/1 correctness, ...) of the model trained
        with each seed, on the same test rows in the same order.
    confidence : float, default=0.95
        Confidence level in (0, 1).

    Returns
    -------
    CrossedInterval
        The grand mean, its t interval with Satterthwaite df
        (``method="variance-components"``), the seeds-only interval in
        ``seeds_only`` and the variance split in ``components``.

    Raises
    ------
    ValueError
        When ``x`` is ragged, not 2-D, has fewer than 2 seeds or rows, or
        holds NaN / infinite values.

    Notes
    -----
    The target is the expected per-row value on new test rows of a model
    trained on this training set, averaged over training seeds. The
    variance ``(MS_seed + MS_row - MS_err) / (S n)`` of the two-way ANOVA is
    unbiased for the variance of the grand mean under the crossed random
    effects model (module docstring); the row part is floored at 0. Rows
    and seeds are assumed independent draws; rows of one group (a patient)
    are not independent.

    References
    ----------
    Searle, Casella & McCulloch (1992), Variance Components, ch. 4;
    Satterthwaite (1946); Owen (2007), Sec. 3; McCullagh (2000).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._crossed import crossed_mean_ci
    >>> rng = np.random.default_rng(1)
    >>> difficulty = rng.beta(8, 2, size=150)            # per-row P(correct)
    >>> correct = rng.random((10, 150)) < difficulty     # 10 seeds
    >>> ci = crossed_mean_ci(correct)
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
    0.811 [0.782, 0.839]
    >>> s = ci.seeds_only
    >>> print(f"seeds only [{s.low:.3f}, {s.high:.3f}]")
    seeds only [0.793, 0.828]
    """
    confidence = _check_confidence(confidence)
    x = _crossed_iv(x)
    if x.ndim != 2:
        raise ValueError(f"`x` must be 2-D (n_seeds, n_rows); got shape {x.shape}.")
    n = x.shape[1]
    theta = x.mean(axis=1)
    cov = np.cov(x) / n
    return _crossed_interval(theta, cov, n, confidence, "variance-components")


def _crossed_diff(theta_a, theta_b, c_aa, c_bb, c_ab, n, paired_seeds):
    """Estimate, variance and df of ``mean(theta_a) - mean(theta_b)``.

    ``c_ab[s, t]`` is the row covariance of seed ``s`` of model a and seed
    ``t`` of model b. With ``paired_seeds`` (same seeds, the same length)
    the per-seed differences are one crossed design. Otherwise the seeds of
    a and b are independent: each model's seed part, plus the shared
    row part of the difference (the mean off-diagonal covariance within
    each model minus twice the mean cross covariance; interactions of
    independent seeds do not covary), with ``n - 1`` df.
    """
    if paired_seeds:
        theta = theta_a - theta_b
        cov = c_aa + c_bb - c_ab - c_ab.T
        v_seed, v_row, df = _crossed_from_covariance(theta, cov, n)
        return float(theta.mean()), float(v_seed), float(v_row), float(df)
    _sa, _sb = theta_a.size, theta_b.size
    va, dfa = _seed_part(theta_a, c_aa, n)
    vb, dfb = _seed_part(theta_b, c_bb, n)

    def offdiag(c):
        k = c.shape[0]
        return (c.sum() - np.trace(c)) / (k * (k - 1))

    v_row = max(offdiag(c_aa) + offdiag(c_bb) - 2 * c_ab.mean(), 0.0)
    df = _satterthwaite([(va, dfa), (vb, dfb), (v_row, n - 1)])
    est = float(theta_a.mean() - theta_b.mean())
    return est, float(va + vb), float(v_row), float(df)


def _crossed_diff_ci(
    theta_a, theta_b, c_aa, c_bb, c_ab, n, *, confidence, paired_seeds
):
    """``(estimate, low, high, se, df, pvalue, statistic, seeds-only (low, high), parts)``.

    The paired comparison of two models over seeds x test rows (same rows
    always paired); the seeds-only interval holds the rows fixed.
    """
    est, v_seed, v_row, df = _crossed_diff(
        theta_a, theta_b, c_aa, c_bb, c_ab, n, paired_seeds
    )
    low, high, se = _t_bounds(est, v_seed + v_row, df, confidence)
    # the seeds-only interval: what a t interval over seeds reports
    sa, sb = theta_a.size, theta_b.size
    if paired_seeds:
        s_var = np.var(theta_a - theta_b, ddof=1) / sa
        df_seed = sa - 1
    else:
        va, vb = np.var(theta_a, ddof=1) / sa, np.var(theta_b, ddof=1) / sb
        s_var = va + vb
        df_seed = float(_satterthwaite([(va, sa - 1), (vb, sb - 1)]))
    s_low, s_high, _ = _t_bounds(est, s_var, df_seed, confidence)
    if se > 0:
        statistic = est / se
        pvalue = float(2 * stats.t.sf(abs(statistic), df))
    else:
        statistic = 0.0 if est == 0 else math.copysign(math.inf, est)
        pvalue = 1.0 if est == 0 else 0.0
    return {
        "estimate": est,
        "low": float(low),
        "high": float(high),
        "se": float(se),
        "df": float(df),
        "pvalue": pvalue,
        "statistic": float(statistic),
        "seeds_only": (float(s_low), float(s_high), float(df_seed)),
        "components": {"seeds": v_seed, "rows": v_row},
    }


def _pigeonhole_means(x, n_boot, rng):
    """Grand means of ``n_boot`` pigeonhole resamples of ``x`` ``(S, n)``.

    Seeds and rows are resampled independently (Owen 2007); vectorized by
    multinomial counts: ``mean* = w_seed @ x @ w_row / (S n)``. Used to
    measure the alternative (module docstring), not by the default.
    """
    s, n = x.shape
    ws = rng.multinomial(s, np.full(s, 1 / s), size=n_boot) / s
    wr = rng.multinomial(n, np.full(n, 1 / n), size=n_boot) / n
    return np.einsum("bs,sr,br->b", ws, x, wr)
