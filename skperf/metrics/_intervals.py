"""Test-set intervals: metric_ci, score_ci, compare_predictions.

STUB: interface fixed, implementation in progress.
"""

__all__ = ["compare_predictions", "metric_ci", "score_ci"]


def metric_ci(y_true, y_pred, *, metric="accuracy", confidence=0.95, method="auto", n_boot="auto", stratify=False, groups=None, random_state=None):
    raise NotImplementedError


def score_ci(estimator, X, y, *, scoring=None, confidence=0.95, method="auto", **kwargs):
    raise NotImplementedError


def compare_predictions(y_true, y_pred_a, y_pred_b, *, metric="accuracy", method="auto", confidence=0.95, **kwargs):
    raise NotImplementedError
