"""variance_sources: vary one source of variation at a time.

STUB: interface fixed, implementation in progress.
"""

__all__ = ["variance_sources"]


def variance_sources(estimator, X, y=None, **kwargs):
    raise NotImplementedError
