"""Pure NumPy/SciPy statistics core of skperf (never imports scikit-learn).

Every function takes samples with the working axis last (``axis=-1`` by
default) and leading batch axes, so thousands of samples are processed in
one call.
"""

from ._auc import (
    DelongPairedResult,
    delong_paired,
    delong_placements,
    hanley_mcneil_var,
    roc_auc_ci,
)
from ._band import QuantileBand, quantile_band
from ._mean import mean_ci
from ._outperform import (
    ProbOutperformCI,
    noether_sample_size,
    outperform_decision,
    prob_outperform,
    prob_outperform_ci,
)
from ._planning import (
    expected_quantile_ci_length,
    repeats_needed,
)
from ._proportion import (
    McNemarResult,
    mcnemar,
    paired_proportion_difference_ci,
    proportion_ci,
)
from ._quantile import min_sample_size, quantile, quantile_ci
from ._requirement import (
    Requirement,
    requirement,
    requirement_n_needed,
    requirement_power,
    requirement_sample_size,
)
from ._results import Comparison, Interval, QuantileCI
from ._sequential import fits_for_difference
from ._simultaneous import joint_coverage, simultaneous_quantile_ci

__all__ = [
    "Comparison",
    "DelongPairedResult",
    "Interval",
    "McNemarResult",
    "ProbOutperformCI",
    "QuantileBand",
    "QuantileCI",
    "Requirement",
    "delong_paired",
    "delong_placements",
    "expected_quantile_ci_length",
    "fits_for_difference",
    "hanley_mcneil_var",
    "joint_coverage",
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
    "quantile_band",
    "quantile_ci",
    "repeats_needed",
    "requirement",
    "requirement_n_needed",
    "requirement_power",
    "requirement_sample_size",
    "roc_auc_ci",
    "simultaneous_quantile_ci",
]
