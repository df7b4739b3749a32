"""Result of a paired comparison of two models on one test set."""

from __future__ import annotations

from dataclasses import dataclass

from ..stats._results import _deprecated_alias, _ResultMixin

__all__ = ["CrossedPairedTestResult", "PairedTestResult"]


def _f(x, digits=4):
    return "None" if x is None else f"{x:.{digits}g}"


@dataclass(frozen=True, eq=False)
class PairedTestResult(_ResultMixin):
    """Difference of a metric between two models on the same test rows.

    Parameters
    ----------
    estimate : float
        ``metric(model a) - metric(model b)`` on the original rows.
    low, high : float
        Confidence interval for the difference.
    pvalue : float
        Two-sided p-value of "no difference" (``p_value`` is a deprecated
        alias).
    method : str
        ``"mcnemar"``, ``"delong"`` or ``"paired-bootstrap"``.
    n : int
        Number of test rows.
    confidence : float
        Confidence level of the interval.
    statistic : float or None
        Test statistic: chi-square or ``min(b, c)`` (McNemar), z (DeLong),
        difference / bootstrap standard error (paired bootstrap).
    metric : str, default=""
        Name of the metric compared.
    estimate_a, estimate_b : float or None, default=None
        The metric of each model.
    test : str, default=""
        Details of the test (e.g. ``"exact binomial"``).
    n_boot : int or None, default=None
        Resamples of the paired bootstrap.
    n_undefined : int, default=0
        Resamples where a metric was undefined (excluded, reported).
    note : str, default=""
        What the result describes.

    Examples
    --------
    >>> from skperf.metrics import PairedTestResult
    >>> PairedTestResult(0.05, 0.01, 0.09, 0.02, "mcnemar", 200, 0.95, 5.4)
    PairedTestResult(estimate=0.05, low=0.01, high=0.09, pvalue=0.02, method='mcnemar', n=200, confidence=0.95, statistic=5.4)
    """

    estimate: float
    low: float
    high: float
    pvalue: float
    method: str
    n: int
    confidence: float
    statistic: float | None = None
    metric: str = ""
    estimate_a: float | None = None
    estimate_b: float | None = None
    test: str = ""
    n_boot: int | None = None
    n_undefined: int = 0
    note: str = ""

    def __post_init__(self):
        for name in ("estimate", "low", "high", "pvalue", "confidence"):
            object.__setattr__(self, name, float(getattr(self, name)))
        for name in ("statistic", "estimate_a", "estimate_b"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, float(getattr(self, name)))
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "n_undefined", int(self.n_undefined))
        if self.n_boot is not None:
            object.__setattr__(self, "n_boot", int(self.n_boot))

    p_value = _deprecated_alias("pvalue", "p_value")

    @property
    def significant(self):
        """Whether the interval excludes 0."""
        return self.low > 0 or self.high < 0

    def __repr__(self):
        parts = [
            f"estimate={_f(self.estimate)}",
            f"low={_f(self.low)}",
            f"high={_f(self.high)}",
            f"pvalue={_f(self.pvalue)}",
            f"method={self.method!r}",
            f"n={self.n}",
            f"confidence={self.confidence:g}",
            f"statistic={_f(self.statistic)}",
        ]
        if self.metric:
            parts.append(f"metric={self.metric!r}")
        if self.estimate_a is not None:
            parts.append(f"estimate_a={_f(self.estimate_a)}")
        if self.estimate_b is not None:
            parts.append(f"estimate_b={_f(self.estimate_b)}")
        if self.test:
            parts.append(f"test={self.test!r}")
        if self.n_boot is not None:
            parts.append(f"n_boot={self.n_boot}")
        if self.n_undefined:
            parts.append(f"n_undefined={self.n_undefined}")
        return f"PairedTestResult({', '.join(parts)})"

    def __str__(self):
        pct = f"{self.confidence:.0%}"
        name = self.metric or "metric"
        return (
            f"{name}(a) - {name}(b) = {self.estimate:.4g} [{pct} CI {self.low:.4g}, "
            f"{self.high:.4g}], p = {self.pvalue:.3g} ({self.method}, n = {self.n})"
        )


@dataclass(frozen=True, eq=False, repr=False)
class CrossedPairedTestResult(PairedTestResult):
    """A :class:`PairedTestResult` over seeds x test rows.

    Returned by :func:`~skperf.metrics.compare_predictions` for predictions
    of shape ``(n_seeds, n_rows)``: the difference of the models' metrics
    averaged over their seeds, with an interval that accounts for the
    seed-to-seed and the test-row sampling variation.

    Parameters
    ----------
    estimate : float
        Difference of the seed-averaged metrics, a minus b.
    low, high : float
        Its interval.
    pvalue : float
        Two-sided p-value of "no difference" (``p_value`` is a deprecated
        alias).
    method : str
        ``"variance-components"`` (the crossed t) or the method used.
    n : int
        Number of test rows.
    confidence : float
        Confidence level of the interval.
    statistic : float or None, default=None
        The t statistic.
    metric : str, default=""
        Name of the metric compared.
    estimate_a, estimate_b : float or None, default=None
        The seed-averaged metric of each model.
    test : str, default=""
        Details of the test.
    n_boot : int or None, default=None
        Resamples, where the method used them.
    n_undefined : int, default=0
        Resamples where a metric was undefined (excluded, reported).
    note : str, default=""
        What the result describes.
    target : str, default=""
        What the interval covers (new test data, the models trained on this
        training set, over training seeds).
    n_seeds : tuple of int, default=()
        Seeds of model a and of model b.
    paired_seeds : bool, default=False
        Whether seed ``s`` of a and of b were treated as paired.
    df : float, default=nan
        Satterthwaite degrees of freedom of the t interval and test.
    se : float, default=nan
        Standard error of the difference.
    seeds_only : Interval or None, default=None
        The interval over seeds alone (test rows held fixed).
    components : dict or None, default=None
        The variance of the difference split into ``"seeds"`` and ``"rows"``.

    Examples
    --------
    >>> from skperf.metrics import CrossedPairedTestResult
    >>> r = CrossedPairedTestResult(0.02, 0.005, 0.035, 0.01, "variance-components",
    ...                             200, 0.95, 2.6, n_seeds=(5, 5), df=12.0)
    >>> print(r)
    metric(a) - metric(b) = 0.02 [95% CI 0.005, 0.035], p = 0.01 (variance-components, n = 200, 5 + 5 seeds)
    """

    target: str = ""
    n_seeds: tuple = ()
    paired_seeds: bool = False
    df: float = float("nan")
    se: float = float("nan")
    seeds_only: object = None
    components: dict | None = None

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "n_seeds", tuple(int(s) for s in self.n_seeds))
        object.__setattr__(self, "df", float(self.df))
        object.__setattr__(self, "se", float(self.se))

    @property
    def width_ratio(self):
        """Length of this interval over the seeds-only one."""
        if self.seeds_only is None:
            return float("nan")
        lo = self.seeds_only.high - self.seeds_only.low
        return float("inf") if lo <= 0 else (self.high - self.low) / lo

    def __repr__(self):
        base = super().__repr__()[:-1]
        return (
            f"{base}, n_seeds={self.n_seeds}, paired_seeds={self.paired_seeds}, "
            f"df={_f(self.df)}, target={self.target!r})"
        )

    def __str__(self):
        seeds = " + ".join(str(s) for s in self.n_seeds)
        return f"{super().__str__()[:-1]}, {seeds} seeds)"
