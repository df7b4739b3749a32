"""What the report knows about estimators' default score and one scale.

The ranges of metrics are the metric table's
(:func:`skperf.metrics._registry._metric_bounds`).
"""

from __future__ import annotations

__all__: list[str] = []

#: ``estimator.score`` of scikit-learn's mixins, by estimator type
_DEFAULT_SCORE = {"classifier": "accuracy", "regressor": "r2"}


def _estimator_type(est):
    from ..utils._sklearn_compat import get_tags

    try:
        return get_tags(est).estimator_type
    except Exception:  # not a scikit-learn estimator: tags cannot be read
        return getattr(est, "_estimator_type", None)


def _final_name(est):
    """Class name of the step whose ``score`` a pipeline (or search) delegates to."""
    steps = getattr(est, "steps", None)
    if steps:
        return _final_name(steps[-1][1])
    inner = getattr(est, "estimator", None)
    if inner is not None and hasattr(inner, "fit") and not isinstance(inner, type):
        return _final_name(inner)
    return type(est).__name__


def _default_score(est):
    """``(metric, label)`` of ``est.score``: ``("accuracy", "accuracy
    (LogisticRegression.score)")``; metric is ``None`` when unknown."""
    kind = _estimator_type(est)
    metric = _DEFAULT_SCORE.get(kind)
    what = metric or (f"{kind} score" if kind else "unknown metric")
    return metric, f"{what} ({_final_name(est)}.score)"


def _shared_default_score(estimators):
    """The metric every estimator's ``score`` measures, or the conflict.

    Parameters
    ----------
    estimators : dict of str to estimator

    Returns
    -------
    metric : str or None
        ``"accuracy"`` when all are classifiers, ``"r2"`` when all are
        regressors, ``None`` otherwise.
    conflict : str or None
        When the estimators are of different types (a classifier's accuracy
        cannot be ranked against a regressor's R²), the first two named, e.g.
        ``"accuracy (LogisticRegression.score) for 'a' vs r2
        (LinearRegression.score) for 'b'"``; else ``None``.
    """
    kinds = {}
    for name, est in estimators.items():
        kinds.setdefault(_estimator_type(est), []).append(name)
    if len(kinds) <= 1:
        kind = next(iter(kinds), None)
        return _DEFAULT_SCORE.get(kind), None
    first = [names[0] for names in kinds.values()][:2]
    return None, " vs ".join(
        f"{_default_score(estimators[n])[1]} for {n!r}" for n in first
    )


def _check_one_scale(items, what):
    """Refuse a mix of score directions or of metrics among ``items``.

    ``items`` maps a name to an object with ``greater_is_better`` and
    ``metric`` (distributions, reports); ``what`` names them in the error
    (``"distributions"``, ``"reports"``).
    """
    directions = {o.greater_is_better for o in items.values()}
    if len(directions) > 1:
        raise ValueError(
            f"All {what} must share `greater_is_better`; got "
            f"{ {n: o.greater_is_better for n, o in items.items()} }."
        )
    metrics = {o.metric for o in items.values()} - {None}
    if len(metrics) > 1:
        raise ValueError(
            f"All {what} must measure the same metric; got {sorted(metrics)}."
        )
