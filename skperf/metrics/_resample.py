"""Vectorized bootstrap over test rows for prepared metrics.

All metrics of one call share the same resamples (Rosen: many metrics at
once; paired comparisons: the same rows for both models). Resampling units
are rows, rows within classes (``stratify``) or whole groups (``groups``).

Three paths, chosen from the metrics (see :mod:`._registry`):

* counts: every metric is a function of column sums of a feature matrix
  with few distinct rows (confusion-cell indicators, 0/1 correctness).
  Drawing ``n`` rows with replacement then only matters through how often
  each distinct row is drawn, which is Multinomial(n, frequencies/n) --
  exact in distribution and O(n_boot x n_distinct) memory, no row indices.
* gather: sums of arbitrary per-row features, ``F[idx].sum(axis=1)``.
* weights: row weights ``W = bincount(idx)`` (b, n) for ROC AUC (sorted
  scores, one pass per block) and row indices for a generic metric called
  once per resample.

Peak extra memory of the gather and weights paths is bounded: resamples
are drawn and reduced in blocks of at most ``max(_BLOCK_ELEMENTS, n)``
resampled rows, and a block's work arrays hold at most 6 entries of 8 bytes
per resampled row (int64 indices, gathered float64 values; ROC AUC and
row weights need a few more arrays of that size). Each worker thread holds
one block: at most ``_N_THREADS * 48 * max(_BLOCK_ELEMENTS, n)`` bytes, 29 MB
for test sets up to 300,000 rows with two threads, beyond the O(n) arrays of
the inputs (:func:`_memory_bound`; ``benchmarks/bench_metrics.py`` measures
it). The counts path needs O(n_boot x n_distinct) only.

Randomness is drawn per *block* of resamples, each block with its own
generator seeded from ``random_state``; the block size depends only on the
number of rows, so the number of threads never changes the answer.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..stats._auc import _placements

__all__: list[str] = []

#: resampled rows per block of resamples (at most 64 resamples) sharing one
#: generator and one vectorized pass
_BLOCK_ELEMENTS = 300_000
#: worker threads of the gather, weights and AUC paths (NumPy releases the
#: GIL while drawing indices, gathering and reducing); the loop path, which
#: calls Python metrics, stays in the calling thread
_N_THREADS = 2
#: below this many resampled units in total, threads do not pay off
_MIN_THREADED = 2_000_000
#: distinct feature rows up to which the multinomial counts path is used
_MAX_DISTINCT = 512
#: blocks of the delete-a-block jackknife for metrics without closed form
_MAX_JACKKNIFE_BLOCKS = {"auc": 1000, "loop": 200}


def _memory_bound(n):
    """Bytes of resampling work arrays held at once, beyond O(n) inputs."""
    per_thread = 6 * 8 * max(_BLOCK_ELEMENTS, n)
    return per_thread * min(_N_THREADS, os.cpu_count() or 1)


def _fast_generator(seed):
    """An SFC64 generator.

    Bulk index drawing with SFC64 is about 2.4x faster than with PCG64
    (measured: 0.23 vs 0.56 ms per 100,000 indices), and index drawing is
    the main cost of resampling large test sets.
    """
    return np.random.Generator(np.random.SFC64(seed))


def _weighted_auc(positive, scores, W):
    """ROC AUC for each row of weights ``W`` (b, n); NaN without both classes."""
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    Wo = W[:, order]
    wp = np.add.reduceat(Wo * positive[order], starts, axis=1)
    wn = np.add.reduceat(Wo, starts, axis=1) - wp
    below = np.cumsum(wn, axis=1) - wn  # negative weight strictly below each value
    num = (wp * (below + 0.5 * wn)).sum(axis=1)
    den = wp.sum(axis=1) * wn.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


class _Units:
    """Resampling units: rows, rows within strata, or groups."""

    def __init__(self, n, strata=None, groups=None):
        self.n = n
        self.strata = None
        self.row_unit = None
        if groups is not None:
            _, self.row_unit = np.unique(groups, return_inverse=True)
            self.n_units = int(self.row_unit.max()) + 1
        else:
            self.n_units = n
            if strata is not None:
                _, codes = np.unique(strata, return_inverse=True)
                self.strata = [
                    np.flatnonzero(codes == c) for c in range(codes.max() + 1)
                ]

    def aggregate(self, F):
        """Per-unit feature sums (n_units, k)."""
        if self.row_unit is None:
            return F
        out = np.zeros((self.n_units, F.shape[1]))
        np.add.at(out, self.row_unit, F)
        return out

    def draw(self, gen, b):
        """Unit indices (b, n_units) of ``b`` resamples."""
        if self.strata is None:
            return gen.integers(0, self.n_units, size=(b, self.n_units))
        return np.concatenate(
            [r[gen.integers(0, r.size, size=(b, r.size))] for r in self.strata], axis=1
        )

    def row_weights(self, idx):
        """Row weights (b, n) from unit indices (b, n_units)."""
        b = idx.shape[0]
        offsets = (np.arange(b) * self.n_units)[:, None]
        W = np.bincount((idx + offsets).ravel(), minlength=b * self.n_units)
        W = W.reshape(b, self.n_units).astype(float)
        return W if self.row_unit is None else W[:, self.row_unit]


def _distinct(F):
    """Distinct rows of F, their inverse, or None if there are too many."""
    if F.shape[1] == 0:
        return None
    # a cheap check before np.unique on rows: few distinct values per column
    if any(np.unique(F[:, j]).size > _MAX_DISTINCT for j in range(F.shape[1])):
        return None
    U, inv = np.unique(F, axis=0, return_inverse=True)
    if U.shape[0] > _MAX_DISTINCT:
        return None
    return U, inv.ravel()


def _sums_counts_path(Fu, units, n_boot, gen):
    """Column sums (n_boot, k) of multinomially resampled distinct rows."""
    dist = _distinct(Fu)
    if dist is None:
        return None
    U, inv = dist
    groups = units.strata if units.strata is not None else [np.arange(Fu.shape[0])]
    S = np.zeros((n_boot, U.shape[0]))
    for rows in groups:
        freq = np.bincount(inv[rows], minlength=U.shape[0])
        S += gen.multinomial(rows.size, freq / rows.size, size=n_boot)
    return S @ U


def _replicates(prepared, n_boot, rng, strata=None, groups=None):
    """Bootstrap replicates (n_boot, n_metrics) of all prepared metrics.

    Returns
    -------
    boot : ndarray of shape (n_boot, n_metrics)
        NaN where a metric is undefined on a resample.
    """
    n = prepared[0].y_true.size
    units = _Units(n, strata=strata, groups=groups)
    if units.n_units < 2:
        # every resample would repeat the one unit: a zero-width interval
        what = "groups" if groups is not None else "rows"
        raise ValueError(
            f"A bootstrap interval needs at least 2 {what} to resample; got "
            f"{units.n_units}. Use a larger test set (or more groups)."
        )
    seed = rng.integers(0, 2**63, size=4)
    sums = [p for p in prepared if p.spec.kind == "sums"]
    others = [p for p in prepared if p.spec.kind != "sums"]
    cols = np.cumsum([0] + [p.F.shape[1] for p in sums])
    F = np.column_stack([np.ones(n)] + [p.F for p in sums])  # col 0: row count
    Fu = units.aggregate(F)
    out = np.empty((n_boot, len(prepared)))
    where = {id(p): j for j, p in enumerate(prepared)}

    def put_sums(S, sl):
        T = S[:, 0]
        for p, a, b in zip(sums, cols[:-1], cols[1:], strict=True):
            out[sl, where[id(p)]] = p.value_from_sums(S[:, 1 + a : 1 + b], T)

    if not others:
        S = _sums_counts_path(Fu, units, n_boot, _fast_generator(seed))
        if S is not None:
            put_sums(S, slice(None))
            return out
    FuT = np.ascontiguousarray(Fu.T)
    by_rows = units.row_unit is None  # units are rows: no row weights needed
    # One generator and one vectorized pass per block of resamples. The
    # block size depends only on the number of rows, so the number of
    # threads never changes the answer; it bounds the memory: a block holds
    # at most max(_BLOCK_ELEMENTS, n) resampled rows.
    block = max(1, min(64, _BLOCK_ELEMENTS // n))
    root = np.random.SeedSequence(seed)
    auc_codes = {
        id(p): _auc_codes(p.positive, p.y_pred) for p in others if p.spec.kind == "auc"
    }

    def run(k):
        gen = _fast_generator(np.random.SeedSequence(root.entropy, spawn_key=(k,)))
        sl = slice(k * block, min((k + 1) * block, n_boot))
        b = sl.stop - sl.start
        idx = units.draw(gen, b)
        W = None if by_rows else units.row_weights(idx)
        if by_rows:
            # one contiguous 1-D gather per column is several times faster
            # than gathering rows of a (n, k) matrix and reducing axis 1
            S = np.empty((b, FuT.shape[0]))
            S[:, 0] = units.n_units
            for j in range(1, FuT.shape[0]):
                S[:, j] = FuT[j][idx].sum(axis=1)
        else:
            S = W @ F
        put_sums(S, sl)
        for p in others:
            j = where[id(p)]
            if p.spec.kind == "auc" and by_rows:
                out[sl, j] = _auc_from_indices(*auc_codes[id(p)], idx)
            elif p.spec.kind == "auc":
                out[sl, j] = _weighted_auc(p.positive, p.y_pred, W)
            elif by_rows:
                out[sl, j] = [p.loop_value(r) for r in idx]
            else:
                rows = np.arange(n)
                out[sl, j] = [
                    p.loop_value(np.repeat(rows, w.astype(np.intp))) for w in W
                ]

    n_blocks = -(-n_boot // block)
    n_threads = min(_N_THREADS, os.cpu_count() or 1, n_blocks)
    if (
        n_threads > 1
        and units.n_units * n_boot >= _MIN_THREADED
        and all(p.spec.kind != "loop" for p in others)
    ):
        # blocks write disjoint rows of ``out``; list() re-raises errors
        with ThreadPoolExecutor(n_threads) as pool:
            list(pool.map(run, range(n_blocks)))
    else:
        for k in range(n_blocks):
            run(k)
    return out


def _auc_codes(positive, scores):
    """Per row ``2 * tie_block + is_positive`` (blocks in score order), and #blocks."""
    order = np.argsort(scores)
    s = scores[order]
    first = np.r_[True, s[1:] != s[:-1]]
    block = np.empty(scores.size, dtype=np.intp)
    block[order] = np.cumsum(first) - 1
    return 2 * block + positive, int(first.sum())


def _auc_from_indices(codes, n_blocks, idx):
    """ROC AUC of each resample of rows ``idx`` (b, n); NaN without both classes.

    One gather and one bincount give per resample the numbers of negatives
    and positives at each distinct score, from which the Mann-Whitney
    statistic follows by a cumulative sum (ties count 1/2). Several times
    faster than forming row weights and reordering them.
    """
    b = idx.shape[0]
    offsets = (np.arange(b) * (2 * n_blocks))[:, None]
    c = np.bincount((codes[idx] + offsets).ravel(), minlength=b * 2 * n_blocks)
    c = c.reshape(b, n_blocks, 2).astype(float)
    wn, wp = c[..., 0], c[..., 1]
    below = np.cumsum(wn, axis=1) - wn
    num = (wp * (below + 0.5 * wn)).sum(axis=1)
    den = wp.sum(axis=1) * wn.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _jackknife(p, rng, groups=None):
    """Leave-one-unit-out values of a prepared metric (NaN removed).

    Closed form for sums metrics (total minus one unit); for ROC AUC and
    generic metrics a delete-a-block jackknife over at most 1000 / 200
    random blocks of units, exact delete-one when there are fewer units.
    The acceleration estimate of BCa is consistent for either.
    """
    n = p.y_true.size
    units = _Units(n, groups=groups)
    if p.spec.kind == "sums":
        F = np.column_stack([np.ones(n), p.F])
        Fu = units.aggregate(F)
        dist = _distinct(Fu)
        if dist is not None:
            U, inv = dist
            S = Fu.sum(axis=0) - U
            vals = p.value_from_sums(S[:, 1:], S[:, 0])[inv]
        else:
            S = Fu.sum(axis=0) - Fu
            vals = p.value_from_sums(S[:, 1:], S[:, 0])
        return vals[np.isfinite(vals)]
    if p.spec.kind == "auc" and groups is None:
        # closed form from the placement values (DeLong): leaving out a
        # positive i gives (m A - V10_i) / (m - 1), a negative j (n A - V01_j) / (n - 1)
        y = p.positive
        auc, v10, v01 = _placements(y, p.y_pred[None, :])
        m, k = v10.shape[1], v01.shape[1]
        vals = np.empty(n)
        with np.errstate(invalid="ignore", divide="ignore"):
            vals[y] = (m * auc[0] - v10[0]) / (m - 1) if m > 1 else np.nan
            vals[~y] = (k * auc[0] - v01[0]) / (k - 1) if k > 1 else np.nan
        return vals[np.isfinite(vals)]
    n_blocks = min(units.n_units, _MAX_JACKKNIFE_BLOCKS[p.spec.kind])
    unit_of_row = units.row_unit if units.row_unit is not None else np.arange(n)
    if n_blocks < units.n_units:
        perm = rng.permutation(units.n_units)
        block_of_unit = np.empty(units.n_units, dtype=np.intp)
        block_of_unit[perm] = np.arange(units.n_units) % n_blocks
    else:
        block_of_unit = np.arange(units.n_units)
    block_of_row = block_of_unit[unit_of_row]
    vals = np.empty(n_blocks)
    if p.spec.kind == "auc":
        chunk = max(1, _BLOCK_ELEMENTS // n)
        for start in range(0, n_blocks, chunk):
            blocks = np.arange(start, min(start + chunk, n_blocks))
            W = (block_of_row[None, :] != blocks[:, None]).astype(float)
            vals[blocks] = _weighted_auc(p.positive, p.y_pred, W)
    else:
        for k in range(n_blocks):
            vals[k] = p.loop_value(np.flatnonzero(block_of_row != k))
    return vals[np.isfinite(vals)]
