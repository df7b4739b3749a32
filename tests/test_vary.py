"""Tests for skperf._vary."""

import re

import numpy as np
import pytest
from scipy.stats import loguniform
from sklearn.calibration import CalibratedClassifierCV
from sklearn.compose import ColumnTransformer
from sklearn.decomposition import PCA
from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression, RidgeCV
from sklearn.model_selection import (
    GridSearchCV,
    HalvingRandomSearchCV,
    KFold,
    RandomizedSearchCV,
    ShuffleSplit,
    StratifiedKFold,
)
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skperf._vary import (
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

    def test_int_cv_of_other_cv_estimators(self):
        # check_cv's choice: a calibrator is a classifier whatever it wraps
        y = np.array([0, 1] * 10)
        est = CalibratedClassifierCV(cv=3)
        cv = _plan(est, y, shuffle_int_cv=True).search_cv["cv"]
        assert isinstance(cv, StratifiedKFold)
        assert (cv.n_splits, cv.shuffle) == (3, True)
        cv = _plan(RidgeCV(cv=4), np.arange(20.0), shuffle_int_cv=True).search_cv["cv"]
        assert type(cv) is KFold
        assert (cv.n_splits, cv.shuffle) == (4, True)
        # prefit / string cv values are left alone
        assert (
            _plan(CalibratedClassifierCV(cv="prefit"), y, shuffle_int_cv=True).search_cv
            == {}
        )

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
