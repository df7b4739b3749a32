"""Apply split, init and search seeds to a cloned estimator and splitter.

The three sources of variation of Bouthillier et al. (Sec. 2, App. C.1):

- ``split``: the outer splitter's ``random_state``;
- ``init``: every ``random_state`` parameter inside the estimator (pipelines,
  column transformers, ensembles, the estimator inside a search), each given
  its own int derived from the per-repeat init seed, as
  ``sklearn.ensemble._base._set_random_states`` does;
- ``search``: the sampler (``random_state``) and the inner splitter (``cv``)
  of a hyperparameter search, re-run in every repeat.

Precisely which inner ``cv`` is changed: the ``cv`` of a hyperparameter
search (``BaseSearchCV``: ``GridSearchCV``, ``RandomizedSearchCV``, the
halving searches; also nested in a pipeline) that is an int or ``None`` (a
plain K-fold) becomes a shuffled (Stratified)KFold with the same number of
folds, seeded by the search source; a splitter object that shuffles (has a
``random_state`` and ``shuffle`` not False) in any estimator is re-seeded by
the search source. Nothing else: the ``cv`` of every other estimator
(``RidgeCV``/``RidgeClassifierCV`` with ``cv=None``, an efficient
leave-one-out; ``LassoCV``, ``ElasticNetCV``, ``LogisticRegressionCV``,
``CalibratedClassifierCV``, ``RFECV`` ... with an int or ``None``) and an
unshuffled splitter object are left exactly as given.

Everything here is small functions over a :class:`_VaryPlan`, computed once
per evaluation from the unfitted estimator, then applied per repeat in the
calling process. Options such as "fit the search once and hold the chosen
hyperparameters" or a noisy grid (Bouthillier et al., Sec. 3.2.2 and App. E)
can be added as further plan fields and ``_apply_*`` functions.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.model_selection import GroupKFold, KFold, StratifiedKFold
from sklearn.utils.multiclass import type_of_target

from ..utils._sklearn_compat import BaseSearchCV
from ._seeding import SOURCES, _derive_ints
from ._trainers import scan

__all__: list[str] = []

_RS = "random_state"


# ---------------------------------------------------------------------------
# vary
def _check_vary(vary):
    """Return ``(varied, explicit)``: the sources varied and those named."""
    if isinstance(vary, str):
        if vary == "all":
            return frozenset(SOURCES), frozenset()
        vary = [vary]
    vary = list(vary)
    bad = [v for v in vary if v not in SOURCES]
    if bad:
        raise ValueError(
            f"`vary` must be 'all' or a subset of {set(SOURCES)}; got {vary!r} "
            f"(unknown: {bad!r})."
        )
    return frozenset(vary), frozenset(vary)


# ---------------------------------------------------------------------------
# splitters
def _is_random_splitter(cv):
    """Whether a splitter object draws random splits from its ``random_state``."""
    return hasattr(cv, _RS) and bool(getattr(cv, "shuffle", True))


def _seed_splitter(cv, seed):
    """A copy of splitter ``cv`` with ``random_state=seed`` (a plain int)."""
    cv = copy.copy(cv)  # only random_state changes; shallow is enough
    cv.random_state = int(seed)
    return cv


def _shuffled_kfold(n_splits, classifier, y):
    """Shuffled ``StratifiedKFold``/``KFold`` chosen as ``check_cv`` does.

    Stratified for a classifier with a binary or multiclass ``y`` whose
    every class has at least ``n_splits`` members (``StratifiedKFold`` warns
    otherwise). The outer ``cv`` of ``RepeatedEvaluator`` passes
    ``classifier=True`` for any estimator: the choice then depends on ``y``
    alone, so two models evaluated on the same ``y`` get the same folds.
    """
    n_splits = 5 if n_splits is None else int(n_splits)
    try:
        kind = None if y is None else type_of_target(y)
    except ValueError:  # e.g. y holding inf: the fits report it, per fit
        kind = None
    if classifier and kind in ("binary", "multiclass"):
        _, counts = np.unique(np.asarray(y), return_counts=True)
        if counts.min() >= n_splits:
            return StratifiedKFold(n_splits, shuffle=True)
    return KFold(n_splits, shuffle=True)


def _class_labels(y):
    """``y`` as an array when it is a binary or multiclass label, else None."""
    if y is None:
        return None
    try:
        kind = type_of_target(y)
    except ValueError:  # e.g. y holding inf: the fits report it, per fit
        return None
    return np.asarray(y) if kind in ("binary", "multiclass") else None


class NewDataKFold(KFold):
    """Shuffled K-fold for an interval or test about new data: not stratified.

    Stratified folds make the fold scores less variable than the score on
    new data is (the class mix of a test fold no longer varies), and the
    corrected resampled t, derived for random splits, then under-covers: a
    random forest's accuracy and Brier score on ``fair`` at n = 200 (200
    datasets, through ``generalization_ci``) were covered 0.89-0.895 with
    stratified folds and 0.95 with plain ones (17-20 % wider). For a class
    label ``y`` the folds are re-drawn (from ``random_state``) until every
    test fold holds every class, as a score such as ROC AUC needs; where
    plain folds would rarely manage that (more than 0.5 test folds expected
    to miss a class, hypergeometric) they are stratified instead. ``repr``
    and parameters are those of ``KFold``; ``shuffle`` is always True.
    """

    def __init__(self, n_splits=10, *, shuffle=True, random_state=None):
        super().__init__(n_splits, shuffle=True, random_state=random_state)

    def split(self, X, y=None, groups=None):
        from scipy.stats import hypergeom
        from sklearn.utils import check_random_state

        y = _class_labels(y)
        if y is None:
            yield from KFold(
                self.n_splits, shuffle=True, random_state=self.random_state
            ).split(X, y, groups)
            return
        labels, counts = np.unique(y, return_counts=True)
        n = int(counts.sum())
        missing = self.n_splits * hypergeom.pmf(0, n, counts, n // self.n_splits).sum()
        rng = check_random_state(self.random_state)
        for _ in range(100 if missing <= 0.5 else 0):
            draw = KFold(self.n_splits, shuffle=True, random_state=rng.randint(2**31))
            splits = list(draw.split(X, y, groups))
            if all(np.unique(y[test]).size == labels.size for _, test in splits):
                yield from splits
                return
        strat = _shuffled_kfold(self.n_splits, True, y)
        strat.random_state = rng.randint(2**31)
        yield from strat.split(X, y, groups)


def _new_data_kfold(k, groups=None, labels=True):
    """The K-fold design of every test and interval about new data:
    ``GroupKFold`` with ``groups``; else shuffled, not stratified
    (:class:`NewDataKFold` for class labels, plain ``KFold`` otherwise)."""
    if groups is not None:
        return GroupKFold(n_splits=int(k), shuffle=True)
    return NewDataKFold(int(k)) if labels else KFold(int(k), shuffle=True)


#: Folds of the new-data design (fewer only where 10 cannot be made).
_DEFAULT_K = 10


def _default_new_data_cv(X, y, groups, *, classifier=True, k=None):
    """The design for target='new data': shuffled K-fold per repeat, not
    stratified (:class:`skperf.model_selection._vary.NewDataKFold` for class labels); ``k``
    folds when given, else 10.

    Fewer than 10 default folds only where 10 cannot be made: fewer than 10
    groups, rows, or (class labels) members of the smallest class (each test
    fold holds every class). A regressor's integer-valued target (``type_of_target`` calls
    it "multiclass") is not a set of classes.
    """
    from ..utils._sklearn_compat import _num_samples

    labels = classifier and y is not None and _class_labels(y) is not None
    if k is not None:  # the folds asked for, as given
        return _new_data_kfold(k, groups, labels)
    if groups is not None:
        k = np.unique(np.asarray(groups)).size
    else:
        k = _num_samples(X)
        if labels:
            k = min(k, int(np.unique(np.asarray(y), return_counts=True)[1].min()))
    # not stratified: stratified folds made the corrected t under-cover
    return _new_data_kfold(max(min(_DEFAULT_K, k), 2), groups, labels)


# ---------------------------------------------------------------------------
# estimators
# Estimators whose ``random_state`` is used only under some settings. A
# ``random_state`` on any other estimator is assumed to matter.
_USES_RANDOM_STATE = {
    "LogisticRegression": lambda e: e.solver in ("sag", "saga", "liblinear"),
    "LogisticRegressionCV": lambda e: e.solver in ("sag", "saga", "liblinear"),
    "Ridge": lambda e: e.solver in ("sag", "saga"),
    "RidgeClassifier": lambda e: e.solver in ("sag", "saga"),
    "SVC": lambda e: bool(e.probability),
    "NuSVC": lambda e: bool(e.probability),
    "PCA": lambda e: e.svd_solver not in ("full", "covariance_eigh"),
    "DummyClassifier": lambda e: e.strategy in ("stratified", "uniform"),
}


def _uses_random_state(est):
    rule = _USES_RANDOM_STATE.get(type(est).__name__)
    if rule is None or not type(est).__module__.startswith("sklearn."):
        return True
    try:
        return bool(rule(est))
    except AttributeError:  # pragma: no cover - unexpected sklearn change
        return True


# Names of an estimator's seed parameter: scikit-learn's ``random_state``,
# and ``seed`` / ``random_seed`` used by other libraries and custom estimators
# (only when the same object has no ``random_state``, since e.g. CatBoost
# refuses both being set).
_SEED_NAMES = (_RS, "seed", "random_seed")


def _is_seed_key(key, params):
    """Whether parameter ``key`` (of ``get_params(deep=True)``) is a seed."""
    prefix, _, name = key.rpartition("__")
    if name == _RS:
        return True
    if name not in _SEED_NAMES[1:]:
        return False
    value = params[key]
    if value is not None and not isinstance(value, Integral | np.integer):
        return False  # e.g. a seed given as an object: left alone
    if _join(prefix, _RS) in params:
        return False
    # one seed per object: ``seed`` before ``random_seed``
    return name == "seed" or _join(prefix, "seed") not in params


def _join(prefix, name):
    return f"{prefix}__{name}" if prefix else name


@dataclass
class _VaryPlan:
    """Which parameters of an estimator each source seeds.

    init_keys : ``random_state`` parameters seeded by the init source.
    search_keys : samplers' ``random_state`` parameters (search source).
    search_cv : inner ``cv`` parameter -> splitter to re-seed (search source).
    search_prefixes : where the hyperparameter searches sit (``""`` = root).
    init_random, search_random : whether each source has any randomness.
    init_unused : the ``init_keys`` of scikit-learn estimators that do not
        use their seed with their settings (``_USES_RANDOM_STATE``, e.g.
        ``DummyClassifier(strategy="prior")``): left as they are, since
        seeding them changes no result but costs a ``RandomState`` per call.
    """

    init_keys: list = field(default_factory=list)
    search_keys: list = field(default_factory=list)
    search_cv: dict = field(default_factory=dict)
    search_prefixes: list = field(default_factory=list)
    init_random: bool = False
    search_random: bool = False
    init_unused: list = field(default_factory=list)
    # how the init seed reaches the fits (set by _plan):
    # "params", "seeder", "framework", "unknown" (told after the fits) or "none"
    init_kind: str = "none"
    frameworks: tuple = ()
    outside: bool = False  # code outside scikit-learn in the tree
    keyed: bool = False  # the init seed may reach a fit outside seed parameters
    deferred: tuple | None = None  # _no_variation's arguments, for check_run


def _owner(estimator, params, key):
    """``(object, name)`` to set seed parameter ``key`` on, never a class.

    ``a__b__seed`` is set as ``seed`` on the sub-estimator ``a__b``. When
    ``a__b`` is not an estimator instance (a class-valued parameter such as
    skorch's ``module=MyModule``), the parameter is a routed one of an outer
    estimator (skorch's ``module__seed``, passed to the module when the net
    builds it): it is set there, as ``module__seed``, the way that estimator
    takes it. ``(None, None)`` when no instance owns it.
    """
    parts = key.split("__")
    for cut in range(len(parts) - 1, -1, -1):
        prefix, name = "__".join(parts[:cut]), "__".join(parts[cut:])
        obj = estimator if not prefix else params.get(prefix)
        if obj is None or isinstance(obj, type) or not hasattr(obj, "get_params"):
            continue
        if cut == len(parts) - 1:
            return obj, name  # the usual case: the parameter's own object
        try:
            own = obj.get_params(deep=False)
        except Exception:  # pragma: no cover - unusual get_params
            continue
        if name in own:
            return obj, name
    return None, None


def _set(owner, name, value):
    """Set parameter ``name`` of ``owner``: its own ``set_params`` for a
    routed name (``module__seed`` of skorch), else as a plain attribute."""
    from sklearn.base import BaseEstimator

    if "__" in name and type(owner).set_params is not BaseEstimator.set_params:
        owner.set_params(**{name: value})
    else:
        setattr(owner, name, value)


def _check_owner(estimator, params, key):
    owner, name = _owner(estimator, params, key)
    if owner is None:
        prefix = key.rpartition("__")[0]
        held = params.get(prefix)
        what = f"the class {held.__name__}" if isinstance(held, type) else repr(held)
        raise ValueError(
            f"Cannot seed parameter {key!r} of {type(estimator).__name__}: "
            f"{prefix!r} is {what}, not an estimator instance, and no estimator "
            f"takes {key!r} as a parameter of its own; skperf never sets an "
            "attribute on a class. Pass an instance, a parameter the estimator "
            "routes (as skorch's module__seed), or seed it with seeder=."
        )
    return owner, name


def _plan(estimator, y=None, *, shuffle_int_cv=False, seeder=None):
    """Find the parameters each source seeds in ``estimator``.

    Parameters
    ----------
    estimator : estimator
        The unfitted estimator.
    y : array-like or None
        Target, to choose a stratified splitter for an int inner ``cv``.
    shuffle_int_cv : bool
        Turn the int (or ``None``) ``cv`` of a hyperparameter search into a
        shuffled (Stratified)KFold with the same number of folds, so that the
        search source has randomness. ``RepeatedEvaluator`` always does (for
        any ``vary``). Other estimators' ``cv`` is never replaced.
    seeder : callable or None
        The user's ``seeder(estimator, seed)``: the init source then has
        randomness (``init_kind="seeder"``).
    """
    params = estimator.get_params(deep=True) if hasattr(estimator, "get_params") else {}
    plan = _VaryPlan()
    owners = {"": estimator}
    owners.update(
        (k, v)
        for k, v in params.items()
        if hasattr(v, "get_params") and not isinstance(v, type)
    )
    for prefix, obj in sorted(owners.items()):
        # an inner cv of its own: a search (BaseSearchCV: grid, randomized,
        # halving) or a *CV model
        own = obj.get_params(deep=False) if hasattr(obj, "get_params") else {}
        if "cv" not in own:
            continue
        key = _join(prefix, "cv")
        cv = own["cv"]
        search = isinstance(obj, BaseSearchCV)
        if search:
            plan.search_prefixes.append(prefix)
        if _is_random_splitter(cv):
            plan.search_cv[key] = cv
        elif shuffle_int_cv and search and (cv is None or isinstance(cv, Integral)):
            # only a hyperparameter search: its int (or None: 5) cv is a
            # K-fold. Other *CV estimators (RidgeCV's efficient leave-one-out
            # under cv=None, LassoCV, LogisticRegressionCV, CalibratedClassifierCV,
            # RFECV ...) are evaluated as given (issue 17, item 5).
            # check_cv's choice: a search delegates its type to its estimator
            inner = getattr(obj, "estimator", None)
            classifier = is_classifier(obj) or (
                hasattr(inner, "fit") and is_classifier(inner)
            )
            plan.search_cv[key] = _shuffled_kfold(cv, classifier, y)
    for key in sorted(k for k in params if _is_seed_key(k, params)):
        # the object holding the parameter (a__b__random_state -> a__b; a
        # routed module__seed -> the net): never a class
        prefix = key.rpartition("__")[0]
        obj = estimator if not prefix else params[prefix]
        if isinstance(obj, type) or not hasattr(obj, "get_params"):
            obj, _ = _check_owner(estimator, params, key)
        if isinstance(obj, BaseSearchCV):  # a search's own seed is its sampler
            plan.search_keys.append(key)
            plan.search_random = True
        else:
            plan.init_keys.append(key)
            used = _uses_random_state(obj)
            plan.init_random |= used
            if not used:
                plan.init_unused.append(key)
    plan.search_random |= bool(plan.search_cv)
    # how the init seed reaches the fits: a seeder, a framework's global
    # generators, seed parameters; "unknown" (code outside scikit-learn with
    # none of these) is told after the fits (skperf.model_selection._reproducible.check_run)
    plan.frameworks, plan.outside = scan(estimator, params)
    if seeder is not None:
        plan.init_kind = "seeder"
    elif plan.frameworks:
        plan.init_kind = "framework"
    elif plan.init_random:
        plan.init_kind = "params"
    elif plan.outside:
        plan.init_kind = "unknown"
    plan.init_random |= plan.init_kind in ("seeder", "framework")
    # the init seed can reach a fit other than through seed parameters
    # (cache key, skperf.model_selection._seeding._Seeding.keyed)
    plan.keyed = seeder is not None or plan.outside
    return plan


def _seed_params(plan, init_seed, search_seed):
    """Parameters setting the init and search seeds of one repeat.

    Every parameter gets a plain int (a ``RandomState`` would be shared by
    reference between fits once cloned); each gets its own int derived from
    the source seed, in sorted parameter order.
    """
    params = dict(
        zip(plan.init_keys, _derive_ints(init_seed, len(plan.init_keys)), strict=True)
    )
    for key in plan.init_unused:  # ints derived for all keys: the others unchanged
        del params[key]
    n_search = len(plan.search_keys) + len(plan.search_cv)
    ints = _derive_ints(search_seed, n_search)
    params.update(zip(plan.search_keys, ints, strict=False))  # ints also seed the cvs
    for (key, cv), seed in zip(
        plan.search_cv.items(), ints[len(plan.search_keys) :], strict=True
    ):
        params[key] = _seed_splitter(cv, seed)
    return params


def _configure(estimator, params):
    """A clone of ``estimator`` with ``params`` (from ``_seed_params``) set."""
    est = clone(estimator)
    if params:
        # One deep traversal, then set each parameter on its owner: the keys
        # come from get_params, and this is ~2x cheaper than a nested
        # set_params on a Pipeline (which traverses the tree twice); it runs
        # once per fit.
        objs = est.get_params(deep=True)
        for key, value in params.items():
            prefix, _, name = key.rpartition("__")
            owner = est if not prefix else objs[prefix]
            if isinstance(owner, type) or not hasattr(owner, "get_params"):
                owner, name = _check_owner(est, objs, key)  # never a class
            _set(owner, name, value)
    return est


def _apply(estimator, plan, init_seed, search_seed):
    """A clone of ``estimator`` with the init and search seeds of one repeat."""
    return _configure(estimator, _seed_params(plan, init_seed, search_seed))


def _best_params(est, plan):
    """Hyperparameters chosen by the fitted searches of ``est``, or ``None``."""
    if not plan.search_prefixes:
        return None
    params = est.get_params(deep=True)
    found = {}
    for prefix in plan.search_prefixes:
        obj = est if not prefix else params.get(prefix)
        if hasattr(obj, "best_params_"):
            found[prefix] = obj.best_params_
    if not found:
        return None
    return found[""] if list(found) == [""] else found


# ---------------------------------------------------------------------------
# warnings
def _no_variation(plan, split_random, varied, explicit):
    """Messages for the sources in ``vary`` that have no randomness.

    Named sources warn when they have nothing to vary; under ``vary="all"``
    sources that do not apply stay silent, and only an evaluation where
    nothing at all varies warns.
    """
    has = {
        "split": split_random,
        # code outside scikit-learn without a seed parameter may draw from a
        # global generator (seeded per fit): told after the fits (check_run)
        "init": plan.init_random or plan.init_kind == "unknown",
        "search": plan.search_random,
    }
    if plan.init_kind == "unknown":
        plan.deferred = (split_random, varied, explicit)
    if not explicit:
        if varied and not any(has.values()):
            return [
                (
                    "any source: no source of variation has any randomness (the "
                    "splits are fixed and the estimator has no random_state that it "
                    "uses), so every repeat gives the same scores; pass cv=None "
                    "(out-of-bootstrap) or a splitter that shuffles"
                )
            ]
        return []
    msgs = []
    if "split" in explicit and not split_random:
        msgs.append(
            "'split': the splitter has no random_state or does not shuffle, so "
            "every repeat uses the same splits"
        )
    if "init" in explicit and not has["init"]:
        msgs.append(
            "'init': the estimator has no random_state parameter that it uses "
            "(with these settings it is deterministic)"
        )
    if "search" in explicit and not plan.search_random:
        if plan.search_prefixes or plan.search_cv:
            msgs.append(
                "'search': the search has no random sampler and its inner cv "
                "does not shuffle; pass e.g. cv=KFold(5, shuffle=True)"
            )
        else:
            msgs.append("'search': the estimator is not a hyperparameter search")
    return msgs
