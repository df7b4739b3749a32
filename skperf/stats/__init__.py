"""Pure NumPy/SciPy statistics core of skperf (never imports scikit-learn).

Every function takes samples with the working axis last (``axis=-1`` by
default) and leading batch axes, so thousands of samples are processed in
one call.
"""

from ._mean import mean_ci
from ._outperform import (
    noether_sample_size,
    outperform_decision,
    prob_outperform,
    prob_outperform_ci,
)
from ._quantile import min_sample_size, quantile, quantile_ci
from ._results import Comparison, Interval, QuantileCI

__all__ = [
    "Comparison",
    "Interval",
    "QuantileCI",
    "mean_ci",
    "min_sample_size",
    "noether_sample_size",
    "outperform_decision",
    "prob_outperform",
    "prob_outperform_ci",
    "quantile",
    "quantile_ci",
]
