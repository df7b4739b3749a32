"""Tests for skperf/model_selection/_refit.py on real sklearn searches."""

import re

import numpy as np
import pytest
from scipy.stats import beta, binomtest
from sklearn.base import clone
from sklearn.model_selection import (
    GridSearchCV,
    RandomizedSearchCV,
    ShuffleSplit,
)
from sklearn.tree import DecisionTreeClassifier

from skperf.exceptions import DependentObservationsWarning
from skperf.model_selection import (
    OutOfBootstrap,
    quantile_refit,
    simplest_within_best,
)

from .conftest import DEPTHS, X_BC, X_IRIS, Y_BC, Y_IRIS, _split_matrix


class TestQuantileRefit:
    @pytest.mark.parametrize("q", [0.1, 0.5])
    def test_grid_search_matches_hand_computation(self, q):
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": DEPTHS},
            cv=OutOfBootstrap(n_splits=10, random_state=1),
            refit=quantile_refit(q),
        ).fit(X_IRIS, Y_IRIS)
        scores = _split_matrix(search.cv_results_)
        expected = int(np.argmax(np.quantile(scores, q, axis=1)))
        assert search.best_index_ == expected
        assert search.best_params_ == {"max_depth": DEPTHS[expected]}
        assert search.best_estimator_.get_params()["max_depth"] == DEPTHS[expected]
        ref = DecisionTreeClassifier(random_state=0, max_depth=DEPTHS[expected]).fit(
            X_IRIS, Y_IRIS
        )
        np.testing.assert_array_equal(search.predict(X_IRIS), ref.predict(X_IRIS))

    def test_differs_from_mean_choice(self):
        # hand-made cv_results: B has the better mean, A the better low tail
        cv_results = {
            "params": [{"m": "A"}, {"m": "B"}],
            "mean_test_score": np.array([0.80, 0.81]),
            **{
                f"split{i}_test_score": np.array([a, b])
                for i, (a, b) in enumerate(
                    [
                        (0.78, 0.70),
                        (0.79, 0.84),
                        (0.80, 0.84),
                        (0.81, 0.83),
                        (0.82, 0.84),
                    ]
                )
            },
        }
        assert quantile_refit(0.1)(cv_results) == 0
        assert quantile_refit(0.9)(cv_results) == 1

    def test_randomized_search(self):
        search = RandomizedSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"min_samples_leaf": [1, 2, 5, 10, 20, 40]},
            n_iter=4,
            random_state=0,
            cv=OutOfBootstrap(n_splits=8, random_state=0),
            refit=quantile_refit(0.25),
        ).fit(X_IRIS, Y_IRIS)
        scores = _split_matrix(search.cv_results_)
        expected = int(np.argmax(np.quantile(scores, 0.25, axis=1)))
        assert search.best_index_ == expected
        chosen = search.cv_results_["params"][expected]["min_samples_leaf"]
        assert search.best_estimator_.min_samples_leaf == chosen

    def test_multimetric_needs_scoring(self, multi_search):
        search = clone(multi_search).set_params(refit=quantile_refit(0.1))
        with pytest.raises(ValueError, match=re.escape("is multi-metric")):
            search.fit(X_IRIS, Y_IRIS)
        search.set_params(refit=quantile_refit(0.1, scoring="neg_log_loss")).fit(
            X_IRIS, Y_IRIS
        )
        scores = _split_matrix(search.cv_results_, "neg_log_loss")
        assert search.best_index_ == int(np.argmax(np.quantile(scores, 0.1, axis=1)))

    def test_ties_go_to_lowest_index(self):
        cv_results = {
            "params": [{"a": 1}, {"a": 2}, {"a": 3}],
            "mean_test_score": np.zeros(3),
            "split0_test_score": np.array([0.5, 0.9, 0.9]),
            "split1_test_score": np.array([0.5, 0.9, 0.9]),
        }
        assert quantile_refit(0.1)(cv_results) == 1

    @pytest.mark.parametrize("q", [0, 1, 1.5, True])
    def test_bad_q(self, q):
        with pytest.raises(
            ValueError, match=re.escape(f"`q` must be in (0, 1); got {q!r}.")
        ):
            quantile_refit(q)


def _hand_simplest(
    scores,
    params,
    key,
    confidence=0.95,
    excluded=("better", "better, not meaningful"),
):
    """Independent computation: exact sign interval from scipy, own decision rule.

    Wins W, ties T, losses L of the best against each candidate; the bound on
    the side of 1/2 is scipy's Clopper-Pearson bound of W of W + L rescaled by
    (W + L) / n, the other bound at least the Clopper-Pearson bound of
    W + T/2 of n (``skperf.stats._outperform._sign_interval``).
    """
    from skperf.stats import outperform_decision

    means = scores.mean(axis=1)
    best = int(np.argmax(means))
    n = scores.shape[1]
    low, high = np.empty(len(params)), np.empty(len(params))
    for i in range(len(params)):
        w = int((scores[best] > scores[i]).sum())
        t = int((scores[best] == scores[i]).sum())
        m = n - t
        if m == 0:  # every split tied
            low[i], high[i] = beta_ci(n / 2, n, confidence)
            continue
        q = binomtest(w, m).proportion_ci(confidence, method="exact")
        near = 0.5 + (m / n) * (np.array([q.low, q.high]) - 0.5)
        split = beta_ci(w + t / 2, n, confidence)
        low[i] = near[0] if near[0] > 0.5 else min(near[0], split[0])
        high[i] = near[1] if near[1] < 0.5 else max(near[1], split[1])
    decision = outperform_decision(low, high)
    eligible = [
        i for i in range(len(params)) if decision[i] not in excluded or i == best
    ]
    return min(eligible, key=lambda i: (key(params[i]), i)), low, high


def beta_ci(x, n, confidence):
    """Clopper-Pearson bounds for a possibly half-integer count (Beta quantiles)."""
    a = (1 - confidence) / 2
    lo = 0.0 if x <= 0 else beta.ppf(a, x, n - x + 1)
    hi = 1.0 if x >= n else beta.ppf(1 - a, x + 1, n - x)
    return lo, hi


class TestSimplestWithinBest:
    def test_grid_search_matches_hand_computation(self, tree_search):
        search = clone(tree_search).set_params(
            refit=simplest_within_best("max_depth", target="this dataset")
        )
        search.fit(X_IRIS, Y_IRIS)
        scores = _split_matrix(search.cv_results_)
        expected, low, _ = _hand_simplest(
            scores, search.cv_results_["params"], lambda p: p["max_depth"]
        )
        # no candidate sits on the 0.5 boundary, so an independent bootstrap agrees
        assert not np.any(np.isclose(low, 0.5) & (np.arange(5) != 2))
        assert search.best_index_ == expected == 1
        assert search.best_params_ == {"max_depth": 2}
        assert tree_search.best_params_ == {"max_depth": 3}  # the mean picks 3
        ref = DecisionTreeClassifier(random_state=0, max_depth=2).fit(X_IRIS, Y_IRIS)
        np.testing.assert_array_equal(search.predict(X_IRIS), ref.predict(X_IRIS))

    def test_breast_cancer_excludes_significantly_worse(self):
        # depth 2 is significantly worse than depth 4 here: the rule keeps 4
        # (with 20 splits the exact interval cannot tell them apart yet)
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 2, 4, 8]},
            cv=OutOfBootstrap(n_splits=30, random_state=0),
            refit=simplest_within_best("max_depth", target="this dataset"),
        ).fit(X_BC, Y_BC)
        scores = _split_matrix(search.cv_results_)
        expected, _, _ = _hand_simplest(
            scores, search.cv_results_["params"], lambda p: p["max_depth"]
        )
        assert search.best_index_ == expected == 2

    def test_callable_complexity_and_randomized_search(self):
        # larger min_samples_leaf is simpler: the key is its negative
        search = RandomizedSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"min_samples_leaf": [1, 2, 5, 10, 20, 40]},
            n_iter=5,
            random_state=0,
            cv=OutOfBootstrap(n_splits=15, random_state=0),
            refit=simplest_within_best(
                lambda p: -p["min_samples_leaf"], target="this dataset"
            ),
        ).fit(X_IRIS, Y_IRIS)
        params = search.cv_results_["params"]
        scores = _split_matrix(search.cv_results_)
        expected, _, _ = _hand_simplest(
            scores, params, lambda p: -p["min_samples_leaf"]
        )
        assert search.best_index_ == expected
        assert (
            search.best_estimator_.min_samples_leaf
            == params[expected]["min_samples_leaf"]
        )

    def test_exclude_meaningful_keeps_small_losses(self):
        # candidate 0 loses on 130 of 200 splits: P(best > it) = 0.65, with an
        # interval of about [0.58, 0.72]: significant but not meaningful
        rng = np.random.default_rng(0)
        base = rng.normal(0.9, 0.01, 200)
        worse = base - np.r_[np.full(130, 0.01), np.full(70, -0.01)]
        cv_results = {
            "params": [{"k": 0}, {"k": 1}],
            "mean_test_score": np.array([worse.mean(), base.mean()]),
            **{
                f"split{i}_test_score": np.array([worse[i], base[i]])
                for i in range(200)
            },
        }
        strict = simplest_within_best("k", target="this dataset")
        loose = simplest_within_best("k", exclude="meaningful", target="this dataset")
        assert strict(cv_results) == 1
        assert loose(cv_results) == 0

    def test_deterministic_and_ties_by_index(self):
        cv_results = {
            "params": [{"k": 1}, {"k": 0}, {"k": 0}],
            "mean_test_score": np.zeros(3),
            **{
                f"split{i}_test_score": np.array([0.9, 0.9, 0.9]) + 0.01 * i
                for i in range(6)
            },
        }
        refit = simplest_within_best("k", target="this dataset")
        assert [refit(cv_results) for _ in range(3)] == [1, 1, 1]

    def test_multimetric_needs_scoring(self, multi_search):
        search = clone(multi_search).set_params(
            refit=simplest_within_best("max_depth", target="this dataset")
        )
        with pytest.raises(ValueError, match=re.escape("pass `scoring` to choose")):
            search.fit(X_IRIS, Y_IRIS)
        search.set_params(
            refit=simplest_within_best(
                "max_depth", scoring="accuracy", target="this dataset"
            )
        )
        # its cv is one StratifiedKFold(4) run: said (TestOneKFoldRunWarns)
        with pytest.warns(DependentObservationsWarning, match="The 4 folds"):
            search.fit(X_IRIS, Y_IRIS)
        scores = _split_matrix(search.cv_results_, "accuracy")
        expected, _, _ = _hand_simplest(
            scores, search.cv_results_["params"], lambda p: p["max_depth"]
        )
        assert search.best_index_ == expected

    def test_bad_complexity(self):
        with pytest.raises(TypeError, match="`complexity` must be a parameter name"):
            simplest_within_best(3, target="this dataset")
        refit = simplest_within_best("alpha", target="this dataset")
        cv_results = {
            "params": [{"k": 0}, {"k": 1}],
            "mean_test_score": np.zeros(2),
            "split0_test_score": np.array([0.1, 0.2]),
            "split1_test_score": np.array([0.1, 0.2]),
        }
        with pytest.raises(
            ValueError, match=re.escape("`complexity`='alpha' is not a parameter")
        ):
            refit(cv_results)

    def test_bad_arguments(self):
        with pytest.raises(ValueError, match=re.escape("`exclude` must be one of")):
            simplest_within_best("k", exclude="all", target="this dataset")
        # the no-op parameters are gone (issue 16): the choice draws nothing
        for removed in ("n_boot", "random_state"):
            with pytest.raises(
                TypeError, match=f"unexpected keyword argument '{removed}'"
            ):
                simplest_within_best("k", **{removed: 0})
        with pytest.raises(ValueError, match=re.escape("`target` must be one of")):
            simplest_within_best("k", target="train")
        with pytest.raises(ValueError, match="only used with target='new data'"):
            simplest_within_best("k", target="this dataset", cv=5)
        with pytest.raises(ValueError, match="`exclude` must be 'significant'"):
            simplest_within_best("k", exclude="meaningful")


class TestSimplestWithinBestNewData:
    """target="new data" (the default): the all-pairs corrected t family."""

    def test_matches_the_tied_table(self):
        from sklearn.model_selection import RepeatedStratifiedKFold

        from skperf.model_selection import candidates_tied_with_best

        cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=4, random_state=0)
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 2, 4, 8]},
            cv=cv,
            refit=simplest_within_best("max_depth", cv=cv),
        ).fit(X_BC, Y_BC)
        table = candidates_tied_with_best(search)
        tied = [p["max_depth"] for p in table.loc[table["tied_with_best"], "params"]]
        assert search.best_params_ == {"max_depth": min(tied)}
        # depth 1 is significantly worse on new data; depth 2 is not
        assert 1 not in tied
        assert 2 in tied
        assert search.best_params_ == {"max_depth": 2}

    def test_unknown_design_refused_before_fitting(self):
        from sklearn.model_selection import LeavePGroupsOut

        with pytest.raises(ValueError, match="Pass test_train_ratio="):
            simplest_within_best("k", cv=LeavePGroupsOut(2))
        refit = simplest_within_best("k", cv=LeavePGroupsOut(2), test_train_ratio=0.25)
        assert callable(refit)
        # explicit splits: the ratio is measured on them
        from skperf.model_selection._tied import _cv_ratio

        splits = [(np.arange(8), np.arange(8, 10)), (np.arange(2, 10), np.arange(2))]
        assert _cv_ratio(splits)[0] == pytest.approx(2 / 8)

    def test_wrong_cv_is_caught(self, tree_search):
        # tree_search scored 20 out-of-bootstrap splits; cv=None means 5-fold
        search = clone(tree_search).set_params(refit=simplest_within_best("max_depth"))
        with pytest.raises(
            ValueError, match="the search scored 20 splits, but cv=None"
        ):
            search.fit(X_IRIS, Y_IRIS)
        search.set_params(refit=simplest_within_best("max_depth", cv=tree_search.cv))
        search.fit(X_IRIS, Y_IRIS)
        assert search.best_params_ == {"max_depth": 2}


class TestOneKFoldRunWarns:
    """target="this dataset" on one K-fold run: the folds partition the data,
    so they are dependent; simplest_within_best says so as
    candidates_tied_with_best and search_report do (same message, category
    and caller's line)."""

    def _search(self, cv, target="this dataset"):
        return GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": DEPTHS},
            cv=cv,
            refit=simplest_within_best("max_depth", target=target),
        )

    def test_cv5_warns_at_the_callers_line(self):
        from skperf.model_selection import candidates_tied_with_best

        search = self._search(5)
        with pytest.warns(DependentObservationsWarning) as rec:
            search.fit(X_IRIS, Y_IRIS)
        (w,) = rec
        assert w.filename == __file__
        assert str(w.message) == (
            "The 5 folds of one K-fold run are dependent (they partition the "
            "data): the comparisons treat them as independent pairs and are "
            "liberal. Use cv=OutOfBootstrap(n_splits=30) or a "
            "RepeatedStratifiedKFold with many repeats for valid tests."
        )
        # the very message of candidates_tied_with_best on the same search
        with pytest.warns(DependentObservationsWarning) as tied:
            candidates_tied_with_best(search, target="this dataset")
        assert [str(t.message) for t in tied] == [str(w.message)]
        # the warning changes nothing in the choice (the hand computation)
        scores = _split_matrix(search.cv_results_)
        assert scores.shape == (5, 5)
        expected, _, _ = _hand_simplest(
            scores, search.cv_results_["params"], lambda p: p["max_depth"]
        )
        assert search.best_index_ == expected

    def test_searchs_default_cv_warns(self):
        # cv=None is the searches' 5-fold run
        with pytest.warns(DependentObservationsWarning, match="The 5 folds") as rec:
            self._search(None).fit(X_IRIS, Y_IRIS)
        assert rec[0].filename == __file__

    @pytest.mark.parametrize(
        "cv",
        [
            OutOfBootstrap(n_splits=10, random_state=0),
            ShuffleSplit(n_splits=10, test_size=0.2, random_state=0),
        ],
    )
    def test_independent_splits_do_not_warn(self, cv):
        # filterwarnings = error: any warning fails the test
        self._search(cv).fit(X_IRIS, Y_IRIS)

    def test_new_data_does_not_warn(self):
        # the corrected t accounts for the folds' dependence
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": DEPTHS},
            cv=5,
            refit=simplest_within_best("max_depth", cv=5),
        )
        search.fit(X_IRIS, Y_IRIS)

    def test_called_by_hand_does_not_guess(self):
        # on a bare cv_results the design is unknown: no search, no warning
        search = self._search(OutOfBootstrap(n_splits=10, random_state=0))
        search.fit(X_IRIS, Y_IRIS)
        refit = simplest_within_best("max_depth", target="this dataset")
        assert refit(search.cv_results_) == search.best_index_
