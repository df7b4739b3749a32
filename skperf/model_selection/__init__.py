"""Out-of-bootstrap splitters, .632 estimators and hyperparameter-search tools."""

from ._bootstrap_632 import bootstrap_632_score
from ._search import quantile_refit, search_distributions, simplest_within_best
from ._split import GroupOutOfBootstrap, OutOfBootstrap, StratifiedOutOfBootstrap

__all__ = [
    "GroupOutOfBootstrap",
    "OutOfBootstrap",
    "StratifiedOutOfBootstrap",
    "bootstrap_632_score",
    "quantile_refit",
    "search_distributions",
    "simplest_within_best",
]
