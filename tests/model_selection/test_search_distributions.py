"""Tests for skperf/model_selection/_search_distributions.py on real sklearn searches."""

import re
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    RandomizedSearchCV,
    RepeatedStratifiedKFold,
)
from sklearn.tree import DecisionTreeClassifier

from skperf import PerformanceDistribution
from skperf.model_selection import (
    OutOfBootstrap,
    search_distributions,
)

from .conftest import DEPTHS, X_IRIS, Y_IRIS, _bc_search, _split_matrix


class TestSearchDistributions:
    def test_matches_cv_results_exactly(self, tree_search):
        dists = search_distributions(tree_search)
        scores = _split_matrix(tree_search.cv_results_)
        assert list(dists) == [f"max_depth={d}" for d in DEPTHS]
        for i, (key, d) in enumerate(dists.items()):
            assert isinstance(d, PerformanceDistribution)
            np.testing.assert_array_equal(d.scores, scores[i])
            np.testing.assert_array_equal(d.seeds["split"], np.arange(20))
            assert d.name == key
            assert d.greater_is_better is True
            assert d.groups is None  # out-of-bootstrap splits are independent
        assert np.isclose(
            dists["max_depth=3"].mean(), tree_search.cv_results_["mean_test_score"][2]
        )

    def test_randomized_matches_cv_results_exactly(self):
        search = _bc_search(OutOfBootstrap(n_splits=12, random_state=2), "random")
        dists = search_distributions(search)
        scores = _split_matrix(search.cv_results_)
        params = search.cv_results_["params"]
        assert list(dists) == [f"max_depth={p['max_depth']}" for p in params]
        for i, d in enumerate(dists.values()):
            np.testing.assert_array_equal(d.scores, scores[i])
            assert d.mean() == search.cv_results_["mean_test_score"][i]

    def test_paired_across_candidates(self, tree_search):
        dists = search_distributions(tree_search)
        c = dists["max_depth=3"].compare(dists["max_depth=1"], random_state=0)
        assert c.paired is True
        a, b = dists["max_depth=3"].scores, dists["max_depth=1"].scores
        assert c.estimate == pytest.approx(np.mean((a > b) + 0.5 * (a == b)))

    def test_kfold_marks_dependent_folds(self):
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 3]},
            cv=5,
        ).fit(X_IRIS, Y_IRIS)
        d = search_distributions(search)["max_depth=3"]
        np.testing.assert_array_equal(d.groups, np.zeros(5))
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 3]},
            cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0),
        ).fit(X_IRIS, Y_IRIS)
        d = search_distributions(search)["max_depth=3"]
        np.testing.assert_array_equal(d.groups, [0, 0, 0, 1, 1, 1])
        assert d.aggregate().n == 2

    def test_multimetric(self, multi_search):
        # default: the refit metric
        dists = search_distributions(multi_search)
        scores = _split_matrix(multi_search.cv_results_, "accuracy")
        assert len(dists) == 6
        np.testing.assert_array_equal(
            np.vstack([d.scores for d in dists.values()]), scores
        )
        assert next(iter(dists.values())).metric == "accuracy"
        # neg_* scorers already hold negated losses: greater is better
        dists = search_distributions(multi_search, scoring="neg_log_loss")
        scores = _split_matrix(multi_search.cv_results_, "neg_log_loss")
        np.testing.assert_array_equal(
            np.vstack([d.scores for d in dists.values()]), scores
        )
        first = next(iter(dists.values()))
        assert first.metric == "neg_log_loss"
        assert first.greater_is_better is True
        assert np.all(first.scores <= 0)
        assert next(iter(dists)) == "criterion='gini', max_depth=1"

    def test_multimetric_needs_scoring_when_refit_not_a_name(self, multi_search):
        search = clone(multi_search).set_params(refit=lambda r: 0).fit(X_IRIS, Y_IRIS)
        with pytest.raises(ValueError, match=re.escape("pass `scoring` to choose")):
            search_distributions(search)
        with pytest.raises(ValueError, match=re.escape("`scoring` must be one of")):
            search_distributions(search, scoring="f1")

    def test_single_metric_name(self):
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"ccp_alpha": np.array([0.1, 1.0])},
            scoring="balanced_accuracy",
            cv=3,
        ).fit(X_IRIS, Y_IRIS)
        dists = search_distributions(search)
        # numpy scalars print as plain numbers
        assert list(dists) == ["ccp_alpha=0.1", "ccp_alpha=1.0"]
        assert dists["ccp_alpha=0.1"].metric == "balanced_accuracy"

    def test_randomized_duplicates_disambiguated(self):
        search = RandomizedSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 2]},
            n_iter=4,
            cv=3,
            random_state=0,
        )
        with warnings.catch_warnings():
            # sklearn warns that the grid has fewer than n_iter candidates
            warnings.simplefilter("ignore", UserWarning)
            search.fit(X_IRIS, Y_IRIS)
        dists = search_distributions(search)
        assert len(dists) == 2  # sklearn samples a small grid without replacement
        assert sorted(dists) == ["max_depth=1", "max_depth=2"]

    def test_failed_candidates_left_out(self):
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [2, -1]},
            cv=3,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FitFailedWarning)
            warnings.simplefilter("ignore", UserWarning)
            search.fit(X_IRIS, Y_IRIS)
        with pytest.warns(FitFailedWarning, match=re.escape("['max_depth=-1']")):
            dists = search_distributions(search)
        assert list(dists) == ["max_depth=2"]

    def test_unfitted(self):
        with pytest.raises(TypeError, match=re.escape("Call search.fit")):
            search_distributions(GridSearchCV(LogisticRegression(), {"C": [1.0]}))
