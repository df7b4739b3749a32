"""Probability of outperforming P(A > B) (Bouthillier et al. 2021, Sec. 4.1, App. C).

P(A > B) is the probability that a score of A beats a score of B, ties
counting one half. Paired scores (same seeds) compare pair ``i`` of A with
pair ``i`` of B; unpaired scores compare all ``n * m`` pairs (the
Mann-Whitney form ``U / (n m)``), computed from ranks so that no ``n x m``
matrix is built. The working axis is last; leading axes are a batch.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy import special, stats

from ._bootstrap import (
    _CHUNK_ELEMENTS,
    _iter_indices,
    _percentile_bounds,
)
from ._mean import _bootstrap_mean, _resample_counts
from ._results import DECISIONS, _IntervalMixin
from ._validation import (
    _check_confidence,
    _check_method,
    _check_rng,
    _check_sample,
    _n_boot_for,
    _resolve_n_boot,
)

__all__ = [
    "ProbOutperformCI",
    "noether_sample_size",
    "outperform_decision",
    "prob_outperform",
    "prob_outperform_ci",
]


@dataclass(frozen=True, eq=False)
class ProbOutperformCI(_IntervalMixin):
    """P(A > B) with its confidence interval, from :func:`prob_outperform_ci`.

    Fields are read-only arrays of the batch shape for batched input,
    Python scalars otherwise.

    Parameters
    ----------
    estimate : float or ndarray
        P(A > B) on the original samples (ties count one half).
    low, high : float or ndarray
        Confidence interval of P(A > B), within [0, 1].
    confidence : float
        Nominal confidence level.
    method : str
        Interval method used: ``"sign"``, ``"brunner-munzel"``,
        ``"newcombe"`` or ``"bootstrap"`` (``"auto"`` resolved).
    paired : bool
        Whether pair ``i`` of A was compared with pair ``i`` of B.
    n_a, n_b : int
        Number of scores of A and of B along the working axis.
    n_boot : int or None, default=None
        Number of bootstrap resamples (``None`` for an exact method).
    target : str, default="this dataset"
        What the interval covers: P(A > B) over the distribution of scores
        of repeated runs on this dataset (Bouthillier et al. 2021, Sec. 4.1).

    Examples
    --------
    >>> from skperf.stats import prob_outperform_ci
    >>> a = [0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.98]
    >>> b = [0.90, 0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97]
    >>> prob_outperform_ci(a, b, paired=True)
    ProbOutperformCI(estimate=1, low=0.6306, high=1, confidence=0.95, \
method='sign', paired=True, n_a=8, n_b=8, target='this dataset')
    """

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    paired: bool
    n_a: int
    n_b: int
    n_boot: int | None = None
    target: str = "this dataset"

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "paired", bool(self.paired))
        for name in ("n_a", "n_b"):
            object.__setattr__(self, name, int(getattr(self, name)))

    def __repr__(self):
        counts = [f"paired={self.paired}", f"n_a={self.n_a}", f"n_b={self.n_b}"]
        return self._interval_repr(middle=counts)


def _check_gamma(gamma):
    if isinstance(gamma, bool) or not isinstance(gamma, numbers.Real):
        raise TypeError(f"`gamma` must be a float in (0.5, 1); got {gamma!r}.")
    if not 0.5 < float(gamma) < 1:
        hint = f" Did you mean {gamma / 100:g}?" if 50 < gamma < 100 else ""
        raise ValueError(f"`gamma` must be in (0.5, 1); got {gamma!r}.{hint}")
    return float(gamma)


def _check_bool(value, name):
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"`{name}` must be True or False; got {value!r}.")
    return bool(value)


def _prob_outperform_iv(a, b, paired, greater_is_better, axis, min_n=1):
    paired = _check_bool(paired, "paired")
    greater_is_better = _check_bool(greater_is_better, "greater_is_better")
    a = _check_sample(a, axis=axis, min_n=min_n, name="a")
    b = _check_sample(b, axis=axis, min_n=min_n, name="b")
    if paired and a.shape[-1] != b.shape[-1]:
        raise ValueError(
            "paired=True needs one score of `b` per score of `a`; got "
            f"{a.shape[-1]} and {b.shape[-1]} scores. Use paired=False."
        )
    try:
        shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    except ValueError:
        raise ValueError(
            f"The batch axes of `a` {a.shape[:-1]} and `b` {b.shape[:-1]} do not "
            "broadcast."
        ) from None
    a = np.broadcast_to(a, (*shape, a.shape[-1]))
    b = np.broadcast_to(b, (*shape, b.shape[-1]))
    if not greater_is_better:
        # lower is better: P(A better than B) = P(-A > -B)
        a, b = -a, -b
    return a, b, paired


def _wins(a, b):
    """Per-pair outcome: 1 if ``a > b``, 1/2 if tied, 0 otherwise."""
    return (a > b) + 0.5 * (a == b)


def _rank_positions(a, b):
    """For each ``b_j``: ``#(a < b_j)`` and ``#(a <= b_j)``, from ranks.

    Ranks of ``b_j`` in the pooled sample minus its rank within ``b``, so
    the cost is two sorts, ``O((n + m) log(n + m))``, for any batch shape.
    """
    n = a.shape[-1]
    pooled = np.concatenate([a, b], axis=-1)
    below = stats.rankdata(pooled, method="min", axis=-1)[..., n:] - stats.rankdata(
        b, method="min", axis=-1
    )
    at_most = stats.rankdata(pooled, method="max", axis=-1)[..., n:] - stats.rankdata(
        b, method="max", axis=-1
    )
    return below.astype(np.intp), at_most.astype(np.intp)


def _prob_unpaired(a, b):
    """``U / (n m)`` with ties counted 1/2: mean over ``b_j`` of its wins."""
    n, m = a.shape[-1], b.shape[-1]
    below, at_most = _rank_positions(a, b)
    # a_i beats b_j for n - #(a <= b_j) of the i; ties: #(a <= b_j) - #(a < b_j)
    return (n - 0.5 * (below + at_most)).sum(axis=-1) / (n * m)


def prob_outperform(a, b, *, paired, greater_is_better=True, axis=-1):
    """Probability of outperforming P(A > B), ties counting 1/2.

    Parameters
    ----------
    a, b : array-like of shape (..., n) and (..., m)
        Scores of the two models along ``axis``; leading axes are a batch
        and broadcast against each other.
    paired : bool
        ``True``: ``a[i]`` and ``b[i]`` come from the same seeds (split,
        initialization ...) and only they are compared (``n == m``).
        ``False``: every score of ``a`` is compared with every score of
        ``b``.
    greater_is_better : bool, default=True
        ``False`` for losses: then A outperforms B when its score is lower.
    axis : int, default=-1
        Axis of the observations.

    Returns
    -------
    float or ndarray
        P(A > B), an array of the batch shape for batched input.

    Notes
    -----
    Paired: ``mean_i 1[a_i > b_i] + 1/2 1[a_i = b_i]`` (Bouthillier et
    al., Sec. 4.1, eq. 9). Unpaired: the Mann-Whitney statistic divided by
    ``n m``, i.e. the same mean over all ``n m`` pairs, computed from ranks
    in ``O((n + m) log(n + m))``.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 4.1 and App. C.2 (pairing).

    Examples
    --------
    >>> from skperf.stats import prob_outperform
    >>> a, b = [0.81, 0.83, 0.80, 0.85], [0.80, 0.84, 0.80, 0.82]
    >>> float(prob_outperform(a, b, paired=True))  # wins 1, 0, 1/2, 1
    0.625
    >>> float(prob_outperform(a, b, paired=False))
    0.625
    """
    a, b, paired = _prob_outperform_iv(a, b, paired, greater_is_better, axis)
    p = _wins(a, b).mean(axis=-1) if paired else _prob_unpaired(a, b)
    return p if p.ndim else float(p)


def _boot_unpaired(a, b, n_boot, rng, groups_a=None, groups_b=None):
    """Percentile-bootstrap replicates of the unpaired P(A > B).

    Each resample draws ``a`` and ``b`` independently (two child generators,
    so the chunk size never changes the answer). With resample counts
    ``c_i`` of ``a`` (in sorted order) and ``d_j`` of ``b``, the replicate is
    ``sum_j d_j (N - (C[<= b_j] + C[< b_j]) / 2) / (N M)`` where ``C`` are
    cumulative counts of ``a`` below ``b_j`` and ``N = sum c_i``,
    ``M = sum d_j`` (``n`` and ``m`` unless groups are resampled):
    ``O(n + m)`` per resample and no ``n x m`` matrix.

    ``groups_a`` (labels ``0 .. G_a - 1`` of shape ``(n,)``, or ``None``)
    resamples whole groups of ``a`` (cluster bootstrap): every score of a
    drawn group counts once per draw; likewise ``groups_b``.
    """
    n, m = a.shape[-1], b.shape[-1]
    units_a = n if groups_a is None else int(groups_a.max()) + 1
    units_b = m if groups_b is None else int(groups_b.max()) + 1
    batch_shape = a.shape[:-1]
    order = np.argsort(a, axis=-1, kind="stable")
    below, at_most = _rank_positions(a, b)
    below, at_most = below[..., None, :], at_most[..., None, :]
    rng_a, rng_b = rng.spawn(2)
    size = int(np.prod(batch_shape, dtype=np.int64)) * (n + m)
    chunk = max(1, min(n_boot, _CHUNK_ELEMENTS // max(size, 1)))
    out = []
    for idx_a, idx_b in zip(
        _iter_indices(units_a, n_boot, rng_a, chunk),
        _iter_indices(units_b, n_boot, rng_b, chunk),
        strict=True,
    ):
        k = idx_a.shape[0]
        count_a = _resample_counts(idx_a, units_a)  # (k, units_a)
        count_b = _resample_counts(idx_b, units_b)  # (k, units_b)
        if groups_a is not None:  # a drawn group brings all its scores
            count_a = count_a[:, groups_a]  # (k, n), original order
        if groups_b is not None:
            count_b = count_b[:, groups_b]  # (k, m)
        total_a = count_a.sum(axis=-1, keepdims=True)  # n when not grouped
        total_b = count_b.sum(axis=-1)  # m when not grouped
        # counts in sorted order of a, per batch element: (..., k, n)
        sorted_counts = np.moveaxis(count_a[:, order], 0, -2)
        cum = np.zeros((*batch_shape, k, n + 1))
        np.cumsum(sorted_counts, axis=-1, out=cum[..., 1:])
        shape = (*batch_shape, k, m)
        c_below = np.take_along_axis(cum, np.broadcast_to(below, shape), axis=-1)
        c_at_most = np.take_along_axis(cum, np.broadcast_to(at_most, shape), axis=-1)
        wins_j = total_a - 0.5 * (c_below + c_at_most)  # resampled a vs b_j
        # one division of exact (half-)integer sums: a replicate of exactly
        # 0.5 stays exactly 0.5
        out.append((wins_j * count_b).sum(axis=-1) / (total_a[:, 0] * total_b))
    return np.concatenate(out, axis=-1)


def _boot_paired_groups(wins, groups, n_boot, rng):
    """Cluster-bootstrap replicates of the paired P(A > B) (1-D ``wins``).

    Resamples whole groups of pairs (labels ``0 .. G - 1``): each replicate
    is the total of the wins in the drawn groups over their number of pairs,
    one matrix product per chunk of resamples.
    """
    n_groups = int(groups.max()) + 1
    sums = np.bincount(groups, weights=wins, minlength=n_groups)
    sizes = np.bincount(groups, minlength=n_groups).astype(float)
    out = []
    for idx in _iter_indices(n_groups, n_boot, rng, n_batch=2):
        counts = _resample_counts(idx, n_groups).astype(float)
        out.append((counts @ sums) / (counts @ sizes))  # exact half-integers
    return np.concatenate(out)


def _prob_outperform_ci_groups(
    a,
    b,
    *,
    paired,
    groups_a,
    groups_b,
    confidence,
    n_boot,
    random_state,
    greater_is_better,
):
    """P(A > B) and its percentile interval, resampling groups (1-D only).

    For scores that are dependent within groups (the folds of one K-fold
    repeat): ``paired`` needs ``groups_a`` (labels ``0 .. G - 1`` of the
    pairs; ``groups_b`` ignored); unpaired, each of ``groups_a``/``groups_b``
    is labels ``0 .. G - 1`` or ``None`` (resample single scores). Inputs
    are validated by the caller (:func:`skperf._compare.compare`).
    """
    rng = random_state  # a Generator, built by the caller
    a, b, paired = _prob_outperform_iv(a, b, paired, greater_is_better, -1, min_n=2)
    if paired:
        wins = _wins(a, b)
        est = wins.mean()
        boot = _boot_paired_groups(wins, groups_a, n_boot, rng)
    else:
        est = _prob_unpaired(a, b)
        boot = _boot_unpaired(a, b, n_boot, rng, groups_a, groups_b)
    low, high = (np.clip(v, 0.0, 1.0) for v in _percentile_bounds(boot, confidence))
    return float(est), float(low), float(high)


_CI_METHODS = ("auto", "bootstrap", "brunner-munzel", "newcombe", "sign")

# Unpaired scores without ties get the exact Mann-Whitney p-value up to this
# n * m (scipy's exact null distribution takes well under a millisecond
# there); beyond it the normal approximation is accurate.
_EXACT_MW_MAX = 10_000


def _resolve_method(method, paired):
    """``"sign"`` / ``"newcombe"`` / ``"bootstrap"`` for ``method`` and pairing."""
    method = _check_method(method, _CI_METHODS)
    if method == "auto":
        return "sign" if paired else "brunner-munzel"
    if method == "sign" and not paired:
        raise ValueError(
            "method='sign' needs paired scores (it counts the pairs each model "
            "wins); use method='brunner-munzel' or 'auto' for unpaired scores."
        )
    if method in ("newcombe", "brunner-munzel") and paired:
        raise ValueError(
            f"method={method!r} is for unpaired scores (all n * m pairs); use "
            "method='sign' or 'auto' for paired scores."
        )
    return method


def _beta_bounds(k, n, confidence):
    """Clopper-Pearson bounds of ``k`` successes in ``n`` trials.

    ``k`` may be a half-integer (ties counted 1/2); ``n = 0`` gives [0, 1].
    """
    alpha = 1 - confidence
    k, n = np.broadcast_arrays(np.asarray(k, float), np.asarray(n, float))
    with np.errstate(invalid="ignore", divide="ignore"):
        # beta.ppf(q, a, b) without scipy.stats' per-call overhead
        low = special.betaincinv(np.where(k > 0, k, 1.0), n - k + 1, alpha / 2)
        high = special.betaincinv(k + 1, np.where(k < n, n - k, 1.0), 1 - alpha / 2)
    return np.where(k > 0, low, 0.0), np.where(k < n, high, 1.0)


def _sign_pvalue(wins, losses):
    """Two-sided exact sign test of P(win) = P(loss), ties dropped.

    ``2 min(P(X <= W), P(X >= W))`` for ``X ~ Bin(W + L, 1/2)``, as
    ``scipy.stats.binomtest(W, W + L).pvalue`` (the null is symmetric); 1
    when every pair is tied.
    """
    wins, losses = np.asarray(wins), np.asarray(losses)
    # the null is symmetric: min(P(X <= W), P(X >= W)) = P(X <= min(W, L))
    tail = special.bdtr(np.minimum(wins, losses), wins + losses, 0.5)
    return np.minimum(1.0, 2 * tail)


def _sign_interval(wins, ties, losses, confidence):
    """Interval of paired P(A > B) from the counts of wins, ties and losses.

    With ``M = W + L`` untied pairs, P(A > B) = 1/2 + (M/n) (q - 1/2) where
    ``q`` is the share of wins among untied pairs. The bound on the side of
    1/2 is the Clopper-Pearson bound of ``q`` (``W`` of ``M``) so rescaled,
    so that the interval excludes 1/2 exactly when the exact sign test
    rejects (given ``M``, ``W ~ Bin(M, 1/2)`` under P(A > B) = 1/2 whatever
    the share of ties; hence the false-"significant" rate is at most
    ``1 - confidence`` at every n and tie rate). The rescaling treats the
    share of ties ``T / n`` as known, so the bound away from 1/2 is widened
    to at least the Clopper-Pearson bound of ``W + T/2`` of ``n`` (ties
    split half/half; the per-pair score has at most binomial variance):
    without it the upper bound covers only 42 % when B never beats A but ties
    10 % of the pairs. Exact trinomial enumeration (tests) gives coverage
    >= ``confidence`` for n = 2..50, tie rates 0..0.95 and every P(A > B).
    """
    wins, ties, losses = (np.asarray(v, dtype=float) for v in (wins, ties, losses))
    n = wins + ties + losses
    untied = wins + losses
    q_low, q_high = _beta_bounds(wins, untied, confidence)
    share = untied / n
    near_low = 0.5 + share * (q_low - 0.5)
    near_high = 0.5 + share * (q_high - 0.5)
    split_low, split_high = _beta_bounds(wins + 0.5 * ties, n, confidence)
    low = np.where(near_low > 0.5, near_low, np.minimum(near_low, split_low))
    high = np.where(near_high < 0.5, near_high, np.maximum(near_high, split_high))
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def _hm_sd(theta, n_a, n_b):
    """Hanley-McNeil standard error of U / (n m) at ``theta``, n* = (n + m) / 2.

    Newcombe (2006) replaces both sample sizes of the Hanley-McNeil variance
    by their mean (his method 5); at ``theta = 1/2`` it is the Mann-Whitney
    null variance ``(n + m + 1) / (12 n m)``.
    """
    n_star = (n_a + n_b) / 2
    var = (
        theta
        * (1 - theta)
        * (1 + (n_star - 1) * ((1 - theta) / (2 - theta) + theta / (1 + theta)))
        / (n_a * n_b)
    )
    return np.sqrt(np.maximum(var, 0.0))


def _u_null_pmf(m, n):
    """Exact null pmf of the Mann-Whitney U (no ties): Gaussian binomial.

    ``pmf[u] = P(U = u)`` for u = 0 .. m n under H0 with samples of sizes m
    and n; for the exact rates of the unpaired interval (the tests and
    ``benchmarks/compare_coverage.py``).
    """
    size = m * n + 1
    c = np.zeros(size)
    c[0] = 1.0
    for i in range(1, m + 1):
        d = c.copy()
        d[n + i :] -= c[: size - n - i]  # times (1 - q^(n + i))
        pad = (-size) % i  # divided by (1 - q^i): running sums with stride i
        d = np.concatenate([d, np.zeros(pad)]).reshape(-1, i).cumsum(axis=0)
        c = d.ravel()[:size]
    return c / c.sum()


def _newcombe_bounds(theta, n_a, n_b, confidence, n_iter=60):
    """Score interval of the Mann-Whitney probability (Newcombe 2006, method 5).

    The set of ``t`` with ``|theta - t| - 1 / (2 n m) <= z se(t)``
    (continuity correction of half a count of ``U``), ``se`` the
    Hanley-McNeil standard error at ``t`` (:func:`_hm_sd`); each bound by
    vectorized bisection on its side of ``theta``. Unlike a Wald or a
    bootstrap interval it does not collapse when one sample beats the other
    completely (``theta = 1``).
    """
    theta = np.asarray(theta, dtype=float)
    z = special.ndtri(0.5 + confidence / 2)
    cc = 0.5 / (n_a * n_b)

    def inside(t):
        return np.abs(theta - t) - cc <= z * _hm_sd(t, n_a, n_b)

    out = []
    for start in (np.zeros_like(theta), np.ones_like(theta)):
        outside, inner = start, theta.copy()  # the bound lies in between
        for _ in range(n_iter):
            mid = 0.5 * (outside + inner)
            ok = inside(mid)
            inner = np.where(ok, mid, inner)
            outside = np.where(ok, outside, mid)
        out.append(np.where(inside(start), start, inner))
    return out[0], out[1]


def _has_ties(pooled):
    srt = np.sort(pooled, axis=-1)
    return np.any(srt[..., 1:] == srt[..., :-1], axis=-1)


def _mann_whitney_pvalue(a, b):
    """Two-sided Mann-Whitney p-value for every batch row of ``a``, ``b``.

    Exact (scipy's exact null distribution) without ties when ``n m <=
    10_000``; otherwise scipy's normal approximation with tie correction and
    continuity correction. 1 when all scores are equal.
    """
    pooled = np.concatenate([a, b], axis=-1)
    shape = pooled.shape[:-1]
    a = a.reshape(-1, a.shape[-1])
    b = b.reshape(-1, b.shape[-1])
    pooled = pooled.reshape(-1, pooled.shape[-1])
    p = np.ones(pooled.shape[0])
    ties = _has_ties(pooled)
    constant = np.ptp(pooled, axis=-1) == 0
    exact = ~ties if a.shape[-1] * b.shape[-1] <= _EXACT_MW_MAX else np.zeros_like(ties)
    for rows, how in ((exact, "exact"), (~exact & ~constant, "asymptotic")):
        if rows.any():
            p[rows] = stats.mannwhitneyu(a[rows], b[rows], method=how, axis=-1).pvalue
    return p.reshape(shape)


def _brunner_munzel(a, b):
    """P(A > B), its Brunner-Munzel standard error and Welch degrees of freedom.

    Placements (DeLong's form of Brunner & Munzel's rank variance): ``v_i``
    is the share of ``b`` that ``a_i`` beats and ``w_j`` the share of ``a``
    that beats ``b_j`` (ties 1/2), so that ``mean(v) = mean(w)`` is
    ``U / (n m)``. ``se^2 = var(v) / n + var(w) / m`` (``ddof=1``) is
    Brunner & Munzel's (2000) variance estimator, consistent whatever the
    two distributions (it does not assume equal shapes or spreads under the
    null, unlike the Mann-Whitney variance); ``df`` is their
    Satterthwaite approximation, as in ``scipy.stats.brunnermunzel``.
    """
    n, m = a.shape[-1], b.shape[-1]
    below_b, at_most_b = _rank_positions(b, a)  # for each a_i: b below it
    v = 0.5 * (below_b + at_most_b) / m
    below_a, at_most_a = _rank_positions(a, b)  # for each b_j: a below it
    w = (n - 0.5 * (below_a + at_most_a)) / n
    est = v.mean(axis=-1)
    # U / (n m) is a multiple of 1 / (2 n m): remove float error
    est = np.round(est * 2 * n * m) / (2 * n * m)
    var_a = v.var(axis=-1, ddof=1) / n
    var_b = w.var(axis=-1, ddof=1) / m
    var = var_a + var_b
    with np.errstate(invalid="ignore", divide="ignore"):
        df = var**2 / (var_a**2 / (n - 1) + var_b**2 / (m - 1))
    return est, np.sqrt(var), df


#: Smallest number of scores per model at which the unpaired Brunner-Munzel
#: interval was measured to hold its level (see ``_brunner_munzel_bounds``).
_BM_MIN_N = 10


def _brunner_munzel_bounds(a, b, confidence):
    """Brunner-Munzel interval of the unpaired P(A > B) and its p-value.

    The Brunner-Munzel t interval ``est -+ (t_{df, (1 + confidence) / 2} se
    + 1 / (2 max(n, m)))`` (:func:`_brunner_munzel`; dual to the two-sided
    t test of ``scipy.stats.brunnermunzel`` with a continuity correction of
    half a step of the coarser placement lattice), valid when the two
    models differ in spread, joined with Newcombe's score interval (itself joined with 1/2
    when the Mann-Whitney test does not reject). The join only widens: a
    difference is "significant" only when both the Brunner-Munzel and the
    Mann-Whitney test reject, so the false-"significant" rate is at most
    that of the Brunner-Munzel test (which holds under unequal spread) and
    the coverage at least that of either interval (the t interval alone
    undercovers near 0 and 1, where its variance estimate collapses; it is 0
    when one sample beats the other completely). The p-value is the larger
    of the two tests' (the Mann-Whitney one alone when the Brunner-Munzel
    variance is 0).
    """
    n_a, n_b = a.shape[-1], b.shape[-1]
    est, se, df = _brunner_munzel(a, b)
    degenerate = ~(se > 0)
    df = np.where(degenerate, 1.0, df)
    se_ = np.where(degenerate, 1.0, se)
    # continuity correction: half a step of the coarser placement lattice
    # (1 / max(n, m)); without it the t test exceeds its level when one model
    # is constant (a Wald test of a binomial share: 0.065 at n = 50)
    cc = 0.5 / max(n_a, n_b)
    half = np.where(degenerate, 0.0, stats.t.ppf(0.5 + confidence / 2, df) * se_ + cc)
    dist = np.maximum(np.abs(est - 0.5) - cc, 0.0)
    p_bm = np.where(degenerate, 0.0, np.minimum(1.0, 2 * stats.t.sf(dist / se_, df)))
    p_bm = np.where(est == 0.5, 1.0, p_bm)
    nc_low, nc_high = _newcombe_bounds(est, n_a, n_b, confidence)
    p_mw = _mann_whitney_pvalue(a, b)
    keep = p_mw >= 1 - confidence  # Mann-Whitney does not reject: 1/2 stays in
    nc_low = np.where(keep, np.minimum(nc_low, 0.5), nc_low)
    nc_high = np.where(keep, np.maximum(nc_high, 0.5), nc_high)
    low = np.clip(np.minimum(est - half, nc_low), 0.0, 1.0)
    high = np.clip(np.maximum(est + half, nc_high), 0.0, 1.0)
    # scipy.stats.brunnermunzel(a, b)'s W: (P(B > A) - 1/2) / se, NaN without
    # spread (the placements' variance is Brunner & Munzel's, so W is theirs)
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(degenerate, np.nan, (0.5 - est) / se_)
    return est, low, high, np.maximum(p_bm, p_mw), w


def _exact_interval(a, b, paired, confidence, method=None):
    """P(A > B), its interval, the dual test's p-value and, for the
    Brunner-Munzel test, its statistic (else None) (validated input).

    Paired: the sign interval (:func:`_sign_interval`) and the exact sign
    test. Unpaired (``method`` None or ``"brunner-munzel"``): the
    Brunner-Munzel interval and test (:func:`_brunner_munzel_bounds`),
    valid under unequal spread. Unpaired ``method="newcombe"``: Newcombe's
    score interval, joined with 1/2 when the Mann-Whitney test (exact
    without ties) does not reject at ``1 - confidence`` (valid only when the
    two distributions are identical under P(A > B) = 1/2).
    """
    if paired:
        wins = (a > b).sum(axis=-1)
        losses = (a < b).sum(axis=-1)
        ties = a.shape[-1] - wins - losses
        est = (wins + 0.5 * ties) / a.shape[-1]
        low, high = _sign_interval(wins, ties, losses, confidence)
        p = _sign_pvalue(wins, losses)
    elif method in (None, "brunner-munzel"):
        return _brunner_munzel_bounds(a, b, confidence)
    else:
        n_a, n_b = a.shape[-1], b.shape[-1]
        est = _prob_unpaired(a, b)
        # U / (n m) is a multiple of 1 / (2 n m): remove float error
        est = np.round(est * 2 * n_a * n_b) / (2 * n_a * n_b)
        low, high = _newcombe_bounds(est, n_a, n_b, confidence)
        p = _mann_whitney_pvalue(a, b)
        keep = p >= 1 - confidence  # the test does not reject: 1/2 stays in
        low = np.where(keep, np.minimum(low, 0.5), low)
        high = np.where(keep, np.maximum(high, 0.5), high)
    return est, low, high, p, None


def prob_outperform_ci(
    a,
    b,
    *,
    paired,
    confidence=0.95,
    method="auto",
    n_boot="auto",
    random_state=None,
    greater_is_better=True,
    axis=-1,
):
    """P(A > B) with a confidence interval (percentile bootstrap or exact).

    Parameters
    ----------
    a, b : array-like of shape (..., n) and (..., m)
        Scores of the two models along ``axis`` (at least 2 each); leading
        axes are a batch.
    paired : bool
        ``True`` resamples pairs (the same indices for ``a`` and ``b``,
        Bouthillier et al., App. C.5); ``False`` resamples each sample
        independently.
    confidence : float, default=0.95
        Confidence level in (0, 1).
    method : {"auto", "sign", "brunner-munzel", "newcombe", "bootstrap"}, \
            default="auto"
        ``"auto"``: ``"sign"`` when paired, else ``"brunner-munzel"`` (the
        same default as :meth:`skperf.PerformanceDistribution.compare`).
        ``"sign"`` (paired only): exact binomial interval from the counts of
        won, tied and lost pairs, dual to the exact sign test.
        ``"brunner-munzel"`` (unpaired only): the Brunner-Munzel t interval
        (valid when the two models differ in spread), joined with
        Newcombe's interval (see Notes). ``"newcombe"`` (unpaired only):
        Newcombe's (2006) score interval, joined with 0.5 when the
        Mann-Whitney test does not reject; it assumes both models have the
        same distribution when P(A > B) = 1/2. ``"bootstrap"``: percentile
        bootstrap (Bouthillier et al., App. C.5). Only the bootstrap uses
        ``n_boot`` and ``random_state``; see
        :meth:`skperf.PerformanceDistribution.compare` for their measured
        error rates.
    n_boot : int or "auto", default="auto"
        Number of bootstrap resamples; ``"auto"`` is the smallest count with
        10 resamples in each tail (399 at 95 %).
    random_state : int, numpy.random.Generator or None, default=None
        Source of randomness (bootstrap only).
    greater_is_better : bool, default=True
        ``False`` for losses.
    axis : int, default=-1
        Axis of the observations.

    Returns
    -------
    ProbOutperformCI
        ``estimate`` (P(A > B) on the original samples), ``low``, ``high``,
        ``confidence``, the ``method`` used, ``paired``, ``n_a``, ``n_b``,
        ``n_boot`` (bootstrap only) and ``target`` ("this dataset"); arrays
        of the batch shape for batched input.

    Warns
    -----
    SmallSampleWarning
        When an explicit ``n_boot`` leaves fewer than 10 resamples in a tail.

    Notes
    -----
    *Target*: P(A > B) for runs on this dataset ("this dataset"), i.e. over
    the distribution of scores of repeated runs.

    *Brunner-Munzel* (unpaired default): ``est -+ t_{df} se`` with Brunner &
    Munzel's (2000) rank variance ``se^2 = var(v)/n + var(w)/m`` of the
    placements (the share of the other sample each score beats) and their
    Satterthwaite ``df``, dual to ``scipy.stats.brunnermunzel``; its
    variance does not assume equal distributions under P(A > B) = 1/2, so
    it holds when one model is much noisier than the other. It is joined
    with Newcombe's interval (only ever wider), which keeps the coverage
    near 0 and 1 where the t interval collapses. Measured (seeded, 6000-20000
    runs; see ``tests/stats/test_outperform.py``): false "significant" at
    P(A > B) = 1/2 for N(.85, .02) vs N(.85, .002) 0.033-0.052 at n = 10-60
    (nominal 0.05; Newcombe/Mann-Whitney gave 0.084-0.096), 0.038 for 10
    noisy vs 40 stable runs (0.152 before), at most 0.05 against a constant
    model (exact); coverage 0.944-1.0 at P(A > B) = 0.7-0.97. Below 10
    scores per model it is not guaranteed: 0.054-0.076 at n = 5-8 under
    that extreme spread ratio.

    Percentile bootstrap as in Bouthillier et al., App. C.5, vectorized
    over resamples (chunks of resamples, one array operation each).
    Paired, the replicate is the resampled mean of the per-pair outcomes;
    unpaired, the Mann-Whitney form of the two resampled samples. The
    paper recommends the percentile bootstrap for P(A > B) below about
    0.95; near 0 or 1 (and for very small ``n``) the interval is too short
    (it is degenerate when every pair has the same outcome), and paired it
    is discrete: two identical models are called significantly different
    with probability 0.109, 0.118, 0.115 and 0.136 at n = 10, 15, 20 and
    29 for confidence 0.90 (nominal 0.10). ``"sign"`` and ``"newcombe"``
    hold the nominal rate at every n.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 4.1, App. C.2 and C.5.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import prob_outperform_ci
    >>> rng = np.random.default_rng(0)
    >>> b = rng.normal(0.80, 0.01, size=30)
    >>> a = b + rng.normal(0.01, 0.01, size=30)
    >>> r = prob_outperform_ci(a, b, paired=True, method="bootstrap", random_state=0)
    >>> print(f"{r.estimate:.3f} [{r.low:.3f}, {r.high:.3f}] n_boot={r.n_boot}")
    0.833 [0.667, 0.933] n_boot=399
    >>> r = prob_outperform_ci(a, b, paired=True, method="sign")
    >>> print(f"{r.estimate:.3f} [{r.low:.3f}, {r.high:.3f}] {r.method}, {r.target}")
    0.833 [0.653, 0.944] sign, this dataset
    """
    a, b, paired = _prob_outperform_iv(a, b, paired, greater_is_better, axis, min_n=2)
    confidence = _check_confidence(confidence)
    method = _resolve_method(method, paired)
    result = partial(
        ProbOutperformCI,
        confidence=confidence,
        method=method,
        paired=paired,
        n_a=a.shape[-1],
        n_b=b.shape[-1],
    )
    if method != "bootstrap":
        _n_boot_for(confidence, n_boot)  # validated, not used
        est, low, high, *_ = _exact_interval(a, b, paired, confidence, method)
        return result(est, low, high)
    n_boot = _resolve_n_boot(confidence, n_boot)
    rng = _check_rng(random_state)
    if paired:
        wins = _wins(a, b)
        est = wins.mean(axis=-1)
        boot = _bootstrap_mean(wins, n_boot, rng)
        denom = 2 * a.shape[-1]
    else:
        est = _prob_unpaired(a, b)
        boot = _boot_unpaired(a, b, n_boot, rng)
        denom = 2 * a.shape[-1] * b.shape[-1]
    # every replicate is an exact multiple of 1 / denom (half wins over n or
    # n*m pairs); snap away float error so a bound that is exactly 0.5 never
    # reads as 0.5000000000000001 ("significant") or 1 as 1.0000000000000002
    boot = np.round(boot * denom) / denom
    # a probability: clip float rounding of the count products (1 + 2e-16)
    low, high = (np.clip(v, 0.0, 1.0) for v in _percentile_bounds(boot, confidence))
    return result(est, low, high, n_boot=n_boot)


def outperform_decision(low, high, *, gamma=0.75):
    """Decision of Bouthillier et al. (App. C.6) from a CI of P(A > B).

    Parameters
    ----------
    low, high : float or array-like
        Confidence interval of P(A > B), within [0, 1].
    gamma : float, default=0.75
        Smallest P(A > B) considered meaningful, in (0.5, 1).

    Returns
    -------
    str or ndarray of str
        From A's side, one of ``"better"``, ``"better, not meaningful"``,
        ``"no significant difference"``, ``"worse, not meaningful"``,
        ``"worse"``.

    Notes
    -----
    App. C.6 states the rule for A's side; the rule for B's side is the
    same applied to ``P(B > A) = 1 - P(A > B)``:

    ========================================  ===============================
    interval                                  decision
    ========================================  ===============================
    ``low > 0.5`` and ``high >= gamma``       ``"better"``
    ``low > 0.5`` and ``high < gamma``        ``"better, not meaningful"``
    ``low <= 0.5 <= high``                    ``"no significant difference"``
    ``high < 0.5`` and ``low > 1 - gamma``    ``"worse, not meaningful"``
    ``high < 0.5`` and ``low <= 1 - gamma``   ``"worse"``
    ========================================  ===============================

    Significance is the lower bound exceeding 0.5 (the null hypothesis
    P(A > B) = 0.5 is rejected); meaningfulness is the upper bound exceeding
    ``gamma`` (the alternative P(A > B) >= gamma is not rejected). An upper
    bound exactly at ``gamma`` counts as meaningful: the interval still
    contains a difference of the size the user called meaningful.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 4.1 and App. C.6.

    Examples
    --------
    >>> from skperf.stats import outperform_decision
    >>> outperform_decision(0.62, 0.91)
    'better'
    >>> outperform_decision(0.55, 0.70)
    'better, not meaningful'
    >>> outperform_decision(0.40, 0.66)
    'no significant difference'
    >>> outperform_decision(0.10, 0.35)
    'worse'
    """
    gamma = _check_gamma(gamma)
    try:
        low_, high_ = np.broadcast_arrays(
            np.asarray(low, dtype=float), np.asarray(high, dtype=float)
        )
    except (TypeError, ValueError):
        raise TypeError(
            f"`low` and `high` must be floats or broadcastable arrays of floats; got "
            f"{low!r} and {high!r}."
        ) from None
    bad = ~((low_ >= 0) & (low_ <= high_) & (high_ <= 1))
    if np.any(bad):
        raise ValueError(
            "`low` and `high` must satisfy 0 <= low <= high <= 1 (a confidence "
            f"interval of a probability); got low={low!r}, high={high!r}."
        )
    better, better_nm, none, worse_nm, worse = DECISIONS
    out = np.full(low_.shape, none, dtype=object)
    out[(low_ > 0.5) & (high_ >= gamma)] = better
    out[(low_ > 0.5) & (high_ < gamma)] = better_nm
    out[(high_ < 0.5) & (low_ <= 1 - gamma)] = worse
    out[(high_ < 0.5) & (low_ > 1 - gamma)] = worse_nm
    return out.item() if out.ndim == 0 else out


def noether_sample_size(gamma=0.75, *, confidence=0.95, power=0.95):
    """Number of runs per model to detect P(A > B) >= gamma (Noether, 1987).

    Parameters
    ----------
    gamma : float, default=0.75
        Smallest meaningful P(A > B), in (0.5, 1).
    confidence : float, default=0.95
        Confidence level of the two-sided decision in (0, 1): each bound of
        the interval of P(A > B) errs with probability ``(1 - confidence) /
        2``, as in :meth:`skperf.PerformanceDistribution.compare`.
    power : float, default=0.95
        Probability of detecting ``P(A > B) = gamma``, in (0, 1).

    Returns
    -------
    int
        ``ceil((z_{(1 + confidence) / 2} + z_{power})^2 / (6 (gamma -
        1/2)^2))``.

    Notes
    -----
    Noether's sample size for the Mann-Whitney test, which P(A > B)
    estimates (Bouthillier et al., App. C.3): 35 runs for gamma = 0.75,
    confidence = 0.95 (one-sided error 0.025) and power = 0.95; the paper's
    29 is the one-sided error 0.05 (``confidence=0.9``). More than 700 below
    gamma = 0.55.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", App. C.3. G. E. Noether, "Sample size determination for
    some common nonparametric tests", JASA 82 (1987).

    Examples
    --------
    >>> from skperf.stats import noether_sample_size
    >>> noether_sample_size(0.75)
    35
    >>> noether_sample_size(0.75, confidence=0.9)  # Bouthillier et al.'s 29
    29
    >>> noether_sample_size(0.6, confidence=0.9, power=0.8)
    104
    """
    gamma = _check_gamma(gamma)
    confidence = _check_confidence(confidence)
    power = _check_confidence(power, name="power")
    z = special.ndtri(0.5 + confidence / 2) + special.ndtri(power)
    # round first so that an exact integer quotient is not pushed up by rounding
    return math.ceil(round(z**2 / (6 * (gamma - 0.5) ** 2), 9))
