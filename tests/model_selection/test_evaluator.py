"""Tests for skperf.model_selection._evaluator."""

import pickle
import re
import time
import warnings

import joblib
import numpy as np
import pandas as pd
import pytest
import sklearn
from scipy import stats
from sklearn.base import BaseEstimator, clone
from sklearn.datasets import load_breast_cancer, load_iris, make_regression
from sklearn.decomposition import PCA
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import (
    FitFailedWarning,
    NotFittedError,
    UnsetMetadataPassedError,
)
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import log_loss
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    GroupShuffleSplit,
    KFold,
    RandomizedSearchCV,
    ShuffleSplit,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skperf import (
    PerformanceDistribution,
    RepeatedEvaluator,
    compare_models,
    repeated_cross_val_score,
    variance_sources,
)
from skperf.exceptions import GroupsIgnoredWarning, NoVariationWarning
from skperf.model_selection import (
    GroupOutOfBootstrap,
    OutOfBootstrap,
    StratifiedOutOfBootstrap,
)
from skperf.model_selection._engine import _outer_cv, _split_id
from skperf.model_selection._evaluator import _fit_evaluators
from skperf.model_selection._seeding import _derive_ints, spawn_seeds
from skperf.utils._naming import _estimator_name
from skperf.utils._testing import (
    FailingClassifier,
    RecordingClassifier,
    SeedSensitiveRegressor,
    SlowClassifier,
    fingerprint_scorer,
)


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    rng = np.random.default_rng(0)
    idx = rng.choice(len(y), 150, replace=False)
    return X[idx], y[idx]


@pytest.fixture(scope="module")
def ids_data():
    rng = np.random.default_rng(0)
    X = np.c_[np.arange(60), rng.normal(size=(60, 2))]
    y = np.r_[np.zeros(30, int), np.ones(30, int)]
    return X, y


#: the columns of ``results_``, one row per fit (the fitting engine's frame)
RESULTS_COLUMNS = [
    "repeat",
    "fold",
    "split_seed",
    "init_seed",
    "search_seed",
    "split_id",
    "n_train",
    "n_test",
    "fit_time",
    "score_time",
    "test_score",
    "error",
]


def _score_cols(ev):
    return ev.results_.filter(
        regex="^(test_|repeat|fold|split_seed|init_seed|search_seed)"
    )


class TestResults:
    def test_columns_and_seeds(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(
            DecisionTreeClassifier(), n_repeats=4, random_state=3
        ).fit(X, y)
        res = ev.results_
        assert list(res.columns) == RESULTS_COLUMNS
        # out-of-bootstrap: n draws with replacement, the out-of-bag rows tested
        assert (res["n_train"] == len(y)).all()
        assert (res["n_test"] > 0).all()
        assert (res["n_test"] < len(y)).all()
        _, seeds = spawn_seeds(3, 4)
        np.testing.assert_array_equal(res["split_seed"], seeds["split"])
        np.testing.assert_array_equal(res["init_seed"], seeds["init"])
        np.testing.assert_array_equal(res["search_seed"], seeds["search"])
        assert ev.random_state_ == 3
        d = ev.distribution_
        assert d.n == 4
        assert d.metric == "score"
        assert d.greater_is_better
        assert d.name == "DecisionTreeClassifier"
        assert d.groups is None
        np.testing.assert_array_equal(d.scores, res["test_score"])
        np.testing.assert_array_equal(d.seeds["init"], seeds["init"])
        assert res["error"].isna().all()

    def test_split_sizes_feed_the_corrected_t(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(
            DecisionTreeClassifier(), cv=5, n_repeats=2, random_state=0
        ).fit(X, y)
        res = ev.results_
        np.testing.assert_array_equal(res["n_test"], np.full(10, 30))
        np.testing.assert_array_equal(res["n_train"], np.full(10, 120))
        x = ev.distribution_.scores
        ci = ev.distribution_.aggregate().mean_ci(
            method="corrected-t", n_train=res["n_train"][::5], n_test=res["n_test"][::5]
        )
        # per repeat means, inflated by (1/2 + 30/120)
        m = x.reshape(2, 5).mean(axis=1)
        half = stats.t.ppf(0.975, 1) * np.sqrt((1 / 2 + 30 / 120) * m.var(ddof=1))
        assert (ci.low, ci.high) == pytest.approx((m.mean() - half, m.mean() + half))
        assert np.all((res["test_score"] > 0.8) & (res["test_score"] <= 1))

    def test_more_repeats_extend(self, iris):
        X, y = iris
        a = RepeatedEvaluator(
            DecisionTreeClassifier(), n_repeats=3, random_state=0
        ).fit(X, y)
        b = RepeatedEvaluator(
            DecisionTreeClassifier(), n_repeats=6, random_state=0
        ).fit(X, y)
        np.testing.assert_array_equal(
            a.results_["test_score"], b.results_["test_score"].iloc[:3]
        )

    def test_random_state_none_reproducible(self, iris):
        X, y = iris
        a = RepeatedEvaluator(DecisionTreeClassifier(), n_repeats=3).fit(X, y)
        b = RepeatedEvaluator(
            DecisionTreeClassifier(), n_repeats=3, random_state=a.random_state_
        ).fit(X, y)
        np.testing.assert_array_equal(
            a.results_["test_score"], b.results_["test_score"]
        )

    def test_generator_random_state(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(
            DecisionTreeClassifier(), n_repeats=3, random_state=np.random.default_rng(1)
        ).fit(X, y)
        again = spawn_seeds(np.random.default_rng(1), 3)
        assert ev.random_state_ == again[0]

    def test_multimetric_and_train_scores(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(
            DecisionTreeClassifier(max_depth=2),
            n_repeats=2,
            cv=3,
            scoring={"acc": "accuracy", "nll": "neg_log_loss"},
            return_train_score=True,
            random_state=0,
        ).fit(X, y)
        res = ev.results_
        for col in ("test_acc", "test_nll", "train_acc", "train_nll"):
            assert col in res
        assert res.shape[0] == 6
        np.testing.assert_array_equal(res["fold"], [0, 1, 2, 0, 1, 2])
        assert ev.distribution_ is ev.distributions_["acc"]
        # neg_log_loss is negated by the scorer: greater is better, as in sklearn
        assert ev.distributions_["nll"].greater_is_better
        assert ev.distributions_["nll"].metric == "nll"
        np.testing.assert_array_equal(ev.distribution_.groups, [0, 0, 0, 1, 1, 1])
        # 3 folds of one repeat partition the data
        assert ev.distribution_.n == 6
        assert (res["train_acc"] >= res["test_acc"] - 0.1).all()

    def test_int_cv_is_stratified_and_seeded(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(
            DummyClassifier(), cv=3, n_repeats=2, vary="split", random_state=0
        ).fit(X, y)
        # stratified folds of a 50/50/50 target: train 33/33/34, test 17/17/16;
        # the prior predicts the 34-class, right on 16 of 50 in every fold
        np.testing.assert_allclose(ev.results_["test_score"], 16 / 50)


class TestVary:
    @pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
    @pytest.mark.parametrize(
        "est",
        [
            make_pipeline(StandardScaler(), MLPClassifier((5,), max_iter=30)),
            RandomForestClassifier(n_estimators=5),
        ],
        ids=["mlp", "forest"],
    )
    def test_init_varies_and_is_held(self, cancer, est):
        X, y = cancer
        kw = {
            "n_repeats": 4,
            "random_state": 0,
            "scoring": "neg_log_loss",
            "refit": False,
        }
        varied = RepeatedEvaluator(est, vary="init", **kw).fit(X, y).results_
        held = RepeatedEvaluator(est, vary=[], **kw).fit(X, y).results_
        split = RepeatedEvaluator(est, vary="split", **kw).fit(X, y).results_
        assert varied["split_seed"].nunique() == 1
        assert varied["init_seed"].nunique() == 4
        assert varied["test_neg_log_loss"].nunique() == 4
        assert held["test_neg_log_loss"].nunique() == 1
        assert split["init_seed"].nunique() == 1
        assert split["split_seed"].nunique() == 4
        # repeat 0 is the same fit under every vary (held seeds are repeat 0's)
        assert varied["test_neg_log_loss"][0] == held["test_neg_log_loss"][0]
        assert split["test_neg_log_loss"][0] == held["test_neg_log_loss"][0]

    def test_init_seeds_reach_estimator(self, ids_data):
        X, y = ids_data
        ev = RepeatedEvaluator(
            RecordingClassifier(),
            n_repeats=3,
            random_state=0,
            scoring=lambda est, X, y: float(est.seed_),
        ).fit(X, y)
        expected = [_derive_ints(s, 1)[0] for s in ev.results_["init_seed"]]
        np.testing.assert_array_equal(ev.results_["test_score"], expected)
        assert ev.estimator_.seed_ == expected[0]  # refit uses the held seed

    def test_random_state_instance_in_estimator_becomes_int(self, ids_data):
        X, y = ids_data
        ev = RepeatedEvaluator(
            RecordingClassifier(random_state=np.random.RandomState(0)),
            n_repeats=3,
            cv=2,
            random_state=np.random.RandomState(1),
            scoring=lambda est, X, y: float(est.seed_),
        ).fit(X, y)
        seeds = ev.results_["test_score"].to_numpy()
        # plain ints, one per repeat, shared by the folds of a repeat
        np.testing.assert_array_equal(seeds[::2], seeds[1::2])
        assert np.unique(seeds).size == 3
        assert type(ev.estimator_.seed_) is int

    def test_no_variation_warnings(self, iris):
        X, y = iris[0][::3], iris[1][::3]
        with pytest.warns(
            NoVariationWarning, match="'init': the estimator has no"
        ) as rec:
            RepeatedEvaluator(
                LogisticRegression(max_iter=500), vary="init", n_repeats=2
            ).fit(X, y)
        assert rec[0].filename == __file__  # points at the user's call
        with pytest.warns(NoVariationWarning, match="'split': the splitter"):
            RepeatedEvaluator(
                DummyClassifier(), cv=KFold(3), vary="split", n_repeats=2
            ).fit(X, y)
        with pytest.warns(NoVariationWarning, match="not a hyperparameter search"):
            RepeatedEvaluator(
                DummyClassifier(), vary=["split", "search"], n_repeats=2
            ).fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            RepeatedEvaluator(LogisticRegression(max_iter=500), n_repeats=2).fit(X, y)

    def test_iterable_cv(self, iris):
        X, y = iris
        splits = list(KFold(3, shuffle=True, random_state=0).split(X))
        with pytest.raises(
            ValueError, match="`vary` includes 'split' but `cv` is a fixed"
        ):
            RepeatedEvaluator(DummyClassifier(), cv=splits, vary="split").fit(X, y)
        with pytest.warns(NoVariationWarning, match="no source of variation"):
            same = RepeatedEvaluator(
                LogisticRegression(max_iter=500), cv=splits[:1], n_repeats=2
            ).fit(X, y)
        assert same.results_["test_score"].nunique() == 1
        ev = RepeatedEvaluator(
            DecisionTreeClassifier(), cv=splits, n_repeats=2, random_state=0
        ).fit(X, y)
        assert ev.results_["split_seed"].nunique() == 1
        ref = cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=splits)
        assert ev.results_.shape[0] == 6
        assert abs(ev.distribution_.mean() - ref.mean()) < 0.1

    def test_iterable_cv_of_boolean_masks_counts_rows(self, iris):
        X, y = iris
        splits = list(KFold(3, shuffle=True, random_state=0).split(X))
        masks = []
        for train, _ in splits:
            mask = np.zeros(len(y), bool)
            mask[train] = True
            masks.append((mask, ~mask))
        kw = {"n_repeats": 2, "random_state": 0, "vary": "init", "refit": False}
        est = DecisionTreeClassifier(max_features=1)
        ev = RepeatedEvaluator(est, cv=masks, return_predictions=True, **kw).fit(X, y)
        ref = RepeatedEvaluator(est, cv=splits, **kw).fit(X, y)
        assert ev.results_["n_train"].tolist() == [100] * 6
        assert ev.results_["n_test"].tolist() == [50] * 6
        pd.testing.assert_frame_equal(
            ev.results_.drop(columns=["fit_time", "score_time"]),
            ref.results_.drop(columns=["fit_time", "score_time"]),
        )
        np.testing.assert_array_equal(ev.predictions_["test_index"][1], splits[1][1])

    def test_generator_cv_shared_by_evaluators_is_read_once(self, iris):
        X, y = iris
        kw = {"n_repeats": 2, "random_state": 0, "vary": "init", "refit": False}
        est = DecisionTreeClassifier(max_features=1)
        ref = RepeatedEvaluator(est, cv=list(KFold(3).split(X)), **kw).fit(X, y)
        gen = KFold(3).split(X)
        evs = {k: RepeatedEvaluator(est, cv=gen, **kw) for k in ("a", "b")}
        _fit_evaluators(evs, X, y)
        for ev in evs.values():
            assert ev.distribution_.n == 6
            np.testing.assert_array_equal(ev.distribution_, ref.distribution_)
        kw = {"n_repeats": 2, "random_state": 0}
        with pytest.raises(ValueError, match=r"gave no \(train, test\) split; an iter"):
            evs["a"].fit(X, y)  # the generator is used up
        table = variance_sources(est, X, y, cv=KFold(3).split(X), **kw)
        ref = variance_sources(est, X, y, cv=list(KFold(3).split(X)), **kw)
        pd.testing.assert_frame_equal(table, ref)
        assert ref.loc["all", "n"] == 2

    def test_splitter_reseeded(self, ids_data):
        X, y = ids_data
        ev = RepeatedEvaluator(
            RecordingClassifier(),
            cv=ShuffleSplit(2, test_size=0.5),
            vary="split",
            n_repeats=3,
            scoring=fingerprint_scorer,
            random_state=0,
        ).fit(X, y)
        assert ev.results_["test_score"].nunique() == 6

    def test_search(self, iris):
        X, y = iris
        search = RandomizedSearchCV(
            DecisionTreeClassifier(),
            {"max_depth": [1, 2, 3, 4], "min_samples_leaf": [1, 5, 10]},
            n_iter=3,
            cv=KFold(3, shuffle=True),
        )
        ev = RepeatedEvaluator(search, vary="search", n_repeats=4, random_state=0).fit(
            X, y
        )
        res = ev.results_
        assert res["search_seed"].nunique() == 4
        assert res["split_seed"].nunique() == 1
        assert all(
            set(p) == {"max_depth", "min_samples_leaf"} for p in res["best_params"]
        )
        assert len({tuple(sorted(p.items())) for p in res["best_params"]}) > 1
        # the refit uses the held (repeat-0) search seed: sampler first, then cv
        sampler, inner = _derive_ints(res["search_seed"][0], 2)
        assert ev.estimator_.random_state == sampler
        assert ev.estimator_.cv.random_state == inner

    def test_all_equals_naming_every_source(self, iris):
        # vary="all" shuffles a search's int inner cv exactly as naming
        # "search" does: same fits, same scores, same chosen params
        X, y = iris
        search = GridSearchCV(
            DecisionTreeClassifier(), {"max_depth": [1, 2, 3, 4]}, cv=3
        )
        kw = {"n_repeats": 4, "random_state": 0}
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            every = RepeatedEvaluator(search, **kw).fit(X, y)
            named = RepeatedEvaluator(
                search, vary=["split", "init", "search"], **kw
            ).fit(X, y)
            split = RepeatedEvaluator(search, vary="split", **kw).fit(X, y)
        assert _score_cols(every).equals(_score_cols(named))
        assert list(every.results_["best_params"]) == list(
            named.results_["best_params"]
        )
        assert every.results_["search_seed"].nunique() == 4
        # refit: the int cv became a shuffled StratifiedKFold seeded by the
        # held (repeat-0) search seed, the same under every vary
        (inner,) = _derive_ints(every.results_["search_seed"][0], 1)
        for ev in (every, named, split):
            cv = ev.estimator_.cv
            assert isinstance(cv, StratifiedKFold)
            assert (cv.n_splits, cv.shuffle, cv.random_state) == (3, True, inner)
        # a held search source is shuffled too: repeat 0 is the same fit
        assert split.results_["search_seed"].nunique() == 1
        assert split.results_["test_score"][0] == every.results_["test_score"][0]

    def test_all_varies_int_inner_cv(self, iris):
        # outer split fixed, deterministic inner model: only the inner folds
        # can move the search's best score, and under "all" they do
        X, y = iris
        search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 9, 25]}, cv=3)
        outer = [next(KFold(3, shuffle=True, random_state=0).split(X))]

        def best_score(est, X, y):
            return est.best_score_

        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no NoVariationWarning either
            ev = RepeatedEvaluator(
                search, cv=outer, n_repeats=5, random_state=0, scoring=best_score
            ).fit(X, y)
        assert ev.results_["test_score"].nunique() == 5
        assert ev.results_["split_seed"].nunique() == 1

    def test_grid_search_unshuffled_splitter_warns(self, iris):
        X, y = iris
        search = GridSearchCV(
            DecisionTreeClassifier(), {"max_depth": [1, 2]}, cv=KFold(3)
        )
        with pytest.warns(
            NoVariationWarning, match=re.escape("pass e.g. cv=KFold(5, shuffle=True)")
        ):
            ev = RepeatedEvaluator(
                search, vary="search", n_repeats=2, random_state=0
            ).fit(X, y)
        assert ev.estimator_.cv.shuffle is False
        assert ev.results_["test_score"].nunique() == 1


class TestFailures:
    @pytest.mark.parametrize("n_jobs", [1, 2])
    def test_some_fail(self, ids_data, n_jobs):
        X, y = ids_data
        _, seeds = spawn_seeds(0, 12)
        fails = np.array([_derive_ints(s, 1)[0] % 3 == 0 for s in seeds["init"]])
        assert 0 < fails.sum() < 10
        msg = f"{fails.sum()} of 12 fits failed and are excluded from the distribution"
        kw = {"n_repeats": 12, "random_state": 0, "refit": False, "n_jobs": n_jobs}
        with pytest.warns(FitFailedWarning, match=msg) as rec:
            ev = RepeatedEvaluator(FailingClassifier(fail=3), **kw).fit(X, y)
        assert len(rec) == 1
        assert rec[0].filename == __file__
        res = ev.results_
        np.testing.assert_array_equal(res["error"].notna(), fails)
        assert (
            res["error"][fails].str.startswith("ValueError: deliberate failure").all()
        )
        assert np.isnan(res["test_score"][fails]).all()
        assert ev.distribution_.n == 12 - fails.sum()
        np.testing.assert_array_equal(
            ev.distribution_.seeds["init"], seeds["init"][~fails]
        )
        # the other repeats lose nothing: their scores are those of a run
        # where no fit fails
        ok = RepeatedEvaluator(FailingClassifier(fail="never"), **kw).fit(X, y)
        ref = ok.results_["test_score"].to_numpy()
        assert np.unique(ref).size > 3
        np.testing.assert_array_equal(ev.distribution_.scores, ref[~fails])

    def test_all_fail(self, ids_data):
        X, y = ids_data
        ev = RepeatedEvaluator(FailingClassifier(), n_repeats=3)
        with pytest.raises(ValueError, match=re.escape("all 3 fits failed")) as exc:
            ev.fit(X, y)
        assert "deliberate failure" in str(exc.value)
        # chained from the real error, and results_ survives for inspection
        assert isinstance(exc.value.__cause__, ValueError)
        assert "deliberate failure" in str(exc.value.__cause__)
        assert ev.results_["error"].str.contains("deliberate failure").all()
        assert not hasattr(ev, "distribution_")

    def test_all_fail_raises_under_a_numeric_error_score(self, ids_data):
        # as cross_val_score: a distribution of error_score only is an error
        X, y = ids_data
        ev = RepeatedEvaluator(FailingClassifier(), n_repeats=3, error_score=0)
        with pytest.raises(ValueError, match=re.escape("all 3 fits failed")):
            ev.fit(X, y)
        assert (ev.results_["test_score"] == 0).all()
        assert not hasattr(ev, "distribution_")

    def test_all_fail_reraises_the_same_type(self, ids_data):
        # every fit raising TypeError is reported as a TypeError (as
        # cross_validate's estimator would raise it), chained from the original
        X, y = ids_data
        X = X.astype(object)
        X[0, 0] = {"foo": "bar"}
        ev = RepeatedEvaluator(LogisticRegression(), n_repeats=3, random_state=0)
        with pytest.raises(TypeError, match="all 3 fits failed") as exc:
            ev.fit(X, y)
        assert type(exc.value.__cause__) is TypeError
        assert len(ev.results_) == 3

    @pytest.mark.parametrize("n_jobs", [1, 2])
    def test_error_score_raise(self, ids_data, n_jobs):
        X, y = ids_data
        with pytest.raises(ValueError, match="deliberate failure"):
            RepeatedEvaluator(
                FailingClassifier(fail=3),
                n_repeats=12,
                random_state=0,
                error_score="raise",
                n_jobs=n_jobs,
            ).fit(X, y)

    def test_error_score_value(self, ids_data):
        X, y = ids_data
        with pytest.warns(FitFailedWarning):
            ev = RepeatedEvaluator(
                FailingClassifier(fail=3),
                n_repeats=12,
                random_state=0,
                error_score=-1.0,
                refit=False,
            ).fit(X, y)
        failed = ev.results_["error"].notna().to_numpy()
        assert 0 < failed.sum() < 12
        assert (ev.results_["test_score"][failed] == -1).all()
        # a numeric error_score stays in the distribution, as in cross_val_score
        assert ev.distribution_.n == 12
        np.testing.assert_array_equal(
            ev.distribution_.scores, ev.results_["test_score"].to_numpy()
        )


class TestParallel:
    def _fit(self, X, y, **kw):
        return RepeatedEvaluator(
            make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=3)),
            cv=2,
            n_repeats=4,
            random_state=0,
            refit=False,
            scoring="neg_log_loss",
            **kw,
        ).fit(X, y)

    def test_n_jobs_and_backends(self, cancer):
        X, y = cancer
        ref = _score_cols(self._fit(X, y, n_jobs=1))
        for n_jobs in (2, -1):
            assert _score_cols(self._fit(X, y, n_jobs=n_jobs)).equals(ref)
        with joblib.parallel_config("threading", n_jobs=2):
            assert _score_cols(self._fit(X, y)).equals(ref)

    def test_dask_processes(self, cancer, dask_processes):
        # estimators, seeds and splits cross a process boundary
        X, y = cancer
        ref = _score_cols(self._fit(X, y, n_jobs=1))
        with dask_processes():
            res = _score_cols(self._fit(X, y))
        assert res.equals(ref)

    def test_progress_bar(self, iris, capsys):
        X, y = iris
        RepeatedEvaluator(
            DummyClassifier(), cv=3, n_repeats=4, progress=True, n_jobs=2, refit=False
        ).fit(X, y)
        err = capsys.readouterr().err
        assert "12/12" in err

    def test_progress_bar_advances_as_fits_finish(self, iris, monkeypatch, capsys):
        # 6 fits of 0.25 s on 2 workers finish in 3 waves; the bar must move
        # after each wave, not jump to 6 at the end
        import skperf.model_selection._engine as mod

        times = []
        make_bar = mod._progress_bar

        def recording_bar():
            bar = make_bar()
            update = bar.update

            def timed_update(n=1, **kw):
                times.append((time.perf_counter(), n))
                return update(n, **kw)

            bar.update = timed_update
            return bar

        monkeypatch.setattr(mod, "_progress_bar", recording_bar)
        X, y = iris
        with joblib.parallel_config("loky", n_jobs=2):
            joblib.Parallel()(joblib.delayed(abs)(i) for i in range(2))  # warm pool
            start = time.perf_counter()
            RepeatedEvaluator(
                SlowClassifier(delay=0.25),
                n_repeats=6,
                n_jobs=2,
                refit=False,
                progress=True,
            ).fit(X, y)
        t = np.array([ti for ti, _ in times]) - start
        assert [n for _, n in times] == [1] * 6  # one step per finished fit
        # first fits are counted while the last wave is still running
        assert t[-1] - t[0] >= 0.4
        assert t[1] <= t[-1] - 0.35
        assert "6/6" in capsys.readouterr().err


class TestPairing:
    def test_same_indices_and_seeds(self, ids_data):
        X, y = ids_data
        kw = {
            "n_repeats": 5,
            "random_state": 4,
            "scoring": fingerprint_scorer,
            "refit": False,
        }
        a = RepeatedEvaluator(RecordingClassifier(), **kw)
        b = RepeatedEvaluator(
            make_pipeline(FunctionTransformer(), RecordingClassifier()), **kw
        )
        a.fit(X, y)
        b.fit(X, y)
        np.testing.assert_array_equal(
            a.results_["test_score"], b.results_["test_score"]
        )
        assert a.results_["test_score"].nunique() == 5
        c = RepeatedEvaluator(RecordingClassifier(), **{**kw, "random_state": 5}).fit(
            X, y
        )
        assert not np.intersect1d(
            c.results_["test_score"], a.results_["test_score"]
        ).size

    def test_int_cv_folds_paired(self, ids_data):
        # several folds per repeat: the same rows in fold f of repeat r for
        # both models, groups = repeat ids, and compare() pairs fold with fold
        X, y = ids_data
        kw = {"n_repeats": 4, "cv": 3, "random_state": 7, "refit": False}
        a = RepeatedEvaluator(RecordingClassifier(), scoring=fingerprint_scorer, **kw)
        b = RepeatedEvaluator(
            make_pipeline(FunctionTransformer(), RecordingClassifier()),
            scoring=fingerprint_scorer,
            **kw,
        )
        a.fit(X, y)
        b.fit(X, y)
        np.testing.assert_array_equal(
            a.results_["test_score"], b.results_["test_score"]
        )
        assert a.results_["test_score"].nunique() == 12  # 12 distinct fits
        for ev in (a, b):
            d = ev.distribution_
            np.testing.assert_array_equal(d.groups, np.repeat(np.arange(4), 3))
            np.testing.assert_array_equal(d.seeds["fold"], np.tile(np.arange(3), 4))
        # two real models on the same folds
        X2, y2 = X[:, 1:], y
        lr = RepeatedEvaluator(LogisticRegression(), **kw).fit(X2, y2)
        dummy = RepeatedEvaluator(DummyClassifier(), **kw).fit(X2, y2)
        np.testing.assert_array_equal(
            lr.distribution_.groups, [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
        )
        for src in ("split", "init", "search", "fold"):
            np.testing.assert_array_equal(
                lr.distribution_.seeds[src], dummy.distribution_.seeds[src]
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # dependent folds, ties
            res = lr.distribution_.compare(dummy.distribution_, random_state=0)
        assert res.paired is True
        other = RepeatedEvaluator(DummyClassifier(), **{**kw, "random_state": 8})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = lr.distribution_.compare(
                other.fit(X2, y2).distribution_, random_state=0
            )
        assert res.paired is False

    def test_fit_evaluators_matches_fit(self, ids_data):
        X, y = ids_data
        kw = {"n_repeats": 3, "random_state": 0, "cv": 2, "scoring": fingerprint_scorer}
        evs = {
            "a": RepeatedEvaluator(RecordingClassifier(), **kw),
            "b": RepeatedEvaluator(
                SeedSensitiveRegressor(), n_repeats=3, random_state=1
            ),
        }
        out = _fit_evaluators(evs, X, y, n_jobs=2)
        assert out is evs
        single_a = clone(evs["a"]).fit(X, y)
        single_b = clone(evs["b"]).fit(X, y)
        assert _score_cols(out["a"]).equals(_score_cols(single_a))
        assert _score_cols(out["b"]).equals(_score_cols(single_b))
        assert hasattr(out["a"], "estimator_")
        assert out["b"].distribution_.n == 3


class TestEstimatorAPI:
    def test_refit_and_delegation(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(
            LogisticRegression(max_iter=500), n_repeats=2, random_state=0
        )
        assert hasattr(ev, "predict_proba")
        assert not hasattr(ev, "transform")
        with pytest.raises(AttributeError):
            ev.classes_  # noqa: B018
        with pytest.raises(AttributeError):
            ev.n_features_in_  # noqa: B018
        ev.fit(X, y)
        ref = LogisticRegression(max_iter=500).fit(X, y)
        np.testing.assert_allclose(ev.predict_proba(X), ref.predict_proba(X))
        np.testing.assert_array_equal(ev.classes_, [0, 1, 2])
        assert ev.n_features_in_ == 4
        assert ev.score(X, y) == pytest.approx(ref.score(X, y))
        assert (
            pickle.loads(pickle.dumps(ev)).predict(X[:5]).tolist()
            == ev.predict(X[:5]).tolist()
        )

    @pytest.mark.parametrize(
        ("est", "present", "absent"),
        [
            (
                LogisticRegression(max_iter=500),
                ["predict", "predict_proba", "predict_log_proba", "decision_function"],
                ["transform"],
            ),
            (
                make_pipeline(StandardScaler(), PCA(2, random_state=0)),
                ["transform"],
                ["predict", "predict_proba", "decision_function"],
            ),
            (Ridge(), ["predict"], ["predict_proba", "decision_function", "transform"]),
        ],
        ids=["classifier", "transformer", "regressor"],
    )
    def test_delegation_matches_refit_estimator(self, iris, est, present, absent):
        # available_if: hasattr is right before and after fit, and every
        # delegated method returns what the refitted estimator returns
        X, y = iris
        ev = RepeatedEvaluator(est, n_repeats=2, random_state=0, vary="split")
        for fitted in (False, True):
            assert all(hasattr(ev, m) for m in present)
            assert not any(hasattr(ev, m) for m in absent)
            if not fitted:
                with pytest.raises(AttributeError):
                    ev.n_features_in_  # noqa: B018
                ev.fit(X, y)
        # refit on all data with the held init seed (repeat 0's)
        ref = clone(est).set_params(
            **{
                k: v
                for k, v in ev.estimator_.get_params().items()
                if k.endswith("random_state")
            }
        )
        ref.fit(X, y)
        for m in present:
            np.testing.assert_allclose(getattr(ev, m)(X), getattr(ref, m)(X))
        assert ev.n_features_in_ == 4
        if hasattr(ref, "classes_"):
            np.testing.assert_array_equal(ev.classes_, [0, 1, 2])
        else:
            with pytest.raises(AttributeError):
                ev.classes_  # noqa: B018
        if "predict" in present:
            assert ev.score(X, y) == pytest.approx(ref.score(X, y))

    def test_score_uses_primary_scorer(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(
            LogisticRegression(max_iter=500),
            scoring=["neg_log_loss", "accuracy"],
            n_repeats=2,
            random_state=0,
        ).fit(X, y)
        assert list(ev.distributions_) == ["neg_log_loss", "accuracy"]
        assert ev.distribution_ is ev.distributions_["neg_log_loss"]
        assert ev.distribution_.greater_is_better
        assert ev.distributions_["accuracy"].greater_is_better
        assert sorted(ev.scorer_) == ["accuracy", "neg_log_loss"]
        ref = LogisticRegression(max_iter=500).fit(X, y)
        assert ev.score(X, y) == pytest.approx(-log_loss(y, ref.predict_proba(X)))
        assert (ev.results_["test_accuracy"] > 0.85).all()

    def test_refit_false(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(DummyClassifier(), n_repeats=2, refit=False).fit(X, y)
        assert not hasattr(ev, "estimator_")
        with pytest.raises(AttributeError):
            ev.n_features_in_  # noqa: B018

    def test_fit_params_routed(self, ids_data):
        X, y = ids_data
        ev = RepeatedEvaluator(
            RecordingClassifier(),
            n_repeats=3,
            random_state=0,
            scoring=lambda est, X, y: float(
                np.array_equal(est.sample_weight_, est.train_ids_)
            ),
        ).fit(X, y, sample_weight=np.arange(60.0))
        np.testing.assert_array_equal(ev.results_["test_score"], 1.0)
        # the refit gets all of it
        np.testing.assert_array_equal(ev.estimator_.sample_weight_, np.arange(60.0))

    def test_metadata_routing(self, ids_data):
        X, y = ids_data
        w = np.arange(60.0)

        def routed(est, X, y):
            est = est.steps[-1][1] if hasattr(est, "steps") else est
            return float(np.array_equal(est.sample_weight_, est.train_ids_))

        kw = {"n_repeats": 3, "random_state": 0, "scoring": routed}
        with sklearn.config_context(enable_metadata_routing=True):
            pipe = make_pipeline(
                FunctionTransformer(),
                RecordingClassifier().set_fit_request(sample_weight=True),
            )
            ev = RepeatedEvaluator(pipe, **kw).fit(X, y, sample_weight=w)
            np.testing.assert_array_equal(ev.results_["test_score"], 1.0)
            np.testing.assert_array_equal(ev.estimator_[-1].sample_weight_, w)
            # not requested: sklearn's routing error, before any fit
            with pytest.raises(UnsetMetadataPassedError, match="sample_weight"):
                RepeatedEvaluator(RecordingClassifier(), **kw).fit(
                    X, y, sample_weight=w
                )
            # a RepeatedEvaluator inside a router: cross_validate routes to it
            out = cross_validate(
                RepeatedEvaluator(
                    RecordingClassifier().set_fit_request(sample_weight=True), **kw
                ),
                X,
                y,
                cv=2,
                params={"sample_weight": w},
                scoring=lambda est, X, y: float(
                    np.array_equal(
                        est.estimator_.sample_weight_, est.estimator_.train_ids_
                    )
                ),
            )
        np.testing.assert_array_equal(out["test_score"], 1.0)

    def test_param_validation(self, iris):
        X, y = iris
        with pytest.raises(
            ValueError,
            match=re.escape(
                "The 'n_repeats' parameter of RepeatedEvaluator must be an int in the range [1, inf). Got 0 instead."
            ),
        ):
            RepeatedEvaluator(DummyClassifier(), n_repeats=0).fit(X, y)
        with pytest.raises(ValueError, match="`vary` must be 'all' or a subset"):
            RepeatedEvaluator(DummyClassifier(), vary=["seed"]).fit(X, y)

    def test_tags(self):
        from sklearn.utils import get_tags

        assert get_tags(RepeatedEvaluator(Ridge())).estimator_type == "regressor"
        assert (
            get_tags(RepeatedEvaluator(LogisticRegression())).estimator_type
            == "classifier"
        )


class TestRepeatedCrossValScore:
    def test_ndarray_code_runs_unchanged(self, iris):
        X, y = iris
        scores = repeated_cross_val_score(
            DecisionTreeClassifier(), X, y, n_repeats=6, random_state=0
        )
        assert isinstance(scores, PerformanceDistribution)
        assert len(scores) == 6
        arr = np.asarray(scores)
        assert np.mean(scores) == pytest.approx(arr.mean())
        assert scores.std() == pytest.approx(arr.std())
        assert scores[0] == arr[0]
        assert list(scores[1:3]) == list(arr[1:3])
        assert list(scores) == list(arr)
        assert f"{scores.mean():.3f}" == f"{arr.mean():.3f}"
        assert np.percentile(scores, 50) == pytest.approx(np.percentile(arr, 50))
        assert 0.8 < scores.mean() <= 1.0

    def test_params_and_regression(self):
        X, y = make_regression(60, 3, noise=5.0, random_state=0)
        scores = repeated_cross_val_score(
            Ridge(),
            X,
            y,
            scoring="neg_mean_squared_error",
            cv=3,
            n_repeats=2,
            random_state=0,
            params={"sample_weight": np.ones(60)},
        )
        assert scores.n == 6
        assert scores.greater_is_better  # negated MSE, as cross_val_score
        np.testing.assert_array_equal(scores.groups, [0, 0, 0, 1, 1, 1])
        assert (scores.scores < 0).all()


class TestUserReview:
    """Regressions found by using skperf as a practitioner would."""

    def test_neg_scorer_is_greater_is_better_and_matches_cross_val_score(self):
        # neg_* scorers return negated losses: larger is better, exactly as
        # cross_val_score's array; flagging them as losses picked the worst
        # model as "best" in compare_models
        X, y = make_regression(60, 3, noise=5.0, random_state=0)
        cv = KFold(3)
        # fixed folds and a deterministic Ridge, but one repeat: nothing that
        # could repeat itself, so no NoVariationWarning
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            d = repeated_cross_val_score(
                Ridge(), X, y, scoring="neg_mean_squared_error", cv=cv, n_repeats=1
            )
        assert d.greater_is_better is True
        np.testing.assert_allclose(
            d.scores,
            cross_val_score(Ridge(), X, y, scoring="neg_mean_squared_error", cv=cv),
        )

    def test_refit_false_says_why_predict_fails(self, iris):
        X, y = iris
        ev = RepeatedEvaluator(
            LogisticRegression(max_iter=500), n_repeats=2, random_state=0, refit=False
        ).fit(X, y)
        msg = (
            "RepeatedEvaluator was fitted with refit=False, so there is no "
            "estimator_ for predict; the scores are in distribution_ and results_. "
            "Set refit=True to fit estimator_ on all the data."
        )
        with pytest.raises(NotFittedError, match=re.escape(msg)):
            ev.predict(X)
        with pytest.raises(NotFittedError, match="estimator_ for score;"):
            ev.score(X, y)
        unfitted = RepeatedEvaluator(LogisticRegression())
        with pytest.raises(NotFittedError, match="is not fitted yet"):
            unfitted.predict(X)

    def test_nothing_varies_message_reads_and_says_what_to_do(self, iris):
        X, y = iris
        with pytest.warns(NoVariationWarning) as rec:
            RepeatedEvaluator(
                LogisticRegression(max_iter=500), cv=KFold(3), n_repeats=2
            ).fit(X, y)
        assert str(rec[0].message) == (
            "LogisticRegression: nothing to vary for any source: no source of "
            "variation has any randomness (the splits are fixed and the estimator "
            "has no random_state that it uses), so every repeat gives the same "
            "scores; pass cv=None (out-of-bootstrap) or a splitter that shuffles."
        )


# ---------------------------------------------------------------------------
# skperf issue 9: no silently wrong number
class _NoMixinClassifier(BaseEstimator):
    """A third-party wrapper: a classifier without sklearn's ClassifierMixin."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y):
        self.estimator_ = clone(self.estimator).fit(X, y)
        self.classes_ = self.estimator_.classes_
        return self

    def predict(self, X):
        return self.estimator_.predict(X)

    def score(self, X, y):
        return float(np.mean(self.predict(X) == y))


@pytest.fixture(scope="module")
def patients():
    """100 patients x 5 near-identical rows, labels pure noise per patient."""
    rng = np.random.RandomState(0)
    groups = np.repeat(np.arange(100), 5)
    X = (rng.randn(100, 4) * 3)[groups] + rng.randn(500, 4) * 0.1
    y = rng.randint(0, 2, 100)[groups]
    return X, y, groups


class TestGroups:
    """Item 1: groups with the default cv draw whole groups."""

    def test_default_cv_draws_groups(self, patients):
        X, y, groups = patients
        knn = KNeighborsClassifier(1)
        d = repeated_cross_val_score(
            knn, X, y, groups=groups, n_repeats=10, random_state=0
        )
        # labels are noise per patient: an honest estimate is chance (0.5);
        # row-wise bootstrap leaks the patient's twin rows into training (0.99)
        assert 0.35 < d.mean() < 0.65
        leaky = repeated_cross_val_score(knn, X, y, n_repeats=10, random_state=0)
        assert leaky.mean() > 0.95
        ev = RepeatedEvaluator(knn, n_repeats=3, random_state=0, refit=False)
        ev.fit(X, y, groups=groups)
        split = list(GroupOutOfBootstrap(1, random_state=0).split(X, y, groups))
        assert split  # whole groups: no patient on both sides of any fit
        for train_id, tr_te in zip(
            ev.results_["split_id"],
            [
                next(GroupOutOfBootstrap(1, random_state=int(s)).split(X, y, groups))
                for s in ev.results_["split_seed"]
            ],
            strict=True,
        ):
            tr, te = tr_te
            assert not set(groups[tr]) & set(groups[te])
            assert train_id == _split_id(tr, te)

    @pytest.mark.parametrize(
        ("cv", "name"),
        [
            (OutOfBootstrap(1), "OutOfBootstrap"),
            (StratifiedOutOfBootstrap(1), "StratifiedOutOfBootstrap"),
            (KFold(5, shuffle=True), "KFold"),
            (StratifiedKFold(5, shuffle=True), "StratifiedKFold"),
            (ShuffleSplit(2), "ShuffleSplit"),
            (5, "StratifiedKFold"),
        ],
    )
    def test_splitter_ignoring_groups_warns(self, patients, cv, name):
        X, y, groups = patients
        with pytest.warns(GroupsIgnoredWarning, match=name) as rec:
            d = repeated_cross_val_score(
                KNeighborsClassifier(1),
                X,
                y,
                groups=groups,
                cv=cv,
                n_repeats=2,
                random_state=0,
            )
        assert len(rec) == 1  # one warning, not sklearn's own per split
        assert rec[0].filename == __file__
        assert "group splitter" in str(rec[0].message)
        assert d.mean() > 0.9  # the optimistic number the warning is about

    def test_group_splitters_do_not_warn(self, patients):
        X, y, groups = patients
        for cv in (GroupOutOfBootstrap(1), GroupShuffleSplit(2)):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                repeated_cross_val_score(
                    KNeighborsClassifier(1),
                    X,
                    y,
                    groups=groups,
                    cv=cv,
                    n_repeats=2,
                    random_state=0,
                )

    def test_iterable_cv_splitting_groups_warns(self, patients):
        X, y, groups = patients
        kw = {"groups": groups, "n_repeats": 2, "random_state": 0, "vary": "init"}
        tree = DecisionTreeClassifier(max_features=1)  # init varies
        leaky = list(KFold(4, shuffle=True, random_state=0).split(X))
        with pytest.warns(GroupsIgnoredWarning, match="4 of the 4 ") as rec:
            d = repeated_cross_val_score(tree, X, y, cv=leaky, **kw)
        assert len(rec) == 1
        assert rec[0].filename == __file__
        assert d.mean() > 0.9  # the optimistic number the warning is about
        honest = list(GroupKFold(4).split(X, y, groups))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            d = repeated_cross_val_score(tree, X, y, cv=honest, **kw)
        assert 0.35 < d.mean() < 0.65

    def test_compare_models_and_variance_sources_draw_groups(self, patients):
        X, y, groups = patients
        models = {"1nn": KNeighborsClassifier(1), "3nn": KNeighborsClassifier(3)}
        report = compare_models(
            models, X, y, groups=groups, n_repeats=10, random_state=0
        )
        for d in report.distributions.values():
            assert 0.35 < d.mean() < 0.65
        # new data (the default): whole groups held out by a shuffled GroupKFold
        assert "GroupKFold" in report.settings["cv"]
        table = variance_sources(
            KNeighborsClassifier(1), X, y, groups=groups, n_repeats=5, random_state=0
        )
        assert 0.3 < table.loc["all", "mean"] < 0.7


class TestPairedSplits:
    """Item 4: pair only identical splits; int cv chosen from y alone."""

    @pytest.mark.filterwarnings(
        "ignore::skperf.exceptions.DependentObservationsWarning"
    )
    def test_int_cv_same_folds_for_any_classifier(self, cancer):
        X, y = cancer
        lr = make_pipeline(StandardScaler(), GaussianNB())
        a = repeated_cross_val_score(lr, X, y, cv=5, n_repeats=4, random_state=0)
        b = repeated_cross_val_score(
            _NoMixinClassifier(lr), X, y, cv=5, n_repeats=4, random_state=0
        )
        np.testing.assert_array_equal(a.seeds["split_id"], b.seeds["split_id"])
        # identical models on identical folds: identical scores, P = 1/2
        np.testing.assert_array_equal(a.scores, b.scores)
        res = a.compare(b)
        assert res.paired
        assert res.estimate == 0.5
        models = {"lr": lr, "wrapped": _NoMixinClassifier(lr)}
        # the wrapper's own `score` is of unknown kind: scoring=None refuses
        with pytest.raises(ValueError, match=r"unknown metric .* for 'wrapped'"):
            compare_models(models, X, y, cv=5, n_repeats=4, random_state=0)
        report = compare_models(
            models,
            X,
            y,
            scoring="accuracy",
            cv=5,
            n_repeats=4,
            random_state=0,
            n_boot=200,
        )
        assert report.comparisons["lr", "wrapped"].paired
        assert report.comparisons["lr", "wrapped"].estimate == 0.5

    @pytest.mark.filterwarnings(
        "ignore::skperf.exceptions.DependentObservationsWarning"
    )
    def test_different_splits_are_not_paired(self, cancer):
        X, y = cancer
        lr = GaussianNB()
        kw = {"n_repeats": 3, "random_state": 0}
        a = repeated_cross_val_score(lr, X, y, cv=KFold(5, shuffle=True), **kw)
        b = repeated_cross_val_score(
            lr, X, y, cv=StratifiedKFold(5, shuffle=True), **kw
        )
        # same seeds, different folds: only split_id tells them apart
        for key in ("split", "init", "search", "fold"):
            np.testing.assert_array_equal(a.seeds[key], b.seeds[key])
        assert not np.any(a.seeds["split_id"] == b.seeds["split_id"])
        assert a.compare(b).paired is False
        with pytest.raises(ValueError, match=r"seeds\['split_id'\] differ"):
            a.compare(b, paired=True)

    def test_out_of_bootstrap_same_splits_for_any_estimator(self, cancer):
        X, y = cancer
        kw = {"n_repeats": 4, "random_state": 1}
        a = repeated_cross_val_score(DecisionTreeClassifier(), X, y, **kw)
        b = repeated_cross_val_score(_NoMixinClassifier(GaussianNB()), X, y, **kw)
        c = repeated_cross_val_score(Ridge(), X, y, scoring="r2", **kw)
        np.testing.assert_array_equal(a.seeds["split_id"], b.seeds["split_id"])
        np.testing.assert_array_equal(a.seeds["split_id"], c.seeds["split_id"])
        # cv=None is never stratified, whatever the estimator
        tr, te = next(OutOfBootstrap(1, random_state=0).split(X, y))
        assert _split_id(tr, te) != _split_id(te, tr)
        assert np.unique(a.seeds["split_id"]).size == 4

    def test_rare_class_int_cv_falls_back_to_kfold(self):
        # StratifiedKFold would warn on a class with fewer members than folds
        X = np.arange(40.0).reshape(-1, 1)
        y = np.r_[np.zeros(37, int), np.ones(3, int)]
        kind, cv = _outer_cv(5, LogisticRegression(), y)
        assert type(cv) is KFold
        kind, cv = _outer_cv(3, Ridge(), y)
        assert type(cv) is StratifiedKFold
        assert kind == "random"
        assert X.shape[0] == y.size


class TestFailedScorers:
    """Item 5: a scorer that fails or returns NaN is a failed fit."""

    @pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
    def test_roc_auc_on_one_class_test_set(self):
        rng = np.random.RandomState(0)
        X = rng.randn(20, 2)
        y = np.r_[np.ones(2, int), np.zeros(18, int)]
        ev = RepeatedEvaluator(
            DummyClassifier(strategy="prior"),
            scoring=["accuracy", "roc_auc"],
            n_repeats=10,
            random_state=0,
            refit=False,
        )
        with pytest.warns(FitFailedWarning, match="fits failed") as rec:
            ev.fit(X, y)
        res = ev.results_
        bad = res["error"].notna().to_numpy()
        assert 0 < bad.sum() < 9
        nan_auc = res["error"].str.contains("non-finite test score").to_numpy()
        assert nan_auc.sum() >= 2
        assert res["error"][nan_auc].str.contains("roc_auc=nan").all()
        assert np.isnan(res["test_roc_auc"][bad]).all()
        # the accuracy of these fits is real and kept in results_ ...
        assert np.isfinite(res["test_accuracy"][nan_auc]).all()
        # ... but the failed fits are out of every distribution (aligned)
        assert ev.distribution_.n == ev.distributions_["roc_auc"].n == 10 - bad.sum()
        (w,) = [w for w in rec if w.category is FitFailedWarning]
        assert f"{bad.sum()} of 10 fits failed" in str(w.message)
        assert w.filename == __file__

    def test_scorer_raising(self, ids_data):
        X, y = ids_data

        def scorer(est, X, y):
            if X[0, 0] % 2 == 0:
                raise RuntimeError("scorer broke")
            return float(np.mean(est.predict(X) == y))

        with pytest.warns(FitFailedWarning, match="RuntimeError: scorer broke"):
            ev = RepeatedEvaluator(
                DummyClassifier(), scoring=scorer, n_repeats=12, random_state=0
            ).fit(X, y)
        bad = ev.results_["error"].notna().to_numpy()
        assert 0 < bad.sum() < 10
        assert ev.distribution_.n == 12 - bad.sum()

    def test_non_finite_score_raises_under_error_score_raise(self, ids_data):
        X, y = ids_data

        def scorer(est, X, y):
            return np.nan

        msg = r"non-finite test score \(score=nan\) on a test set of \d+ rows"
        with pytest.raises(ValueError, match=msg):
            RepeatedEvaluator(
                DummyClassifier(), scoring=scorer, n_repeats=3, error_score="raise"
            ).fit(X, y)

    @pytest.mark.parametrize("error_score", [np.inf, -np.inf])
    def test_infinite_error_score_rejected_before_fitting(self, ids_data, error_score):
        X, y = ids_data
        ev = RepeatedEvaluator(
            FailingClassifier(), n_repeats=3, error_score=error_score
        )
        with pytest.raises(ValueError, match="`error_score` must be 'raise', NaN or"):
            ev.fit(X, y)
        assert not hasattr(ev, "results_")  # nothing was fitted

    def test_results_survive_when_the_distribution_fails(self, ids_data):
        X, y = ids_data
        seeds = spawn_seeds(0, 5)[1]["split"]
        _, test0 = next(OutOfBootstrap(1, random_state=int(seeds[0])).split(X, y))

        def scorer(est, X, y):  # finite on the fit of repeat 0 only
            return 0.5 if np.array_equal(X[:, 0], test0) else np.nan

        ev = RepeatedEvaluator(
            DummyClassifier(), scoring=scorer, n_repeats=5, random_state=0
        )
        with pytest.raises(ValueError, match="only 1 of 5 fits succeeded"):
            ev.fit(X, y)
        assert len(ev.results_) == 5
        np.testing.assert_array_equal(
            ev.results_["error"].notna(), [False, True, True, True, True]
        )
        assert ev.results_["test_score"][0] == 0.5
        assert not hasattr(ev, "distribution_")

    def test_one_evaluator_failing_keeps_the_others(self, ids_data):
        X, y = ids_data
        evs = {
            "ok": RepeatedEvaluator(DummyClassifier(), n_repeats=3, random_state=0),
            "bad": RepeatedEvaluator(FailingClassifier(), n_repeats=3, random_state=0),
        }
        with pytest.raises(ValueError, match="all 3 fits failed"):
            _fit_evaluators(evs, X, y)
        assert evs["ok"].distribution_.n == 3
        assert len(evs["bad"].results_) == 3


class TestErrorScore:
    """Item 6: a numeric error_score stays in the distribution."""

    def test_zero_error_score_in_distribution(self, ids_data):
        X, y = ids_data
        kw = {"n_repeats": 12, "random_state": 0, "refit": False}
        with pytest.warns(FitFailedWarning, match="error_score=0 in the distribution"):
            ev = RepeatedEvaluator(FailingClassifier(fail=3), error_score=0, **kw).fit(
                X, y
            )
        failed = ev.results_["error"].notna().to_numpy()
        assert 0 < failed.sum() < 12
        d = ev.distribution_
        assert d.n == 12
        assert np.sum(d.scores == 0) == failed.sum()
        # cross_val_score semantics: the mean over ALL fits, zeros included
        ok_scores = ev.results_["test_score"][~failed]
        assert d.mean() == pytest.approx(ok_scores.sum() / 12)
        assert d.mean() < ok_scores.mean()

    def test_nan_error_score_excluded_with_count_and_first_error(self, ids_data):
        X, y = ids_data
        with pytest.warns(
            FitFailedWarning,
            match=r"\d+ of 12 fits failed and are excluded .*First error: "
            r"ValueError: deliberate failure",
        ):
            ev = RepeatedEvaluator(
                FailingClassifier(fail=3), n_repeats=12, random_state=0, refit=False
            ).fit(X, y)
        assert ev.distribution_.n == 12 - ev.results_["error"].notna().sum()


class TestValidationAndReraise:
    """Item 7."""

    def test_n_repeats_one_rejected_before_fitting(self, ids_data):
        X, y = ids_data
        # FailingClassifier would give "all 1 fits failed" if it were fitted
        msg = r"`n_repeats`=1 .* gives 1 score; at least 2 scores are needed"
        with pytest.raises(ValueError, match=msg):
            RepeatedEvaluator(FailingClassifier(), n_repeats=1).fit(X, y)
        with pytest.raises(ValueError, match=msg):
            repeated_cross_val_score(FailingClassifier(), X, y, n_repeats=1)

    def test_reraise_type_of_fit_error(self, ids_data):
        X, y = ids_data

        class Broken(DummyClassifier):
            def fit(self, X, y):
                raise KeyError("no such column")

        with pytest.raises(KeyError, match="all 3 fits failed") as exc:
            repeated_cross_val_score(Broken(), X, y, n_repeats=3)
        assert type(exc.value.__cause__) is KeyError


class TestWarningsAndNames:
    """Items 14 and 12."""

    def test_no_variation_warning_points_at_caller(self, iris):
        X, y = iris
        kw = {"cv": KFold(3), "n_repeats": 2, "random_state": 0}
        with pytest.warns(NoVariationWarning) as rec:
            RepeatedEvaluator(KNeighborsClassifier(), **kw).fit(X, y)
        assert [w.filename for w in rec] == [__file__]
        with pytest.warns(NoVariationWarning) as rec:
            repeated_cross_val_score(KNeighborsClassifier(), X, y, **kw)
        assert [w.filename for w in rec] == [__file__]

    def test_fit_failed_warning_points_at_caller(self, ids_data):
        X, y = ids_data
        with pytest.warns(FitFailedWarning) as rec:
            repeated_cross_val_score(
                FailingClassifier(fail=3), X, y, n_repeats=12, random_state=0
            )
        assert [w.filename for w in rec] == [__file__]

    def test_every_fit_warning_points_at_caller(self, ids_data, tmp_path):
        # issue 16: no stack level is threaded through the fitting engine;
        # each warnings.warn walks the frames to the first one outside skperf
        import inspect

        from skperf.model_selection import _engine as _fitting

        X, y = ids_data
        groups = np.arange(len(y)) % 4
        kw = {"cv": KFold(2), "n_repeats": 6, "refit": False}
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            RepeatedEvaluator(
                FailingClassifier(fail=3), error_score=np.nan, random_state=0, **kw
            ).fit(X, y, groups=groups)
            RepeatedEvaluator(DummyClassifier(), memory=tmp_path, n_repeats=2).fit(X, y)
        assert [w.category for w in rec] == [
            GroupsIgnoredWarning,
            FitFailedWarning,
            UserWarning,  # memory= with random_state=None
        ]
        assert [w.filename for w in rec] == [__file__] * 3
        for func in (_fitting.fit_all, _fitting._run, _fitting._Job, _fit_evaluators):
            assert not [p for p in inspect.signature(func).parameters if "stack" in p]

    def test_engine_contract(self, ids_data):
        # skperf.model_selection._engine.fit_all: specs + data -> one per-fit frame per spec;
        # a failing fit is a row with its error, the others are kept, and the
        # engine itself neither warns nor sets attributes (the evaluator does)
        from skperf.model_selection._engine import fit_all

        X, y = ids_data
        specs = [
            RepeatedEvaluator(FailingClassifier(fail=3), n_repeats=6, random_state=0),
            RepeatedEvaluator(DummyClassifier(), n_repeats=6, random_state=0),
        ]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            jobs = fit_all(specs, X, y)
        assert [job.spec for job in jobs] == specs
        a, b = (job.results for job in jobs)
        assert list(a.columns) == RESULTS_COLUMNS
        _, seeds = spawn_seeds(0, 6)
        fails = np.array([_derive_ints(s, 1)[0] % 3 == 0 for s in seeds["init"]])
        np.testing.assert_array_equal(a["error"].notna(), fails)
        assert 0 < fails.sum() < 6
        assert np.isnan(a["test_score"][fails]).all()
        assert np.isfinite(a["test_score"][~fails]).all()
        assert b["error"].isna().all()
        np.testing.assert_array_equal(a["split_id"], b["split_id"])  # paired
        assert not hasattr(specs[0], "results_")

    def test_feature_names_in(self, iris):
        pd = pytest.importorskip("pandas")
        X, y = iris
        df = pd.DataFrame(X, columns=["a", "b", "c", "d"])
        ev = RepeatedEvaluator(KNeighborsClassifier(), n_repeats=2, random_state=0)
        ev.fit(df, y)
        np.testing.assert_array_equal(ev.feature_names_in_, ["a", "b", "c", "d"])
        ev.fit(X, y)
        assert not hasattr(ev, "feature_names_in_")
        assert not hasattr(RepeatedEvaluator(LogisticRegression()), "feature_names_in_")

    def test_readable_names(self, iris):
        X, y = iris
        lr = make_pipeline(StandardScaler(), GaussianNB())
        kw = {"n_repeats": 2, "random_state": 0}
        d = repeated_cross_val_score(lr, X, y, **kw)
        assert d.name == "Pipeline(StandardScaler, GaussianNB)"
        ev = RepeatedEvaluator(lr, refit=False, **kw).fit(X, y)
        assert ev.distribution_.name == d.name
        assert repeated_cross_val_score(lr, X, y, name="lr", **kw).name == "lr"
        named = repeated_cross_val_score(lr, X, y, name="lr", **kw)
        np.testing.assert_array_equal(named.seeds["split_id"], d.seeds["split_id"])
        search = GridSearchCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, cv=2)
        assert _estimator_name(search) == "GridSearchCV(DecisionTreeClassifier)"


# module level: picklable for n_jobs=2 (loky)
class _SeedNamedClassifier(BaseEstimator):
    """Predicts a seeded random class; its seed parameter is named ``seed``."""

    _estimator_type = "classifier"

    def __init__(self, seed=None):
        self.seed = seed

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.fitted_seed_ = self.seed
        return self

    def predict(self, X):
        rng = np.random.default_rng(self.seed)
        return rng.choice(self.classes_, size=len(X))

    def score(self, X, y):
        return float(np.mean(self.predict(X) == y))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        return tags


class TestIssue17Evaluator:
    def test_ridgecv_evaluated_as_given(self):
        # item 5: RidgeCV(cv=None) is an efficient leave-one-out; it was
        # rebuilt with a shuffled 5-fold (another model, another alpha)
        from sklearn.datasets import load_diabetes
        from sklearn.linear_model import RidgeCV

        X, y = load_diabetes(return_X_y=True)
        est = RidgeCV(alphas=np.logspace(-5, 2, 30))
        ev = RepeatedEvaluator(est, n_repeats=6, random_state=0).fit(X, y)
        assert ev.estimator_.cv is None
        assert ev.estimator_.alpha_ == est.fit(X, y).alpha_
        for (_, row), (train, test) in zip(
            ev.results_.iterrows(),
            (
                s
                for seed in ev.results_["split_seed"]
                for s in OutOfBootstrap(1, random_state=int(seed)).split(X)
            ),
            strict=True,
        ):
            ref = clone(est).fit(X[train], y[train]).score(X[test], y[test])
            assert row["test_score"] == pytest.approx(ref, abs=1e-12)

    def test_seed_named_seed_is_seeded(self, cancer):
        # item 15: a `seed` parameter gets the init seeds (and the estimator
        # is not called deterministic)
        X, y = cancer
        with warnings.catch_warnings():
            warnings.simplefilter("error", NoVariationWarning)
            ev = RepeatedEvaluator(
                _SeedNamedClassifier(),
                cv=KFold(3),
                vary="init",
                n_repeats=4,
                random_state=0,
            ).fit(X, y)
        per_repeat = ev.results_.groupby("repeat")["test_score"].mean()
        assert per_repeat.nunique() == 4
        ints = [_derive_ints(s, 1)[0] for s in ev.results_["init_seed"].unique()]
        assert ev.estimator_.seed == ints[0]

    def test_estimator_class_is_a_type_error(self, iris):
        # item 18: the class instead of an instance
        X, y = iris
        with pytest.raises(TypeError, match=r"got the class LogisticRegression\. "):
            RepeatedEvaluator(LogisticRegression).fit(X, y)
        with pytest.raises(TypeError, match=r"Pass DummyClassifier\(\)"):
            repeated_cross_val_score(DummyClassifier, X, y)

    @pytest.mark.parametrize(
        ("est", "scoring", "target", "match"),
        [
            (Ridge(), "accuracy", "reg", r"`scoring`='accuracy' is a classification"),
            (
                LogisticRegression(),
                "roc_auc",
                "iris",
                r"has 3 classes; use 'roc_auc_ovr'",
            ),
            (
                make_pipeline(StandardScaler(), Ridge()),
                ["r2", "roc_auc"],
                "reg",
                r"`scoring`='roc_auc' is a classification",
            ),
            (Ridge(), "neg_log_loss", "reg", r"classification metric"),
        ],
    )
    def test_scorer_of_wrong_kind_fails_before_any_fit(
        self, est, scoring, target, match
    ):
        # item 13: before any fit, one line
        X, y = (
            make_regression(60, 3, random_state=0)
            if target == "reg"
            else load_iris(return_X_y=True)
        )
        start = time.perf_counter()
        with pytest.raises(ValueError, match=match) as info:
            RepeatedEvaluator(
                est, scoring=scoring, n_repeats=200, cv=5, refit=False
            ).fit(X, y)
        assert "\n" not in str(info.value)
        assert "all 1000 fits failed" not in str(info.value)
        assert time.perf_counter() - start < 2  # no 1000 fits

    def test_scorer_needs_missing_response_method(self, iris):
        from sklearn.svm import SVC

        X, y = iris
        y = (y == 0).astype(int)
        with pytest.raises(ValueError, match=r"needs predict_proba"):
            RepeatedEvaluator(
                SVC(probability=False), scoring="neg_log_loss", n_repeats=3
            ).fit(X, y)

    def test_memory_without_random_state_warns(self, iris, tmp_path):
        # item 12: random_state=None never reuses the cache
        X, y = iris
        ev = RepeatedEvaluator(
            DummyClassifier(), n_repeats=2, memory=tmp_path, refit=False
        )
        with pytest.warns(UserWarning, match="no cached fit is ever reused"):
            ev.fit(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            ev.set_params(random_state=0).fit(X, y)

    def test_metadata_routing_weighted_scorer(self, cancer):
        # item 7: a scorer requesting sample_weight gets the test rows'
        # weights, as in cross_validate; unset requests raise as there
        from sklearn.exceptions import UnsetMetadataPassedError
        from sklearn.metrics import accuracy_score, make_scorer

        X, y = cancer
        X = X[:, :5]
        w = np.where(y == 1, 1.0, 5.0)
        with sklearn.config_context(enable_metadata_routing=True):
            sc = make_scorer(accuracy_score).set_score_request(sample_weight=True)
            est = LogisticRegression(max_iter=5000).set_fit_request(sample_weight=False)
            ev = RepeatedEvaluator(
                est, scoring=sc, n_repeats=4, random_state=0, refit=False
            ).fit(X, y, sample_weight=w)
            splits = [
                s
                for seed in ev.results_["split_seed"]
                for s in OutOfBootstrap(1, random_state=int(seed)).split(X)
            ]
            ref = cross_validate(
                est, X, y, scoring=sc, cv=splits, params={"sample_weight": w}
            )["test_score"]
            np.testing.assert_allclose(ev.results_["test_score"], ref, rtol=1e-12)
            unweighted = [
                accuracy_score(y[te], clone(est).fit(X[tr], y[tr]).predict(X[te]))
                for tr, te in splits
            ]
            assert not np.allclose(ref, unweighted)
            d = repeated_cross_val_score(
                est,
                X,
                y,
                scoring=sc,
                n_repeats=4,
                random_state=0,
                params={"sample_weight": w},
            )
            np.testing.assert_allclose(np.asarray(d), ref, rtol=1e-12)
            for call in (
                lambda: cross_validate(
                    LogisticRegression(),
                    X,
                    y,
                    scoring=make_scorer(accuracy_score),
                    params={"sample_weight": w},
                ),
                lambda: RepeatedEvaluator(
                    LogisticRegression(),
                    scoring=make_scorer(accuracy_score),
                    n_repeats=2,
                ).fit(X, y, sample_weight=w),
                lambda: repeated_cross_val_score(
                    LogisticRegression().set_fit_request(sample_weight=True),
                    X,
                    y,
                    scoring=make_scorer(accuracy_score),
                    n_repeats=2,
                    params={"sample_weight": w},
                ),
            ):
                with pytest.raises(UnsetMetadataPassedError):
                    call()


class _SlowFirstFit(BaseEstimator):
    """The first fit in this process takes 1.5 s (a worker starting), the others 0.02 s."""

    _estimator_type = "classifier"
    _started = []

    def fit(self, X, y):
        time.sleep(0.02 if self._started else 1.5)
        self._started.append(1)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])

    def score(self, X, y):
        return float(np.mean(self.predict(X) == y))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        return tags


def test_progress_eta_measured_after_the_first_fit(iris, capsys):
    # issue 17 item 18: the first estimate was 8-14 min for a 22 s job and
    # nothing was printed for seconds; tqdm divided by the time since start
    import re as _re

    import skperf.model_selection._engine as mod

    X, y = iris
    _SlowFirstFit._started.clear()
    shown = []
    make_bar = mod._progress_bar

    def recording():
        bar = make_bar()
        shown.append(time.perf_counter())
        return bar

    mod._progress_bar, saved = recording, mod._progress_bar
    try:
        start = time.perf_counter()
        RepeatedEvaluator(
            _SlowFirstFit(), n_repeats=40, refit=False, progress=True, random_state=0
        ).fit(X, y)
        total = time.perf_counter() - start
    finally:
        mod._progress_bar = saved
    assert shown[0] - start < 1.0  # the bar is up before any fit ends
    err = capsys.readouterr().err
    assert "starting" in err
    left = [
        int(m.group(1)) * 60 + int(m.group(2)) if m.group(2) else int(m.group(3))
        for m in _re.finditer(r"about (?:(\d+):(\d\d)|(\d+) s) left", err)
    ]
    assert left, err
    # tqdm's own first estimate here: 39 fits x 1.5 s = about 58 s
    assert max(left) <= 3, (left, total)


def _recorded_eta(monkeypatch, run):
    """``(records, end)``: per bar update ``(time, n, total, postfix)``, and
    the time the last fit finished."""
    import skperf.model_selection._engine as mod

    records = []
    make_bar = mod._progress_bar

    def recording_bar():
        bar = make_bar()
        update = bar.update

        def timed_update(n=1, **kw):
            out = update(n, **kw)
            records.append(
                (time.perf_counter(), bar.n, bar._bar.total, str(bar._bar.postfix))
            )
            return out

        bar.update = timed_update
        return bar

    monkeypatch.setattr(mod, "_progress_bar", recording_bar)
    run()
    return records, records[-1][0]


def _eta_seconds(postfix):
    m = re.search(r"about (?:(\d+):(\d\d)|(\d+) s) left", postfix)
    if m is None:
        return None
    return int(m.group(1)) * 60 + int(m.group(2)) if m.group(1) else int(m.group(3))


@pytest.mark.filterwarnings("ignore::skperf.exceptions.NoVariationWarning")
def test_progress_eta_counts_the_slow_models_to_come(iris, monkeypatch):
    # issue 29, item 17: three models whose fits take 0.005, 0.04 and 0.15 s;
    # before, the fast model's fits came first (job-major task order) and the
    # bar's rate of fits said "about 0 s left" with about 4 s left. Now the
    # fits are interleaved over the models and the remaining work is counted
    # per model: from 20 % on the estimate is within a factor of 2 of the time
    # actually left (measured: ratio 0.9-1.2 at 20 %, 30 %, 50 %).
    from skperf import compare_models

    X, y = iris
    models = {
        "fast": SlowClassifier(delay=0.005),
        "mid": SlowClassifier(delay=0.04),
        "slow": SlowClassifier(delay=0.15),
    }
    records, end = _recorded_eta(
        monkeypatch,
        lambda: compare_models(
            models,
            X,
            y,
            scoring="accuracy",
            n_repeats=2,
            n_jobs=1,
            random_state=0,
            progress=True,
        ),
    )
    total = records[-1][2]
    assert total == 60
    checked = 0
    for t, n, _, postfix in records:
        if n < 0.2 * total or n > 0.8 * total:
            continue
        eta, actual = _eta_seconds(postfix), end - t
        assert "at most" not in postfix  # a fixed design: the total is exact
        if actual >= 1.0:  # "about N s left" rounds to whole seconds
            assert actual / 2 <= eta <= 2 * actual, (n, postfix, actual)
            checked += 1
    assert checked >= 10


@pytest.mark.filterwarnings("ignore::skperf.exceptions.NoVariationWarning")
def test_progress_eta_of_a_sequential_design_is_a_maximum(iris, monkeypatch):
    # the sequential design may stop before its total: "at most about ... left"
    from skperf import compare_models

    X, y = iris
    models = {"a": SlowClassifier(delay=0.001), "b": SlowClassifier(delay=0.002)}
    records, _ = _recorded_eta(
        monkeypatch,
        lambda: compare_models(
            models, X, y, scoring="accuracy", random_state=0, progress=True
        ),
    )
    shown = [p for *_, p in records if "left" in p]
    assert shown
    assert all(p.startswith("at most about ") for p in shown), shown


def test_interleaved_tasks_take_turns_over_the_models():
    from types import SimpleNamespace

    from skperf.model_selection._engine import _interleaved

    jobs = [
        SimpleNamespace(tasks=[(r, f) for r in range(2) for f in range(2)]),
        SimpleNamespace(tasks=[(r, f) for r in range(2) for f in range(2)]),
        SimpleNamespace(tasks=[(0, 0)]),
    ]
    assert _interleaved(jobs) == [
        (0, 0, 0),
        (1, 0, 0),
        (2, 0, 0),
        (0, 0, 1),
        (1, 0, 1),
        (0, 1, 0),
        (1, 1, 0),
        (0, 1, 1),
        (1, 1, 1),
    ]
    assert _interleaved(jobs, repeats={1}) == [
        (0, 1, 0),
        (1, 1, 0),
        (0, 1, 1),
        (1, 1, 1),
    ]


def test_seed_plan_computed_once_per_comparison(monkeypatch):
    # issue 27: the models of one comparison share one seed plan
    from sklearn.datasets import make_classification
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression

    from skperf import compare_models
    from skperf.model_selection import _engine

    calls = []
    real = _engine.spawn_seeds

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(_engine, "spawn_seeds", counted)
    X, y = make_classification(n_samples=60, random_state=0)
    r = compare_models(
        {
            "a": LogisticRegression(),
            "b": DummyClassifier(),
            "c": LogisticRegression(C=0.1),
        },
        X,
        y,
        n_repeats=2,
        random_state=5,
    )
    assert len(calls) == 1
    seeds = [ev.results_["init_seed"].to_numpy() for ev in r.evaluators.values()]
    np.testing.assert_array_equal(seeds[0], seeds[2])
