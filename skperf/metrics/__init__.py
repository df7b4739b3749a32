"""Intervals and paired comparisons on a single test set."""

from ._intervals import compare_predictions, metric_ci, score_ci
from ._results import PairedTestResult

__all__ = [
    "PairedTestResult",
    "compare_predictions",
    "metric_ci",
    "score_ci",
]
