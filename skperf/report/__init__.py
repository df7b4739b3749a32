"""Model-selection reports."""

from ._curves import CurveBand, curve_band, pr_curves, roc_curves
from ._model_selection import ModelSelectionReport, compare_models

__all__ = [
    "CurveBand",
    "ModelSelectionReport",
    "compare_models",
    "curve_band",
    "pr_curves",
    "roc_curves",
]
