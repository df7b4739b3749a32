"""RepeatedEvaluator(memory=...): cache, resume and extend, with fit counts.

Fits are counted by a module-level estimator that appends a line to a file
at every ``fit`` (loky and dask workers are separate processes).
"""

import os

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import SGDClassifier
from sklearn.model_selection import KFold

from skperf import RepeatedEvaluator, compare_models, variance_sources
from skperf.model_selection._cache import _FOLDER


class Interrupted(Exception):
    """Stands for a run killed in the middle (raised with error_score='raise')."""


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """An SGD classifier that logs every fit to ``log``.

    With ``fail_flag`` naming an existing file, the fit raises
    :class:`Interrupted` once ``fail_after`` fits have been logged.
    """

    def __init__(
        self, log=None, alpha=1e-4, random_state=None, fail_flag=None, fail_after=0
    ):
        self.log = log
        self.alpha = alpha
        self.random_state = random_state
        self.fail_flag = fail_flag
        self.fail_after = fail_after

    def fit(self, X, y):
        with open(self.log, "a") as f:
            f.write(f"{self.random_state}\n")
        if self.fail_flag is not None and os.path.exists(self.fail_flag):
            if _count(self.log) > self.fail_after:
                raise Interrupted("killed")
        self.model_ = SGDClassifier(
            alpha=self.alpha, random_state=self.random_state, max_iter=20, tol=None
        ).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)

    def decision_function(self, X):
        return self.model_.decision_function(X)


def _count(log):
    if not os.path.exists(log):
        return 0
    with open(log) as f:
        return sum(1 for _ in f)


class Counter:
    def __init__(self, path):
        self.path = str(path)
        self.seen = 0

    def new(self):
        """Fits logged since the last call."""
        total = _count(self.path)
        n, self.seen = total - self.seen, total
        return n


def _n_stored(location):
    folder = os.path.join(location, "joblib", _FOLDER)
    if not os.path.isdir(folder):
        return 0
    return sum(
        os.path.exists(os.path.join(folder, d, "output.pkl"))
        for d in os.listdir(folder)
    )


def _scores(ev):
    return ev.results_.drop(columns=["cached"])


@pytest.fixture
def data():
    return make_classification(n_samples=150, n_features=5, random_state=0)


@pytest.fixture
def setup(tmp_path):
    counter = Counter(tmp_path / "fits.log")
    return counter, CountingClassifier(log=counter.path), str(tmp_path / "cache")


def _ev(est, memory, n_repeats=4, **kw):
    kw = {"cv": 3, "random_state": 0, "refit": False, **kw}
    return RepeatedEvaluator(est, n_repeats=n_repeats, memory=memory, **kw)


class TestResume:
    def test_first_run_then_fully_cached(self, data, setup):
        X, y = data
        counter, est, cache = setup
        first = _ev(est, cache).fit(X, y)
        assert counter.new() == 12
        assert not first.results_["cached"].any()
        assert _n_stored(cache) == 12
        again = _ev(est, cache).fit(X, y)
        assert counter.new() == 0
        assert again.results_["cached"].all()
        # identical results, fit times included (they are the stored ones)
        pd.testing.assert_frame_equal(_scores(first), _scores(again))
        # and identical to an uncached run, apart from the times
        plain = _ev(est, None).fit(X, y)
        assert counter.new() == 12
        assert "cached" not in plain.results_
        cols = ["repeat", "fold", "split_seed", "init_seed", "test_score", "error"]
        pd.testing.assert_frame_equal(plain.results_[cols], again.results_[cols])
        assert np.array_equal(
            np.asarray(plain.distribution_), np.asarray(again.distribution_)
        )
        assert plain.distribution_.seeds.keys() == again.distribution_.seeds.keys()

    def test_extend_10_to_30_fits_only_new_repeats(self, data, setup):
        X, y = data
        counter, est, cache = setup
        ten = _ev(est, cache, n_repeats=10, cv=2).fit(X, y)
        assert counter.new() == 20
        thirty = _ev(est, cache, n_repeats=30, cv=2).fit(X, y)
        assert counter.new() == 40  # the 20 new repeats x 2 folds
        cached = thirty.results_["cached"].to_numpy()
        assert cached[:20].all()
        assert not cached[20:].any()
        pd.testing.assert_frame_equal(
            _scores(thirty).iloc[:20].reset_index(drop=True), _scores(ten)
        )
        plain = _ev(est, None, n_repeats=30, cv=2).fit(X, y)
        assert np.array_equal(
            np.asarray(plain.distribution_), np.asarray(thirty.distribution_)
        )

    def test_interrupted_parallel_run_resumes(self, data, setup, tmp_path):
        X, y = data
        counter, _, cache = setup
        flag = tmp_path / "fail"
        flag.touch()
        est = CountingClassifier(log=counter.path, fail_flag=str(flag), fail_after=10)
        kw = {"n_repeats": 10, "error_score": "raise", "n_jobs": 2}
        with pytest.raises(Exception, match="killed"):
            _ev(est, cache, **kw).fit(X, y)
        started = counter.new()
        stored = _n_stored(cache)
        # fits that finished are stored, the failing one is not; how many
        # others were in flight (joblib pre-dispatches) depends on timing, so
        # the count is bounded, and the rerun below must fit exactly the rest
        assert started >= 11
        assert 1 <= stored <= started - 1 < 30
        flag.unlink()
        resumed = _ev(est, cache, **kw).fit(X, y)
        assert counter.new() == 30 - stored  # only the missing fits
        assert int(resumed.results_["cached"].sum()) == stored
        plain = _ev(est, None, n_repeats=10, error_score="raise").fit(X, y)
        assert counter.new() == 30
        assert np.array_equal(
            np.asarray(plain.distribution_), np.asarray(resumed.distribution_)
        )

    @pytest.mark.parametrize(
        "change",
        [
            "param",
            "data",
            "target",
            "scoring",
            "random_state",
            "cv",
            "return_predictions",
        ],
    )
    def test_a_change_in_the_key_fits_anew(self, data, setup, change):
        X, y = data
        counter, est, cache = setup
        _ev(est, cache).fit(X, y)
        assert counter.new() == 12
        kw = {}
        if change == "param":
            est = est.set_params(alpha=1e-3)
        elif change == "data":
            X = X.copy()
            X[0, 0] += 1e-9
        elif change == "target":
            y = y.copy()
            y[:2] = 1 - y[:2]
        elif change == "scoring":
            kw["scoring"] = "accuracy"
        elif change == "random_state":
            kw["random_state"] = 1
        elif change == "cv":
            kw["cv"] = 2
        else:
            kw["return_predictions"] = True
        ev = _ev(est, cache, **kw).fit(X, y)
        n = 8 if change == "cv" else 12
        assert counter.new() == n
        assert not ev.results_["cached"].any()
        # and that new evaluation is now cached too
        _ev(est, cache, **kw).fit(X, y)
        assert counter.new() == 0

    def test_other_splits_with_the_same_seeds_fit_anew(self, data, setup):
        # the split enters the key by its indices (split_id), not its seed
        X, y = data
        counter, est, cache = setup
        plain = list(KFold(3).split(X))
        shuffled = list(KFold(3, shuffle=True, random_state=1).split(X))
        a = _ev(est, cache, cv=plain).fit(X, y)
        assert counter.new() == 12
        b = _ev(est, cache, cv=shuffled).fit(X, y)
        assert counter.new() == 12
        assert (a.results_["init_seed"] == b.results_["init_seed"]).all()
        assert (a.results_["split_id"] != b.results_["split_id"]).all()
        _ev(est, cache, cv=shuffled).fit(X, y)
        _ev(est, cache, cv=plain).fit(X, y)
        assert counter.new() == 0

    def test_no_memory_fits_every_time(self, data, setup):
        X, y = data
        counter, est, _ = setup
        _ev(est, None).fit(X, y)
        _ev(est, None).fit(X, y)
        _ev(est, joblib.Memory(None)).fit(X, y)
        assert counter.new() == 36

    def test_joblib_memory_object_and_clear(self, data, setup):
        X, y = data
        counter, est, cache = setup
        memory = joblib.Memory(cache, verbose=0)
        _ev(est, memory).fit(X, y)
        _ev(est, cache).fit(X, y)  # the same folder as a path
        assert counter.new() == 12
        memory.clear(warn=False)
        _ev(est, memory).fit(X, y)
        assert counter.new() == 12

    def test_bad_memory(self, data):
        X, y = data
        with pytest.raises((TypeError, ValueError), match="memory"):
            RepeatedEvaluator(SGDClassifier(), memory=3).fit(X, y)

    def test_unpicklable_scorer_is_a_clear_error(self, data, setup):
        X, y = data
        _, est, cache = setup

        def local_scorer(est, X, y):
            return est.score(X, y)

        with pytest.raises(TypeError, match="memory: the scoring must be picklable"):
            _ev(est, cache, scoring=local_scorer).fit(X, y)
        _ev(est, None, scoring=local_scorer).fit(X, y)  # fine without memory

    def test_failed_fits_are_not_cached_a_rerun_refits_only_them(
        self, data, setup, tmp_path
    ):
        # one engine, one failure rule: the cache holds the fits that
        # succeeded; a failure (maybe of the environment) is fitted anew
        X, y = data
        counter, _, cache = setup
        flag = tmp_path / "fail"
        flag.touch()
        est = CountingClassifier(log=counter.path, fail_flag=str(flag), fail_after=11)
        with pytest.warns(Warning, match="failed"):
            first = _ev(est, cache).fit(X, y)
        assert counter.new() == 12
        assert first.results_["error"].notna().sum() == 1
        flag.unlink()  # the failure is gone: only the failed fit runs again
        again = _ev(est, cache).fit(X, y)
        assert counter.new() == 1
        assert again.results_["error"].isna().all()
        ok = first.results_["error"].isna().to_numpy()
        np.testing.assert_array_equal(
            np.asarray(first.distribution_), np.asarray(again.distribution_)[ok]
        )
        _ev(est, cache).fit(X, y)  # now every fit is cached
        assert counter.new() == 0

    def test_predictions_are_cached(self, data, setup):
        X, y = data
        counter, est, cache = setup
        first = _ev(est, cache, return_predictions=True).fit(X, y)
        again = _ev(est, cache, return_predictions=True).fit(X, y)
        assert counter.new() == 12
        for col in ("test_index", "y_pred", "y_score"):
            for a, b in zip(
                first.predictions_[col], again.predictions_[col], strict=True
            ):
                assert np.array_equal(a, b)
                assert a.dtype == b.dtype


def test_data_hashed_once_per_fit_call(data, setup, monkeypatch):
    import skperf.model_selection._cache as cache_mod

    X, y = data
    counter, est, cache = setup
    calls = []
    real = cache_mod.data_key
    monkeypatch.setattr(cache_mod, "data_key", lambda *a: calls.append(1) or real(*a))
    models = {
        name: CountingClassifier(log=counter.path, alpha=a)
        for name, a in [("a", 1e-4), ("b", 1e-3), ("c", 1e-2)]
    }
    compare_models(models, X, y, n_repeats=4, random_state=0, memory=cache, n_boot=500)
    assert len(calls) == 1  # 3 models x 4 fits, one hash of the data
    _ev(est, None).fit(X, y)
    assert len(calls) == 1  # no memory: no hashing at all
    _ev(est, cache).fit(X, y)
    assert len(calls) == 2


class TestPassThrough:
    def test_compare_models(self, data, setup, tmp_path):
        X, y = data
        counter, est, cache = setup
        models = {"a": est, "b": CountingClassifier(log=counter.path, alpha=1e-2)}
        # one out-of-bootstrap fit per repeat and model (the run-to-run design)
        kw = {"target": "this dataset", "n_boot": 200}
        r1 = compare_models(
            models, X, y, n_repeats=5, random_state=0, memory=cache, **kw
        )
        assert counter.new() == 10
        r2 = compare_models(
            models, X, y, n_repeats=5, random_state=0, memory=cache, **kw
        )
        assert counter.new() == 0
        assert all(ev.results_["cached"].all() for ev in r2.evaluators.values())
        pd.testing.assert_frame_equal(r1.to_frame(), r2.to_frame())
        # a third model: only its fits run
        models["c"] = CountingClassifier(log=counter.path, alpha=1e-1)
        compare_models(models, X, y, n_repeats=5, random_state=0, memory=cache, **kw)
        assert counter.new() == 5

    def test_variance_sources(self, data, setup):
        X, y = data
        counter, est, cache = setup
        kw = {
            "sources": ("split", "init"),
            "n_repeats": 4,
            "random_state": 0,
        }
        t1 = variance_sources(est, X, y, memory=cache, **kw)
        first = counter.new()
        assert first == 12  # split, init and all: 3 x 4 fits
        t2 = variance_sources(est, X, y, memory=cache, **kw)
        assert counter.new() == 0
        pd.testing.assert_frame_equal(t1, t2)


class TestDask:
    def test_cache_on_a_shared_folder_under_dask(self, data, setup, dask_processes):
        # worker processes on loopback write to the shared cache folder; a
        # local rerun loads every fit, and an extension under dask fits only
        # the new repeats; all results equal a local uncached run
        X, y = data
        counter, est, cache = setup
        local = _ev(est, None, n_repeats=6).fit(X, y)
        assert counter.new() == 18
        with dask_processes():
            four = _ev(est, cache, n_repeats=4).fit(X, y)
            assert counter.new() == 12
            six = _ev(est, cache, n_repeats=6).fit(X, y)
            assert counter.new() == 6
        assert _n_stored(cache) == 18
        again = _ev(est, cache, n_repeats=6).fit(X, y)
        assert counter.new() == 0
        assert again.results_["cached"].all()
        cols = ["repeat", "fold", "split_seed", "init_seed", "test_score"]
        pd.testing.assert_frame_equal(local.results_[cols], six.results_[cols])
        pd.testing.assert_frame_equal(local.results_[cols], again.results_[cols])
        pd.testing.assert_frame_equal(
            local.results_[cols].iloc[:12], four.results_[cols].reset_index(drop=True)
        )


_MODULE = """
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin


class Edited(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[{which}])


def edited_metric(y_true, y_pred):
    return float(np.mean(y_true == y_pred)) * {factor}
"""


def test_edited_user_code_is_not_served_from_the_cache(tmp_path, monkeypatch):
    # issue 18 item 4: estimators and scorers keyed by code, not by name
    import importlib
    import sys

    from sklearn.metrics import make_scorer

    X, y = make_classification(60, 4, random_state=0)
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "skperf_edited_mod.py"

    def run(which, factor):
        path.write_text(_MODULE.format(which=which, factor=factor))
        sys.modules.pop("skperf_edited_mod", None)
        importlib.invalidate_caches()
        mod = importlib.import_module("skperf_edited_mod")
        ev = RepeatedEvaluator(
            mod.Edited(),
            scoring=make_scorer(mod.edited_metric),
            n_repeats=3,
            random_state=0,
            memory=tmp_path / "cache",
            refit=False,
        ).fit(X, y)
        return ev.results_

    first = run(0, 1)
    again = run(0, 1)
    assert again["cached"].all()
    edited = run(1, 1)  # predict changed
    assert not edited["cached"].any()
    np.testing.assert_allclose(
        edited["test_score"] + first["test_score"], 1.0, atol=1e-12
    )
    scorer_edited = run(1, 2)  # the metric changed
    assert not scorer_edited["cached"].any()
    np.testing.assert_allclose(scorer_edited["test_score"], 2 * edited["test_score"])


def test_routing_switch_is_part_of_the_key(tmp_path):
    import sklearn

    X, y = make_classification(60, 4, random_state=0)
    kw = {"n_repeats": 3, "random_state": 0, "memory": tmp_path, "refit": False}
    w = np.ones(len(y))
    with sklearn.config_context(enable_metadata_routing=True):
        est = (
            SGDClassifier(max_iter=5, tol=None)
            .set_fit_request(sample_weight=True)
            .set_score_request(sample_weight=False)
        )
    first = RepeatedEvaluator(est, **kw).fit(X, y, sample_weight=w)
    assert not first.results_["cached"].any()
    assert (
        RepeatedEvaluator(est, **kw).fit(X, y, sample_weight=w).results_["cached"].all()
    )
    with sklearn.config_context(enable_metadata_routing=True):
        ev = RepeatedEvaluator(est, **kw).fit(X, y, sample_weight=w)
        assert not ev.results_["cached"].any()
        # a fresh run that fails (no request on the plain estimator) fails
        # here too, whatever the cache holds
        with pytest.raises(Exception, match="sample_weight"):
            RepeatedEvaluator(SGDClassifier(max_iter=5, tol=None), **kw).fit(
                X, y, sample_weight=w
            )
