"""auto's log-scale reading of squared-error losses at 100 <= n < 300
(issue 29, item 19; benchmarks/heavy_tail_study.py)."""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LinearRegression, LogisticRegression

from skperf import generalization_ci
from skperf.model_selection._generalization import (
    _AUTO_POLICY,
    _LOG_READING_MAX_N,
    _log_reading,
    _resolve_auto,
)
from skperf.stats._generalization import corrected_t_ci
from tests._data.benchmarks import load_benchmark

SQUARED = ("neg_mean_squared_error", "neg_root_mean_squared_error")
OTHERS = ("accuracy", "roc_auc", "neg_log_loss", "r2", "neg_mean_absolute_error")


class TestPolicy:
    def test_row_order(self):
        assert [r[0] for r in _AUTO_POLICY] == [
            "nested-cv",
            "calibrated-t-log",
            "calibrated-t",
        ]
        assert _LOG_READING_MAX_N == 300

    @pytest.mark.parametrize("metric", SQUARED)
    @pytest.mark.parametrize("n", [100, 150, 299])
    def test_fires_for_squared_error_in_window(self, metric, n):
        per_row = metric == "neg_mean_squared_error"
        assert _resolve_auto(n, per_row, False, 100, metric=metric) == (
            "calibrated-t-log"
        )
        # groups: the corrected t is the only method, read the same way
        assert _resolve_auto(n, per_row, True, 100, metric=metric) == (
            "calibrated-t-log"
        )

    @pytest.mark.parametrize("metric", OTHERS)
    def test_not_for_other_scorers(self, metric):
        per_row = metric not in ("roc_auc", "r2")
        for n in (100, 150, 299):
            assert _resolve_auto(n, per_row, False, 100, metric=metric) == (
                "calibrated-t"
            )

    def test_not_outside_window(self):
        assert _resolve_auto(99, True, False, 100, "neg_mean_squared_error") == (
            "nested-cv"
        )
        assert _resolve_auto(99, False, False, 100, "neg_root_mean_squared_error") == (
            "calibrated-t"
        )
        for n in (300, 1000):
            for metric in SQUARED:
                assert _resolve_auto(n, True, False, 100, metric) == "calibrated-t"
        # no metric (the study's replay, an evaluator): the old rule
        assert _resolve_auto(150, True, False, 100) == "calibrated-t"


class TestLogReading:
    def test_numbers(self):
        # L = 2, h = 1: [2 exp(-1/2), 2 exp(1/2)], negated
        lo, hi = _log_reading(-2.0, -3.0, -1.0)
        assert lo == pytest.approx(-2 * np.exp(0.5))
        assert hi == pytest.approx(-2 * np.exp(-0.5))
        lo, hi = _log_reading(2.0, 1.0, 3.0)  # a loss reported positive
        assert (lo, hi) == pytest.approx((2 * np.exp(-0.5), 2 * np.exp(0.5)))
        # geometric centre: low * high = estimate^2; never crosses 0
        lo, hi = _log_reading(-0.5, -2.0, 1.0)
        assert lo * hi == pytest.approx(0.25)
        assert hi < 0
        assert _log_reading(0.0, -1.0, 1.0) == (-1.0, 1.0)
        assert _log_reading(-1.0, -np.inf, np.inf) == (-np.inf, np.inf)


def _symmetric(ci):
    return ci.estimate - ci.low == pytest.approx(ci.high - ci.estimate)


@pytest.fixture(scope="module")
def reg():
    X, y = make_regression(300, 5, noise=20.0, random_state=0)
    return X, y


class TestThroughAPI:
    @pytest.mark.parametrize("metric", SQUARED)
    def test_log_in_window(self, reg, metric):
        X, y = reg
        ci = generalization_ci(
            LinearRegression(), X[:150], y[:150], scoring=metric, random_state=0
        )
        assert ci.method == "corrected-t"
        assert ci.n_fits == 30
        # log scale: geometric centre, longer towards the larger loss
        assert ci.low * ci.high == pytest.approx(ci.estimate**2)
        assert ci.estimate - ci.low > 1.05 * (ci.high - ci.estimate)
        # the same fits as the symmetric reading: same estimate and t se
        ref = generalization_ci(
            LinearRegression(),
            X[:150],
            y[:150],
            scoring=metric,
            method="corrected-t",
            n_fits=30,
            random_state=0,
        )
        assert ci.estimate == pytest.approx(ref.estimate)

    def test_symmetric_outside(self, reg):
        X, y = reg
        ci = generalization_ci(
            LinearRegression(), X, y, scoring="neg_mean_squared_error", random_state=0
        )
        assert ci.method == "corrected-t"
        assert _symmetric(ci)
        ci = generalization_ci(
            LinearRegression(), X[:150], y[:150], scoring="r2", random_state=0
        )
        assert ci.method == "corrected-t"
        assert _symmetric(ci)
        ci = generalization_ci(
            LinearRegression(),
            X[:150],
            y[:150],
            scoring="neg_mean_absolute_error",
            random_state=0,
        )
        assert _symmetric(ci)

    @pytest.mark.parametrize("scoring", ["roc_auc"])
    def test_symmetric_classification(self, scoring):
        X, y = make_classification(150, 5, random_state=0)
        ci = generalization_ci(
            LogisticRegression(), X, y, scoring=scoring, random_state=0
        )
        assert ci.method == "corrected-t"
        assert _symmetric(ci)


class TestRootMean:
    """An RMSE is read on its fold MSEs, the interval's ends their roots
    (benchmarks/rmse_study.py): the mean of fold RMSEs is biased low for
    the root of the expected squared error."""

    @pytest.mark.parametrize("n", [150, 300])  # log window, symmetric
    def test_roots_of_the_mse_interval(self, reg, n):
        X, y = reg[0][:n], reg[1][:n]
        kw = {"random_state": 3}
        rmse = generalization_ci(
            LinearRegression(), X, y, scoring="neg_root_mean_squared_error", **kw
        )
        mse = generalization_ci(
            LinearRegression(), X, y, scoring="neg_mean_squared_error", **kw
        )
        assert rmse.n_fits == mse.n_fits
        roots = [-np.sqrt(-v) for v in (mse.estimate, mse.low, mse.high)]
        np.testing.assert_allclose([rmse.estimate, rmse.low, rmse.high], roots)
        assert "fold MSEs" in rmse.note

    def test_evaluator_reads_the_same(self, reg):
        from skperf import RepeatedEvaluator

        X, y = reg
        ev = RepeatedEvaluator(
            LinearRegression(),
            scoring="neg_root_mean_squared_error",
            cv=10,
            n_repeats=3,
            random_state=0,
        ).fit(X, y)
        ci = ev.generalization_ci()
        folds = ev.results_["test_neg_root_mean_squared_error"].to_numpy()
        # the root of the mean fold MSE, above the mean of the fold RMSEs
        assert ci.estimate == pytest.approx(-np.sqrt(np.mean(folds**2)))
        assert -ci.estimate > -folds.mean()
        ref = corrected_t_ci(-(folds**2), n_train=270, n_test=30, df=9)
        np.testing.assert_allclose(
            [ci.low, ci.high], [-np.sqrt(-ref.low), -np.sqrt(-ref.high)]
        )


def _t5_folds(rng, n, R=3, K=10):
    """A t(5) regression dataset (the study's population) and its R x K-fold
    OLS fold MSEs."""
    beta = np.array([1.0, -0.5, 0.25, 0.0, 0.0])
    X = rng.standard_normal((n, 5))
    y = 1.0 + X @ beta + rng.standard_t(5.0, n)
    Z = np.column_stack([np.ones(n), X])
    F = np.empty(R * K)
    for r in range(R):
        perm = rng.permutation(n)
        for k, te in enumerate(np.array_split(perm, K)):
            tr = np.setdiff1d(perm, te)
            th = np.linalg.lstsq(Z[tr], y[tr], rcond=None)[0]
            F[r * K + k] = np.mean((y[te] - Z[te] @ th) ** 2)
    return F


def _t5_expected_mse(rng, n, n_sets=3000):
    """The expected squared error on new data of OLS trained on ``n`` rows of
    the t(5) population: Var(e) + E||theta_hat - theta||^2 over ``n_sets``
    training sets."""
    beta = np.r_[1.0, 1.0, -0.5, 0.25, 0.0, 0.0]
    err = []
    for _ in range(n_sets):
        X = rng.standard_normal((n, 5))
        Z = np.column_stack([np.ones(n), X])
        y = Z @ beta + rng.standard_t(5.0, n)
        err.append(np.sum((np.linalg.lstsq(Z, y, rcond=None)[0] - beta) ** 2))
    return 5 / 3 + np.mean(err)


def test_monte_carlo_t5_n100():
    """Fast check (about 4 s): 400 t(5) datasets of n = 100, auto's reading
    (3 x 10-fold, 9 df) of the OLS fold MSEs, symmetric and on the log
    scale, against the expected MSE of OLS trained on 100 rows (Var(e) +
    E||theta_hat - theta||^2, 3000 training sets)."""
    n, D = 100, 400
    rng = np.random.default_rng(2919)
    truth = _t5_expected_mse(rng, n)
    sym = logr = optimistic = log_optimistic = 0
    for _ in range(D):
        F = _t5_folds(rng, n)
        ci = corrected_t_ci(-F, n_train=90, n_test=10, df=9)
        lo, hi = _log_reading(ci.estimate, ci.low, ci.high)
        sym += ci.low <= -truth <= ci.high
        optimistic += -truth < ci.low
        logr += lo <= -truth <= hi
        log_optimistic += -truth < lo
    # every miss of the symmetric reading is optimistic; the log reading
    # moves the interval towards the larger loss and holds the level
    assert optimistic == D - sym
    assert log_optimistic < optimistic
    assert logr / D >= 0.93
    # fixed seeds, measured (MC s.e. 0.012): 0.94 -> 0.9525
    assert (sym / D, logr / D) == pytest.approx((0.94, 0.9525), abs=1e-9)
    assert (optimistic, log_optimistic) == (24, 17)


def test_monte_carlo_rmse_t5_n100():
    """Fast check (about 4 s): the same 400 t(5) datasets of n = 100, auto's
    log reading of 3 x 10-fold OLS fold scores for the RMSE on new data,
    sqrt(Var(e) + E||theta_hat - theta||^2): on the fold RMSEs averaged (the
    reading before) and as the roots of the fold MSEs' interval (now)."""
    from skperf.model_selection._generalization import _signed_root
    from skperf.report._model_selection import _corrected_t_interval

    n, D = 100, 400
    rng = np.random.default_rng(2919)
    truth = -np.sqrt(_t5_expected_mse(rng, n))
    before = now = optimistic_before = optimistic_now = 0
    report = {None: [0, 0], "neg_root_mean_squared_error": [0, 0]}
    for _ in range(D):
        F = _t5_folds(rng, n)
        # a report built from scores (Nadeau & Bengio, J - 1 = 29 df, no log
        # reading): the mean fold RMSE (metric unknown) or the root reading
        for metric, counts in report.items():
            ci = _corrected_t_interval(-np.sqrt(F), 1 / 9, 0.95, metric)
            counts[0] += ci.low <= truth <= ci.high
            counts[1] += truth < ci.low
        for scores, root in ((-np.sqrt(F), False), (-F, True)):
            ci = corrected_t_ci(scores, n_train=90, n_test=10, df=9)
            lo, hi = _log_reading(ci.estimate, ci.low, ci.high)
            if root:
                lo, hi = _signed_root(lo), _signed_root(hi)
                now += lo <= truth <= hi
                optimistic_now += truth < lo
            else:
                before += lo <= truth <= hi
                optimistic_before += truth < lo
    # the mean of fold RMSEs is biased low: more optimistic misses
    assert optimistic_now < optimistic_before
    assert now / D >= 0.93
    # fixed seeds, measured (MC s.e. 0.011)
    assert (before / D, now / D) == pytest.approx((0.945, 0.9525), abs=1e-9)
    assert (optimistic_before, optimistic_now) == (22, 17)
    # the roots of the MSE interval cover as that interval does (same truth
    # squared): 0.9525, as in test_monte_carlo_t5_n100
    # the report's own reading: fewer optimistic misses with the roots, both
    # below the level on this heavy-tailed cell (29 df; auto reads 9 df and
    # the log scale here): published on the Validity page
    assert report == {None: [363, 37], "neg_root_mean_squared_error": [370, 30]}


@pytest.mark.slow
def test_coverage_t5_n100_api():
    """generalization_ci(method="auto") on the study's t(5) population at
    n = 100 (the study's first 400 datasets, seeds [SEED, 100, s]): the
    expected MSE of OLS trained on 100 rows. Measured: 0.960 (symmetric
    reading before this rule: 0.9225). About 25-70 s."""
    h = load_benchmark("heavy_tail_study")
    h.NOISE = "t5"
    rows = h.rules_run(100, n_datasets=400, api=("auto",))
    auto = [r for r in rows if r[2] == "auto"]
    hits = np.mean([lo <= t <= hi for *_, lo, hi, t in auto])
    assert all(r[3] == "corrected-t" and r[4] == 30 for r in auto)
    assert hits >= 0.93
    assert hits == pytest.approx(0.96, abs=1e-9)


def test_same_reading_in_compare_models_headline():
    # one design, one reading: compare_models' headline interval (the
    # evaluator's generalization_ci) is read on the log scale too
    import dataclasses
    import warnings

    from sklearn.linear_model import Ridge

    from skperf import compare_models

    X, y = make_regression(150, 5, noise=20.0, random_state=0)
    scoring = "neg_mean_squared_error"
    ci = generalization_ci(
        LinearRegression(), X, y, scoring=scoring, random_state=7, n_fits=100
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = compare_models(
            {"ols": LinearRegression(), "ridge": Ridge(10.0)},
            X,
            y,
            scoring=scoring,
            random_state=7,
            n_repeats=10,
        )
    head = report.generalization["ols"]
    if head.estimate > 0:  # the report shows the loss itself
        head = dataclasses.replace(
            head, estimate=-head.estimate, low=-head.high, high=-head.low
        )
    assert ci.n_fits == head.n_fits == 100
    assert ci.low * ci.high == pytest.approx(ci.estimate**2)
    assert (ci.estimate, ci.low, ci.high) == pytest.approx(
        (head.estimate, head.low, head.high), rel=1e-12
    )
