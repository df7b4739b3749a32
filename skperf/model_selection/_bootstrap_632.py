"""Efron's .632 and Efron & Tibshirani's .632+ bootstrap estimators.

STUB: interface fixed, implementation in progress.
"""

__all__ = ["bootstrap_632_score"]


def bootstrap_632_score(estimator, X, y, *, scoring=None, n_splits=200, method=".632+", random_state=None, n_jobs=None):
    raise NotImplementedError
