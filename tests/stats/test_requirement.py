"""Requirements "score >= t with probability >= p" (Lehmann & Paromau, Sec. 5).

Checked three ways: at the duality with scipy's Clopper-Pearson bounds
(``binomtest(...).proportion_ci``) and with the order-statistic bound, for
every count; the error rate of a wrong "met" exactly (enumerating the
count) and by a fixed-seed simulation on actual scores; and the Wilks
sample sizes, computed here from their definition.
"""

import re

import numpy as np
import pytest
from scipy import stats

from skperf import PerformanceDistribution, Requirement
from skperf.stats import (
    requirement,
    requirement_n_needed,
    requirement_power,
)
from skperf.stats._requirement import _verdict_codes


def _wilks_n(p, c):
    n = 1
    while 1 - p**n < c:
        n += 1
    return n


@pytest.mark.parametrize(
    ("probability", "confidence", "expected"),
    [(0.9, 0.95, 29), (0.95, 0.95, 59), (0.9, 0.99, 44)],
)
def test_n_needed_is_wilks(probability, confidence, expected):
    n = _wilks_n(probability, confidence)
    assert n == expected
    assert requirement_n_needed(probability, confidence=confidence) == n
    # n - 1 perfect runs are inconclusive, n perfect runs are met
    x = np.linspace(1.0, 2.0, n)
    r = requirement(x[:-1], 0.5, probability=probability, confidence=confidence)
    assert (r.verdict, r.n_needed) == ("inconclusive", n)
    assert np.isneginf(r.bound)
    r = requirement(x, 0.5, probability=probability, confidence=confidence)
    assert (r.verdict, r.bound) == ("met", 1.0)


def _sample_with_count(n, k, threshold=0.9, ties=True):
    """k values >= threshold (some exactly at it), n - k below."""
    meet = threshold + np.linspace(0, 0.05, k)
    if ties and k >= 3:
        meet[:3] = threshold  # ties at the threshold count as meeting it
    miss = threshold - 0.01 - np.linspace(0, 0.05, n - k)
    return np.r_[miss, meet]


class TestDuality:
    @pytest.mark.parametrize("n", [10, 30, 60, 200])
    @pytest.mark.parametrize(("probability", "confidence"), [(0.9, 0.95), (0.8, 0.9)])
    def test_verdict_equals_clopper_pearson(self, n, probability, confidence):
        t = 0.9
        for k in range(n + 1):
            x = _sample_with_count(n, k, t)
            r = requirement(x, t, probability=probability, confidence=confidence)
            lower = stats.binomtest(k, n, alternative="greater").proportion_ci(
                confidence
            )
            upper = stats.binomtest(k, n, alternative="less").proportion_ci(confidence)
            expected = (
                "met"
                if lower.low >= probability
                else ("not met" if upper.high < probability else "inconclusive")
            )
            assert r.verdict == expected, (n, k)
            assert r.n_meeting == k
            np.testing.assert_allclose(r.share_low, lower.low, atol=1e-10)
            np.testing.assert_allclose(r.share_high, upper.high, atol=1e-10)

    @pytest.mark.parametrize("n", [30, 60, 200])
    def test_verdict_equals_order_statistic_bound(self, n):
        # k-th order statistic: largest k with P(Bin(n, q) >= k) >= confidence
        q, c, t = 0.1, 0.95, 0.9
        kk = np.arange(1, n + 1)
        k_star = kk[stats.binom.sf(kk - 1, n, q) >= c].max()
        l_star = kk[stats.binom.sf(kk - 1, n, q) <= 1 - c].min()
        for k in range(n + 1):
            x = _sample_with_count(n, k, t)
            xs = np.sort(x)
            r = requirement(x, t)
            if r.verdict == "not met":
                assert r.bound == xs[l_star - 1] < t
            else:
                assert r.bound == xs[k_star - 1]
                assert (r.verdict == "met") == (xs[k_star - 1] >= t)

    def test_accuracy_like_ties(self):
        # Binomial(200, 0.9) / 200: many runs exactly at the threshold
        x = stats.binom.rvs(200, 0.93, size=80, random_state=1) / 200
        t = 0.9
        k = int(np.sum(x >= t))
        assert np.sum(x == t) > 0
        r = requirement(x, t, probability=0.8)
        lower = stats.binomtest(k, 80, alternative="greater").proportion_ci(0.95)
        assert r.n_meeting == k
        assert (r.verdict == "met") == (lower.low >= 0.8)

    def test_losses_mirrored(self):
        x = np.random.default_rng(0).gamma(2.0, 0.05, size=60)
        for t in (0.05, 0.2, 0.25, 0.4):
            r = requirement(x, t, probability=0.9, greater_is_better=False)
            m = requirement(-x, -t, probability=0.9)
            assert r.verdict == m.verdict
            assert r.bound == -m.bound
            assert r.q == 0.9
            assert m.q == pytest.approx(0.1)
            assert r.n_meeting == int(np.sum(x <= t))
        d = PerformanceDistribution(x, greater_is_better=False)
        assert d.requirement(0.4).verdict == "met"
        assert d.requirement(0.05).verdict == "not met"


class TestErrorRates:
    @pytest.mark.parametrize("n", [30, 60, 200])
    @pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
    def test_wrong_met_exact(self, n, confidence):
        # enumerate the count at the worst case share = probability
        p = 0.9
        k = np.arange(n + 1)  # runs meeting the threshold
        met = _verdict_codes(n - k, n, 1 - p, confidence) == 0
        not_met = _verdict_codes(n - k, n, 1 - p, confidence) == 1
        assert stats.binom.pmf(k, n, p) @ met <= 1 - confidence
        assert stats.binom.pmf(k, n, p) @ not_met <= 1 - confidence
        assert requirement_power(n, p, probability=p, confidence=confidence) <= (
            1 - confidence
        )

    @pytest.mark.parametrize("n", [30, 60, 200])
    def test_wrong_met_simulated(self, n):
        # true share just below the requirement, scores continuous
        p, c, reps = 0.9, 0.95, 4000
        share = p - 0.005
        t = stats.norm.ppf(1 - share)  # P(X >= t) = share for X ~ N(0, 1)
        x = np.random.default_rng(n).normal(size=(reps, n))
        k = (x >= t).sum(axis=1)
        met = _verdict_codes(n - k, n, 1 - p, c) == 0
        for i in range(20):  # the vectorized core is the public function
            assert (requirement(x[i], t).verdict == "met") == met[i]
        rate = met.mean()
        se = np.sqrt((1 - c) * c / reps)
        assert rate <= 1 - c + 3 * se
        # and the exact rate agrees with the simulation
        exact = requirement_power(n, share, probability=p, confidence=c)
        assert abs(rate - exact) <= 4 * np.sqrt(exact * (1 - exact) / reps) + 1e-3

    @pytest.mark.parametrize(
        ("n", "share", "expected"),
        [
            (30, 0.97, 0.401),
            (60, 0.97, 0.459),
            (100, 0.97, 0.818),
            (200, 0.95, 0.796),
            (60, 1.0, 1.0),
        ],
    )
    def test_power(self, n, share, expected):
        power = requirement_power(n, share)
        assert power == pytest.approx(expected, abs=5e-4)
        rng = np.random.default_rng(0)
        k = rng.binomial(n, share, size=20000)
        sim = (_verdict_codes(n - k, n, 0.1, 0.95) == 0).mean()
        assert abs(sim - power) <= 4 * np.sqrt(power * (1 - power) / 20000) + 1e-3


class TestResult:
    def test_fields(self):
        x = np.r_[np.full(5, 0.85), np.linspace(0.91, 0.95, 55)]
        r = requirement(x, 0.9)
        assert isinstance(r, Requirement)
        assert r.n == 60
        assert r.n_meeting == 55
        assert r.estimate == pytest.approx(55 / 60)
        assert r.q == pytest.approx(0.1)
        assert r.method == "exact"
        assert r.verdict == "inconclusive"
        assert r.exit_code == 3
        assert "55/60" in str(r)
        assert "inconclusive" in repr(r)
        assert r.power() == pytest.approx(requirement_power(60, 55 / 60))

    def test_distribution_method(self):
        d = PerformanceDistribution(np.random.default_rng(0).normal(0.93, 0.01, 60))
        r = d.requirement(0.9)
        assert (r.verdict, r.exit_code, r.met) == ("met", 0, True)
        row = d.summary(quantiles=(), requirement=(0.9, 0.9)).iloc[-1]
        assert row["describes"] == "requirement: met"
        assert row["ci_low"] == pytest.approx(r.share_low)

    def test_summary_forms_and_dependence_warning(self):
        from skperf.exceptions import DependentObservationsWarning

        x = np.random.default_rng(0).normal(0.93, 0.01, 60)
        d = PerformanceDistribution(x)
        rows = [
            d.summary(quantiles=(), requirement=req).iloc[-1]
            for req in (0.9, (0.9, 0.9), {"threshold": 0.9, "confidence": 0.9})
        ]
        assert [r["statistic"] for r in rows] == ["P(score >= 0.9) >= 0.9"] * 3
        assert rows[0]["ci_low"] == rows[1]["ci_low"]
        assert rows[2]["ci_low"] > rows[0]["ci_low"]  # lower confidence, higher bound
        assert rows[2]["confidence"] == 0.9
        g = PerformanceDistribution(x, groups=np.repeat(np.arange(12), 5))
        with pytest.warns(DependentObservationsWarning, match="12 groups"):
            g.requirement(0.9)

    @pytest.mark.parametrize(
        ("kwargs", "exc", "msg"),
        [
            ({"threshold": np.nan}, ValueError, "`threshold` must be finite"),
            ({"threshold": "a"}, TypeError, "`threshold` must be a real number"),
            ({"probability": 90}, ValueError, "Did you mean 0.9?"),
            ({"confidence": 1.0}, ValueError, "`confidence` must be in (0, 1)"),
            ({"method": "wilson"}, ValueError, "`method` must be one of"),
        ],
    )
    def test_bad_input(self, kwargs, exc, msg):
        kw = {"threshold": 0.9} | kwargs
        with pytest.raises(exc, match=re.escape(msg)):
            requirement(np.linspace(0, 1, 10), **kw)

    @pytest.mark.parametrize(
        ("x", "msg"),
        [
            ([0.95, np.nan, 0.97], "`x` must be finite; found 1 NaN"),
            ([0.95, np.inf, 0.97], "`x` must be finite; found 0 NaN and 1 infinite"),
            ([0.95], "`x` must have at least 2 values; got 1"),
            (np.ones((3, 3)), "`x` must be 1-D; got shape (3, 3)"),
        ],
    )
    def test_bad_scores(self, x, msg):
        with pytest.raises(ValueError, match=re.escape(msg)):
            requirement(x, 0.9)


@pytest.mark.parametrize(("n", "rate"), [(60, 0.053), (100, 0.0576), (200, 0.0566)])
def test_no_sharper_method(n, rate):
    # why only the exact method is offered: Wilson's and the mid-p lower
    # bounds say "met" too often at the worst case share = probability
    p, c = 0.9, 0.95
    z = stats.norm.ppf(c)
    k = np.arange(n + 1)
    ph = k / n
    wilson = (
        ph + z * z / (2 * n) - z * np.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n))
    ) / (1 + z * z / n)
    mid_p = stats.binom.sf(k, n, p) + 0.5 * stats.binom.pmf(k, n, p)
    pmf = stats.binom.pmf(k, n, p)
    assert pmf @ (wilson >= p) == pytest.approx(rate, abs=5e-4)
    assert pmf @ (mid_p <= 1 - c) == pytest.approx(rate, abs=5e-4)
    assert requirement_power(n, p) <= 1 - c < rate


class TestFloatingPointThreshold:
    """Issue 18.9: fold means exactly at the threshold meet it (a few ulps)."""

    def test_fold_means_at_threshold_met(self):
        # 40 repeats whose two folds [0.85, 0.95] average to exactly 0.9:
        # np.mean gives 0.8999999999999999, the old code counted 0 of 40
        means = np.mean(np.tile([0.85, 0.95], (40, 1)), axis=1)
        assert means[0] < 0.9  # the floating-point artefact
        r = requirement(means, 0.9, probability=0.9)
        assert (r.n_meeting, r.verdict) == (40, "met")
        # losses: "at most 0.1" with 0.1 + 1 ulp
        loss = np.full(40, np.nextafter(0.1, 1.0))
        r = requirement(loss, 0.1, probability=0.9, greater_is_better=False)
        assert (r.n_meeting, r.verdict) == (40, "met")

    def test_tolerance_is_a_few_ulps_only(self):
        from skperf.stats._requirement import _meets

        t = 0.9
        assert _meets(np.nextafter(t, 0), t)
        below = t - 8 * np.finfo(float).eps * t  # 8 ulps: a real difference
        assert not _meets(below, t)
        assert not _meets(0.8999999, t)
        assert _meets(1.1, 1.1 + 2e-16, greater_is_better=False)
        # mixed fold combinations (issue 18.9: up to 40 % affected)
        rng = np.random.default_rng(0)
        a = rng.integers(0, 21, 1000) / 20
        pairs = np.column_stack([a, 1.8 - a])  # every pair averages to 0.9
        means = pairs.mean(axis=1)
        assert np.count_nonzero(means < 0.9) > 0
        assert _meets(means, 0.9).all()


def test_requirement_to_dict_json(tmp_path):
    import json

    r = requirement(np.linspace(0.91, 0.95, 40), 0.9, probability=0.9)
    d = r.to_dict()
    assert d["verdict"] == "met"
    assert d["met"] is True
    assert d["target"] == "this dataset"
    assert d["n_needed"] == 29
    assert d["n_meeting"] == 40
    assert d["share_low"] == pytest.approx(0.05 ** (1 / 40))  # CP lower, all met
    text = r.to_json()
    assert json.loads(text) == json.loads(json.dumps(d))
    path = tmp_path / "r.json"
    assert r.to_json(path) is None
    assert json.loads(path.read_text())["bound"] == r.bound
    small = requirement(np.linspace(0.91, 0.95, 10), 0.9, probability=0.9)
    assert json.loads(small.to_json())["bound"] is None  # -inf: strict JSON
