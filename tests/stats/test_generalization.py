"""Tests of the interval formulas for new data (skperf/stats/_generalization.py)."""

import re

import numpy as np
import pytest
from scipy import stats

from skperf.stats._generalization import (
    CVInterval,
    conservative_z_ci,
    corrected_t_ci,
    holdout_ci,
    nested_cv_ci,
    wald_cv_ci,
)


class TestCorrectedT:
    def test_against_scipy_by_hand(self):
        x = np.array([0.81, 0.79, 0.85, 0.83, 0.78, 0.86, 0.80, 0.84, 0.82, 0.80])
        ci = corrected_t_ci(x, n_train=450, n_test=50, confidence=0.9)
        se = np.sqrt((1 / 10 + 50 / 450) * np.var(x, ddof=1))
        q = stats.t.ppf(0.95, 9)
        assert ci.estimate == pytest.approx(x.mean())
        assert ci.low == pytest.approx(x.mean() - q * se, rel=1e-12)
        assert ci.high == pytest.approx(x.mean() + q * se, rel=1e-12)
        assert ci.df == 9
        # a standard t interval of the same scores is narrower by the factor
        naive = stats.t.interval(0.9, 9, loc=x.mean(), scale=stats.sem(x))
        ratio = np.sqrt((1 / 10 + 50 / 450) / (1 / 10))
        assert ci.high - ci.low == pytest.approx((naive[1] - naive[0]) * ratio)

    def test_vectorized(self):
        rng = np.random.default_rng(0)
        x = rng.normal(size=(3, 4, 12))
        ci = corrected_t_ci(x, n_train=90, n_test=10)
        ref = corrected_t_ci(x[1, 2], n_train=90, n_test=10)
        assert ci.low.shape == (3, 4)
        assert ci.low[1, 2] == pytest.approx(ref.low)
        assert not ci.low.flags.writeable

    def test_calibrated_df_changes_only_the_quantile(self):
        # Bouckaert (2003): 3 x 10-fold scores read with K - 1 = 9 degrees of
        # freedom, not J - 1 = 29: the same se, a t_9 quantile
        x = np.random.default_rng(3).normal(0.8, 0.05, size=30)
        ci29 = corrected_t_ci(x, n_train=90, n_test=10)
        ci9 = corrected_t_ci(x, n_train=90, n_test=10, df=9)
        assert ci9.se == ci29.se
        assert ci9.df == 9
        assert ci29.df == 29
        half = ci9.high - ci9.estimate
        assert half == pytest.approx(stats.t.ppf(0.975, 9) * ci9.se, rel=1e-12)
        ratio = (ci9.high - ci9.low) / (ci29.high - ci29.low)
        assert ratio == pytest.approx(2.2622 / 2.0452, abs=1e-4)  # t tables
        assert ci9.pvalue(0.78) == pytest.approx(
            2 * stats.t.sf(abs(x.mean() - 0.78) / ci9.se, 9)
        )

    @pytest.mark.parametrize("df", [0, -1, 30, True, "9"])
    def test_bad_df(self, df):
        with pytest.raises(
            ValueError,
            match=r"`df` must be None or a number in "
            r"\(0, J - 1 = 29\]",
        ):
            corrected_t_ci(np.arange(30.0), n_train=90, n_test=10, df=df)

    def test_pvalue_matches_scipy(self):
        x = np.array([0.01, 0.03, -0.01, 0.02, 0.04, 0.00])
        ci = corrected_t_ci(x, n_train=80, n_test=20)
        t = x.mean() / ci.se
        assert ci.pvalue() == pytest.approx(2 * stats.t.sf(abs(t), 5))

    @pytest.mark.parametrize(
        ("kwargs", "msg"),
        [
            (
                {"confidence": 95},
                "`confidence` must be in (0, 1); got 95. Did you mean 0.95?",
            ),
            ({"n_train": 0}, "`n_train` and `n_test` must be positive"),
        ],
    )
    def test_bad_input(self, kwargs, msg):
        args = {"n_train": 9, "n_test": 1, **kwargs}
        with pytest.raises(ValueError, match=re.escape(msg)):
            corrected_t_ci([0.1, 0.2, 0.3], **args)

    def test_one_split_refused(self):
        with pytest.raises(ValueError, match="at least 2 splits"):
            corrected_t_ci([0.5], n_train=9, n_test=1)


def test_conservative_z_by_hand():
    rng = np.random.default_rng(1)
    full = rng.normal(0.8, 0.02, size=15)
    halves = rng.normal(0.78, 0.03, size=(4, 2, 15))
    ci = conservative_z_ci(full, halves, confidence=0.95)
    mu = halves.mean(axis=-1)
    var = sum((mu[m, 0] - mu[m, 1]) ** 2 for m in range(4)) / 8
    z = stats.norm.ppf(0.975)
    assert ci.estimate == pytest.approx(full.mean())
    assert ci.se == pytest.approx(np.sqrt(var))
    assert ci.low == pytest.approx(full.mean() - z * np.sqrt(var))
    assert np.isinf(ci.df)
    with pytest.raises(ValueError, match=re.escape("axis -2 holds the two halves")):
        conservative_z_ci(full, halves.reshape(2, 4, 15))


def test_wald_cv_by_hand():
    rng = np.random.default_rng(2)
    n, K = 20, 4
    folds = np.stack([rng.permutation(np.arange(n) % K) for _ in range(2)])
    losses = rng.exponential(size=(2, n))
    ci = wald_cv_ci(losses, folds, confidence=0.9)
    within = [
        np.var(losses[r, folds[r] == k], ddof=1) for r in range(2) for k in range(K)
    ]
    se = np.sqrt(np.mean(within) / n)
    assert ci.estimate == pytest.approx(losses.mean())
    assert ci.se == pytest.approx(se)
    assert ci.high == pytest.approx(losses.mean() + stats.norm.ppf(0.95) * se)
    # batch axis
    both = wald_cv_ci(np.stack([losses, 2 * losses]), folds, confidence=0.9)
    assert both.se[1] == pytest.approx(2 * se)


def _nested_by_hand(inner, outer, folds, confidence):
    """Algorithm 1 of Bates et al. written as loops (independent of the code)."""
    R, K, n = inner.shape
    a_list, b_list, e_in_all = [], [], []
    for r in range(R):
        for k in range(K):
            e_out = outer[r, folds[r] == k]
            e_in = inner[r, k, folds[r] != k]
            a_list.append((e_in.mean() - e_out.mean()) ** 2)
            b_list.append(e_out.var(ddof=1) / len(e_out))
            e_in_all.extend(e_in)
    mse = (K - 1) / K * (np.mean(a_list) - np.mean(b_list))
    err_ncv = np.mean(e_in_all)
    err_cv = outer.mean()
    lo = np.std(e_in_all, ddof=1) / np.sqrt(n)
    se = max(lo, min(np.sqrt(max(mse, 0)), np.sqrt(K) * lo))
    est = err_ncv - (1 + (K - 2) / K) * (err_ncv - err_cv)
    z = stats.norm.ppf(0.5 + confidence / 2)
    return est, est - z * se, est + z * se, se


class TestNestedCV:
    def test_tiny_example_by_hand(self):
        # 6 rows, 3 folds, one repetition (also the docstring example)
        folds = np.array([[0, 0, 1, 1, 2, 2]])
        outer = np.array([[1.0, 0.0, 0.0, 1.0, 1.0, 1.0]])
        nan = np.nan
        inner = np.array(
            [[[nan, nan, 0, 1, 1, 0], [1, 1, nan, nan, 1, 1], [0, 0, 1, 0, nan, nan]]]
        )
        ci = nested_cv_ci(inner, outer, folds)
        # a = (0.5-0.5)^2, (1-0.5)^2, (0.25-1)^2; b = 0.5/2, 0.5/2, 0/2
        mse = 2 / 3 * np.mean([0 - 0.25, 0.25 - 0.25, 0.5625 - 0])
        err_ncv, err_cv = 7 / 12, 4 / 6
        assert ci.se == pytest.approx(np.sqrt(mse))
        assert ci.estimate == pytest.approx(err_ncv - (4 / 3) * (err_ncv - err_cv))
        assert ci.estimate == pytest.approx(25 / 36)
        assert nested_cv_ci(inner, outer, folds, bias_correction=False).estimate == (
            pytest.approx(err_cv)
        )

    def test_random_against_loops(self):
        rng = np.random.default_rng(3)
        R, K, n = 3, 5, 40
        folds = np.stack([rng.permutation(np.arange(n) % K) for _ in range(R)])
        outer = rng.exponential(size=(R, n))
        inner = rng.exponential(size=(R, K, n)) * 1.1
        inner[folds[:, None, :] == np.arange(K)[None, :, None]] = np.nan
        ci = nested_cv_ci(inner, outer, folds, confidence=0.9)
        est, lo, hi, se = _nested_by_hand(inner, outer, folds, 0.9)
        assert (ci.estimate, ci.low, ci.high, ci.se) == pytest.approx((est, lo, hi, se))
        # a batch of two: the second is the first shifted by 1 (se unchanged)
        b = nested_cv_ci(
            np.stack([inner, inner + 1]), np.stack([outer, outer + 1]), folds
        )
        assert b.se[0] == pytest.approx(b.se[1])
        assert b.estimate[1] == pytest.approx(b.estimate[0] + 1)

    def test_nan_pattern_checked(self):
        folds = np.array([[0, 0, 1, 1, 2, 2]])
        with pytest.raises(ValueError, match="must be NaN exactly on the rows"):
            nested_cv_ci(np.zeros((1, 3, 6)), np.zeros((1, 6)), folds)

    def test_two_folds_refused(self):
        folds = np.array([[0, 0, 1, 1]])
        with pytest.raises(ValueError, match=re.escape("at least K = 3 folds")):
            nested_cv_ci(np.zeros((1, 2, 4)), np.zeros((1, 4)), folds)


def test_holdout_is_scipy_t_interval():
    x = np.array([0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0])
    ci = holdout_ci(x, confidence=0.95)
    lo, hi = stats.t.interval(0.95, 9, loc=x.mean(), scale=stats.sem(x))
    assert (ci.low, ci.high) == pytest.approx((lo, hi))
    assert isinstance(ci, CVInterval)
    assert "holdout" in repr(ci)


# ---------------------------------------------------------------------------
# Coverage over datasets drawn from a population, with an exact truth:
# ordinary least squares on x ~ N(0, I_p), y = x @ beta + N(0, s^2). A model
# trained on m rows has expected test MSE s^2 (1 + p / (m - p - 1)), so the
# target "new data" for n rows is known exactly. The fits are batched in
# NumPy (no scikit-learn in the stats tests).
def _ols_losses(X, y, train_mask, test_mask):
    """Per-row squared errors of OLS fits, batched: masks (..., n)."""
    w = train_mask[..., None].astype(float)
    xtx = np.einsum("...ni,...nj->...ij", X * w, X)
    xty = np.einsum("...ni,...n->...i", X * w, y)
    beta = np.linalg.solve(xtx, xty[..., None])[..., 0]
    pred = np.einsum("...ni,...i->...n", X, beta)
    return np.where(test_mask, (y - pred) ** 2, np.nan)


def _population(n_data, n, p, rng):
    X = rng.standard_normal((n_data, n, p))
    y = X.sum(axis=-1) + rng.standard_normal((n_data, n))
    return X, y


def _nested_ols(X, y, K, R, rng):
    n_data, n, _ = X.shape
    folds = np.stack([rng.permutation(np.arange(n) % K) for _ in range(R)])
    inner = np.full((n_data, R, K, n), np.nan)
    outer = np.full((n_data, R, n), np.nan)
    for r in range(R):
        for k in range(K):
            test = folds[r] == k
            outer[:, r, test] = _ols_losses(X, y, ~test, test)[:, test]
            for j in range(K):
                if j != k:
                    tj = folds[r] == j
                    inner[:, r, k, tj] = _ols_losses(X, y, ~test & ~tj, tj)[:, tj]
    return inner, outer, folds


def _coverage(n_data, n, p, seed):
    rng = np.random.default_rng(seed)
    X, y = _population(n_data, n, p, rng)
    truth = 1 + p / (n - p - 1)  # expected test MSE at n rows (s = 1)
    inner, outer, folds = _nested_ols(X, y, K=5, R=3, rng=rng)
    ncv = nested_cv_ci(inner, outer, folds, confidence=0.95)
    wald = wald_cv_ci(outer, folds, confidence=0.95)
    cov = {
        "nested-cv": np.mean((ncv.low <= truth) & (truth <= ncv.high)),
        "wald-cv": np.mean((wald.low <= truth) & (truth <= wald.high)),
    }
    return cov, ncv


def test_nested_cv_covers_new_data_ols_fast():
    # 300 datasets of n = 100, p = 5: 75 OLS fits each, batched (~1 s).
    # Measured: nested-cv 0.967, wald-cv 0.947 (MC s.e. 0.012 at 0.95). With
    # 2000 datasets: nested-cv 0.944 / 0.954 / 0.961 at n = 50 / 100 / 200
    # (s.e. 0.005), wald-cv 0.905 / 0.928 / 0.935.
    cov, ncv = _coverage(300, 100, 5, seed=0)
    se = np.sqrt(0.95 * 0.05 / 300)
    assert cov["nested-cv"] >= 0.95 - 2.5 * se
    assert cov["nested-cv"] == pytest.approx(0.9667, abs=1e-3)
    assert cov["wald-cv"] == pytest.approx(0.9467, abs=1e-3)
    # the bias correction moves the centre toward the truth at n rows
    assert abs(np.mean(ncv.estimate) - (1 + 5 / 94)) < 0.015


@pytest.mark.slow
def test_nested_cv_covers_new_data_ols_slow():
    for n in (50, 200):
        cov, _ = _coverage(2000, n, 5, seed=n)
        assert cov["nested-cv"] >= 0.95 - 2.5 * np.sqrt(0.95 * 0.05 / 2000)
