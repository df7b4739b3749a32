"""Paired tests of two algorithms on new data: corrected t, 5x2cv F, Bayesian t."""

import re
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from skperf.stats._paired_tests import (
    DECISIONS,
    bayesian_correlated_t,
    combined_5x2cv_f,
    corrected_paired_t,
    detectable_difference_5x2cv_f,
    paired_decision,
)

D10 = np.array([0.02, 0.01, 0.03, 0.0, 0.02, 0.01, 0.04, 0.01, 0.02, 0.03])

# Recorded with mlxtend 0.25.0: combined_ftest_5x2cv(DecisionTreeClassifier(
# random_state=0), LogisticRegression(max_iter=5000), *load_breast_cancer(
# return_X_y=True), random_seed=1); the differences captured by a recording
# accuracy scorer (tree minus logistic regression).
MLXTEND_D = np.array(
    [
        [-0.0491228070175439, -0.03873239436619724],
        [-0.04210526315789476, -0.028169014084507005],
        [-0.03508771929824561, -0.021126760563380254],
        [-0.01403508771929829, -0.07042253521126762],
        [-0.014035087719298178, -0.010563380281690127],
    ]
)
MLXTEND_F, MLXTEND_P = 3.692906476812394, 0.0810700091265828


class TestCorrectedPairedT:
    def test_matches_scipy_by_hand(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        d = rng.normal(0.01, 0.03, size=50)  # 5 x 10-fold
        ratio = 1 / 9
        res = corrected_paired_t(d, test_train_ratio=ratio, confidence=0.9)
        # the ordinary paired t (scipy) shrunk by the Nadeau-Bengio factor
        t_plain = stats.ttest_1samp(d, 0.0).statistic
        t = t_plain / np.sqrt(1 + d.size * ratio)
        se = np.sqrt((1 / 50 + ratio) * np.var(d, ddof=1))
        q = stats.t.ppf(0.95, 49)
        assert res.statistic == pytest.approx(t, rel=1e-12)
        assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 49), rel=1e-12)
        assert res.low == pytest.approx(d.mean() - q * se, rel=1e-12)
        assert res.high == pytest.approx(d.mean() + q * se, rel=1e-12)
        assert (res.estimate, res.df, res.n) == (pytest.approx(d.mean()), 49.0, 50)
        assert (res.method, res.target, res.confidence) == (
            "corrected-t",
            "new data",
            0.9,
        )
        assert res.p_better is None

    def test_recorded_values(self):
        # by hand: mean 0.019, var(ddof=1) = 1290e-6 / 9, se = sqrt((1/10 + 1/9) * var)
        res = corrected_paired_t(D10, test_train_ratio=1 / 9)
        assert res.statistic == pytest.approx(
            0.019 / np.sqrt((0.1 + 1 / 9) * 1290e-6 / 9), rel=1e-12
        )
        assert res.pvalue == pytest.approx(0.0072290, rel=1e-4)
        assert (res.low, res.high) == (
            pytest.approx(0.0065562, abs=1e-7),
            pytest.approx(0.0314438, abs=1e-7),
        )

    def test_interval_and_test_agree(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        d = rng.normal(0.0, 1.0, size=(400, 10)) + rng.normal(0, 0.7, (400, 1))
        res = corrected_paired_t(d, test_train_ratio=0.25, confidence=0.9)
        excludes0 = (res.low > 0) | (res.high < 0)
        np.testing.assert_array_equal(excludes0, res.pvalue < 0.1)

    def test_exact_coverage_under_the_nadeau_bengio_model(self):
        # d_j = mu + b + e_j, b ~ N(0, r s^2) shared by all splits (the
        # overlap of training sets), e_j ~ N(0, s^2): the corrected t is then
        # exactly t(J - 1), so the interval covers mu with probability 0.95.
        rng = np.random.default_rng(0)
        n_rep, J, r = 20_000, 10, 1 / 9
        d = 0.3 + rng.normal(0, np.sqrt(r), (n_rep, 1)) + rng.normal(0, 1, (n_rep, J))
        res = corrected_paired_t(d, test_train_ratio=r)
        cover = np.mean((res.low <= 0.3) & (0.3 <= res.high))
        mc_se = np.sqrt(0.95 * 0.05 / n_rep)
        assert abs(cover - 0.95) < 3 * mc_se, cover
        # the uncorrected t (ratio -> 0) undercovers badly: the correction matters
        t_plain = stats.ttest_1samp(d, 0.3, axis=-1).pvalue
        assert np.mean(t_plain < 0.05) > 0.15

    def test_zero_variance(self):
        res = corrected_paired_t([0.1, 0.1, 0.1], test_train_ratio=0.5)
        assert (res.estimate, res.low, res.high, res.pvalue) == (0.1, 0.1, 0.1, 0.0)
        assert res.statistic == np.inf
        res = corrected_paired_t([-0.2] * 4, test_train_ratio=0.5)
        assert (res.pvalue, res.statistic) == (0.0, -np.inf)
        res = corrected_paired_t([0.0] * 5, test_train_ratio=0.5)
        assert (res.estimate, res.low, res.high, res.pvalue, res.statistic) == (
            0.0,
            0.0,
            0.0,
            1.0,
            0.0,
        )

    @pytest.mark.parametrize("axis", [0, 1, 2])
    def test_vectorized(self, axis, global_random_seed):
        d = np.random.default_rng(global_random_seed).normal(size=12)
        shape = [3, 4, 5]
        shape[axis] = d.size
        dnd = np.broadcast_to(np.moveaxis(d[:, None, None], 0, axis), shape)
        dnd = np.moveaxis(dnd, axis, -1)
        res, ref = (
            corrected_paired_t(dnd, test_train_ratio=0.2),
            corrected_paired_t(d, test_train_ratio=0.2),
        )
        for name in ("estimate", "low", "high", "pvalue", "statistic"):
            np.testing.assert_allclose(
                getattr(res, name), np.full(res.low.shape, getattr(ref, name))
            )
        assert not res.low.flags.writeable

    @pytest.mark.parametrize(
        ("kwargs", "err", "msg"),
        [
            (
                {"differences": [0.1]},
                ValueError,
                "`differences` must have at least 2 values; got 1.",
            ),
            (
                {"differences": [0.1, np.nan]},
                ValueError,
                "`differences` must be finite",
            ),
            (
                {"test_train_ratio": 0},
                ValueError,
                (
                    "`test_train_ratio` must be a positive finite float (n_test / "
                    "n_train, e.g. 1 / (K - 1) for K-fold); got 0."
                ),
            ),
            (
                {"test_train_ratio": "1/9"},
                TypeError,
                "`test_train_ratio` must be a positive float",
            ),
            (
                {"confidence": 95},
                ValueError,
                "`confidence` must be in (0, 1); got 95. Did you mean 0.95?",
            ),
        ],
    )
    def test_bad_input(self, kwargs, err, msg):
        args = {"differences": D10, "test_train_ratio": 1 / 9, **kwargs}
        d = args.pop("differences")
        with pytest.raises(err, match=re.escape(msg)):
            corrected_paired_t(d, **args)

    def test_result_object(self):
        res = corrected_paired_t(D10, test_train_ratio=1 / 9)
        assert res == corrected_paired_t(list(D10), test_train_ratio=1 / 9)
        assert res != corrected_paired_t(D10, test_train_ratio=1 / 4)
        assert (res == "x") is False
        with pytest.raises(AttributeError):
            res.estimate = 0.0
        assert isinstance(res.estimate, float)
        assert res.to_dict()["pvalue"] == res.pvalue
        assert "target='new data'" in repr(res)
        batch = corrected_paired_t(np.tile(D10, (2, 1)), test_train_ratio=1 / 9)
        assert batch == batch  # arrays: __eq__ never raises
        assert batch != res
        assert batch.to_dict()["low"] == [res.low, res.low]


class TestCombined5x2cvF:
    def test_recorded_mlxtend(self):
        res = combined_5x2cv_f(MLXTEND_D)
        assert res.statistic == pytest.approx(MLXTEND_F, rel=1e-12)
        assert res.pvalue == pytest.approx(MLXTEND_P, rel=1e-12)
        assert res.estimate == pytest.approx(MLXTEND_D.mean())
        assert (res.df, res.n, res.method) == (5.0, 10, "5x2cv-f")

    def test_formula_by_hand(self, global_random_seed):
        p = np.random.default_rng(global_random_seed).normal(0.01, 0.02, (5, 2))
        s2 = [(a - (a + b) / 2) ** 2 + (b - (a + b) / 2) ** 2 for a, b in p]
        F = np.sum(p**2) / (2 * np.sum(s2))
        res = combined_5x2cv_f(p)
        assert res.statistic == pytest.approx(F, rel=1e-12)
        assert res.pvalue == pytest.approx(stats.f.sf(F, 10, 5), rel=1e-12)

    def test_interval_inverts_the_test(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        p = rng.normal(0.01, 0.02, (300, 5, 2))
        res = combined_5x2cv_f(p, confidence=0.95)
        ok = np.isfinite(res.low)
        assert ok.mean() > 0.9
        contains0 = (res.low <= 0) & (0 <= res.high)
        np.testing.assert_array_equal(contains0[ok], (res.pvalue >= 0.05)[ok])
        # at either end of the interval the shifted F sits at its critical value
        crit = stats.f.ppf(0.95, 10, 5)
        for end in (res.low, res.high):
            shifted = combined_5x2cv_f(p[ok] - end[ok][:, None, None])
            np.testing.assert_allclose(shifted.statistic, crit, rtol=1e-9)

    def test_empty_interval_when_every_shift_is_rejected(self):
        # repetitions disagree far more than their folds: F rejects every
        # constant difference, so the inverted interval is empty (NaN) while
        # the test itself is significant
        d = np.array([[0.1, 0.101], [-0.1, -0.099], [0.2, 0.2], [0.0, 0.001], [0, 0]])
        res = combined_5x2cv_f(d)
        assert np.isnan(res.low)
        assert np.isnan(res.high)
        assert res.pvalue < 1e-6
        assert paired_decision(res) == "better"  # sign of the mean, 0.0403

    def test_null_rejection_rate(self):
        # Alpaydin's null model: independent N(0, s^2) differences; the test
        # is conservative (his Table 1), never above the nominal 5 %.
        p = np.random.default_rng(1).normal(0, 1, (20_000, 5, 2))
        rate = np.mean(combined_5x2cv_f(p).pvalue < 0.05)
        assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 20_000), rate

    def test_zero_variance(self):
        res = combined_5x2cv_f(np.full((5, 2), 0.02))
        assert (res.statistic, res.pvalue) == (np.inf, 0.0)
        res = combined_5x2cv_f(np.zeros((5, 2)))
        assert (res.statistic, res.pvalue) == (0.0, 1.0)

    def test_bad_shape(self):
        msg = (
            "`differences` must have shape (..., 5, 2): 5 repetitions of 2-fold "
            "cross-validation on the last two axes; got shape (10,)."
        )
        with pytest.raises(ValueError, match=re.escape(msg)):
            combined_5x2cv_f(np.zeros(10))


class TestDetectableDifference5x2cvF:
    # Under Alpaydin's model (ten independent N(delta, sigma^2) differences)
    # F = 1/2 + F'(5, 5, 10 delta^2 / sigma^2) / 2 exactly

    def test_null_level_is_the_exact_law(self):
        # the exact law gives the test's true level under its own model
        crit = stats.f.ppf(0.95, 10, 5)
        exact = stats.f.sf(2 * crit - 1, 5, 5)
        assert exact == pytest.approx(0.017503, abs=1e-6)
        p = np.random.default_rng(2).normal(0, 1, (40_000, 5, 2))
        rate = np.mean(combined_5x2cv_f(p).pvalue < 0.05)
        assert rate == pytest.approx(exact, abs=3 * np.sqrt(exact / 40_000))

    def test_power_at_the_detectable_difference(self):
        # sigma = 1 read exactly (S / 5 = 1): the difference it returns is
        # rejected with power 0.8 by the test itself (Monte Carlo)
        a = np.sqrt(0.5)
        delta = detectable_difference_5x2cv_f(np.tile([a, -a], (5, 1)))
        assert delta == pytest.approx(2.4652, abs=1e-4)
        p = np.random.default_rng(0).normal(delta, 1.0, (40_000, 5, 2))
        power = np.mean(combined_5x2cv_f(p).pvalue < 0.05)
        assert power == pytest.approx(0.8, abs=3 * np.sqrt(0.16 / 40_000))

    def test_scales_with_the_spread_and_level(self):
        d = np.random.default_rng(3).normal(0.01, 0.02, (5, 2))
        base = detectable_difference_5x2cv_f(d)
        assert detectable_difference_5x2cv_f(3 * d) == pytest.approx(3 * base)
        assert detectable_difference_5x2cv_f(d + 1) == pytest.approx(base)
        assert detectable_difference_5x2cv_f(d, confidence=0.99) > base
        assert detectable_difference_5x2cv_f(d, power=0.9) > base
        assert detectable_difference_5x2cv_f(np.full((5, 2), 0.02)) == 0.0

    def test_bad_input(self):
        with pytest.raises(ValueError, match=r"shape \(5, 2\).*got shape \(10,\)"):
            detectable_difference_5x2cv_f(np.zeros(10))
        with pytest.raises(ValueError, match="power"):
            detectable_difference_5x2cv_f(np.ones((5, 2)), power=1.5)


class TestBayesianCorrelatedT:
    # Recorded with baycomp 1.0.3: CorrelatedTTest.probs(a, b, rope, runs)
    # with a - b = the differences (baycomp's p_left is P(a better)).
    @pytest.mark.parametrize(
        ("d", "runs", "rope", "expected"),
        [
            (
                D10,
                1,
                0.01,
                (0.9318779788401217, 0.06786573982370836, 0.0002562813361699501),
            ),
        ],
    )
    def test_recorded_baycomp(self, d, runs, rope, expected):
        K = d.size // runs
        res = bayesian_correlated_t(d, test_train_ratio=1 / (K - 1), rope=rope)
        np.testing.assert_allclose(
            (res.p_better, res.p_rope, res.p_worse), expected, rtol=1e-10, atol=1e-14
        )

    def test_posterior_by_hand(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        d = rng.normal(0.005, 0.02, size=30)
        rho = 10 / 100  # n_test / (n_train + n_test)
        scale = np.sqrt((1 / 30 + rho / (1 - rho)) * np.var(d, ddof=1))
        post = stats.t(29, loc=d.mean(), scale=scale)
        res = bayesian_correlated_t(d, test_train_ratio=10 / 90, rope=0.01)
        assert res.p_better == pytest.approx(post.sf(0.01), rel=1e-10)
        assert res.p_worse == pytest.approx(post.cdf(-0.01), rel=1e-10, abs=1e-15)
        assert res.p_better + res.p_rope + res.p_worse == pytest.approx(1.0)
        assert (res.low, res.high) == (
            pytest.approx(post.ppf(0.025)),
            pytest.approx(post.ppf(0.975)),
        )
        assert (res.pvalue, res.method, res.rope) == (None, "bayesian", 0.01)
        # with rope 0 the posterior tail is the corrected t's one-sided p-value
        t = corrected_paired_t(d, test_train_ratio=10 / 90)
        b0 = bayesian_correlated_t(d, test_train_ratio=10 / 90)
        assert min(b0.p_better, b0.p_worse) == pytest.approx(t.pvalue / 2)
        assert b0.p_rope == 0.0

    def test_zero_variance_is_a_point_mass(self):
        res = bayesian_correlated_t([0.02] * 5, test_train_ratio=0.25, rope=0.01)
        assert (res.p_better, res.p_rope, res.p_worse) == (1.0, 0.0, 0.0)
        res = bayesian_correlated_t([0.005] * 5, test_train_ratio=0.25, rope=0.01)
        assert (res.p_better, res.p_rope, res.p_worse) == (0.0, 1.0, 0.0)

    def test_bad_rope(self):
        msg = (
            "`rope` must be None or a non-negative float in the metric's units; "
            "got -0.1."
        )
        with pytest.raises(ValueError, match=re.escape(msg)):
            bayesian_correlated_t(D10, test_train_ratio=0.1, rope=-0.1)


def _freq(estimate, low, high, pvalue, confidence=0.95):
    return SimpleNamespace(
        estimate=estimate,
        low=low,
        high=high,
        pvalue=pvalue,
        confidence=confidence,
        method="corrected-t",
    )


class TestPairedDecision:
    @pytest.mark.parametrize(
        ("result", "rope", "expected"),
        [
            (_freq(0.03, 0.01, 0.05, 0.01), None, "better"),
            (_freq(-0.03, -0.05, -0.01, 0.01), None, "worse"),
            (_freq(0.01, -0.01, 0.03, 0.3), None, "no significant difference"),
            (_freq(0.03, 0.01, 0.05, 0.01), 0.02, "better"),
            (_freq(0.015, 0.01, 0.02, 0.01), 0.02, "better, not meaningful"),
            (_freq(-0.015, -0.02, -0.01, 0.01), 0.02, "worse, not meaningful"),
            (_freq(0.0, -0.01, 0.01, 0.9), 0.02, "practically equivalent"),
            (_freq(0.0, -0.03, 0.03, 0.9), 0.02, "no significant difference"),
            # 5x2cv-F style: decision from the p-value, sign from the estimate
            (_freq(-0.02, np.nan, np.nan, 0.01), None, "worse"),
            (_freq(0.0, -0.01, 0.01, 0.9), 0.0, "no significant difference"),
        ],
    )
    def test_frequentist(self, result, rope, expected):
        assert paired_decision(result, rope=rope) == expected
        assert expected in DECISIONS

    def test_decision_matches_corrected_t(self):
        res = corrected_paired_t(D10, test_train_ratio=1 / 9)
        assert paired_decision(res) == "better"
        assert paired_decision(res, rope=0.05) == "better, not meaningful"
        res = corrected_paired_t(-D10, test_train_ratio=1 / 9)
        assert paired_decision(res, rope=0.001) == "worse"

    def test_bayesian(self):
        res = bayesian_correlated_t(D10, test_train_ratio=1 / 9, rope=0.005)
        assert res.p_better > 0.95
        assert paired_decision(res) == "better"
        res = bayesian_correlated_t(D10, test_train_ratio=1 / 9, rope=0.02)
        # P(A - B > 0) > 0.95, but no posterior probability the result holds
        # exceeds 0.95 (p_better 0.43, p_rope 0.57): undecided (issue 29, 1)
        assert paired_decision(res) == "no significant difference"
        res = bayesian_correlated_t(D10 - 0.019, test_train_ratio=1 / 9, rope=0.05)
        assert res.p_rope > 0.95
        assert paired_decision(res) == "practically equivalent"
        res = bayesian_correlated_t(
            D10 - 0.019, test_train_ratio=1 / 9, rope=0.0, confidence=0.9
        )
        assert paired_decision(res) == "no significant difference"
        with pytest.raises(ValueError, match="differs from the rope"):
            paired_decision(res, rope=0.1)


def _rule(p_better, p_rope, p_worse, rope, confidence=0.95):
    """The Bayesian decision rule, written out from the posterior (issue 29, 1)."""
    if p_better > confidence:
        return "better"
    if p_worse > confidence:
        return "worse"
    if rope > 0 and p_rope > confidence:
        return "practically equivalent"
    return "no significant difference"


# 30 differences with mean 0.0638 and sd 0.032 (3 x 10-fold): the shape of
# the lr vs depth-2 tree on breast cancer (issue 29, item 1)
Z30 = stats.norm.ppf((np.arange(30) + 0.5) / 30)[np.argsort(np.arange(30) * 7 % 30)]
D30 = 0.0638 + 0.032 * (Z30 - Z30.mean()) / Z30.std(ddof=1)


class TestBayesianDecisionFollowsPosterior:
    """Issue 29, item 1: the decision reads p_better / p_rope / p_worse only."""

    @pytest.mark.parametrize(
        ("rope", "expected"),
        [
            (0.0, "better"),  # p_better 0.99999
            (0.05, "no significant difference"),  # p_better 0.867 < 0.95
            (0.1, "practically equivalent"),  # p_rope 0.997 > 0.95
        ],
    )
    def test_rope_0_005_01_against_scipy(self, rope, expected):
        res = bayesian_correlated_t(D30, test_train_ratio=1 / 9, rope=rope)
        scale = np.sqrt((1 / 30 + 1 / 9) * np.var(D30, ddof=1))
        post = stats.t(29, loc=D30.mean(), scale=scale)
        p_better, p_worse = post.sf(rope), post.cdf(-rope)
        p_rope = post.cdf(rope) - post.cdf(-rope)
        np.testing.assert_allclose(
            (res.p_better, res.p_rope, res.p_worse),
            (p_better, p_rope, p_worse),
            rtol=1e-9,
            atol=1e-14,
        )
        assert _rule(p_better, p_rope, p_worse, rope) == expected
        assert paired_decision(res) == expected

    def test_recorded_probabilities(self):
        got = [
            bayesian_correlated_t(D30, test_train_ratio=1 / 9, rope=r)
            for r in (0.0, 0.05, 0.1)
        ]
        np.testing.assert_allclose(
            [(g.p_better, g.p_rope, g.p_worse) for g in got],
            [
                (0.9999935967641055, 0.0, 6.403235894475976e-06),
                (0.8671020802807383, 0.13289791957351296, 1.4574875915639602e-10),
                (0.0029152792409568484, 0.9970847207590171, 2.6103318109678603e-14),
            ],
            rtol=1e-9,
            atol=1e-15,
        )

    def test_significant_but_not_past_the_rope_is_undecided(self):
        # P(A - B > 0) = 0.99999 but P(A - B > rope) = 0.867: not "better", and
        # not "better, not meaningful" either (the mean 0.064 exceeds the rope)
        res = bayesian_correlated_t(D30, test_train_ratio=1 / 9, rope=0.05)
        assert stats.t.cdf(res.statistic, res.df) > 0.9999
        assert paired_decision(res) == "no significant difference"
        # mirrored: "worse" needs P(A - B < -rope) > confidence
        neg = bayesian_correlated_t(-D30, test_train_ratio=1 / 9, rope=0.05)
        assert neg.p_worse == pytest.approx(res.p_better)
        assert paired_decision(neg) == "no significant difference"
        assert (
            paired_decision(bayesian_correlated_t(-D30, test_train_ratio=1 / 9))
            == "worse"
        )

    def test_every_decision_follows_the_rule(self):
        rng = np.random.default_rng(29)
        for _ in range(200):
            d = rng.normal(rng.uniform(-0.05, 0.05), 0.03, size=30)
            rope = float(rng.choice([0.0, 0.01, 0.02, 0.05]))
            conf = float(rng.choice([0.9, 0.95]))
            r = bayesian_correlated_t(
                d, test_train_ratio=1 / 9, rope=rope, confidence=conf
            )
            expected = _rule(r.p_better, r.p_rope, r.p_worse, rope, conf)
            assert paired_decision(r) == expected
