"""Comparing several models over many datasets: ranks, tests, aggregates.

Pure NumPy/SciPy. The input of the rank tests is a matrix of shape
``(n_datasets, n_models)`` of one score per model and dataset (the mean over
its runs), the models on the last axis, oriented so that greater is better.
The two-level bootstrap works on the runs themselves: an array of shape
``(n_datasets, n_runs, n_models)`` padded with NaN where a dataset has fewer
runs, with ``n_runs`` per dataset and model.

- Ranks, Friedman and Iman-Davenport, Nemenyi: Demšar (2006), Sec. 3.2.2.
- Wilcoxon signed-rank with Holm's step-down correction: Demšar (2006),
  Sec. 3.1.3 and 3.2.2; Benavoli, Corani & Mangili (2016).
- Bayesian signed-rank test with a region of practical equivalence:
  Benavoli, Corani, Demšar & Zaffalon (2017), Sec. 5 (Dirichlet process with
  a pseudo-observation at 0 of weight ``prior``).
- IQM, mean, median and optimality gap with stratified bootstrap intervals:
  Agarwal et al. (2021), "Deep RL at the edge of the statistical precipice",
  Sec. 4; here the datasets are resampled too (two-level bootstrap).

References
----------
J. Demšar (2006), "Statistical comparisons of classifiers over multiple data
sets", JMLR 7:1-30. A. Benavoli, G. Corani, F. Mangili (2016), "Should we
really use post-hoc tests based on mean-ranks?", JMLR 17:1-10. A. Benavoli,
G. Corani, J. Demšar, M. Zaffalon (2017), "Time for a change: a tutorial for
comparing multiple classifiers through Bayesian analysis", JMLR 18:1-36.
R. Agarwal, M. Schwarzer, P. S. Castro, A. Courville, M. G. Bellemare (2021),
NeurIPS.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._validation import _check_confidence, _check_n_boot, _check_rng, _check_rope

__all__ = [
    "AGGREGATES",
    "FriedmanResult",
    "aggregate",
    "bayesian_signed_rank",
    "cliques",
    "friedman",
    "holm",
    "mean_ranks",
    "nemenyi_critical_difference",
    "nemenyi_pvalues",
    "nemenyi_q",
    "rank_models",
    "two_level_bootstrap",
    "wilcoxon_holm",
]

AGGREGATES = ("mean", "median", "iqm", "optimality_gap")
RESAMPLE = ("datasets and runs", "datasets", "runs")

# values held by one chunk of resamples: the chunk size never changes the
# answer (each block of _BLOCK resamples has its own generator)
_CHUNK_ELEMENTS = 2**22
_BLOCK = 50
#: resamples of ``n_boot="auto"`` in :func:`two_level_bootstrap`: the two-level
#: intervals of the benchmark report (its ``n_boot="auto"`` shows this count)
_N_BOOT_AUTO = 2000


def _check_matrix(scores, name="scores", min_datasets=2, min_models=2):
    """``(n_datasets, n_models)`` finite float matrix."""
    try:
        x = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"`{name}` must be a numeric matrix; got {scores!r}.") from None
    if x.ndim != 2:
        raise ValueError(
            f"`{name}` must be 2-D of shape (n_datasets, n_models); got shape {x.shape}."
        )
    n, k = x.shape
    if n < min_datasets:
        raise ValueError(
            f"`{name}` must have at least {min_datasets} datasets (rows); got {n}."
        )
    if k < min_models:
        raise ValueError(
            f"`{name}` must have at least {min_models} models (columns); got {k}."
        )
    if not np.isfinite(x).all():
        i, j = np.argwhere(~np.isfinite(x))[0]
        raise ValueError(
            f"`{name}` must be finite; found {x[i, j]} at dataset {i}, model {j}. "
            "skperf never drops values silently."
        )
    return x


def _sign(greater_is_better):
    if not isinstance(greater_is_better, bool | np.bool_):
        raise TypeError(
            f"`greater_is_better` must be True or False; got {greater_is_better!r}."
        )
    return 1.0 if greater_is_better else -1.0


def rank_models(scores, *, greater_is_better=True):
    """Rank the models within each dataset: 1 is the best, ties get the mean rank.

    Parameters
    ----------
    scores : array-like of shape (..., n_models)
        Scores, the models on the last axis.
    greater_is_better : bool, default=True
        Direction of the scores.

    Returns
    -------
    ndarray of shape (..., n_models)
        Ranks (average ranks for ties, Demšar 2006, Sec. 3.2.2).

    Examples
    --------
    >>> from skperf.stats._ranks import rank_models
    >>> rank_models([[0.9, 0.8, 0.9], [0.7, 0.8, 0.6]]).tolist()
    [[1.5, 3.0, 1.5], [2.0, 1.0, 3.0]]
    """
    x = np.asarray(scores, dtype=float)
    return stats.rankdata(-_sign(greater_is_better) * x, method="average", axis=-1)


def mean_ranks(scores, *, greater_is_better=True):
    """Mean rank of each model over the datasets (rows).

    Examples
    --------
    >>> from skperf.stats._ranks import mean_ranks
    >>> mean_ranks([[0.9, 0.8, 0.9], [0.7, 0.8, 0.6]]).tolist()
    [1.75, 2.0, 2.25]
    """
    return rank_models(scores, greater_is_better=greater_is_better).mean(axis=-2)


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman test and the Iman-Davenport correction (Demšar 2006, Sec. 3.2.2).

    Attributes
    ----------
    statistic : float
        Friedman chi-square, corrected for ties as in
        :func:`scipy.stats.friedmanchisquare`.
    pvalue : float
        Its p-value (chi-square with ``n_models - 1`` degrees of freedom).
    iman_davenport : float
        Iman-Davenport's F statistic ``(N - 1) chi2 / (N (k - 1) - chi2)``.
    iman_davenport_pvalue : float
        Its p-value (F with ``k - 1`` and ``(k - 1)(N - 1)`` degrees of
        freedom; less conservative than the chi-square).
    n_datasets, n_models : int
        ``N`` and ``k``.
    """

    statistic: float
    pvalue: float
    iman_davenport: float
    iman_davenport_pvalue: float
    n_datasets: int
    n_models: int

    def __repr__(self):
        return (
            f"FriedmanResult(statistic={self.statistic:.4g}, pvalue={self.pvalue:.4g}, "
            f"iman_davenport={self.iman_davenport:.4g}, "
            f"iman_davenport_pvalue={self.iman_davenport_pvalue:.4g}, "
            f"n_datasets={self.n_datasets}, n_models={self.n_models})"
        )


def friedman(scores, *, greater_is_better=True):
    """Friedman's test of equal mean ranks, with Iman-Davenport's F.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_models)
        One score per model and dataset.
    greater_is_better : bool, default=True
        Direction of the scores (ranks do not depend on it up to reversal;
        the test does not at all).

    Returns
    -------
    FriedmanResult

    Notes
    -----
    ``chi2 = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]`` divided
    by the tie correction ``1 - sum (t^3 - t) / (N k (k^2 - 1))``, as in
    :func:`scipy.stats.friedmanchisquare` (which needs ``k >= 3``; here
    ``k = 2`` is allowed). When every dataset ties all models the statistic
    is 0 and the p-value 1. Iman-Davenport: ``F = (N - 1) chi2 / (N (k - 1)
    - chi2)``; when all datasets agree perfectly ``F`` is infinite and its
    p-value 0.

    References
    ----------
    Demšar (2006), Sec. 3.2.2, eqs. for chi2_F and F_F.

    Examples
    --------
    >>> from skperf.stats._ranks import friedman
    >>> res = friedman([[0.9, 0.8, 0.7], [0.8, 0.85, 0.6], [0.7, 0.6, 0.5],
    ...                 [0.95, 0.9, 0.92]])
    >>> round(res.statistic, 3), round(res.pvalue, 4)
    (4.5, 0.1054)
    """
    x = _check_matrix(scores)
    n, k = x.shape
    ranks = rank_models(x, greater_is_better=greater_is_better)
    r = ranks.mean(axis=0)
    # tie correction: sum over tie groups of t^3 - t = sum over values of t_e^2 - 1
    t = (x[:, :, None] == x[:, None, :]).sum(axis=-1)
    c = 1.0 - (t**2 - 1).sum() / (n * k * (k * k - 1))
    if c <= 0:  # every dataset ties all models
        chi2, p = 0.0, 1.0
    else:
        chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4.0) / c
        chi2 = max(float(chi2), 0.0)
        p = float(stats.chi2.sf(chi2, k - 1))
    denom = n * (k - 1) - chi2
    if denom <= 0:
        ff, pf = np.inf, 0.0
    else:
        ff = (n - 1) * chi2 / denom
        pf = float(stats.f.sf(ff, k - 1, (k - 1) * (n - 1)))
    return FriedmanResult(
        statistic=float(chi2),
        pvalue=float(p),
        iman_davenport=float(ff),
        iman_davenport_pvalue=float(pf),
        n_datasets=int(n),
        n_models=int(k),
    )


def nemenyi_q(n_models, *, confidence=0.95):
    """Critical value ``q`` of the Nemenyi test (Demšar 2006, Table 5a).

    The studentized range quantile for ``n_models`` groups and infinite
    degrees of freedom, divided by sqrt(2)
    (:data:`scipy.stats.studentized_range`).

    Examples
    --------
    >>> from skperf.stats._ranks import nemenyi_q
    >>> [round(nemenyi_q(k), 3) for k in (2, 3, 4, 5)]
    [1.96, 2.344, 2.569, 2.728]
    """
    confidence = _check_confidence(confidence)
    k = _check_int(n_models, "n_models", 2)
    return float(stats.studentized_range.ppf(confidence, k, np.inf) / np.sqrt(2.0))


def _check_int(value, name, low):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an int >= {low}; got {value!r}.")
    if value < low:
        raise ValueError(f"`{name}` must be >= {low}; got {value}.")
    return int(value)


def nemenyi_critical_difference(n_models, n_datasets, *, confidence=0.95):
    """Nemenyi's critical difference of mean ranks (Demšar 2006, Sec. 3.2.2).

    ``CD = q * sqrt(k (k + 1) / (6 N))``: two models whose mean ranks differ
    by at least CD are significantly different at level ``1 - confidence``
    (all pairs, family-wise).

    Examples
    --------
    >>> from skperf.stats._ranks import nemenyi_critical_difference
    >>> round(nemenyi_critical_difference(4, 14), 3)  # Demšar's example: 1.25
    1.254
    """
    k = _check_int(n_models, "n_models", 2)
    n = _check_int(n_datasets, "n_datasets", 1)
    return nemenyi_q(k, confidence=confidence) * float(np.sqrt(k * (k + 1) / (6.0 * n)))


def nemenyi_pvalues(ranks, n_datasets):
    """Nemenyi p-values of every pair from the mean ranks.

    ``p = P(Q > |R_i - R_j| sqrt(2) / sqrt(k (k + 1) / (6 N)))`` with ``Q``
    the studentized range of ``k`` groups and infinite degrees of freedom
    (as scikit-posthocs' ``posthoc_nemenyi_friedman``).

    Returns
    -------
    ndarray of shape (k, k)
        Symmetric, ones on the diagonal.
    """
    r = np.asarray(ranks, dtype=float)
    k = r.size
    n = _check_int(n_datasets, "n_datasets", 1)
    z = np.abs(r[:, None] - r[None, :]) / np.sqrt(k * (k + 1) / (6.0 * n))
    p = stats.studentized_range.sf(z * np.sqrt(2.0), k, np.inf)
    p = np.clip(p, 0.0, 1.0)
    np.fill_diagonal(p, 1.0)
    return p


def holm(pvalues):
    """Holm's step-down adjusted p-values (family-wise error rate).

    Examples
    --------
    >>> from skperf.stats._ranks import holm
    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


def _wilcoxon_p(d):
    """Two-sided Wilcoxon signed-rank p-value of differences ``d`` (scipy)."""
    if np.all(d == 0):
        return 1.0  # no evidence either way (scipy's "wilcox" drops every zero)
    return float(stats.wilcoxon(d).pvalue)


def wilcoxon_holm(scores, *, control=None):
    """Wilcoxon signed-rank p-values of model pairs, Holm-corrected.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_models)
        One score per model and dataset.
    control : int or None, default=None
        ``None``: all ``k (k - 1) / 2`` pairs form the family. An index: only
        the ``k - 1`` pairs of that model with each other model (the family
        is smaller, so the tests are more powerful; Demšar 2006, Sec. 3.2.2).

    Returns
    -------
    raw, adjusted : ndarray of shape (k, k)
        Two-sided p-values of :func:`scipy.stats.wilcoxon` on the
        differences (default ``zero_method="wilcox"``; a pair with all
        differences zero gets p = 1), and after Holm's correction; NaN for
        pairs outside the family, ones on the diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._ranks import wilcoxon_holm
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(12, 3)) + [0.0, 0.0, 1.0]
    >>> raw, adj = wilcoxon_holm(x)
    >>> adj.round(4)[0].tolist()
    [1.0, 0.9097, 0.0366]
    """
    x = _check_matrix(scores, min_datasets=1)
    k = x.shape[1]
    if control is None:
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    else:
        c = _check_int(control, "control", 0)
        if c >= k:
            raise ValueError(f"`control` must be a model index < {k}; got {c}.")
        pairs = [(c, j) for j in range(k) if j != c]
    raw_list = np.array([_wilcoxon_p(x[:, i] - x[:, j]) for i, j in pairs])
    adj_list = holm(raw_list)
    raw = np.full((k, k), np.nan)
    adj = np.full((k, k), np.nan)
    for (i, j), p, a in zip(pairs, raw_list, adj_list, strict=True):
        raw[i, j] = raw[j, i] = p
        adj[i, j] = adj[j, i] = a
    np.fill_diagonal(raw, 1.0)
    np.fill_diagonal(adj, 1.0)
    return raw, adj


def cliques(ranks, different):
    """Groups of models not significantly different, for the CD diagram.

    Parameters
    ----------
    ranks : array-like of shape (k,)
        Mean ranks.
    different : array-like of bool, shape (k, k)
        ``different[i, j]``: models ``i`` and ``j`` differ significantly.

    Returns
    -------
    list of list of int
        Maximal runs of consecutive models (in mean-rank order) of which no
        two differ, with at least two models each (as in Demšar's diagrams).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._ranks import cliques
    >>> r = np.array([1.2, 1.9, 2.4, 3.6])
    >>> cliques(r, np.abs(r[:, None] - r[None, :]) >= 1.3)
    [[0, 1, 2], [2, 3]]
    """
    r = np.asarray(ranks, dtype=float)
    diff = np.asarray(different, dtype=bool)
    order = np.argsort(r, kind="stable")
    k = r.size
    runs = []
    for i in range(k):
        j = i
        while j + 1 < k and not diff[order[i : j + 2]][:, order[i : j + 2]].any():
            j += 1
        if j > i:
            runs.append((i, j))
    maximal = [
        (i, j)
        for i, j in runs
        if not any((a <= i and j <= b) and (a, b) != (i, j) for a, b in runs)
    ]
    return [[int(m) for m in order[i : j + 1]] for i, j in maximal]


# ----------------------------------------------------------------------
# Bayesian signed-rank test (Benavoli et al. 2017, Sec. 5)
def bayesian_signed_rank(
    differences, *, rope=0.0, prior=0.5, n_samples=50000, random_state=None
):
    """Posterior probabilities that A is better, equivalent, or worse than B.

    Parameters
    ----------
    differences : array-like of shape (n_datasets,)
        Score of A minus score of B on each dataset, oriented so that
        positive means A is better.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in the scores'
        units (e.g. 0.01 for accuracy).
    prior : float, default=0.5
        Weight of the Dirichlet process's pseudo-observation at 0 (the
        prior strength ``s``; baycomp's default).
    n_samples : int, default=50000
        Posterior samples.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the Dirichlet sampling.

    Returns
    -------
    p_better, p_rope, p_worse : float
        Share of posterior samples in which ``theta_right`` (A better),
        ``theta_rope`` or ``theta_left`` (B better) is the largest of the
        three (baycomp's ``probs``). With ``rope=0``, ``p_rope`` is 0 and
        ``p_better + p_worse = 1``.

    Notes
    -----
    Dirichlet weights ``w ~ Dir(prior, 1, ..., 1)`` over ``z_0 = 0`` and the
    ``n`` differences; ``theta_right = sum_ij w_i w_j H(z_i + z_j - 2 rope)``
    and ``theta_left = sum_ij w_i w_j H(-z_i - z_j - 2 rope)`` with ``H`` the
    Heaviside step (1/2 at 0), ``theta_rope`` the rest. Vectorized: one
    matrix product per chunk of samples.

    References
    ----------
    Benavoli, Corani, Demšar & Zaffalon (2017), Sec. 5.

    Examples
    --------
    >>> from skperf.stats._ranks import bayesian_signed_rank
    >>> d = [0.02, 0.03, -0.01, 0.04, 0.02, 0.05, 0.01, 0.03]
    >>> p = bayesian_signed_rank(d, rope=0.01, random_state=0)
    >>> [round(v, 2) for v in p]
    [0.96, 0.04, 0.0]
    """
    z = np.asarray(differences, dtype=float)
    if z.ndim != 1 or z.size < 1:
        raise ValueError(
            f"`differences` must be 1-D with at least 1 value; got shape {z.shape}."
        )
    if not np.isfinite(z).all():
        raise ValueError("`differences` must be finite; skperf never drops values.")
    rope = _check_rope(rope)
    if not isinstance(prior, numbers.Real) or not prior > 0:
        raise ValueError(f"`prior` must be a number > 0; got {prior!r}.")
    n_samples = _check_int(n_samples, "n_samples", 1)
    rng = _check_rng(random_state)
    zz = np.r_[0.0, z]
    sums = zz[:, None] + zz[None, :]
    right = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    left = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
    alpha = np.r_[float(prior), np.ones(z.size)]
    m = zz.size
    chunk = max(1, _CHUNK_ELEMENTS // (4 * m))
    counts = np.zeros(3, dtype=np.int64)
    for start in range(0, n_samples, chunk):
        b = min(chunk, n_samples - start)
        g = rng.standard_gamma(alpha, size=(b, m))
        w = g / g.sum(axis=1, keepdims=True)
        th_r = np.einsum("bi,bi->b", w @ right, w)
        th_l = np.einsum("bi,bi->b", w @ left, w)
        th = np.stack([th_l, 1.0 - th_l - th_r, th_r], axis=1)
        counts += np.bincount(np.argmax(th, axis=1), minlength=3)
    p_left, p_rope, p_right = counts / n_samples
    return float(p_right), float(p_rope), float(p_left)


# ----------------------------------------------------------------------
# aggregates and the two-level bootstrap
def _pooled_trimmed_mean(values, proportion=0.25):
    """Trimmed mean over the last axis, NaN = absent (scipy's trim_mean rule)."""
    s = np.sort(values, axis=-1)  # NaN last
    n = np.sum(~np.isnan(values), axis=-1)
    cut = np.floor(n * proportion).astype(np.int64)
    j = np.arange(values.shape[-1])
    keep = (j >= cut[..., None]) & (j < (n - cut)[..., None])
    with np.errstate(invalid="ignore"):
        return np.where(keep, s, 0.0).sum(axis=-1) / keep.sum(axis=-1)


def aggregate(runs, metric="mean", *, threshold=1.0):
    """Aggregate score of each model across datasets and runs.

    Parameters
    ----------
    runs : ndarray of shape (..., n_datasets, n_runs, n_models)
        Scores oriented so that greater is better; NaN where a dataset has
        fewer runs.
    metric : {"mean", "median", "iqm", "optimality_gap"}, default="mean"
        ``"mean"``: mean over datasets of each dataset's mean over runs;
        ``"median"``: median over datasets of those means;
        ``"iqm"``: interquartile mean of all runs of all datasets pooled
        (the middle 50 %, :func:`scipy.stats.trim_mean` with 0.25);
        ``"optimality_gap"``: ``threshold`` minus the pooled mean of
        ``min(score, threshold)`` (lower is better). As rliable's
        aggregates (Agarwal et al. 2021, Sec. 4).
    threshold : float, default=1.0
        Target score of the optimality gap (oriented as ``runs``).

    Returns
    -------
    ndarray of shape (..., n_models)
    """
    x = np.asarray(runs, dtype=float)
    if metric in ("mean", "median"):
        per = np.nanmean(x, axis=-2)  # (..., D, K)
        return per.mean(axis=-2) if metric == "mean" else np.median(per, axis=-2)
    pooled = np.moveaxis(x, -1, -3)  # (..., K, D, R)
    pooled = pooled.reshape(*pooled.shape[:-2], -1)
    if metric == "iqm":
        return _pooled_trimmed_mean(pooled)
    if metric == "optimality_gap":
        return threshold - np.nanmean(np.minimum(pooled, threshold), axis=-1)
    raise ValueError(f"`metric` must be one of {list(AGGREGATES)}; got {metric!r}.")


def _mean_rank_stat(x):
    per = np.nanmean(x, axis=-2)  # (..., D, K)
    return stats.rankdata(-per, method="average", axis=-1).mean(axis=-2)


def two_level_bootstrap(
    runs,
    n_runs,
    statistic,
    *,
    resample="datasets and runs",
    paired=True,
    n_boot="auto",
    random_state=None,
):
    """Bootstrap replicates of a statistic: datasets, then runs within each.

    Parameters
    ----------
    runs : ndarray of shape (n_datasets, n_runs, n_models)
        Scores (NaN padding beyond ``n_runs``).
    n_runs : ndarray of int, shape (n_datasets, n_models)
        Runs of each model on each dataset.
    statistic : callable
        Maps an array of shape ``(b, n_datasets, n_runs, n_models)`` (NaN
        padded) to ``(b, ...)``.
    resample : {"datasets and runs", "datasets", "runs"}, default="datasets and runs"
        ``"datasets and runs"``: draw ``n_datasets`` datasets with
        replacement, then within each drawn dataset its runs with
        replacement (the two-level bootstrap: the interval is about the
        population of datasets such datasets come from, and includes the
        run-to-run noise). ``"datasets"``: datasets only (each keeps its
        runs). ``"runs"``: the datasets are fixed, runs resampled within
        each (rliable's stratified bootstrap: an interval about these
        datasets only).
    paired : bool, default=True
        Draw the same runs for every model (runs paired by seed); else each
        model's runs independently.
    n_boot : int or "auto", default="auto"
        Resamples; ``"auto"`` is 2000.
    random_state : None, int, numpy.random.Generator or SeedSequence
        Seed.

    Returns
    -------
    ndarray of shape (n_boot, ...)

    Notes
    -----
    Vectorized: one gather of shape ``(b, n_datasets, n_runs, n_models)``
    per chunk of resamples, chunks of whole blocks of 50 resamples that each
    have their own generator, so the chunk size never changes the answer.
    """
    x = np.asarray(runs, dtype=float)
    n_runs = np.asarray(n_runs, dtype=np.int64)
    D, R, K = x.shape
    if resample not in RESAMPLE:
        raise ValueError(
            f"`resample` must be one of {list(RESAMPLE)}; got {resample!r}."
        )
    n_boot = _check_n_boot(n_boot, auto=_N_BOOT_AUTO)
    ss = (
        random_state
        if isinstance(random_state, np.random.SeedSequence)
        else np.random.SeedSequence(_check_rng(random_state).integers(2**63))
    )
    n_blocks = -(-n_boot // _BLOCK)
    children = ss.spawn(n_blocks)
    per_block = _BLOCK * D * R * K
    blocks_per_chunk = max(1, _CHUNK_ELEMENTS // per_block)
    kp = 1 if paired else K
    karange = np.arange(K)
    rarange = np.arange(R)
    out = []
    for c0 in range(0, n_blocks, blocks_per_chunk):
        dsel, ridx = [], []
        for child in children[c0 : c0 + blocks_per_chunk]:
            g = np.random.default_rng(child)
            if resample == "runs":
                d = np.broadcast_to(np.arange(D), (_BLOCK, D))
            else:
                d = g.integers(0, D, size=(_BLOCK, D))
            if resample == "datasets":
                r = np.broadcast_to(rarange[None, None, :, None], (_BLOCK, D, R, K))
            else:
                u = g.random(size=(_BLOCK, D, R, kp))
                r = np.floor(u * n_runs[d][:, :, None, :kp]).astype(np.int64)
                r = np.broadcast_to(r, (_BLOCK, D, R, K))
            dsel.append(d)
            ridx.append(r)
        d = np.concatenate(dsel)
        r = np.concatenate(ridx)
        sample = x[d[:, :, None, None], r, karange]
        absent = rarange[None, None, :, None] >= n_runs[d][:, :, None, :]
        sample[absent] = np.nan
        out.append(statistic(sample))
    return np.concatenate(out, axis=0)[:n_boot]


def percentile_interval(replicates, confidence):
    """Percentile bootstrap interval over the first axis."""
    a = (1.0 - confidence) / 2.0
    low, high = np.quantile(replicates, [a, 1.0 - a], axis=0)
    return low, high


def expanded_percentile_interval(replicates, confidence, n):
    """Expanded percentile interval over the first axis (Hesterberg 2015).

    The percentile interval of a mean-like statistic of ``n`` independent
    units (here: datasets) is too narrow at small ``n``: the bootstrap
    variance is biased by ``(n - 1) / n`` and normal rather than t tails are
    used. The expanded percentile interval reads the bootstrap distribution
    at the levels ``Phi(-+ sqrt(n / (n - 1)) t_{1 - a, n - 1})``,
    ``a = (1 - confidence) / 2`` (for ``n = 10`` and 95 %: 0.0086 and
    0.9914 instead of 0.025 and 0.975).

    References
    ----------
    T. C. Hesterberg (2015), "What teachers should know about the bootstrap",
    The American Statistician 69(4), Sec. 6.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._ranks import expanded_percentile_interval
    >>> reps = np.linspace(0, 1, 1001)[:, None]
    >>> [round(float(v[0]), 4) for v in expanded_percentile_interval(reps, 0.95, 10)]
    [0.0086, 0.9914]
    """
    a = (1.0 - confidence) / 2.0
    z = np.sqrt(n / (n - 1.0)) * stats.t.ppf(1.0 - a, n - 1)
    a = float(stats.norm.sf(z))
    low, high = np.quantile(replicates, [a, 1.0 - a], axis=0)
    return low, high


def p_best(replicates):
    """Share of resamples in which each model has the best (lowest) mean rank.

    Ties for the best split the resample evenly.
    """
    r = np.asarray(replicates)
    best = r == r.min(axis=-1, keepdims=True)
    return (best / best.sum(axis=-1, keepdims=True)).mean(axis=0)
