"""Tests for skperf/stats/_proportion.py: Wald, Wilson, Clopper-Pearson, McNemar."""

import re

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.proportion import proportion_confint

from skperf.stats._proportion import (
    mcnemar,
    paired_proportion_difference_ci,
    proportion_ci,
)

_SM_NAME = {"wilson": "wilson", "clopper-pearson": "beta", "wald": "normal"}


class TestProportionCI:
    @pytest.mark.parametrize("method", ["wilson", "clopper-pearson", "wald"])
    @pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
    def test_equals_statsmodels(self, method, confidence):
        n = np.repeat(np.arange(1, 61), 61)
        k = np.tile(np.arange(61), 60)
        keep = k <= n
        k, n = k[keep], n[keep]
        ci = proportion_ci(k, n, confidence=confidence, method=method)
        lo, hi = proportion_confint(k, n, alpha=1 - confidence, method=_SM_NAME[method])
        np.testing.assert_allclose(ci.low, lo, rtol=0, atol=1e-12)
        np.testing.assert_allclose(ci.high, hi, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(ci.estimate, k / n)

    @pytest.mark.parametrize("method", ["wilson", "clopper-pearson"])
    @pytest.mark.parametrize(
        ("k", "n"), [(0, 10), (3, 10), (10, 10), (45, 50), (1, 1000)]
    )
    def test_equals_scipy_binomtest(self, method, k, n):
        scipy_method = {"wilson": "wilson", "clopper-pearson": "exact"}[method]
        ref = stats.binomtest(k, n).proportion_ci(0.95, method=scipy_method)
        ci = proportion_ci(k, n, method=method)
        assert ci.low == pytest.approx(ref.low, abs=1e-12)
        assert ci.high == pytest.approx(ref.high, abs=1e-12)

    def test_textbook_example(self):
        # Sec. 2.2 formula written out for 45 / 50
        z = stats.norm.ppf(0.975)
        p, n = 0.9, 50
        center = (p + z**2 / (2 * n)) / (1 + z**2 / n)
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
        ci = proportion_ci(45, 50)
        assert (ci.low, ci.high) == pytest.approx(
            (center - half, center + half), abs=1e-15
        )
        assert isinstance(ci.low, float)
        assert ci.n == 50

    def test_coverage_small(self):
        # exact coverage (binomial sum, no Monte-Carlo) for n = 30 over a grid of p
        n = 30
        k = np.arange(n + 1)
        wil = proportion_ci(k, np.full_like(k, n))
        cp = proportion_ci(k, np.full_like(k, n), method="clopper-pearson")
        ps = np.linspace(0.02, 0.98, 49)
        cov_w, cov_cp = [], []
        for p in ps:
            pmf = stats.binom.pmf(k, n, p)
            cov_w.append(pmf[(wil.low <= p) & (p <= wil.high)].sum())
            cov_cp.append(pmf[(cp.low <= p) & (p <= cp.high)].sum())
        assert min(cov_cp) >= 0.95 - 1e-12  # Clopper-Pearson: never below nominal
        assert 0.94 <= np.mean(cov_w) <= 0.96  # Wilson: close to nominal on average
        assert np.mean(cov_cp) > np.mean(cov_w)

    def test_coverage_simulation(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        n, runs = 40, 2000
        for p in (0.1, 0.5, 0.9):
            k = rng.binomial(n, p, size=runs)
            for method, lo_ok in (("wilson", 0.92), ("clopper-pearson", 0.95)):
                ci = proportion_ci(k, np.full(runs, n), method=method)
                cover = np.mean((ci.low <= p) & (p <= ci.high))
                assert cover >= lo_ok - 0.015, (method, p, cover)

    @pytest.mark.slow
    def test_coverage_exact_large_grid(self):
        for n in (10, 25, 50, 100, 200):
            k = np.arange(n + 1)
            cp = proportion_ci(k, np.full_like(k, n), method="clopper-pearson")
            wil = proportion_ci(k, np.full_like(k, n), method="wilson")
            wald = proportion_ci(k, np.full_like(k, n), method="wald")
            covs = {"cp": [], "wilson": [], "wald": []}
            for p in np.linspace(0.005, 0.995, 199):
                pmf = stats.binom.pmf(k, n, p)
                for name, ci in (("cp", cp), ("wilson", wil), ("wald", wald)):
                    covs[name].append(pmf[(ci.low <= p) & (p <= ci.high)].sum())
            assert min(covs["cp"]) >= 0.95 - 1e-12
            assert abs(np.mean(covs["wilson"]) - 0.95) < 0.015
            # Sec. 2.1: Wald under-covers near the boundaries
            assert min(covs["wald"]) < 0.9

    def test_wald_is_clipped(self):
        ci = proportion_ci(1, 20, method="wald")
        assert ci.low == 0.0
        assert ci.high == pytest.approx(
            0.05 + 1.959963984540054 * np.sqrt(0.05 * 0.95 / 20)
        )

    @pytest.mark.parametrize(
        ("kwargs", "exc", "msg"),
        [
            ({"k": 5, "n": 0}, ValueError, "`n` must be at least 1"),
            ({"k": 11, "n": 10}, ValueError, "`k` must be in [0, n]"),
            ({"k": 2.5, "n": 10}, ValueError, "`k` must hold whole numbers"),
            ({"k": "a", "n": 10}, TypeError, "`k` must be integer counts"),
            (
                {"k": 5, "n": 10, "method": "exact"},
                ValueError,
                "`method` must be one of",
            ),
            ({"k": 5, "n": 10, "confidence": 95}, ValueError, "Did you mean 0.95?"),
        ],
    )
    def test_bad_input(self, kwargs, exc, msg):
        with pytest.raises(exc, match=re.escape(msg)):
            proportion_ci(**kwargs)


class TestMcNemar:
    @pytest.mark.parametrize(
        ("b", "c"), [(0, 0), (3, 0), (15, 5), (7, 9), (12, 12), (24, 0)]
    )
    def test_exact_equals_statsmodels(self, b, c):
        ref = sm_mcnemar([[10, b], [c, 10]], exact=True)
        res = mcnemar(b, c, method="exact")
        assert res.statistic == pytest.approx(ref.statistic, abs=1e-12)
        assert res.pvalue == pytest.approx(ref.pvalue, abs=1e-12)

    @pytest.mark.parametrize(("b", "c"), [(40, 20), (30, 31), (100, 60), (25, 0)])
    @pytest.mark.parametrize("correction", [True, False])
    def test_chi2_equals_statsmodels(self, b, c, correction):
        ref = sm_mcnemar([[10, b], [c, 10]], exact=False, correction=correction)
        res = mcnemar(b, c, method="chi2", correction=correction)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)

    def test_auto_switch(self):
        assert mcnemar(12, 12).test == "exact"  # 24 discordant
        assert mcnemar(13, 12).test == "chi2"  # 25 discordant
        assert mcnemar(0, 0) == (0.0, 1.0, "exact")

    def test_bad_input(self):
        with pytest.raises(
            ValueError, match=re.escape("`b` must be a non-negative whole number")
        ):
            mcnemar(-1, 3)
        with pytest.raises(TypeError, match=re.escape("`c` must be a count (int)")):
            mcnemar(1, "3")


class TestPairedDifference:
    def test_formula(self):
        ci = paired_proportion_difference_ci(15, 5, 100)
        p12, p21 = 16 / 102, 6 / 102
        half = stats.norm.ppf(0.975) * np.sqrt((p12 + p21 - (p12 - p21) ** 2) / 102)
        assert ci.estimate == pytest.approx(0.1)
        assert (ci.low, ci.high) == pytest.approx((p12 - p21 - half, p12 - p21 + half))
        assert ci.method == "adjusted-wald"

    def test_no_discordant_pairs_gives_an_interval(self):
        ci = paired_proportion_difference_ci(0, 0, 50)
        assert ci.estimate == 0.0
        assert ci.low < 0 < ci.high

    def test_coverage_simulation(self, global_random_seed):
        # multinomial cells (both right, a only, b only, both wrong)
        rng = np.random.default_rng(global_random_seed)
        probs = np.array([0.7, 0.12, 0.06, 0.12])
        n, runs = 80, 2000
        cells = rng.multinomial(n, probs, size=runs)
        ci = paired_proportion_difference_ci(cells[:, 1], cells[:, 2], np.full(runs, n))
        true = probs[1] - probs[2]
        cover = np.mean((ci.low <= true) & (true <= ci.high))
        assert 0.93 <= cover <= 0.975

    def test_bad_input(self):
        with pytest.raises(ValueError, match=re.escape("`b + c` must not exceed `n`")):
            paired_proportion_difference_ci(6, 6, 10)
