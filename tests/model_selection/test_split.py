"""Tests for the out-of-bootstrap splitters."""

import re

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.model_selection import (
    GridSearchCV,
    RandomizedSearchCV,
    cross_val_score,
    cross_validate,
    learning_curve,
    permutation_test_score,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from skperf.model_selection import (
    GroupOutOfBootstrap,
    OutOfBootstrap,
    StratifiedOutOfBootstrap,
)

SPLITTERS = [OutOfBootstrap, StratifiedOutOfBootstrap, GroupOutOfBootstrap]


def _data(n=60, n_classes=3, n_groups=15, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.arange(n) % n_classes
    groups = rng.integers(0, n_groups, size=n)
    groups[:n_groups] = np.arange(n_groups)  # every group present
    return X, y, groups


def _splits(cv, X, y, groups):
    return list(cv.split(X, y, groups))


class TestParameters:
    @pytest.mark.parametrize("cls", SPLITTERS)
    def test_repr_and_n_splits(self, cls):
        cv = cls(5, train_size=0.5, random_state=3)
        assert " ".join(repr(cv).split()) == (
            f"{cls.__name__}(n_splits=5, random_state=3, test_size=None, "
            "train_size=0.5)"
        )
        assert cv.get_n_splits() == 5

    @pytest.mark.parametrize("cls", SPLITTERS)
    @pytest.mark.parametrize("value", [0, -1, 1.5, "a", True])
    def test_bad_n_splits(self, cls, value):
        msg = (
            f"The 'n_splits' parameter of {cls.__name__} must be an int in the "
            f"range [1, inf). Got {value!r} instead."
        )
        with pytest.raises(ValueError, match=re.escape(msg)):
            cls(n_splits=value)

    @pytest.mark.parametrize("cls", SPLITTERS)
    @pytest.mark.parametrize("name", ["train_size", "test_size"])
    @pytest.mark.parametrize("value", [0, 0.0, 1.0, -0.2, "half"])
    def test_bad_sizes(self, cls, name, value):
        msg = (
            f"The '{name}' parameter of {cls.__name__} must be None, an int in the "
            f"range [1, inf) or a float in the range (0.0, 1.0). Got {value!r} "
            "instead."
        )
        with pytest.raises(ValueError, match=re.escape(msg)):
            cls(**{name: value})

    def test_validated_again_at_split(self):
        cv = OutOfBootstrap()
        cv.n_splits = 0
        with pytest.raises(ValueError, match="'n_splits' parameter"):
            next(cv.split(np.zeros((5, 1))))

    def test_test_size_too_large(self):
        with pytest.raises(ValueError, match=re.escape("smaller than n_samples=10")):
            next(OutOfBootstrap(test_size=10).split(np.zeros((10, 1))))

    def test_stratified_needs_y(self):
        cv = StratifiedOutOfBootstrap()
        with pytest.raises(ValueError, match="requires `y`"):
            next(cv.split(np.zeros((10, 1))))
        with pytest.raises(ValueError, match="at least 2 classes"):
            next(cv.split(np.zeros((10, 1)), np.zeros(10)))
        with pytest.raises(ValueError, match=re.escape("class, 1.0, has 1")):
            next(cv.split(np.zeros((10, 1)), np.r_[np.zeros(9), 1]))

    def test_group_needs_groups(self):
        cv = GroupOutOfBootstrap()
        with pytest.raises(ValueError, match=re.escape("requires `groups`; got None")):
            next(cv.split(np.zeros((10, 1))))
        with pytest.raises(ValueError, match=re.escape("at least 2 groups; got 1")):
            next(cv.split(np.zeros((10, 1)), groups=np.zeros(10)))


class TestProperties:
    @pytest.mark.parametrize("cls", SPLITTERS)
    def test_disjoint_and_out_of_bag(self, cls, global_random_seed):
        X, y, groups = _data(seed=global_random_seed)
        for train, test in cls(20, random_state=global_random_seed).split(X, y, groups):
            assert np.intersect1d(train, test).size == 0
            assert test.size > 0
            np.testing.assert_array_equal(test, np.sort(test))
            if cls is GroupOutOfBootstrap:
                assert np.intersect1d(groups[train], groups[test]).size == 0
                # test = every row of every group never drawn
                oob = np.setdiff1d(np.arange(15), groups[train])
                np.testing.assert_array_equal(
                    test, np.flatnonzero(np.isin(groups, oob))
                )
            else:
                # test = every row never drawn (no test_size)
                np.testing.assert_array_equal(test, np.setdiff1d(np.arange(60), train))
                assert train.size == 60

    def test_duplicates_kept(self):
        X = np.zeros((100, 1))
        train, _ = next(OutOfBootstrap(1, random_state=0).split(X))
        assert train.size == 100
        assert np.unique(train).size < 100

    def test_sizes(self):
        X = np.zeros((100, 1))
        for train, test in OutOfBootstrap(
            5, train_size=0.5, test_size=20, random_state=0
        ).split(X):
            assert (train.size, test.size) == (50, 20)
            assert np.intersect1d(train, test).size == 0
        for train, test in OutOfBootstrap(
            5, train_size=30, test_size=0.25, random_state=0
        ).split(X):
            assert (train.size, test.size) == (30, 25)

    def test_stratified_class_counts(self, global_random_seed):
        X, _, _ = _data()
        y = np.r_[np.zeros(40), np.ones(15), np.full(5, 2)].astype(int)
        cv = StratifiedOutOfBootstrap(30, random_state=global_random_seed)
        for train, test in cv.split(X, y):
            np.testing.assert_array_equal(np.bincount(y[train]), [40, 15, 5])
            assert np.unique(y[test]).size >= 2
            np.testing.assert_array_equal(test, np.setdiff1d(np.arange(60), train))
        cv = StratifiedOutOfBootstrap(
            10, train_size=30, test_size=12, random_state=global_random_seed
        )
        for train, test in cv.split(X, y):
            # 1 per class + 27 shared 40:15:5 -> 18, 6.75, 2.25 -> 18, 7, 2
            np.testing.assert_array_equal(np.bincount(y[train]), [19, 8, 3])
            np.testing.assert_array_equal(np.bincount(y[test]), [8, 3, 1])
            assert np.intersect1d(train, test).size == 0

    def test_stratified_train_is_interleaved(self):
        y = np.r_[np.zeros(50), np.ones(50)].astype(int)
        train, _ = next(StratifiedOutOfBootstrap(1, random_state=0).split(y, y))
        # not sorted by class: many class changes along the training order
        assert np.count_nonzero(np.diff(y[train])) > 20

    def test_group_sizes_count_groups(self):
        groups = np.repeat(np.arange(20), 3)
        X = np.zeros((60, 1))
        cv = GroupOutOfBootstrap(10, train_size=10, test_size=0.2, random_state=0)
        for train, test in cv.split(X, groups=groups):
            assert train.size == 30  # 10 groups drawn, 3 rows each
            assert np.unique(groups[test]).size == 4
            assert test.size == 12
            # repeated groups repeat all of their rows
            _, c = np.unique(groups[train], return_counts=True)
            assert np.all(c % 3 == 0)

    @pytest.mark.parametrize("cls", SPLITTERS)
    def test_deterministic(self, cls):
        X, y, groups = _data()
        a = _splits(cls(5, random_state=7), X, y, groups)
        cv = cls(5, random_state=7)
        b, c = _splits(cv, X, y, groups), _splits(cv, X, y, groups)
        for (tr1, te1), (tr2, te2), (tr3, te3) in zip(a, b, c, strict=True):
            np.testing.assert_array_equal(tr1, tr2)
            np.testing.assert_array_equal(tr1, tr3)
            np.testing.assert_array_equal(te1, te2)
            np.testing.assert_array_equal(te1, te3)
        d = _splits(cls(5, random_state=8), X, y, groups)
        assert not np.array_equal(a[0][0], d[0][0])

    def test_random_state_none_is_fresh(self):
        X = np.zeros((50, 1))
        cv = OutOfBootstrap(1)
        a, b = next(cv.split(X))[0], next(cv.split(X))[0]
        assert not np.array_equal(a, b)

    def test_single_split_depends_on_seed_and_n_only(self):
        # the contract RepeatedEvaluator relies on: one split per seed
        X = np.zeros((30, 4))
        train, test = next(OutOfBootstrap(n_splits=1, random_state=123).split(X))
        rng = np.random.RandomState(123)
        expected = rng.randint(0, 30, size=30)
        np.testing.assert_array_equal(train, expected)
        np.testing.assert_array_equal(test, np.setdiff1d(np.arange(30), expected))
        # the first of many splits is the single split
        first = next(OutOfBootstrap(n_splits=50, random_state=123).split(X))
        np.testing.assert_array_equal(first[0], train)

    def test_out_of_bag_fraction(self):
        # E[|test|] / n = (1 - 1/n)^n, 0.3660 for n = 100
        n, n_splits = 100, 2000
        sizes = np.array(
            [
                te.size
                for _, te in OutOfBootstrap(n_splits, random_state=0).split(
                    np.zeros((n, 1))
                )
            ]
        )
        expected = (1 - 1 / n) ** n
        # sd of |test|/n for one split is about 0.048; of the mean 0.0011
        assert abs(sizes.mean() / n - expected) < 0.004
        assert abs(expected - 0.366) < 1e-3


class TestRedraw:
    def test_redraw_tiny_data(self):
        # n = 2: P(empty out-of-bag) = 1/2, redrawn so never yielded
        for train, test in OutOfBootstrap(200, random_state=0).split(np.zeros((2, 1))):
            assert test.size == 1
            np.testing.assert_array_equal(train, [1 - test[0]] * 2)

    def test_error_when_impossible(self):
        msg = "n_samples=3 is too small for OutOfBootstrap"
        cv = OutOfBootstrap(1, train_size=200, random_state=0)
        with pytest.raises(ValueError, match=re.escape(msg)):
            next(cv.split(np.zeros((3, 1))))
        with pytest.raises(ValueError, match="no 2 rows in the out-of-bag"):
            next(
                OutOfBootstrap(1, test_size=2, train_size=20, random_state=0).split(
                    np.zeros((3, 1))
                )
            )

    def test_stratified_single_class_test_redrawn(self):
        # 2 members of class 1: often both drawn -> single-class test set
        y = np.r_[np.zeros(10), np.ones(2)].astype(int)
        tests = [
            te for _, te in StratifiedOutOfBootstrap(100, random_state=0).split(y, y)
        ]
        assert all(np.unique(y[te]).size == 2 for te in tests)
        with pytest.raises(ValueError, match=re.escape("class counts [10, 2]")):
            next(
                StratifiedOutOfBootstrap(1, train_size=200, random_state=0).split(y, y)
            )

    def test_stratified_test_size_too_small(self):
        y = np.r_[np.zeros(10), np.ones(2)].astype(int)
        msg = "test_size=1 gives 1 test rows, shared out as [1, 0] over the classes"
        with pytest.raises(ValueError, match=re.escape(msg)):
            next(StratifiedOutOfBootstrap(1, test_size=1).split(y, y))

    def test_group_error(self):
        groups = np.r_[np.zeros(5), np.ones(5)]
        cv = GroupOutOfBootstrap(1, train_size=300, random_state=0)
        with pytest.raises(ValueError, match=re.escape("n_groups=2 is too small")):
            next(cv.split(np.zeros((10, 1)), groups=groups))


class TestSklearnIntegration:
    @pytest.fixture
    def data(self):
        X, y = make_classification(n_samples=80, n_features=4, random_state=0)
        groups = np.arange(80) // 4
        return X, y, groups

    @pytest.mark.parametrize("cls", SPLITTERS)
    def test_cross_val_score(self, data, cls):
        X, y, groups = data
        a = cross_val_score(
            GaussianNB(), X, y, groups=groups, cv=cls(7, random_state=0)
        )
        b = cross_val_score(
            GaussianNB(), X, y, groups=groups, cv=cls(7, random_state=0)
        )
        assert a.shape == (7,)
        np.testing.assert_array_equal(a, b)
        assert np.all((a > 0.5) & (a <= 1))
        # scores equal a hand loop over the splits
        ref = [
            GaussianNB().fit(X[tr], y[tr]).score(X[te], y[te])
            for tr, te in cls(7, random_state=0).split(X, y, groups)
        ]
        np.testing.assert_allclose(a, ref)

    def test_cross_validate(self, data):
        X, y, _ = data
        res = cross_validate(
            GaussianNB(),
            X,
            y,
            cv=OutOfBootstrap(6, random_state=1),
            return_train_score=True,
            return_indices=True,
        )
        assert res["test_score"].shape == (6,)
        for tr in res["indices"]["train"]:
            assert tr.size == 80
            assert np.unique(tr).size < 80
        assert np.all(res["train_score"] >= 0.5)

    def test_grid_search(self, data):
        X, y, _ = data
        grid = {"max_depth": [1, 2, 3]}
        searches = [
            GridSearchCV(
                DecisionTreeClassifier(random_state=0),
                grid,
                cv=StratifiedOutOfBootstrap(4, random_state=0),
            ).fit(X, y)
            for _ in range(2)
        ]
        r0 = searches[0].cv_results_
        assert [
            k for k in r0 if k.startswith("split") and k.endswith("test_score")
        ] == [f"split{i}_test_score" for i in range(4)]
        np.testing.assert_array_equal(
            r0["mean_test_score"], searches[1].cv_results_["mean_test_score"]
        )
        assert searches[0].best_params_ == searches[1].best_params_

    def test_randomized_search(self, data):
        X, y, _ = data
        dist = {"max_depth": stats.randint(1, 6)}
        res = [
            RandomizedSearchCV(
                DecisionTreeClassifier(random_state=0),
                dist,
                n_iter=3,
                cv=OutOfBootstrap(3, random_state=0),
                random_state=0,
            )
            .fit(X, y)
            .cv_results_
            for _ in range(2)
        ]
        assert res[0]["mean_test_score"].shape == (3,)
        np.testing.assert_array_equal(
            res[0]["mean_test_score"], res[1]["mean_test_score"]
        )

    def test_learning_curve(self, data):
        X, y, _ = data
        sizes, train_scores, test_scores = learning_curve(
            GaussianNB(),
            X,
            y,
            cv=OutOfBootstrap(4, random_state=0),
            train_sizes=[0.25, 0.5, 1.0],
        )
        # fractions of the bootstrap training set (80 draws with replacement)
        np.testing.assert_array_equal(sizes, [20, 40, 80])
        assert test_scores.shape == train_scores.shape == (3, 4)
        again = learning_curve(
            GaussianNB(),
            X,
            y,
            cv=OutOfBootstrap(4, random_state=0),
            train_sizes=[0.25, 0.5, 1.0],
        )[2]
        np.testing.assert_array_equal(test_scores, again)

    def test_permutation_test_score(self, data):
        X, y, _ = data
        runs = [
            permutation_test_score(
                GaussianNB(),
                X,
                y,
                cv=OutOfBootstrap(3, random_state=0),
                n_permutations=9,
                random_state=0,
            )
            for _ in range(2)
        ]
        score, perm_scores, pvalue = runs[0]
        assert perm_scores.shape == (9,)
        assert score == runs[1][0]
        np.testing.assert_array_equal(perm_scores, runs[1][1])
        # informative features: the real score beats every permuted score
        assert pvalue == pytest.approx(0.1)


class TestMetadataRouting:
    """GroupOutOfBootstrap requests ``groups``, as sklearn's group splitters."""

    @pytest.fixture
    def grouped(self):
        X, y = make_classification(60, 4, random_state=0)
        return X, y, np.arange(60) // 3

    def test_cross_validate_routes_groups(self, grouped):
        import sklearn

        X, y, groups = grouped
        cv = GroupOutOfBootstrap(n_splits=3, random_state=0)
        with sklearn.config_context(enable_metadata_routing=True):
            res = cross_validate(GaussianNB(), X, y, cv=cv, params={"groups": groups})
        # the same scores as without routing: the groups reached the splitter
        ref = cross_validate(GaussianNB(), X, y, cv=cv, groups=groups)
        np.testing.assert_array_equal(res["test_score"], ref["test_score"])
        assert cv.get_metadata_routing().split.requests == {"groups": True}

    def test_grid_search_routes_groups(self, grouped):
        import sklearn

        X, y, groups = grouped
        cv = GroupOutOfBootstrap(n_splits=3, random_state=0)
        with sklearn.config_context(enable_metadata_routing=True):
            search = GridSearchCV(
                DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=cv
            ).fit(X, y, groups=groups)
        ref = GridSearchCV(
            DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=cv
        ).fit(X, y, groups=groups)
        np.testing.assert_array_equal(
            search.cv_results_["mean_test_score"], ref.cv_results_["mean_test_score"]
        )


@pytest.mark.parametrize("cls", SPLITTERS)
def test_splits_per_seed_equal_split(cls):
    # performance (issue 17): one RandomState reseeded per seed gives the
    # splits of random_state=seed exactly
    X, y, groups = _data()
    seeds = [3, 4_000_000_000, 3, 17]
    got = cls(2)._splits_per_seed(seeds, X, y, groups)
    assert sorted(got) == [3, 17, 4_000_000_000]
    for seed in seeds:
        expected = _splits(cls(2, random_state=seed), X, y, groups)
        for (tr1, te1), (tr2, te2) in zip(got[seed], expected, strict=True):
            np.testing.assert_array_equal(tr1, tr2)
            np.testing.assert_array_equal(te1, te2)
