"""PerformanceDistribution: array-like scores with honest statistics."""

from __future__ import annotations

import numbers

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from .stats._validation import _check_sample

__all__ = ["PerformanceDistribution"]


class PerformanceDistribution(NDArrayOperatorsMixin):
    """The distribution of a model's score over repeated evaluations.

    Parameters
    ----------
    scores : array-like of shape (n,)
        One score per independent evaluation (seeded split, initialization,
        search ...). At least 2 finite values.
    metric : str or None, default=None
        Name of the metric (e.g. ``"accuracy"``).
    greater_is_better : bool, default=True
        Whether larger scores are better (``False`` for losses).
    name : str or None, default=None
        Name of the model or configuration.
    groups : array-like of shape (n,) or None, default=None
        Marks observations that are not independent (e.g. the folds of one
        K-fold repeat share a group id).
    seeds : mapping of str to array-like of shape (n,) or None, default=None
        Seeds that produced each score (e.g. ``{"split": ..., "init": ...}``);
        two distributions with identical seeds are compared as paired.
    """

    __array_priority__ = 10

    def __init__(
        self, scores, *, metric=None, greater_is_better=True, name=None,
        groups=None, seeds=None,
    ):
        if isinstance(scores, PerformanceDistribution):
            scores = scores.scores
        x = _check_sample(scores, name="scores")
        if x.ndim != 1:
            raise ValueError(
                f"`scores` must be 1-D (one score per evaluation); got shape {x.shape}."
            )
        x = x.copy()
        x.flags.writeable = False
        self._scores = x
        if metric is not None and not isinstance(metric, str):
            raise TypeError(f"`metric` must be a str or None; got {metric!r}.")
        if not isinstance(greater_is_better, bool | np.bool_):
            raise TypeError(
                f"`greater_is_better` must be a bool; got {greater_is_better!r}."
            )
        self.metric = metric
        self.greater_is_better = bool(greater_is_better)
        self.name = None if name is None else str(name)
        self._groups = self._check_aligned(groups, "groups")
        if seeds is not None:
            if not hasattr(seeds, "items"):
                raise TypeError(
                    "`seeds` must be a mapping of source name to an array of "
                    f"{x.size} seeds; got {type(seeds).__name__}."
                )
            seeds = {str(k): self._check_aligned(v, f"seeds[{k!r}]") for k, v in seeds.items()}
        self._seeds = seeds

    def _check_aligned(self, values, name):
        if values is None:
            return None
        arr = np.asarray(values)
        if arr.shape != self._scores.shape:
            raise ValueError(
                f"`{name}` must have one entry per score ({self._scores.size}); "
                f"got shape {arr.shape}."
            )
        arr = arr.copy()
        arr.flags.writeable = False
        return arr

    # ------------------------------------------------------------------
    # array-like behaviour
    @property
    def scores(self):
        """Read-only array of the scores."""
        return self._scores

    @property
    def groups(self):
        """Read-only array of group ids, or ``None``."""
        return self._groups

    @property
    def seeds(self):
        """Mapping of source name to read-only seed arrays, or ``None``."""
        return None if self._seeds is None else dict(self._seeds)

    @property
    def n(self):
        """Number of scores."""
        return self._scores.size

    def __array__(self, dtype=None, copy=None):
        if copy:
            return np.array(self._scores, dtype=dtype, copy=True)
        return np.asarray(self._scores, dtype=dtype)

    def __len__(self):
        return self._scores.size

    def __getitem__(self, key):
        return self._scores[key]

    def __iter__(self):
        return iter(self._scores)

    def __format__(self, spec):
        return format(self._scores, spec) if not spec else np.array2string(
            self._scores, formatter={"float_kind": lambda v: format(v, spec)}
        )

    @property
    def shape(self):
        """Shape of the scores, ``(n,)``."""
        return self._scores.shape

    @property
    def ndim(self):
        """Always 1."""
        return 1

    @property
    def size(self):
        """Number of scores."""
        return self._scores.size

    @property
    def dtype(self):
        """dtype of the scores (float64)."""
        return self._scores.dtype

    def mean(self, *args, **kwargs):
        """Mean of the scores (as ``numpy.ndarray.mean``)."""
        return self._scores.mean(*args, **kwargs)

    def std(self, *args, **kwargs):
        """Standard deviation (``ddof=0`` like ``numpy.ndarray.std``)."""
        return self._scores.std(*args, **kwargs)

    def var(self, *args, **kwargs):
        """Variance (``ddof=0`` like ``numpy.ndarray.var``)."""
        return self._scores.var(*args, **kwargs)

    def min(self, *args, **kwargs):
        """Smallest score."""
        return self._scores.min(*args, **kwargs)

    def max(self, *args, **kwargs):
        """Largest score."""
        return self._scores.max(*args, **kwargs)

    def sum(self, *args, **kwargs):
        """Sum of the scores."""
        return self._scores.sum(*args, **kwargs)

    def tolist(self):
        """Scores as a list of floats."""
        return self._scores.tolist()

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # arithmetic and ufuncs act on the plain scores and return ndarrays,
        # exactly as on cross_val_score's array
        inputs = tuple(
            x._scores if isinstance(x, PerformanceDistribution) else x for x in inputs
        )
        if "out" in kwargs:
            kwargs["out"] = tuple(
                x._scores if isinstance(x, PerformanceDistribution) else x
                for x in kwargs["out"]
            )
        return getattr(ufunc, method)(*inputs, **kwargs)

    __hash__ = None

    def __repr__(self):
        label = f"{self.name!r}, " if self.name else ""
        metric = f"{self.metric}, " if self.metric else ""
        return (
            f"PerformanceDistribution({label}{metric}n={self.n}, "
            f"mean={self._scores.mean():.4g}, sd={self._scores.std(ddof=1):.4g})"
        )


def _is_int(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)
