"""Intervals and paired comparisons on a single test set."""

from ..stats._crossed import CrossedInterval
from ._intervals import compare_predictions, metric_ci, score_ci
from ._results import CrossedPairedTestResult, PairedTestResult

__all__ = [
    "CrossedInterval",
    "CrossedPairedTestResult",
    "PairedTestResult",
    "compare_predictions",
    "metric_ci",
    "score_ci",
]
