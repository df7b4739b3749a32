"""Out-of-bootstrap splitters, .632 estimators and hyperparameter-search tools.

This package is the public facade. The splitters live at the bottom layer
(:mod:`skperf._split`, imported by the evaluator), the search tools at the top
(:mod:`skperf.search`, which use the evaluator and the report); imports only
run downward.
"""

from .._split import GroupOutOfBootstrap, OutOfBootstrap, StratifiedOutOfBootstrap
from ..search import (
    NoisyGridSearchCV,
    candidates_tied_with_best,
    fixed_search,
    quantile_refit,
    search_distributions,
    search_report,
    simplest_within_best,
)
from ._bootstrap_632 import bootstrap_632_score

__all__ = [
    "GroupOutOfBootstrap",
    "NoisyGridSearchCV",
    "OutOfBootstrap",
    "StratifiedOutOfBootstrap",
    "bootstrap_632_score",
    "candidates_tied_with_best",
    "fixed_search",
    "quantile_refit",
    "search_distributions",
    "search_report",
    "simplest_within_best",
]
