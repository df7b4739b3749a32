"""Confidence intervals for the mean: t, percentile bootstrap, BCa, corrected t.

The working axis is last (``axis`` is moved there by the input validation);
leading axes are a batch, so thousands of samples are handled in one call.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from ._bootstrap import (
    _CHUNK_ELEMENTS,
    _bca_bounds,
    _iter_indices,
    _percentile_bounds,
)
from ._generalization import corrected_moments
from ._results import Interval
from ._validation import (
    _check_confidence,
    _check_method,
    _check_rng,
    _check_sample,
    _resolve_n_boot,
)

__all__ = ["mean_ci"]

_METHODS = ("t", "bootstrap", "bca", "corrected-t")

# Smallest n at which the bootstrap intervals hold their level: the smallest
# n of the grid 2, 3, 5, 7, 10, 15, 20, 25, 30, 50, 100 from which on the
# measured coverage of both the percentile and the BCa interval stays within
# 0.035 of nominal at 90 % and 95 % on normal, Beta(5, 1.5) and
# Binomial(200, 0.9)/200 scores (benchmarks/mean_coverage.py,
# docs/mean_coverage.csv; 4000 runs per cell, s.e. <= 0.005). Below it they
# cover 0.42-0.59 at n = 2, 0.52-0.82 at n = 3, 0.68-0.84 at n = 5 and
# 0.76-0.90 at n = 10 (nominal 0.90-0.95), heavy tails included.
_BOOT_MIN_N = {"bootstrap": 20, "bca": 20}


def _check_bootstrap_n(n, method):
    """Raise when the bootstrap interval cannot hold its level at this n."""
    need = _BOOT_MIN_N[method]
    if n < need:
        raise ValueError(
            f"n = {n} is too small for method={method!r}: the bootstrap interval "
            f"for the mean needs n >= {need}. Below that it undercovers badly "
            "(measured at nominal 0.95: about 0.50 at n = 2, 0.75 at n = 3, "
            "0.84 at n = 5, 0.90 at n = 10 on normal scores). Use method='t' "
            "(the default), which is exact for normal scores at any n >= 2."
        )


def _resample_counts(idx, n):
    """How often each row is drawn: ``(b, n)`` indices -> ``(b, n)`` counts."""
    b = idx.shape[0]
    flat = (idx + n * np.arange(b)[:, None]).ravel()
    return np.bincount(flat, minlength=b * n).reshape(b, n)


def _batch_chunk(n_boot, n, batch_shape):
    """Resamples per chunk so that a chunk holds ~``_CHUNK_ELEMENTS`` values.

    ``_bootstrap._chunk_size`` only looks at ``n``; here the leading batch
    axes multiply the memory of one chunk, so they are accounted for.
    """
    size = int(np.prod(batch_shape, dtype=np.int64)) * max(n, 1)
    return max(1, min(n_boot, _CHUNK_ELEMENTS // max(size, 1)))


def _bootstrap_mean(x, n_boot, rng, batch=None):
    """Bootstrap replicates of the mean of ``x`` over its last axis.

    Same resamples as ``_bootstrap((x,), np.mean, n_boot, rng, batch)`` (the
    indices come from ``_iter_indices`` chunk by chunk). With a batch of
    samples each chunk is one matrix product ``x @ counts.T / n`` instead of
    a gather of shape ``(..., b, n)``: no memory per batch element and
    resample, and several times faster (BLAS). A single sample uses the
    gather, which is cheaper there.

    Parameters
    ----------
    x : ndarray of shape (..., n)
    n_boot : int
    rng : numpy.random.Generator
    batch : int or None
        Resamples per chunk; ``None`` bounds memory from ``x.shape``.

    Returns
    -------
    ndarray of shape (..., n_boot)
    """
    n = x.shape[-1]
    if batch is None:
        batch = _batch_chunk(n_boot, n, x.shape[:-1])
    if x.ndim == 1:
        # a single sample: the gather is cheaper than counting (measured 2x)
        out = [x[idx].sum(axis=-1) / n for idx in _iter_indices(n, n_boot, rng, batch)]
    else:
        out = [
            x @ (_resample_counts(idx, n).T / n)
            for idx in _iter_indices(n, n_boot, rng, batch)
        ]
    return np.concatenate(out, axis=-1)


def _check_sizes(value, name, n):
    """``n_train``/``n_test``: a positive int or a 1-D array of ``n`` of them."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise TypeError(
            f"`{name}` must be a positive int or an array of them; got {value!r}."
        )
    if isinstance(value, numbers.Integral):
        arr = np.asarray(float(value))
    else:
        try:
            arr = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(
                f"`{name}` must be a positive int or an array of them; got {value!r}."
            ) from None
        if arr.ndim > 1 or (arr.ndim == 1 and arr.size != n):
            raise ValueError(
                f"`{name}` must be an int or a 1-D array with one entry per "
                f"observation ({n}); got shape {arr.shape}."
            )
    if not np.all(np.isfinite(arr) & (arr > 0)):
        raise ValueError(f"`{name}` must be positive; got {value!r}.")
    return arr


def _mean_ci_iv(x, confidence, method, n_boot, random_state, n_train, n_test, axis):
    x = _check_sample(x, axis=axis, min_n=2)
    confidence = _check_confidence(confidence)
    method = _check_method(method, _METHODS)
    ratio = None
    if method == "corrected-t":
        missing = [
            k for k, v in (("n_train", n_train), ("n_test", n_test)) if v is None
        ]
        if missing:
            raise ValueError(
                "method='corrected-t' needs the training and test set sizes of the "
                f"resampling splits; `{'` and `'.join(missing)}` missing. Pass "
                "n_train and n_test (ints, or one value per observation)."
            )
        n = x.shape[-1]
        ratio = float(
            np.mean(
                _check_sizes(n_test, "n_test", n) / _check_sizes(n_train, "n_train", n)
            )
        )
    elif n_train is not None or n_test is not None:
        raise ValueError(
            f"`n_train` and `n_test` are only used by method='corrected-t'; got "
            f"method={method!r}."
        )
    if method in ("bootstrap", "bca"):
        _check_bootstrap_n(x.shape[-1], method)
        n_boot = _resolve_n_boot(confidence, n_boot)
        rng = _check_rng(random_state)
    else:
        n_boot, rng = None, None
    return x, confidence, method, n_boot, rng, ratio


def _t_bounds(x, confidence):
    """Student t interval (Lehmann & Paromau, eq. 7)."""
    n = x.shape[-1]
    est = x.mean(axis=-1)
    var = x.var(axis=-1, ddof=1)
    half = stats.t.ppf(0.5 + confidence / 2, n - 1) * np.sqrt(var / n)
    return est, est - half, est + half


def mean_ci(
    x,
    *,
    confidence=0.95,
    method="t",
    n_boot="auto",
    random_state=None,
    n_train=None,
    n_test=None,
    axis=-1,
):
    """Confidence interval for the mean of a sample of scores.

    Parameters
    ----------
    x : array-like of shape (..., n, ...)
        Scores; the working axis is ``axis``, other axes are a batch of
        independent samples. At least 2 finite values per sample.
    confidence : float, default=0.95
        Confidence level in (0, 1).
    method : {"t", "bootstrap", "bca", "corrected-t"}, default="t"
        - ``"t"``: Student t interval ``mean ± t_{n-1, 1-α/2} S / sqrt(n)``
          (Lehmann & Paromau, eq. 7).
        - ``"bootstrap"``: percentile bootstrap.
        - ``"bca"``: bias-corrected and accelerated bootstrap (acceleration
          from the leave-one-out means).
        - ``"corrected-t"``: Nadeau & Bengio's corrected resampled t for
          scores from overlapping train/test splits (repeated random
          splits, out-of-bootstrap): the variance ``S^2 / n`` of the t
          interval becomes ``(1/n + n_test/n_train) S^2``, with ``n - 1``
          degrees of freedom.
    n_boot : int or "auto", default="auto"
        Bootstrap resamples (bootstrap methods only). ``"auto"`` picks the
        smallest count with 10 resamples in each tail (399 at 95 %).
    random_state : int, numpy.random.Generator or None, default=None
        Source of randomness for the bootstrap methods.
    n_train, n_test : int or array-like of shape (n,), default=None
        Training and test set sizes of the splits behind the scores;
        required by ``"corrected-t"`` and rejected by the other methods.
        Arrays give one size per observation (along ``axis``); the
        correction then uses the mean of ``n_test / n_train``.
    axis : int, default=-1
        Axis of the observations.

    Returns
    -------
    Interval
        ``estimate`` (the sample mean), ``low`` and ``high``; Python floats
        for a 1-D sample, arrays of the batch shape otherwise.

    Raises
    ------
    ValueError
        For ``"bootstrap"`` and ``"bca"`` when ``n < 20``: the message names
        the minimum n (see Notes).

    Warns
    -----
    SmallSampleWarning
        When an explicit ``n_boot`` leaves fewer than 10 resamples in a tail.

    Notes
    -----
    What the interval covers: the mean of the population the scores are
    drawn from. For scores of repeated runs on one dataset (out-of-bootstrap
    or random train/test splits, seeds) that is the expected score of this
    learning algorithm *on this dataset*; it says nothing about other
    datasets.

    Measured coverage (``benchmarks/mean_coverage.py``,
    ``docs/mean_coverage.csv``, 4000 runs per cell):

    - ``"t"`` is exact for normal scores at every ``n >= 2`` and holds
      within 0.025 of nominal on bounded, skewed scores (Beta(5, 1.5),
      accuracy on a 200-example test set) from n = 2. Heavy right skew
      breaks it: lognormal scores give 0.82-0.87 at nominal 0.95 for
      n = 5-25 and 0.91 at n = 100.
    - ``"bootstrap"`` (percentile) and ``"bca"`` are asymptotic. Below
      ``n = 20`` they undercover even on normal scores (about 0.50 at
      n = 2, 0.71-0.75 at n = 3, 0.84 at n = 5, 0.90 at n = 10, nominal
      0.95), so they raise there. From ``n = 20`` they hold within 0.035 of
      nominal on normal, Beta and binomial scores at 90 % and 95 %. Heavy
      tails are worse for BCa than for the percentile interval: on t(3)
      scores at 90 % BCa covers 0.83-0.86 for n = 20-100 (0.862 at
      n = 50), the percentile interval 0.86-0.89; the t interval holds
      (0.90-0.93). On lognormal scores every method undercovers (0.85-0.86
      at n = 50, 90 %).

    Scores from overlapping resampling splits (repeated train/test splits,
    out-of-bootstrap) are *not* independent draws of the generalisation
    performance over datasets: they share training and test examples, so
    as estimates of the expected score over datasets they are positively
    correlated and ``"t"`` is too narrow for that estimand.
    ``"corrected-t"`` is the heuristic correction of Nadeau & Bengio
    (2003), which is conservative when its ``n_test / n_train`` term
    overstates the correlation. Given the dataset, the repeats are
    independent draws (one fresh split per repeat), so ``"t"``, the
    bootstrap intervals and the quantile intervals are valid for the
    expected score on this dataset. Scores of K-fold folds of one repeat
    are dependent even given the dataset; no interval here corrects for
    that (aggregate per repeat first).

    A sample whose values are all equal gives the degenerate interval
    ``[mean, mean]`` for every method.

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 3.2, eq. 7 (t interval).
    "Confidence Intervals for Model Performance", Sec. 3 (percentile and
    BCa bootstrap). C. Nadeau and Y. Bengio, "Inference for the
    Generalization Error", Machine Learning 52 (2003), corrected resampled
    t-test.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import mean_ci
    >>> x = np.random.default_rng(0).normal(0.8, 0.02, size=20)
    >>> ci = mean_ci(x)
    >>> print(f"{ci.estimate:.4f} [{ci.low:.4f}, {ci.high:.4f}]")
    0.7963 [0.7882, 0.8045]
    >>> ci = mean_ci(x, method="bca", random_state=0)
    >>> print(f"[{ci.low:.4f}, {ci.high:.4f}]")
    [0.7874, 0.8027]
    >>> ci = mean_ci(x, method="corrected-t", n_train=800, n_test=200)
    >>> print(f"[{ci.low:.4f}, {ci.high:.4f}]")
    [0.7763, 0.8164]
    """
    x, confidence, method, n_boot, rng, ratio = _mean_ci_iv(
        x, confidence, method, n_boot, random_state, n_train, n_test, axis
    )
    n = x.shape[-1]
    note = ""
    if method == "t":
        est, low, high = _t_bounds(x, confidence)
    elif method == "corrected-t":
        est, se = corrected_moments(x, ratio)
        half = stats.t.ppf(0.5 + confidence / 2, n - 1) * se
        low, high = est - half, est + half
        note = (
            f"Nadeau-Bengio corrected variance (1/n + n_test/n_train) S^2 with "
            f"n_test/n_train = {ratio:.4g}"
        )
    else:
        est = x.mean(axis=-1)
        boot = _bootstrap_mean(x, n_boot, rng)
        if method == "bootstrap":
            low, high = _percentile_bounds(boot, confidence)
        else:
            total = x.sum(axis=-1, keepdims=True)
            jackknife = (total - x) / (n - 1)  # leave-one-out means
            low, high = _bca_bounds(boot, est, jackknife, confidence)
    # no spread: the interval is the point (rounding in mean/variance or in
    # the resampled sums must not open it up)
    constant = np.ptp(x, axis=-1) == 0
    if np.any(constant):
        est = np.where(constant, x[..., 0], est)
        low = np.where(constant, est, low)
        high = np.where(constant, est, high)
    return Interval(
        estimate=est,
        low=low,
        high=high,
        confidence=confidence,
        method=method,
        n=n,
        n_boot=n_boot,
        note=note,
        # corrected-t (Nadeau & Bengio) aims at the expected score of the
        # algorithm on new data; the others at the mean of the sampled runs
        target="new data" if method == "corrected-t" else "this dataset",
    )
