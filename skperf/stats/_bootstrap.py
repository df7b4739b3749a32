"""Chunked, vectorized resampling and the interval formulas built on it.

The working axis is last; leading axes broadcast as a batch. Resampling adds
one new axis of resamples (before the working axis), one array operation per
chunk, so memory is bounded by the chunk size and the chunk size never
changes the answer: indices are drawn chunk by chunk from the same
generator in the same order.

Paired statistics share the indices: pass several arrays to
:func:`_bootstrap` and each resample takes the same rows of all of them.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import special

__all__: list[str] = []

#: Elements (resamples x observations) drawn per chunk: about 64 MB of int64
#: indices plus the gathered values.
_CHUNK_ELEMENTS = 4_000_000


def _chunk_size(n_boot, n, batch=None):
    """Resamples per chunk so that one chunk has ~``_CHUNK_ELEMENTS`` items."""
    if batch is not None:
        return max(1, min(int(batch), n_boot))
    return max(1, min(n_boot, _CHUNK_ELEMENTS // max(n, 1)))


def _iter_indices(n, n_boot, rng, batch=None, n_batch=1):
    """Yield arrays of bootstrap row indices of shape ``(b, n)``, chunk by chunk.

    ``n_batch`` is the number of samples sharing the indices (the product of
    the leading batch axes): the gathered values, not only the indices,
    must fit the memory bound.
    """
    size = _chunk_size(n_boot, n * max(int(n_batch), 1), batch)
    for start in range(0, n_boot, size):
        yield rng.integers(0, n, size=(min(size, n_boot - start), n))


def _bootstrap(arrays, statistic, n_boot, rng, batch=None):
    """Bootstrap replicates of ``statistic`` over the last axis.

    Parameters
    ----------
    arrays : tuple of ndarray
        Samples of shape ``(..., n)`` sharing ``n``; resampled with the same
        indices (paired).
    statistic : callable
        ``statistic(*resampled, axis=-1)`` where each resampled array has
        shape ``(..., b, n)``; returns ``(..., b)`` (or ``(..., b, k)``).
    n_boot : int
        Number of resamples.
    rng : numpy.random.Generator
        Source of randomness.
    batch : int or None
        Resamples per chunk; ``None`` bounds memory automatically.

    Returns
    -------
    ndarray of shape ``(..., n_boot)`` (or ``(..., n_boot, k)``)
    """
    n = arrays[0].shape[-1]
    n_batch = sum(int(np.prod(a.shape[:-1], dtype=np.int64)) for a in arrays)
    out = []
    for idx in _iter_indices(n, n_boot, rng, batch, n_batch=n_batch):
        # x[..., idx] has shape (..., b, n): one gather per chunk
        out.append(statistic(*(a[..., idx] for a in arrays), axis=-1))
    axis = out[0].ndim - 1 if out[0].ndim == arrays[0].ndim else out[0].ndim - 2
    return np.concatenate(out, axis=axis)


def _percentile_bounds(boot, confidence, axis=-1):
    """Percentile interval of bootstrap replicates (NaNs ignored)."""
    alpha = 1 - confidence
    levels = [alpha / 2, 1 - alpha / 2]
    # np.nanquantile loops in Python over batch rows (~300x slower on a
    # batch of 400 samples); use it only when there is a NaN to ignore
    quantile = np.nanquantile if np.isnan(boot).any() else np.quantile
    lo, hi = quantile(boot, levels, axis=axis)
    return lo, hi


def _basic_bounds(boot, estimate, confidence, axis=-1):
    """Basic (reverse percentile) interval: 2 theta_hat - percentiles."""
    lo, hi = _percentile_bounds(boot, confidence, axis=axis)
    return 2 * estimate - hi, 2 * estimate - lo


def _bca_bounds(boot, estimate, jackknife, confidence):
    """BCa interval (Efron 1987) from replicates and jackknife values.

    Parameters
    ----------
    boot : ndarray of shape (..., n_boot)
        Bootstrap replicates (NaN for undefined resamples, ignored).
    estimate : ndarray of shape (...)
        Statistic on the original sample.
    jackknife : ndarray of shape (..., n)
        Leave-one-out values of the statistic (NaN for undefined ones,
        ignored).
    confidence : float

    Returns
    -------
    low, high : ndarray of shape (...)
        NaN where no replicate is valid.

    Notes
    -----
    Bias correction ``z0 = Phi^-1(#(boot < est) + #(boot == est)/2) / B``,
    the mid-rank form that scipy.stats.bootstrap also uses, so that a
    discrete statistic with many ties at the estimate is not biased.
    Acceleration from the jackknife skewness.
    """
    boot = np.asarray(boot, dtype=float)
    est = np.asarray(estimate, dtype=float)[..., None]
    valid = ~np.isnan(boot)
    n_valid = valid.sum(axis=-1)
    prop = ((boot < est).sum(axis=-1) + 0.5 * (boot == est).sum(axis=-1)) / np.maximum(
        n_valid, 1
    )
    z0 = special.ndtri(np.clip(prop, 1e-12, 1 - 1e-12))
    jack = np.asarray(jackknife, dtype=float)
    # undefined leave-one-out values are ignored like undefined replicates
    # (a NaN here used to make den NaN and silently set the acceleration to 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows -> a = 0
        d = np.nanmean(jack, axis=-1, keepdims=True) - jack
    num = np.nansum(d**3, axis=-1)
    den = 6.0 * np.nansum(d**2, axis=-1) ** 1.5
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(den > 0, num / den, 0.0)
    alpha = 1 - confidence
    z = special.ndtri(np.array([alpha / 2, 1 - alpha / 2]))
    z0_, a_ = z0[..., None], a[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        adj = special.ndtr(z0_ + (z0_ + z) / (1 - a_ * (z0_ + z)))
    adj = np.clip(np.nan_to_num(adj, nan=0.5), 0, 1)
    sorted_boot = np.sort(np.where(valid, boot, np.inf), axis=-1)
    # percentile of the valid replicates at the adjusted levels (linear)
    pos = adj * (np.maximum(n_valid, 1)[..., None] - 1)
    lo_i = np.floor(pos).astype(int)
    hi_i = np.minimum(lo_i + 1, np.maximum(n_valid, 1)[..., None] - 1)
    frac = pos - lo_i
    v_lo = np.take_along_axis(sorted_boot, lo_i, axis=-1)
    v_hi = np.take_along_axis(sorted_boot, hi_i, axis=-1)
    with np.errstate(invalid="ignore"):
        vals = v_lo + frac * (v_hi - v_lo)
    vals = np.where(frac == 0, v_lo, vals)
    # no valid replicate: no interval (not the +inf used to sort NaNs last)
    vals = np.where((n_valid > 0)[..., None], vals, np.nan)
    return vals[..., 0], vals[..., 1]
