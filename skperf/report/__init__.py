"""Model-selection reports."""

from ._benchmark import BenchmarkReport, BenchmarkTest, benchmark
from ._compare_models import compare_models
from ._curves import CurveBand, curve_band, pr_curves, roc_curves
from ._model_selection import ModelSelectionReport

__all__ = [
    "BenchmarkReport",
    "BenchmarkTest",
    "CurveBand",
    "ModelSelectionReport",
    "benchmark",
    "compare_models",
    "curve_band",
    "pr_curves",
    "roc_curves",
]
