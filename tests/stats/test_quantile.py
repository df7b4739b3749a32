"""Tests for skperf.stats._quantile: estimators, exact/asymptotic/bootstrap CIs."""

# k, l are the paper's order-statistic indices (eqs. 8-11)
# ruff: noqa: E741

import re
import time
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from skperf.exceptions import SmallSampleWarning, TiesWarning
from skperf.stats import min_sample_size, quantile, quantile_ci
from skperf.stats._fallback_coverage import COVERAGE
from skperf.stats._quantile import (
    _asymptotic_indices,
    _estimate_index,
    _exact_pair,
    _hutson_boot_draws,
    _hutson_sorted,
    _measured_fallback_coverage,
)

# Lehmann & Paromau, Table 1 (exact, eq. 9): confidence -> {q: n}
TABLE_1 = {
    0.90: {0.01: 230, 0.025: 91, 0.05: 45, 0.1: 22, 0.25: 9, 0.5: 5},
    0.95: {0.01: 299, 0.025: 119, 0.05: 59, 0.1: 29, 0.25: 11, 0.5: 6},
    0.99: {0.01: 459, 0.025: 182, 0.05: 90, 0.1: 44, 0.25: 17, 0.5: 8},
}
# Table 2 (asymptotic, eq. 11)
_T2_Q = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)
TABLE_2 = {
    0.90: dict(zip(_T2_Q, (446, 87, 42, 16, 7, 9, 25, 52, 268), strict=True)),
    0.95: dict(zip(_T2_Q, (563, 110, 53, 19, 8, 12, 35, 73, 381), strict=True)),
    0.99: dict(zip(_T2_Q, (846, 164, 79, 28, 11, 20, 60, 127, 657), strict=True)),
}


def _cells(table):
    return [(c, q, n) for c, row in table.items() for q, n in row.items()]


def _binom_coverage(k, l, n, q):
    """r(k, l, n, q) of eq. 8, straight from the binomial pmf."""
    return stats.binom.pmf(np.arange(k, l), n, q).sum()


def _brute_force_pair(n, q, confidence):
    """All (k, l): minimal l - k, then max coverage, then centred, then small k."""
    cdf = stats.binom.cdf(np.arange(n + 1), n, q)
    k, l = np.meshgrid(np.arange(1, n + 1), np.arange(1, n + 1), indexing="ij")
    cov = cdf[l - 1] - cdf[k - 1]
    ok = (l > k) & (cov >= confidence - 1e-12)
    if not ok.any():
        return None
    best = None
    for kk, ll, cc in zip(k[ok], l[ok], cov[ok], strict=True):
        key = (ll - kk, -cc, abs((kk + ll - 1) / 2 - n * q), kk)
        if best is None:
            best = (key, (int(kk), int(ll)))
            continue
        b = best[0]
        if key[0] != b[0]:
            better = key[0] < b[0]
        elif abs(key[1] - b[1]) > 1e-12:
            better = key[1] < b[1]
        elif abs(key[2] - b[2]) > 1e-9:
            better = key[2] < b[2]
        else:
            better = key[3] < b[3]
        if better:
            best = (key, (int(kk), int(ll)))
    return best[1]


class TestMinSampleSize:
    @pytest.mark.parametrize(("confidence", "q", "n"), _cells(TABLE_1))
    def test_table_1(self, confidence, q, n):
        assert min_sample_size(q, confidence=confidence, method="exact") == n
        # the table is symmetric around q = 0.5
        assert min_sample_size(1 - q, confidence=confidence, method="exact") == n

    @pytest.mark.parametrize(("confidence", "q", "n"), _cells(TABLE_2))
    def test_table_2(self, confidence, q, n):
        assert min_sample_size(q, confidence=confidence, method="asymptotic") == n

    @pytest.mark.parametrize("confidence", [0.5, 0.8, 0.9, 0.95, 0.999])
    @pytest.mark.parametrize("q", [0.003, 0.07, 0.2, 0.33, 0.5, 0.61, 0.88, 0.97])
    def test_any_level_is_the_boundary(self, q, confidence):
        n = min_sample_size(q, confidence=confidence, method="exact")
        assert q**n + (1 - q) ** n <= 1 - confidence + 1e-12
        assert n == 2 or q ** (n - 1) + (1 - q) ** (n - 1) > 1 - confidence
        n = min_sample_size(q, confidence=confidence, method="asymptotic")
        k, l = _asymptotic_indices(n, q, confidence)
        assert k >= 1 - 1e-9
        assert l <= n + 1e-9
        k, l = _asymptotic_indices(n - 1, q, confidence)
        assert k < 1 or l > n - 1

    def test_array_and_sign_transform(self):
        out = min_sample_size([0.1, 0.5, 0.9], confidence=0.9, method="asymptotic")
        np.testing.assert_array_equal(out, [42, 7, 25])
        assert out.dtype.kind == "i"
        both = min_sample_size(
            [0.1, 0.9], confidence=0.9, method="asymptotic", sign_transform=True
        )
        np.testing.assert_array_equal(both, [25, 25])
        assert (
            min_sample_size(0.1, confidence=0.9, method="exact", sign_transform=True)
            == 22
        )
        assert isinstance(min_sample_size(0.5), int)

    def test_exact_validity_matches_interval_existence(self):
        for q in (0.05, 0.1, 0.25, 0.5, 0.8):
            for c in (0.9, 0.95):
                need = min_sample_size(q, confidence=c)
                assert _exact_pair(need, q, c) is not None
                assert need == 2 or _exact_pair(need - 1, q, c) is None

    @pytest.mark.parametrize(
        ("kwargs", "err", "msg"),
        [
            ({"q": 1.5}, ValueError, "`q` must be in (0, 1)"),
            ({"q": 0.5, "confidence": 95}, ValueError, "Did you mean 0.95?"),
            ({"q": 0.5, "method": "bootstrap"}, ValueError, "`method` must be one of"),
        ],
    )
    def test_bad_input(self, kwargs, err, msg):
        with pytest.raises(err, match=re.escape(msg)):
            min_sample_size(**kwargs)


class TestQuantile:
    @pytest.mark.parametrize("method", ["linear", "inverted_cdf", "weibull", "hazen"])
    def test_numpy_methods(self, method, global_random_seed):
        x = np.random.default_rng(global_random_seed).normal(size=(3, 17))
        q = np.array([0.1, 0.5, 0.9])
        res = quantile(x, q, method=method)
        assert res.shape == (3, 3)
        np.testing.assert_array_equal(res, np.quantile(x, q, axis=-1, method=method).T)
        assert isinstance(quantile(x[0], 0.5, method=method), float)

    def test_hutson_equals_weibull_inside_and_extrapolates(self):
        x = np.array([0.71, 0.74, 0.78, 0.80, 0.83])
        q = np.array([0.2, 0.5, 0.8])  # inside (1/6, 5/6)
        np.testing.assert_allclose(
            quantile(x, q, method="hutson"), np.quantile(x, q, method="weibull")
        )
        # eq. 12 tails: X(1) + (X(2) - X(1)) log(n' u), mirrored at the top
        lo, hi = quantile(x, [0.05, 0.95], method="hutson")
        assert lo == pytest.approx(0.71 + 0.03 * np.log(6 * 0.05))
        assert hi == pytest.approx(0.83 - 0.03 * np.log(6 * 0.05))
        # continuous at the junctions 1/(n+1) and n/(n+1)
        eps = 1e-9
        for u in (1 / 6, 5 / 6):
            a, b = quantile(x, [u - eps, u + eps], method="hutson")
            assert a == pytest.approx(b, abs=1e-6)

    def test_eq5_without_float_rounding(self):
        # 25 * 0.28 = 7.000000000000001 in floating point: NumPy's
        # inverted_cdf takes X_(8); eq. 5, ceil(n q) = 7, takes X_(7)
        x = np.arange(1.0, 26.0)
        assert np.quantile(x, 0.28, method="inverted_cdf") == 8.0
        assert quantile(x, 0.28, method="inverted_cdf") == 7.0
        for method in ("exact", "asymptotic", "auto"):
            assert quantile_ci(x, 0.28, method=method, random_state=0).estimate == 7.0

    def test_eq5_all_levels_j_over_n(self):
        # q = j / n computed in floating point: Q̂ must be X_(j) for every j
        for n in range(1, 400):
            j = np.arange(1, n)
            idx = _estimate_index(n, j / n)
            np.testing.assert_array_equal(idx, j)
            # just above j / n: the next order statistic
            up = _estimate_index(n, np.minimum(j / n + 1e-9, 1 - 1e-12))
            np.testing.assert_array_equal(up, np.minimum(j + 1, n))

    def test_eq5_decimal_levels(self):
        # a typed decimal is the exact decimal: ceil(7 * 0.7143) = 6, while
        # 5/7 computed in floating point stands for 5/7
        assert _estimate_index(7, 0.7143) == 6
        assert _estimate_index(7, 5 / 7) == 5
        assert _estimate_index(10, [0.1, 0.3, 0.7, 0.9]).tolist() == [1, 3, 7, 9]
        assert _estimate_index(3, 1 / 3 + 1e-15) == 2

    def test_axis(self):
        x = np.random.default_rng(0).normal(size=(9, 4))
        np.testing.assert_array_equal(
            quantile(x, 0.3, method="hutson", axis=0),
            quantile(x.T, 0.3, method="hutson"),
        )

    @pytest.mark.parametrize(
        ("kwargs", "err", "msg"),
        [
            ({"x": [1.0, 2.0], "q": 0.0}, ValueError, "`q` must be in (0, 1)"),
            ({"x": [1.0, np.nan], "q": 0.5}, ValueError, "`x` must be finite"),
            ({"x": ["a", "b"], "q": 0.5}, TypeError, "`x` must be numeric"),
            ({"x": [1.0], "q": 0.5, "method": "hutson"}, ValueError, "at least 2"),
            ({"x": [1.0, 2.0], "q": 0.5, "method": "type7"}, ValueError, "`method`"),
        ],
    )
    def test_bad_input(self, kwargs, err, msg):
        with pytest.raises(err, match=re.escape(msg)):
            quantile(**kwargs)


class TestExact:
    @pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95])
    @pytest.mark.parametrize("q", [0.05, 0.1, 0.25, 0.3, 0.5, 0.75, 0.9])
    def test_shortest_pair_brute_force(self, q, confidence):
        for n in range(2, 41):
            pair = _exact_pair(n, q, confidence)
            ref = _brute_force_pair(n, q, confidence)
            assert (pair is None) == (ref is None), n
            if ref is not None:
                assert pair[:2] == ref, n

    def test_tie_break(self):
        # n = 10, q = 0.5, 70 %: minimal l - k = 4; (3, 7) and its mirror
        # (4, 8) cover the same 0.7734 and their counts {3..6}, {4..7} are
        # equally far from nq = 5, so the smaller k wins
        k, l, cov = _exact_pair(10, 0.5, 0.7)
        assert (k, l) == (3, 7)
        assert cov == pytest.approx(_binom_coverage(4, 8, 10, 0.5), rel=1e-12)
        assert cov == pytest.approx(_binom_coverage(3, 7, 10, 0.5), rel=1e-12)
        # a centred pair (k + l = n + 1) wins over its equally long neighbours
        k, l, _ = _exact_pair(10, 0.5, 0.85)
        assert (k, l) == (3, 8)
        # among the shortest pairs the one with the largest coverage wins
        n, q, c = 20, 0.3, 0.9
        k, l, cov = _exact_pair(n, q, c)
        m = l - k
        others = [_binom_coverage(j, j + m, n, q) for j in range(1, n - m + 1)]
        assert cov == pytest.approx(max(others), rel=1e-12)
        assert all(
            o < c
            for o in [_binom_coverage(j, j + m - 1, n, q) for j in range(1, n - m + 2)]
        )

    @pytest.mark.parametrize(
        ("n", "q", "confidence"),
        [(25, 0.5, 0.9), (50, 0.1, 0.95), (200, 0.9, 0.99), (7, 0.5, 0.95)],
    )
    def test_coverage_is_binomial(self, n, q, confidence, global_random_seed):
        x = np.random.default_rng(global_random_seed).normal(size=n)
        ci = quantile_ci(x, q, confidence=confidence, method="exact")
        xs = np.sort(x)
        k = int(np.flatnonzero(xs == ci.low)[0]) + 1
        l = int(np.flatnonzero(xs == ci.high)[0]) + 1
        assert ci.coverage == pytest.approx(_binom_coverage(k, l, n, q), rel=1e-10)
        assert ci.coverage >= confidence
        assert ci.method == "exact"
        assert ci.estimate == quantile(x, q, method="inverted_cdf")

    @pytest.mark.parametrize("q", [0.1, 0.25, 0.5, 0.8])
    @pytest.mark.parametrize("n", [40, 60, 201])
    def test_against_scipy_quantile_test(self, n, q, global_random_seed):
        # scipy's two-sided interval is not the shortest: ours is no longer
        x = np.random.default_rng(global_random_seed).normal(size=n)
        xs = np.sort(x)
        ci = quantile_ci(x, q, confidence=0.95, method="exact")
        ref = stats.quantile_test(x, q=0, p=q).confidence_interval(0.95)
        assert np.isfinite([ref.low, ref.high]).all()
        k_s = int(np.flatnonzero(xs == ref.low)[0]) + 1
        l_s = int(np.flatnonzero(xs == ref.high)[0]) + 1
        k = int(np.flatnonzero(xs == ci.low)[0]) + 1
        l = int(np.flatnonzero(xs == ci.high)[0]) + 1
        assert _binom_coverage(k_s, l_s, n, q) >= 0.95
        assert ci.coverage >= 0.95
        assert l - k <= l_s - k_s

    def test_large_n_is_fast(self):
        x = np.random.default_rng(0).normal(size=100_000)
        _exact_pair.cache_clear()
        start = time.perf_counter()
        ci = quantile_ci(
            x, [0.01, 0.1, 0.5, 0.9, 0.999], confidence=0.95, method="exact"
        )
        assert time.perf_counter() - start < 0.5
        np.testing.assert_allclose(ci.low, np.quantile(x, ci.q), atol=0.1)
        assert (ci.coverage >= 0.95).all()
        assert (ci.coverage < 0.96).all()

    def test_too_small_raises_with_minimum(self):
        msg = (
            "n = 10 is too small for a 0.9 exact interval: it needs n >= 22 for q = 0.1"
        )
        with pytest.raises(ValueError, match=re.escape(msg)):
            quantile_ci(np.arange(10.0), [0.1, 0.5], confidence=0.9, method="exact")


class TestAsymptotic:
    def test_bounds_at_real_positions_k_l(self, global_random_seed):
        # eq. 10: [X_(k), X_(l)] at the real k, l of eq. 11, read by linear
        # interpolation between order statistics (Q̂_L at level k / (n + 1))
        x = np.random.default_rng(global_random_seed).normal(size=30)
        xs = np.sort(x)
        # by hand: n q = 15, z sqrt(n q (1 - q)) = 1.959964 * 2.738613 = 5.367588
        k, l = 15 - 5.367588, 15 + 5.367588  # 9.632412, 20.367588
        ci = quantile_ci(x, 0.5, confidence=0.95, method="asymptotic")
        assert ci.low == pytest.approx(xs[8] + (k - 9) * (xs[9] - xs[8]), abs=1e-6)
        assert ci.high == pytest.approx(xs[19] + (l - 20) * (xs[20] - xs[19]), abs=1e-6)
        assert ci.low == pytest.approx(np.quantile(x, k / 31, method="weibull"))
        # MKmisc::quantileCI(method = "asymptotic") rounds the same k, l
        # outward: X_(floor k) = X_(9), X_(ceil l) = X_(21); ours lie inside
        k_r, l_r = max(1, np.floor(k)), min(30, np.ceil(l))
        assert (k_r, l_r) == (9, 21)
        assert xs[int(k_r) - 1] <= ci.low <= xs[int(k_r)]
        assert xs[int(l_r) - 2] <= ci.high <= xs[int(l_r) - 1]
        assert ci.coverage is None
        assert not ci.sign_transformed

    def test_integer_positions_are_order_statistics(self):
        # n = 100, q = 0.5, z = 1 exactly at confidence 2 Phi(1) - 1: k = 45, l = 55
        x = np.random.default_rng(0).permutation(np.arange(100.0))
        c = 2 * stats.norm.cdf(1.0) - 1
        ci = quantile_ci(x, 0.5, confidence=c, method="asymptotic")
        # X_(45), X_(55)
        assert (ci.low, ci.high) == pytest.approx((44.0, 54.0), abs=1e-9)

    def test_coverage_at_table_2_edge(self):
        # n = 25, q = 0.9, 90 %: the first n of Table 2. Positions k, l cover
        # about 0.89-0.90; the former levels k/n (Q̂_L at k/n) covered 0.85
        rng = np.random.default_rng(0)
        x = rng.random((8000, 25))
        ci = quantile_ci(x, 0.9, confidence=0.9, method="asymptotic")
        cov = ((ci.low <= 0.9) & (0.9 <= ci.high)).mean()
        assert 0.88 <= cov <= 0.915, cov
        k, l = _asymptotic_indices(25, 0.9, 0.9)
        old = np.quantile(x, [k / 25, min(l / 25, 1.0)], axis=-1, method="weibull")
        cov_old = ((old[0] <= 0.9) & (0.9 <= old[1])).mean()
        assert cov_old <= 0.87, cov_old

    def test_sign_transformation(self, global_random_seed):
        # q = 0.1 at 90 % needs n >= 42 directly, 25 on -x (Table 2)
        x = np.random.default_rng(global_random_seed).normal(size=25)
        ci = quantile_ci(x, 0.1, confidence=0.9, method="asymptotic")
        ref = quantile_ci(-x, 0.9, confidence=0.9, method="asymptotic")
        assert ci.sign_transformed
        assert "sign transformation" in ci.note
        assert (ci.low, ci.high) == pytest.approx((-ref.high, -ref.low))
        assert not ref.sign_transformed

    def test_too_small_raises_with_minimum(self):
        msg = (
            "n = 20 is too small for a 0.9 asymptotic interval: it needs n >= 52 "
            "for q = 0.05"
        )
        with pytest.raises(ValueError, match=re.escape(msg)):
            quantile_ci(
                np.arange(20.0), [0.05, 0.5], confidence=0.9, method="asymptotic"
            )

    def test_auto_fast_at_large_n(self):
        x = np.random.default_rng(0).normal(size=10**6)
        start = time.perf_counter()
        ci = quantile_ci(x, [1e-4, 0.5, 0.9999], method="auto")
        assert time.perf_counter() - start < 0.5
        assert ci.method.tolist() == ["asymptotic"] * 3

    def test_sign_flip_moves_one_position(self):
        # k, l are centred at n q, not (n + 1) q: on -x at 1 - q the interval
        # is minus the one at positions k + 1, l + 1 of x
        x = np.random.default_rng(3).normal(size=40)
        xs = np.sort(x)
        r = quantile_ci(-x, 0.7, confidence=0.9, method="asymptotic")
        k, l = _asymptotic_indices(40, 0.3, 0.9)
        pos = np.array([k + 1, l + 1])
        j = np.floor(pos).astype(int)
        ref = xs[j - 1] + (pos - j) * (xs[j] - xs[j - 1])
        assert (-r.high, -r.low) == pytest.approx(tuple(ref), abs=1e-12)


class TestBootstrap:
    def test_beta_draws_match_naive_resampling(self):
        # Q̂ of a Hutson resample is Q̂_T(U_(j)), U_(j) ~ Beta(j, n + 1 - j):
        # same distribution as sorting n uniforms per resample
        rng = np.random.default_rng(0)
        xs = np.sort(rng.normal(size=12))
        q = np.array([0.1, 0.5, 0.9])
        fast = _hutson_boot_draws(xs, q, 4000, np.random.default_rng(1))
        u = np.sort(np.random.default_rng(2).random((4000, 12)), axis=-1)
        samples = _hutson_sorted(xs, u.ravel()).reshape(4000, 12)
        slow = np.quantile(samples, q, axis=-1, method="inverted_cdf")
        for i in range(3):
            assert stats.ks_2samp(fast[i], slow[i]).pvalue > 1e-3

    def test_percentile_interval(self):
        x = np.random.default_rng(0).beta(5, 1.5, size=10)
        ci = quantile_ci(
            x, [0.05, 0.5], confidence=0.9, method="bootstrap", random_state=3
        )
        boot = _hutson_boot_draws(
            np.sort(x), np.array([0.05, 0.5]), 199, np.random.default_rng(3)
        )
        np.testing.assert_allclose(ci.low, np.quantile(boot, 0.05, axis=-1))
        np.testing.assert_allclose(ci.high, np.quantile(boot, 0.95, axis=-1))
        assert ci.n_boot == 199  # n_boot="auto": 10 resamples in each tail
        # Hutson's tail extrapolation reaches below the sample minimum
        assert ci.low[0] < x.min()

    def test_reproducible(self):
        x = np.random.default_rng(0).normal(size=15)
        a = quantile_ci(x, 0.9, method="bootstrap", random_state=7)
        b = quantile_ci(
            x, 0.9, method="bootstrap", random_state=np.random.default_rng(7)
        )
        c = quantile_ci(x, 0.9, method="bootstrap", random_state=8)
        assert (a.low, a.high) == (b.low, b.high)
        assert (a.low, a.high) != (c.low, c.high)

    def test_small_n_boot_warns(self):
        with pytest.warns(SmallSampleWarning, match="n_boot=50"):
            quantile_ci(
                np.arange(10.0), 0.5, method="bootstrap", n_boot=50, random_state=0
            )


class TestAuto:
    def test_choice_per_level(self, global_random_seed):
        x = np.random.default_rng(global_random_seed).normal(size=25)
        ci = quantile_ci(x, [0.1, 0.5, 0.9], confidence=0.9, method="auto")
        # the asymptotic interval holds its level from the edge of Table 2
        # (n = 25 for q = 0.9 and, sign-transformed, q = 0.1)
        assert ci.method.tolist() == ["asymptotic"] * 3
        assert ci.sign_transformed.tolist() == [True, False, False]
        assert ci.coverage is None
        assert not ci.approximate.any()
        asym = quantile_ci(x, [0.1, 0.5, 0.9], confidence=0.9, method="asymptotic")
        np.testing.assert_array_equal(ci.low, asym.low)

    def test_exact_below_90_percent(self):
        # at 80 % the asymptotic interval undercovers near Table 2's edge
        # (0.72 at n = 5, q = 0.75), so auto takes the exact interval
        x = np.random.default_rng(0).normal(size=25)
        ci = quantile_ci(x, [0.25, 0.5], confidence=0.8, method="auto")
        assert ci.method.tolist() == ["exact", "exact"]
        assert (ci.coverage >= 0.8).all()

    def test_ties_prefer_exact_without_warning(self):
        # accuracy-like scores: the exact interval stays conservative with
        # ties, so auto takes it and does not warn
        x = np.random.default_rng(0).binomial(200, 0.9, size=40) / 200
        assert np.unique(x).size < x.size
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ci = quantile_ci(x, [0.25, 0.5, 0.75], confidence=0.9, method="auto")
            quantile_ci(x, 0.5, method="exact")
        assert ci.method.tolist() == ["exact"] * 3

    def test_ties_warn_once_for_asymptotic_and_bootstrap(self):
        x = np.r_[np.linspace(0.7, 0.9, 28), 0.9, 0.9]
        with pytest.warns(TiesWarning, match="2 repeated value") as rec:
            quantile_ci(x, [0.25, 0.5], method="asymptotic")
        assert len(rec) == 1
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            quantile_ci(x[-9:], [0.05, 0.5], method="auto", random_state=0)
        kinds = [w.category for w in rec]
        assert kinds.count(TiesWarning) == 1
        assert kinds.count(SmallSampleWarning) == 1
        assert "q = 0.05 (bootstrap)" in str(rec[kinds.index(TiesWarning)].message)

    def test_sign_transformed_asymptotic(self, global_random_seed):
        # q = 0.1 at 95 %: asymptotic needs 53 directly, 35 on -x
        x = np.random.default_rng(global_random_seed).normal(size=50)
        ci = quantile_ci(x, 0.1, confidence=0.95, method="auto")
        assert ci.method == "asymptotic"
        assert ci.sign_transformed
        assert "sign transformation" in ci.note

    def test_bootstrap_fallback_warns_with_minimum(self):
        x = np.random.default_rng(0).normal(size=10)
        msg = (
            "n = 10 is too small for an exact or asymptotic 0.9 interval for "
            "q = 0.05: the exact interval needs n >= 45, the asymptotic one n >= 52"
        )
        with pytest.warns(SmallSampleWarning, match=re.escape(msg)) as rec:
            ci = quantile_ci(
                x, [0.05, 0.5], confidence=0.9, method="auto", random_state=0
            )
        assert len(rec) == 1
        assert rec[0].filename == __file__
        assert ci.method.tolist() == ["bootstrap", "asymptotic"]
        assert ci.approximate.tolist() == [True, False]
        assert ci.n_boot == 199  # n_boot="auto" at 90 %
        assert "bootstrap for q = 0.05" in ci.note
        # the measured coverage range of the shipped table, in the warning
        # and the note: (0.9, 10, 0.05) -> min/max over 6 distributions x 2 tails
        lo, hi = COVERAGE[(0.9, 10, 0.05)]
        assert (lo, hi) == (0.694, 0.843)
        assert "q = 0.05: 0.69-0.84" in str(rec[0].message)
        assert "measured coverage q = 0.05: 0.69-0.84" in ci.note

    def test_fallback_coverage_lookup_brackets_grid(self):
        # on the grid: the cell; between grid points: every neighbouring cell
        assert _measured_fallback_coverage(10, 0.1, 0.95) == COVERAGE[(0.95, 10, 0.1)]
        assert _measured_fallback_coverage(10, 0.9, 0.95) == COVERAGE[(0.95, 10, 0.1)]
        cells = [COVERAGE[(0.95, m, 0.1)] for m in (10, 15)]
        cells += [COVERAGE[(c, m, 0.1)] for c in (0.9,) for m in (10, 15)]
        got = _measured_fallback_coverage(12, 0.1, 0.92)
        assert got == (min(c[0] for c in cells), max(c[1] for c in cells))
        assert _measured_fallback_coverage(10, 0.005, 0.95) is None  # p < 0.01
        assert _measured_fallback_coverage(10, 0.1, 0.5) is None  # confidence
        with pytest.warns(SmallSampleWarning, match="not measured at this n"):
            quantile_ci(
                np.arange(10.0), 0.05, confidence=0.6, method="auto", random_state=0
            )

    def test_fallback_coverage_matches_simulation(self):
        # re-measure one cell of the shipped table (95 %, n = 10, q = 0.9 on
        # lognormal scores, the cell's worst): 1000 runs, s.e. ~0.013
        x = stats.lognorm(1.0).rvs(size=(1000, 10), random_state=11)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SmallSampleWarning)
            ci = quantile_ci(x, 0.9, method="auto", n_boot=1000, random_state=1)
        true = stats.lognorm(1.0).ppf(0.9)
        cov = ((ci.low <= true) & (true <= ci.high)).mean()
        lo, hi = COVERAGE[(0.95, 10, 0.1)]
        assert lo - 0.04 <= cov <= hi + 0.04, (cov, lo, hi)
        assert cov < 0.88  # far from nominal: why the warning says so


class TestValidation:
    @pytest.mark.parametrize(
        ("kwargs", "err", "msg"),
        [
            ({"q": 1.0}, ValueError, "`q` must be in (0, 1) (exclusive)"),
            ({"q": [0.5, 50]}, ValueError, "Did you mean 0.5?"),
            (
                {"q": 0.5, "confidence": 1.0},
                ValueError,
                "`confidence` must be in (0, 1)",
            ),
            (
                {"q": 0.5, "confidence": "high"},
                TypeError,
                "`confidence` must be a float",
            ),
            ({"q": 0.5, "method": "wilson"}, ValueError, "`method` must be one of"),
            (
                {"q": 0.5, "x": [1.0]},
                ValueError,
                "`x` must have at least 2 values; got 1",
            ),
            ({"q": 0.5, "x": [1.0, np.inf, 2.0]}, ValueError, "`x` must be finite"),
            ({"q": 0.5, "x": ["a", "b", "c"]}, TypeError, "`x` must be numeric"),
            ({"q": 0.5, "random_state": "seed"}, TypeError, "`random_state` must be"),
        ],
    )
    def test_bad_input(self, kwargs, err, msg):
        kwargs = {"x": np.arange(30.0), **kwargs}
        with pytest.raises(err, match=re.escape(msg)):
            quantile_ci(**kwargs)


@pytest.mark.parametrize("method", ["exact", "asymptotic", "bootstrap", "auto"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_quantile_ci_vectorized(axis, method, global_random_seed):
    x = np.random.default_rng(global_random_seed).normal(size=20)
    shape = [3, 4, 5]
    shape[axis] = x.size
    xnd = np.broadcast_to(np.moveaxis(x[:, None, None], 0, axis), shape)
    q = [0.25, 0.5, 0.75]
    res = quantile_ci(
        xnd, q, method=method, confidence=0.9, n_boot=400, random_state=0, axis=axis
    )
    ref = quantile_ci(x, q, method=method, confidence=0.9, n_boot=400, random_state=0)
    batch = [s for i, s in enumerate(shape) if i != axis]
    for name in ("estimate", "low", "high"):
        val = getattr(res, name)
        assert val.shape == (*batch, 3)
        np.testing.assert_array_equal(
            val, np.broadcast_to(getattr(ref, name), val.shape)
        )


def test_scalar_fields_are_python_floats():
    ci = quantile_ci(np.arange(20.0), 0.5, method="exact")
    assert all(
        isinstance(v, float) for v in (ci.estimate, ci.low, ci.high, ci.coverage)
    )
    assert isinstance(ci.method, str)


# ---------------------------------------------------------------- properties

_samples = st.lists(
    st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False),
    min_size=12,
    max_size=60,
).filter(lambda v: len(set(v)) == len(v))
_levels = st.sampled_from([0.25, 0.4, 0.5, 0.6, 0.75])
_conf = st.floats(0.8, 0.99)
_methods = st.sampled_from(["exact", "asymptotic", "bootstrap"])


def _ci(x, q, method, confidence=0.9):
    with warnings.catch_warnings():
        # generated samples may tie (e.g. 1e-195 + 1 == 0 + 1)
        warnings.simplefilter("ignore", TiesWarning)
        return quantile_ci(
            np.asarray(x),
            q,
            confidence=confidence,
            method=method,
            n_boot=400,
            random_state=0,
        )


@settings(max_examples=25, deadline=None)
@given(
    x=_samples,
    q=_levels,
    confidence=_conf,
    method=st.sampled_from(["exact", "asymptotic"]),
)
def test_property_contains_estimate(x, q, confidence, method):
    if min_sample_size(
        q, confidence=confidence, method=method, sign_transform=True
    ) > len(x):
        return
    ci = _ci(x, q, method, confidence)
    assert ci.low <= ci.estimate <= ci.high


@settings(max_examples=25, deadline=None)
@given(x=_samples, q=_levels, c1=_conf, c2=_conf, method=_methods)
def test_property_widens_with_confidence(x, q, c1, c2, method):
    c1, c2 = sorted((c1, c2))
    if min_sample_size(
        q, confidence=c2, method="asymptotic", sign_transform=True
    ) > len(x):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)  # n_boot tails
        a, b = _ci(x, q, method, c1), _ci(x, q, method, c2)
    if np.any(a.sign_transformed != b.sign_transformed):
        # the sign-transformed asymptotic interval sits one order statistic
        # higher (k, l are centred at n q): nested only within one orientation
        return
    assert b.low <= a.low
    assert a.high <= b.high


@settings(max_examples=25, deadline=None)
@given(x=_samples, q=_levels, method=_methods, seed=st.integers(0, 100))
def test_property_permutation_invariant(x, q, method, seed):
    if min_sample_size(
        q, confidence=0.9, method="asymptotic", sign_transform=True
    ) > len(x):
        return
    perm = np.random.default_rng(seed).permutation(x)
    a, b = _ci(x, q, method), _ci(perm, q, method)
    assert (a.estimate, a.low, a.high) == (b.estimate, b.low, b.high)


@settings(max_examples=25, deadline=None)
@given(
    x=_samples,
    q=_levels,
    method=_methods,
    a=st.floats(0.01, 100),
    b=st.floats(-100, 100),
)
def test_property_affine_equivariant(x, q, method, a, b):
    if min_sample_size(
        q, confidence=0.9, method="asymptotic", sign_transform=True
    ) > len(x):
        return
    x = np.asarray(x)
    r, s = _ci(x, q, method), _ci(a * x + b, q, method)
    scale = a * (np.ptp(x) + 1) + abs(b)
    for f in ("estimate", "low", "high"):
        assert getattr(s, f) == pytest.approx(a * getattr(r, f) + b, abs=1e-9 * scale)


@settings(max_examples=25, deadline=None)
@given(
    x=_samples,
    q=st.sampled_from([0.25, 0.4, 0.6, 0.75]),
    method=st.sampled_from(["exact"]),
)
def test_property_sign_flip(x, q, method):
    # exact pairs mirror exactly unless two mirror-image pairs tie (only at
    # q = 0.5, where the smaller k is taken), so q = 0.5 is left out; the
    # asymptotic positions k, l are centred at n q and move by one position
    # (TestAsymptotic.test_sign_flip_moves_one_position)
    if min_sample_size(q, confidence=0.9, method=method, sign_transform=True) > len(x):
        return
    x = np.asarray(x)
    r, s = _ci(x, q, method), _ci(-x, 1 - q, method)
    scale = np.ptp(x) + 1
    assert s.low == pytest.approx(-r.high, abs=1e-9 * scale)
    assert s.high == pytest.approx(-r.low, abs=1e-9 * scale)
