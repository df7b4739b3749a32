"""Per-row forms of the decomposable scorers.

A scorer is *decomposable* when its value on a test set is the mean of a
per-row score (accuracy, the log loss, the Brier score, squared and absolute
error). The fitting engine (:mod:`skperf.model_selection._engine`) then scores a fit from
one inference pass, and the per-row methods (nested CV, Wald CV, the
holdout) read the per-row values.
"""

from __future__ import annotations

import numpy as np

__all__: list[str] = []

#: Per-row score of each decomposable scorer: the scorer's value is the mean
#: of these over the test rows (in its units and sign, greater is better).
DECOMPOSABLE = (
    "accuracy",
    "neg_brier_score",
    "neg_log_loss",
    "neg_mean_absolute_error",
    "neg_mean_squared_error",
)


def _row_scores(metric, y_true, pred, classes):
    """Per-row scores whose mean is the scorer's value on these rows."""
    y_pred = pred["y_pred"]
    if metric == "accuracy":
        return (np.asarray(y_pred) == np.asarray(y_true)).astype(float)
    if metric in ("neg_mean_squared_error", "neg_mean_absolute_error"):
        d = np.asarray(y_true, dtype=float) - np.asarray(y_pred, dtype=float)
        loss = d**2 if metric == "neg_mean_squared_error" else np.abs(d)
        return -(loss.mean(axis=1) if loss.ndim == 2 else loss)
    proba = pred["y_score"]
    if proba is None or not pred.get("score_is_proba", False):
        raise ValueError(
            f"scoring={metric!r} needs predict_proba; the estimator has none."
        )
    proba = np.asarray(proba, dtype=float)
    classes = np.asarray(classes)
    idx = np.searchsorted(classes, y_true)
    idx = np.clip(idx, 0, len(classes) - 1)
    if not np.all(classes[idx] == np.asarray(y_true)):
        raise ValueError(
            f"scoring={metric!r}: a test row has a class the model did not see in "
            "training; per-row scores are undefined."
        )
    if metric == "neg_log_loss":
        eps = np.finfo(proba.dtype).eps
        p = np.clip(proba[np.arange(len(idx)), idx], eps, 1 - eps)
        return np.log(p)
    if metric == "neg_brier_score":
        onehot = (idx[:, None] == np.arange(proba.shape[1])).astype(float)
        if proba.shape[1] == 2:  # binary: (p_pos - y)^2, as brier_score_loss
            return -((proba[:, 1] - onehot[:, 1]) ** 2)
        return -np.sum((proba - onehot) ** 2, axis=1)
    raise ValueError(f"no per-row score for scoring={metric!r}")  # pragma: no cover
