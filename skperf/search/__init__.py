"""Hyperparameter-search tools: the top layer, built on the evaluator and the report.

Per-candidate distributions of a fitted search, the candidates tied with the
best, ``refit=`` callables, fixed hyperparameter optimization and the noisy
grid search. The public names are re-exported by :mod:`skperf.model_selection`.
"""

from ._distributions import search_distributions
from ._fixed import fixed_search
from ._noisy_grid import NoisyGridSearchCV
from ._refit import quantile_refit, simplest_within_best
from ._tied import candidates_tied_with_best, search_report

__all__ = [
    "NoisyGridSearchCV",
    "candidates_tied_with_best",
    "fixed_search",
    "quantile_refit",
    "search_distributions",
    "search_report",
    "simplest_within_best",
]
