"""Everything that fits a model: splitters, seeding, the engine and the search tools.

The public names are the out-of-bootstrap splitters, the .632 bootstrap and
the hyperparameter-search tools. The private modules beside them hold the
rest of what fits: the splitters (``_split``), the seed tree (``_seeding``),
the sources of variation (``_vary``, ``_trainers``), the one fitting engine
(``_engine``, with ``_parallel``, ``_cache``, ``_predictions`` and
``_reproducible``), the evaluator (:class:`skperf.RepeatedEvaluator`), the
intervals for new data (:func:`skperf.generalization_ci`,
:func:`skperf.compare_generalization`, ``_folds``) and
:func:`skperf.variance_sources`.

Imports run downward: :mod:`skperf.report` uses the engine and the search
tools, and no module here imports it. The one public name that is a
report, :func:`search_report` (:meth:`skperf.ModelSelectionReport.from_search`
under the search tools' roof), lives in ``skperf.report._search`` and loads
on first use (a module ``__getattr__``): importing this package never
imports :mod:`skperf.report`.
"""

from ._bootstrap_632 import bootstrap_632_score
from ._fixed import fixed_search
from ._noisy_grid import NoisyGridSearchCV
from ._search_distributions import search_distributions
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


# Loaded on first use (PEP 562). search_report is the report's from_search,
# which sits above this package: the only name that points into
# skperf.report, by name only (tests/test_layout.py checks it).
_LAZY = {
    "candidates_tied_with_best": "._tied",
    "quantile_refit": "._refit",
    "search_report": "skperf.report._search",
    "simplest_within_best": "._refit",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
