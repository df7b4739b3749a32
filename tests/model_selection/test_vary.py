"""Tests for skperf.model_selection._vary."""

import re

import numpy as np
import pytest
from scipy.stats import loguniform
from sklearn.base import BaseEstimator
from sklearn.calibration import CalibratedClassifierCV
from sklearn.compose import ColumnTransformer
from sklearn.decomposition import PCA
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import (
    LassoCV,
    LogisticRegression,
    LogisticRegressionCV,
    RidgeClassifierCV,
    RidgeCV,
)
from sklearn.model_selection import (
    GridSearchCV,
    HalvingRandomSearchCV,
    KFold,
    RandomizedSearchCV,
    ShuffleSplit,
    StratifiedKFold,
)
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from skperf.model_selection._seeding import _derive_ints
from skperf.model_selection._vary import (
    _apply,
    _check_vary,
    _is_random_splitter,
    _no_variation,
    _plan,
    _seed_splitter,
)


def test_check_vary():
    assert _check_vary("all") == ({"split", "init", "search"}, frozenset())
    assert _check_vary("init") == ({"init"}, {"init"})
    assert _check_vary(["split", "init"]) == ({"split", "init"}, {"split", "init"})
    with pytest.raises(ValueError, match=re.escape("(unknown: ['seed'])")):
        _check_vary(["split", "seed"])


@pytest.mark.parametrize(
    ("cv", "expected"),
    [
        (KFold(5), False),
        (KFold(5, shuffle=True), True),
        (ShuffleSplit(3), True),
        (StratifiedKFold(3, shuffle=True), True),
    ],
)
def test_is_random_splitter(cv, expected):
    assert _is_random_splitter(cv) is expected


def test_seed_splitter_copies():
    cv = KFold(3, shuffle=True)
    seeded = _seed_splitter(cv, np.uint32(7))
    assert cv.random_state is None
    assert seeded.random_state == 7
    assert type(seeded.random_state) is int


class TestPlan:
    def test_pipeline_and_ensemble(self):
        est = make_pipeline(
            ColumnTransformer([("pca", PCA(2, svd_solver="randomized"), [0, 1, 2])]),
            BaggingClassifier(RandomForestClassifier()),
        )
        plan = _plan(est)
        assert plan.init_keys == [
            "baggingclassifier__estimator__random_state",
            "baggingclassifier__random_state",
            "columntransformer__pca__random_state",
        ]
        assert plan.init_random
        assert not plan.search_random
        assert plan.search_prefixes == []

    def test_apply_gives_distinct_ints(self):
        est = make_pipeline(StandardScaler(), BaggingClassifier(MLPClassifier()))
        plan = _plan(est)
        a = _apply(est, plan, 11, 12)
        b = _apply(est, plan, 11, 99)
        seeds = [a.get_params()[k] for k in plan.init_keys]
        assert all(type(s) is int for s in seeds)
        assert len(set(seeds)) == 2
        assert [b.get_params()[k] for k in plan.init_keys] == seeds
        assert est.get_params()[plan.init_keys[0]] is None  # original untouched

    def test_lbfgs_is_deterministic(self):
        assert not _plan(LogisticRegression()).init_random
        assert _plan(LogisticRegression(solver="saga")).init_random

    def test_randomized_search(self):
        search = RandomizedSearchCV(
            make_pipeline(StandardScaler(), LogisticRegression(solver="saga")),
            {"logisticregression__C": loguniform(1e-2, 1e2)},
            cv=KFold(3, shuffle=True),
            n_iter=2,
        )
        plan = _plan(search)
        assert plan.search_keys == ["random_state"]
        assert list(plan.search_cv) == ["cv"]
        assert plan.init_keys == ["estimator__logisticregression__random_state"]
        assert plan.search_prefixes == [""]
        est = _apply(search, plan, 1, 2)
        assert type(est.random_state) is int
        assert est.cv.random_state != est.random_state
        assert type(est.cv.random_state) is int

    def test_int_cv_shuffled_only_when_asked(self):
        search = GridSearchCV(LogisticRegression(), {"C": [1, 10]}, cv=4)
        plan = _plan(search, np.array([0, 1] * 10))
        assert plan.search_cv == {}
        assert not plan.search_random
        plan = _plan(search, np.array([0, 1] * 10), shuffle_int_cv=True)
        cv = plan.search_cv["cv"]
        assert isinstance(cv, StratifiedKFold)
        assert cv.n_splits == 4
        assert cv.shuffle
        assert plan.search_random

    def test_int_cv_of_other_cv_estimators_left_as_given(self):
        # issue 17 item 5: only a search's int cv is replaced; RidgeCV's
        # cv=None (efficient leave-one-out) and the int cv of other *CV
        # estimators are evaluated as given
        y = np.array([0, 1] * 10)
        for est in (
            CalibratedClassifierCV(cv=3),
            RidgeCV(cv=4),
            RidgeCV(),
            RidgeClassifierCV(),
            LassoCV(cv=3),
            LogisticRegressionCV(cv=3),
            CalibratedClassifierCV(cv="prefit"),
        ):
            plan = _plan(est, y, shuffle_int_cv=True)
            assert plan.search_cv == {}, est
            assert not plan.search_random, est
            applied = _apply(est, plan, 1, 2)
            assert applied.get_params()["cv"] == est.get_params()["cv"]
        # a shuffling splitter object is re-seeded, in any estimator
        plan = _plan(RidgeCV(cv=KFold(3, shuffle=True)), y, shuffle_int_cv=True)
        assert list(plan.search_cv) == ["cv"]
        # a search's None cv (5-fold) becomes a shuffled stratified 5-fold
        search = GridSearchCV(LogisticRegression(), {"C": [1, 10]})
        cv = _plan(search, y, shuffle_int_cv=True).search_cv["cv"]
        assert isinstance(cv, StratifiedKFold)
        assert (cv.n_splits, cv.shuffle) == (5, True)

    def test_unused_random_state_left_alone(self):
        # performance (issue 17): a seed the estimator does not use is not
        # set (it would build a RandomState in every fit and predict); the
        # other keys keep the ints they had when every key was seeded
        plan = _plan(DummyClassifier())
        assert plan.init_keys == ["random_state"]
        assert plan.init_unused == ["random_state"]
        assert _apply(DummyClassifier(), plan, 1, 2).random_state is None
        est = Pipeline(
            [("a", BaggingClassifier(DummyClassifier())), ("b", DummyClassifier())]
        )
        plan = _plan(est)
        assert plan.init_unused == [
            "a__estimator__random_state",
            "b__random_state",
        ]
        seeded = _apply(est, plan, 11, 12).get_params()
        ints = _derive_ints(11, len(plan.init_keys))
        assert seeded["a__random_state"] == ints[1]
        assert seeded["a__estimator__random_state"] is None
        assert seeded["b__random_state"] is None
        plan = _plan(DummyClassifier(strategy="stratified"))
        assert plan.init_unused == []
        assert (
            type(
                _apply(DummyClassifier(strategy="stratified"), plan, 1, 2).random_state
            )
            is int
        )

    def test_seed_named_seed_or_random_seed(self):
        # issue 17 item 15: other libraries' seed parameter names
        class A(BaseEstimator):
            def __init__(self, seed=None):
                self.seed = seed

        class B(BaseEstimator):
            def __init__(self, random_seed=0, other=None):
                self.random_seed = random_seed
                self.other = other

        class C(BaseEstimator):  # CatBoost-like: both names, random_state wins
            def __init__(self, random_state=None, random_seed=None):
                self.random_state = random_state
                self.random_seed = random_seed

        plan = _plan(make_pipeline(A(), B(), C()))
        assert plan.init_keys == ["a__seed", "b__random_seed", "c__random_state"]
        assert plan.init_random
        est = _apply(make_pipeline(A(), B(), C()), plan, 5, 6)
        assert type(est.steps[0][1].seed) is int
        assert type(est.steps[1][1].random_seed) is int
        assert est.steps[2][1].random_seed is None
        # a seed given as an object (not an int) is not a seed parameter here
        assert _plan(A(seed="fixed")).init_keys == []

    def test_halving_search(self):
        search = HalvingRandomSearchCV(LogisticRegression(), {"C": [1, 10]})
        plan = _plan(search)
        assert plan.search_keys == ["random_state"]
        assert plan.search_random

    def test_nested_search_in_pipeline(self):
        est = make_pipeline(
            StandardScaler(),
            GridSearchCV(
                RandomForestClassifier(),
                {"max_depth": [1, 2]},
                cv=KFold(3, shuffle=True),
            ),
        )
        plan = _plan(est)
        assert plan.search_prefixes == ["gridsearchcv"]
        assert list(plan.search_cv) == ["gridsearchcv__cv"]
        assert plan.init_keys == ["gridsearchcv__estimator__random_state"]


class TestNoVariation:
    def test_explicit(self):
        plan = _plan(LogisticRegression())
        msgs = _no_variation(
            plan, False, {"split", "init", "search"}, {"split", "init", "search"}
        )
        assert len(msgs) == 3
        assert msgs[0].startswith("'split'")
        assert msgs[1].startswith("'init'")
        assert "not a hyperparameter search" in msgs[2]

    def test_all_is_silent_when_something_varies(self):
        plan = _plan(LogisticRegression())
        assert _no_variation(plan, True, {"split", "init", "search"}, frozenset()) == []
        msgs = _no_variation(plan, False, {"split", "init", "search"}, frozenset())
        assert len(msgs) == 1
        assert "no source of variation" in msgs[0]

    def test_grid_search_with_fixed_folds(self):
        plan = _plan(GridSearchCV(LogisticRegression(), {"C": [1]}, cv=KFold(3)))
        (msg,) = _no_variation(plan, True, {"search"}, {"search"})
        assert "cv=KFold(5, shuffle=True)" in msg


class TestNewDataKFold:
    """Folds for intervals about new data: shuffled, not stratified, every
    test fold holding every class (stratified where that is unlikely)."""

    def _folds(self, y, k=10, seed=0):
        from skperf.model_selection._vary import NewDataKFold

        X = np.zeros((len(y), 1))
        return [test for _, test in NewDataKFold(k, random_state=seed).split(X, y)]

    def test_a_partition_not_stratified_every_class_in_every_fold(self):
        y = np.r_[np.zeros(136, int), np.ones(64, int)]
        folds = self._folds(y)
        np.testing.assert_array_equal(np.sort(np.concatenate(folds)), np.arange(200))
        positives = [int(y[t].sum()) for t in folds]
        assert min(positives) >= 1
        # stratified folds would hold 6 or 7 positives each; random ones vary
        assert max(positives) - min(positives) >= 3
        assert [list(t) for t in folds] == [list(t) for t in self._folds(y)]
        assert [list(t) for t in folds] != [list(t) for t in self._folds(y, seed=1)]

    def test_a_rare_class_gets_stratified_folds(self):
        # 10 positives in 200 rows: a plain fold of 20 misses them with
        # probability 0.35, so the folds are stratified (one positive each)
        y = np.r_[np.zeros(190, int), np.ones(10, int)]
        assert [int(y[t].sum()) for t in self._folds(y)] == [1] * 10

    def test_a_continuous_target_gets_plain_kfold(self):
        from sklearn.model_selection import KFold

        y = np.random.default_rng(0).normal(size=50)
        folds = self._folds(y, k=5, seed=3)
        ref = [t for _, t in KFold(5, shuffle=True, random_state=3).split(y)]
        assert [list(t) for t in folds] == [list(t) for t in ref]
