"""Per-candidate distributions and statistical refits for hyperparameter searches.

STUB: interface fixed, implementation in progress.
"""

__all__ = ["quantile_refit", "search_distributions", "simplest_within_best"]


def search_distributions(search, *, scoring=None):
    raise NotImplementedError


def quantile_refit(q=0.1, *, scoring=None):
    raise NotImplementedError


def simplest_within_best(complexity, *, gamma=0.75, confidence=0.95, scoring=None):
    raise NotImplementedError
