"""Model-selection reports."""

from ._model_selection import ModelSelectionReport, compare_models

__all__ = ["ModelSelectionReport", "compare_models"]
