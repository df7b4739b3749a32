"""Pure NumPy/SciPy statistics core of skperf (never imports scikit-learn).

Every function takes samples with the working axis last (``axis=-1`` by
default) and leading batch axes, so thousands of samples are processed in
one call.
"""

from ._auc import delong_paired, delong_placements, hanley_mcneil_var, roc_auc_ci
from ._mean import mean_ci
from ._outperform import (
    noether_sample_size,
    outperform_decision,
    prob_outperform,
    prob_outperform_ci,
)
from ._proportion import mcnemar, paired_proportion_difference_ci, proportion_ci
from ._quantile import min_sample_size, quantile, quantile_ci
from ._results import Comparison, Interval, QuantileCI

__all__ = [
    "Comparison",
    "Interval",
    "QuantileCI",
    "delong_paired",
    "delong_placements",
    "hanley_mcneil_var",
    "mcnemar",
    "mean_ci",
    "min_sample_size",
    "noether_sample_size",
    "outperform_decision",
    "paired_proportion_difference_ci",
    "prob_outperform",
    "prob_outperform_ci",
    "proportion_ci",
    "quantile",
    "quantile_ci",
    "roc_auc_ci",
]
