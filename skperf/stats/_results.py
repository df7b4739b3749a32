"""Result objects: :class:`Interval`, :class:`QuantileCI`, :class:`Comparison`.

Results hold raw numbers and never change after construction. Scalar fields
hold Python floats; array fields (a batch of samples, or an array of quantile
levels) are read-only NumPy arrays. Every result is a frozen dataclass with
``to_dict()`` (and ``to_frame()`` where tabular), a ``__repr__`` that names
its target, and value equality that never raises (arrays compared whole,
NaN equal to NaN): the one result style of skperf (``docs/conventions.rst``).
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from ..exceptions import _external_stacklevel

__all__ = ["Comparison", "Interval", "QuantileCI"]


def _deprecated_alias(new, old):
    """A read-only property ``old`` that returns ``self.<new>`` with a FutureWarning.

    The results spell a test's p-value ``pvalue`` (SciPy's spelling, the
    one result spine of issue 27); where a result used to say ``p_value``
    that name stays as this alias, on dataclasses and (through a subclass)
    on named tuples.
    """

    def fget(self):
        warnings.warn(
            f"`{old}` is deprecated; use `{new}` (SciPy's spelling).",
            FutureWarning,
            stacklevel=_external_stacklevel(),
        )
        return getattr(self, new)

    fget.__name__ = old
    fget.__doc__ = (
        f"Deprecated alias of ``{new}`` (SciPy's spelling); warns FutureWarning."
    )
    return property(fget)


def _freeze(value, dtype=float):
    """Python scalar for 0-d input, read-only array otherwise."""
    if value is None:
        return None
    arr = np.asarray(value, dtype=dtype)
    if arr.ndim == 0:
        return arr.item()
    arr = arr.copy()
    arr.flags.writeable = False
    return arr


def _fmt(x, digits=4):
    if isinstance(x, float | int | np.floating | np.integer):
        return f"{float(x):.{digits}g}"
    arr = np.asarray(x)
    if arr.ndim == 1 and arr.size <= 20 and arr.dtype.kind in "fiub":
        return "[" + ", ".join(f"{float(v):.{digits}g}" for v in arr) + "]"
    return np.array2string(arr, precision=digits, separator=", ")


def _is_borderline(p, alpha):
    """Whether ``p`` is within a factor of 2 of the level ``alpha`` either way.

    ``alpha / 2 <= p < 2 alpha`` (0.025 <= p < 0.10 at 0.05): a decision
    that a re-run with another seed (other splits, other fits) can
    plausibly flip. Vectorized; NaN and None are not borderline.
    """
    if p is None:
        return False
    p = np.asarray(p, dtype=float)
    with np.errstate(invalid="ignore"):
        out = (p >= alpha / 2) & (p < 2 * alpha)
    return bool(out) if out.ndim == 0 else out


def _borderline_note(p, alpha, *, what="p", settle="more runs settle it"):
    """The note of a borderline decision: what it is and what would settle it."""
    return (
        f"borderline: {what} = {float(p):.3g} is within a factor of 2 of the level "
        f"{alpha:.3g} ({alpha / 2:.3g} to {2 * alpha:.3g}), so a re-run with "
        f"another random_state can flip the decision; {settle}"
    )


def _values_equal(a, b):
    """``a == b`` for result fields: arrays whole, NaN equal, never raises."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        try:
            if a.dtype.kind in "fc" and b.dtype.kind in "fc":
                return bool(np.array_equal(a, b, equal_nan=True))
            return bool(np.array_equal(a, b))
        except (TypeError, ValueError):
            return False
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


class _ResultMixin:
    """Shared helpers: ``to_dict``/``to_frame`` and value equality.

    ``==`` compares every field (arrays whole, NaN equal to NaN) and never
    raises; results with array fields are therefore unhashable, like NumPy
    arrays.
    """

    _array_fields: tuple = ()

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(
            _values_equal(getattr(self, f.name), getattr(other, f.name))
            for f in dataclasses.fields(self)
        )

    __hash__ = None

    def to_dict(self):
        """Return the fields as a plain dict (arrays as lists).

        Returns
        -------
        dict
            Field name to value.
        """
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if isinstance(v, np.ndarray):
                v = v.tolist()
            out[f.name] = v
        return out

    def to_frame(self):
        """Return one row per interval (per quantile level or batch element).

        Returns
        -------
        pandas.DataFrame
            One column per field.
        """
        import pandas as pd

        values = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if not isinstance(getattr(self, f.name), Interval | dict)
        }
        shapes = [v.shape for v in values.values() if isinstance(v, np.ndarray)]
        shape = np.broadcast_shapes(*shapes) if shapes else ()
        cols = {}
        for name, v in values.items():
            if isinstance(v, np.ndarray):
                cols[name] = np.broadcast_to(v, shape).ravel()
            else:
                cols[name] = [v] * int(np.prod(shape, dtype=int))
        return pd.DataFrame(cols)


class _IntervalMixin(_ResultMixin):
    """What every interval result shares: ``estimate``/``low``/``high``.

    Subclasses are frozen dataclasses with the fields ``estimate``, ``low``,
    ``high``, ``confidence``, ``method`` and ``n_boot``; their
    ``__post_init__`` calls this one first and their ``__repr__`` is built
    by :meth:`_interval_repr`.
    """

    @property
    def length(self):
        """Interval length ``high - low``."""
        return self.high - self.low

    def __post_init__(self):
        """Bounds as Python scalars or read-only arrays, float confidence, int n_boot."""
        for name in ("estimate", "low", "high"):
            object.__setattr__(self, name, _freeze(getattr(self, name)))
        object.__setattr__(self, "confidence", float(self.confidence))
        if self.n_boot is not None:
            object.__setattr__(self, "n_boot", int(self.n_boot))

    def _interval_repr(self, *, head=(), middle=(), tail=()):
        """``Name(*head, estimate, low, high, confidence, method, *middle, n_boot,
        *tail, note, target)``; ``n_boot``, ``note`` and ``target`` where set."""
        method = self.method if isinstance(self.method, str) else self.method.tolist()
        parts = [
            *head,
            f"estimate={_fmt(self.estimate)}",
            f"low={_fmt(self.low)}",
            f"high={_fmt(self.high)}",
            f"confidence={self.confidence:g}",
            f"method={method!r}",
            *middle,
        ]
        if self.n_boot is not None:
            parts.append(f"n_boot={self.n_boot}")
        parts += tail
        if getattr(self, "note", ""):
            parts.append(f"note={self.note!r}")
        if getattr(self, "target", None) is not None:
            parts.append(f"target={self.target!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


@dataclass(frozen=True, eq=False)
class Interval(_IntervalMixin):
    """A point estimate with a confidence interval.

    Parameters
    ----------
    estimate : float or ndarray
        Point estimate (on the original sample, never a bootstrap mean).
    low, high : float or ndarray
        Interval bounds.
    confidence : float
        Nominal confidence level, e.g. 0.95.
    method : str
        Method that produced the interval (``"t"``, ``"bca"``, ``"wilson"`` ...).
    n : int
        Number of observations the interval is based on.
    n_boot : int or None, default=None
        Number of bootstrap resamples, for bootstrap methods.
    n_undefined : int, default=0
        Resamples on which the statistic was undefined (bootstrap methods);
        they are excluded from the interval and reported here.
    note : str, default=""
        What the interval describes and anything the user must know
        (e.g. "uncertainty from the finite test set, not from retraining").
    target : str or None, default=None
        What the interval covers: ``"this dataset"`` (the distribution of
        scores over repeats on one dataset), ``"new data"`` (the expected
        score of the algorithm trained on about n rows of the population)
        or ``"the fitted model"`` (the score of the model fitted on these
        rows); ``None`` when the producer does not say.

    Examples
    --------
    >>> from skperf import Interval
    >>> Interval(0.9, 0.85, 0.95, confidence=0.95, method="t", n=25)
    Interval(estimate=0.9, low=0.85, high=0.95, confidence=0.95, method='t', n=25)
    """

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    n: int
    n_boot: int | None = None
    n_undefined: int = 0
    note: str = ""
    target: str | None = None

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "n", _freeze(self.n, dtype=np.int64))
        object.__setattr__(
            self, "n_undefined", _freeze(self.n_undefined, dtype=np.int64)
        )

    def __repr__(self):
        n = _fmt(self.n) if isinstance(self.n, np.ndarray) else repr(self.n)
        tail = []
        if np.any(np.asarray(self.n_undefined) > 0):
            tail.append(f"n_undefined={_fmt(self.n_undefined)}")
        return self._interval_repr(middle=[f"n={n}"], tail=tail)


@dataclass(frozen=True, eq=False)
class QuantileCI(_IntervalMixin):
    """Point estimates and confidence intervals for quantiles.

    Fields are arrays when ``q`` is an array (one entry per quantile level,
    after any leading batch axes), Python scalars otherwise.

    Parameters
    ----------
    q : float or ndarray
        Quantile levels in (0, 1).
    estimate : float or ndarray
        Point estimates of the quantiles.
    low, high : float or ndarray
        Interval bounds.
    confidence : float
        Nominal confidence level.
    method : str or ndarray of str
        Method per quantile (``"exact"``, ``"asymptotic"``, ``"bootstrap"``);
        with ``method="auto"`` the method chosen for each level.
    n : int
        Sample size.
    coverage : float or ndarray or None, default=None
        Guaranteed (binomial) coverage of the exact interval; ``None`` for
        other methods (NaN entries in a mixed ``auto`` result).
    sign_transformed : bool or ndarray of bool, default=False
        Whether the interval was computed on the sign-flipped sample
        (Lehmann & Paromau, eq. 3) because only that interval is valid.
    n_boot : int or None, default=None
        Number of bootstrap resamples, for the bootstrap method.
    note : str, default=""
        Anything the user must know about the result.
    approximate : bool or ndarray of bool, default=False
        Per level: the interval has no coverage guarantee at this ``n`` and
        its measured coverage falls short of ``confidence`` (Hutson's
        bootstrap, e.g. where ``"auto"`` falls back to it); ``note`` and the
        warning give the measured coverage range.
    target : str, default="this dataset"
        What the intervals cover: quantiles of the distribution the scores
        are drawn from (for repeated runs: the runs on this dataset).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import quantile_ci
    >>> x = np.random.default_rng(0).normal(size=50)
    >>> ci = quantile_ci(x, [0.25, 0.5], method="exact")
    >>> ci.to_frame()[["q", "method"]]
          q method
    0  0.25  exact
    1  0.50  exact
    """

    q: float
    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    n: int
    coverage: float | None = None
    sign_transformed: bool = False
    n_boot: int | None = None
    note: str = ""
    approximate: bool = False
    target: str = "this dataset"

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "approximate", _freeze(self.approximate, dtype=bool))
        for name in ("q", "coverage"):
            object.__setattr__(self, name, _freeze(getattr(self, name)))
        object.__setattr__(self, "n", int(self.n))
        if not isinstance(self.method, str):
            object.__setattr__(self, "method", _freeze(self.method, dtype=object))
        object.__setattr__(
            self, "sign_transformed", _freeze(self.sign_transformed, dtype=bool)
        )

    def __repr__(self):
        middle = [f"n={self.n}"]
        if self.coverage is not None:
            middle.append(f"coverage={_fmt(self.coverage)}")
        if np.any(self.sign_transformed):
            flags = np.asarray(self.sign_transformed).tolist()
            middle.append(f"sign_transformed={flags!r}")
        tail = []
        if np.any(self.approximate):
            tail.append(f"approximate={np.asarray(self.approximate).tolist()!r}")
        return self._interval_repr(head=[f"q={_fmt(self.q)}"], middle=middle, tail=tail)


#: Decisions of :class:`Comparison`, from the side of the first distribution
#: (Bouthillier et al. 2021, App. C.6).
DECISIONS = (
    "better",  # CI low > 0.5 and CI high >= gamma: significant and meaningful
    "better, not meaningful",  # CI low > 0.5 and CI high < gamma
    "no significant difference",  # CI contains 0.5
    "worse, not meaningful",  # mirrored
    "worse",  # mirrored
)


@dataclass(frozen=True, eq=False)
class Comparison(_ResultMixin):
    """Result of :meth:`PerformanceDistribution.compare`.

    Parameters
    ----------
    estimate : float
        P(self > other): probability that ``self`` outperforms ``other``
        (ties count 1/2, ``greater_is_better`` respected).
    low, high : float
        Confidence interval for ``estimate`` (see ``method``).
    confidence : float
        Confidence level.
    gamma : float
        Threshold of a meaningful difference (Bouthillier et al., App. C.6).
    decision : str
        One of ``"better"``, ``"better, not meaningful"``,
        ``"no significant difference"``, ``"worse, not meaningful"``,
        ``"worse"`` (from the side of ``self``).
    paired : bool
        Whether observations were paired.
    n_self, n_other : int
        Sample sizes.
    mean_difference : Interval
        Difference of means ``self - other`` (in the metric's direction
        as given) with its interval (paired t or Welch).
    pvalue : float
        The p-value of the test named in ``test`` (``p_value`` is a
        deprecated alias).
    test : str
        ``"wilcoxon"`` (paired), ``"brunnermunzel"`` (unpaired, the larger
        of its and the Mann-Whitney p-value) or ``"mannwhitneyu"``
        (unpaired bootstrap or ``"newcombe"``).
    noether_n : int
        Noether sample size for ``gamma`` at the one-sided level ``(1 -
        confidence) / 2`` of the decision and power 0.95 (Bouthillier et
        al., App. C.3).
    n_boot : int or None
        Number of bootstrap resamples (``None`` for an exact method).
    names : tuple of str, default=("self", "other")
        Names of the two distributions.
    metric : str or None, default=None
        Name of the metric compared.
    note : str, default=""
        Anything the user must know (e.g. n below the Noether size).
    method : str, default=""
        Interval method: ``"sign"``, ``"brunner-munzel"``, ``"newcombe"``,
        ``"bootstrap"`` or ``"cluster-bootstrap"`` (see
        :meth:`PerformanceDistribution.compare
        <skperf.PerformanceDistribution.compare>`).
    target : str, default="this dataset"
        What the decision is about: P(self > other) over runs on this
        dataset.
    borderline : bool or None, default=None
        Whether ``pvalue`` is within a factor of 2 of the level ``1 -
        confidence`` either way (``0.025 <= p < 0.10`` at 95 %): a decision
        that other runs can plausibly flip (``note`` then says so, and that
        more runs settle it). None: computed from ``pvalue``.
    statistic : float, default=nan
        The statistic of the test named in ``test``, as :mod:`scipy.stats`
        computes it on the scores of ``self`` and ``other`` as given
        (Wilcoxon's ``min(W+, W-)``, the Mann-Whitney U of ``self``, the
        Brunner-Munzel W; ``pvalue`` of ``"brunnermunzel"`` adds a
        continuity correction that W does not carry).

    Examples
    --------
    >>> from skperf import PerformanceDistribution
    >>> a = PerformanceDistribution([0.91, 0.92, 0.93, 0.94, 0.95, 0.96], name="A")
    >>> b = PerformanceDistribution([0.90, 0.91, 0.92, 0.93, 0.94, 0.95], name="B")
    >>> c = a.compare(b, paired=True)
    >>> c.estimate, c.decision, c.method
    (1.0, 'better', 'sign')
    """

    estimate: float
    low: float
    high: float
    confidence: float
    gamma: float
    decision: str
    paired: bool
    n_self: int
    n_other: int
    mean_difference: Interval
    pvalue: float
    test: str
    noether_n: int
    n_boot: int
    names: tuple = ("self", "other")
    metric: str | None = None
    note: str = field(default="")
    method: str = ""
    target: str = "this dataset"
    borderline: bool | None = None
    statistic: float = float("nan")

    def __post_init__(self):
        object.__setattr__(self, "statistic", float(self.statistic))
        if self.borderline is None:
            alpha = 1 - float(self.confidence)
            borderline = _is_borderline(self.pvalue, alpha)
            object.__setattr__(self, "borderline", borderline)
            if borderline:
                extra = _borderline_note(
                    self.pvalue, alpha, settle="more runs (repeats) settle it"
                )
                note = f"{self.note}; {extra}" if self.note else extra
                object.__setattr__(self, "note", note)
        object.__setattr__(self, "borderline", bool(self.borderline))
        for name in ("estimate", "low", "high", "confidence", "gamma", "pvalue"):
            object.__setattr__(self, name, float(getattr(self, name)))
        for name in ("n_self", "n_other", "noether_n", "n_boot"):
            if name != "n_boot" or self.n_boot is not None:
                object.__setattr__(self, name, int(getattr(self, name)))
        object.__setattr__(self, "paired", bool(self.paired))
        object.__setattr__(self, "names", tuple(str(n) for n in self.names))
        if self.decision not in DECISIONS:
            raise ValueError(
                f"`decision` must be one of {DECISIONS}; got {self.decision!r}."
            )

    p_value = _deprecated_alias("pvalue", "p_value")

    @property
    def significant(self):
        """Whether the CI of P(self > other) excludes 0.5."""
        return self.decision != "no significant difference"

    @property
    def meaningful(self):
        """Whether the difference is significant and reaches ``gamma``."""
        return self.decision in ("better", "worse")

    @property
    def winner(self):
        """Name of the significantly better distribution, or ``None``."""
        if self.decision.startswith("better"):
            return self.names[0]
        if self.decision.startswith("worse"):
            return self.names[1]
        return None

    def to_dict(self):
        """Return the fields as a plain dict (the mean difference flattened).

        Returns
        -------
        dict
            Field name to value.
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        md = out.pop("mean_difference")
        out["names"] = list(self.names)
        out["mean_difference"] = md.estimate
        out["mean_difference_low"] = md.low
        out["mean_difference_high"] = md.high
        out["mean_difference_method"] = md.method
        return out

    def __str__(self):
        a, b = self.names
        pct = f"{self.confidence:.0%}"
        p = (
            f"P({a} > {b}) = {self.estimate:.3f} "
            f"[{pct} CI {self.low:.3f}, {self.high:.3f}]"
        )
        if self.method:
            p = f"{p} ({self.method})"
        if self.decision == "no significant difference":
            verdict = f"no significant difference between {a} and {b}"
        elif self.decision.endswith("not meaningful"):
            w, l_ = (a, b) if self.decision.startswith("better") else (b, a)
            verdict = (
                f"{w} is significantly better than {l_}, but the difference is "
                f"not meaningful (CI does not reach gamma = {self.gamma:g})"
            )
        else:
            w, l_ = (a, b) if self.decision == "better" else (b, a)
            verdict = (
                f"{w} is significantly and meaningfully better than {l_} "
                f"(gamma = {self.gamma:g})"
            )
        kind = "paired" if self.paired else "unpaired"
        return f"{verdict}: {p}, {kind}, n = {self.n_self}/{self.n_other}."

    def __repr__(self):
        return (
            f"Comparison(estimate={self.estimate:.4g}, low={self.low:.4g}, "
            f"high={self.high:.4g}, decision={self.decision!r}, "
            f"paired={self.paired}, pvalue={self.pvalue:.4g}, "
            f"n_self={self.n_self}, n_other={self.n_other}"
            + (f", method={self.method!r}" if self.method else "")
            + f", target={self.target!r})"
        )
