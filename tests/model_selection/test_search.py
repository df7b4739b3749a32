"""Tests for skperf/model_selection/_search.py on real sklearn searches."""

import re
import warnings

import numpy as np
import pytest
from scipy.stats import loguniform, wilcoxon
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    ParameterSampler,
    RandomizedSearchCV,
    RepeatedStratifiedKFold,
    StratifiedKFold,
)
from sklearn.tree import DecisionTreeClassifier
from statsmodels.stats.multitest import multipletests

from skperf import ModelSelectionReport, PerformanceDistribution, RepeatedEvaluator
from skperf._vary import _plan, _seed_params
from skperf.exceptions import DependentObservationsWarning
from skperf.model_selection import OutOfBootstrap
from skperf.model_selection._noisy_grid import NoisyGridSearchCV
from skperf.model_selection._search import (
    candidates_tied_with_best,
    fixed_search,
    quantile_refit,
    search_distributions,
    search_report,
    simplest_within_best,
)

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
X_BC, Y_BC = load_breast_cancer(return_X_y=True)
DEPTHS = [1, 2, 3, 4, 8]


def _split_matrix(cv_results, metric="score"):
    n = sum(k.startswith("split") and k.endswith(f"_test_{metric}") for k in cv_results)
    return np.column_stack([cv_results[f"split{i}_test_{metric}"] for i in range(n)])


@pytest.fixture(scope="module")
def tree_search():
    """Depths 2-8 tie on iris, depth 1 is clearly worse (20 OOB splits)."""
    return GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": DEPTHS},
        cv=OutOfBootstrap(n_splits=20, random_state=0),
    ).fit(X_IRIS, Y_IRIS)


@pytest.fixture(scope="module")
def multi_search():
    return GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3], "criterion": ["gini", "entropy"]},
        scoring=["accuracy", "neg_log_loss"],
        refit="accuracy",
        cv=StratifiedKFold(4, shuffle=True, random_state=0),
    ).fit(X_IRIS, Y_IRIS)


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


class TestCandidatesTiedWithBest:
    def test_hand_computation(self, tree_search):
        table = candidates_tied_with_best(tree_search, correction="holm")
        scores = _split_matrix(tree_search.cv_results_)
        means = scores.mean(axis=1)
        best = int(np.argmax(means))
        assert tree_search.best_index_ == best
        # sorted by decreasing mean
        np.testing.assert_allclose(table["mean"], np.sort(means)[::-1])
        assert table.index[0] == f"max_depth={DEPTHS[best]}"
        assert table["decision"].iloc[0] == "best"
        others = [i for i in range(len(DEPTHS)) if i != best]
        diff = scores[best] - scores[others]
        prob = np.mean((diff > 0) + 0.5 * (diff == 0), axis=1)
        p = np.array([1.0 if not d.any() else wilcoxon(d).pvalue for d in diff])
        p_adj = multipletests(p, method="holm")[1]
        rows = table.loc[[f"max_depth={DEPTHS[i]}" for i in others]]
        np.testing.assert_allclose(rows["prob_best_better"], prob)
        np.testing.assert_allclose(rows["p_value"], p)
        np.testing.assert_allclose(rows["p_adjusted"], p_adj)
        expected_tied = ~((p_adj < 0.05) & (prob > 0.5))
        np.testing.assert_array_equal(rows["tied_with_best"], expected_tied)
        # depth 1 loses on every split: P = 1 with the interval [1, 1]
        assert table.loc[
            "max_depth=1", ["prob_best_better", "low", "high"]
        ].tolist() == [1.0, 1.0, 1.0]
        assert table.loc["max_depth=1", "decision"] == "better"
        assert table["tied_with_best"].tolist() == [True, True, True, True, False]
        rest = table.iloc[1:]
        assert (rest["low"] <= rest["prob_best_better"]).all()
        assert (rest["prob_best_better"] <= rest["high"]).all()
        # the best row compares nothing
        assert (
            table.iloc[0][["prob_best_better", "low", "high", "p_value"]].isna().all()
        )
        assert table["n"].tolist() == [20] * 5

    @pytest.mark.parametrize("correction", ["bonferroni", "fdr_bh", None])
    def test_corrections(self, tree_search, correction):
        table = candidates_tied_with_best(tree_search, correction=correction).iloc[1:]
        method = {"bonferroni": "bonferroni", "fdr_bh": "fdr_bh"}.get(correction)
        expected = (
            table["p_value"]
            if method is None
            else multipletests(table["p_value"], method=method)[1]
        )
        np.testing.assert_allclose(table["p_adjusted"], expected)

    def test_reproducible(self, tree_search):
        a = candidates_tied_with_best(tree_search, random_state=3)
        b = candidates_tied_with_best(tree_search, random_state=3)
        assert a.drop(columns="params").equals(b.drop(columns="params"))

    @pytest.mark.parametrize(
        ("kwargs", "msg"),
        [
            ({"gamma": 0.4}, "`gamma` must be in (0.5, 1); got 0.4."),
            (
                {"confidence": 95},
                "`confidence` must be in (0, 1); got 95. Did you mean 0.95?",
            ),
            ({"correction": "sidak"}, "`correction` must be one of"),
            ({"n_boot": 0}, "`n_boot` must be a positive int; got 0."),
        ],
    )
    def test_bad_arguments(self, tree_search, kwargs, msg):
        with pytest.raises(ValueError, match=re.escape(msg)):
            candidates_tied_with_best(tree_search, **kwargs)


_BC_SEARCHES = {}


def _bc_search(cv, search="grid"):
    """Breast cancer, depths 1-8: some candidates significantly worse (cached)."""
    key = (repr(cv), search)
    if key not in _BC_SEARCHES:
        _BC_SEARCHES[key] = _fit_bc_search(cv, search)
    return _BC_SEARCHES[key]


def _fit_bc_search(cv, search):
    est = DecisionTreeClassifier(random_state=0)
    grid = {"max_depth": [1, 2, 3, 4, 6, 8]}
    if search == "grid":
        return GridSearchCV(est, grid, cv=cv).fit(X_BC, Y_BC)
    return RandomizedSearchCV(
        est, {"max_depth": list(range(1, 11))}, n_iter=6, cv=cv, random_state=0
    ).fit(X_BC, Y_BC)


class TestTiedWithBestKFold:
    def test_repeated_kfold_uses_per_repeat_means(self):
        search = _bc_search(
            RepeatedStratifiedKFold(n_splits=3, n_repeats=8, random_state=0)
        )
        table = candidates_tied_with_best(search)
        scores = _split_matrix(search.cv_results_).reshape(6, 8, 3).mean(axis=2)
        best = int(np.argmax(scores.mean(axis=1)))
        assert table["n"].tolist() == [8] * 6
        rows = table.loc[[k for k in table.index if k != table.index[0]]]
        idx = [search.cv_results_["params"].index(p) for p in rows["params"]]
        diff = scores[best] - scores[idx]
        np.testing.assert_allclose(
            rows["prob_best_better"], np.mean((diff > 0) + 0.5 * (diff == 0), axis=1)
        )
        np.testing.assert_allclose(rows["std"], scores[idx].std(axis=1, ddof=1))
        np.testing.assert_allclose(rows["p_value"], [wilcoxon(d).pvalue for d in diff])

    def test_one_kfold_run_warns(self):
        search = _bc_search(StratifiedKFold(10, shuffle=True, random_state=0))
        with pytest.warns(
            DependentObservationsWarning, match="The 10 folds of one K-fold run"
        ) as rec:
            table = candidates_tied_with_best(search)
        assert rec[0].filename == __file__  # points at the caller
        assert table["n"].tolist() == [10] * 6


class TestSearchReport:
    @pytest.mark.parametrize(
        ("cv", "kind", "n_units"),
        [
            (OutOfBootstrap(n_splits=20, random_state=0), "grid", 20),
            (OutOfBootstrap(n_splits=20, random_state=1), "random", 20),
            (
                RepeatedStratifiedKFold(n_splits=3, n_repeats=8, random_state=0),
                "grid",
                8,
            ),
        ],
    )
    def test_same_tied_set_as_table(self, cv, kind, n_units):
        search = _bc_search(cv, kind)
        table = candidates_tied_with_best(search, correction="holm")
        report = search_report(search, correction="holm")
        assert isinstance(report, ModelSelectionReport)
        assert report.names == list(search_distributions(search))
        assert report.best == table.index[0]
        assert set(report.tied_with_best) == set(table.index[table["tied_with_best"]])
        # not every candidate is tied: the comparison is not vacuous
        assert 1 <= len(report.tied_with_best) < len(report.names)
        rows = table.iloc[1:]
        for name, row in rows.iterrows():
            c = report.comparisons[report.best, name]
            assert c.paired is True
            assert c.n_self == n_units
            assert c.estimate == pytest.approx(row["prob_best_better"])
            assert report.p_values[name] == pytest.approx(row["p_value"])
            assert report.p_adjusted[name] == pytest.approx(row["p_adjusted"])
        assert report.settings["n_splits"] == (24 if n_units == 8 else 20)

    def test_iris_example(self, tree_search):
        report = search_report(tree_search)
        assert report.tied_with_best == [f"max_depth={d}" for d in (2, 3, 4, 8)]
        assert report.best == "max_depth=3"
        assert report.settings["search"] == "GridSearchCV"
        assert report.settings["n_candidates"] == 5

    @pytest.mark.parametrize("correction", ["bonferroni", "fdr_bh", None])
    def test_corrections_agree(self, tree_search, correction):
        table = candidates_tied_with_best(tree_search, correction=correction)
        report = search_report(tree_search, correction=correction)
        assert set(report.tied_with_best) == set(table.index[table["tied_with_best"]])

    def test_one_kfold_run_keeps_folds(self):
        search = _bc_search(StratifiedKFold(10, shuffle=True, random_state=0))
        with pytest.warns(DependentObservationsWarning, match="10 folds") as rec:
            report = search_report(search)
        assert rec[0].filename == __file__
        with pytest.warns(DependentObservationsWarning):
            table = candidates_tied_with_best(search)
        assert all(d.n == 10 for d in report.distributions.values())
        assert set(report.tied_with_best) == set(table.index[table["tied_with_best"]])

    def test_failed_candidate_left_out_of_both(self):
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, -1, 2, 4, 8]},
            cv=OutOfBootstrap(n_splits=20, random_state=0),
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FitFailedWarning)
            warnings.simplefilter("ignore", UserWarning)
            search.fit(X_BC, Y_BC)
        table = candidates_tied_with_best(search)
        with pytest.warns(FitFailedWarning, match=re.escape("['max_depth=-1']")):
            report = search_report(search)
        assert "max_depth=-1" not in report.names
        assert not table.loc["max_depth=-1", "tied_with_best"]
        assert np.isnan(table.loc["max_depth=-1", "p_adjusted"])
        # the correction's family is the 3 working candidates besides the best
        ok = table["p_value"].notna()
        np.testing.assert_allclose(
            table.loc[ok, "p_adjusted"],
            multipletests(table.loc[ok, "p_value"], method="holm")[1],
        )
        assert set(report.tied_with_best) == set(table.index[table["tied_with_best"]])
        for name in report.p_adjusted:
            assert report.p_adjusted[name] == pytest.approx(
                table.loc[name, "p_adjusted"]
            )

    def test_multimetric(self, multi_search):
        with pytest.warns(DependentObservationsWarning, match="4 folds"):
            report = search_report(multi_search, scoring="neg_log_loss")
        assert report.metric == "neg_log_loss"
        with pytest.warns(DependentObservationsWarning, match="4 folds"):
            table = candidates_tied_with_best(multi_search, scoring="neg_log_loss")
        assert report.best == table.index[0]

    def test_unfitted(self):
        with pytest.raises(TypeError, match=re.escape("Call search.fit")):
            search_report(GridSearchCV(LogisticRegression(), {"C": [1.0]}))


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
    n_boot=20000,
    excluded=("better", "better, not meaningful"),
):
    """Independent computation: own paired bootstrap, own decision rule."""
    from skperf.stats import outperform_decision

    means = scores.mean(axis=1)
    best = int(np.argmax(means))
    wins = (scores[best] > scores) + 0.5 * (scores[best] == scores)  # (k, n)
    rng = np.random.default_rng(12345)
    idx = rng.integers(0, scores.shape[1], size=(n_boot, scores.shape[1]))
    boot = wins[:, idx].mean(axis=-1)  # (k, n_boot)
    low, high = np.quantile(boot, [(1 - confidence) / 2, (1 + confidence) / 2], axis=1)
    low, high = np.round(low, 12), np.clip(np.round(high, 12), 0, 1)
    decision = outperform_decision(low, high)
    eligible = [
        i for i in range(len(params)) if decision[i] not in excluded or i == best
    ]
    return min(eligible, key=lambda i: (key(params[i]), i)), low, high


class TestSimplestWithinBest:
    def test_grid_search_matches_hand_computation(self, tree_search):
        search = clone(tree_search).set_params(refit=simplest_within_best("max_depth"))
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
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 2, 4, 8]},
            cv=OutOfBootstrap(n_splits=20, random_state=0),
            refit=simplest_within_best("max_depth"),
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
            refit=simplest_within_best(lambda p: -p["min_samples_leaf"]),
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
        strict = simplest_within_best("k")
        loose = simplest_within_best("k", exclude="meaningful")
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
        refit = simplest_within_best("k")
        assert [refit(cv_results) for _ in range(3)] == [1, 1, 1]

    def test_multimetric_needs_scoring(self, multi_search):
        search = clone(multi_search).set_params(refit=simplest_within_best("max_depth"))
        with pytest.raises(ValueError, match=re.escape("pass `scoring` to choose")):
            search.fit(X_IRIS, Y_IRIS)
        search.set_params(refit=simplest_within_best("max_depth", scoring="accuracy"))
        search.fit(X_IRIS, Y_IRIS)
        scores = _split_matrix(search.cv_results_, "accuracy")
        expected, _, _ = _hand_simplest(
            scores, search.cv_results_["params"], lambda p: p["max_depth"]
        )
        assert search.best_index_ == expected

    def test_bad_complexity(self):
        with pytest.raises(TypeError, match="`complexity` must be a parameter name"):
            simplest_within_best(3)
        refit = simplest_within_best("alpha")
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
            simplest_within_best("k", exclude="all")
        with pytest.raises(TypeError, match=re.escape("`random_state` must be an int")):
            simplest_within_best("k", random_state=None)


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
