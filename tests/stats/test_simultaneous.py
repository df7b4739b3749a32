"""Simultaneous quantile intervals (Hayter 2014; Lehmann & Paromau, Sec. 5).

The exact joint coverage recursion is checked against the binomial
coverage of eq. 8 (one level), a multinomial enumeration with scipy (two
levels) and a Monte Carlo on uniforms; the intervals by fixed-seed joint
coverage simulations at n = 20, 50, 200 on continuous and accuracy-like
discrete scores, and against the Bonferroni split they must beat.
"""

# k, l are the paper's order-statistic indices (eq. 8)
# ruff: noqa: E741

import itertools
import re

import numpy as np
import pytest
from scipy import stats

from skperf import PerformanceDistribution
from skperf.stats import joint_coverage, quantile_ci, simultaneous_quantile_ci
from skperf.stats._simultaneous import _pairs, _simultaneous_pairs

LEVELS = {20: [0.25, 0.5, 0.75], 50: [0.1, 0.25, 0.5, 0.75, 0.9]}
LEVELS[200] = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95]


class TestJointCoverage:
    @pytest.mark.parametrize(("n", "q"), [(10, 0.5), (30, 0.1), (60, 0.9)])
    def test_one_level_is_eq8(self, n, q):
        ci = quantile_ci(np.arange(1.0, n + 1), q, method="exact")
        k, l = int(ci.low), int(ci.high)
        r = stats.binom.cdf(l - 1, n, q) - stats.binom.cdf(k - 1, n, q)
        assert joint_coverage(n, [q], [k], [l]) == pytest.approx(r, abs=1e-12)
        assert joint_coverage(n, [q], [k], [l]) == pytest.approx(ci.coverage)

    def test_two_levels_multinomial(self):
        n, q, k, l = 12, [0.3, 0.7], [2, 6], [7, 11]
        cells = [0.3, 0.4, 0.3]
        total = 0.0
        for a, b in itertools.product(range(n + 1), repeat=2):
            if a + b <= n and k[0] <= a <= l[0] - 1 and k[1] <= a + b <= l[1] - 1:
                total += stats.multinomial.pmf([a, b, n - a - b], n, cells)
        assert joint_coverage(n, q, k, l) == pytest.approx(total, abs=1e-12)

    def test_monte_carlo_on_uniforms(self):
        n, reps = 50, 40000
        q = np.array([0.1, 0.25, 0.5, 0.75, 0.9])
        k, l = _pairs(n, q, 0.95)
        u = np.sort(np.random.default_rng(0).uniform(size=(reps, n)), axis=-1)
        hit = np.all((u[:, k - 1] <= q) & (q <= u[:, l - 1]), axis=-1).mean()
        exact = joint_coverage(n, q, k, l)
        assert abs(hit - exact) <= 4 * np.sqrt(exact * (1 - exact) / reps)
        assert exact < 0.9  # pointwise intervals do not hold jointly

    def test_bad_input(self):
        with pytest.raises(ValueError, match=re.escape("need 1 <= k < l <= n = 10")):
            joint_coverage(10, [0.5], [5], [11])
        with pytest.raises(ValueError, match="distinct levels"):
            joint_coverage(10, [0.5, 0.5], [2, 3], [8, 9])
        with pytest.raises(ValueError, match=re.escape("`n` must be an int >= 2")):
            joint_coverage(20.7, [0.5], [6], [15])  # used to truncate to n = 20


class TestIntervals:
    @pytest.mark.parametrize("n", [20, 50, 200, 1000])
    def test_level_and_beats_bonferroni(self, n):
        q = np.array(LEVELS.get(n, LEVELS[200]))
        c = 0.95
        k, l, cov, level = _simultaneous_pairs(n, q, c)
        assert cov >= c
        assert joint_coverage(n, q, k, l) == pytest.approx(cov)
        k0, l0 = _pairs(n, q, c)  # pointwise
        assert np.all(l - k >= l0 - k0)  # never narrower than pointwise
        kb, lb = _pairs(n, q, 1 - (1 - c) / q.size)  # Bonferroni
        assert (l - k).sum() < (lb - kb).sum()  # 29 < 31 ... 401 < 412
        assert level <= 1 - (1 - c) / q.size
        # the smallest pointwise level: 1 % less error per level falls short
        k2, l2 = _pairs(n, q, 1 - (1 - level) * 1.01)
        assert joint_coverage(n, q, k2, l2) < c

    @pytest.mark.parametrize("n", [20, 50, 200])
    @pytest.mark.parametrize("name", ["normal", "beta", "accuracy"])
    def test_joint_coverage_simulated(self, n, name):
        c, reps = 0.95, 2000
        q = np.array(LEVELS[n])
        rng = np.random.default_rng(n)
        if name == "accuracy":
            x = rng.binomial(200, 0.9, size=(reps, n)) / 200
            truth = stats.binom.ppf(q, 200, 0.9) / 200
        elif name == "beta":
            x = rng.beta(5, 1.5, size=(reps, n))
            truth = stats.beta.ppf(q, 5, 1.5)
        else:
            x = rng.normal(size=(reps, n))
            truth = stats.norm.ppf(q)
        ci = simultaneous_quantile_ci(x, q, confidence=c)
        assert ci.low.shape == (reps, q.size)
        hit = np.all((ci.low <= truth) & (truth <= ci.high), axis=-1).mean()
        se = np.sqrt(c * (1 - c) / reps)
        assert hit >= c - 3 * se, hit
        if name == "normal":
            assert abs(hit - ci.coverage[0]) <= 4 * se  # exact for continuous

    def test_batch_equals_loop_and_order(self):
        x = np.random.default_rng(3).normal(size=(4, 40))
        q = [0.75, 0.25, 0.5]
        ci = simultaneous_quantile_ci(x, q)
        for i in range(4):
            one = simultaneous_quantile_ci(x[i], q)
            np.testing.assert_array_equal(ci.low[i], one.low)
            np.testing.assert_array_equal(ci.estimate[i], one.estimate)
        sorted_ci = simultaneous_quantile_ci(x[0], sorted(q))
        np.testing.assert_array_equal(
            sorted_ci.low, simultaneous_quantile_ci(x[0], q).low[[1, 2, 0]]
        )

    def test_contains_estimate_and_one_level_is_pointwise(self):
        x = np.random.default_rng(0).normal(size=60)
        ci = simultaneous_quantile_ci(x, 0.5)
        ref = quantile_ci(x, 0.5, method="exact")
        assert (ci.low, ci.high, ci.estimate) == (ref.low, ref.high, ref.estimate)
        assert ci.method == "simultaneous"

    def test_too_small(self):
        msg = "n = 20 is too small for simultaneous 0.95 intervals"
        with pytest.raises(ValueError, match=re.escape(msg)) as err:
            simultaneous_quantile_ci(np.arange(20.0), [0.1, 0.5, 0.9])
        assert "it needs n >= 35." in str(err.value)
        # the minimum, from the recursion: [X_(1), X_(n)] covers from n = 35 on
        for q, n in [([0.1, 0.5, 0.9], 35), ([0.002, 0.5], 1497)]:
            k, m = [1] * len(q), len(q)
            assert joint_coverage(n, q, k, [n] * m) >= 0.95
            assert joint_coverage(n - 1, q, k, [n - 1] * m) < 0.95
        # a far tail level: the message comes at once (the search by
        # recursion took minutes)
        with pytest.raises(ValueError, match=re.escape("it needs n >= 1497.")):
            simultaneous_quantile_ci(np.arange(20.0), [0.002, 0.5])

    def test_distribution_method(self):
        d = PerformanceDistribution(np.random.default_rng(0).normal(0.9, 0.02, 60))
        ci = d.quantile_ci([0.25, 0.5, 0.75], simultaneous=True)
        ref = simultaneous_quantile_ci(d.scores, [0.25, 0.5, 0.75])
        np.testing.assert_array_equal(ci.low, ref.low)
        pw = d.quantile_ci([0.25, 0.5, 0.75], method="exact")
        assert np.all(ci.length >= pw.length)
        with pytest.raises(ValueError, match="with simultaneous=True"):
            d.quantile_ci([0.25, 0.5], method="bootstrap", simultaneous=True)
