"""RepeatedEvaluator and repeated_cross_val_score.

Fits an estimator over seeded repeats of (split, init, search) and collects
the scores as a :class:`~skperf.PerformanceDistribution` (Bouthillier et al.,
Sec. 2-3 and App. C.1-C.2).

The fits themselves are the fitting engine's (:mod:`skperf.model_selection._engine`:
seeds, splits, one ``Parallel`` call, the per-fit frame ``results_``); this
module is the estimator on top of it: parameter validation, metadata
routing, and ``_collect``, which turns a job's fits into the fitted
attributes (failures warned about or raised, the distributions, the refit).
``fit`` and ``_fit_evaluators`` (used by ``compare_models``, the report and
``variance_sources``: several evaluators in one ``Parallel`` call) share this
path.
"""

from __future__ import annotations

import os
import time
import warnings
from copy import deepcopy
from numbers import Integral, Real

import numpy as np
from sklearn import get_config
from sklearn.base import BaseEstimator, MetaEstimatorMixin
from sklearn.exceptions import FitFailedWarning, NotFittedError
from sklearn.utils import indexable
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._distribution import _scorer_distribution
from ..metrics._registry import _check_scoring as check_scoring
from ..utils._naming import _estimator_name
from ..utils._sklearn_compat import (
    HasMethods,
    ParamInterval,
    StrOptions,
    _fit_context,
    get_tags,
)
from ..utils._warnings import _external_stacklevel
from . import _predictions
from ._engine import _Single, fit_all
from ._seeding import SOURCES, _apply_seeds, _kept_global_state
from ._vary import _configure

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
    seeder : callable or None, default=None
        ``seeder(estimator, seed)``, called in the worker right before each
        fit (and the refit) with the configured clone and that fit's init
        seed (``results_["init_seed"]``), for trainers whose randomness
        comes from generators skperf does not reach through parameters
        (e.g. ``lambda est, seed: torch.manual_seed(seed)``). It may return
        the estimator to fit (``est.set_params(...)``). Before it, skperf
        seeds numpy's and Python's global generators, and torch's or
        TensorFlow's when the estimator uses them (a skorch net needs no
        seeder). Part of the ``memory`` key; must pickle for ``n_jobs > 1``
        (a module-level function; loky also takes a lambda). See
        :ref:`deep_learning`.

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
    skperf.exceptions.NotReproducibleWarning
        When the fits show that the estimator's init is not seeded: fits
        with the same seeds and split gave different scores, or an
        estimator with no seed parameter, no ``seeder`` and no generator
        skperf seeds gave different scores on the same split. Its fits are
        then not kept in ``memory``.
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
            str,  # a scorer name: checked by metrics._registry._check_scorer_names
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
        "seeder": [callable, None],
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
        seeder=None,
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
        self.seeder = seeder

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
    def score_distribution(self, *, scoring):
        """Distribution of another metric from ``predictions_`` (no refit).

        Parameters
        ----------
        scoring : str, callable or None
            A scikit-learn scorer name or ``scorer(estimator, X, y)``;
            ``None`` replays the estimator's default ``score`` (accuracy or
            R^2).

        Returns
        -------
        PerformanceDistribution
            One score per successful fit, with the same ``seeds`` and
            ``groups`` as ``distribution_``.
        """
        return _predictions.score_distribution(self, scoring=scoring)

    def oof_predictions(self, *, kind="y_pred"):
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

    def generalization_ci(self, *, confidence=0.95, method="auto"):
        """Interval for the score on new data from these fits (no refit).

        Parameters
        ----------
        confidence : float, default=0.95
            Confidence level in (0, 1).
        method : {"auto", "corrected-t", "wald-cv"}, default="auto"
            ``"corrected-t"``: Nadeau & Bengio's corrected resampled t over
            the fits' scores (``J - 1`` degrees of freedom); ``"auto"``: the
            same, read with ``K - 1`` (``K`` folds), as
            :func:`~skperf.generalization_ci`'s auto reads its 10 x 10-fold
            (fewer repetitions give a wider interval), and a note where it
            would refit (nested CV below n = 100); ``"wald-cv"``: Bayle et al.'s
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
# collect
def _collect(job, X, y, params):
    """Set the fitted attributes of the evaluator ``job.spec`` from its fits."""
    ev = job.spec
    # a failed collect must not leave the attributes of an earlier fit behind
    for attr in (
        "distribution_",
        "distributions_",
        "estimator_",
        "refit_time_",
        "predictions_",
    ):
        vars(ev).pop(attr, None)
    ev.results_ = cols = job.results
    if ev.return_predictions:
        _predictions.collect(ev, job, job.outputs, y)
    ev.random_state_ = job.random_state_
    ev._init_verdict = getattr(
        job, "init_verdict", None
    )  # skperf.model_selection._reproducible
    ev._stratified_folds = job.stratified  # read by generalization_ci's note
    ev.scorer_ = (
        job.scorer.scorer if isinstance(job.scorer, _Single) else dict(job.singles)
    )
    errors = [o["error"] for _, _, o in job.outputs]
    ok = np.array([e is None for e in errors])
    fill = float(ev.error_score) if not isinstance(ev.error_score, str) else np.nan
    numeric = not np.isnan(fill)  # a numeric error_score stays in the distribution
    n_fail, n_fits = int((~ok).sum()), ok.size
    first = next((e for e in errors if e is not None), None)
    name = _estimator_name(ev.estimator)
    if n_fail == n_fits:
        _raise_all_failed(name, job.outputs, n_fits, first)
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
    repeat = cols["repeat"].to_numpy()
    several = np.bincount(repeat).max() > 1
    keys = [f"{src}_seed" for src in SOURCES] + ["split_id"]
    # folds of one repeat share the repeat's seeds: the fold index makes each
    # observation's key unique, so compare() pairs fold with fold
    keys += ["fold"] if several else []
    seeds = {k.removesuffix("_seed"): cols[k].to_numpy()[keep] for k in keys}
    ev.distributions_ = {
        scorer_name: _scorer_distribution(
            cols[f"test_{scorer_name}"].to_numpy()[keep],
            scorer_name,
            name=name,
            groups=repeat[keep] if several else None,
            seeds=seeds,
        )
        for scorer_name in job.names
    }
    ev.distribution_ = ev.distributions_[job.names[0]]
    if ev.refit:
        # the init and search seeds of repeat 0 (the held seeds), and the
        # global generators and seeder as in every fit
        with _kept_global_state():
            est = _configure(ev.estimator, job.seed_params[0])
            est = _apply_seeds(est, int(job.seeds["init"][0]), job.seeding)
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


def _fit_evaluators(
    evaluators,
    X,
    y=None,
    *,
    groups=None,
    n_jobs=None,
    progress=False,
    _validate=True,
    _score_params=None,
    _look=None,
    _time_budget=None,
    **params,
):
    """Fit several unfitted evaluators (dict name -> RepeatedEvaluator) at once.

    ALL their (model, repeat, fold) fits run in ONE ``Parallel`` call with
    ONE progress bar (:func:`skperf.model_selection._engine.fit_all`); each evaluator gets
    the fitted attributes ``fit`` sets, even when another one's fits all
    failed (the first such error is raised at the end). Evaluators sharing
    ``random_state``, ``n_repeats``, ``cv`` and ``vary`` are paired. Returns
    the dict. ``_look`` / ``_time_budget``: a sequential design
    (:func:`skperf.model_selection._engine.fit_all`'s ``look`` and ``time_budget``); each
    evaluator then has ``stopped_``.
    """
    for ev in evaluators.values():
        _check_instance(ev.estimator)
    if _validate:
        for ev in evaluators.values():
            ev._validate_params()
    X, y, groups = indexable(X, y, groups)
    jobs = fit_all(
        list(evaluators.values()),
        X,
        y,
        groups=groups,
        params=params,
        score_params=_score_params,
        n_jobs=n_jobs,
        progress=progress,
        look=_look,
        time_budget=_time_budget,
    )
    error = None
    for job in jobs:
        if _look is not None:
            job.spec.stopped_ = job.stopped
        try:
            _collect(job, X, y, params)
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
    seeder=None,
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
    seeder : callable or None, default=None
        ``seeder(estimator, seed)`` called in the worker before each fit with
        its init seed (see :class:`RepeatedEvaluator`).

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
        seeder=seeder,
    )
    ev.fit(X, y, groups=groups, **(params or {}))
    if name is None:
        return ev.distribution_
    return ev.distribution_._renamed(name)
