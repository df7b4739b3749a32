"""Metric specifications: names, input checks and vectorized forms.

A metric is resolved to a :class:`_MetricSpec` and then *prepared* on the
data (:func:`_prepare`), which gives one of three vectorized forms used by
the resampling engine in :mod:`skperf.metrics._resample`:

``"sums"``
    The metric is a function of column sums of a per-row feature matrix
    ``F`` (n, k) and of the number of rows: confusion-matrix metrics
    (features are cell indicators), accuracy, MAE, MSE, log loss, Brier
    score, R^2. A resample is then summarized by weighted sums
    ``W @ F`` -- or, when ``F`` has few distinct rows, by multinomial
    counts of those rows, which is exact and needs no row indices at all.
``"auc"``
    Binary ROC AUC, computed for a whole matrix of row weights at once
    from the scores sorted once.
``"loop"``
    Anything else (other scikit-learn metrics or scorers, callables): the
    function is called once per resample on the resampled rows.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
import warnings
from dataclasses import dataclass, field

import numpy as np

from ..exceptions import _external_stacklevel
from ..stats._validation import _check_rope
from ..utils._sklearn_compat import _scorer_parts

__all__: list[str] = []

_EPS = np.finfo(np.float64).eps


@dataclass(frozen=True)
class _MetricSpec:
    """What a metric is and how to compute it."""

    name: str
    kind: str  # "sums", "auc" or "loop"
    target: str  # "labels", "binary", "scores", "proba", "regression", "any"
    features: object = None  # (y_true, y_pred, pos) -> F (n, k)
    stat: object = None  # (S (b, k), T (b,)) -> (b,) values
    proportion: object = None  # (y_true, y_pred, pos) -> (k, n) counts
    func: object = None  # loop kind: (y_true, y_pred) -> float
    response: tuple = ("predict",)
    sign: float = 1.0
    description: str = ""
    aliases: tuple = field(default=())
    # proportion metrics whose value is an increasing function of the
    # proportion (F1 = 2 J / (1 + J) of the Jaccard index J)
    proportion_map: object = None
    # "mean loss" metrics: value = sign * post(mean of F[:, 0]) with F >= 0
    mean_loss: bool = False
    post: object = None
    # range of the metric's values (bounds are clipped to it)
    range: tuple = (-np.inf, np.inf)


def _div(a, b):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


# ---- confusion-cell metrics (binary) -------------------------------------
def _cells(y_true, y_pred, pos):
    t = y_true == pos
    p = y_pred == pos
    return np.column_stack([t & p, ~t & p, t & ~p, ~t & ~p]).astype(float)


def _cell_stat(fn):
    def stat(S, T):
        tp, fp, fn_, tn = S[:, 0], S[:, 1], S[:, 2], S[:, 3]
        return fn(tp, fp, fn_, tn)

    return stat


def _mcc(tp, fp, fn, tn):
    den = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return _div(tp * tn - fp * fn, den)


def _balanced(tp, fp, fn, tn):
    return (_div(tp, tp + fn) + _div(tn, tn + fp)) / 2


def _cell_counts(num, den):
    def counts(y_true, y_pred, pos):
        c = _cells(y_true, y_pred, pos).sum(axis=0)
        return c[list(num)].sum(), c[list(den)].sum()

    return counts


def _correct(y_true, y_pred, pos=None):
    return (y_true == y_pred).astype(float)[:, None]


def _mean_stat(S, T):
    return _div(S[:, 0], T)


# ---- regression and probability metrics ----------------------------------
def _abs_err(y_true, y_pred, pos=None):
    return np.abs(y_true - y_pred)[:, None]


def _sq_err(y_true, y_pred, pos=None):
    return ((y_true - y_pred) ** 2)[:, None]


def _ape(y_true, y_pred, pos=None):
    return (np.abs(y_true - y_pred) / np.maximum(np.abs(y_true), _EPS))[:, None]


def _r2_features(y_true, y_pred, pos=None):
    return np.column_stack([y_true, y_true**2, (y_true - y_pred) ** 2])


def _r2_stat(S, T):
    ss_tot = S[:, 1] - _div(S[:, 0] ** 2, T)
    # relative tolerance: constant targets give ss_tot ~ 0 up to rounding
    ss_tot = np.where(ss_tot > 1e-12 * np.maximum(S[:, 1], 1e-300), ss_tot, 0.0)
    return 1 - _div(S[:, 2], ss_tot)


def _log_loss_features(y_true, y_pred, pos):
    if y_pred.ndim == 1:
        p = np.where(y_true == pos, y_pred, 1 - y_pred)
    else:
        classes = np.unique(y_true)
        col = np.searchsorted(classes, y_true)
        proba = y_pred / y_pred.sum(axis=1, keepdims=True)
        p = proba[np.arange(y_true.size), col]
    return (-np.log(np.clip(p, _EPS, 1 - _EPS)))[:, None]


def _brier_features(y_true, y_pred, pos):
    return ((y_pred - (y_true == pos)) ** 2)[:, None]


def _neg(stat):
    return lambda S, T: -stat(S, T)


_SPECS: dict[str, _MetricSpec] = {}


def _register(spec):
    for key in (spec.name, *spec.aliases):
        _SPECS[key] = spec


_PROPORTION_DEFS = {
    # name: (numerator cells, denominator cells, aliases, description)
    "recall": (
        (0,),
        (0, 2),
        ("recall_score", "sensitivity", "tpr", "true_positive_rate"),
        "actual positives",
    ),
    "specificity": (
        (3,),
        (3, 1),
        ("specificity_score", "tnr", "true_negative_rate"),
        "actual negatives",
    ),
    "precision": (
        (0,),
        (0, 1),
        ("precision_score", "ppv", "positive_predictive_value"),
        "predicted positives",
    ),
    "npv": ((3,), (3, 2), ("negative_predictive_value",), "predicted negatives"),
}
for _name, (_num, _den, _aliases, _desc) in _PROPORTION_DEFS.items():
    _register(
        _MetricSpec(
            _name,
            "sums",
            "binary",
            features=_cells,
            stat=_cell_stat(
                lambda tp, fp, fn, tn, _n=_num, _d=_den: _div(
                    sum((tp, fp, fn, tn)[i] for i in _n),
                    sum((tp, fp, fn, tn)[i] for i in _d),
                )
            ),
            proportion=_cell_counts(_num, _den),
            description=f"proportion of the {_desc}",
            aliases=_aliases,
            range=(0.0, 1.0),
        )
    )

_register(
    _MetricSpec(
        "accuracy",
        "sums",
        "labels",
        features=_correct,
        stat=_mean_stat,
        proportion=lambda yt, yp, pos: (float((yt == yp).sum()), float(yt.size)),
        description="proportion of all rows",
        aliases=("accuracy_score",),
        range=(0.0, 1.0),
    )
)
_register(
    _MetricSpec(
        "error_rate",
        "sums",
        "labels",
        features=_correct,
        stat=lambda S, T: 1 - _mean_stat(S, T),
        proportion=lambda yt, yp, pos: (float((yt != yp).sum()), float(yt.size)),
        description="proportion of all rows",
        aliases=("error", "zero_one_loss", "misclassification_rate"),
        range=(0.0, 1.0),
    )
)
for _name, _fn, _aliases, _range in (
    ("balanced_accuracy", _balanced, ("balanced_accuracy_score",), (0.0, 1.0)),
    ("matthews_corrcoef", _mcc, ("mcc",), (-1.0, 1.0)),
):
    _register(
        _MetricSpec(
            _name,
            "sums",
            "binary",
            features=_cells,
            stat=_cell_stat(_fn),
            aliases=_aliases,
            range=_range,
        )
    )
# Jaccard J = TP / (TP + FP + FN): given the number of rows that are not true
# negatives, TP is binomial, so J has a proportion interval on that
# denominator; F1 = 2 J / (1 + J) is increasing in J and gets its bounds by
# the same map.
_register(
    _MetricSpec(
        "jaccard",
        "sums",
        "binary",
        features=_cells,
        stat=_cell_stat(lambda tp, fp, fn, tn: _div(tp, tp + fp + fn)),
        proportion=_cell_counts((0,), (0, 1, 2)),
        description="proportion of the rows positive in y_true or y_pred",
        aliases=("jaccard_score",),
        range=(0.0, 1.0),
    )
)
_register(
    _MetricSpec(
        "f1",
        "sums",
        "binary",
        features=_cells,
        stat=_cell_stat(lambda tp, fp, fn, tn: _div(2 * tp, 2 * tp + fp + fn)),
        proportion=_cell_counts((0,), (0, 1, 2)),
        proportion_map=lambda j: 2 * j / (1 + j),
        description="proportion of the rows positive in y_true or y_pred",
        aliases=("f1_score",),
        range=(0.0, 1.0),
    )
)

for _name, _feat, _aliases, _post in (
    ("mean_absolute_error", _abs_err, ("mae",), None),
    ("mean_squared_error", _sq_err, ("mse",), None),
    ("root_mean_squared_error", _sq_err, ("rmse",), np.sqrt),
    ("mean_absolute_percentage_error", _ape, ("mape",), None),
):
    _stat = (
        _mean_stat if _post is None else (lambda S, T, _p=_post: _p(_mean_stat(S, T)))
    )
    _register(
        _MetricSpec(
            _name,
            "sums",
            "regression",
            features=_feat,
            stat=_stat,
            aliases=_aliases,
            mean_loss=True,
            post=_post,
            range=(0.0, np.inf),
        )
    )
    _register(
        _MetricSpec(
            "neg_" + _name,
            "sums",
            "regression",
            features=_feat,
            stat=_neg(_stat),
            sign=-1.0,
            mean_loss=True,
            post=_post,
            range=(-np.inf, 0.0),
        )
    )
_register(
    _MetricSpec(
        "r2",
        "sums",
        "regression",
        features=_r2_features,
        stat=_r2_stat,
        aliases=("r2_score",),
        range=(-np.inf, 1.0),
    )
)
for _name, _neg_name, _feat, _aliases, _hi in (
    ("log_loss", "neg_log_loss", _log_loss_features, (), np.inf),
    ("brier_score_loss", "neg_brier_score", _brier_features, ("brier",), 1.0),
):
    _register(
        _MetricSpec(
            _name,
            "sums",
            "proba",
            features=_feat,
            stat=_mean_stat,
            response=("predict_proba",),
            aliases=_aliases,
            mean_loss=True,
            range=(0.0, _hi),
        )
    )
    _register(
        _MetricSpec(
            _neg_name,
            "sums",
            "proba",
            features=_feat,
            stat=_neg(_mean_stat),
            response=("predict_proba",),
            sign=-1.0,
            mean_loss=True,
            range=(-_hi, 0.0),
        )
    )
_register(
    _MetricSpec(
        "roc_auc",
        "auc",
        "scores",
        response=("decision_function", "predict_proba"),
        aliases=("roc_auc_score",),
        range=(0.0, 1.0),
    )
)

#: Metrics whose value is undefined when a resample lacks a class.
_NEEDS_BOTH_CLASSES = {"roc_auc"}

#: Binary-form metrics that do not depend on which class is positive, and
#: that scikit-learn also defines for more than 2 classes (issue 17, item 14)
_SYMMETRIC = {"balanced_accuracy", "matthews_corrcoef"}


def _multiclass_variant(spec, y_true, y_pred):
    """The multiclass form of balanced accuracy / MCC (loop kind), else ``spec``."""
    if spec.name not in _SYMMETRIC or spec.kind != "sums":
        return spec
    labels = np.unique(
        np.r_[np.unique(np.asarray(y_true)), np.unique(np.asarray(y_pred))]
    )
    if labels.size <= 2:
        return spec
    from sklearn import metrics

    func = {
        "balanced_accuracy": metrics.balanced_accuracy_score,
        "matthews_corrcoef": metrics.matthews_corrcoef,
    }[spec.name]
    return _MetricSpec(
        spec.name,
        "loop",
        "labels",
        func=func,
        aliases=spec.aliases,
        range=spec.range,
        description="multiclass",
    )


def _reads_scores(spec):
    """Whether ``spec`` reads scores or probabilities (``y_score``), not labels."""
    return spec.target in ("scores", "proba") or tuple(spec.response) != ("predict",)


def _score_kind(spec):
    """What a score metric reads, for its messages: "auc", "log_loss", "brier", "scores"."""
    if spec.kind == "auc" or spec.name in ("roc_auc", "roc_auc_score"):
        return "auc"
    if spec.name in ("log_loss", "neg_log_loss"):
        return "log_loss"
    if spec.name in ("brier_score_loss", "neg_brier_score"):
        return "brier"
    return "scores"


#: what each kind of score metric needs, and what it becomes on 0/1 values
_ON_LABELS = {
    "auc": (
        (
            "ROC AUC needs scores, e.g. `model.predict_proba(X)[:, 1]` or "
            "`model.decision_function(X)`"
        ),
        "on hard labels ROC AUC equals the balanced accuracy",
    ),
    "log_loss": (
        (
            "log loss needs predicted probabilities, e.g. `model.predict_proba(X)` "
            "(or its column of the positive class)"
        ),
        (
            "on hard labels every wrong row costs -log(2.2e-16) = 36, so the log loss "
            "is 36 times the error rate"
        ),
    ),
    "brier": (
        (
            "the Brier score needs predicted probabilities of the positive class, "
            "e.g. `model.predict_proba(X)[:, 1]`"
        ),
        "on hard labels the Brier score equals the error rate",
    ),
    "scores": (
        (
            "it needs scores or probabilities, e.g. `model.predict_proba(X)[:, 1]` "
            "or `model.decision_function(X)`"
        ),
        "on hard labels it measures the labels, not a ranking or a probability",
    ),
}


def _check_not_hard_labels(spec, y_true, y_pred, name):
    """Refuse predicted labels where a score metric needs scores (issue 17, item 4).

    Labels look like: every value one of ``y_true``'s labels, in an array of
    the labels' kind. Float 0/1 values against integer labels (issue 29,
    item 9) may be a fully grown tree's probabilities, which are exactly 0
    or 1, or float labels: they warn instead. Each metric family has its
    own message (issue 29, item 16).
    """
    if y_pred.size == 0:
        return
    kind = _score_kind(spec)
    need, becomes = _ON_LABELS[kind]
    labels = np.unique(y_true)
    values = np.unique(y_pred)
    if y_pred.dtype.kind == "f" and labels.dtype.kind in "iub":
        # float scores against integer labels: refused never, warned on 0/1
        if values.size <= 2 and np.isin(values, (0.0, 1.0)).all():
            warnings.warn(
                f"`{name}` holds only {' and '.join(f'{v:g}' for v in values)}: "
                f"these look like predicted labels; {need}; {becomes}. (If they "
                "are a model's probabilities that are all exactly 0 or 1, e.g. a "
                "fully grown decision tree's, the value is right.)",
                UserWarning,
                stacklevel=_external_stacklevel(),
            )
        return
    if y_pred.ndim != 1:
        return
    if y_pred.dtype.kind in "fiub" and labels.dtype.kind not in "fiub":
        return  # numeric scores against string labels
    try:
        is_label = np.isin(values, labels).all()
    except TypeError:  # pragma: no cover - incomparable types
        return
    if not is_label or values.size > max(labels.size, 2):
        return
    reads = "probabilities" if kind in ("log_loss", "brier") else "scores"
    raise ValueError(
        f"`metric={spec.name!r}` reads {reads}, but `{name}` holds predicted labels "
        f"(only the values {values[:5].tolist()} of y_true's labels): {need}; "
        f"{becomes}."
    )


def _call_parts(parts):
    """``(metric, sign, response methods)`` from ``_scorer_parts(scorer)``.

    ``metric(y_true, y_pred)`` applies the scorer's sign and keyword
    arguments, so its values are on the scorer's scale.
    """
    score_func, sign, kwargs, response = parts

    def call(y_true, y_pred, **extra):  # extra: sample_weight
        return sign * score_func(y_true, y_pred, **kwargs, **extra)

    return call, sign, response


def _sklearn_metric(name):
    """A scikit-learn scorer or metric function for ``name`` (loop kind), or None."""
    from sklearn import metrics

    if name in metrics.get_scorer_names():
        parts = _scorer_parts(metrics.get_scorer(name))
        if parts is not None:
            func, sign, response = _call_parts(parts)
            target = "any" if response == ("predict",) else "scores"
            if "multi_class" in parts[2]:
                # roc_auc_ovr/ovo(_weighted): scikit-learn handles the
                # classes of the (n, n_classes) probabilities itself
                target = "any"
            return _MetricSpec(
                name, "loop", target, func=func, response=response, sign=sign
            )
    func = getattr(metrics, name, None)
    if callable(func) and name.endswith(
        ("_score", "_error", "_loss", "_coef", "_corrcoef")
    ):
        return _MetricSpec(name, "loop", "any", func=func)
    return None


#: Suffixes of scikit-learn scorer names that average a table metric over
#: classes or samples (same range as the metric): longest first.
_AVERAGING_SUFFIXES = (
    "_ovr_weighted",
    "_ovo_weighted",
    "_weighted",
    "_samples",
    "_macro",
    "_micro",
    "_ovr",
    "_ovo",
)
#: Bounded scikit-learn scorers that are not in the metric table.
_SCORER_RANGES = {"average_precision": (0.0, 1.0), "top_k_accuracy": (0.0, 1.0)}


def _metric_range(metric):
    """``(low, high)`` of a metric or scorer name's values when both are finite.

    From the metric table (``_MetricSpec.range``), for its names and aliases
    and for scikit-learn's averaged scorer names (``"f1_macro"``,
    ``"roc_auc_ovr_weighted"`` ...); None for an unbounded metric (errors,
    R^2, log loss), an unknown name or a callable.
    """
    if not isinstance(metric, str):
        return None
    key = metric.lower()
    if key in _SCORER_RANGES:
        return _SCORER_RANGES[key]
    spec = _SPECS.get(key)
    if spec is None:
        base = next(
            (key[: -len(x)] for x in _AVERAGING_SUFFIXES if key.endswith(x)), None
        )
        spec = _SPECS.get(base)
    if spec is None:
        return None
    low, high = spec.range
    return (low, high) if np.isfinite(low) and np.isfinite(high) else None


def _check_rope_for(rope, metric):
    """``rope`` checked against ``metric``'s range (the one rope check, issue 29).

    ``rope=1`` on accuracy is the whole range [0, 1] and is refused, the way
    ``confidence=95`` is; see :func:`skperf.stats._validation._check_rope`.
    """
    return _check_rope(rope, metric=metric, metric_range=_metric_range(metric))


def _unknown_scorer_message(scoring, name="scoring"):
    """A short message for a string that is not a scikit-learn scorer name.

    Names the close matches (``"neg_" + scoring`` first: scikit-learn
    negates losses, so ``"log_loss"`` is ``"neg_log_loss"``), never the
    whole list of 50+ names (issue 29, item 16).
    """
    import difflib

    from sklearn.metrics import get_scorer_names

    names = get_scorer_names()
    guesses = [f"neg_{scoring}"] if f"neg_{scoring}" in names else []
    key = scoring.lower() if isinstance(scoring, str) else str(scoring)
    guesses += [
        g
        for g in difflib.get_close_matches(key, names, n=3, cutoff=0.6)
        if g not in guesses
    ]
    hint = ""
    if guesses:
        hint = " Did you mean " + " or ".join(repr(g) for g in guesses[:3]) + "?"
    return (
        f"`{name}`={scoring!r} is not a scikit-learn scorer name.{hint} "
        "(Scorers are greater-is-better, so a loss is named 'neg_<loss>'; every "
        "name: sklearn.metrics.get_scorer_names().)"
    )


def _check_scorer_names(scoring, name="scoring"):
    """Check scikit-learn scorer names; a short error naming close matches.

    The one check of scorer names in skperf, before any fit: where
    scikit-learn lists its 50+ names, this names the close matches
    (``"log_loss"``: did you mean ``"neg_log_loss"``?).

    Parameters
    ----------
    scoring : str, list, tuple, dict, callable or None
        One name, a list / tuple of names or a dict of names (callables and
        None pass).
    name : str, default="scoring"
        The parameter (or option) name used in the message.

    Returns
    -------
    scoring
        Unchanged.

    Raises
    ------
    ValueError
        For a string that is not a scorer name.

    Examples
    --------
    >>> from skperf.metrics._registry import _check_scorer_names
    >>> try:
    ...     _check_scorer_names("log_loss")
    ... except ValueError as exc:
    ...     print(str(exc)[:70])
    `scoring`='log_loss' is not a scikit-learn scorer name. Did you mean '
    """
    from sklearn.metrics import get_scorer_names

    if isinstance(scoring, str):
        items = [scoring]
    elif isinstance(scoring, list | tuple):
        items = list(scoring)
    elif isinstance(scoring, dict):
        items = list(scoring.values())
    else:
        items = []
    names = set(get_scorer_names())
    for s in items:
        if isinstance(s, str) and s not in names:
            raise ValueError(_unknown_scorer_message(s, name))
    return scoring


def _check_scoring(estimator, scoring=None, **kwargs):
    """:func:`sklearn.metrics.check_scoring` after :func:`_check_scorer_names`."""
    from sklearn.metrics import check_scoring

    _check_scorer_names(scoring)
    return check_scoring(estimator, scoring=scoring, **kwargs)


def _resolve(metric):
    """A :class:`_MetricSpec` for a name or a callable; clear error otherwise."""
    if callable(metric) and not isinstance(metric, str):
        name = getattr(metric, "__name__", type(metric).__name__)
        parts = _scorer_parts(metric)
        if parts is not None:  # a scikit-learn scorer object
            func, sign, response = _call_parts(parts)
            return _MetricSpec(
                getattr(parts[0], "__name__", name),
                "loop",
                "any",
                func=func,
                response=response,
                sign=sign,
            )
        return _MetricSpec(name, "loop", "any", func=metric)
    if not isinstance(metric, str):
        raise TypeError(
            "`metric` must be a metric name (str) or a callable(y_true, y_pred); "
            f"got {metric!r}."
        )
    key = metric.lower()
    if key in _SPECS:
        return _SPECS[key]
    spec = _sklearn_metric(metric)
    if spec is None:
        raise ValueError(
            f"`metric` {metric!r} is not known. Use one of {sorted({s.name for s in _SPECS.values()})}, "
            "a scikit-learn metric or scorer name (sklearn.metrics.get_scorer_names()), "
            "or a callable(y_true, y_pred)."
        )
    return spec


def _is_squared_error(metric):
    """Whether ``metric`` (a metric or scorer name; ``neg_`` allowed) is a mean
    of squared errors (MSE, RMSE): unbounded, right-skewed per-row losses.

    Examples
    --------
    >>> from skperf.metrics._registry import _is_squared_error
    >>> [_is_squared_error(m) for m in ("neg_root_mean_squared_error", "mse", "r2")]
    [True, True, False]
    """
    if not isinstance(metric, str):
        return False
    spec = _SPECS.get(metric.lower().removeprefix("neg_"))
    return spec is not None and spec.features is _sq_err


def _is_root_mean(metric):
    """Whether ``metric`` (a metric or scorer name; ``neg_`` allowed) is the
    square root of a mean of per-row losses (RMSE): its fold scores squared
    are the fold means (MSE), which an interval averages without Jensen's
    bias.

    Examples
    --------
    >>> from skperf.metrics._registry import _is_root_mean
    >>> [_is_root_mean(m) for m in ("neg_root_mean_squared_error", "mse", None)]
    [True, False, False]
    """
    if not isinstance(metric, str):
        return False
    spec = _SPECS.get(metric.lower().removeprefix("neg_"))
    return spec is not None and spec.post is np.sqrt


def _is_proportion(spec):
    return spec.proportion is not None


# ---- input checks ---------------------------------------------------------
def _check_lengths(y_true, *preds, names=("y_pred",)):
    n = len(y_true)
    for p, name in zip(preds, names, strict=True):
        if len(p) != n:
            raise ValueError(
                f"`y_true` and `{name}` must have the same length; got {n} and {len(p)}."
            )
    if n == 0:
        raise ValueError("`y_true` is empty; an interval needs at least one row.")


def _pos_label(spec, y_true, y_pred, pos_label):
    """The positive label of a binary metric; errors for non-binary labels."""
    labels = np.unique(y_true)
    if spec.target == "binary":
        labels = np.unique(np.concatenate([labels, np.unique(y_pred)]))
    if labels.size > 2:
        raise ValueError(
            f"`metric={spec.name!r}` is a binary metric but the labels are not "
            f"binary: got {labels.size} labels {labels[:10].tolist()}. Use a "
            "callable or a multiclass scorer name (e.g. "
            f"{'roc_auc_ovr' if spec.kind == 'auc' else 'f1_macro'!r})."
        )
    if pos_label is not None:
        present = bool(
            np.isin(np.asarray([pos_label], dtype=object), labels.astype(object)).any()
        )
        # a binary metric may see only negatives (e.g. y_true and y_pred all
        # 0 with pos_label=1); a label of another type, or a third label
        # next to two present ones, is a mistake (issue 17, item 14)
        wrong_type = labels.size > 0 and (
            isinstance(pos_label, str) != (labels.dtype.kind in "USO")
        )
        if not present and (spec.target != "binary" or labels.size == 2 or wrong_type):
            raise ValueError(
                f"`pos_label={pos_label!r}` is not one of the labels "
                f"{labels.tolist()}; pass one of them (e.g. "
                f"pos_label={labels.tolist()[-1]!r})."
            )
        return pos_label
    if spec.name in _SYMMETRIC:
        return labels[-1]  # either class gives the same value
    if set(labels.tolist()) <= {0, 1} or set(labels.tolist()) <= {-1, 1}:
        return 1
    raise ValueError(
        f"Cannot tell the positive class among labels {labels.tolist()} for "
        f"`metric={spec.name!r}`; pass `pos_label=` (e.g. pos_label={labels.tolist()[-1]!r})."
    )


def _as_float(arr, name, spec):
    try:
        return np.asarray(arr, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"`{name}` must be numeric for `metric={spec.name!r}`; got dtype {arr.dtype}."
        ) from None


def _check_finite(arr, name):
    """ValueError naming ``name`` when ``arr`` holds NaN, None or inf."""
    if arr.dtype.kind in "fc":
        bad = ~np.isfinite(arr)
    elif arr.dtype.kind == "O":
        bad = np.array(
            [
                v is None or (isinstance(v, numbers.Number) and not np.isfinite(v))
                for v in arr.ravel()
            ],
            dtype=bool,
        )
    else:
        return
    if bad.any():
        where = np.flatnonzero(bad.ravel())
        raise ValueError(
            f"`{name}` must be finite; found {where.size} NaN, None or infinite "
            f"value(s) (first at flat position {int(where[0])}). Remove or impute "
            "those rows: a missing prediction is neither right nor wrong."
        )


def _check_labels(spec, y_pred, name="y_pred"):
    """ValueError when a label metric receives continuous predictions."""
    from sklearn.utils.multiclass import type_of_target

    kind = type_of_target(y_pred, input_name=name)
    if kind in ("continuous", "continuous-multioutput", "multiclass-multioutput"):
        sample = np.ravel(y_pred)[:3].tolist()
        if name == "y_true":
            raise ValueError(
                f"`metric={spec.name!r}` needs class labels in `y_true`, but it "
                f"holds {kind.replace('-', ' ')} values (e.g. {sample}). Use a "
                "regression metric (e.g. 'mae', 'mse', 'r2') for continuous targets."
            )
        raise ValueError(
            f"`metric={spec.name!r}` compares class labels, but `{name}` holds "
            f"{kind.replace('-', ' ')} values (e.g. {sample}), such as probabilities "
            "or decision scores. Pass predicted labels (e.g. model.predict(X)) as "
            f"`{name}`; scores go to `y_score=` for score metrics such as "
            "'roc_auc', 'log_loss' or 'brier_score_loss'."
        )


def _prepare_arrays(spec, y_true, y_pred, pos_label, pred_name="y_pred"):
    """Validated arrays and the positive label for ``spec``."""
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_true.ndim != 1:
        raise ValueError(f"`y_true` must be 1-D; got shape {y_true.shape}.")
    _check_finite(y_true, "y_true")
    _check_finite(y_pred, pred_name)
    if spec.target in ("labels", "binary", "scores", "proba"):
        _check_labels(spec, y_true, "y_true")
    if spec.target in ("labels", "binary"):
        _check_labels(spec, y_pred, pred_name)
    if _reads_scores(spec):
        _check_not_hard_labels(spec, y_true, y_pred, pred_name)
    pos = None
    if spec.target in ("binary", "scores", "proba"):
        if spec.target == "proba" and y_pred.ndim == 2 and np.unique(y_true).size > 2:
            pos = None
        else:
            pos = _pos_label(spec, y_true, y_pred, pos_label)
    if spec.target in ("scores", "proba", "regression"):
        y_pred = _as_float(y_pred, pred_name, spec)
        if spec.target == "scores" and y_pred.ndim == 2 and y_pred.shape[1] == 2:
            y_pred = y_pred[:, 1]
        if spec.target != "proba" and y_pred.ndim != 1:
            raise ValueError(
                f"`{pred_name}` must be 1-D for `metric={spec.name!r}`; got shape {y_pred.shape}."
            )
    if spec.target == "regression":
        y_true = _as_float(y_true, "y_true", spec)
    if spec.target == "proba":
        lo, hi = float(y_pred.min()), float(y_pred.max())
        if lo < 0 or hi > 1:
            raise ValueError(
                f"`{pred_name}` must hold probabilities in [0, 1] for `metric={spec.name!r}`; "
                f"got values in [{lo:g}, {hi:g}]."
            )
        if y_pred.ndim == 2 and y_pred.shape[1] != np.unique(y_true).size:
            raise ValueError(
                f"`{pred_name}` has {y_pred.shape[1]} probability columns but `y_true` "
                f"has {np.unique(y_true).size} classes."
            )
        if _score_kind(spec) == "brier" and y_pred.ndim == 2:
            # model.predict_proba(X) of a binary problem (issue 29, item 14):
            # the column of the positive class, in the order of np.unique(y_true)
            if y_pred.shape[1] != 2:
                raise ValueError(
                    f"`metric={spec.name!r}` is the binary Brier score; `{pred_name}` "
                    f"has {y_pred.shape[1]} probability columns. Pass the "
                    "probabilities of the positive class, shape (n_samples,), or the "
                    "(n_samples, 2) array of a binary problem."
                )
            classes = np.unique(y_true)
            y_pred = y_pred[:, int(np.flatnonzero(classes == pos)[0])]
    if spec.target == "scores":
        n_pos = int(np.sum(y_true == pos))
        if n_pos in (0, y_true.size):
            raise ValueError(
                f"`metric={spec.name!r}` needs both classes in `y_true`; got only "
                f"one class ({np.unique(y_true).tolist()}) in {y_true.size} rows."
            )
    return y_true, y_pred, pos


@dataclass
class _Prepared:
    """A metric bound to data, in one of the vectorized forms."""

    spec: _MetricSpec
    y_true: np.ndarray
    y_pred: np.ndarray
    pos: object
    F: np.ndarray | None = None
    positive: np.ndarray | None = None  # auc kind: bool labels
    # sample weights: the sums kind carries them as the last column of F
    # (weighted features, then the weight), which replaces the row count
    weights: np.ndarray | None = None

    def value_from_sums(self, S, T):
        if self.weights is not None:
            return self.spec.stat(S[:, :-1], S[:, -1])
        return self.spec.stat(S, T)

    def _func(self, idx=None):
        if self.weights is None:
            return self.spec.func
        w = self.weights if idx is None else self.weights[idx]
        return functools.partial(self.spec.func, sample_weight=w)

    def loop_value(self, idx):
        return _call_loop(self._func(idx), self.y_true[idx], self.y_pred[idx])

    def estimate(self):
        """Metric on the original rows (NaN if undefined)."""
        n = self.y_true.size
        if self.spec.kind == "sums":
            S = self.F.sum(axis=0)[None]
            return float(self.value_from_sums(S, np.array([float(n)]))[0])
        if self.spec.kind == "auc":
            from ._resample import _weighted_auc

            return float(_weighted_auc(self.positive, self.y_pred, np.ones((1, n)))[0])
        return _call_loop(self._func(), self.y_true, self.y_pred, strict=self.spec.name)


def _call_loop(func, y_true, y_pred, strict=False):
    """Call a metric; ValueError or an undefined-metric warning gives NaN.

    With ``strict`` (the metric's name; on the original rows) a ValueError is
    re-raised: it says the input does not fit the metric (e.g. continuous
    predictions for a label metric), not that a resample lacks a class.
    """
    from sklearn.exceptions import UndefinedMetricWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        try:
            value = func(y_true, y_pred)
        except ValueError as exc:
            if strict:
                raise ValueError(
                    f"`metric={strict!r}` rejects the test-set predictions: {exc}"
                ) from exc
            return np.nan
        except (ZeroDivisionError, UndefinedMetricWarning):
            return np.nan
    if (
        not isinstance(value, numbers.Real | np.floating | np.integer)
        and np.ndim(value) != 0
    ):
        raise TypeError(
            f"The metric must return a single number; {getattr(func, '__name__', func)!r} "
            f"returned {value!r}."
        )
    return float(value)


def _check_sample_weight(sample_weight, n):
    """Validated non-negative finite weights (``None`` stays ``None``)."""
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight, dtype=float)
    if w.ndim != 1 or w.size != n:
        raise ValueError(
            f"`sample_weight` must be 1-D with one weight per row ({n}); got shape "
            f"{w.shape}."
        )
    if not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError(
            "`sample_weight` must hold finite non-negative weights with a positive sum."
        )
    return w


def _prepare(spec, y_true, y_pred, pos_label=None, pred_name="y_pred", weights=None):
    """Bind ``spec`` to the data (validated); ``weights``: sample weights."""
    spec = _multiclass_variant(spec, y_true, y_pred)
    y_true, y_pred, pos = _prepare_arrays(spec, y_true, y_pred, pos_label, pred_name)
    weights = _check_sample_weight(weights, y_true.size)
    if weights is not None and spec.kind == "auc":
        from sklearn.metrics import roc_auc_score

        def weighted_auc(yt, yp, sample_weight, _pos=pos):
            return roc_auc_score(yt == _pos, yp, sample_weight=sample_weight)

        spec = dataclasses.replace(spec, kind="loop", func=weighted_auc)
    if weights is not None and spec.kind == "loop":
        import inspect

        try:
            params = inspect.signature(spec.func).parameters
        except (TypeError, ValueError):
            params = {}
        if "sample_weight" not in params and not any(
            p.kind == p.VAR_KEYWORD for p in params.values()
        ):
            raise TypeError(
                f"`sample_weight` was given but `metric={spec.name!r}` takes no "
                "`sample_weight` argument; use a metric that does."
            )
    prep = _Prepared(spec, y_true, y_pred, pos, weights=weights)
    if spec.kind == "sums":
        F = np.asarray(spec.features(y_true, y_pred, pos), dtype=float)
        if weights is not None:
            F = np.column_stack([F * weights[:, None], weights])
        prep.F = F
    elif spec.kind == "auc":
        prep.positive = y_true == pos
    return prep


def _undefined_error(spec):
    return ValueError(
        f"`metric={spec.name!r}` is undefined on the test set (e.g. a zero "
        "denominator or a missing class); no interval can be computed."
    )


# ---------------------------------------------------------------------------
# the range of scorer names (one table: the reports, PerformanceDistribution
# and the new-data intervals ask it). A confidence interval for a metric that
# cannot leave ``[low, high]`` (accuracy in ``[0, 1]``, R^2 at most 1,
# negated losses at most 0) can be clipped to that range without losing
# coverage: the true value is inside it anyway.
_UNIT = (0.0, 1.0)
_AT_MOST_ONE = (-math.inf, 1.0)

#: exact scorer / metric names and their range
_BOUNDS = {
    "accuracy": _UNIT,
    "balanced_accuracy": _UNIT,
    "top_k_accuracy": _UNIT,
    "average_precision": _UNIT,
    "rand_score": _UNIT,
    "normalized_mutual_info_score": _UNIT,
    "homogeneity_score": _UNIT,
    "completeness_score": _UNIT,
    "v_measure_score": _UNIT,
    "fowlkes_mallows_score": _UNIT,
    "r2": _AT_MOST_ONE,
    "explained_variance": _AT_MOST_ONE,
    "adjusted_mutual_info_score": _AT_MOST_ONE,
    "adjusted_rand_score": (-0.5, 1.0),
    "matthews_corrcoef": (-1.0, 1.0),
}

#: scorer families by prefix (f1_macro, roc_auc_ovr, neg_log_loss, d2_...)
_PREFIXES = (
    ("roc_auc", _UNIT),
    ("f1", _UNIT),
    ("precision", _UNIT),
    ("recall", _UNIT),
    ("jaccard", _UNIT),
    ("d2_", _AT_MOST_ONE),
    ("neg_", (-math.inf, 0.0)),  # negated non-negative losses
)


def _metric_bounds(metric):
    """``(low, high)`` range of a scorer name, or ``None`` when unknown."""
    if not isinstance(metric, str):
        return None
    if metric in _BOUNDS:
        return _BOUNDS[metric]
    for prefix, bounds in _PREFIXES:
        if metric.startswith(prefix):
            return bounds
    return None


def _bound_text(metric, bounds):
    """``"accuracy lies in [0, 1]"``, ``"r2 is at most 1"``."""
    low, high = bounds
    if math.isinf(low):
        return f"{metric} is at most {high:g}"
    return f"{metric} lies in [{low:g}, {high:g}]"
