"""Kept predictions: ``RepeatedEvaluator(return_predictions=True)``.

Per fit, the test-set predictions are kept as the estimator returned them
(``y_pred`` from ``predict``; ``y_score`` from ``predict_proba``, else
``decision_function``; ``y_decision`` from ``decision_function`` when the
estimator has both), with the test indices as int32 (int64 beyond 2**31
rows). Dtypes are never narrowed, so any scikit-learn scorer recomputed
from them (:func:`score_distribution`) gives exactly the score of the fit.

Footprint per fit: ``n_test * (4 + itemsize(y_pred) + 8 * k)`` bytes, ``k``
the number of kept score columns (``n_classes`` for ``predict_proba`` plus
1 for a binary ``decision_function``). For 100 fits of a binary classifier
with 1,000 test rows each: about 100 * 1000 * (4 + 8 + 24) = 3.6 MB.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, is_classifier
from sklearn.utils.metaestimators import available_if

__all__ = [
    "collect",
    "oof_predictions",
    "predict_test",
    "repeat_metric_ci",
    "score_distribution",
]


def predict_test(est, X_test):
    """The predictions of a fitted estimator on its test rows (in the worker)."""
    out = {"y_pred": np.asarray(est.predict(X_test)), "y_score": None}
    out["y_decision"] = None
    has_proba = hasattr(est, "predict_proba")
    has_dec = hasattr(est, "decision_function")
    if has_proba:
        try:
            out["y_score"] = np.asarray(est.predict_proba(X_test))
        except AttributeError:  # e.g. SVC(probability=False) inside a wrapper
            has_proba = False
    if has_dec:
        try:
            dec = np.asarray(est.decision_function(X_test))
        except AttributeError:
            dec = None
        if has_proba:
            out["y_decision"] = dec
        else:
            out["y_score"] = dec
    classes = getattr(est, "classes_", None)
    out["classes"] = None if classes is None else np.asarray(classes)
    out["kind"] = "classifier" if is_classifier(est) else "regressor"
    out["score_is_proba"] = has_proba
    return out


def predict_for(est, X_test, metric):
    """The one prediction a per-row ``metric`` needs, as ``predict_test``'s
    dict: ``predict_proba`` for log loss and Brier, ``predict`` otherwise.

    The scorer of a decomposable metric is the mean of its per-row scores,
    so the score is computed from this prediction (one inference pass, where
    the scorer and ``predict_test`` would take up to four).
    """
    proba = metric in ("neg_log_loss", "neg_brier_score")
    has_proba = proba and hasattr(est, "predict_proba")
    classes = getattr(est, "classes_", None)
    return {
        "y_pred": None if proba else np.asarray(est.predict(X_test)),
        "y_score": np.asarray(est.predict_proba(X_test)) if has_proba else None,
        "y_decision": None,
        "classes": None if classes is None else np.asarray(classes),
        "kind": "classifier" if is_classifier(est) else "regressor",
        "score_is_proba": has_proba,
    }


def _index_dtype(n):
    return np.int32 if n < 2**31 else np.int64


def collect(ev, job, outputs, y):
    """Set ``ev.predictions_`` from the task outputs (``return_predictions=True``).

    ``job`` is the fitting engine's (:mod:`skperf.model_selection._engine`), ``outputs`` its
    ``(repeat, fold, outcome)`` per task.
    """
    import pandas as pd

    rows = {
        "repeat": [],
        "fold": [],
        "test_index": [],
        "y_pred": [],
        "y_score": [],
        "y_decision": [],
    }
    meta = []
    # a sequential run (a race) stops before the design's last tasks: each
    # output is paired with its own (repeat, fold) task
    test_of = {(task[0], task[1]): task[4] for task in job.tasks}
    for r, f, out in outputs:
        test = np.asarray(test_of[r, f])
        pred = out.get("predictions") or {}
        rows["repeat"].append(r)
        rows["fold"].append(f)
        rows["test_index"].append(test.astype(_index_dtype(test.max(initial=0) + 1)))
        for k in ("y_pred", "y_score", "y_decision"):
            rows[k].append(pred.get(k))
        meta.append(
            (pred.get("classes"), pred.get("kind"), pred.get("score_is_proba", False))
        )
    ev.predictions_ = pd.DataFrame(rows)
    # what score_distribution needs besides the predictions: the true target,
    # the classes of each fit and whether the model is a classifier
    ev._pred_meta = {"y": None if y is None else np.asarray(y), "meta": meta}


def _check_kept(ev):
    if not hasattr(ev, "predictions_"):
        raise ValueError(
            f"{type(ev).__name__} has no kept predictions: fit it with "
            "return_predictions=True (predictions_ is set only then)."
        )


def _kept(method):
    def check(self):
        if self.pred.get(method) is None:
            raise AttributeError(f"no {method} kept")
        return True

    return check


class _Replay(BaseEstimator):
    """Returns the kept predictions of one fit, whatever ``X`` it is given.

    Only the methods whose output was kept exist (``available_if``), so a
    scorer picks the same response method it picked on the fitted model.
    """

    def __init__(self, pred=None, classes=None):
        self.pred = pred
        self.classes = classes

    def __sklearn_is_fitted__(self):
        return True

    def predict(self, X):
        return self.pred["predict"]

    @available_if(_kept("predict_proba"))
    def predict_proba(self, X):
        return self.pred["predict_proba"]

    @available_if(_kept("decision_function"))
    def decision_function(self, X):
        return self.pred["decision_function"]


class _ReplayClassifier(ClassifierMixin, _Replay):
    @property
    def classes_(self):
        return self.classes


class _ReplayRegressor(RegressorMixin, _Replay):
    pass


def _replay(ev, i):
    row = ev.predictions_.iloc[i]
    classes, kind, score_is_proba = ev._pred_meta["meta"][i]
    pred = {"predict": row["y_pred"]}
    if score_is_proba:
        pred["predict_proba"] = row["y_score"]
        pred["decision_function"] = row["y_decision"]
    else:
        pred["decision_function"] = row["y_score"]
    cls = _ReplayClassifier if kind == "classifier" else _ReplayRegressor
    return cls(pred, classes)


def _default_score(estimator):
    """``estimator.score`` replayed, when it is the mixins' accuracy / R^2."""
    from sklearn.pipeline import Pipeline

    if isinstance(estimator, Pipeline):  # the final step's score of its predictions
        return _default_score(estimator.steps[-1][1])
    method = getattr(type(estimator), "score", None)
    if method is ClassifierMixin.score or method is RegressorMixin.score:
        return lambda est, X, y: est.score(X, y)
    raise ValueError(
        f"scoring=None replays {type(estimator).__name__}.score only when it is "
        "scikit-learn's accuracy (classifiers) or R^2 (regressors); pass a "
        "scorer name such as 'accuracy'."
    )


def score_distribution(ev, scoring, *, name=None):
    """Distribution of another metric from the kept predictions (no refit).

    Parameters
    ----------
    ev : RepeatedEvaluator
        Fitted with ``return_predictions=True``.
    scoring : str, callable or None
        A scikit-learn scorer name or scorer ``(estimator, X, y) -> float``;
        ``None`` replays the estimator's default ``score`` (accuracy or R^2).
    name : str or None, default=None
        Name of the metric (default: ``scoring`` when a str).

    Returns
    -------
    PerformanceDistribution
        One score per successful fit, with the ``seeds`` and ``groups`` of
        ``ev.distribution_`` (so it pairs with other evaluations).
    """
    from sklearn.metrics import get_scorer

    from .._distribution import _scorer_distribution

    _check_kept(ev)
    y = ev._pred_meta["y"]
    if y is None:
        raise ValueError("score_distribution needs a target: fit had y=None.")
    ok = ev.results_["error"].isna().to_numpy()
    if scoring is None:
        scorer = _default_score(ev.estimator)
    elif isinstance(scoring, str):
        from ..metrics._registry import _check_scorer_names

        scorer = get_scorer(_check_scorer_names(scoring))
    elif callable(scoring):
        scorer = scoring
    else:
        raise TypeError(
            "`scoring` must be a scikit-learn scorer name or a callable "
            f"scorer(estimator, X, y); got {scoring!r}."
        )
    # the fits of distribution_ (whose seeds and groups are reused): a failed
    # fit is dropped under a NaN error_score; under a number it scores that
    # number, unless only a scorer failed (its predictions are kept) and this
    # metric is finite on them, as per scorer in distributions_
    fill = np.nan if isinstance(ev.error_score, str) else float(ev.error_score)
    numeric = not np.isnan(fill)
    kept = ev.predictions_["y_pred"].notna().to_numpy()
    scores = np.full(ok.size, fill)
    for i in np.flatnonzero(ok | (numeric & kept)):
        test = ev.predictions_["test_index"].iloc[i]
        v = float(scorer(_replay(ev, i), np.zeros((len(test), 1)), y[test]))
        scores[i] = v if ok[i] or np.isfinite(v) else fill
    if not numeric:
        scores = scores[ok]
    base = ev.distribution_
    metric = (
        name if name is not None else (scoring if isinstance(scoring, str) else "score")
    )
    return _scorer_distribution(
        scores, metric, name=base.name, groups=base.groups, seeds=base.seeds
    )


def _partition_check(ev, r):
    idx = ev.predictions_.loc[ev.predictions_["repeat"] == r, "test_index"]
    allidx = np.concatenate(list(idx))
    n = len(ev._pred_meta["y"])
    if len(allidx) != n or np.unique(allidx).size != n:
        raise ValueError(
            f"Out-of-fold predictions need splits that partition the data (every "
            f"row in exactly one test fold per repeat, as KFold does); repeat {r} "
            f"has {np.unique(allidx).size} distinct test rows of {n} "
            f"({len(allidx)} in all). Out-of-bootstrap splits (cv=None) do not "
            "partition the data; use cv=5 (a shuffled K-fold) instead."
        )


def oof_predictions(ev, *, kind="y_pred"):
    """Out-of-fold predictions per repeat: ``cross_val_predict`` for repeats.

    Parameters
    ----------
    ev : RepeatedEvaluator
        Fitted with ``return_predictions=True`` and a cv whose folds
        partition the data (KFold-type).
    kind : {"y_pred", "y_score", "y_decision"}, default="y_pred"
        Which kept prediction to assemble.

    Returns
    -------
    ndarray of shape (n_repeats, n_samples, ...)
        Row ``r`` holds, for every sample, the prediction of the fit of
        repeat ``r`` whose test fold contained it.
    """
    _check_kept(ev)
    if kind not in ("y_pred", "y_score", "y_decision"):
        raise ValueError(
            f"`kind` must be 'y_pred', 'y_score' or 'y_decision'; got {kind!r}."
        )
    preds = ev.predictions_
    if ev.results_["error"].notna().any():
        raise ValueError(
            "Out-of-fold predictions need every fit to succeed; some failed "
            "(see results_['error'])."
        )
    repeats = np.unique(preds["repeat"])
    for r in repeats:
        _partition_check(ev, r)
    first = preds[kind].iloc[0]
    if first is None:
        raise ValueError(f"No {kind} kept for this estimator.")
    n = len(ev._pred_meta["y"])
    out = np.empty(
        (len(repeats), n, *np.shape(first)[1:]), dtype=np.asarray(first).dtype
    )
    for i in range(len(preds)):
        r = int(np.searchsorted(repeats, preds["repeat"].iloc[i]))
        out[r, preds["test_index"].iloc[i]] = preds[kind].iloc[i]
    return out


def repeat_metric_ci(ev, *, metric="accuracy", kind="auto", **kwargs):
    """A test-set interval per repeat (:func:`skperf.metrics.metric_ci`).

    For each repeat, the predictions of its fits are pooled (the out-of-fold
    predictions for a K-fold cv; the single test set for ``cv=None``) and
    ``metric_ci(y_true, pred, metric=metric, **kwargs)`` is computed.
    ``kind="auto"`` reads ``y_score`` (``predict_proba``, else
    ``decision_function``) for score metrics (ROC AUC, average precision, log
    loss, Brier score, scorer names that use them) and ``y_pred`` otherwise;
    score metrics refuse predicted labels (issue 17, item 4). For a binary
    classifier with probabilities, the positive class is ``classes_[1]``
    unless ``pos_label`` is given.

    Returns
    -------
    pandas.DataFrame
        One row per repeat: ``estimate``, ``low``, ``high``, ``n``, ``method``.
    """
    import pandas as pd

    from ..metrics import metric_ci
    from ..metrics._registry import _reads_scores, _resolve

    _check_kept(ev)
    y = ev._pred_meta["y"]
    preds = ev.predictions_
    if kind == "auto":
        kind = "y_score" if _reads_scores(_resolve(metric)) else "y_pred"
    if kind not in ("y_pred", "y_score", "y_decision"):
        raise ValueError(
            f"`kind` must be 'auto', 'y_pred', 'y_score' or 'y_decision'; got {kind!r}."
        )
    if kind != "y_pred" and "pos_label" not in kwargs:
        classes = next((m[0] for m in ev._pred_meta["meta"] if m[0] is not None), None)
        if classes is not None and len(classes) == 2:
            kwargs["pos_label"] = classes[1]
    rows = {}
    for r in np.unique(preds["repeat"]):
        sel = preds[preds["repeat"] == r]
        if any(p is None for p in sel[kind]):
            raise ValueError(f"Repeat {r} has a failed fit or no {kind} kept.")
        idx = np.concatenate(list(sel["test_index"]))
        pred = np.concatenate([np.asarray(p) for p in sel[kind]])
        ci = metric_ci(y[idx], pred, metric=metric, **kwargs)
        rows[int(r)] = {
            "estimate": ci.estimate,
            "low": ci.low,
            "high": ci.high,
            "n": ci.n,
            "method": ci.method,
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("repeat")
