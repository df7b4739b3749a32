"""Seeding any trainer: global generators, seeder=, skorch, class-valued
parameters, truthful detection, and any joblib backend (issue 28, items 1,
2, 5, 6; issue 29, item 12)."""

import warnings

import joblib
import numpy as np
import pytest
from joblib import parallel_config
from joblib._parallel_backends import LokyBackend
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeClassifier

from skperf import (
    RepeatedEvaluator,
    compare_generalization,
    compare_models,
    generalization_ci,
    repeated_cross_val_score,
    variance_sources,
)
from skperf.exceptions import NotReproducibleWarning, NoVariationWarning
from skperf.model_selection._trainers import detect
from skperf.model_selection._vary import _configure, _plan, _seed_params

# ---------------------------------------------------------------------------
# estimators (module level: picklable for n_jobs=2)


class GlobalNoiseClassifier(ClassifierMixin, BaseEstimator):
    """Logistic regression whose coefficients get noise from ``np.random``
    (numpy's global generator), as a trainer that seeds nothing itself."""

    def __init__(self, noise=1.0):
        self.noise = noise

    def fit(self, X, y):
        m = LogisticRegression(max_iter=500).fit(X, y)
        m.coef_ = m.coef_ + np.random.normal(scale=self.noise, size=m.coef_.shape)  # noqa: NPY002
        self.model_, self.classes_ = m, m.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


class FreshEntropyClassifier(GlobalNoiseClassifier):
    """The same noise from a generator on fresh OS entropy: nothing skperf
    seeds reaches it (as a torch net whose generator nobody seeds)."""

    def fit(self, X, y):
        m = LogisticRegression(max_iter=500).fit(X, y)
        rng = np.random.default_rng()  # fresh entropy: not reproducible
        m.coef_ = m.coef_ + rng.normal(scale=self.noise, size=m.coef_.shape)
        self.model_, self.classes_ = m, m.classes_
        return self


class PlainCentroid(ClassifierMixin, BaseEstimator):
    """Deterministic user code with no seed parameter."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.means_ = np.array([X[y == c].mean(axis=0) for c in self.classes_])
        return self

    def predict(self, X):
        d = ((X[:, None, :] - self.means_[None]) ** 2).sum(-1)
        return self.classes_[d.argmin(1)]


class SeedNamed(GlobalNoiseClassifier):
    """Its seed parameter is named ``seed`` (not random_state)."""

    def __init__(self, noise=1.0, seed=0):
        self.noise = noise
        self.seed = seed

    def fit(self, X, y):
        m = LogisticRegression(max_iter=500).fit(X, y)
        rng = np.random.default_rng(self.seed)
        m.coef_ = m.coef_ + rng.normal(scale=self.noise, size=m.coef_.shape)
        self.model_, self.classes_ = m, m.classes_
        self.fitted_seed_ = self.seed
        return self


# a generator private to this module, seeded from OS entropy at import: only
# a seeder can reach it
_PRIVATE = np.random.RandomState()


class PrivateNoiseClassifier(GlobalNoiseClassifier):
    def fit(self, X, y):
        m = LogisticRegression(max_iter=500).fit(X, y)
        m.coef_ = m.coef_ + _PRIVATE.normal(scale=self.noise, size=m.coef_.shape)
        self.model_, self.classes_ = m, m.classes_
        return self


def seed_private(estimator, seed):
    """A seeder: seeds the generator the estimator draws from."""
    _PRIVATE.seed(seed)


class FakeModule:
    """Stands for a torch module class: built by the net with its kwargs."""

    def __init__(self, seed=0, noise=1.0):
        self.rng = np.random.default_rng(seed)
        self.noise = noise


class FakeNet(ClassifierMixin, BaseEstimator):
    """skorch-like: ``module`` is a class, ``module__seed`` a routed
    parameter kept in ``vars(self)`` and passed to the module when built."""

    def __init__(self, module=FakeModule, **kwargs):
        self.module = module
        vars(self).update(kwargs)

    def _get_param_names(self):
        return sorted(k for k in vars(self) if not k.endswith("_"))

    def get_params(self, deep=True):
        return {k: getattr(self, k) for k in self._get_param_names()}

    def set_params(self, **params):  # skorch: routed names set as attributes
        for k, v in params.items():
            setattr(self, k, v)
        return self

    def fit(self, X, y):
        kwargs = {
            k.split("__", 1)[1]: v for k, v in vars(self).items() if "module__" in k
        }
        mod = self.module(**kwargs)
        m = LogisticRegression(max_iter=500).fit(X, y)
        m.coef_ = m.coef_ + mod.rng.normal(scale=mod.noise, size=m.coef_.shape)
        self.model_, self.classes_ = m, m.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    X = (X - X.mean(0)) / X.std(0)
    return X[::2], y[::2]  # 285 rows


def _scores(ev):
    return ev.results_["test_score"].to_numpy()


# ---------------------------------------------------------------------------
# a trainer on numpy's global generator: reproducible with no seeder
class TestGlobalGenerator:
    def test_init_seeds_reach_it(self, data):
        X, y = data
        kw = {"vary": "init", "n_repeats": 6, "random_state": 0, "refit": False}
        a = RepeatedEvaluator(GlobalNoiseClassifier(), **kw).fit(X, y)
        b = RepeatedEvaluator(GlobalNoiseClassifier(), **kw).fit(X, y)
        # the split is held: the spread is the init's alone
        assert a.results_["split_id"].nunique() == 1
        assert np.unique(_scores(a)).size >= 4  # differ across init seeds
        np.testing.assert_array_equal(_scores(a), _scores(b))  # same random_state
        assert a._init_verdict == "reproducible"
        c = RepeatedEvaluator(GlobalNoiseClassifier(), **{**kw, "random_state": 1})
        assert not np.array_equal(_scores(c.fit(X, y)), _scores(a))

    def test_n_jobs_and_backends_agree(self, data):
        X, y = data
        kw = {"vary": "init", "n_repeats": 4, "random_state": 3, "refit": False}
        one = RepeatedEvaluator(GlobalNoiseClassifier(), n_jobs=1, **kw).fit(X, y)
        two = RepeatedEvaluator(GlobalNoiseClassifier(), n_jobs=2, **kw).fit(X, y)
        np.testing.assert_array_equal(_scores(one), _scores(two))
        with parallel_config(backend="no_generator_stub", n_jobs=2):
            stub = RepeatedEvaluator(GlobalNoiseClassifier(), **kw).fit(X, y)
        np.testing.assert_array_equal(_scores(one), _scores(stub))

    def test_cache_replays_a_fresh_run(self, data, tmp_path):
        X, y = data
        kw = {"vary": "init", "n_repeats": 4, "random_state": 5, "refit": False}
        fresh = RepeatedEvaluator(GlobalNoiseClassifier(), **kw).fit(X, y)
        mem = str(tmp_path / "c")
        first = RepeatedEvaluator(GlobalNoiseClassifier(), memory=mem, **kw).fit(X, y)
        again = RepeatedEvaluator(GlobalNoiseClassifier(), memory=mem, **kw).fit(X, y)
        assert not first.results_["cached"].any()
        assert again.results_["cached"].all()
        np.testing.assert_array_equal(_scores(again), _scores(fresh))
        np.testing.assert_array_equal(_scores(first), _scores(fresh))

    def test_cache_key_holds_the_init_seed(self, data, tmp_path):
        # fixed splits and no seed parameter: only the init seed tells the
        # repeats apart, so each repeat is its own cache entry
        X, y = data
        kw = {
            "cv": KFold(3),
            "vary": "init",
            "n_repeats": 3,
            "random_state": 0,
            "refit": False,
        }
        mem = str(tmp_path / "c")
        ev = RepeatedEvaluator(GlobalNoiseClassifier(), memory=mem, **kw).fit(X, y)
        scores = _scores(ev).reshape(3, 3)
        assert not np.array_equal(scores[0], scores[1])
        again = RepeatedEvaluator(GlobalNoiseClassifier(), memory=mem, **kw).fit(X, y)
        np.testing.assert_array_equal(_scores(again), _scores(ev))

    def test_callers_generators_untouched(self, data):
        import random

        X, y = data
        np.random.seed(123)  # noqa: NPY002 (the global generator, on purpose)
        random.seed(123)
        RepeatedEvaluator(
            GlobalNoiseClassifier(), n_repeats=3, random_state=0, n_jobs=1
        ).fit(X, y)  # the fits and the refit run in this process
        np.random.seed(123)  # noqa: NPY002 (the global generator, on purpose)
        random.seed(123)
        expected = (np.random.rand(), random.random())  # noqa: NPY002
        np.random.seed(123)  # noqa: NPY002 (the global generator, on purpose)
        random.seed(123)
        RepeatedEvaluator(
            GlobalNoiseClassifier(), n_repeats=3, random_state=0, n_jobs=1
        ).fit(X, y)
        assert (np.random.rand(), random.random()) == expected  # noqa: NPY002

    def test_refit_is_seeded(self, data):
        X, y = data
        a = RepeatedEvaluator(GlobalNoiseClassifier(), n_repeats=2, random_state=0)
        b = RepeatedEvaluator(GlobalNoiseClassifier(), n_repeats=2, random_state=0)
        np.testing.assert_array_equal(
            a.fit(X, y).estimator_.model_.coef_, b.fit(X, y).estimator_.model_.coef_
        )


# ---------------------------------------------------------------------------
# truthful detection
class TestDetection:
    def test_unseeded_is_reported_not_deterministic(self, data):
        X, y = data
        ev = RepeatedEvaluator(
            FreshEntropyClassifier(), vary=["init"], n_repeats=4, random_state=0
        )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ev.fit(X, y)
        kinds = [w.category for w in caught]
        assert NotReproducibleWarning in kinds
        assert NoVariationWarning not in kinds  # never "deterministic"
        msg = str(
            next(w.message for w in caught if w.category is NotReproducibleWarning)
        )
        for words in (
            "not seeded",
            "same random_state",
            "n_jobs",
            "seeder=",
            "initialize()",
        ):
            assert words in msg
        assert ev._init_verdict == "not seeded"

    def test_unseeded_fits_leave_the_cache(self, data, tmp_path):
        X, y = data
        kw = {"vary": ["init"], "n_repeats": 3, "random_state": 0, "refit": False}
        mem = str(tmp_path / "c")
        with pytest.warns(NotReproducibleWarning, match="removed from the cache"):
            RepeatedEvaluator(FreshEntropyClassifier(), memory=mem, **kw).fit(X, y)
        again = RepeatedEvaluator(FreshEntropyClassifier(), memory=mem, **kw)
        with pytest.warns(NotReproducibleWarning):
            again.fit(X, y)
        assert not again.results_["cached"].any()  # nothing replayed

    def test_deterministic_only_when_true(self, data):
        X, y = data
        ev = RepeatedEvaluator(
            PlainCentroid(), vary=["init"], n_repeats=3, random_state=0
        )
        with pytest.warns(NoVariationWarning, match="identical scores"):
            ev.fit(X, y)
        assert ev._init_verdict == "deterministic"
        # the global-generator trainer varies: no "deterministic" message
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            RepeatedEvaluator(
                GlobalNoiseClassifier(), vary=["init"], n_repeats=3, random_state=0
            ).fit(X, y)

    def test_sklearn_deterministic_message_kept(self, data):
        X, y = data
        with pytest.warns(NoVariationWarning, match="deterministic"):
            RepeatedEvaluator(
                LogisticRegression(), vary=["init"], n_repeats=2, random_state=0
            ).fit(X, y)

    def test_variance_sources_init_row(self, data):
        X, y = data
        with pytest.warns(NotReproducibleWarning):
            frame = variance_sources(
                FreshEntropyClassifier(), X, y, n_repeats=5, random_state=0
            )
        assert frame.loc["init", "n"] == 5
        assert "deterministic" not in frame.loc["init", "note"]
        assert all("init not seeded" in frame.loc[s, "note"] for s in frame.index[:2])
        det = variance_sources(
            PlainCentroid(),
            X,
            y,
            sources=("split", "init"),
            n_repeats=5,
            random_state=0,
        )
        assert det.loc["init", "n"] == 0
        assert "identical scores" in det.loc["init", "note"]
        glob = variance_sources(
            GlobalNoiseClassifier(),
            X,
            y,
            sources=("init",),
            n_repeats=5,
            random_state=0,
        )
        assert glob.loc["init", "n"] == 5
        assert glob.loc["init", "std"] > 0
        assert "not seeded" not in glob.loc["init", "note"]


# ---------------------------------------------------------------------------
# seed parameters: any name, never a class
class TestSeedParameters:
    def test_seed_named_parameter_gets_the_seeds(self, data):
        # issue 29, item 12: a seed not named random_state is not ignored
        X, y = data
        ev = RepeatedEvaluator(
            SeedNamed(),
            vary=["init"],
            n_repeats=5,
            random_state=0,
            refit=False,
            return_predictions=True,
        ).fit(X, y)
        assert np.unique(_scores(ev)).size >= 3
        plan = _plan(SeedNamed(), y)
        assert plan.init_keys == ["seed"]
        assert plan.init_kind == "params"

    def test_class_valued_parameter_never_modified(self, data):
        X, y = data
        net = FakeNet(module=FakeModule, module__seed=0)
        before = dict(vars(FakeModule))
        ev = RepeatedEvaluator(
            net, vary=["init"], n_repeats=5, random_state=0, refit=False
        ).fit(X, y)
        assert dict(vars(FakeModule)) == before  # no attribute gained
        assert not hasattr(FakeModule, "seed")
        # the seed went where the net takes it: module__seed, per repeat
        assert np.unique(_scores(ev)).size >= 3
        plan = _plan(net, y)
        cfg = _configure(net, _seed_params(plan, 11, 12))
        assert cfg.module is FakeModule
        assert cfg.module__seed != 0
        assert net.module__seed == 0  # the user's estimator unchanged

    def test_unroutable_class_parameter_refused(self):
        class Odd(BaseEstimator):
            def __init__(self, module=FakeModule):
                self.module = module

            def get_params(self, deep=True):
                out = {"module": self.module}
                if deep:
                    out["module__seed"] = 0  # seen, but nobody takes it
                return out

        with pytest.raises(ValueError, match=r"'module__seed'.*class FakeModule"):
            _plan(Odd())
        assert not hasattr(FakeModule, "seed")


# ---------------------------------------------------------------------------
# seeder= on every entry point
_SEEN = []


def record_and_seed(estimator, seed):
    _SEEN.append(int(seed))
    _PRIVATE.seed(seed)


class TestSeeder:
    def test_seeder_makes_a_private_generator_reproducible(self, data):
        X, y = data
        kw = {"vary": "init", "n_repeats": 4, "random_state": 0, "refit": False}
        ev = RepeatedEvaluator(PrivateNoiseClassifier(), seeder=seed_private, **kw)
        one = _scores(ev.fit(X, y))
        two = RepeatedEvaluator(
            PrivateNoiseClassifier(), seeder=seed_private, n_jobs=2, **kw
        ).fit(X, y)
        np.testing.assert_array_equal(one, _scores(two))
        assert np.unique(one).size >= 3
        assert ev._init_verdict is None  # a seeder is trusted, nothing to say

    def test_seeder_gets_each_fits_init_seed(self, data):
        X, y = data
        _SEEN.clear()
        ev = RepeatedEvaluator(
            PrivateNoiseClassifier(),
            seeder=record_and_seed,
            n_repeats=3,
            cv=2,
            random_state=0,
            n_jobs=1,
        ).fit(X, y)
        fits = ev.results_["init_seed"].tolist()
        assert _SEEN == [*fits, fits[0]]  # 6 fits, then the refit (repeat 0)

    def test_every_entry_point_takes_it(self, data):
        X, y = data
        est = PrivateNoiseClassifier()
        kw = {"seeder": record_and_seed, "random_state": 0, "n_jobs": 1}
        _SEEN.clear()
        repeated_cross_val_score(est, X, y, n_repeats=3, **kw)
        assert len(_SEEN) == 3
        _SEEN.clear()
        ci = generalization_ci(
            est, X, y, method="corrected-t", n_fits=10, scoring="accuracy", **kw
        )
        assert len(_SEEN) == ci.n_fits == 10
        _SEEN.clear()
        compare_generalization(
            est, DummyClassifier(), X, y, method="corrected-t", n_fits=10, **kw
        )
        assert len(_SEEN) == 20  # both models' fits
        _SEEN.clear()
        compare_models(
            {"a": est, "b": DummyClassifier()},
            X,
            y,
            n_repeats=2,
            target="this dataset",
            **kw,
        )
        assert len(_SEEN) == 4
        _SEEN.clear()
        variance_sources(est, X, y, sources=("init",), n_repeats=5, **kw)
        assert len(_SEEN) == 10  # the init row and the "all" row

    def test_generalization_ci_reproducible_on_global_generator(self, data):
        X, y = data
        kw = {
            "method": "corrected-t",
            "n_fits": 10,
            "scoring": "accuracy",
            "random_state": 0,
        }
        a = generalization_ci(GlobalNoiseClassifier(), X, y, **kw)
        b = generalization_ci(GlobalNoiseClassifier(), X, y, n_jobs=2, **kw)
        assert (a.estimate, a.low, a.high) == (b.estimate, b.low, b.high)


# ---------------------------------------------------------------------------
# frameworks
def test_framework_detected_by_class_module():
    Net = type("NeuralNetClassifier", (DummyClassifier,), {"__module__": "skorch.fake"})
    Mod = type("MLP", (), {"__module__": "torch.nn.modules.fake"})
    assert detect(Net()) == ("torch",)
    assert detect(DecisionTreeClassifier()) == ()
    est = FakeNet(module=Mod)
    assert detect(est) == ("torch",)
    plan = _plan(est)
    assert plan.init_kind == "framework"
    assert plan.init_random


# ---------------------------------------------------------------------------
# any joblib backend
class _NoGeneratorBackend(LokyBackend):
    """A backend without generator returns, as ray's."""

    supports_return_generator = False


joblib.register_parallel_backend("no_generator_stub", _NoGeneratorBackend)


def test_stub_backend_refuses_generators():
    from sklearn.utils.parallel import Parallel

    with parallel_config(backend="no_generator_stub", n_jobs=2):
        with pytest.raises(ValueError, match="return_as"):
            Parallel(return_as="generator_unordered")


@pytest.mark.parametrize("backend", ["no_generator_stub", "ray"])
def test_every_engine_runs_on_a_backend_without_generators(backend, data):
    if backend == "ray":
        ray = pytest.importorskip("ray")
        from ray.util.joblib import register_ray

        register_ray()
        ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True)
    X, y = data
    tree = DecisionTreeClassifier(max_depth=3)

    def everything():
        ev = RepeatedEvaluator(tree, n_repeats=3, random_state=0, refit=False)
        ci = generalization_ci(
            tree,
            X,
            y,
            method="corrected-t",
            n_fits=10,
            scoring="accuracy",
            random_state=0,
        )
        cmp = compare_generalization(
            tree,
            DummyClassifier(),
            X,
            y,
            method="corrected-t",
            n_fits=10,
            random_state=0,
        )
        return _scores(ev.fit(X, y)), (ci.low, ci.high), (cmp.low, cmp.pvalue)

    expected = everything()
    with parallel_config(backend=backend, n_jobs=2):
        got = everything()
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1:] == expected[1:]


# ---------------------------------------------------------------------------
# a real skorch net (only where torch and skorch are installed)
def test_skorch_net_seeded_without_a_seeder(tmp_path):
    torch = pytest.importorskip("torch")
    skorch = pytest.importorskip("skorch")
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    X = ((X - X.mean(0)) / X.std(0)).astype(np.float32)

    class MLP(torch.nn.Module):
        def __init__(self, hidden=8):
            super().__init__()
            self.net = torch.nn.Sequential(
                torch.nn.Linear(4, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 3)
            )

        def forward(self, x):
            return self.net(x)

    net = skorch.NeuralNetClassifier(
        MLP,
        max_epochs=5,
        lr=0.1,
        verbose=0,
        train_split=None,
        criterion=torch.nn.CrossEntropyLoss,
    )
    before = dict(vars(MLP))
    kw = {
        "vary": "init",
        "n_repeats": 4,
        "random_state": 0,
        "refit": False,
        "scoring": "neg_log_loss",
    }
    mem = str(tmp_path / "c")
    runs = [
        RepeatedEvaluator(net, **kw).fit(X, y),
        RepeatedEvaluator(net, **kw).fit(X, y),
        RepeatedEvaluator(net, n_jobs=2, **kw).fit(X, y),
        RepeatedEvaluator(net, memory=mem, **kw).fit(X, y),
        RepeatedEvaluator(net, memory=mem, **kw).fit(X, y),
    ]
    scores = [ev.results_["test_neg_log_loss"].to_numpy() for ev in runs]
    assert np.unique(scores[0]).size == 4  # differ across init seeds
    for s in scores[1:]:  # same random_state, n_jobs=2, cached: identical
        np.testing.assert_array_equal(s, scores[0])
    assert runs[4].results_["cached"].all()
    assert dict(vars(MLP)) == before
