"""Efron's .632 and Efron & Tibshirani's .632+ bootstrap estimators.

One score per out-of-bootstrap split (Raschka, ch. 25; Efron 1983; Efron &
Tibshirani 1997), returned as a :class:`~skperf.PerformanceDistribution`.
"""

from __future__ import annotations

import inspect
import numbers

import numpy as np
from sklearn import metrics as _m
from sklearn.base import clone
from sklearn.utils import check_random_state
from sklearn.utils.parallel import delayed
from sklearn.utils.validation import indexable

from .._distribution import PerformanceDistribution
from ..metrics._registry import _check_scoring as check_scoring
from ..utils._sklearn_compat import (
    _safe_indexing,
    _scorer_parts,
    _scorer_with_score_func,
)
from . import _parallel
from ._split import GroupOutOfBootstrap, OutOfBootstrap

__all__ = ["bootstrap_632_score"]

_METHODS = (".632", ".632+", "oob")
# Efron (1983) and Efron & Tibshirani (1997) use the rounded constants
# .632 / .368; we keep them so that results match the published formulas.
_W632, _W368 = 0.632, 0.368
# Number of random pairings averaged when no exact no-information value is
# known for the scorer (see ``_no_information``).
_N_PERMUTATIONS = 20
# Largest number of distinct target values for which the no-information value
# is computed on the (distinct y) x (predictions) weighted pairs, O(n * K).
_MAX_PAIR_CLASSES = 64


def _seed_root(random_state):
    """``SeedSequence`` from an int, ``None`` or a RandomState instance."""
    if random_state is None or isinstance(random_state, numbers.Integral):
        return np.random.SeedSequence(random_state)
    rs = check_random_state(random_state)
    return np.random.SeedSequence(int(rs.randint(np.iinfo(np.uint32).max)))


def _capture_response(scorer, estimator, X, y):
    """The prediction ``scorer`` passes to its metric, or ``None``.

    Works for scikit-learn's ``_Scorer`` objects (``check_scoring`` on a
    string or ``make_scorer``): a copy with a recording metric is called, so
    the response (labels, probabilities of ``pos_label``, decision values)
    is exactly what the metric would receive.
    """
    if _scorer_parts(scorer) is None:
        return None
    record = {}

    def _record(y_true, y_pred, **kwargs):
        record["y_pred"] = y_pred
        return 0.0

    # a copy whose metric records its input (the scorer's own dispatch picks
    # the response method)
    _scorer_with_score_func(scorer, _record)(estimator, X, y)
    return record.get("y_pred")


def _pairs_mse(y, p):
    """Mean over all (i, j) of (y_i - p_j)^2 per column, in O(n)."""
    return (y**2).mean(0) - 2 * y.mean(0) * p.mean(0) + (p**2).mean(0)


def _pairs_mae(y, p):
    """Mean over all (i, j) of |y_i - p_j| per column, in O(n log n)."""
    n = y.shape[0]
    out = np.empty(y.shape[1])
    for c in range(y.shape[1]):  # loop over outputs, not rows
        s = np.sort(p[:, c])
        csum = np.r_[0.0, np.cumsum(s)]
        k = np.searchsorted(s, y[:, c], side="left")  # number of p_j < y_i
        below = y[:, c] * k - csum[k]
        above = (csum[-1] - csum[k]) - y[:, c] * (n - k)
        out[c] = (below + above).sum() / n**2
    return out


def _no_information(score_func, sign, kwargs, y, y_pred):
    """Exact no-information score on the scorer scale, or ``None``.

    The no-information value is the metric when targets and predictions are
    independent: the metric on all n^2 pairs ``(y_i, y_pred_j)`` (Efron &
    Tibshirani 1997, Sec. 3), computed without forming the pairs.
    """
    if score_func is _m.roc_auc_score:
        # independent scores rank positives above negatives half the time
        return sign * 0.5
    y = np.asarray(y)
    y_pred = np.asarray(y_pred)
    n = y.shape[0]
    if y.ndim == 1 and y_pred.shape[0] == n:
        classes, y_counts = np.unique(y, return_counts=True)
        params = inspect.signature(score_func).parameters
        if (
            classes.size <= _MAX_PAIR_CLASSES
            and "sample_weight" in params
            and "sample_weight" not in kwargs
        ):
            # The n^2 pairs collapse onto (distinct y) x (distinct prediction)
            # with weights count(y) * count(prediction): O(n K) and exact for
            # any metric of the weighted pairs (accuracy, F1, log loss,
            # Brier ...).
            if y_pred.ndim == 1:
                preds, p_counts = np.unique(y_pred, return_counts=True)
            else:
                preds, p_counts = y_pred, np.ones(n, dtype=np.intp)
            k, m = classes.size, preds.shape[0]
            y_rep = np.repeat(classes, m)
            p_rep = np.tile(preds, (k,) + (1,) * (preds.ndim - 1))
            w = np.repeat(y_counts, m) * np.tile(p_counts, k)
            value = np.asarray(score_func(y_rep, p_rep, sample_weight=w, **kwargs))
            return sign * float(value) if value.ndim == 0 else None
    regression = {
        _m.mean_squared_error,
        _m.root_mean_squared_error,
        _m.r2_score,
        _m.mean_absolute_error,
    }
    if score_func not in regression or kwargs or y_pred.shape[0] != n:
        return None
    yc = y.reshape(n, -1).astype(float)
    pc = y_pred.reshape(n, -1).astype(float)
    if score_func is _m.mean_absolute_error:
        value = _pairs_mae(yc, pc)
    else:
        value = _pairs_mse(yc, pc)
        if score_func is _m.root_mean_squared_error:
            value = np.sqrt(value)
        elif score_func is _m.r2_score:
            var = yc.var(0)
            if np.any(var == 0):
                return None
            value = 1.0 - value / var
    return sign * float(value.mean())


def _permutation_no_information(scorer, estimator, X, y, y_pred, rng):
    """Monte-Carlo no-information score: mean over random pairings."""
    parts = _scorer_parts(scorer)
    values = []
    for _ in range(_N_PERMUTATIONS):  # loop over a fixed few pairings
        perm = rng.permutation(len(y))
        y_perm = _safe_indexing(y, perm)
        if y_pred is not None and parts is not None:
            score_func, sign, kwargs, _ = parts
            values.append(sign * score_func(y_perm, y_pred, **kwargs))
        else:
            values.append(scorer(estimator, X, y_perm))
    return float(np.mean(values))


def _632_from_scores(s_train, s_test, s_none=None):
    """.632 (``s_none is None``) or .632+ score from scorer-scale values.

    Errors are ``e = -s`` (any decreasing affine map gives the same result:
    the estimators are affine equivariant and R is a ratio of differences).
    Returns the score and the weight of the out-of-bag term.
    """
    err, err1 = -s_train, -s_test
    err632 = _W368 * err + _W632 * err1  # Efron (1983)
    if s_none is None:
        return -err632, _W632
    gamma = -s_none
    # Efron & Tibshirani (1997): R = (Err1 - err) / (gamma - err) (eq. 28);
    # eq. 31: Err1' = min(Err1, gamma) and R' = (Err1' - err) / (gamma - err)
    # if Err1 > err and gamma > err, else 0, so R' lies in [0, 1]; eq. 32:
    # Err632+ = Err632 + (Err1' - err) .368 .632 R' / (1 - .368 R'), where
    # Err632 (eq. 24) keeps the unclipped Err1. Hence when Err1 > gamma
    # (R' = 1) the estimate is .632 Err1 + .368 gamma. mlxtend's
    # bootstrap_point632_score uses the unclipped R in the weight form
    # (1 - w) err + w Err1, w = .632 / (1 - .368 R): equal whenever
    # 0 <= R <= 1, different (and possibly outside [err, Err1]) otherwise.
    if err1 > err and gamma > err:
        r = min((err1 - err) / (gamma - err), 1.0)
    else:
        r = 0.0
    err1_c = min(err1, gamma)
    w = _W632 / (1.0 - _W368 * r)  # in [0.632, 1]
    err_plus = err632 + (err1_c - err) * (_W368 * _W632 * r) / (1.0 - _W368 * r)
    return -err_plus, w


def _no_information_score(scorer, est, X, y, seed):
    """No-information score of the fitted ``est`` on all rows (scorer scale)."""
    y_pred = _capture_response(scorer, est, X, y)
    s_none = None
    if y_pred is not None:
        score_func, sign, kwargs, _ = _scorer_parts(scorer)
        s_none = _no_information(score_func, sign, kwargs, y, y_pred)
    if s_none is None:
        rng = np.random.default_rng([int(seed), 632])
        s_none = _permutation_no_information(scorer, est, X, y, y_pred, rng)
    return s_none


def _apparent_full(estimator, X, y, scorer, method, seed):
    """Apparent score and no-information score of the model fitted on all rows.

    Efron & Tibshirani (1997), Sec. 3: ``err`` is the resubstitution error
    of the rule fitted to the whole training set and ``gamma`` is estimated
    from that rule's predictions (eq. 27).
    """
    est = clone(estimator).fit(X, y)
    s_train = float(scorer(est, X, y))
    s_none = None
    if method == ".632+":
        s_none = _no_information_score(scorer, est, X, y, seed)
    return s_train, s_none


def _fit_and_632(estimator, X, y, scorer, seed, method, apparent=None, groups=None):
    """Fit on one out-of-bootstrap split and return (score, train, test, gamma, w).

    ``apparent``: ``None`` computes the apparent and no-information scores
    from the split's own model (``apparent="split"``), a pair ``(s_train,
    s_none)`` gives those of the model fitted on all rows.
    """
    cv = (OutOfBootstrap if groups is None else GroupOutOfBootstrap)(
        n_splits=1, random_state=int(seed)
    )
    train, test = next(cv.split(X, y, groups))
    est = clone(estimator)
    est.fit(_safe_indexing(X, train), _safe_indexing(y, train))
    s_test = float(scorer(est, _safe_indexing(X, test), _safe_indexing(y, test)))
    if method == "oob":
        return s_test, np.nan, s_test, np.nan, 1.0
    if apparent is not None:
        s_train, s_none = apparent
    else:
        s_train = float(scorer(est, _safe_indexing(X, train), _safe_indexing(y, train)))
        s_none = None
        if method == ".632+":
            s_none = _no_information_score(scorer, est, X, y, seed)
    if method == ".632":
        score, w = _632_from_scores(s_train, s_test)
        return score, s_train, s_test, np.nan, w
    score, w = _632_from_scores(s_train, s_test, s_none)
    return score, s_train, s_test, s_none, w


def _default_scoring(estimator):
    """The scorer name equal to ``estimator.score``, or ``None``.

    scikit-learn's classifiers score by accuracy and its regressors by R^2
    (``ClassifierMixin.score``, ``RegressorMixin.score``, or an override
    that calls them, e.g. ``KNeighborsClassifier.score``). When the (final
    step of the) estimator's ``score`` comes from scikit-learn, the named
    scorer gives the same numbers and its predictions can be captured, so
    the no-information value has a closed form instead of 20 random
    pairings that each call ``score`` (and predict) again. A ``score``
    defined elsewhere, or a search with its own ``scoring``, is kept.
    """
    from sklearn.base import is_classifier, is_regressor

    final = estimator
    while hasattr(final, "steps"):  # Pipeline.score is its final step's score
        final = final.steps[-1][1]
    score = getattr(type(final), "score", None)
    module = getattr(score, "__module__", None) or ""
    if not module.startswith("sklearn.") or hasattr(final, "scoring"):
        return None
    if is_classifier(estimator):
        return "accuracy"
    if is_regressor(estimator):
        return "r2"
    return None


def _scorer_name(scoring, scorer):
    if scoring is None:
        return "score"
    if isinstance(scoring, str):
        return scoring
    parts = _scorer_parts(scorer)
    if parts is not None:
        return getattr(parts[0], "__name__", None)
    if scoring is None:
        return "score"
    return getattr(scoring, "__name__", None)


def bootstrap_632_score(
    estimator,
    X,
    y,
    *,
    groups=None,
    scoring=None,
    n_splits=200,
    method=".632+",
    random_state=None,
    n_jobs=None,
    apparent="full",
):
    """Out-of-bootstrap, .632 or .632+ scores, one per bootstrap split.

    For each of ``n_splits`` out-of-bootstrap splits (training rows drawn
    with replacement, test rows out-of-bag), a clone of ``estimator`` is
    fitted on the training rows and scored on the out-of-bag rows:
    ``Err1``, the plain ``"oob"`` score. The ``.632`` and ``.632+``
    estimators combine it with the apparent (resubstitution) error ``err``
    and, for ``.632+``, the no-information value ``gamma`` (targets and
    predictions paired at random). As in Efron (1983) and Efron &
    Tibshirani (1997, Sec. 3), ``err`` and ``gamma`` come by default from
    the model fitted on **all** the data, fitted and scored once.

    Parameters
    ----------
    estimator : estimator object
        Implements ``fit``; cloned for every split.
    X : array-like of shape (n_samples, n_features)
        Data.
    y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Target.
    groups : array-like of shape (n_samples,) or None, default=None
        Group labels of dependent rows (e.g. several rows per patient). When
        given, every split draws whole groups with replacement and tests on
        the rows of the groups never drawn
        (:class:`~skperf.model_selection.GroupOutOfBootstrap`), so no group
        is on both sides; the .632 weights then refer to the share of
        distinct groups drawn (1 - 1/e for many groups).
    scoring : str, callable or None, default=None
        A scikit-learn scorer name or callable (as in ``cross_val_score``);
        ``None`` uses ``estimator.score``.
    n_splits : int, default=200
        Number of out-of-bootstrap splits.
    method : {".632+", ".632", "oob"}, default=".632+"
        Estimator applied to each split.
    random_state : int, RandomState instance or None, default=None
        Seeds the splits. Split ``i`` uses
        ``OutOfBootstrap(n_splits=1, random_state=seeds[i])`` where ``seeds``
        are drawn from ``numpy.random.SeedSequence(random_state)`` before
        any work is dispatched, so results do not depend on ``n_jobs``.
    n_jobs : int or None, default=None
        Number of jobs fitting splits in parallel (joblib).
    apparent : {"full", "split"}, default="full"
        Where the apparent error ``err`` and the no-information value
        ``gamma`` come from (ignored for ``method="oob"``). ``"full"``: the
        model fitted on all ``n`` rows, scored on them (Efron & Tibshirani
        1997, Sec. 3) -- the published estimator. ``"split"``: each split's
        own model, scored on its own (bootstrap) training rows, with
        ``gamma`` from its predictions on all rows (Raschka, ch. 25, and
        earlier skperf versions); use it to study how the combination varies
        with the training sample, e.g. for an estimator whose fit on all
        rows is not representative of its fits on bootstrap samples.

    Returns
    -------
    distribution : PerformanceDistribution
        One score per split, on the scorer's scale (``metric`` is the scorer
        name, ``greater_is_better`` is ``True`` as for every scikit-learn
        scorer, e.g. ``neg_log_loss`` is negative), with
        ``seeds={"split": seeds}``.

    Notes
    -----
    Scorers are "greater is better"; the estimators are defined on errors,
    so each score ``s`` is read as the error ``e = -s`` (for accuracy this
    equals the 0-1 error ``1 - accuracy`` up to a constant, which does not
    change any result: the formulas are affine equivariant). Per split, with
    ``err`` the apparent error, ``Err1`` the out-of-bag error and ``gamma``
    the no-information error:

    - ``.632`` (Efron 1983): ``0.368 err + 0.632 Err1``;
    - ``.632+`` (Efron & Tibshirani 1997, eqs. 28, 31 and 32): relative
      overfitting rate ``R' = (Err1' - err) / (gamma - err)`` with
      ``Err1' = min(Err1, gamma)`` when ``Err1 > err`` and ``gamma > err``,
      else ``R' = 0`` (so ``R'`` lies in [0, 1]); estimate ``.632 +
      (Err1' - err) 0.368 0.632 R' / (1 - 0.368 R')``. When ``Err1 <=
      gamma`` this is ``(1 - w) err + w Err1`` with weight ``w = 0.632 /
      (1 - 0.368 R')`` in [0.632, 1]: ``w = 0.632`` (the .632 estimator)
      without overfitting, ``w = 1`` (the out-of-bag estimate) when
      overfitting reaches the no-information level. When ``Err1 > gamma``
      (``R' = 1``) it is ``0.632 Err1 + 0.368 gamma``, between the
      no-information and the out-of-bag error.

    mlxtend's ``bootstrap_point632_score`` gives the same value whenever
    ``0 <= R <= 1`` and ``apparent="split"``; it does not apply eq. 31 (its
    weight leaves [0.632, 1] when ``Err1 < err`` or ``Err1 > gamma``) and
    it computes the apparent error of the split's model on all ``n`` rows,
    out-of-bag rows included.

    The published estimators average ``Err1`` over splits before
    combining; here every split gets its own value (its own ``Err1``, with
    the shared ``err`` and ``gamma`` of the full-data model), so that the
    spread over splits can be studied. With ``method=".632"`` the mean of
    the scores equals the published estimator (it is linear in ``Err1``);
    with ``".632+"`` it is the mean of the per-split values.

    ``scoring=None`` uses ``estimator.score``; when that is the plain
    accuracy of a classifier or R^2 of a regressor (scikit-learn's mixins,
    also as the last step of a pipeline) the named scorer is used, which
    gives the same numbers with the closed-form no-information value.

    The no-information value ``gamma`` is the metric on all ``n^2`` pairs
    of targets and predictions of the model on the full data, computed
    without forming the pairs:

    - targets with at most 64 distinct values (classification) and metrics
      accepting ``sample_weight`` (accuracy, balanced accuracy, F1,
      precision, recall, log loss, Brier ...): the pairs collapse onto
      (class, prediction) pairs weighted by their counts, O(n K). For
      accuracy this is ``sum_k p_k q_k`` (observed and predicted class
      proportions);
    - ROC AUC: 0.5 exactly;
    - mean squared / absolute error, RMSE and R^2 (regression): closed
      forms in O(n) / O(n log n);
    - any other scorer: the mean score over 20 random pairings (random
      permutations of ``y``), seeded by the split.

    At least a few dozen samples are needed so that out-of-bag sets hold
    every class; tiny data raise from :class:`OutOfBootstrap`.

    References
    ----------
    Raschka, "Machine Learning Q and AI", ch. 25 (out-of-bag bootstrap,
    .632 and .632+). B. Efron, "Estimating the error rate of a prediction
    rule: improvement on cross-validation", JASA 78 (1983). B. Efron and R.
    Tibshirani, "Improvements on cross-validation: the .632+ bootstrap
    method", JASA 92 (1997). Bouthillier et al., MLSys 2021, App. B.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import bootstrap_632_score
    >>> X, y = load_iris(return_X_y=True)
    >>> tree = DecisionTreeClassifier(random_state=0)
    >>> for method in ["oob", ".632", ".632+"]:
    ...     d = bootstrap_632_score(tree, X, y, scoring="accuracy", n_splits=20,
    ...                             method=method, random_state=0)
    ...     print(method, d.metric, len(d), round(float(d.mean()), 3))
    oob accuracy 20 0.943
    .632 accuracy 20 0.964
    .632+ accuracy 20 0.963
    """
    if method not in _METHODS:
        raise ValueError(
            f"`method` must be one of {', '.join(map(repr, _METHODS))}; got {method!r}."
        )
    if (
        not isinstance(n_splits, numbers.Integral)
        or isinstance(n_splits, bool | np.bool_)
        or n_splits < 1
    ):
        raise ValueError(f"`n_splits` must be an int >= 1; got {n_splits!r}.")
    if apparent not in ("full", "split"):
        raise ValueError(f"`apparent` must be 'full' or 'split'; got {apparent!r}.")
    if y is None:
        raise ValueError("`y` is required: the .632 estimators are supervised.")
    X, y, groups = indexable(X, y, groups)
    if groups is not None:
        groups = np.asarray(groups)
        if groups.ndim != 1:
            raise ValueError(
                f"`groups` must be 1-D with one label per row; got shape {groups.shape}."
            )
        if np.unique(groups).size < 2:
            raise ValueError(
                "`groups` must hold at least 2 distinct groups for out-of-bootstrap "
                f"splits; got {np.unique(groups).size}."
            )
    effective = _default_scoring(estimator) if scoring is None else scoring
    scorer = check_scoring(estimator, scoring=effective)
    if not callable(scorer):  # pragma: no cover - check_scoring always returns one
        raise TypeError(f"`scoring` must give a single scorer; got {scoring!r}.")
    root = _seed_root(random_state)
    seeds = np.array(
        [c.generate_state(1)[0] for c in root.spawn(n_splits)], dtype=np.uint32
    )
    fixed = None
    if method != "oob" and apparent == "full":
        fixed = _apparent_full(estimator, X, y, scorer, method, root.entropy % 2**32)
    out = list(
        _parallel.run(
            (
                delayed(_fit_and_632)(
                    estimator, X, y, scorer, seed, method, fixed, groups
                )
                for seed in seeds
            ),
            n_jobs,
            ordered=True,
        )
    )
    scores = np.array([o[0] for o in out], dtype=float)
    return PerformanceDistribution(
        scores,
        metric=_scorer_name(scoring, scorer),
        greater_is_better=True,
        name=type(estimator).__name__,
        seeds={"split": seeds},
    )
