"""Tests for skperf/model_selection/_fixed.py on real sklearn searches."""

import numpy as np
import pytest
from scipy.stats import loguniform
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    ParameterSampler,
    RandomizedSearchCV,
)
from sklearn.tree import DecisionTreeClassifier

from skperf import RepeatedEvaluator
from skperf.model_selection import (
    fixed_search,
)
from skperf.model_selection._noisy_grid import NoisyGridSearchCV
from skperf.model_selection._vary import _plan, _seed_params

from .conftest import X_IRIS, Y_IRIS


class _CountingTree(DecisionTreeClassifier):
    n_fits = 0

    def fit(self, X, y, **kwargs):
        type(self).n_fits += 1
        return super().fit(X, y, **kwargs)


class _CountingSearch(GridSearchCV):
    n_fits = 0

    def fit(self, X, y=None, **params):
        type(self).n_fits += 1
        return super().fit(X, y, **params)


class TestFixedSearch:
    def test_search_fitted_once(self):
        _CountingTree.n_fits = _CountingSearch.n_fits = 0
        search = _CountingSearch(
            _CountingTree(random_state=0), {"max_depth": [1, 2, 3]}, cv=3
        )
        est = fixed_search(search, X_IRIS, Y_IRIS)
        assert _CountingSearch.n_fits == 1
        assert _CountingTree.n_fits == 3 * 3 + 1  # candidates x folds + refit
        assert type(est) is _CountingTree
        assert est.get_params()["max_depth"] == search.best_params_["max_depth"]
        assert not hasattr(est, "tree_")
        ev = RepeatedEvaluator(est, n_repeats=4, random_state=0, refit=False).fit(
            X_IRIS, Y_IRIS
        )
        assert _CountingSearch.n_fits == 1  # the search is not re-run
        assert _CountingTree.n_fits == 10 + 4
        assert ev.distribution_.n == 4
        assert "best_params" not in ev.results_

    def test_search_inside_evaluator_reruns_per_repeat(self):
        # the ideal estimator (Bouthillier Sec. 3.2.1): the search re-runs in
        # every repeat and results_ records its choice
        _CountingSearch.n_fits = 0
        search = _CountingSearch(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 2, 3]},
            cv=KFold(3, shuffle=True, random_state=0),
        )
        ev = RepeatedEvaluator(search, n_repeats=4, random_state=0, refit=False).fit(
            X_IRIS, Y_IRIS
        )
        assert _CountingSearch.n_fits == 4
        assert len(ev.results_["best_params"]) == 4
        assert all(set(p) == {"max_depth"} for p in ev.results_["best_params"])

    def test_randomized_search_resampled_per_repeat(self):
        # "search" in vary: each repeat's sampler gets its own seed; the
        # chosen candidate is one of the candidates that seed samples
        search = RandomizedSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"ccp_alpha": loguniform(1e-4, 1e-1)},
            n_iter=3,
            cv=KFold(3, shuffle=True, random_state=0),
        )
        ev = RepeatedEvaluator(
            search, n_repeats=4, vary=["search"], random_state=0, refit=False
        ).fit(X_IRIS, Y_IRIS)
        plan = _plan(search, Y_IRIS, shuffle_int_cv=True)
        rows = ev.results_
        assert len(set(rows["search_seed"])) == 4
        assert len(set(rows["split_seed"])) == 1  # split held
        for i, s, chosen in zip(
            rows["init_seed"], rows["search_seed"], rows["best_params"], strict=True
        ):
            seed = _seed_params(plan, i, s)["random_state"]
            sampled = ParameterSampler(
                search.param_distributions, n_iter=3, random_state=seed
            )
            assert chosen["ccp_alpha"] in [p["ccp_alpha"] for p in sampled]
        assert len({p["ccp_alpha"] for p in rows["best_params"]}) == 4

    def test_noisy_grid_choice_varies_per_repeat(self):
        search = NoisyGridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"ccp_alpha": [0.001, 0.01, 0.1]},
            cv=KFold(3, shuffle=True, random_state=0),
        )
        ev = RepeatedEvaluator(
            search,
            n_repeats=4,
            vary=["search"],
            random_state=0,
            refit=False,
        ).fit(X_IRIS, Y_IRIS)
        chosen = [p["ccp_alpha"] for p in ev.results_["best_params"]]
        assert len(set(chosen)) == 4  # perturbed grids: a different value every repeat
        # log-scale step of one decade, perturbation half a step
        assert all(0.001 / np.sqrt(10) <= c <= 0.1 * np.sqrt(10) for c in chosen)

    def test_multimetric_without_refit(self, multi_search):
        search = clone(multi_search).set_params(refit=False)
        with pytest.raises(ValueError, match="no best_params_"):
            fixed_search(search, X_IRIS, Y_IRIS)

    def test_not_a_search(self):
        with pytest.raises(TypeError, match="must be a hyperparameter search"):
            fixed_search(LogisticRegression(), X_IRIS, Y_IRIS)
