"""Intervals and paired comparisons on a single test set."""

from ._intervals import compare_predictions, metric_ci, score_ci

__all__ = ["compare_predictions", "metric_ci", "score_ci"]
