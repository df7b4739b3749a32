"""Tests for bootstrap_632_score and its no-information values."""

import re

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import Ridge
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    brier_score_loss,
    check_scoring,
    f1_score,
    log_loss,
    mean_absolute_error,
    mean_squared_error,
    r2_score,
    roc_auc_score,
    root_mean_squared_error,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from skperf import PerformanceDistribution
from skperf.model_selection import OutOfBootstrap, bootstrap_632_score
from skperf.model_selection._bootstrap_632 import (
    _632_from_scores,
    _no_information,
)


@pytest.fixture
def clf_data():
    X, y = make_classification(
        n_samples=40,
        n_features=4,
        n_informative=2,
        n_classes=3,
        n_clusters_per_class=1,
        flip_y=0.1,
        random_state=0,
    )
    return X, y


def _naive_632(err, err1, gamma):
    """Efron & Tibshirani (1997) eqs. 24, 28, 31 and 32, written out."""
    e632 = 0.368 * err + 0.632 * err1
    if err1 > err and gamma > err:
        r = min((err1 - err) / (gamma - err), 1.0)
    else:
        r = 0.0
    e1p = min(err1, gamma)
    return e632, e632 + (e1p - err) * (0.368 * 0.632 * r) / (1 - 0.368 * r)


class TestHandComputation:
    @pytest.mark.parametrize("method", ["oob", ".632", ".632+"])
    def test_accuracy(self, clf_data, method):
        X, y = clf_data
        est = DecisionTreeClassifier(max_depth=2, random_state=0)
        d = bootstrap_632_score(
            est,
            X,
            y,
            scoring="accuracy",
            n_splits=8,
            method=method,
            random_state=1,
            apparent="split",
        )
        assert isinstance(d, PerformanceDistribution)
        assert (d.n, d.metric, d.greater_is_better, d.name) == (
            8,
            "accuracy",
            True,
            "DecisionTreeClassifier",
        )
        root = np.random.SeedSequence(1)
        seeds = [c.generate_state(1)[0] for c in root.spawn(8)]
        np.testing.assert_array_equal(d.seeds["split"], seeds)
        expected = []
        for seed in seeds:
            train, test = next(OutOfBootstrap(1, random_state=int(seed)).split(X))
            model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(
                X[train], y[train]
            )
            err = 1 - np.mean(model.predict(X[train]) == y[train])
            err1 = 1 - np.mean(model.predict(X[test]) == y[test])
            pred = model.predict(X)
            # naive O(n^2) no-information error rate
            gamma = np.mean(y[:, None] != pred[None, :])
            assert gamma == pytest.approx(
                1 - sum(np.mean(y == k) * np.mean(pred == k) for k in range(3)),
                abs=1e-15,
            )
            e632, e632p = _naive_632(err, err1, gamma)
            expected.append({"oob": err1, ".632": e632, ".632+": e632p}[method])
        np.testing.assert_allclose(1 - d.scores, expected, rtol=0, atol=1e-12)

    def test_neg_mse_regression(self):
        X, y = make_regression(n_samples=30, n_features=3, noise=20.0, random_state=0)
        d = bootstrap_632_score(
            Ridge(alpha=1.0),
            X,
            y,
            scoring="neg_mean_squared_error",
            n_splits=5,
            random_state=0,
            apparent="split",
        )
        assert d.metric == "neg_mean_squared_error"
        expected, bounds = [], []
        for seed in d.seeds["split"]:
            train, test = next(OutOfBootstrap(1, random_state=int(seed)).split(X))
            model = Ridge(alpha=1.0).fit(X[train], y[train])
            err = mean_squared_error(y[train], model.predict(X[train]))
            err1 = mean_squared_error(y[test], model.predict(X[test]))
            pred = model.predict(X)
            gamma = np.mean((y[:, None] - pred[None, :]) ** 2)
            expected.append(_naive_632(err, err1, gamma)[1])
            bounds.append((err, err1, gamma))
        np.testing.assert_allclose(-d.scores, expected, rtol=1e-12)
        # Err1 < gamma here, so .632+ lies between the apparent and the
        # out-of-bag error
        err, err1, gamma = np.array(bounds).T
        assert np.all(err1 < gamma)
        assert np.all(
            (-d.scores >= np.minimum(err, err1) - 1e-9)
            & (-d.scores <= np.maximum(err, err1) + 1e-9)
        )
        oob = -bootstrap_632_score(
            Ridge(alpha=1.0),
            X,
            y,
            method="oob",
            scoring="neg_mean_squared_error",
            n_splits=5,
            random_state=0,
        ).scores
        np.testing.assert_allclose(oob, err1, rtol=1e-12)


class TestApparentFromFullData:
    """Default: err and gamma of the model fitted on all rows (E&T 1997, Sec. 3)."""

    @pytest.mark.parametrize("method", [".632", ".632+"])
    def test_accuracy_hand_computation(self, clf_data, method):
        X, y = clf_data
        est = DecisionTreeClassifier(max_depth=2, random_state=0)
        d = bootstrap_632_score(
            est, X, y, scoring="accuracy", n_splits=6, method=method, random_state=3
        )
        full = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
        pred = full.predict(X)
        err = 1 - np.mean(pred == y)  # resubstitution error on all 40 rows
        gamma = np.mean(y[:, None] != pred[None, :])  # all n^2 pairs
        assert err == pytest.approx(0.175)  # 7 of 40 rows wrong
        assert gamma == pytest.approx(1073 / 1600)  # 1 - sum_k p_k q_k
        expected = []
        for seed in d.seeds["split"]:
            train, test = next(OutOfBootstrap(1, random_state=int(seed)).split(X))
            model = DecisionTreeClassifier(max_depth=2, random_state=0).fit(
                X[train], y[train]
            )
            err1 = 1 - np.mean(model.predict(X[test]) == y[test])
            e632, e632p = _naive_632(err, err1, gamma)
            expected.append(e632 if method == ".632" else e632p)
        np.testing.assert_allclose(1 - d.scores, expected, rtol=0, atol=1e-12)
        split = bootstrap_632_score(
            est,
            X,
            y,
            scoring="accuracy",
            n_splits=6,
            method=method,
            random_state=3,
            apparent="split",
        )
        # the per-split apparent error of a model fitted on a bootstrap
        # sample (duplicated rows) is not the full-data one
        assert not np.allclose(split.scores, d.scores)

    def test_632_mean_is_published_estimator(self):
        # .632 is linear in Err1: the mean over splits is 0.368 err + 0.632 mean(Err1)
        X, y = make_regression(n_samples=30, n_features=3, noise=20.0, random_state=0)
        kw = {"scoring": "neg_mean_absolute_error", "n_splits": 7, "random_state": 2}
        d = bootstrap_632_score(Ridge(), X, y, method=".632", **kw)
        oob = bootstrap_632_score(Ridge(), X, y, method="oob", **kw)
        err = mean_absolute_error(y, Ridge().fit(X, y).predict(X))
        assert -d.mean() == pytest.approx(0.368 * err + 0.632 * -oob.mean(), rel=1e-12)

    def test_bad_apparent(self, clf_data):
        X, y = clf_data
        with pytest.raises(ValueError, match="`apparent` must be 'full' or 'split'"):
            bootstrap_632_score(GaussianNB(), X, y, apparent="all")


class TestDefaultScoringIsFast:
    """scoring=None uses the closed-form no-information value of accuracy / R^2."""

    @pytest.mark.parametrize("apparent", ["full", "split"])
    def test_classifier_equals_accuracy_without_random_pairings(
        self, clf_data, monkeypatch, apparent
    ):
        from skperf.model_selection import _bootstrap_632 as mod

        X, y = clf_data
        kw = {"n_splits": 5, "random_state": 0, "apparent": apparent}
        ref = bootstrap_632_score(GaussianNB(), X, y, scoring="accuracy", **kw)

        def refuse(*args, **kwargs):
            raise AssertionError("random pairings used")

        monkeypatch.setattr(mod, "_permutation_no_information", refuse)
        d = bootstrap_632_score(GaussianNB(), X, y, **kw)
        np.testing.assert_allclose(d.scores, ref.scores, rtol=0, atol=1e-15)
        assert d.metric == "score"

    def test_regressor_pipeline_equals_r2(self, monkeypatch):
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        from skperf.model_selection import _bootstrap_632 as mod

        X, y = make_regression(n_samples=30, n_features=3, noise=5.0, random_state=0)
        pipe = make_pipeline(StandardScaler(), Ridge())
        ref = bootstrap_632_score(pipe, X, y, scoring="r2", n_splits=4, random_state=0)
        monkeypatch.setattr(mod, "_permutation_no_information", None)
        d = bootstrap_632_score(pipe, X, y, n_splits=4, random_state=0)
        np.testing.assert_allclose(d.scores, ref.scores, rtol=1e-12)

    def test_sklearn_override_calling_mixin(self, clf_data, monkeypatch):
        # KNeighborsClassifier.score overrides ClassifierMixin.score (same value)
        from sklearn.neighbors import KNeighborsClassifier

        from skperf.model_selection import _bootstrap_632 as mod

        X, y = clf_data
        ref = bootstrap_632_score(
            KNeighborsClassifier(3),
            X,
            y,
            scoring="accuracy",
            n_splits=3,
            random_state=0,
        )
        monkeypatch.setattr(mod, "_permutation_no_information", None)
        d = bootstrap_632_score(
            KNeighborsClassifier(3), X, y, n_splits=3, random_state=0
        )
        np.testing.assert_array_equal(d.scores, ref.scores)

    def test_search_keeps_its_own_scoring(self):
        from sklearn.model_selection import GridSearchCV

        from skperf.model_selection._bootstrap_632 import _default_scoring

        search = GridSearchCV(
            GaussianNB(), {"var_smoothing": [1e-9]}, scoring="f1_macro"
        )
        assert _default_scoring(search) is None
        assert _default_scoring(GaussianNB()) == "accuracy"
        assert _default_scoring(Ridge()) == "r2"

    def test_custom_score_method_is_kept(self, clf_data):
        X, y = clf_data

        class Odd(GaussianNB):
            def score(self, X, y, sample_weight=None):
                return 0.5

        d = bootstrap_632_score(Odd(), X, y, n_splits=3, random_state=0)
        np.testing.assert_allclose(d.scores, 0.5)


def _mlxtend_632plus(train_err, test_err, gamma):
    """The .632+ error of mlxtend's bootstrap_point632_score, written out.

    mlxtend (evaluate/bootstrap_point632.py): ``R = (test_err - train_err) /
    (gamma - train_err)``, ``weight = 0.632 / (1 - 0.368 R)``, error
    ``weight * test_err + (1 - weight) * train_err``; R is not clipped.
    """
    r = (test_err - train_err) / (gamma - train_err)
    weight = 0.632 / (1 - 0.368 * r)
    return weight * test_err + (1 - weight) * train_err, r


class TestAgainstMlxtend:
    def test_splits_equal_mlxtend_formula(self, clf_data):
        # per split: same model, same err / Err1 / gamma; the .632+ value
        # equals mlxtend's wherever its R lies in [0, 1]
        X, y = clf_data
        d = bootstrap_632_score(
            DecisionTreeClassifier(max_depth=3, random_state=0),
            X,
            y,
            scoring="accuracy",
            n_splits=12,
            random_state=5,
            apparent="split",
        )
        n_in_range = 0
        for seed, score in zip(d.seeds["split"], d.scores, strict=True):
            train, test = next(OutOfBootstrap(1, random_state=int(seed)).split(X))
            model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(
                X[train], y[train]
            )
            train_err = 1 - accuracy_score(y[train], model.predict(X[train]))
            test_err = 1 - accuracy_score(y[test], model.predict(X[test]))
            pred = model.predict(X)
            # mlxtend's no_information_rate: accuracy over all n^2 pairs
            gamma = 1 - np.mean(y[:, None] == pred[None, :])
            ref, r = _mlxtend_632plus(train_err, test_err, gamma)
            if 0 <= r <= 1:
                n_in_range += 1
                assert 1 - score == pytest.approx(ref, abs=1e-12)
        assert n_in_range >= 10

    def test_edge_cases_differ_from_mlxtend(self):
        # Err1 > gamma: R' = 1, .632+ = .632 Err1 + .368 gamma (eq. 32)
        err, err1, gamma = 0.1, 0.6, 0.5
        score, w = _632_from_scores(-err, -err1, -gamma)
        assert -score == pytest.approx(0.632 * 0.6 + 0.368 * 0.5, abs=1e-15)
        assert -score == pytest.approx(0.5632, abs=1e-15)
        assert w == 1.0
        # mlxtend: R = 1.25, weight = 0.632 / 0.54 = 1.17, error above Err1
        ref, r = _mlxtend_632plus(err, err1, gamma)
        assert r == pytest.approx(1.25)
        assert ref == pytest.approx(0.1 + 0.632 / 0.54 * 0.5, abs=1e-12)
        assert ref > err1
        # Err1 < err: R' = 0, the .632 estimate; mlxtend's weight drops
        # below 0.632
        score, w = _632_from_scores(-0.3, -0.2, -0.5)
        assert -score == pytest.approx(0.368 * 0.3 + 0.632 * 0.2, abs=1e-15)
        assert w == 0.632
        ref, r = _mlxtend_632plus(0.3, 0.2, 0.5)
        assert r == pytest.approx(-0.5)
        assert ref == pytest.approx(0.3 - 0.632 / 1.184 * 0.1, abs=1e-12)


class TestNoInformation:
    """Exact no-information values against the naive O(n^2) pairs."""

    @staticmethod
    def _pairs(y, pred):
        n = len(y)
        return np.repeat(y, n, axis=0), np.tile(pred, (n,) + (1,) * (pred.ndim - 1))

    @pytest.mark.parametrize(
        ("func", "kwargs"),
        [
            (accuracy_score, {}),
            (balanced_accuracy_score, {}),
            (f1_score, {"average": "macro"}),
        ],
    )
    def test_labels(self, func, kwargs, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = rng.integers(0, 3, size=25)
        pred = np.where(rng.random(25) < 0.6, y, rng.integers(0, 3, size=25))
        ref = func(*self._pairs(y, pred), **kwargs)
        assert _no_information(func, 1, kwargs, y, pred) == pytest.approx(
            ref, abs=1e-12
        )

    def test_log_loss_and_brier(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = rng.integers(0, 3, size=20)
        proba = rng.dirichlet(np.ones(3), size=20)
        ref = log_loss(*self._pairs(y, proba))
        assert _no_information(log_loss, -1, {}, y, proba) == pytest.approx(
            -ref, abs=1e-12
        )
        yb, pb = y % 2, proba[:, 0]
        ref = log_loss(*self._pairs(yb, pb))
        assert _no_information(log_loss, -1, {}, yb, pb) == pytest.approx(
            -ref, abs=1e-12
        )
        ref = brier_score_loss(*self._pairs(yb, pb))
        assert _no_information(brier_score_loss, -1, {}, yb, pb) == pytest.approx(
            -ref, abs=1e-12
        )

    def test_roc_auc(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = rng.integers(0, 2, size=30)
        score = rng.normal(size=30) + y
        assert roc_auc_score(*self._pairs(y, score)) == pytest.approx(0.5, abs=1e-12)
        assert _no_information(roc_auc_score, 1, {}, y, score) == 0.5

    @pytest.mark.parametrize(
        "func",
        [mean_squared_error, root_mean_squared_error, mean_absolute_error, r2_score],
    )
    @pytest.mark.parametrize("n_outputs", [1, 2])
    def test_regression(self, func, n_outputs, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = rng.normal(size=(30, n_outputs)).squeeze()
        pred = y + rng.normal(size=y.shape)
        pred[3] = y[7]  # ties between targets and predictions
        ref = func(*self._pairs(y, pred))
        assert _no_information(func, -1, {}, y, pred) == pytest.approx(-ref, rel=1e-12)

    def test_unknown_metric_is_none(self):
        y = np.arange(10.0)
        assert (
            _no_information(mean_squared_error, -1, {"multioutput": "raw_values"}, y, y)
            is None
        )

    def test_custom_scorer_uses_random_pairings(self, clf_data):
        X, y = clf_data

        def scorer(est, X, y):
            return float(np.mean(est.predict(X) == y))

        est = GaussianNB()
        a = bootstrap_632_score(est, X, y, scoring=scorer, n_splits=4, random_state=0)
        b = bootstrap_632_score(
            est, X, y, scoring="accuracy", n_splits=4, random_state=0
        )
        np.testing.assert_array_equal(
            a.scores,
            bootstrap_632_score(
                est, X, y, scoring=scorer, n_splits=4, random_state=0
            ).scores,
        )
        assert a.metric == "scorer"
        # 20 random pairings estimate the exact no-information rate closely
        np.testing.assert_allclose(a.scores, b.scores, atol=0.02)


class TestWeights:
    @pytest.mark.parametrize(
        ("s_train", "s_test", "s_none", "w"),
        [
            (1.0, 0.9, 0.4, 0.632 / (1 - 0.368 * 0.1 / 0.6)),
            (1.0, 0.3, 0.4, 1.0),  # Err1 > gamma: R clipped to 1
            (0.8, 0.9, 0.4, 0.632),  # Err1 < err: R = 0
            (0.3, 0.2, 0.4, 0.632),  # gamma < err: R = 0
            (1.0, 1.0, 0.4, 0.632),  # no overfitting
        ],
    )
    def test_weight_and_clipping(self, s_train, s_test, s_none, w):
        score, weight = _632_from_scores(s_train, s_test, s_none)
        assert weight == pytest.approx(w, rel=1e-12)
        assert 0.632 <= weight <= 1.0
        err, err1, gamma = -s_train, -s_test, -s_none
        assert -score == pytest.approx(_naive_632(err, err1, gamma)[1], abs=1e-15)
        if err1 <= gamma:  # then .632+ is the weighted mean (1 - w) err + w Err1
            assert -score == pytest.approx((1 - w) * err + w * err1, abs=1e-12)

    def test_r_equal_one_gives_gamma_weight(self):
        # overfitting reaches the no-information level: w = 1, score = Err1
        score, w = _632_from_scores(1.0, 0.4, 0.4)
        assert (score, w) == (pytest.approx(0.4), pytest.approx(1.0))

    def test_weights_in_range_on_data(self, clf_data):
        X, y = clf_data
        scorer = check_scoring(None, scoring="accuracy")
        from skperf.model_selection._bootstrap_632 import _fit_and_632

        ws = [
            _fit_and_632(
                DecisionTreeClassifier(random_state=0), X, y, scorer, s, ".632+"
            )[4]
            for s in range(10)
        ]
        assert np.all((np.array(ws) >= 0.632) & (np.array(ws) <= 1.0))
        assert max(ws) > 0.632  # a full tree overfits


class TestInterface:
    def test_n_jobs_identical(self, clf_data):
        X, y = clf_data
        kw = {"scoring": "neg_log_loss", "n_splits": 6, "random_state": 3}
        a = bootstrap_632_score(GaussianNB(), X, y, n_jobs=1, **kw)
        b = bootstrap_632_score(GaussianNB(), X, y, n_jobs=2, **kw)
        np.testing.assert_array_equal(a.scores, b.scores)
        np.testing.assert_array_equal(a.seeds["split"], b.seeds["split"])
        assert a.metric == "neg_log_loss"
        assert np.all(a.scores < 0)

    def test_random_state(self, clf_data):
        X, y = clf_data
        est = GaussianNB()
        a = bootstrap_632_score(est, X, y, n_splits=5, random_state=0)
        b = bootstrap_632_score(est, X, y, n_splits=5, random_state=0)
        c = bootstrap_632_score(est, X, y, n_splits=5, random_state=1)
        np.testing.assert_array_equal(a.scores, b.scores)
        assert not np.array_equal(a.scores, c.scores)
        # more splits extend the sequence
        d = bootstrap_632_score(est, X, y, n_splits=7, random_state=0)
        np.testing.assert_array_equal(d.scores[:5], a.scores)
        rs = bootstrap_632_score(
            est, X, y, n_splits=3, random_state=np.random.RandomState(0)
        )
        assert rs.n == 3

    def test_roc_auc_scorer(self, clf_data):
        X, y = clf_data
        yb = (y == 0).astype(int)
        d = bootstrap_632_score(
            GaussianNB(), X, yb, scoring="roc_auc", n_splits=4, random_state=0
        )
        assert d.metric == "roc_auc"
        assert np.all((d.scores > 0.5) & (d.scores <= 1))

    def test_bad_method(self, clf_data):
        X, y = clf_data
        msg = "`method` must be one of '.632', '.632+', 'oob'; got '632+'."
        with pytest.raises(ValueError, match=re.escape(msg)):
            bootstrap_632_score(GaussianNB(), X, y, method="632+")

    @pytest.mark.parametrize("n_splits", [0, 2.5, True])
    def test_bad_n_splits(self, clf_data, n_splits):
        X, y = clf_data
        msg = f"`n_splits` must be an int >= 1; got {n_splits!r}."
        with pytest.raises(ValueError, match=re.escape(msg)):
            bootstrap_632_score(GaussianNB(), X, y, n_splits=n_splits)

    def test_y_required(self, clf_data):
        X, _ = clf_data
        with pytest.raises(ValueError, match="`y` is required"):
            bootstrap_632_score(GaussianNB(), X, None)


def test_groups_draw_whole_groups():
    # issue 17 item 18: groups are drawn whole (no group on both sides)
    from sklearn.base import clone
    from sklearn.metrics import accuracy_score

    from skperf.model_selection import GroupOutOfBootstrap

    X, y = make_classification(120, 4, random_state=0)
    groups = np.repeat(np.arange(30), 4)
    tree = DecisionTreeClassifier(random_state=0)
    d = bootstrap_632_score(
        tree,
        X,
        y,
        groups=groups,
        scoring="accuracy",
        n_splits=5,
        method="oob",
        random_state=0,
    )
    for seed, score in zip(d.seeds["split"], d.scores, strict=True):
        train, test = next(
            GroupOutOfBootstrap(1, random_state=int(seed)).split(X, y, groups)
        )
        assert np.intersect1d(groups[train], groups[test]).size == 0
        fit = clone(tree).fit(X[train], y[train])
        assert score == accuracy_score(y[test], fit.predict(X[test]))
    with pytest.raises(ValueError, match="at least 2 distinct groups"):
        bootstrap_632_score(tree, X, y, groups=np.zeros(120), n_splits=2)
