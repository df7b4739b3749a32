"""Readable default names for estimators (distribution names, reports)."""

from __future__ import annotations

from ._sklearn_compat import BaseSearchCV

__all__ = ["_estimator_name"]


def _estimator_name(estimator):
    """A short readable name: the class, with the steps of a pipeline.

    ``Pipeline(StandardScaler, LogisticRegression)`` for a pipeline,
    ``GridSearchCV(SVC)`` for a hyperparameter search, the class name
    otherwise (e.g. ``RandomForestClassifier``).

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> _estimator_name(make_pipeline(StandardScaler(), LogisticRegression()))
    'Pipeline(StandardScaler, LogisticRegression)'
    """
    cls = type(estimator).__name__
    steps = getattr(estimator, "steps", None)
    if isinstance(steps, list) and steps:
        inner = [
            _estimator_name(step[-1])
            for step in steps
            if isinstance(step, tuple) and step[-1] not in (None, "passthrough")
        ]
        return f"{cls}({', '.join(inner)})"
    inner = getattr(estimator, "estimator", None)
    if isinstance(estimator, BaseSearchCV) and hasattr(inner, "fit"):
        return f"{cls}({_estimator_name(inner)})"
    return cls
