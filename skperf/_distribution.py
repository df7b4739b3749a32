"""PerformanceDistribution: array-like scores with honest statistics."""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from . import stats as _stats
from .exceptions import DependentObservationsWarning
from .stats._band import _pyplot
from .stats._requirement import (
    _METHODS,
    _check_threshold,
    _requirement_kwargs,
)
from .stats._validation import (
    _check_confidence,
    _check_method,
    _check_rng,
    _check_sample,
)
from .utils._warnings import _external_stacklevel

__all__ = ["PerformanceDistribution"]


def _ndarray_method(name, summary, returns, func=None):
    """A method applying :meth:`numpy.ndarray.<name>` to the plain scores."""

    def method(self, *args, **kwargs):
        if func is not None:
            return func(self._scores, *args, **kwargs)
        return getattr(self._scores, name)(*args, **kwargs)

    method.__name__ = name
    method.__qualname__ = f"PerformanceDistribution.{name}"
    method.__doc__ = f"""{summary}, as :meth:`numpy.ndarray.{name}`.

        Parameters
        ----------
        *args, **kwargs
            Passed to :meth:`numpy.ndarray.{name}` on the scores.

        Returns
        -------
        {returns}
            What NumPy returns for the plain array of scores.
        """
    return method


def _check_requirement(requirement, confidence):
    """Keyword arguments of ``requirement`` (None without one), checked.

    Fails before any fit or bootstrap with an error naming ``requirement``:
    a tuple longer than ``(threshold, probability)``, an unknown key, a
    non-finite threshold, a probability or confidence outside (0, 1) or an
    unknown method.
    """
    if requirement is None:
        return None
    try:
        if isinstance(requirement, tuple | list) and not 1 <= len(requirement) <= 2:
            raise ValueError(
                "a tuple must be (threshold,) or (threshold, probability); got "
                f"{len(requirement)} values"
            )
        kw = _requirement_kwargs(requirement, confidence)
        unknown = sorted(set(kw) - {"threshold", "probability", "confidence", "method"})
        if unknown or "threshold" not in kw:
            raise TypeError(
                "a dict takes the keys threshold (required), probability, "
                f"confidence and method; got {sorted(requirement)}"
            )
        _check_threshold(kw["threshold"])
        _check_confidence(kw.get("probability", 0.9), name="probability")
        _check_confidence(kw["confidence"])
        _check_method(kw.get("method", "auto"), _METHODS)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"`requirement={requirement!r}`: {exc}") from None
    return kw


#: names of losses (lower is better) beyond the ``*_loss`` / ``*_error`` names
_LOSS_NAMES = frozenset(
    {
        "loss",
        "error",
        "error_rate",
        "misclassification_rate",
        "mse",
        "mae",
        "rmse",
        "msle",
        "rmsle",
        "mape",
        "nll",
        "logloss",
        "cross_entropy",
        "crossentropy",
        "brier",
        "brier_score",
        "perplexity",
        "wer",
        "cer",
    }
)
#: run-log prefixes stripped before a name is looked up (``val_loss``)
_SPLIT_PREFIXES = ("mean_test_", "test_", "val_", "valid_", "validation_", "eval_")


#: short names of training logs for metrics of the range table
_ALIASES = {
    "acc": "accuracy",
    "top1_acc": "accuracy",
    "auc": "roc_auc",
    "auroc": "roc_auc",
}


def _metric_key(metric):
    """``"Val-Log Loss"`` -> ``"log_loss"``: lower case, ``_`` separators, no split prefix."""
    key = "_".join(str(metric).strip().lower().replace("-", " ").split())
    for prefix in _SPLIT_PREFIXES:
        if key.startswith(prefix) and len(key) > len(prefix):
            key = key[len(prefix) :]
            break
    return _ALIASES.get(key, key)


def _is_loss_name(metric):
    """Whether ``metric`` names a loss (lower is better): ``log_loss``, ``mse``, ``val_loss``.

    Negated scikit-learn scorers (``neg_log_loss``) are not losses.
    """
    if not isinstance(metric, str):
        return False
    key = _metric_key(metric)
    if key.startswith("neg_"):
        return False
    return key in _LOSS_NAMES or key.endswith(("_loss", "_error"))


def _known_range(metric):
    """``(low, high)`` of a named metric, or ``None``.

    The metric table (:func:`skperf.metrics._registry._metric_bounds`:
    accuracy, AUC, F1, R², ``neg_*`` ...) first, then the range of the
    test-set metric of that name (MSE, log loss, Brier: non-negative).
    """
    from .metrics._registry import _SPECS, _metric_bounds

    key = _metric_key(metric)
    bounds = _metric_bounds(key)
    if bounds is None and key in _SPECS:
        bounds = tuple(float(b) for b in _SPECS[key].range)
        if bounds == (-np.inf, np.inf):
            bounds = None
    return bounds


def _check_metric_scores(x, metric, greater_is_better):
    """Refuse scores that cannot be values of the named ``metric``.

    Two silent errors made loud (issue 17, items 3 and 10):

    - a loss name (``log_loss``, ``mse``, ``loss``, ``val_loss``, any
      ``*_loss`` / ``*_error``) with ``greater_is_better=True`` and positive
      scores would rank the highest loss best: refused, naming ``flag``
      (scores that are all <= 0 are taken as negated losses, as
      scikit-learn's ``neg_*`` scorers return);
    - scores outside the metric's range (accuracy ``90.88``): refused, with
      the hint to divide by 100 when they look like percentages.

    A value within ``1e-9`` of a bound is accepted (rounding).
    """
    if metric is None:
        return
    loss = _is_loss_name(metric)
    if loss and greater_is_better:
        if np.any(x > 0):
            raise ValueError(
                f"`metric` {metric!r} is a loss (lower is better), but "
                f"greater_is_better=True would rank the highest loss best; pass "
                f"greater_is_better=False (or negate the scores and name them "
                f"'neg_{_metric_key(metric)}')."
            )
        return  # negated losses: <= 0, greater is better
    bounds = _known_range(metric)
    if bounds is None:
        return
    low, high = bounds
    slack = 1e-9 * max(1.0, abs(low) if np.isfinite(low) else 0.0)
    slack_high = 1e-9 * max(1.0, abs(high) if np.isfinite(high) else 0.0)
    out = (x < low - slack) | (x > high + slack_high)
    if not out.any():
        return
    first = float(x[np.flatnonzero(out)[0]])
    rng = f"lie in [{low:g}, {high:g}]" if np.isfinite(low) else f"be at most {high:g}"
    if np.isinf(high):
        rng = f"be at least {low:g}"
    text = (
        f"`scores` of metric {metric!r} must {rng}; got {first:g} "
        f"({int(out.sum())} of {x.size} outside)"
    )
    if (low, high) == (0.0, 1.0) and np.all((x >= 0) & (x <= 100)):
        text += (
            "; these look like percentages: divide the scores by 100 "
            f"({first:g} -> {first / 100:g})"
        )
    elif loss and np.all(x <= 0):
        text += (
            "; negated losses are greater-is-better: pass greater_is_better=True "
            "(or name them 'neg_...')"
        )
    raise ValueError(text + ".")


def _scorer_distribution(scores, metric, **kwargs):
    """The distribution of one scorer's scores, named after the scorer.

    scikit-learn scorers are "greater is better" (``neg_*`` scorers return
    negated losses, exactly as ``cross_val_score`` does) and their values are
    right by construction, so the range check that guards scores typed in by
    hand (accuracy in percent) is not applied: a numeric ``error_score`` (say
    -1 for ROC AUC) may lie outside the metric's range on purpose.
    """
    dist = PerformanceDistribution(scores, greater_is_better=True, **kwargs)
    dist.metric = metric
    return dist


def _as_loss(dist):
    """A negated loss (``neg_root_mean_squared_error``) as the loss itself.

    scikit-learn's ``neg_*`` scorers return minus the loss so that greater
    is better; a report reads better in the loss's own units: RMSE 56.2,
    lower is better, rather than -56.2. Returns a distribution with the
    scores negated, ``metric`` without ``neg_`` and ``greater_is_better``
    False (every comparison, quantile and decision is the same statement
    about the same runs: P(A > B) counts the same wins, a quantile at level
    ``q`` of the negated scores is minus the ``1 - q`` quantile). Other
    distributions are returned unchanged.

    Examples
    --------
    >>> from skperf import PerformanceDistribution
    >>> from skperf._distribution import _as_loss
    >>> d = _as_loss(PerformanceDistribution(
    ...     [-56.2, -60.1, -52.3], metric="neg_root_mean_squared_error"))
    >>> d.metric, d.greater_is_better, d.scores.tolist()
    ('root_mean_squared_error', False, [56.2, 60.1, 52.3])
    """
    metric = dist.metric
    if not (
        dist.greater_is_better
        and isinstance(metric, str)
        and metric.startswith("neg_")
        and np.all(dist.scores <= 0)
    ):
        return dist
    return PerformanceDistribution(
        -dist.scores,
        metric=metric[len("neg_") :],
        greater_is_better=False,
        name=dist.name,
        groups=dist.groups,
        seeds=dist.seeds,
    )


class PerformanceDistribution(NDArrayOperatorsMixin):
    """The distribution of a model's score over repeated evaluations.

    Parameters
    ----------
    scores : array-like of shape (n,)
        One score per independent evaluation (seeded split, initialization,
        search ...). At least 2 finite values.
    metric : str or None, default=None
        Name of the metric (e.g. ``"accuracy"``). A known name is checked:
        scores outside its range are refused (accuracy ``90.88``: a
        percentage, divide by 100), and a loss name (``"log_loss"``,
        ``"mse"``, ``"loss"``, ``"val_loss"``, any ``*_loss`` or
        ``*_error``) needs ``greater_is_better=False`` unless every score
        is <= 0 (negated losses, as scikit-learn's ``neg_*`` scorers).
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

    Raises
    ------
    ValueError
        Scores that are not finite or fewer than 2; scores outside the range
        of the named ``metric``; a loss ``metric`` with
        ``greater_is_better=True`` and positive scores.

    See Also
    --------
    repeated_cross_val_score : Produce a distribution from repeated fits.
    RepeatedEvaluator : The meta-estimator behind it.

    Notes
    -----
    The object behaves like the 1-D array ``cross_val_score`` returns
    (``np.asarray``, ``len``, indexing, iteration, ``.mean()``, ``.std()``,
    arithmetic), with read-only scores.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf import PerformanceDistribution
    >>> d = PerformanceDistribution([0.91, 0.89, 0.93, 0.90, 0.92], metric="accuracy")
    >>> print(f"{d.mean():.3f} ± {d.std(ddof=1):.3f}, n = {len(d)}")
    0.910 ± 0.016, n = 5
    >>> ci = d.mean_ci()
    >>> print(f"[{ci.low:.3f}, {ci.high:.3f}]")
    [0.890, 0.930]
    """

    __array_priority__ = 10

    def __init__(
        self,
        scores,
        *,
        metric=None,
        greater_is_better=True,
        name=None,
        groups=None,
        seeds=None,
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
        _check_metric_scores(x, metric, bool(greater_is_better))
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
            seeds = {
                str(k): self._check_aligned(v, f"seeds[{k!r}]")
                for k, v in seeds.items()
            }
        self._seeds = seeds
        # the split design of per-fold scores (skperf.from_frame(fold=...))
        self._fold_design = None

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
        return (
            format(self._scores, spec)
            if not spec
            else np.array2string(
                self._scores, formatter={"float_kind": lambda v: format(v, spec)}
            )
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
        """Return the mean of the scores, as :meth:`numpy.ndarray.mean`.

        Parameters
        ----------
        *args, **kwargs
            Passed to :meth:`numpy.ndarray.mean`.

        Returns
        -------
        float
            The mean score.
        """
        return self._scores.mean(*args, **kwargs)

    def std(self, *args, **kwargs):
        """Return the standard deviation (``ddof=0``, as :meth:`numpy.ndarray.std`).

        Parameters
        ----------
        *args, **kwargs
            Passed to :meth:`numpy.ndarray.std` (e.g. ``ddof=1``).

        Returns
        -------
        float
            The standard deviation of the scores.
        """
        return self._scores.std(*args, **kwargs)

    def var(self, *args, **kwargs):
        """Return the variance (``ddof=0``, as :meth:`numpy.ndarray.var`).

        Parameters
        ----------
        *args, **kwargs
            Passed to :meth:`numpy.ndarray.var`.

        Returns
        -------
        float
            The variance of the scores.
        """
        return self._scores.var(*args, **kwargs)

    def min(self, *args, **kwargs):
        """Return the smallest score.

        Parameters
        ----------
        *args, **kwargs
            Passed to :meth:`numpy.ndarray.min`.

        Returns
        -------
        float
            The smallest score.
        """
        return self._scores.min(*args, **kwargs)

    def max(self, *args, **kwargs):
        """Return the largest score.

        Parameters
        ----------
        *args, **kwargs
            Passed to :meth:`numpy.ndarray.max`.

        Returns
        -------
        float
            The largest score.
        """
        return self._scores.max(*args, **kwargs)

    def sum(self, *args, **kwargs):
        """Return the sum of the scores.

        Parameters
        ----------
        *args, **kwargs
            Passed to :meth:`numpy.ndarray.sum`.

        Returns
        -------
        float
            The sum of the scores.
        """
        return self._scores.sum(*args, **kwargs)

    def tolist(self):
        """Return the scores as a list of floats.

        Returns
        -------
        list of float
            The scores.
        """
        return self._scores.tolist()

    # ndarray methods users call on cross_val_score's array; each returns
    # what numpy returns on the plain scores (a float, an int or an ndarray)
    round = _ndarray_method("round", "Return the scores rounded", "ndarray")
    argmax = _ndarray_method("argmax", "Return the index of the largest score", "int")
    argmin = _ndarray_method("argmin", "Return the index of the smallest score", "int")
    argsort = _ndarray_method(
        "argsort", "Return the indices that sort the scores", "ndarray"
    )
    astype = _ndarray_method(
        "astype", "Return a copy of the scores cast to a dtype", "ndarray"
    )
    copy = _ndarray_method("copy", "Return a writeable copy of the scores", "ndarray")
    clip = _ndarray_method(
        "clip", "Return the scores clipped to an interval", "ndarray"
    )
    ptp = _ndarray_method(
        "ptp", "Return the range of the scores (max - min)", "float", func=np.ptp
    )

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
            f"mean={self._scores.mean():.4g}, "
            f"sd(ddof=1)={self._scores.std(ddof=1):.4g})"
        )

    # ------------------------------------------------------------------
    # statistics
    def _warn_assumptions(self, what, independent=True):
        """Typed warnings for ties and dependent observations."""
        # ties: skperf.stats.quantile_ci warns itself, only for the levels
        # whose method loses its guarantee with ties (asymptotic, bootstrap);
        # the exact interval stays conservative
        if independent and self._groups is not None:
            n_groups = np.unique(self._groups).size
            if n_groups < self.n:
                warnings.warn(
                    f"The {self.n} scores form {n_groups} groups of dependent "
                    "observations (e.g. folds of one repeat). Intervals that assume "
                    "independent scores are too narrow; aggregate per group first "
                    "(dist.aggregate()) or use one out-of-bootstrap split per repeat.",
                    DependentObservationsWarning,
                    stacklevel=_external_stacklevel(),
                )

    def quantile(self, q, *, method="linear"):
        """Quantile point estimates.

        Parameters
        ----------
        q : float or array-like of float
            Quantile levels in (0, 1).
        method : str, default="linear"
            Any :func:`numpy.quantile` method (``"inverted_cdf"`` is Q̂ of
            Lehmann & Paromau eq. 5, ``"weibull"`` is Q̂_L of eq. 6) or
            ``"hutson"`` (Q̂_T, eq. 12).

        Returns
        -------
        float or ndarray
            One estimate per level (a float for scalar ``q``).

        Notes
        -----
        The default ``"linear"`` is :func:`numpy.quantile`'s (it interpolates
        between neighbouring scores). :meth:`quantile_ci` reports as its
        ``estimate`` the order statistic Q̂ = ``X_(ceil(n q))`` of Lehmann &
        Paromau eq. 5 (``method="inverted_cdf"`` here), the statistic its
        exact intervals are built around. The two can differ by up to one
        gap between neighbouring scores (e.g. ``quantile(0.1)`` 0.8814 and
        ``quantile_ci(0.1).estimate`` 0.8798 for 50 scores); pass
        ``method="inverted_cdf"`` for the number :meth:`quantile_ci` reports.

        Examples
        --------
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution([0.81, 0.84, 0.85, 0.86, 0.90])
        >>> print(round(d.quantile(0.5), 3), round(d.quantile(0.5, method="inverted_cdf"), 3))
        0.85 0.85
        """
        return _stats.quantile(self._scores, q, method=method)

    def quantile_ci(
        self,
        q,
        *,
        confidence=0.95,
        method="auto",
        n_boot="auto",
        random_state=None,
        simultaneous=False,
    ):
        """Point estimates and confidence intervals for quantiles of the scores.

        Parameters
        ----------
        q : float or array-like of float
            Quantile levels in (0, 1).
        confidence : float, default=0.95
            Confidence level in (0, 1).
        method : {"auto", "exact", "asymptotic", "bootstrap"}, default="auto"
            ``"exact"``: binomial order-statistic interval, shortest pair
            (Lehmann & Paromau, Sec. 3.2.1); ``"asymptotic"``: eqs. 10-11
            (Sec. 3.2.2); ``"bootstrap"``: Hutson's semiparametric bootstrap
            (Sec. 3.2.3); ``"auto"``: per level, asymptotic, then exact, then
            the sign-transformed interval (eq. 3), then the bootstrap with a
            :class:`~skperf.exceptions.SmallSampleWarning` naming the
            minimum n of the others and the bootstrap's measured coverage
            at this n (those levels get ``approximate=True``).
        n_boot : int or "auto", default="auto"
            Resamples for the bootstrap method; ``"auto"`` is the smallest
            count with 10 resamples in each tail (399 at 95 %).
        random_state : int, numpy.random.Generator or None, default=None
            Seed for the bootstrap method.
        simultaneous : bool, default=False
            When True, the intervals for all levels in ``q`` hold jointly
            with probability at least ``confidence`` (exact joint coverage
            of order-statistic intervals, Hayter 2014; see
            :func:`skperf.stats.simultaneous_quantile_ci`); ``method`` must
            then be ``"auto"`` or ``"exact"``.

        Returns
        -------
        QuantileCI
            Fields are arrays when ``q`` is an array.

        Raises
        ------
        ValueError
            If the sample is too small for an explicitly requested method
            (the message names the minimum n).

        Warns
        -----
        TiesWarning
            When scores are tied and a level uses the asymptotic or bootstrap
            interval (the exact interval stays conservative with ties; with
            ties ``"auto"`` prefers it).
        SmallSampleWarning
            When ``"auto"`` falls back to the bootstrap, with its measured
            coverage at this n (``approximate`` marks those levels).
        DependentObservationsWarning
            When ``groups`` marks dependent scores.

        Notes
        -----
        See :func:`skperf.stats.quantile_ci` and the "Statistical
        background" page for validity conditions and measured coverage.

        ``estimate`` is the order statistic Q̂ = ``X_(ceil(n q))`` (Lehmann &
        Paromau eq. 5), the statistic the exact interval is built around,
        for every ``method``; :meth:`quantile` defaults to numpy's
        interpolating ``"linear"`` estimate, so ``quantile(0.1)`` and
        ``quantile_ci(0.1).estimate`` can differ by up to one gap between
        neighbouring scores. ``quantile(q, method="inverted_cdf")`` equals
        ``estimate``.

        Examples
        --------
        >>> import numpy as np
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution(np.random.default_rng(0).normal(0.9, 0.02, 50))
        >>> ci = d.quantile_ci(0.5, method="exact")
        >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}] coverage={ci.coverage:.3f}")
        0.902 [0.896, 0.907] coverage=0.951
        """
        self._warn_assumptions("quantile")
        if not isinstance(simultaneous, bool | np.bool_):
            raise TypeError(
                f"`simultaneous` must be True or False; got {simultaneous!r}."
            )
        if simultaneous:
            if method not in ("auto", "exact"):
                raise ValueError(
                    "`method` must be 'auto' or 'exact' with simultaneous=True "
                    f"(exact joint coverage of order-statistic intervals); got {method!r}."
                )
            return _stats.simultaneous_quantile_ci(
                self._scores, q, confidence=confidence
            )
        return _stats.quantile_ci(
            self._scores,
            q,
            confidence=confidence,
            method=method,
            n_boot=n_boot,
            random_state=_check_rng(random_state),
        )

    def requirement(
        self, threshold, *, probability=0.9, confidence=0.95, method="auto"
    ):
        """Decide whether "score at least ``threshold`` with probability ``probability``" holds.

        For ``greater_is_better=False`` (losses) the statement is "score at
        most ``threshold``". See :func:`skperf.stats.requirement`.

        Parameters
        ----------
        threshold : float
            The score a run should reach.
        probability : float, default=0.9
            Required probability of reaching it.
        confidence : float, default=0.95
            Confidence level of the one-sided exact bounds.
        method : {"auto", "exact"}, default="auto"
            Clopper-Pearson bounds on the count of runs meeting the
            threshold (dual to order-statistic bounds of the quantile).

        Returns
        -------
        Requirement
            ``verdict`` ("met", "not met", "inconclusive"), the deciding
            ``bound``, the share of runs meeting the threshold
            (``estimate``) and ``n_needed``.

        Examples
        --------
        >>> import numpy as np
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution(np.random.default_rng(0).normal(0.93, 0.01, 60))
        >>> r = d.requirement(0.9, probability=0.9)
        >>> print(r.verdict, r.n_meeting, r.n_needed)
        met 60 29
        """
        self._warn_assumptions("requirement")
        return self._requirement(
            threshold, probability=probability, confidence=confidence, method=method
        )

    def _requirement(
        self, threshold, *, probability=0.9, confidence=0.95, method="auto"
    ):
        """:meth:`requirement` without the assumption warning (for ``summary``)."""
        return _stats.requirement(
            self._scores,
            threshold,
            probability=probability,
            confidence=confidence,
            method=method,
            greater_is_better=self.greater_is_better,
        )

    def repeats_needed(self, width, *, q="mean", confidence=0.95, assurance=0.5):
        """Plan the number of runs for an interval no longer than ``width``.

        These scores are the pilot; see :func:`skperf.stats.repeats_needed`.

        Parameters
        ----------
        width : float
            Target interval length, in score units.
        q : "mean" or float, default="mean"
            The mean (t interval) or a quantile level (the interval the default
            ``quantile_ci`` method gives).
        confidence : float, default=0.95
            Confidence level of the planned interval.
        assurance : float, default=0.5
            Share of follow-ups of the planned size that should give an
            interval no longer than ``width`` (0.5: the median length).

        Returns
        -------
        int
            Total number of runs (these included), never below the
            distribution-free minimum for the quantile.

        Examples
        --------
        >>> import numpy as np
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution(np.random.default_rng(0).normal(0.9, 0.02, 10))
        >>> d.repeats_needed(0.01), d.repeats_needed(0.01, q=0.5)
        (43, 60)
        """
        return _stats.repeats_needed(
            self._scores, width, q=q, confidence=confidence, assurance=assurance
        )

    def quantile_band(self, *, confidence=0.95, method="auto"):
        """A band for the whole quantile function, holding at all levels at once.

        See :func:`skperf.stats.quantile_band`.

        Parameters
        ----------
        confidence : float, default=0.95
            Simultaneous confidence level.
        method : {"auto", "ks", "dkw"}, default="auto"
            Exact Kolmogorov-Smirnov band (``"auto"``) or the DKW bound.

        Returns
        -------
        QuantileBand
            ``q``, ``low``, ``high``; ``at(q)`` reads it at any level.

        Examples
        --------
        >>> import numpy as np
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution(np.random.default_rng(0).normal(0.9, 0.02, 50))
        >>> low, high = d.quantile_band().at(0.5)
        >>> print(f"[{low:.3f}, {high:.3f}]")
        [0.894, 0.911]
        """
        self._warn_assumptions("band")
        return _stats.quantile_band(self._scores, confidence=confidence, method=method)

    def mean_ci(
        self,
        *,
        confidence=0.95,
        method="t",
        n_boot="auto",
        random_state=None,
        n_train=None,
        n_test=None,
    ):
        """Confidence interval for the mean score.

        Parameters
        ----------
        confidence : float, default=0.95
            Confidence level in (0, 1).
        method : {"t", "bootstrap", "bca", "corrected-t"}, default="t"
            ``"t"``: Student t (Lehmann & Paromau eq. 7); ``"bootstrap"``:
            percentile bootstrap; ``"bca"``: bias-corrected and accelerated
            bootstrap; ``"corrected-t"``: Nadeau & Bengio (2003) corrected
            resampled t for scores from overlapping resampling splits
            (needs ``n_train`` and ``n_test``).
        n_boot : int or "auto", default="auto"
            Resamples for the bootstrap methods; ``"auto"`` is the smallest
            count with 10 resamples in each tail (399 at 95 %).
        random_state : int, numpy.random.Generator or None, default=None
            Seed for the bootstrap methods.
        n_train, n_test : int, optional
            Training and test set sizes, for ``"corrected-t"``; by default
            those of the fold design (:func:`skperf.from_frame` with
            ``fold``), when the distribution has one.

        Returns
        -------
        Interval
            The mean, its interval, the method and n. With
            ``"corrected-t"`` on a fold design its ``target`` is ``"new
            data"`` (``J - 1`` degrees of freedom, as
            ``generalization_ci(method="corrected-t")``; the interval that
            ``generalization_ci(method="auto")`` reads from repeated K-fold,
            with ``K - 1``, is :func:`skperf.model_selection._folds.fold_ci`'s).

        Examples
        --------
        >>> import numpy as np
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution(np.random.default_rng(0).normal(0.9, 0.02, 25))
        >>> ci = d.mean_ci()
        >>> print(f"{ci.estimate:.4f} [{ci.low:.4f}, {ci.high:.4f}] {ci.method}")
        0.8985 [0.8913, 0.9057] t
        """
        design = self._fold_design
        from_design = (
            method == "corrected-t"
            and design is not None
            and n_train is None
            and n_test is None
        )
        if from_design:
            n_train, n_test = design.n_train, design.n_test
        self._warn_assumptions("mean", independent=method != "corrected-t")
        ci = _stats.mean_ci(
            self._scores,
            confidence=confidence,
            method=method,
            n_boot=n_boot,
            random_state=_check_rng(random_state),
            n_train=n_train,
            n_test=n_test,
        )
        if from_design:
            import dataclasses

            ci = dataclasses.replace(
                ci,
                target="new data",
                note=(
                    "new data: the expected score of the algorithm trained on about "
                    f"{design.n_train:.0f} rows ({design.text()}; corrected "
                    "resampled t, J - 1 degrees of freedom)"
                ),
            )
        return ci

    def min_sample_size(self, q, *, confidence=0.95, method="exact"):
        """Minimum number of scores for a quantile interval (Tables 1 and 2).

        Parameters
        ----------
        q : float or array-like of float
            Quantile levels in (0, 1).
        confidence : float, default=0.95
            Confidence level in (0, 1).
        method : {"exact", "asymptotic"}, default="exact"
            Interval method (Lehmann & Paromau, Table 1 exact, Table 2
            asymptotic).

        Returns
        -------
        int or ndarray of int
            The smallest n for which the interval exists.

        Examples
        --------
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution([0.8, 0.9, 0.85])
        >>> int(d.min_sample_size(0.9, confidence=0.95))
        29
        """
        return _stats.min_sample_size(q, confidence=confidence, method=method)

    def compare(
        self,
        other,
        *,
        gamma=0.75,
        confidence=0.95,
        paired="auto",
        method="auto",
        n_boot="auto",
        random_state=None,
        target=None,
        test_train_ratio=None,
    ):
        """Probability that this model outperforms ``other``, with a decision.

        Parameters
        ----------
        other : PerformanceDistribution or array-like
            Scores of the other model (same metric and direction).
        gamma : float, default=0.75
            Threshold of a meaningful difference (Bouthillier et al. 2021,
            App. C.6).
        confidence : float, default=0.95
            Confidence level of the interval of P(self > other).
        paired : {"auto", True, False}, default="auto"
            ``"auto"`` pairs when both distributions carry identical seeds
            (``split``, ``init``, ``search`` and, with several folds per
            repeat, ``fold``).
        method : {"auto", "sign", "newcombe", "bootstrap"}, default="auto"
            Interval of P(self > other). ``"auto"`` picks one that holds its
            false-"significant" rate and coverage at the given n: the exact
            ``"sign"`` interval when paired, Newcombe's score interval when
            unpaired, and the bootstrap over whole groups when ``groups``
            marks dependent scores. ``"bootstrap"`` is Bouthillier et al.'s
            percentile bootstrap (App. C.5), too narrow at small n. The
            result's ``method`` names the one used; the user guide
            (Comparing models) describes the methods and their measured
            error rates.
        n_boot : int or "auto", default="auto"
            Bootstrap resamples (``method="bootstrap"`` and the bootstrap
            over groups); ``"auto"`` is the smallest count with 10 resamples
            in each tail (399 at 95 %).
        random_state : int, numpy.random.Generator or None, default=None
            Seed for the bootstrap.
        target : {"new data", "this dataset"} or None, default=None
            What the decision is about. ``"this dataset"``: the distribution
            of scores over runs on this dataset (P(self > other), above).
            ``"new data"``: the expected scores of the two algorithms
            trained on about ``n_train`` rows of the same population, by
            the corrected resampled paired t on the per-split differences
            (Nadeau & Bengio 2003, ``J - 1`` degrees of freedom), the
            numbers of :func:`~skperf.compare_generalization` on the same
            splits; it needs one score per train/test split, paired split
            by split: a fold design (:func:`skperf.from_frame` with
            ``fold``) or ``test_train_ratio``. ``None``: ``"new data"``
            when both distributions carry a fold design or
            ``test_train_ratio`` is given, else ``"this dataset"``. With a
            fold design, ``"this dataset"`` compares the per-repeat means.
        test_train_ratio : float or None, default=None
            ``n_test / n_train`` of the splits the scores come from
            (``1 / (K - 1)`` for K-fold), for ``target="new data"`` on
            scores without a fold design (paired by position, or by
            ``seeds["split_id"]``).

        Returns
        -------
        Comparison or GeneralizationComparison
            ``"this dataset"``: a :class:`~skperf.Comparison`, P(self >
            other) with its interval, the decision, the difference of means
            and a p-value. ``"new data"``: a
            :class:`~skperf.GeneralizationComparison` (``estimate``: the
            mean of ``self - other`` over the splits in the metric's units,
            ``low``, ``high``, ``pvalue``, ``decision`` from ``self``'s
            side in the metric's direction, ``target="new data"``).

        Warns
        -----
        DependentObservationsWarning
            When ``groups`` marks dependent scores (e.g. folds of one
            repeat): the bootstrap then resamples whole groups, but the
            p-value and the mean-difference interval still assume
            independent scores (use :meth:`aggregate` for those).

        Examples
        --------
        >>> import numpy as np
        >>> from skperf import PerformanceDistribution
        >>> rng = np.random.default_rng(0)
        >>> a = PerformanceDistribution(rng.normal(0.90, 0.01, 30), name="A")
        >>> b = PerformanceDistribution(rng.normal(0.88, 0.01, 30), name="B")
        >>> c = a.compare(b, random_state=0)
        >>> c.decision
        'better'
        """
        from ._compare import compare

        a = self
        if (
            target is not None
            or test_train_ratio is not None
            or self._fold_design is not None
            or getattr(other, "_fold_design", None) is not None
        ):
            target = _check_compare_target(target, self, other, test_train_ratio)
            if target == "new data":
                return _new_data_compare(self, other, confidence, test_train_ratio)
            a = _per_repeat(self, "self")  # run-to-run: one score per repeat
            other = _per_repeat(other, "other")
        if not isinstance(other, PerformanceDistribution):
            try:
                other = PerformanceDistribution(
                    other, metric=self.metric, greater_is_better=self.greater_is_better
                )
            except (TypeError, ValueError) as exc:
                raise type(exc)(
                    "`other` must be a PerformanceDistribution or an array of "
                    f"scores; {exc}"
                ) from None
        return compare(
            a,
            other,
            gamma=gamma,
            confidence=confidence,
            paired=paired,
            method=method,
            n_boot=n_boot,
            random_state=random_state,
        )

    def aggregate(self, *, func="mean"):
        """One score per group (e.g. the mean over the folds of one repeat).

        Parameters
        ----------
        func : {"mean", "median"} or callable, default="mean"
            Reduction applied to the scores of each group.

        Returns
        -------
        PerformanceDistribution
            Independent observations, one per group, in order of first
            appearance; seeds taken from each group's first observation.

        Examples
        --------
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution([0.8, 0.9, 0.7, 0.9], groups=[0, 0, 1, 1])
        >>> d.aggregate().scores.round(3).tolist()
        [0.85, 0.8]
        """
        if self._groups is None:
            return self
        reducers = {"mean": np.mean, "median": np.median}
        if isinstance(func, str):
            if func not in reducers:
                raise ValueError(
                    f"`func` must be 'mean', 'median' or a callable; got {func!r}."
                )
            func = reducers[func]
        _, first, inverse = np.unique(
            self._groups, return_index=True, return_inverse=True
        )
        order = np.argsort(first)
        values = np.array([func(self._scores[inverse == g]) for g in order])
        seeds = (
            None
            if self._seeds is None
            else {k: v[first[order]] for k, v in self._seeds.items()}
        )
        return PerformanceDistribution(
            values,
            metric=self.metric,
            greater_is_better=self.greater_is_better,
            name=self.name,
            seeds=seeds,
        )

    def summary(
        self,
        *,
        quantiles=(0.1, 0.25, 0.5, 0.75, 0.9),
        confidence=0.95,
        requirement=None,
    ):
        """A table separating spread (of the scores) from uncertainty (of estimates).

        Parameters
        ----------
        quantiles : sequence of float, default=(0.1, 0.25, 0.5, 0.75, 0.9)
            Quantile levels to report.
        confidence : float, default=0.95
            Confidence level of the intervals.
        requirement : float, tuple or dict or None, default=None
            Add a row with the verdict of :meth:`requirement`: a threshold,
            a ``(threshold, probability)`` pair, or a dict of its keyword
            arguments (``confidence`` defaults to this method's). The row's
            ``ci_low``/``ci_high`` are the one-sided bounds of the share of
            runs meeting the threshold.

        Returns
        -------
        pandas.DataFrame
            One row per statistic. ``describes`` says whether the value
            measures the *spread* of scores across runs (sd, quantiles) or
            their *location* (mean); ``ci_low``/``ci_high`` are the
            *uncertainty* of that estimate (``ci_method`` names the method,
            empty where no interval is given). ``approximate`` is True for
            the quantile rows whose interval falls back to Hutson's
            bootstrap (no exact interval at this n); one
            :class:`~skperf.exceptions.SmallSampleWarning` per call gives
            their measured coverage.

        Examples
        --------
        >>> import numpy as np
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution(np.random.default_rng(0).normal(0.9, 0.02, 50))
        >>> d.summary(quantiles=(0.5,))[["statistic", "describes", "ci_method"]]
          statistic   describes ci_method
        0         n
        1      mean    location         t
        2        sd      spread
        3       q50  spread (quantile)  asymptotic
        """
        confidence = _check_confidence(confidence)
        requirement = (
            None if requirement is None else _check_requirement(requirement, confidence)
        )
        # the assumption warning once for all rows; the rows call the core,
        # whose warnings (ties, bootstrap fallback) point at the user's line
        self._warn_assumptions("summary")
        frame = self._summary(quantiles, confidence)
        if requirement is not None:
            frame = self._requirement_row(frame, requirement)
        return frame

    def _renamed(self, name):
        """A copy named ``name`` (scores, metric, direction, groups, seeds kept)."""
        out = PerformanceDistribution(
            self.scores,
            metric=self.metric,
            greater_is_better=self.greater_is_better,
            name=name,
            groups=self.groups,
            seeds=self.seeds,
        )
        out._fold_design = self._fold_design
        return out

    def _requirement_row(self, frame, requirement):
        import pandas as pd

        r = self._requirement(**requirement)
        op = ">=" if self.greater_is_better else "<="
        row = {
            "statistic": f"P(score {op} {r.threshold:g}) >= {r.probability:g}",
            "describes": f"requirement: {r.verdict}",
            "value": r.estimate,
            "ci_low": r.share_low,
            "ci_high": r.share_high,
            "ci_method": "exact one-sided bounds",
            "confidence": r.confidence,
        }
        out = pd.concat([frame, pd.DataFrame([row])], ignore_index=True)
        out.attrs = frame.attrs
        return out

    def _summary(self, quantiles, confidence):
        import pandas as pd

        rows = [
            {
                "statistic": "n",
                "describes": "",
                "value": float(self.n),
                "ci_low": np.nan,
                "ci_high": np.nan,
                "ci_method": "",
            },
        ]
        m = _stats.mean_ci(self._scores, confidence=confidence)
        rows.append(
            {
                "statistic": "mean",
                "describes": "location",
                "value": m.estimate,
                "ci_low": m.low,
                "ci_high": m.high,
                "ci_method": m.method,
            }
        )
        rows.append(
            {
                "statistic": "sd",
                "describes": "spread",
                "value": float(self._scores.std(ddof=1)),
                "ci_low": np.nan,
                "ci_high": np.nan,
                "ci_method": "",
            }
        )
        if len(quantiles):
            qs = np.asarray(quantiles, dtype=float)
            # the summary always answers; a bootstrap fallback warns once
            # (with its measured coverage) and is marked `approximate`
            ci = _stats.quantile_ci(
                self._scores, qs, confidence=confidence, method="auto", random_state=0
            )
            methods = np.broadcast_to(np.asarray(ci.method, dtype=object), qs.shape)
            approx = np.broadcast_to(np.asarray(ci.approximate, dtype=bool), qs.shape)
            for i, qv in enumerate(qs):
                rows.append(
                    {
                        "statistic": f"q{100 * qv:g}",
                        "describes": "spread (quantile)",
                        "value": float(ci.estimate[i]),
                        "ci_low": float(ci.low[i]),
                        "ci_high": float(ci.high[i]),
                        "ci_method": str(methods[i]),
                        "approximate": bool(approx[i]),
                    }
                )
        approximate = [r.pop("approximate", False) for r in rows]
        frame = pd.DataFrame(rows)
        frame["approximate"] = np.array(approximate, dtype=bool)
        frame["confidence"] = confidence
        frame.attrs["note"] = (
            "value: the statistic of the scores (spread across runs for sd and "
            "quantiles); ci_low/ci_high: uncertainty of that estimate from the "
            f"finite number of runs (n = {self.n})."
        )
        return frame

    # ------------------------------------------------------------------
    # I/O
    def to_frame(self):
        """Return the scores (with groups and seeds) as a DataFrame.

        Returns
        -------
        pandas.DataFrame
            One row per score: ``score``, ``group``, ``<source>_seed``.
        """
        import pandas as pd

        cols = {"score": self._scores}
        if self._groups is not None:
            cols["group"] = self._groups
        if self._seeds is not None:
            for k, v in self._seeds.items():
                cols[f"{k}_seed"] = v
        frame = pd.DataFrame(cols)
        frame.attrs.update(
            metric=self.metric, name=self.name, greater_is_better=self.greater_is_better
        )
        return frame

    def to_dict(self):
        """A JSON-friendly dict that :meth:`from_dict` turns back into an equal object.

        Returns
        -------
        dict
            Scores, metric, direction, name, groups and seeds.
        """
        return {
            "scores": self._scores.tolist(),
            "metric": self.metric,
            "greater_is_better": self.greater_is_better,
            "name": self.name,
            "groups": None if self._groups is None else self._groups.tolist(),
            "seeds": None
            if self._seeds is None
            else {k: v.tolist() for k, v in self._seeds.items()},
        } | (
            {}
            if self._fold_design is None
            else {"fold_design": self._fold_design.to_dict()}
        )

    @classmethod
    def from_dict(cls, data):
        """Build from the output of :meth:`to_dict`.

        Parameters
        ----------
        data : dict
            With key ``scores`` and optional ``metric``,
            ``greater_is_better``, ``name``, ``groups``, ``seeds``.

        Returns
        -------
        PerformanceDistribution
            The distribution described by ``data``.
        """
        if not hasattr(data, "keys") or "scores" not in data:
            raise ValueError("`data` must be a dict with at least a 'scores' entry.")
        known = {
            "scores",
            "metric",
            "greater_is_better",
            "name",
            "groups",
            "seeds",
            "fold_design",
        }
        unknown = set(data) - known
        if unknown:
            raise ValueError(
                f"`data` has unknown keys {sorted(unknown)}; valid: {sorted(known)}."
            )
        kw = dict(data)
        scores = kw.pop("scores")
        design = kw.pop("fold_design", None)
        kw.setdefault("greater_is_better", True)
        out = cls(scores, **kw)
        if design is not None:
            out._fold_design = FoldDesign(**design)
        return out

    def to_json(self, path=None):
        """Serialize to JSON (written to ``path`` when given).

        Parameters
        ----------
        path : str or path-like or None, default=None
            File to write.

        Returns
        -------
        str
            The JSON text.

        Examples
        --------
        >>> from skperf import PerformanceDistribution
        >>> d = PerformanceDistribution([0.8, 0.9], metric="accuracy")
        >>> PerformanceDistribution.from_json(d.to_json()).tolist()
        [0.8, 0.9]
        """
        import json

        text = json.dumps(self.to_dict(), default=_json_default)
        if path is not None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        return text

    @classmethod
    def from_json(cls, text_or_path):
        """Build from JSON text or a JSON file written by :meth:`to_json`.

        Parameters
        ----------
        text_or_path : str or path-like
            JSON text, or the path of a file holding it.

        Returns
        -------
        PerformanceDistribution
            The distribution described by the JSON.
        """
        import json
        import os

        text = str(text_or_path)
        if not text.lstrip().startswith("{"):
            if not os.path.exists(text):
                raise ValueError(
                    f"`text_or_path` is neither JSON text nor an existing file: {text[:80]!r}."
                )
            with open(text, encoding="utf-8") as fh:
                text = fh.read()
        return cls.from_dict(json.loads(text))

    def __reduce__(self):
        return (_rebuild, (self.to_dict(),))

    def _repr_html_(self):
        from html import escape

        title = escape(self.name or "PerformanceDistribution")
        metric = f" — {escape(self.metric)}" if self.metric else ""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                table = self.summary().to_html(
                    index=False, float_format=lambda v: f"{v:.4g}", na_rep=""
                )
        except ValueError as exc:  # e.g. too few scores for a quantile interval
            table = f"<p>{escape(str(exc))}</p>"
        return (
            f"<div><strong>{title}</strong>{metric} (n = {self.n})" + table + "</div>"
        )

    def plot(
        self,
        ax=None,
        *,
        quantiles=(0.1, 0.5, 0.9),
        confidence=0.95,
        band=False,
        **kwargs,
    ):
        """ECDF of the scores with quantile intervals (needs matplotlib).

        Parameters
        ----------
        ax : matplotlib.axes.Axes or None, default=None
            Axes to draw into (a new figure when ``None``).
        quantiles : sequence of float, default=(0.1, 0.5, 0.9)
            Quantile levels drawn as point estimates with intervals.
        confidence : float, default=0.95
            Confidence level of the quantile intervals.
        band : bool, default=False
            Also draw the simultaneous band of :meth:`quantile_band` (at
            ``confidence``) around the ECDF: it holds for all levels at
            once, the error bars hold one level at a time.
        **kwargs
            Passed to ``ax.step`` for the ECDF line.

        Returns
        -------
        matplotlib.axes.Axes
            The axes drawn into.
        """
        plt = _pyplot("PerformanceDistribution.plot")
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3.5))
        x = np.sort(self._scores)
        y = np.arange(1, x.size + 1) / x.size
        label = kwargs.pop("label", self.name or "scores")
        ax.step(x, y, where="post", label=label, **kwargs)
        if band:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self.quantile_band(confidence=confidence).plot(ax=ax, color="C0")
        if len(quantiles):
            # one call, so one warning per kind (fallback with its measured
            # coverage, ties), pointing at the user's line
            ci = self.quantile_ci(
                np.asarray(quantiles, dtype=float),
                confidence=confidence,
                random_state=0,
            )
            est, lo, hi = (np.atleast_1d(v) for v in (ci.estimate, ci.low, ci.high))
            qs = np.atleast_1d(ci.q)
            approx = np.broadcast_to(np.asarray(ci.approximate, dtype=bool), qs.shape)
            for mask, fmt, label in (
                (~approx, "o", f"quantiles, {confidence:.0%} CI"),
                (approx, "o--", f"quantiles, approximate {confidence:.0%} CI"),
            ):
                if mask.any():
                    bars = ax.errorbar(
                        est[mask],
                        qs[mask],
                        xerr=[est[mask] - lo[mask], hi[mask] - est[mask]],
                        fmt="o",
                        color="black",
                        mfc="white" if fmt == "o--" else "black",
                        capsize=3,
                        label=label,
                    )
                    if fmt == "o--":
                        bars[-1][0].set_linestyle("--")
        ax.set_xlabel(self.metric or "score")
        ax.set_ylabel("ECDF")
        ax.legend(loc="best", fontsize="small")
        return ax


@dataclass(frozen=True)
class FoldDesign:
    """The split design behind per-fold scores (:func:`skperf.from_frame` with ``fold``).

    Parameters
    ----------
    n_repeats : int
        Repeats ``R`` of the K-fold cross-validation.
    n_folds : int
        Folds ``K`` per repeat.
    n_train, n_test : float
        Training and test set sizes of the splits (their means when they
        differ, e.g. K-fold with ``n`` not a multiple of ``K``).

    Examples
    --------
    >>> from skperf._distribution import FoldDesign
    >>> d = FoldDesign(3, 10, 135.0, 15.0)
    >>> d.n_splits, round(d.test_train_ratio, 4), d.n
    (30, 0.1111, 150)
    """

    n_repeats: int
    n_folds: int
    n_train: float
    n_test: float

    @property
    def n_splits(self):
        """``J = R K`` train/test splits."""
        return self.n_repeats * self.n_folds

    @property
    def test_train_ratio(self):
        """``n_test / n_train`` (Nadeau & Bengio's correction)."""
        return self.n_test / self.n_train

    @property
    def n(self):
        """Rows of the data the splits were drawn from (``n_train + n_test``)."""
        return round(self.n_train + self.n_test)

    def to_dict(self):
        """The four fields, JSON-friendly."""
        return {
            "n_repeats": int(self.n_repeats),
            "n_folds": int(self.n_folds),
            "n_train": float(self.n_train),
            "n_test": float(self.n_test),
        }

    def text(self):
        """``"3 x 10-fold CV (30 splits), about 135 training and 15 test rows"``."""
        return (
            f"{self.n_repeats} x {self.n_folds}-fold CV ({self.n_splits} splits), "
            f"about {self.n_train:.6g} training and {self.n_test:.6g} test rows"
        )


#: The new-data comparison of per-split scores (skperf.model_selection._folds.fold_compare).
#: Its result, GeneralizationComparison, lives in a module above this one, so
#: skperf.model_selection._folds registers it here when imported (imports run downward).
_NEW_DATA_COMPARE = []


def _new_data_compare(a, b, confidence, test_train_ratio):
    if not isinstance(b, PerformanceDistribution):
        b = PerformanceDistribution(
            b, metric=a.metric, greater_is_better=a.greater_is_better
        )
    if a.greater_is_better != b.greater_is_better:
        raise ValueError(
            "Cannot compare a score with a loss: greater_is_better is "
            f"{a.greater_is_better} and {b.greater_is_better}."
        )
    if (
        not _NEW_DATA_COMPARE
    ):  # pragma: no cover - skperf imports skperf.model_selection._folds
        import importlib

        importlib.import_module("skperf.model_selection._folds")
    return _NEW_DATA_COMPARE[0](
        a, b, confidence=confidence, test_train_ratio=test_train_ratio
    )


def _per_repeat(dist, name):
    """A fold-design distribution as one score per repeat (target "this dataset")."""
    design = getattr(dist, "_fold_design", None)
    if design is None:
        return dist
    if design.n_repeats < 2:
        raise ValueError(
            f"`{name}` holds one repeat of {design.n_folds} folds: there is no "
            "run-to-run distribution (target='this dataset' needs at least 2 "
            "repeats, one score each); use target='new data'."
        )
    return dist.aggregate()


def _check_compare_target(target, a, b, test_train_ratio):
    """``target`` of :meth:`PerformanceDistribution.compare` (``None`` resolved)."""
    designs = (
        getattr(a, "_fold_design", None) is not None
        and getattr(b, "_fold_design", None) is not None
    )
    if target is None:
        return "new data" if designs or test_train_ratio is not None else "this dataset"
    if target not in ("new data", "this dataset"):
        raise ValueError(
            f"`target` must be 'new data', 'this dataset' or None; got {target!r}."
        )
    if target == "this dataset" and test_train_ratio is not None:
        raise ValueError(
            "`test_train_ratio` is only used with target='new data'; got "
            f"test_train_ratio={test_train_ratio!r} with target='this dataset'."
        )
    if target == "new data" and not designs and test_train_ratio is None:
        raise ValueError(
            "target='new data' needs the split design of the scores: build both "
            "distributions with skperf.from_frame(..., fold=..., n_train=..., "
            "n_test=...), or pass test_train_ratio (n_test / n_train of the "
            "splits; 1 / (K - 1) for K-fold, the scores one per split, paired)."
        )
    return target


def _rebuild(state):
    return PerformanceDistribution.from_dict(state)


def _json_default(obj):
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    raise TypeError(f"Cannot serialize {type(obj).__name__}")


def _is_int(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)
