"""Tests for skperf/stats/_auc.py: DeLong (single and paired) and Hanley-McNeil."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from skperf.stats._auc import (
    delong_paired,
    delong_placements,
    hanley_mcneil_var,
    roc_auc_ci,
)
from tests._data import shared_data

ASAH = shared_data("aSAH.csv")


@pytest.fixture(scope="module")
def asah():
    if not ASAH.exists():  # pragma: no cover
        pytest.skip("aSAH.csv not available")
    d = pd.read_csv(ASAH)
    return (d["outcome"] == "Poor").astype(int).to_numpy(), d


class TestPublishedNumbers:
    """pROC (Robin et al. 2011) on its aSAH data set."""

    def test_s100b_documented_ci(self, asah):
        # pROC docs: "Area under the curve: 0.7314, 95% CI: 0.6301-0.8326 (DeLong)"
        y, d = asah
        ci = roc_auc_ci(y, d["s100b"])
        assert round(ci.estimate, 4) == 0.7314
        assert (round(ci.low, 4), round(ci.high, 4)) == (0.6301, 0.8326)
        assert ci.n == 113

    def test_ndka_ci_from_proc_tests(self, asah):
        # pROC tests/testthat/test-ci.auc.R, expected.ci.auc
        y, d = asah
        ci = roc_auc_ci(y, d["ndka"])
        np.testing.assert_allclose(
            [ci.low, ci.estimate, ci.high],
            [0.501244999271703, 0.611957994579946, 0.722670989888189],
            rtol=1e-12,
        )

    @pytest.mark.parametrize(
        ("marker", "var"),
        [
            ("wfns", 0.00146991470882363),
            ("ndka", 0.0031908105493913),
            ("s100b", 0.00266868245717244),
        ],
    )
    def test_variance_from_proc_tests(self, asah, marker, var):
        # pROC tests/testthat/test-var.R
        y, d = asah
        _, v10, v01 = delong_placements(y, d[marker])
        ours = v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size
        assert ours == pytest.approx(var, rel=1e-12)

    @pytest.mark.parametrize(
        ("a", "b", "z", "p", "low", "high"),
        [
            (
                "wfns",
                "s100b",
                2.20898359144091,
                0.0271757822291882,
                0.0104061769564846,
                0.174214419249478,
            ),
            (
                "wfns",
                "ndka",
                2.79777591868904,
                0.00514557970691098,
                0.0634011709339876,
                0.3600405634833566,
            ),
        ],
    )
    def test_paired_roc_test(self, asah, a, b, z, p, low, high):
        # pROC tests/testthat/test-roc.test.R (DeLong's test, two correlated curves)
        y, d = asah
        res = delong_paired(y, d[a], d[b])
        assert res.statistic == pytest.approx(z, rel=1e-10)
        assert res.pvalue == pytest.approx(p, rel=1e-10)
        assert (res.low, res.high) == pytest.approx((low, high), rel=1e-10)

    def test_identical_curves(self, asah):
        y, d = asah
        res = delong_paired(y, d["wfns"], d["wfns"])
        assert (res.statistic, res.pvalue, res.estimate) == (0.0, 1.0, 0.0)


def _placements_quadratic(y, s):
    """O(n^2) placement values straight from the definition (ties 1/2)."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return psi.mean(), psi.mean(axis=1), psi.mean(axis=0)


class TestDeLong:
    def test_variance_equals_quadratic_with_ties(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = rng.integers(0, 2, 300)
        s = np.round(y * 0.8 + rng.normal(size=300), 1)  # many ties
        auc, v10, v01 = delong_placements(y, s)
        a_ref, v10_ref, v01_ref = _placements_quadratic(y, s)
        assert auc[0] == pytest.approx(a_ref, abs=1e-14)
        np.testing.assert_allclose(v10[0], v10_ref, atol=1e-14)
        np.testing.assert_allclose(v01[0], v01_ref, atol=1e-14)
        var_ref = (
            v10_ref.var(ddof=1) / v10_ref.size + v01_ref.var(ddof=1) / v01_ref.size
        )
        ci = roc_auc_ci(y, s)
        half = stats.norm.ppf(0.975) * np.sqrt(var_ref)
        assert ci.high - ci.estimate == pytest.approx(half, rel=1e-12)
        assert ci.estimate == pytest.approx(roc_auc_score(y, s), abs=1e-14)

    def test_paired_covariance_equals_quadratic(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = rng.integers(0, 2, 200)
        a = np.round(y + rng.normal(size=200), 1)
        b = np.round(0.5 * y + 0.5 * a + rng.normal(size=200), 1)
        _, va10, va01 = _placements_quadratic(y, a)
        _, vb10, vb01 = _placements_quadratic(y, b)
        var = (
            np.var(va10 - vb10, ddof=1) / va10.size
            + np.var(va01 - vb01, ddof=1) / va01.size
        )
        res = delong_paired(y, a, b)
        assert res.var == pytest.approx(var, rel=1e-12)
        assert res.estimate == pytest.approx(
            roc_auc_score(y, a) - roc_auc_score(y, b), abs=1e-14
        )

    def test_clipped_and_perfect_separation(self):
        y = np.r_[np.zeros(10, int), np.ones(10, int)]
        ci = roc_auc_ci(y, np.arange(20.0))
        assert (ci.estimate, ci.low, ci.high) == (1.0, 1.0, 1.0)
        ci = roc_auc_ci([0, 0, 1, 1, 1, 0], [0.1, 0.2, 0.9, 0.8, 0.7, 0.95])
        assert ci.high == 1.0
        assert 0 <= ci.low < ci.estimate
        # logit DeLong: exact lower bound from 10 disjoint concordant pairs
        ci = roc_auc_ci(y, np.arange(20.0), method="delong-logit")
        assert (ci.estimate, ci.high) == (1.0, 1.0)
        assert ci.low == pytest.approx(0.025**0.1)
        ci = roc_auc_ci(y, -np.arange(20.0), method="delong-logit", confidence=0.9)
        assert (ci.low, ci.estimate) == (0.0, 0.0)
        assert ci.high == pytest.approx(1 - 0.05**0.1)

    def test_logit_interval_by_hand(self):
        from scipy import special

        from skperf.stats import delong_placements

        y = np.r_[np.zeros(6, int), np.ones(5, int)]
        s = np.array([0.1, 0.3, 0.35, 0.5, 0.6, 0.9, 0.4, 0.7, 0.8, 0.85, 0.95])
        auc, v10, v01 = delong_placements(y, s)
        a = auc[0]
        var = v10[0].var(ddof=1) / 5 + v01[0].var(ddof=1) / 6
        se = np.sqrt(var) / (a * (1 - a))
        q = stats.t.ppf(0.975, 4)  # min(5, 6) - 1 degrees of freedom
        lo, hi = special.expit(special.logit(a) + np.array([-q, q]) * se)
        ci = roc_auc_ci(y, s, method="delong-logit")
        assert (ci.estimate, ci.low, ci.high) == pytest.approx((a, lo, hi), rel=1e-12)

    @pytest.mark.parametrize(
        ("auc", "m", "n", "bounds"),
        [
            # moderate AUC, balanced: every method near nominal
            (0.76, 60, 60, {"delong": (0.92, 0.975), "delong-logit": (0.93, 0.985)}),
            # near 1, small classes: the Wald interval measured 0.83 (0.82),
            # the logit interval 0.96 (0.93)
            (0.97, 25, 25, {"delong": (0.0, 0.88), "delong-logit": (0.935, 0.985)}),
            (0.97, 20, 180, {"delong": (0.0, 0.87), "delong-logit": (0.915, 0.97)}),
        ],
    )
    def test_coverage_simulation(self, auc, m, n, bounds):
        # binormal scores with true AUC = Phi(d / sqrt(2)); 800 runs, fixed
        # seed (MC s.e. about 0.008 at 0.95)
        rng = np.random.default_rng(0)
        d = np.sqrt(2) * stats.norm.ppf(auc)
        y = np.r_[np.ones(m, int), np.zeros(n, int)]
        hits = dict.fromkeys(bounds, 0)
        runs = 800
        for _ in range(runs):
            s = np.r_[rng.normal(d, 1, m), rng.normal(0, 1, n)]
            for method in bounds:
                ci = roc_auc_ci(y, s, method=method)
                hits[method] += ci.low <= auc <= ci.high
                assert 0 <= ci.low <= ci.estimate <= ci.high <= 1
        for method, (lo, hi) in bounds.items():
            assert lo <= hits[method] / runs <= hi, (method, hits[method] / runs)

    @pytest.mark.slow
    def test_coverage_simulation_large(self):
        rng = np.random.default_rng(0)
        true = stats.norm.cdf(1 / np.sqrt(2))
        for method, lo in (("delong", 0.935), ("hanley-mcneil", 0.92)):
            cover = 0
            for _ in range(2000):
                y = np.r_[np.zeros(100, int), np.ones(100, int)]
                s = y + rng.normal(size=200)
                ci = roc_auc_ci(y, s, method=method)
                cover += ci.low <= true <= ci.high
            assert lo <= cover / 2000 <= 0.965, (method, cover / 2000)


class TestHanleyMcNeil:
    def test_formula(self):
        a, m, n = 0.8, 30, 40
        q1, q2 = a / (2 - a), 2 * a**2 / (1 + a)
        var = (a * (1 - a) + (m - 1) * (q1 - a**2) + (n - 1) * (q2 - a**2)) / (m * n)
        assert hanley_mcneil_var(a, m, n) == pytest.approx(var, rel=1e-15)

    def test_interval(self, asah):
        y, d = asah
        ci = roc_auc_ci(y, d["s100b"], method="hanley-mcneil")
        se = np.sqrt(hanley_mcneil_var(ci.estimate, y.sum(), (1 - y).sum()))
        assert ci.high == pytest.approx(ci.estimate + stats.norm.ppf(0.975) * se)
        assert ci.method == "hanley-mcneil"


class TestBadInput:
    def test_one_class(self):
        with pytest.raises(
            ValueError,
            match=re.escape("ROC AUC needs both classes in `y_true`; got only class 1"),
        ):
            roc_auc_ci(np.ones(5, int), np.arange(5.0))

    def test_non_binary(self):
        with pytest.raises(
            ValueError, match=re.escape("`y_true` must hold binary labels 0/1")
        ):
            roc_auc_ci([0, 1, 2], [0.1, 0.2, 0.3])

    def test_length(self):
        with pytest.raises(
            ValueError, match=re.escape("with n = len(y_true) = 3; got shape (2,)")
        ):
            roc_auc_ci([0, 1, 1], [0.1, 0.2])

    def test_nan(self):
        with pytest.raises(ValueError, match=re.escape("`y_score` must be finite")):
            roc_auc_ci([0, 1, 1], [0.1, np.nan, 0.3])

    def test_method(self):
        with pytest.raises(
            ValueError,
            match=re.escape(
                "`method` must be one of ['delong', 'delong-logit', 'hanley-mcneil']"
            ),
        ):
            roc_auc_ci([0, 1], [0.1, 0.2], method="bootstrap")

    def test_paired_shapes(self):
        with pytest.raises(
            ValueError, match=re.escape("must be 1-D of the same length")
        ):
            delong_paired([0, 1, 1], [0.1, 0.2, 0.3], [0.1, 0.2])


@pytest.mark.parametrize("n_pos", [1, 39])
def test_delong_needs_two_rows_per_class(n_pos):
    y = np.r_[np.ones(n_pos, int), np.zeros(40 - n_pos, int)]
    s = np.linspace(0, 1, 40)
    msg = (
        "The DeLong interval needs at least 2 positive and 2 negative rows "
        f"(the variance of each class's placement values); got {n_pos} positive "
        f"and {40 - n_pos} negative."
    )
    with pytest.raises(ValueError, match=re.escape(msg)):
        roc_auc_ci(y, s)
    with pytest.raises(ValueError, match=re.escape(msg)):
        delong_paired(y, s, s[::-1])
    # Hanley-McNeil has a closed form for any class sizes
    ci = roc_auc_ci(y, s, method="hanley-mcneil")
    assert 0 <= ci.low <= ci.estimate <= ci.high <= 1


def test_paired_variance_of_nearly_identical_models():
    # c00 + c11 - 2 c01 cancels catastrophically; the variance of the
    # placement differences does not
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 4000)
    a = y + rng.normal(size=4000)
    b = a + 1e-6 * rng.normal(size=4000)
    _, v10, v01 = delong_placements(y, np.stack([a, b]))
    d10, d01 = v10[0] - v10[1], v01[0] - v01[1]
    expected = d10.var(ddof=1) / d10.size + d01.var(ddof=1) / d01.size
    res = delong_paired(y, a, b)
    assert expected > 0
    assert res.var == pytest.approx(expected, rel=1e-12)
