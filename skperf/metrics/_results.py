"""Result of a paired comparison of two models on one test set."""

from __future__ import annotations

from dataclasses import dataclass

from ..stats._results import _ResultMixin

__all__ = ["PairedTestResult"]


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
    p_value : float
        Two-sided p-value of "no difference".
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
    PairedTestResult(estimate=0.05, low=0.01, high=0.09, p_value=0.02, method='mcnemar', n=200, confidence=0.95, statistic=5.4)
    """

    estimate: float
    low: float
    high: float
    p_value: float
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
        for name in ("estimate", "low", "high", "p_value", "confidence"):
            object.__setattr__(self, name, float(getattr(self, name)))
        for name in ("statistic", "estimate_a", "estimate_b"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, float(getattr(self, name)))
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "n_undefined", int(self.n_undefined))
        if self.n_boot is not None:
            object.__setattr__(self, "n_boot", int(self.n_boot))

    @property
    def significant(self):
        """Whether the interval excludes 0."""
        return self.low > 0 or self.high < 0

    def __repr__(self):
        parts = [
            f"estimate={_f(self.estimate)}",
            f"low={_f(self.low)}",
            f"high={_f(self.high)}",
            f"p_value={_f(self.p_value)}",
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
            f"{self.high:.4g}], p = {self.p_value:.3g} ({self.method}, n = {self.n})"
        )
