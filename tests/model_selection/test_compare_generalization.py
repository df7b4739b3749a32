"""compare_generalization: paired tests of two algorithms on new data."""

import re

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import NearestCentroid

from skperf import RepeatedEvaluator, repeated_cross_val_score
from skperf.model_selection._compare_generalization import (
    _AUTO_POLICY,
    GeneralizationComparison,
    compare_generalization,
)
from skperf.model_selection._vary import NewDataKFold
from skperf.stats._paired_tests import (
    bayesian_correlated_t,
    combined_5x2cv_f,
    corrected_paired_t,
    detectable_difference_5x2cv_f,
    paired_decision,
)
from skperf.utils._testing import RecordingClassifier

GROUPS = np.repeat(np.arange(40), 3)


def _groups_disjoint(est, X, y):
    """Scorer: 1.0, or an error if a test row's group was in the training set."""
    test = np.asarray(X)[:, 0].astype(int)
    assert not set(GROUPS[test]) & set(GROUPS[est.train_ids_]), "group leaked"
    return 1.0


class Counting(ClassifierMixin, BaseEstimator):
    """Predicts the majority class; counts its fits (n_jobs=1: in process)."""

    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        self.classes_, counts = np.unique(y, return_counts=True)
        self.mode_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.mode_)


@pytest.fixture(scope="module")
def data():
    return make_classification(
        120, n_features=6, n_informative=3, flip_y=0.1, random_state=0
    )


# ---------------------------------------------------------------------------
# the numbers are those of the pure tests on the paired per-split differences
class TestAgainstManualComputation:
    def test_corrected_t_equals_public_api(self, data):
        X, y = data
        a, b = GaussianNB(), NearestCentroid()
        res = compare_generalization(a, b, X, y, n_fits=10, random_state=3)
        # independently: two paired repeated 10-fold evaluations
        # compare_generalization's folds: shuffled, not stratified
        kw = {"cv": NewDataKFold(10), "n_repeats": 1, "random_state": 3}
        kw["scoring"] = "accuracy"
        d = np.asarray(repeated_cross_val_score(a, X, y, **kw)) - np.asarray(
            repeated_cross_val_score(b, X, y, **kw)
        )
        ref = corrected_paired_t(d, test_train_ratio=12 / 108)
        assert (res.estimate, res.low, res.high, res.pvalue) == pytest.approx(
            (ref.estimate, ref.low, ref.high, ref.pvalue), rel=1e-12
        )
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.decision == paired_decision(ref)
        assert (res.method, res.target, res.n, res.n_fits) == (
            "corrected-t",
            "new data",
            120,
            10,
        )
        assert res.metric == "accuracy"
        assert res.p_better is None
        assert "method='auto' chose: 1 x 10-fold CV" in res.note
        assert "trained on 108 of n = 120 rows" in res.note
        # by hand from scipy: t with J - 1 = 29 df, variance x (1/J + 1/9)
        se = np.sqrt((1 / 10 + 1 / 9) * np.var(d, ddof=1))
        assert res.pvalue == pytest.approx(
            2 * stats.t.sf(abs(d.mean() / se), 9), rel=1e-10
        )

    def test_5x2cv_f_equals_manual(self, data):
        X, y = data
        a, b = GaussianNB(), DummyClassifier()
        res = compare_generalization(a, b, X, y, method="5x2cv-f", random_state=1)
        evs = [
            RepeatedEvaluator(
                e, cv=NewDataKFold(2), n_repeats=5, random_state=1, refit=False
            ).fit(X, y)
            for e in (a, b)
        ]
        d = (
            evs[0].results_["test_score"].to_numpy()
            - evs[1].results_["test_score"].to_numpy()
        )
        ref = combined_5x2cv_f(d.reshape(5, 2))
        assert (res.statistic, res.pvalue) == pytest.approx(
            (ref.statistic, ref.pvalue), rel=1e-12
        )
        # the smallest difference the 5x2cv F detects (was None)
        assert res.detectable_difference == pytest.approx(
            detectable_difference_5x2cv_f(d.reshape(5, 2)), rel=1e-12
        )
        assert res.detectable_difference > 0
        assert (res.low, res.high) == pytest.approx((ref.low, ref.high), rel=1e-12)
        assert (res.decision, res.n_fits) == ("better", 10)

    def test_bayesian_equals_manual(self, data):
        X, y = data
        a, b = GaussianNB(), NearestCentroid()
        res = compare_generalization(
            a, b, X, y, method="bayesian", rope=0.01, n_fits=10, random_state=5
        )
        kw = {"cv": NewDataKFold(10), "n_repeats": 1, "random_state": 5}
        kw["scoring"] = "accuracy"
        d = np.asarray(repeated_cross_val_score(a, X, y, **kw)) - np.asarray(
            repeated_cross_val_score(b, X, y, **kw)
        )
        ref = bayesian_correlated_t(d, test_train_ratio=1 / 9, rope=0.01)
        assert (res.p_better, res.p_rope, res.p_worse) == pytest.approx(
            (ref.p_better, ref.p_rope, ref.p_worse), rel=1e-10, abs=1e-14
        )
        assert res.pvalue is None
        assert res.decision == paired_decision(ref)
        assert res.p_better + res.p_rope + res.p_worse == pytest.approx(1.0)
        assert "p_better=" in repr(res)

    def test_nested_cv_identical_models_and_dummy(self):
        X, y = make_regression(60, n_features=3, noise=5.0, random_state=0)
        kw = {
            "method": "nested-cv",
            "n_fits": 25,
            "random_state": 0,
            "scoring": "neg_mean_squared_error",
        }
        same = compare_generalization(Ridge(), Ridge(), X, y, **kw)
        assert (same.estimate, same.low, same.high, same.pvalue) == (0.0, 0, 0, 1.0)
        assert same.decision == "no significant difference"
        res = compare_generalization(Ridge(), DummyRegressor(), X, y, **kw)
        assert res.decision == "better"
        assert res.n_fits == 15
        assert res.low < res.estimate < res.high
        assert "nested 5-fold" in res.note
        # the z test's detectable difference at 80 % power (was None): about
        # (z_0.975 + z_0.8) se, se = estimate / statistic
        se = res.estimate / res.statistic
        assert res.detectable_difference == pytest.approx(
            se * (stats.norm.isf(0.025) + stats.norm.isf(0.2)), rel=1e-5
        )
        assert (same.detectable_difference, res.max_fits) == (0.0, 15)
        # sign: B minus A mirrors A minus B exactly
        rev = compare_generalization(DummyRegressor(), Ridge(), X, y, **kw)
        assert (rev.estimate, rev.low, rev.high) == pytest.approx(
            (-res.estimate, -res.high, -res.low), rel=1e-12
        )
        assert rev.pvalue == pytest.approx(res.pvalue)
        assert rev.decision == "worse"


class TestDesign:
    def test_reproducible_and_paired(self, data):
        X, y = data
        a, b = GaussianNB(), NearestCentroid()
        r1 = compare_generalization(a, b, X, y, n_fits=10, random_state=7)
        r2 = compare_generalization(a, b, X, y, n_fits=10, random_state=7)
        assert r1 == r2
        r3 = compare_generalization(a, b, X, y, n_fits=10, random_state=8)
        assert r3 != r1
        # identical algorithms on shared splits: every difference is 0
        same = compare_generalization(a, GaussianNB(), X, y, n_fits=10)
        assert (same.estimate, same.pvalue, same.decision) == (
            0.0,
            1.0,
            "no significant difference",
        )

    def test_memory_rerun_refits_nothing(self, data, tmp_path):
        X, y = data

        kw = {"n_fits": 20, "random_state": 0, "memory": tmp_path, "n_jobs": 1}
        Counting.fits = 0
        first = compare_generalization(Counting(), GaussianNB(), X, y, **kw)
        assert Counting.fits == 20
        second = compare_generalization(Counting(), GaussianNB(), X, y, **kw)
        assert Counting.fits == 20  # every fit came from the cache
        assert second == first
        # random_state=None cannot reuse the cache: said, and the seed drawn is
        # recorded so that passing it back reproduces the run from the cache
        kw.pop("random_state")
        with pytest.warns(UserWarning, match="no cached fit is ever reused"):
            fresh = compare_generalization(Counting(), GaussianNB(), X, y, **kw)
        assert Counting.fits == 40
        again = compare_generalization(
            Counting(), GaussianNB(), X, y, random_state=fresh.random_state, **kw
        )
        assert Counting.fits == 40
        assert again == fresh

    def test_groups_hold_out_whole_groups(self, data):
        X, y = data
        ids = np.c_[np.arange(len(y)), X]  # column 0: row ids (RecordingClassifier)
        res = compare_generalization(
            RecordingClassifier(),
            RecordingClassifier(),
            ids,
            y,
            groups=GROUPS,
            scoring=_groups_disjoint,  # raises if a test group was trained on
            n_fits=10,
            random_state=0,
        )
        assert res.estimate == 0.0
        assert "GroupKFold" in res.note
        assert res.n_fits == 10
        with pytest.raises(ValueError, match="needs at least 20 groups; got 8"):
            compare_generalization(
                GaussianNB(), DummyClassifier(), X, y, groups=np.arange(120) % 8
            )

    def test_rope_decisions(self, data):
        X, y = data
        a, b = GaussianNB(), DummyClassifier()
        res = compare_generalization(a, b, X, y, n_fits=10, random_state=0)
        assert res.decision == "better"
        wide = compare_generalization(
            a, b, X, y, n_fits=10, random_state=0, rope=res.estimate + 0.01
        )
        assert wide.decision == "better, not meaningful"
        assert wide.rope == pytest.approx(res.estimate + 0.01)
        same = compare_generalization(
            a,
            GaussianNB(var_smoothing=1e-8),
            X,
            y,
            n_fits=10,
            random_state=0,
            rope=0.05,
        )
        assert same.decision == "practically equivalent"

    def test_result_object(self, data):
        res = GeneralizationComparison(
            0.02, 0.005, 0.035, 0.01, "better", "corrected-t", 0.95, None, 200, 100
        )
        assert res.to_dict()["target"] == "new data"
        assert "target='new data'" in repr(res)
        with pytest.raises(AttributeError):
            res.estimate = 1.0
        assert (res == 3) is False
        assert _AUTO_POLICY["max_fits"] <= 100


class TestValidation:
    @pytest.mark.parametrize(
        ("kwargs", "err", "msg"),
        [
            (
                {"method": "wilcoxon"},
                ValueError,
                (
                    "`method` must be one of ['auto', 'corrected-t', '5x2cv-f', "
                    "'nested-cv', 'bayesian']; got 'wilcoxon'."
                ),
            ),
            (
                {"confidence": 95},
                ValueError,
                "`confidence` must be in (0, 1); got 95. Did you mean 0.95?",
            ),
            (
                {"rope": -0.01},
                ValueError,
                (
                    "`rope` must be None or a non-negative float in the metric's "
                    "units; got -0.01."
                ),
            ),
            (
                {"n_fits": 0},
                ValueError,
                "`n_fits` must be 'auto' or a positive int (fits per model); got 0.",
            ),
            (
                {"n_fits": 5},
                ValueError,
                (
                    "method='corrected-t' needs n_fits >= 10 per model (one "
                    "repetition of its design); got n_fits=5."
                ),
            ),
            (
                {"method": "5x2cv-f", "n_fits": 20},
                ValueError,
                (
                    "method='5x2cv-f' makes exactly 10 fits per model (5 x 2-fold); "
                    "got n_fits=20."
                ),
            ),
            (
                {"method": "nested-cv", "scoring": "roc_auc"},
                ValueError,
                "method='nested-cv' needs per-row scores, so a decomposable scorer",
            ),
            (
                {"scoring": "acuracy"},
                ValueError,
                (
                    "`scoring`='acuracy' is not a scikit-learn scorer name. Did you "
                    "mean 'accuracy'"
                ),
            ),
            (
                {"scoring": ["accuracy", "roc_auc"]},
                TypeError,
                "`scoring` must be None, one scikit-learn scorer name or a callable",
            ),
            (
                {"random_state": -1},
                ValueError,
                "`random_state` must be None, a non-negative int",
            ),
        ],
    )
    def test_bad_argument_before_any_fit(self, data, kwargs, err, msg):
        X, y = data

        class NeverFit(GaussianNB):
            def fit(self, X, y):  # pragma: no cover - must not be reached
                raise AssertionError("fitted before validation")

        with pytest.raises(err, match=re.escape(msg)):
            compare_generalization(NeverFit(), GaussianNB(), X, y, **kwargs)

    def test_scoring_none_needs_same_kind(self, data):
        X, y = data
        with pytest.raises(TypeError, match="`scoring=None` needs two classifiers"):
            compare_generalization(GaussianNB(), Ridge(), X, y)

    def test_too_few_rows(self):
        X, y = make_classification(15, random_state=0)
        msg = "method='auto' (corrected-t, 10-fold) needs at least 20 rows; got 15."
        with pytest.raises(ValueError, match=re.escape(msg)):
            compare_generalization(GaussianNB(), DummyClassifier(), X, y)
        msg = "method='nested-cv' (5-fold) needs at least 25 rows; got 15."
        with pytest.raises(ValueError, match=re.escape(msg)):
            compare_generalization(
                GaussianNB(), DummyClassifier(), X, y, method="nested-cv"
            )


# ---------------------------------------------------------------------------
# null and power studies over datasets of a population (fresh data each time).
# Two algorithms that are equally good by construction: nearest centroid on
# two disjoint, equally informative halves of the features.
def _population(rng, n, p, signal):
    X = rng.normal(size=(n, 2 * p))
    b1, b2 = signal
    lin = b1 * X[:, :p].sum(axis=1) + b2 * X[:, p:].sum(axis=1)
    y = (lin + rng.normal(size=n) > 0).astype(int)
    return X, y


def _strat_folds(y, K, rng):
    folds = np.empty(len(y), dtype=np.int64)
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        folds[rng.permutation(idx)] = (np.arange(len(idx)) + rng.integers(K)) % K
    return folds


def _centroid_acc(X, y, folds, K):
    """Accuracy, per repeat and fold, of nearest centroid trained outside it.

    ``folds`` (R, n): fold of each row in each repeat. Vectorized over
    repeats and folds: the centroids of fold k's training rows are the class
    sums minus fold k's class sums.
    """
    F = (folds[..., None] == np.arange(K)).astype(float)  # (R, n, K)
    C = (y[:, None] == np.array([0, 1])).astype(float)  # (n, 2)
    sums = np.einsum("rnk,nc,np->rkcp", F, C, X)  # fold-class feature sums
    cnts = np.einsum("rnk,nc->rkc", F, C)
    mu = (sums.sum(axis=1, keepdims=True) - sums) / (
        cnts.sum(axis=1, keepdims=True) - cnts
    )[..., None]  # (R, K, 2, p): centroids trained outside fold k
    own = np.take_along_axis(mu, folds[:, :, None, None], axis=1)  # (R, n, 2, p)
    dist = ((X[None, :, None, :] - own) ** 2).sum(axis=-1)  # (R, n, 2)
    hit = (dist.argmin(axis=-1) == y).astype(float)  # (R, n)
    return np.einsum("rn,rnk->rk", hit, F) / F.sum(axis=1)  # (R, K)


def _study(n_datasets, n, signal, seed, R=10, K=10, p=3):
    """Rates of 'significant' for the default (corrected t, R x K) and 5x2cv F."""
    rng = np.random.default_rng(seed)
    sig_t = np.empty(n_datasets, dtype=bool)
    sig_f = np.empty(n_datasets, dtype=bool)
    for i in range(n_datasets):
        X, y = _population(rng, n, p, signal)
        folds = np.stack([_strat_folds(y, K, rng) for _ in range(R)])
        d = _centroid_acc(X[:, :p], y, folds, K) - _centroid_acc(X[:, p:], y, folds, K)
        res = corrected_paired_t(d.ravel(), test_train_ratio=1 / (K - 1))
        sig_t[i] = paired_decision(res) != "no significant difference"
        folds = np.stack([_strat_folds(y, 2, rng) for _ in range(5)])
        d5 = _centroid_acc(X[:, :p], y, folds, 2) - _centroid_acc(X[:, p:], y, folds, 2)
        sig_f[i] = combined_5x2cv_f(d5).pvalue < 0.05
    return sig_t.mean(), sig_f.mean()


def test_study_learner_is_nearest_centroid():
    # the vectorized learner of the studies equals scikit-learn's, fold by fold
    rng = np.random.default_rng(0)
    X, y = _population(rng, 200, 3, (0.5, 0.5))
    folds = np.stack([_strat_folds(y, 10, rng) for _ in range(2)])
    ref = [
        [
            NearestCentroid()
            .fit(X[f != k, :3], y[f != k])
            .score(X[f == k, :3], y[f == k])
            for k in range(10)
        ]
        for f in folds
    ]
    np.testing.assert_allclose(_centroid_acc(X[:, :3], y, folds, 10), ref)


def test_null_study_default_design_small():
    # 60 datasets of n = 200 (fast); the full study is below, marked slow.
    rate_t, rate_f = _study(60, 200, (0.5, 0.5), seed=0)
    mc = np.sqrt(0.05 * 0.95 / 60)
    assert rate_t <= 0.05 + 2 * mc, rate_t
    assert rate_f <= 0.05 + 2 * mc, rate_f


@pytest.mark.slow
def test_null_and_power_study_default_design():
    # 400 datasets of n = 200; the default: corrected t on 10 x 10-fold.
    n_sets = 400
    mc = np.sqrt(0.05 * 0.95 / n_sets)
    null_t, null_f = _study(n_sets, 200, (0.5, 0.5), seed=1)
    assert null_t <= 0.05 + 2 * mc, null_t
    assert null_f <= 0.05 + 2 * mc, null_f
    # a real difference: the first half carries more signal
    pow_t, pow_f = _study(n_sets, 200, (0.7, 0.4), seed=2)
    assert pow_t >= pow_f - 0.05, (pow_t, pow_f)


class _HalfCentroid(ClassifierMixin, BaseEstimator):
    """Nearest centroid on one half (0 or 1) of the 2 * p features."""

    def __init__(self, half=0, p=3):
        self.half = half
        self.p = p

    def _half(self, X):
        return np.asarray(X)[:, self.half * self.p : (self.half + 1) * self.p]

    def fit(self, X, y):
        X = self._half(X)
        self.classes_ = np.unique(y)
        self.mu_ = np.stack([X[y == c].mean(axis=0) for c in self.classes_])
        return self

    def predict(self, X):
        d = ((self._half(X)[:, None, :] - self.mu_[None]) ** 2).sum(axis=-1)
        return self.classes_[d.argmin(axis=1)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("signal", "seed"), [((0.5, 0.5), 100), ((0.7, 0.4), 200)], ids=["null", "power"]
)
def test_study_through_compare_generalization(signal, seed, tmp_path):
    # 200 fresh datasets of n = 200; every fit through compare_generalization
    # (default: 10 x 10-fold corrected t, 100 fits per model; and 5x2cv F).
    # Measured 2026-11-25 (about 30 minutes per case on a loaded 2-core
    # machine): "significant" on equal halves 0.025 (default), 0.045 (5x2cv
    # F); on unequal halves 0.640 (default), 0.580 (5x2cv F).
    rng = np.random.default_rng(seed)
    n_sets = 200
    sig = {"auto": [], "5x2cv-f": []}
    for i in range(n_sets):
        X, y = _population(rng, 200, 3, signal)
        for method in sig:
            res = compare_generalization(
                _HalfCentroid(0),
                _HalfCentroid(1),
                X,
                y,
                method=method,
                random_state=i,
                n_jobs=1,
            )
            sig[method].append(res.decision != "no significant difference")
    rate = {m: np.mean(v) for m, v in sig.items()}
    if signal[0] == signal[1]:
        assert rate["auto"] <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / n_sets), rate
    else:
        assert rate["auto"] >= rate["5x2cv-f"] - 0.05, rate


def _bayes_rule(res):
    """The decision the printed posterior gives (issue 29, item 1)."""
    c, rope = res.confidence, res.rope or 0.0
    if res.p_better > c:
        return "better"
    if res.p_worse > c:
        return "worse"
    if rope > 0 and res.p_rope > c:
        return "practically equivalent"
    return "no significant difference"


@pytest.fixture(scope="module")
def cancer():
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    lr = make_pipeline(StandardScaler(), LogisticRegression())
    return lr, DecisionTreeClassifier(max_depth=2, random_state=0), X, y


class TestBayesianDecisionFollowsPosterior:
    """Issue 29, item 1: lr vs a depth-2 tree on breast cancer."""

    @pytest.mark.parametrize(
        ("rope", "expected", "p"),
        [
            # was "better" at every rope, "better, not meaningful" at 0.1
            (0.0, "better", (0.99999711, 0.0, 2.89e-06)),
            (0.05, "no significant difference", (0.87991949, 0.12008051, 0.0)),
            (0.1, "practically equivalent", (0.0019618, 0.9980382, 0.0)),
        ],
    )
    def test_rope_0_005_01(self, cancer, rope, expected, p):
        lr, tree, X, y = cancer
        res = compare_generalization(
            lr, tree, X, y, method="bayesian", rope=rope, random_state=0
        )
        np.testing.assert_allclose(
            (res.p_better, res.p_rope, res.p_worse), p, atol=1e-7
        )
        assert res.decision == _bayes_rule(res) == expected
        assert "'better' when P(A - B > rope) > 0.95" in res.note
        assert "'practically equivalent' when P(|A - B| <= rope) > 0.95" in res.note
        assert res.borderline is False

    def test_groups(self, cancer):
        # the case: "better" at p_better just above 0.95 beside a 95 %
        # interval through 0: the rule holds, and the call is borderline
        lr, tree, X, y = cancer
        groups = np.arange(120) % 25
        res = compare_generalization(
            lr,
            tree,
            X[:120],
            y[:120],
            groups=groups,
            method="bayesian",
            random_state=0,
        )
        assert res.p_better == pytest.approx(0.96499592, abs=1e-7)
        assert res.low < 0 < res.high
        assert res.decision == _bayes_rule(res) == "better"
        assert res.borderline is True
        assert "borderline: 1 - max(p_better, p_worse, p_rope) = 0.035" in res.note
        assert "more fits (n_fits above 30)" in res.note
        for rope in (0.1,):
            r = compare_generalization(
                lr,
                tree,
                X[:120],
                y[:120],
                groups=groups,
                method="bayesian",
                rope=rope,
                random_state=0,
            )
            assert r.decision == _bayes_rule(r)


class TestBorderline:
    """Issue 29, item 18: a borderline decision says so, and what settles it."""

    @pytest.mark.parametrize(
        ("pvalue", "decision", "borderline"),
        [
            (0.01, "better", False),
            (0.03, "better", True),  # the README's lr vs rf: p = 0.030-0.114
            (0.07, "no significant difference", True),
            (0.114, "no significant difference", False),
        ],
    )
    def test_frequentist(self, pvalue, decision, borderline):
        res = GeneralizationComparison(
            0.02, 0.001, 0.04, pvalue, decision, "corrected-t", 0.95, None, 200, 100
        )
        assert res.borderline is borderline
        assert res.to_dict()["borderline"] is borderline
        text = (
            f"borderline: p = {pvalue:.3g} is within a factor of 2 of the level "
            "0.05 (0.025 to 0.1), so a re-run with another random_state can flip "
            "the decision; more fits (n_fits above 100) make it reproducible; if "
            "it stays borderline, only more data settles it."
        )
        assert (text in res.note) is borderline

    def test_from_compare_generalization(self, data):
        X, y = data
        res = compare_generalization(
            GaussianNB(), NearestCentroid(), X, y, n_fits=20, random_state=0
        )
        low, high = 0.025, 0.10
        assert res.borderline is bool(low <= res.pvalue < high)
        assert ("borderline:" in res.note) is res.borderline

    def test_stats_result(self):
        d = np.array([0.02, 0.01, 0.03, -0.01, 0.02, 0.0, 0.04, -0.02, 0.02, 0.01])
        for shift, p, flag in [
            (0.0, 0.18369525, False),
            (0.005, 0.07174406, True),
            (0.01, 0.02690343, True),
        ]:
            r = corrected_paired_t(d + shift, test_train_ratio=1 / 9)
            assert r.pvalue == pytest.approx(p, abs=1e-8)
            assert r.borderline is flag
        batch = corrected_paired_t(
            np.array([[0.02, 0.01, 0.03, 0.0] * 3, [0.05, -0.05, 0.01, 0.0] * 3]),
            test_train_ratio=1 / 3,
        )
        p = np.asarray(batch.pvalue)
        np.testing.assert_allclose(p, [0.07202989, 0.91896144], atol=1e-8)
        assert batch.borderline.tolist() == [True, False]


class TestSequentialDefault:
    """compare_generalization's default is sequential (issue 26)."""

    def test_decides_early_and_says_why(self):
        from sklearn.datasets import load_breast_cancer
        from sklearn.dummy import DummyClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        X, y = load_breast_cancer(return_X_y=True)
        lr = make_pipeline(StandardScaler(), LogisticRegression())
        res = compare_generalization(
            lr, DummyClassifier(), X, y, scoring="accuracy", random_state=0
        )
        assert (res.decision, res.stopped) == ("better", "decided")
        assert (res.n_fits, res.max_fits) == (20, 100)  # the first efficacy look
        assert res.detectable_difference > 0
        assert "20 of at most 100 fits per model" in res.note
        fixed = compare_generalization(
            lr, DummyClassifier(), X, y, scoring="accuracy", random_state=0, n_fits=20
        )
        # the same 20 fits: the estimate is the fixed design's; the interval
        # is the repeated confidence interval, wider
        assert res.estimate == pytest.approx(fixed.estimate, abs=1e-12)
        assert res.low < fixed.low
        assert res.high > fixed.high
        assert fixed.stopped == "fixed"

    def test_futile_on_near_equal_models(self):
        from sklearn.datasets import load_breast_cancer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        X, y = load_breast_cancer(return_X_y=True)
        a = make_pipeline(StandardScaler(), LogisticRegression())
        b = make_pipeline(StandardScaler(), LogisticRegression(C=0.5))
        res = compare_generalization(a, b, X, y, scoring="accuracy", random_state=0)
        assert (res.stopped, res.decision) == ("futile", "no significant difference")
        assert res.n_fits == 10

    def test_max_fits_caps_the_rounds(self, data):
        X, y = data
        res = compare_generalization(
            LogisticRegression(),
            LogisticRegression(C=0.1),
            X,
            y,
            random_state=0,
            max_fits=20,
        )
        assert res.max_fits == 20
        assert res.n_fits <= 20

    def test_5x2cv_names_its_measured_rate(self, data):
        X, y = data
        res = compare_generalization(
            LogisticRegression(),
            LogisticRegression(C=0.1),
            X,
            y,
            method="5x2cv-f",
            random_state=0,
        )
        assert "11.0 % of equal algorithms" in res.note
        assert res.stopped == "fixed"

    @pytest.mark.parametrize(
        ("kw", "match"),
        [
            ({"max_fits": 5}, "max_fits"),
            ({"precision": 0.1, "n_fits": 30}, "sequential design"),
            ({"time_budget": -1}, "time_budget"),
        ],
    )
    def test_bad_budgets(self, data, kw, match):
        X, y = data
        with pytest.raises(ValueError, match=match):
            compare_generalization(
                LogisticRegression(), LogisticRegression(), X, y, **kw
            )


class _FailsOnSomeFits(ClassifierMixin, BaseEstimator):
    """The majority class; fails on the 3rd and 7th fit of the process."""

    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        if type(self).fits in (3, 7):
            raise RuntimeError("boom")
        self.classes_, counts = np.unique(y, return_counts=True)
        self.mode_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.mode_)


class TestOneFailureRule:
    """compare_generalization runs every fit, then reports the failures once
    with their count, model and split (issue 29, item 13; the rule of
    generalization_ci)."""

    def test_counts_and_names_the_failures(self, data):
        X, y = data
        _FailsOnSomeFits.fits = 0
        with pytest.raises(ValueError, match=r"2 of 40 fits failed") as info:
            compare_generalization(
                _FailsOnSomeFits(), Counting(), X, y, n_fits=20, random_state=0
            )
        msg = str(info.value)
        assert "(model A, repeat 0, split " in msg
        assert "RuntimeError: boom" in msg
        # every fit ran: 20 of A (2 failed) before the report
        assert _FailsOnSomeFits.fits == 20


class TestResumeFromCache:
    """A stopped run extended gives the fits of a longer run (same seeds), and
    a cached rerun refits nothing (issue 26, item 4)."""

    def test_extending_max_fits_refits_only_the_new_rounds(self, data, tmp_path):
        X, y = data
        kw = {"random_state": 0, "memory": str(tmp_path)}
        Counting.fits = 0
        short = compare_generalization(
            LogisticRegression(), Counting(), X, y, max_fits=10, **kw
        )
        assert (short.n_fits, Counting.fits) == (10, 10)
        Counting.fits = 0
        longer = compare_generalization(
            LogisticRegression(), Counting(), X, y, max_fits=30, n_fits=30, **kw
        )
        assert Counting.fits == 20  # the first round came from the cache
        assert longer.n_fits == 30
        Counting.fits = 0
        again = compare_generalization(
            LogisticRegression(), Counting(), X, y, max_fits=30, n_fits=30, **kw
        )
        assert Counting.fits == 0
        assert again.estimate == longer.estimate


def test_compare_stopping_state_words():
    from skperf.model_selection._compare_generalization import _CompareStopping
    from skperf.stats._sequential import compare_look

    stop = _CompareStopping(0.95, None)
    assert stop.state(1, None) is None
    d = np.full((2, 10), 0.05) + np.linspace(-0.01, 0.01, 20).reshape(2, 10)
    stop.last = compare_look(d, test_train_ratio=1 / 9, max_rounds=10)
    assert stop.state(2, "decided") == "A ahead, decided after 2 round(s)"
    stop.last = compare_look(-d[:1], test_train_ratio=1 / 9, max_rounds=10)
    assert stop.state(1, None).startswith("B ahead, undecided (p = ")
