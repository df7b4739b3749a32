"""compare_models and ModelSelectionReport.

STUB: interface fixed, implementation in progress.
"""

__all__ = ["ModelSelectionReport", "compare_models"]


class ModelSelectionReport:
    pass


def compare_models(estimators, X, y=None, **kwargs):
    raise NotImplementedError
