"""Tests for skperf/model_selection/_noisy_grid.py (Bouthillier et al., App. E.2)."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skperf import RepeatedEvaluator
from skperf.model_selection._noisy_grid import NoisyGridSearchCV, _perturb_grid
from skperf.model_selection._vary import _plan, _seed_params

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
GRID = {
    "ccp_alpha": [0.001, 0.01, 0.1, 1.0],  # log scale, step = one decade
    "min_impurity_decrease": [0.0, 0.05, 0.1],  # linear, step 0.05
    "max_depth": [2, 6, 10],  # integers, step 4
    "criterion": ["gini", "entropy"],  # not numeric: untouched
}


def _draw(seed, grid=GRID, perturbation=0.5, scale="auto"):
    return _perturb_grid(grid, perturbation, scale, np.random.RandomState(seed))


class TestPerturbGrid:
    def test_same_seed_same_grid(self):
        assert _draw(3) == _draw(3)

    def test_differs_per_seed(self):
        grids = [_draw(s) for s in range(10)]
        for name in ("ccp_alpha", "min_impurity_decrease"):
            assert len({tuple(g[name]) for g in grids}) == 10
        assert len({tuple(g["max_depth"]) for g in grids}) > 1
        assert all(g["criterion"] == ["gini", "entropy"] for g in grids)

    @pytest.mark.parametrize("perturbation", [0.1, 0.25, 0.5])
    def test_within_stated_perturbation(self, perturbation, global_random_seed):
        rng = np.random.RandomState(global_random_seed)
        for _ in range(200):
            g = _perturb_grid(GRID, perturbation, "auto", rng)
            # log scale: each value moves by at most p * log(10)
            shift = np.abs(np.log(g["ccp_alpha"]) - np.log(GRID["ccp_alpha"]))
            assert np.all(shift <= perturbation * np.log(10) + 1e-12)
            # evenly spaced in log: still a geometric sequence of 4 values
            ratios = np.diff(np.log(g["ccp_alpha"]))
            np.testing.assert_allclose(ratios, ratios[0])
            # linear scale, step 0.05, clipped at 0 (all given values >= 0)
            shift = np.abs(
                np.subtract(g["min_impurity_decrease"], GRID["min_impurity_decrease"])
            )
            assert np.all(shift <= perturbation * 0.05 + 1e-12)
            assert min(g["min_impurity_decrease"]) >= 0
            # integers: rounded, within p * step + 1/2, never merged here
            # (adjacent values stay at least step / 2 = 2 apart)
            depth = g["max_depth"]
            assert all(isinstance(d, int) for d in depth)
            assert depth == sorted(depth)
            assert len(depth) == 3
            assert np.all(
                np.abs(np.subtract(depth, GRID["max_depth"])) <= perturbation * 4 + 0.5
            )

    def test_bounds_cover_the_half_step(self):
        # the bounds are uniform on [a - step/2, a + step/2] (App. E.2)
        rng = np.random.RandomState(0)
        lows = np.array(
            [_perturb_grid(GRID, 0.5, "auto", rng)["ccp_alpha"][0] for _ in range(2000)]
        )
        w = np.log10(lows) + 3  # shift of the lower bound, in decades
        assert -0.5 <= w.min() < -0.45
        assert 0.45 < w.max() <= 0.5
        # unbiased: the noisy grid covers the grid in expectation
        assert abs(w.mean()) < 3 * (1 / np.sqrt(12)) / np.sqrt(2000)

    def test_expectation_is_the_grid(self):
        rng = np.random.RandomState(1)
        draws = np.array(
            [
                _perturb_grid(GRID, 0.5, "auto", rng)["min_impurity_decrease"]
                for _ in range(4000)
            ]
        )
        # middle value: unclipped, mean of the two bounds' shifts
        se = 0.05 * np.sqrt(2 * (1 / 12)) / 2 / np.sqrt(4000)
        assert abs(draws[:, 1].mean() - 0.05) < 4 * se

    def test_zero_perturbation_is_the_grid(self):
        g = _draw(0, perturbation=0.0)
        assert g["max_depth"] == GRID["max_depth"]
        np.testing.assert_allclose(g["ccp_alpha"], GRID["ccp_alpha"])
        np.testing.assert_allclose(
            g["min_impurity_decrease"], GRID["min_impurity_decrease"], atol=1e-15
        )

    def test_auto_scale(self):
        g = _draw(
            0,
            grid={
                "a": [1, 2, 4, 8],
                "b": [0.1, 10.0],
                "c": [1.0, 2.0],
                "d": [-1.0, 0.0, 1.0],
            },
        )
        assert np.allclose(
            np.diff(np.log(g["a"][:2])), np.diff(np.log(g["a"][1:3])), atol=0.7
        )
        # two positive values with ratio >= 10: log scale keeps them positive
        assert min(g["b"]) > 0
        shift = np.abs(np.log(g["b"]) - np.log([0.1, 10.0]))
        assert np.all(shift <= 0.5 * np.log(100))
        assert np.all(np.abs(np.subtract(g["c"], [1.0, 2.0])) <= 0.5)
        assert np.all(np.abs(np.subtract(g["d"], [-1.0, 0.0, 1.0])) <= 0.5)

    def test_scale_dict_and_none(self):
        g = _draw(0, scale={"ccp_alpha": "none", "max_depth": "linear"})
        assert g["ccp_alpha"] == GRID["ccp_alpha"]
        assert g["min_impurity_decrease"] != GRID["min_impurity_decrease"]

    def test_list_of_grids_and_order(self):
        grid = [{"b": [1.0, 2.0], "a": ["x"]}, {"c": [0.1, 1.0, 10.0]}]
        out = _perturb_grid(grid, 0.5, "auto", np.random.RandomState(0))
        assert isinstance(out, list)
        assert len(out) == 2
        assert list(out[0]) == ["b", "a"]
        assert out[0]["a"] == ["x"]

    def test_rounding_merges_integers(self):
        # uneven integer grid: 1 and 2 may round to the same value
        merged = [_draw(s, grid={"k": [1, 2, 10]})["k"] for s in range(100)]
        assert all(len(k) == len(set(k)) and k == sorted(k) for k in merged)
        assert min(len(k) for k in merged) == 2
        # positive integers stay >= 1 (a depth or a count of 0 is invalid)
        assert min(min(k) for k in merged) == 1

    def test_log_scale_needs_positive_values(self):
        with pytest.raises(
            ValueError,
            match=r"scale='log' needs positive grid values; got \[0.0, 1.0\]",
        ):
            _draw(0, grid={"a": [0.0, 1.0]}, scale="log")

    def test_bad_scale_in_dict(self):
        with pytest.raises(ValueError, match="`scale` for 'a' must be one of"):
            _draw(0, grid={"a": [0.0, 1.0]}, scale={"a": "sqrt"})


class TestNoisyGridSearchCV:
    def test_fit_uses_perturbed_grid(self):
        grid = {"ccp_alpha": [0.001, 0.01, 0.1], "max_depth": [2, 4]}
        search = NoisyGridSearchCV(
            DecisionTreeClassifier(random_state=0),
            grid,
            random_state=0,
            cv=3,
        ).fit(X_IRIS, Y_IRIS)
        assert search.param_grid_ == _perturb_grid(
            grid, 0.5, "auto", np.random.RandomState(0)
        )
        alphas = {p["ccp_alpha"] for p in search.cv_results_["params"]}
        assert alphas == set(search.param_grid_["ccp_alpha"])
        assert search.best_params_["ccp_alpha"] in alphas
        assert search.param_grid == grid  # the given grid is not modified

    def test_same_seed_same_search_other_seed_other_grid(self):
        grid = {"ccp_alpha": [0.001, 0.01, 0.1]}
        base = NoisyGridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=3)
        a = clone(base).set_params(random_state=1).fit(X_IRIS, Y_IRIS)
        b = clone(base).set_params(random_state=1).fit(X_IRIS, Y_IRIS)
        c = clone(base).set_params(random_state=2).fit(X_IRIS, Y_IRIS)
        assert a.param_grid_ == b.param_grid_
        np.testing.assert_array_equal(
            a.cv_results_["mean_test_score"], b.cv_results_["mean_test_score"]
        )
        assert a.param_grid_ != c.param_grid_

    def test_zero_perturbation_equals_grid_search(self):
        grid = {"max_depth": [1, 2, 3], "min_samples_leaf": [1, 5]}
        noisy = NoisyGridSearchCV(
            DecisionTreeClassifier(random_state=0),
            grid,
            perturbation=0,
            cv=3,
            random_state=0,
        ).fit(X_IRIS, Y_IRIS)
        plain = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=3).fit(
            X_IRIS, Y_IRIS
        )
        np.testing.assert_array_equal(
            noisy.cv_results_["mean_test_score"], plain.cv_results_["mean_test_score"]
        )
        assert noisy.best_params_ == plain.best_params_

    def test_pipeline_params(self):
        pipe = make_pipeline(StandardScaler(), DecisionTreeClassifier(random_state=0))
        search = NoisyGridSearchCV(
            pipe,
            {"decisiontreeclassifier__max_depth": [2, 6]},
            cv=3,
            random_state=0,
        ).fit(X_IRIS, Y_IRIS)
        assert len(search.param_grid_["decisiontreeclassifier__max_depth"]) == 2

    def test_get_params_and_clone(self):
        search = NoisyGridSearchCV(
            DecisionTreeClassifier(),
            {"max_depth": [1, 2]},
            perturbation=0.3,
            scale="linear",
            random_state=4,
        )
        params = clone(search).get_params(deep=False)
        assert params["perturbation"] == 0.3
        assert params["scale"] == "linear"
        assert params["random_state"] == 4

    @pytest.mark.parametrize(
        ("params", "match"),
        [
            (
                {"perturbation": -0.1},
                "The 'perturbation' parameter of NoisyGridSearchCV must be",
            ),
            (
                {"perturbation": 0.6},
                "The 'perturbation' parameter of NoisyGridSearchCV must be",
            ),
            ({"scale": "sqrt"}, "The 'scale' parameter of NoisyGridSearchCV must be"),
        ],
    )
    def test_bad_params(self, params, match):
        search = NoisyGridSearchCV(
            DecisionTreeClassifier(), {"max_depth": [1, 2]}, **params
        )
        with pytest.raises(ValueError, match=match):
            search.fit(X_IRIS, Y_IRIS)


class TestNoisyGridInsideEvaluator:
    """With "search" in vary the evaluator re-seeds the noisy grid per repeat."""

    GRID = {"ccp_alpha": [0.001, 0.01, 0.1], "max_depth": [2, 4, 6]}

    def _grids(self, search, ev):
        """The grid each repeat searched, rebuilt from the recorded seeds."""
        plan = _plan(search, Y_IRIS, shuffle_int_cv=True)
        rows = ev.results_.drop_duplicates("repeat")
        return [
            _perturb_grid(
                self.GRID,
                0.5,
                "auto",
                np.random.RandomState(_seed_params(plan, i, s)["random_state"]),
            )
            for i, s in zip(rows["init_seed"], rows["search_seed"], strict=True)
        ]

    @pytest.mark.parametrize(("vary", "n_grids"), [(["search"], 6), (["split"], 1)])
    def test_grid_per_repeat(self, vary, n_grids):
        search = NoisyGridSearchCV(
            DecisionTreeClassifier(random_state=0),
            self.GRID,
            cv=KFold(3, shuffle=True, random_state=0),
        )
        ev = RepeatedEvaluator(
            search, n_repeats=6, vary=vary, random_state=0, refit=False
        ).fit(X_IRIS, Y_IRIS)
        grids = self._grids(search, ev)
        # re-seeded: a different grid every repeat; held: one grid throughout
        assert len({tuple(g["ccp_alpha"]) for g in grids}) == n_grids
        for grid, chosen in zip(grids, ev.results_["best_params"], strict=True):
            # the choice of each repeat comes from that repeat's grid
            assert chosen["ccp_alpha"] in grid["ccp_alpha"]
            assert chosen["max_depth"] in grid["max_depth"]
            # bounds moved by at most half a step: a decade / 2 in log scale,
            # 2 (+ 1/2 for rounding) for the depths
            shift = np.abs(np.log10(grid["ccp_alpha"]) - [-3, -2, -1])
            assert np.all(shift <= 0.5 + 1e-12)
            assert np.all(np.abs(np.subtract(grid["max_depth"], [2, 4, 6])) <= 1.5)
        lows = [g["ccp_alpha"][0] for g in grids]
        highs = [g["ccp_alpha"][-1] for g in grids]
        assert len(set(lows)) == len(set(highs)) == n_grids
