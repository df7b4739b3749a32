"""RepeatedEvaluator and repeated_cross_val_score.

STUB: interface fixed, implementation in progress.
"""

__all__ = ["RepeatedEvaluator", "repeated_cross_val_score"]


class RepeatedEvaluator:
    pass


def repeated_cross_val_score(estimator, X, y=None, **kwargs):
    raise NotImplementedError
