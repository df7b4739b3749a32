"""Out-of-bootstrap splitters, .632 estimators and hyperparameter-search tools."""

from ._bootstrap_632 import bootstrap_632_score
from ._noisy_grid import NoisyGridSearchCV
from ._search import (
    candidates_tied_with_best,
    fixed_search,
    quantile_refit,
    search_distributions,
    search_report,
    simplest_within_best,
)
from ._split import GroupOutOfBootstrap, OutOfBootstrap, StratifiedOutOfBootstrap

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
