"""skperf: the distribution of a model's score, with honest statistics.

skperf refits scikit-learn estimators over seeded splits, initializations and
hyperparameter searches, and turns the scores into a
:class:`PerformanceDistribution` with quantile and mean intervals and
probability-of-outperforming comparisons.
"""

from ._distribution import PerformanceDistribution
from ._frame import from_frame
from ._version import __version__ as __version__
from .model_selection._compare_generalization import (
    GeneralizationComparison,
    compare_generalization,
)
from .model_selection._evaluator import RepeatedEvaluator, repeated_cross_val_score
from .model_selection._generalization import GeneralizationCI, generalization_ci
from .model_selection._variance import plot_variance_sources, variance_sources
from .report import (
    BenchmarkReport,
    BenchmarkTest,
    ModelSelectionReport,
    benchmark,
    compare_models,
)
from .stats import Comparison, Interval, QuantileBand, QuantileCI, Requirement

__all__ = [
    "BenchmarkReport",
    "BenchmarkTest",
    "Comparison",
    "GeneralizationCI",
    "GeneralizationComparison",
    "Interval",
    "ModelSelectionReport",
    "PerformanceDistribution",
    "QuantileBand",
    "QuantileCI",
    "RepeatedEvaluator",
    "Requirement",
    "benchmark",
    "compare_generalization",
    "compare_models",
    "from_frame",
    "generalization_ci",
    "plot_variance_sources",
    "repeated_cross_val_score",
    "variance_sources",
]
