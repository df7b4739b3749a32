"""RepeatedEvaluator and repeated_cross_val_score.

Fits an estimator over seeded repeats of (split, init, search) and collects
the scores as a :class:`~skperf.PerformanceDistribution` (Bouthillier et al.,
Sec. 2-3 and App. C.1-C.2).

The work is organised as *build tasks -> run -> collect*: ``_Job`` holds
everything one evaluator needs (seeds, splits, configured estimators,
scorers), the tasks of any number of jobs run in ONE ``Parallel`` call
(``_run``), and ``_collect`` sets the fitted attributes. ``fit`` and
``_fit_evaluators`` (used by ``compare_models``) share this path.
"""

from __future__ import annotations

import hashlib
import os
import time
import warnings
from copy import deepcopy
from numbers import Integral, Real

import numpy as np
from sklearn import get_config
from sklearn.base import BaseEstimator, MetaEstimatorMixin
from sklearn.exceptions import FitFailedWarning, NotFittedError
from sklearn.metrics import check_scoring, get_scorer_names
from sklearn.utils import assert_all_finite, indexable
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.metaestimators import available_if
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted

from . import _cache, _predictions
from ._distribution import _scorer_distribution
from ._seeding import SOURCES, _hold, spawn_seeds
from ._split import (
    GroupOutOfBootstrap,
    OutOfBootstrap,
    StratifiedOutOfBootstrap,
)
from ._vary import (
    _apply,
    _best_params,
    _check_vary,
    _configure,
    _is_random_splitter,
    _no_variation,
    _plan,
    _seed_params,
    _seed_splitter,
    _shuffled_kfold,
)
from .exceptions import GroupsIgnoredWarning, NoVariationWarning
from .utils._naming import _estimator_name
from .utils._sklearn_compat import (
    HasMethods,
    ParamInterval,
    StrOptions,
    _check_method_params,
    _fit_context,
    _safe_split,
    _scorer_parts,
    get_tags,
)
from .utils._warnings import _external_stacklevel

__all__ = ["RepeatedEvaluator", "repeated_cross_val_score"]


def _estimator_has(attr):
    """Check ``estimator_`` when fitted, else ``estimator`` (as sklearn searches)."""

    def check(self):
        if hasattr(self, "estimator_"):
            getattr(self.estimator_, attr)
        else:
            getattr(self.estimator, attr)
        return True

    return check


def _check_refitted(self, what):
    """Raise NotFittedError saying why ``estimator_`` is missing."""
    if not hasattr(self, "estimator_") and hasattr(self, "results_"):
        raise NotFittedError(
            f"{type(self).__name__} was fitted with refit=False, so there is no "
            f"estimator_ for {what}; the scores are in distribution_ and "
            "results_. Set refit=True to fit estimator_ on all the data."
        )
    check_is_fitted(self, "estimator_")


class RepeatedEvaluator(MetaEstimatorMixin, BaseEstimator):
    """Evaluate an estimator over seeded repeats of split, init and search.

    Each repeat draws its own seeds from a :class:`numpy.random.SeedSequence`
    tree, splits the data, configures a clone of the estimator and fits and
    scores it on every fold; the scores form a
    :class:`~skperf.PerformanceDistribution`. All fits run in one joblib
    ``Parallel`` call.

    Parameters
    ----------
    estimator : estimator object
        The estimator (or pipeline, or hyperparameter search) to evaluate.
    scoring : str, callable, list, tuple, dict or None, default=None
        As in :func:`sklearn.model_selection.cross_validate`. ``None`` uses
        ``estimator.score`` (named ``"score"``); the first scorer is the
        primary one (``distribution_``).
    cv : int, cross-validation generator, iterable or None, default=None
        ``None``: one out-of-bootstrap split per repeat
        (``OutOfBootstrap(n_splits=1)``, or ``GroupOutOfBootstrap(n_splits=1)``
        drawing whole groups when ``groups`` are passed to :meth:`fit`), so
        the ``n_repeats`` scores are independent draws. An int: a shuffled
        ``StratifiedKFold`` (when ``y`` is binary or multiclass with at least
        that many members per class, whatever the estimator, so that every
        model evaluated on the same ``y`` gets the same folds) or ``KFold``
        with that many folds, seeded per repeat. A splitter with a ``random_state``
        that shuffles is re-seeded per repeat; one without gives the same
        splits in every repeat. An iterable of ``(train, test)`` pairs is
        used as is in every repeat.
    n_repeats : int, default=10
        Number of repeats.
    vary : "all" or subset of {"split", "init", "search"}, default="all"
        Sources of variation that get a fresh seed per repeat; the others
        are held at the seed of repeat 0. ``"split"``: the outer splitter;
        ``"init"``: every ``random_state`` parameter inside the estimator;
        ``"search"``: the sampler and inner ``cv`` of a hyperparameter
        search, which is re-run in every repeat (other ``*CV`` estimators,
        e.g. ``RidgeCV``, keep their ``cv`` as given). ``"all"`` is the same
        as naming the three (see Notes).
    random_state : int, RandomState instance, Generator or None, default=None
        Root of the seed tree. ``None`` draws fresh entropy (recorded in
        ``random_state_``). A ``RandomState`` or ``Generator`` gives 128 bits
        of root entropy drawn from it. Estimators only ever receive ints.
    n_jobs : int or None, default=None
        Number of jobs for the fits (``None`` means 1 unless in a
        :func:`joblib.parallel_config` context).
    refit : bool, default=True
        Refit the estimator on all the data as ``estimator_``, with the init
        and search seeds of repeat 0 (the held seeds).
    error_score : "raise" or float, default=np.nan
        Score recorded for a failed fit: one that raises, or whose scorer
        raises or returns a non-finite value (e.g. ROC AUC on a test set
        holding one class). ``"raise"`` re-raises. A number is kept in the
        distributions, as in :func:`~sklearn.model_selection.cross_val_score`;
        ``np.nan`` excludes the failed fits (with a ``FitFailedWarning``
        giving their count and the first error). When every fit fails, the
        error is raised, with the type of the fits' error when they all share
        it; ``results_`` is set in every case. An infinite number is
        rejected (a distribution holds finite scores).
    return_train_score : bool, default=False
        Also record ``train_<scorer>`` columns in ``results_``.
    progress : bool, default=False
        Show a tqdm progress bar that advances as fits finish.
    verbose : int, default=0
        Verbosity of the joblib ``Parallel`` call.
    memory : None, str, os.PathLike or joblib.Memory, default=None
        Cache of every fit's outcome (scores, times, error, predictions when
        kept), keyed by the estimator's parameters, the data, the scorers and
        the fit's seeds and split: an interrupted run, or one with a larger
        ``n_repeats``, fits only what is missing (see
        :ref:`expensive_runs`). A path becomes ``joblib.Memory(path)``. The
        refit of ``estimator_`` is not cached.
    return_predictions : bool, default=False
        Keep each fit's test-set predictions in ``predictions_``.

    Attributes
    ----------
    distribution_ : PerformanceDistribution
        Test scores of the primary scorer, one per successful fit.
    distributions_ : dict of str to PerformanceDistribution
        Test scores of every scorer.
    results_ : pandas.DataFrame
        One row per fit: ``repeat``, ``fold``, ``split_seed``, ``init_seed``,
        ``search_seed``, ``split_id`` (a 64-bit fingerprint of the fit's train
        and test indices, also in the distributions' ``seeds``, so that
        ``compare`` pairs only scores from identical splits), ``n_train``, ``n_test`` (split sizes, e.g. for
        ``mean_ci(method="corrected-t")``), ``fit_time``, ``score_time``,
        ``test_<scorer>``
        [, ``train_<scorer>``], ``error`` (``None`` or the exception text)
        [, ``best_params`` for a hyperparameter search] [, ``cached`` with
        ``memory``: True for a fit loaded from the cache].
    predictions_ : pandas.DataFrame
        With ``return_predictions=True``: one row per fit (aligned with
        ``results_``): ``repeat``, ``fold``, ``test_index``, ``y_pred``,
        ``y_score`` (``predict_proba``, else ``decision_function``, else
        None), ``y_decision`` (``decision_function`` when the estimator has
        both). See :meth:`score_distribution`.
    random_state_ : int
        Root entropy actually used; ``random_state=random_state_`` reproduces
        the evaluation.
    estimator_ : estimator
        The estimator refitted on all data (when ``refit=True``).
    scorer_ : callable or dict
        The scorer(s) used.
    n_features_in_ : int
        Number of features seen by ``estimator_``.
    feature_names_in_ : ndarray of str
        Names of the features seen by ``estimator_``, when it was fitted on
        a DataFrame with string column names.
    classes_ : ndarray
        Class labels of ``estimator_``.

    Warns
    -----
    NoVariationWarning
        When a source named in ``vary`` has no randomness (e.g. ``"init"``
        for ``LogisticRegression(solver="lbfgs")``). Under ``vary="all"``,
        sources that do not apply are silently held, and the warning is
        given only when nothing at all varies.
    sklearn.exceptions.FitFailedWarning
        When some fits fail under a numeric ``error_score``.
    skperf.exceptions.GroupsIgnoredWarning
        When ``groups`` are given but ``cv`` is a splitter known to ignore
        them (``OutOfBootstrap``, ``StratifiedOutOfBootstrap``, an int,
        ``KFold``, ``StratifiedKFold``, ``ShuffleSplit`` ...), or an iterable
        of splits that puts a group in both the training and the test set.

    See Also
    --------
    repeated_cross_val_score : The distribution only, like ``cross_val_score``.

    Notes
    -----
    Seeds: repeat ``i`` uses child ``i`` of ``SeedSequence(random_state)``
    and one grandchild per source; all are drawn before any work is
    dispatched, so results do not depend on ``n_jobs`` or the joblib backend,
    more repeats extend the same sequence, and two evaluations with the same
    ``random_state`` and ``n_repeats`` use the same splits and init seeds
    (they are paired, Bouthillier et al., App. C.2). Every seed parameter
    inside the estimator (``random_state``; ``seed`` or ``random_seed`` on an
    object without ``random_state``, as in other libraries) is overwritten by
    a derived int, also for held sources; a scikit-learn estimator that does
    not use its ``random_state`` with its settings (e.g.
    ``DummyClassifier(strategy="prior")``, ``LogisticRegression(solver="lbfgs")``)
    is left as given, which changes no score.

    ``vary="all"`` varies every source that has randomness in this
    estimator and ``cv``: it gives exactly the fits of naming the three
    sources, ``vary=["split", "init", "search"]``, and differs only in
    staying silent about sources with nothing to vary. An int (or ``None``)
    ``cv`` of a hyperparameter search (``GridSearchCV``,
    ``RandomizedSearchCV``, the halving searches) is always replaced by a
    shuffled (Stratified)KFold with the same number of folds, seeded by the
    search source, varied or held (a held source keeps the seed of repeat 0,
    like every other held source); a splitter object that shuffles is
    re-seeded by the search source, in any estimator. Every other ``cv`` is
    evaluated as given: an unshuffled splitter object (e.g. ``KFold(5)``;
    naming ``"search"`` then warns when the search has no sampler) and the
    int or ``None`` ``cv`` of the other ``*CV`` estimators (``RidgeCV`` and
    ``RidgeClassifierCV``, whose ``cv=None`` is an efficient leave-one-out,
    ``LassoCV``, ``LogisticRegressionCV``, ``CalibratedClassifierCV``,
    ``RFECV`` ...), which are not re-seeded.

    With several folds per repeat, the scores of one repeat are dependent;
    the distributions mark them with ``groups`` (the repeat ids), and their
    ``seeds`` hold a ``fold`` key as well, so that two such evaluations pair
    fold with fold. With the default ``cv=None`` every score comes from its
    own out-of-bootstrap split (Bouthillier et al., App. B).

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", MLSys 2021, Sec. 2-3, App. B, App. C.1-C.2.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf import RepeatedEvaluator
    >>> X, y = load_iris(return_X_y=True)
    >>> ev = RepeatedEvaluator(DecisionTreeClassifier(), n_repeats=5,
    ...                        random_state=0).fit(X, y)
    >>> ev.distribution_.n
    5
    >>> print(f"{ev.distribution_.mean():.2f}")
    0.92
    >>> ev.results_[["repeat", "fold", "test_score"]].shape
    (5, 3)
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit"])],
        "scoring": [
            StrOptions(set(get_scorer_names())),
            callable,
            list,
            tuple,
            dict,
            None,
        ],
        "cv": ["cv_object"],
        "n_repeats": [ParamInterval(Integral, 1, None, closed="left")],
        "vary": [StrOptions(set(SOURCES) | {"all"}), list, tuple, set, frozenset],
        # any non-negative int: random_state_ (128-bit entropy) must round-trip
        "random_state": [
            ParamInterval(Integral, 0, None, closed="left"),
            np.random.RandomState,
            np.random.Generator,
            None,
        ],
        "n_jobs": [Integral, None],
        "refit": ["boolean"],
        "error_score": [StrOptions({"raise"}), Real],
        "return_train_score": ["boolean"],
        "progress": ["boolean"],
        "verbose": ["verbose"],
        "memory": [None, str, os.PathLike, HasMethods(["cache"])],
        "return_predictions": ["boolean"],
    }

    def __init__(
        self,
        estimator,
        *,
        scoring=None,
        cv=None,
        n_repeats=10,
        vary="all",
        random_state=None,
        n_jobs=None,
        refit=True,
        error_score=np.nan,
        return_train_score=False,
        progress=False,
        verbose=0,
        memory=None,
        return_predictions=False,
    ):
        self.estimator = estimator
        self.scoring = scoring
        self.cv = cv
        self.n_repeats = n_repeats
        self.vary = vary
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.refit = refit
        self.error_score = error_score
        self.return_train_score = return_train_score
        self.progress = progress
        self.verbose = verbose
        self.memory = memory
        self.return_predictions = return_predictions

    @_fit_context(prefer_skip_nested_validation=False)  # estimator not validated yet
    def fit(self, X, y=None, *, groups=None, **params):
        """Fit and score the estimator over all repeats and folds.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,) or None, default=None
            Target.
        groups : array-like of shape (n_samples,) or None, default=None
            Group labels passed to the splitter. With ``cv=None``, whole
            groups are drawn (``GroupOutOfBootstrap(n_splits=1)``), so no
            group is in both the training and the test set.
        **params : dict
            Parameters passed to the estimator's ``fit`` (in every fit and
            in the refit); sample-aligned ones are indexed by the training
            rows. With metadata routing enabled
            (``sklearn.set_config(enable_metadata_routing=True)``), they are
            routed as :func:`~sklearn.model_selection.cross_validate` routes
            them: to the estimator as it requests them (``set_fit_request``)
            and to the scorers (``set_score_request``, e.g. a weighted
            score), indexed by each fit's training and test rows; metadata
            that no consumer has requested or refused raises
            ``UnsetMetadataPassedError`` before any fit.

        Returns
        -------
        self : RepeatedEvaluator
            Fitted evaluator.
        """
        _check_instance(self.estimator)
        score_params = None
        if get_config().get("enable_metadata_routing", False):
            # as cross_validate: to the estimator's fit and to the scorers
            # (raises UnsetMetadataPassedError where cross_validate does)
            routed = process_routing(self, "fit", **params)
            params = dict(routed.estimator.fit)
            score_params = dict(routed.scorer.score)
        _fit_evaluators(
            {"": self},
            X,
            y,
            groups=groups,
            n_jobs=self.n_jobs,
            progress=self.progress,
            _validate=False,
            _stacklevel=3,
            _score_params=score_params,
            **params,
        )
        return self

    # ------------------------------------------------------------------
    # delegation
    @available_if(_estimator_has("predict"))
    def predict(self, X):
        """Predict with ``estimator_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data.

        Returns
        -------
        y_pred : ndarray
            Predictions of ``estimator_``.
        """
        _check_refitted(self, "predict")
        return self.estimator_.predict(X)

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X):
        """Class probabilities from ``estimator_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Probabilities from ``estimator_``.
        """
        _check_refitted(self, "predict_proba")
        return self.estimator_.predict_proba(X)

    @available_if(_estimator_has("predict_log_proba"))
    def predict_log_proba(self, X):
        """Log class probabilities from ``estimator_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
            Log probabilities from ``estimator_``.
        """
        _check_refitted(self, "predict_log_proba")
        return self.estimator_.predict_log_proba(X)

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X):
        """Decision function of ``estimator_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data.

        Returns
        -------
        scores : ndarray
            Decision function of ``estimator_``.
        """
        _check_refitted(self, "decision_function")
        return self.estimator_.decision_function(X)

    @available_if(_estimator_has("transform"))
    def transform(self, X):
        """Transform with ``estimator_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data.

        Returns
        -------
        Xt : array-like
            Transformed data.
        """
        _check_refitted(self, "transform")
        return self.estimator_.transform(X)

    @available_if(_estimator_has("score"))
    def score(self, X, y=None):
        """Primary score of ``estimator_`` on ``X, y``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data.
        y : array-like of shape (n_samples,) or None, default=None
            Target.

        Returns
        -------
        score : float
            The primary scorer's value (``estimator_.score`` when
            ``scoring=None``).
        """
        _check_refitted(self, "score")
        scorer = self.scorer_
        if isinstance(scorer, dict):
            scorer = scorer[next(iter(scorer))]
        return scorer(self.estimator_, X, y)

    # ------------------------------------------------------------------
    # from the kept predictions (return_predictions=True), without refitting
    def score_distribution(self, scoring):
        """Distribution of another metric from ``predictions_`` (no refit).

        Parameters
        ----------
        scoring : str or callable
            A scikit-learn scorer name or ``scorer(estimator, X, y)``.

        Returns
        -------
        PerformanceDistribution
            One score per successful fit, with the same ``seeds`` and
            ``groups`` as ``distribution_``.
        """
        return _predictions.score_distribution(self, scoring)

    def oof_predictions(self, kind="y_pred"):
        """Out-of-fold predictions per repeat (``cross_val_predict`` per repeat).

        Parameters
        ----------
        kind : {"y_pred", "y_score", "y_decision"}, default="y_pred"
            Which kept prediction.

        Returns
        -------
        ndarray of shape (n_repeats, n_samples, ...)
            Raises ValueError when the splits do not partition the data.
        """
        return _predictions.oof_predictions(self, kind=kind)

    def repeat_metric_ci(self, metric="accuracy", *, kind="auto", **kwargs):
        """Per-repeat test-set interval of ``metric`` (``skperf.metrics.metric_ci``).

        Parameters
        ----------
        metric : str or callable, default="accuracy"
            As in :func:`skperf.metrics.metric_ci`.
        kind : {"auto", "y_pred", "y_score", "y_decision"}, default="auto"
            Which kept prediction is passed to ``metric_ci``. ``"auto"``:
            ``y_score`` for score metrics (``"roc_auc"``, ``"log_loss"``,
            ``"average_precision"`` ...; the positive class of a binary
            classifier is ``classes_[1]``), ``y_pred`` otherwise.
        **kwargs : dict
            Passed to :func:`skperf.metrics.metric_ci`.

        Returns
        -------
        pandas.DataFrame
            One row per repeat.
        """
        return _predictions.repeat_metric_ci(self, metric=metric, kind=kind, **kwargs)

    def generalization_ci(self, confidence=0.95, method="auto"):
        """Interval for the score on new data from these fits (no refit).

        Parameters
        ----------
        confidence : float, default=0.95
            Confidence level in (0, 1).
        method : {"auto", "corrected-t", "wald-cv"}, default="auto"
            ``"corrected-t"`` (``"auto"``): Nadeau & Bengio's corrected
            resampled t over the fits' scores; ``"wald-cv"``: Bayle et al.'s
            interval from the kept per-row predictions of K-fold splits
            (``return_predictions=True``, decomposable scorer). The default
            out-of-bootstrap ``cv=None`` raises ValueError (use ``cv=10``).

        Returns
        -------
        GeneralizationCI
            Target ``"new data"``; ``note`` gives the training size.
        """
        from ._generalization import _evaluator_ci

        return _evaluator_ci(self, confidence=confidence, method=method)

    @property
    def classes_(self):
        """Class labels of ``estimator_``."""
        check_is_fitted(self, "estimator_")  # NotFittedError is an AttributeError
        return self.estimator_.classes_

    @property
    def feature_names_in_(self):
        """Names of the features seen by ``estimator_`` (fitted on a DataFrame)."""
        try:
            check_is_fitted(self, "estimator_")
        except Exception as exc:
            raise AttributeError(
                f"{type(self).__name__} is not fitted (or refit=False): "
                "feature_names_in_ is not available."
            ) from exc
        return self.estimator_.feature_names_in_

    @property
    def n_features_in_(self):
        """Number of features seen by ``estimator_``."""
        try:
            check_is_fitted(self, "estimator_")
        except Exception as exc:
            raise AttributeError(
                f"{type(self).__name__} is not fitted (or refit=False): "
                "n_features_in_ is not available."
            ) from exc
        return self.estimator_.n_features_in_

    def get_metadata_routing(self):
        """Get metadata routing of this object.

        The parameters of :meth:`fit` are routed to the estimator's ``fit``
        and to the scorers (each fit's test rows), as
        :func:`~sklearn.model_selection.cross_validate` routes them (see
        scikit-learn's metadata routing user guide).

        Returns
        -------
        routing : sklearn.utils.metadata_routing.MetadataRouter
            The routing information.
        """
        return (
            MetadataRouter(owner=self)
            .add(
                estimator=self.estimator,
                method_mapping=MethodMapping().add(caller="fit", callee="fit"),
            )
            .add(
                scorer=check_scoring(self.estimator, self.scoring),
                method_mapping=MethodMapping().add(caller="fit", callee="score"),
            )
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        sub = get_tags(self.estimator)
        tags.estimator_type = sub.estimator_type
        tags.classifier_tags = deepcopy(sub.classifier_tags)
        tags.regressor_tags = deepcopy(sub.regressor_tags)
        tags.target_tags = deepcopy(sub.target_tags)
        tags.input_tags.pairwise = sub.input_tags.pairwise
        tags.input_tags.sparse = sub.input_tags.sparse
        tags.input_tags.allow_nan = sub.input_tags.allow_nan
        return tags


# ---------------------------------------------------------------------------
# build tasks
def _scorers(estimator, scoring):
    """``(scorer, names, singles)``; ``scorer`` returns a dict name -> value.

    ``singles`` maps each name to its own scorer (``scorer_``). Several
    scorers go through sklearn's multimetric scorer (which caches the
    predictions shared between them).
    """
    if isinstance(scoring, list | tuple | dict):
        items = (
            scoring.items()
            if isinstance(scoring, dict)
            else zip(scoring, scoring, strict=True)
        )
        singles = {name: check_scoring(estimator, s) for name, s in items}
        scorer = check_scoring(estimator, scoring)
    else:
        name = scoring if isinstance(scoring, str) else "score"
        singles = {name: check_scoring(estimator, scoring)}
        scorer = _Single(singles[name], name)
    return scorer, list(singles), singles


class _Single:
    """Wrap one scorer so that every scorer returns a dict."""

    def __init__(self, scorer, name):
        self.scorer = scorer
        self.name = name

    def __call__(self, est, X, y, **kwargs):
        return {self.name: self.scorer(est, X, y, **kwargs)}


def _is_iterable_cv(cv):
    """Whether ``cv`` is an iterable of ``(train, test)`` splits (not a splitter)."""
    return cv is not None and not isinstance(cv, Integral) and not hasattr(cv, "split")


def _outer_cv(cv, estimator, y, groups=None):
    """``(kind, splitter)``: kind is ``"random"``, ``"fixed"`` or ``"iterable"``.

    ``cv=None`` draws whole groups when ``groups`` are given. An int gives a
    shuffled (Stratified)KFold chosen from ``y`` alone, not from the
    estimator, so that every model evaluated on the same ``y`` gets the same
    folds (and can be paired).
    """
    if cv is None:
        if groups is not None:
            return "random", GroupOutOfBootstrap(n_splits=1)
        return "random", OutOfBootstrap(n_splits=1)
    if isinstance(cv, Integral):
        return "random", _shuffled_kfold(cv, True, y)
    if hasattr(cv, "split"):
        return ("random" if _is_random_splitter(cv) else "fixed"), cv
    return "iterable", [(_indices(tr), _indices(te)) for tr, te in cv]


def _indices(split):
    """Row indices of one side of a given split (a boolean mask becomes indices).

    ``n_train``/``n_test``, the split fingerprint and the kept test indices
    all count rows.
    """
    split = np.asarray(split)
    return np.flatnonzero(split) if split.dtype == bool else split


def _sklearn_ignoring_groups():
    from sklearn import model_selection as ms

    names = (
        "KFold",
        "StratifiedKFold",
        "ShuffleSplit",
        "StratifiedShuffleSplit",
        "RepeatedKFold",
        "RepeatedStratifiedKFold",
        "LeaveOneOut",
        "LeavePOut",
        "TimeSeriesSplit",
    )
    return tuple(getattr(ms, n) for n in names if hasattr(ms, n))


def _ignores_groups(splitter):
    """Whether ``splitter`` is known to ignore ``groups`` (exact type)."""
    known = (OutOfBootstrap, StratifiedOutOfBootstrap, *_sklearn_ignoring_groups())
    return type(splitter) in known


def _check_iterable_groups(splits, groups):
    """Warn when fixed ``(train, test)`` splits put a group on both sides.

    Such splits cannot use ``groups``; the ones given are checked instead of
    being silently ignored.
    """
    groups = np.asarray(groups)
    leaky = sum(
        np.intersect1d(groups[train], groups[test]).size > 0 for train, test in splits
    )
    if leaky:
        warnings.warn(
            f"`groups` were given, but {leaky} of the {len(splits)} (train, test) "
            "splits of the iterable `cv` have a group in both the training and the "
            "test set, which makes the scores optimistic. Build the splits with a "
            "group splitter (e.g. GroupKFold), or pass one as cv.",
            GroupsIgnoredWarning,
            stacklevel=_external_stacklevel(),
        )


def _split_id(train, test):
    """64-bit fingerprint of one split (its train and test index arrays).

    Recorded in the distributions' ``seeds["split_id"]``, so that ``compare``
    pairs two scores only when they come from identical train/test indices.
    """
    h = hashlib.blake2b(digest_size=8)
    for idx in (train, test):
        idx = np.ascontiguousarray(idx, dtype=np.int64)
        h.update(np.int64(idx.size).tobytes())
        h.update(idx.tobytes())
    return int(np.frombuffer(h.digest(), dtype="<i8")[0])


# skperf's own splitters, whose splits per seed are drawn in one pass
_OOB_TYPES = (OutOfBootstrap, StratifiedOutOfBootstrap, GroupOutOfBootstrap)


def _check_n_scores(ev, n_scores, per_repeat):
    """At least 2 scores are needed for a distribution; say so before fitting."""
    if per_repeat == 0:
        raise ValueError(
            f"`cv`={ev.cv!r} gave no (train, test) split; an iterable cv must hold "
            "at least one (a generator such as kf.split(X) is used up after one fit)."
        )
    if n_scores < 2:
        raise ValueError(
            f"`n_repeats`={ev.n_repeats!r} with {per_repeat} split(s) per repeat "
            f"gives {n_scores} score; at least 2 scores are needed for a "
            "distribution. Use n_repeats >= 2."
        )


class _Job:
    """Everything one evaluator needs to build its tasks and collect them."""

    def __init__(self, ev, X, y, groups, stacklevel=2, cv=None):
        est = ev.estimator
        cv = ev.cv if cv is None else cv
        if not isinstance(ev.error_score, str) and np.isinf(ev.error_score):
            # it would be kept in the distribution, which takes finite scores
            raise ValueError(
                "`error_score` must be 'raise', NaN or a finite number; got "
                f"{ev.error_score!r}."
            )
        varied, explicit = _check_vary(ev.vary)
        kind, splitter = _outer_cv(cv, est, y, groups)
        if groups is not None and kind != "iterable" and _ignores_groups(splitter):
            what = (
                f"cv={ev.cv!r} (a {type(splitter).__name__})"
                if isinstance(ev.cv, Integral)
                else f"{type(splitter).__name__}"
            )
            warnings.warn(
                f"`groups` were given, but {what} ignores them: rows of one "
                "group can land in both the training and the test set, which "
                "makes the scores optimistic. Use a group splitter, e.g. "
                "cv=None (GroupOutOfBootstrap) or GroupKFold/GroupShuffleSplit.",
                GroupsIgnoredWarning,
                stacklevel=_external_stacklevel(),
            )
            groups = None  # the splitter ignores them (no second warning)
        if groups is not None and kind == "iterable":
            _check_iterable_groups(splitter, groups)
        if kind == "iterable" and "split" in explicit:
            raise ValueError(
                "`vary` includes 'split' but `cv` is a fixed iterable of (train, "
                "test) splits, which cannot be re-seeded; pass a splitter (e.g. "
                "cv=None for out-of-bootstrap splits) or leave 'split' out of vary."
            )
        # an int inner cv of a search always becomes a shuffled K-fold, seeded
        # by the search source (varied or held), so that vary="all" and naming
        # the sources give the same fits, and repeat 0 is the same under any vary
        self.plan = _plan(est, y, shuffle_int_cv=True)
        msgs = _no_variation(self.plan, kind == "random", varied, explicit)
        if msgs:
            warnings.warn(
                f"{type(est).__name__}: nothing to vary for " + "; ".join(msgs) + ".",
                NoVariationWarning,
                stacklevel=_external_stacklevel(),
            )
        self.ev = ev
        self.random_state_, seeds = spawn_seeds(ev.random_state, ev.n_repeats)
        # fixed splits: the split seed is not used, so record it as held
        self.seeds = _hold(seeds, varied if kind == "random" else varied - {"split"})
        self.scorer, self.names, self.singles = _scorers(est, ev.scoring)
        self.splits = []  # per repeat: list of (train, test)
        cache = {}
        if kind == "random" and type(splitter) in _OOB_TYPES:
            # one RandomState reseeded per repeat, the data checked once
            cache = splitter._splits_per_seed(self.seeds["split"], X, y, groups)
        for r in range(ev.n_repeats):
            seed = int(self.seeds["split"][r])
            if seed not in cache:
                if kind == "iterable":
                    cache[seed] = splitter
                else:
                    cv = (
                        _seed_splitter(splitter, seed) if kind == "random" else splitter
                    )
                    cache[seed] = list(cv.split(X, y, groups))
            self.splits.append(cache[seed])
        _check_n_scores(ev, sum(len(sp) for sp in self.splits), len(self.splits[0]))
        ids = {seed: [_split_id(tr, te) for tr, te in sp] for seed, sp in cache.items()}
        self.split_ids = [ids[int(self.seeds["split"][r])] for r in range(ev.n_repeats)]
        # the seed parameters per repeat; the worker clones and configures
        # (one clone per fit, and no fitted model is kept in the parent)
        self.seed_params = [
            _seed_params(self.plan, self.seeds["init"][r], self.seeds["search"][r])
            for r in range(ev.n_repeats)
        ]

    def tasks(self):
        for r, (sp, splits) in enumerate(
            zip(self.seed_params, self.splits, strict=True)
        ):
            for f, (train, test) in enumerate(splits):
                yield r, f, sp, train, test


def _fit_and_score(
    est,
    seed_params,
    X,
    y,
    train,
    test,
    scorer,
    params,
    return_train,
    error_score,
    plan,
    return_predictions=False,
    score_params=None,
):
    """Fit a configured clone of ``est`` on ``train``, score it on ``test``."""
    est = _configure(est, seed_params)
    X_train, y_train = _safe_split(est, X, y, train)
    X_test, y_test = _safe_split(est, X, y, test, train)
    fit_params = _check_method_params(X, params=params, indices=train)
    score_test = score_train = {}
    if score_params:  # routed metadata of the scorers (test / train rows)
        score_test = _check_method_params(X, params=score_params, indices=test)
        score_train = _check_method_params(X, params=score_params, indices=train)
    out = {
        "error": None,
        "train": None,
        "score_time": 0.0,
        "best_params": None,
        "n_train": len(train),
        "n_test": len(test),
    }
    start = time.perf_counter()
    try:
        est.fit(X_train, y_train, **fit_params)
        out["fit_time"] = time.perf_counter() - start
        start = time.perf_counter()
        out["test"] = scorer(est, X_test, y_test, **score_test)
        out["score_time"] = time.perf_counter() - start
        if return_train:
            out["train"] = scorer(est, X_train, y_train, **score_train)
        out["best_params"] = _best_params(est, plan)
        if return_predictions:
            out["predictions"] = _predictions.predict_test(est, X_test)
    except Exception as exc:
        if isinstance(error_score, str):  # "raise"
            raise
        out.setdefault("fit_time", time.perf_counter() - start)
        out["error"] = f"{type(exc).__name__}: {exc}"
        out["exception"] = exc
        out["test"] = None
        out["train"] = None
        return out
    bad = _not_finite(out["test"])
    if bad:
        # e.g. roc_auc on a test set holding one class: a failed fit, kept in
        # results_ with the reason, never a NaN inside the distribution
        msg = (
            "ValueError: the scorer returned a non-finite test score ("
            + ", ".join(f"{k}={v!r}" for k, v in bad.items())
            + f") on a test set of {len(test)} rows"
        )
        if isinstance(error_score, str):  # "raise"
            raise ValueError(msg.partition(": ")[2])
        out["error"] = msg
    return out


def _not_finite(scores):
    """The entries of a ``{name: score}`` dict that are not finite numbers."""
    bad = {}
    for name, value in scores.items():
        try:
            ok = bool(np.isfinite(float(value)))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            bad[name] = value
    return bad


# ---------------------------------------------------------------------------
# run
def _run(
    jobs,
    X,
    y,
    params,
    n_jobs,
    bar,
    verbose=0,
    data_key=None,
    score_params=None,
):
    """Run every task of every job in one ``Parallel`` call; results in order."""
    tasks = [(j, *t) for j, job in enumerate(jobs) for t in job.tasks()]
    code = (_fit_and_score, _predictions.predict_test)
    keys = _cache.fit_keys(jobs, tasks, data_key, code)  # cached: not dispatched
    stores, loaded = _cache.lookup(jobs, tasks, keys)
    calls = (
        delayed(_indexed)(
            i,
            stores.get(i),
            jobs[j].ev.estimator,
            sp,
            X,
            y,
            train,
            test,
            jobs[j].scorer,
            params,
            jobs[j].ev.return_train_score,
            jobs[j].ev.error_score,
            jobs[j].plan,
            getattr(jobs[j].ev, "return_predictions", False),
            score_params,
        )
        for i, (j, _, _, sp, train, test) in enumerate(tasks)
        if i not in loaded
    )
    results = [loaded.get(i) for i in range(len(tasks))]
    parallel = Parallel(n_jobs=n_jobs, verbose=verbose, return_as=_RETURN_AS)
    bar.set_total(len(tasks))
    if loaded:
        bar.update(len(loaded))
    for i, out in parallel(calls):
        results[i] = out
        bar.update(1)
    per_job = [[] for _ in jobs]
    for (j, r, f, *_), out in zip(tasks, results, strict=True):
        per_job[j].append((r, f, out))
    return per_job


# results arrive as fits finish (progress bar), tagged with their task index
_RETURN_AS = "generator_unordered"


def _indexed(i, store, *args):
    return i, _cache.store(store, _fit_and_score(*args))


def _progress_bar(total, progress):
    from tqdm.auto import tqdm

    return _ETABar(tqdm, total=total, disable=not progress)


class _ETABar:
    """A tqdm bar whose remaining time is measured from the first finished fit.

    tqdm's own estimate divides by the time since the bar opened, which
    includes starting the workers and the first fit (with loky, seconds):
    its first estimate was 8-14 minutes for a 22 s job (issue 17, item 18).
    Here the bar prints at once ("starting"), and the remaining time is
    ``(total - n) / rate`` with the rate of the fits finished AFTER the
    first one, shown from the second finished fit on.
    """

    _FORMAT = (
        "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"
    )

    def __init__(self, tqdm, total, disable):
        self._bar = tqdm(
            total=total,
            disable=disable,
            desc="fits",
            unit="fit",
            bar_format=self._FORMAT,
            postfix="starting",
        )
        self._first = None  # (time, n) of the first finished fit
        self.n = 0

    def set_total(self, total):
        self._bar.total = total
        self._bar.refresh()

    def update(self, n=1):
        now = time.perf_counter()
        self.n += n
        if self._first is None:
            self._first = (now, self.n)
            postfix = "measuring speed"
        else:
            t0, n0 = self._first
            done = self.n - n0
            rate = done / (now - t0) if now > t0 else np.inf
            left = (self._bar.total or self.n) - self.n
            eta = left / rate if rate > 0 else np.inf
            postfix = f"about {_fmt_seconds(eta)} left"
        self._bar.set_postfix_str(postfix, refresh=False)
        self._bar.update(n)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._first is not None:
            self._bar.set_postfix_str("done", refresh=False)
        self._bar.close()
        return False


def _fmt_seconds(sec):
    if not np.isfinite(sec):
        return "?"
    sec = round(float(sec))
    return f"{sec // 60}:{sec % 60:02d}" if sec >= 60 else f"{sec} s"


# ---------------------------------------------------------------------------
# collect
def _collect(job, outputs, X, y, params, stacklevel=2):
    """Set the fitted attributes of ``job.ev`` from its task outputs."""
    import pandas as pd

    ev = job.ev
    # a failed collect must not leave the attributes of an earlier fit behind
    for attr in ("distribution_", "distributions_", "estimator_", "refit_time_"):
        vars(ev).pop(attr, None)
    repeat = np.array([r for r, _, _ in outputs], dtype=np.int64)
    fold = np.array([f for _, f, _ in outputs], dtype=np.int64)
    errors = [o["error"] for _, _, o in outputs]
    ok = np.array([e is None for e in errors])
    cols = {"repeat": repeat, "fold": fold}
    for src in SOURCES:
        cols[f"{src}_seed"] = job.seeds[src][repeat].astype(np.int64)
    # fingerprint of each fit's train/test indices: pairs only identical splits
    split_id = np.array([job.split_ids[r][f] for r, f, _ in outputs], dtype=np.int64)
    cols["split_id"] = split_id
    # split sizes, for the Nadeau-Bengio corrected t (mean_ci "corrected-t")
    cols["n_train"] = np.array([o["n_train"] for _, _, o in outputs], dtype=np.int64)
    cols["n_test"] = np.array([o["n_test"] for _, _, o in outputs], dtype=np.int64)
    cols["fit_time"] = np.array([o["fit_time"] for _, _, o in outputs])
    cols["score_time"] = np.array([o["score_time"] for _, _, o in outputs])
    fill = float(ev.error_score) if not isinstance(ev.error_score, str) else np.nan
    numeric = not np.isnan(fill)  # a numeric error_score stays in the distribution

    def value(o, key, name):
        v = None if o[key] is None else o[key].get(name)
        if v is None or (o["error"] is not None and _not_finite({name: v})):
            return fill  # failed: the error_score, as cross_val_score records
        return float(v)

    for prefix, key in (("test", "test"), ("train", "train")):
        if key == "train" and not ev.return_train_score:
            continue
        for name in job.names:
            cols[f"{prefix}_{name}"] = np.array(
                [value(o, key, name) for _, _, o in outputs], dtype=float
            )
    cols["error"] = errors
    if job.plan.search_prefixes:
        cols["best_params"] = [o["best_params"] for _, _, o in outputs]
    if _cache.check_memory(ev.memory) is not None:
        cols["cached"] = np.array([o.get("cached", False) for _, _, o in outputs])
    ev.results_ = pd.DataFrame(cols)
    _predictions.collect(ev, job, outputs, y)
    ev.random_state_ = job.random_state_
    ev.scorer_ = (
        job.scorer.scorer if isinstance(job.scorer, _Single) else dict(job.singles)
    )
    n_fail, n_fits = int((~ok).sum()), ok.size
    first = next((e for e in errors if e is not None), None)
    name = _estimator_name(ev.estimator)
    if n_fail == n_fits:
        _raise_all_failed(name, outputs, n_fits, first)
    if ok.sum() < 2 and not numeric:
        raise ValueError(
            f"{name}: only {int(ok.sum())} of {n_fits} fits "
            f"succeeded; at least 2 are needed for a distribution. First error: "
            f"{first}"
        )
    if n_fail:
        fate = (
            f"scored error_score={fill:g} in the distribution, as in cross_val_score"
            if numeric
            else f"excluded from the distribution (n={n_fits - n_fail})"
        )
        warnings.warn(
            f"{name}: {n_fail} of {n_fits} fits failed and are {fate}; see "
            f"results_['error']. First error: {first}",
            FitFailedWarning,
            stacklevel=_external_stacklevel(),
        )
    keep = np.ones_like(ok) if numeric else ok
    several = np.bincount(repeat).max() > 1
    seeds = {src: cols[f"{src}_seed"][keep] for src in SOURCES}
    seeds["split_id"] = split_id[keep]
    if several:
        # folds of one repeat share the repeat's seeds: the fold index makes
        # each observation's key unique, so compare() pairs fold with fold
        seeds["fold"] = cols["fold"][keep]
    ev.distributions_ = {
        scorer_name: _scorer_distribution(
            cols[f"test_{scorer_name}"][keep],
            scorer_name,
            name=name,
            groups=repeat[keep] if several else None,
            seeds=seeds,
        )
        for scorer_name in job.names
    }
    ev.distribution_ = ev.distributions_[job.names[0]]
    if ev.refit:
        est = _apply(
            ev.estimator, job.plan, job.seeds["init"][0], job.seeds["search"][0]
        )
        start = time.perf_counter()
        est.fit(X, y, **params)
        ev.refit_time_ = time.perf_counter() - start
        ev.estimator_ = est
    return ev


def _raise_all_failed(name, outputs, n_fits, first):
    """Every fit failed: re-raise the error's own type when they all share it."""
    excs = [o.get("exception") for _, _, o in outputs]
    msg = (
        f"{name}: all {n_fits} fits failed; see results_['error']. First error: {first}"
    )
    types = {type(e) for e in excs}
    if None not in types and len(types) == 1:
        try:
            exc = type(excs[0])(msg)
        except Exception:  # an exception class with a custom signature
            exc = None
        if exc is not None:
            raise exc from excs[0]
    raise ValueError(msg) from next((e for e in excs if e is not None), None)


def _check_instance(estimator):
    """TypeError for an estimator class passed instead of an instance."""
    if isinstance(estimator, type):
        raise TypeError(
            f"`estimator` must be an estimator instance; got the class "
            f"{estimator.__name__}. Pass {estimator.__name__}() (with parentheses)."
        )


def _scorer_items(scoring):
    """``[(name, scoring)]`` of one or several scorers (names, callables)."""
    if isinstance(scoring, dict):
        return list(scoring.items())
    if isinstance(scoring, list | tuple):
        return [(s if isinstance(s, str) else repr(s), s) for s in scoring]
    return [(scoring if isinstance(scoring, str) else "scoring", scoring)]


def _check_scorer_kind(estimator, scoring, y):
    """A scorer of the wrong kind fails here, before any fit (issue 17, item 13).

    Checked from the scorer's metric function and response method only (no
    fit): a classification or ranking metric on a regressor or on a
    continuous ``y``; a response method (``predict_proba``,
    ``decision_function``) the estimator does not have; a binary ranking
    metric (``roc_auc``, ``average_precision``) on a ``y`` with more than 2
    classes. Callables that are not scikit-learn scorers are not checked.
    """
    from sklearn.base import is_regressor
    from sklearn.metrics import get_scorer
    from sklearn.utils.multiclass import type_of_target

    if scoring is None:
        return
    kind = None
    if y is not None:
        try:
            kind = type_of_target(y)
        except ValueError:
            kind = None
    for name, sc in _scorer_items(scoring):
        if isinstance(sc, str):
            try:
                sc = get_scorer(sc)
            except ValueError:
                continue  # the parameter validation names unknown scorers
        parts = _scorer_parts(sc)
        if parts is None:
            continue
        func, _, kwargs, response = parts
        module = getattr(func, "__module__", "") or ""
        classif = module.startswith(
            ("sklearn.metrics._classification", "sklearn.metrics._ranking")
        )
        what = f"{type(estimator).__name__}"
        if classif and is_regressor(estimator):
            raise ValueError(
                f"`scoring`={name!r} is a classification metric but {what} is a "
                "regressor; use a regression scorer (e.g. 'r2', "
                "'neg_mean_absolute_error')."
            )
        if classif and kind in ("continuous", "continuous-multioutput"):
            raise ValueError(
                f"`scoring`={name!r} is a classification metric but y is "
                "continuous; use a regression scorer (e.g. 'r2') or class labels."
            )
        if not any(hasattr(estimator, m) for m in response):
            raise ValueError(
                f"`scoring`={name!r} needs {' or '.join(response)}, which {what} "
                "does not have; pick a scorer that reads predict (e.g. 'accuracy')."
            )
        binary_only = module.startswith("sklearn.metrics._ranking") and (
            "multi_class" not in kwargs
        )
        binary_only = binary_only and func.__name__ in (
            "roc_auc_score",
            "average_precision_score",
        )
        if binary_only and kind == "multiclass":
            n = np.unique(np.asarray(y)).size
            raise ValueError(
                f"`scoring`={name!r} is binary but y has {n} classes; use "
                "'roc_auc_ovr' (or 'roc_auc_ovo', 'roc_auc_ovr_weighted')."
                if func.__name__ == "roc_auc_score"
                else f"`scoring`={name!r} is binary but y has {n} classes; use "
                "a multiclass scorer (e.g. 'roc_auc_ovr', 'f1_macro')."
            )


def _warn_memory_without_seed(ev):
    """``memory=`` with ``random_state=None`` can never reuse the cache: say so."""
    if ev.random_state is None and _cache.check_memory(ev.memory) is not None:
        warnings.warn(
            "memory= is set but random_state=None draws fresh seeds on every run, "
            "so no cached fit is ever reused; set random_state to an int (e.g. "
            "random_state=0, or the random_state_ of the run to resume) to resume "
            "or extend runs from the cache.",
            UserWarning,
            stacklevel=_external_stacklevel(),
        )


def _check_y_finite(y):
    """A numeric ``y`` with NaN or inf fails every fit or every score: say so now."""
    if y is None or hasattr(y, "toarray"):
        return
    arr = np.asarray(y)
    if arr.dtype.kind in "fc":
        assert_all_finite(arr, input_name="y")


def _fit_evaluators(
    evaluators,
    X,
    y=None,
    *,
    groups=None,
    n_jobs=None,
    progress=False,
    _validate=True,
    _stacklevel=2,
    _score_params=None,
    **params,
):
    """Fit several unfitted RepeatedEvaluator objects (dict name -> evaluator) with ALL their
    (model, repeat, fold) fits in ONE Parallel call and ONE progress bar; set on each the same
    fitted attributes fit() would set; return the dict. Evaluators sharing random_state/n_repeats/cv/vary are paired.
    """
    for ev in evaluators.values():
        _check_instance(ev.estimator)
    if _validate:
        for ev in evaluators.values():
            ev._validate_params()
    X, y, groups = indexable(X, y, groups)
    _check_y_finite(y)
    for ev in evaluators.values():
        _check_scorer_kind(ev.estimator, ev.scoring, y)
        _warn_memory_without_seed(ev)
    # warnings point at the caller's caller (compare_models -> user code);
    # fit passes 3 (fit, its _fit_context wrapper, user code)
    level = 2 + _stacklevel
    # an iterable cv (e.g. a generator kf.split(X)) is read once, however
    # many evaluators share it
    given = {}
    for ev in evaluators.values():
        if _is_iterable_cv(ev.cv) and id(ev.cv) not in given:
            given[id(ev.cv)] = list(ev.cv)
    # the bar shows at once (drawing splits and hashing data take time too)
    with _progress_bar(None, progress) as bar:
        jobs = []
        for ev in evaluators.values():
            cv = given.get(id(ev.cv))
            jobs.append(_Job(ev, X, y, groups, stacklevel=level, cv=cv))
        verbose = max(ev.verbose for ev in evaluators.values())
        # the data is hashed once per call, and only when some evaluator caches
        cache = any(_cache.check_memory(ev.memory) for ev in evaluators.values())
        # the routed scorer metadata changes the scores: part of the data key
        keyed = params if not _score_params else {"fit": params, "score": _score_params}
        data_key = _cache.data_key(X, y, keyed) if cache else None
        outputs = _run(
            jobs, X, y, params, n_jobs, bar, verbose, data_key, _score_params
        )
    # every evaluator gets its results_ even when another one's collect fails
    # (e.g. all its fits failed); the first error is raised at the end
    error = None
    for job, out in zip(jobs, outputs, strict=True):
        try:
            _collect(job, out, X, y, params, stacklevel=level)
        except Exception as exc:
            if error is None:
                error = exc
    if error is not None:
        raise error
    return evaluators


def repeated_cross_val_score(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    cv=None,
    n_repeats=10,
    vary="all",
    random_state=None,
    n_jobs=None,
    error_score=np.nan,
    params=None,
    progress=False,
    name=None,
):
    """Distribution of an estimator's score over seeded repeats.

    A drop-in replacement for :func:`sklearn.model_selection.cross_val_score`:
    the result is array-like (``np.asarray``, ``len``, indexing, iteration,
    ``.mean()``, ``.std()``), with intervals and comparisons on top.

    Parameters
    ----------
    estimator : estimator object
        The estimator to evaluate.
    X : array-like of shape (n_samples, n_features)
        Data.
    y : array-like of shape (n_samples,) or None, default=None
        Target.
    groups : array-like of shape (n_samples,) or None, default=None
        Group labels passed to the splitter. With ``cv=None``, whole groups
        are drawn (``GroupOutOfBootstrap(n_splits=1)``); a splitter that
        ignores groups, or given splits with a group on both sides, warn
        (``GroupsIgnoredWarning``).
    scoring : str, callable, list, tuple, dict or None, default=None
        Scorer; with several, the first one's distribution is returned.
    cv : int, cross-validation generator, iterable or None, default=None
        ``None``: one out-of-bootstrap split per repeat. See
        :class:`RepeatedEvaluator`.
    n_repeats : int, default=10
        Number of repeats.
    vary : "all" or subset of {"split", "init", "search"}, default="all"
        Sources of variation re-seeded per repeat.
    random_state : int, RandomState instance, Generator or None, default=None
        Root of the seed tree.
    n_jobs : int or None, default=None
        Number of parallel jobs.
    error_score : "raise" or float, default=np.nan
        Score of a failing fit: a number is kept in the distribution (as in
        ``cross_val_score``), ``np.nan`` excludes the failed fit with a
        warning. See :class:`RepeatedEvaluator`.
    params : dict or None, default=None
        Parameters passed to the estimator's ``fit``.
    progress : bool, default=False
        Show a progress bar.
    name : str or None, default=None
        Name of the distribution (shown by ``compare`` and in reports).
        ``None``: the estimator's class, with a pipeline's steps, e.g.
        ``"Pipeline(StandardScaler, LogisticRegression)"``.

    Returns
    -------
    distribution : PerformanceDistribution
        Test scores, one per successful fit.

    See Also
    --------
    RepeatedEvaluator : The same, with ``results_`` and a refitted estimator.

    Notes
    -----
    Seeds, sources of variation and pairing are as in
    :class:`RepeatedEvaluator` (Bouthillier et al., Sec. 2, App. C.1-C.2).

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", MLSys 2021, App. B.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf import repeated_cross_val_score
    >>> X, y = load_iris(return_X_y=True)
    >>> scores = repeated_cross_val_score(DecisionTreeClassifier(), X, y,
    ...                                   n_repeats=5, random_state=0)
    >>> len(scores)
    5
    >>> print(f"{np.mean(scores):.2f}")
    0.92
    """
    ev = RepeatedEvaluator(
        estimator,
        scoring=scoring,
        cv=cv,
        n_repeats=n_repeats,
        vary=vary,
        random_state=random_state,
        n_jobs=n_jobs,
        refit=False,
        error_score=error_score,
        progress=progress,
    )
    ev.fit(X, y, groups=groups, **(params or {}))
    if name is None:
        return ev.distribution_
    return ev.distribution_._renamed(name)
