import re
import time

import numpy as np
import pytest

from skperf.stats import (
    ProbOutperformCI,
    noether_sample_size,
    outperform_decision,
    prob_outperform,
    prob_outperform_ci,
)
from skperf.stats._outperform import _u_null_pmf
from skperf.stats._results import DECISIONS


def _brute_unpaired(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    w = (a[..., :, None] > b[..., None, :]) + 0.5 * (a[..., :, None] == b[..., None, :])
    return w.mean(axis=(-2, -1))


class TestProbOutperform:
    def test_paired_hand_counted(self):
        a = [3.0, 1.0, 2.0, 5.0, 4.0]
        b = [2.0, 2.0, 2.0, 1.0, 4.0]
        # pairs: win, loss, tie, win, tie -> (1 + 0 + .5 + 1 + .5) / 5
        assert prob_outperform(a, b, paired=True) == 0.6
        assert prob_outperform(b, a, paired=True) == 0.4
        # losses: lower wins -> loss, win, tie, loss, tie
        assert prob_outperform(a, b, paired=True, greater_is_better=False) == 0.4

    def test_unpaired_hand_counted(self):
        a = [1.0, 3.0]
        b = [1.0, 2.0, 4.0]
        # 1 vs (1, 2, 4): tie, loss, loss -> 0.5; 3 vs (1, 2, 4): win, win, loss -> 2
        assert prob_outperform(a, b, paired=False) == pytest.approx(2.5 / 6)
        assert prob_outperform(
            a, b, paired=False, greater_is_better=False
        ) == pytest.approx(3.5 / 6)

    def test_unpaired_matches_all_pairs(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        a = rng.integers(0, 6, size=(4, 13)).astype(float)  # many ties
        b = rng.integers(0, 6, size=(4, 9)).astype(float)
        np.testing.assert_allclose(
            prob_outperform(a, b, paired=False), _brute_unpaired(a, b), rtol=1e-14
        )

    def test_unpaired_equals_mann_whitney(self):
        from scipy import stats

        rng = np.random.default_rng(0)
        a, b = rng.normal(size=30), rng.normal(0.3, size=20)
        u = stats.mannwhitneyu(a, b).statistic
        assert prob_outperform(a, b, paired=False) == pytest.approx(u / 600, rel=1e-14)

    def test_symmetry(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        a, b = rng.integers(0, 4, 20), rng.integers(0, 4, 20)
        for paired in (True, False):
            p = prob_outperform(a, b, paired=paired) + prob_outperform(
                b, a, paired=paired
            )
            assert p == pytest.approx(1.0, abs=1e-14)

    def test_large_unpaired_is_fast(self):
        # rank form: no n x m matrix (it would be 4e10 entries here)
        rng = np.random.default_rng(0)
        a, b = rng.normal(size=200_000), rng.normal(size=200_000)
        t0 = time.perf_counter()
        p = prob_outperform(a, b, paired=False)
        assert time.perf_counter() - t0 < 5
        assert p == pytest.approx(0.5, abs=0.005)

    def test_batch_and_axis(self):
        rng = np.random.default_rng(0)
        a, b = rng.normal(size=(7, 3)), rng.normal(size=(7, 3))
        res = prob_outperform(a, b, paired=True, axis=0)
        ref = [prob_outperform(a[:, j], b[:, j], paired=True) for j in range(3)]
        np.testing.assert_allclose(res, ref)
        # b broadcasts against a's batch axes
        res = prob_outperform(rng.normal(size=(2, 5)), rng.normal(size=4), paired=False)
        assert res.shape == (2,)

    @pytest.mark.parametrize(
        ("kw", "err", "msg"),
        [
            (
                {"paired": "yes"},
                TypeError,
                "`paired` must be True or False; got 'yes'.",
            ),
            (
                {"paired": True, "greater_is_better": 1},
                TypeError,
                "`greater_is_better` must be True or False",
            ),
        ],
    )
    def test_bad_flags(self, kw, err, msg):
        with pytest.raises(err, match=re.escape(msg)):
            prob_outperform([1.0, 2.0], [1.0, 2.0], **kw)

    def test_paired_lengths(self):
        msg = "paired=True needs one score of `b` per score of `a`; got 3 and 2 scores."
        with pytest.raises(ValueError, match=re.escape(msg)):
            prob_outperform([1.0, 2.0, 3.0], [1.0, 2.0], paired=True)

    def test_paired_is_keyword_required(self):
        with pytest.raises(TypeError):
            prob_outperform([1.0, 2.0], [1.0, 2.0])


class TestProbOutperformCIResult:
    """The result object of ``prob_outperform_ci`` (issue 16, one result style)."""

    def test_fields_and_numbers(self):
        a, b = np.arange(1.0, 9.0), np.arange(8.0)  # 8 clean wins
        r = prob_outperform_ci(a, b, paired=True)
        assert isinstance(r, ProbOutperformCI)
        # exact sign interval of 8 wins of 8: low = 0.025 ** (1 / 8)
        assert (r.estimate, r.high) == (1.0, 1.0)
        assert r.low == pytest.approx(0.025 ** (1 / 8), rel=1e-12)
        assert r.length == pytest.approx(1 - 0.025 ** (1 / 8), rel=1e-12)
        assert (r.confidence, r.method, r.paired) == (0.95, "sign", True)
        assert (r.n_a, r.n_b, r.n_boot, r.target) == (8, 8, None, "this dataset")
        assert r.to_dict() == {
            "estimate": 1.0,
            "low": r.low,
            "high": 1.0,
            "confidence": 0.95,
            "method": "sign",
            "paired": True,
            "n_a": 8,
            "n_b": 8,
            "n_boot": None,
            "target": "this dataset",
        }
        assert repr(r) == (
            "ProbOutperformCI(estimate=1, low=0.6306, high=1, confidence=0.95, "
            "method='sign', paired=True, n_a=8, n_b=8, target='this dataset')"
        )

    @pytest.mark.parametrize(("confidence", "n_boot"), [(0.95, 399), (0.9, 199)])
    def test_bootstrap_names_auto_n_boot(self, confidence, n_boot):
        rng = np.random.default_rng(0)
        a, b = rng.normal(size=9), rng.normal(size=12)
        r = prob_outperform_ci(
            a,
            b,
            paired=False,
            method="bootstrap",
            confidence=confidence,
            random_state=0,
        )
        assert (r.method, r.n_boot, r.n_a, r.n_b) == ("bootstrap", n_boot, 9, 12)
        assert "n_boot=" + str(n_boot) in repr(r)

    def test_unpaired_default_method_is_named(self):
        rng = np.random.default_rng(1)
        r = prob_outperform_ci(rng.normal(size=10), rng.normal(size=14), paired=False)
        assert r.method == "brunner-munzel"
        assert r.paired is False

    def test_frozen_read_only_equality(self):
        import copy
        import dataclasses

        rng = np.random.default_rng(2)
        r = prob_outperform_ci(
            rng.normal(size=(3, 10)), rng.normal(size=10), paired=True
        )
        assert r.estimate.shape == r.low.shape == r.high.shape == (3,)
        for arr in (r.estimate, r.low, r.high):
            assert not arr.flags.writeable
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.low = 0.0
        assert r == copy.deepcopy(r)
        assert (r == object()) is False
        assert r != prob_outperform_ci(
            rng.normal(size=(3, 10)), rng.normal(size=10), paired=True
        )
        assert len(r.to_frame()) == 3
        with pytest.raises(TypeError):  # not a tuple: read the fields by name
            _est, _low, _high = r


class TestProbOutperformCI:
    def test_paired_equals_loop_over_resamples(self):
        rng = np.random.default_rng(0)
        a, b = rng.normal(size=12), rng.normal(size=12)
        r = prob_outperform_ci(
            a, b, paired=True, n_boot=999, random_state=7, method="bootstrap"
        )
        est, low, high = r.estimate, r.low, r.high
        g = np.random.default_rng(7)
        idx = g.integers(0, 12, size=(999, 12))
        boot = [prob_outperform(a[i], b[i], paired=True) for i in idx]
        assert est == prob_outperform(a, b, paired=True)
        assert low == pytest.approx(np.quantile(boot, 0.025), abs=1e-12)
        assert high == pytest.approx(np.quantile(boot, 0.975), abs=1e-12)

    def test_unpaired_equals_loop_over_resamples(self):
        rng = np.random.default_rng(1)
        a = rng.integers(0, 5, size=9).astype(float)
        b = rng.integers(0, 5, size=14).astype(float)
        r = prob_outperform_ci(
            a, b, paired=False, n_boot=999, random_state=3, method="bootstrap"
        )
        est, low, high = r.estimate, r.low, r.high
        ga, gb = np.random.default_rng(3).spawn(2)
        ia, ib = ga.integers(0, 9, size=(999, 9)), gb.integers(0, 14, size=(999, 14))
        boot = [_brute_unpaired(a[i], b[j]) for i, j in zip(ia, ib, strict=True)]
        assert est == pytest.approx(_brute_unpaired(a, b))
        assert low == pytest.approx(np.quantile(boot, 0.025), abs=1e-12)
        assert high == pytest.approx(np.quantile(boot, 0.975), abs=1e-12)

    @pytest.mark.parametrize("paired", [True, False])
    def test_batch_slices_equal_1d(self, paired, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        a, b = rng.normal(size=15), rng.normal(0.5, size=15)
        r = prob_outperform_ci(
            np.tile(a, (2, 3, 1)),
            b,
            paired=paired,
            n_boot=499,
            random_state=0,
            method="bootstrap",
        )
        est, low, high = r.estimate, r.low, r.high
        ref = prob_outperform_ci(
            a, b, paired=paired, n_boot=499, random_state=0, method="bootstrap"
        )
        assert est.shape == low.shape == (2, 3)
        np.testing.assert_allclose(low, ref.low, rtol=1e-13)
        np.testing.assert_allclose(high, ref.high, rtol=1e-13)

    @pytest.mark.parametrize("paired", [True, False])
    def test_greater_is_better_mirrors(self, paired):
        rng = np.random.default_rng(2)
        a, b = rng.normal(size=20), rng.normal(size=20)
        r = prob_outperform_ci(
            a,
            b,
            paired=paired,
            random_state=0,
            greater_is_better=False,
            method="bootstrap",
        )
        e1, l1, h1 = r.estimate, r.low, r.high
        r = prob_outperform_ci(
            -a, -b, paired=paired, random_state=0, method="bootstrap"
        )
        e2, l2, h2 = r.estimate, r.low, r.high
        assert (e1, l1, h1) == (e2, l2, h2)

    def test_all_pairs_won_is_degenerate(self):
        r = prob_outperform_ci(
            [2.0, 3.0, 4.0],
            [1.0, 1.0, 1.0],
            paired=True,
            random_state=0,
            method="bootstrap",
        )
        est, low, high = r.estimate, r.low, r.high
        assert est == low == high == 1.0

    def test_bad_sample(self):
        with pytest.raises(
            ValueError, match=re.escape("`b` must have at least 2 values; got 1.")
        ):
            prob_outperform_ci([1.0, 2.0], [1.0], paired=False)


class TestDecision:
    @pytest.mark.parametrize(
        ("low", "high", "expected"),
        [
            (0.6, 0.9, "better"),
            (0.51, 0.76, "better"),
            (0.55, 0.75, "better"),  # high = gamma counts as meaningful (>=)
            (0.55, 0.7, "better, not meaningful"),
            (0.5, 0.9, "no significant difference"),  # low must exceed 0.5
            (0.3, 0.7, "no significant difference"),
            (0.2, 0.5, "no significant difference"),
            (0.3, 0.45, "worse, not meaningful"),
            (0.25, 0.45, "worse"),  # mirror of high = gamma: low = 1 - gamma
            (0.1, 0.4, "worse"),
        ],
    )
    def test_table(self, low, high, expected):
        assert outperform_decision(low, high) == expected
        # B's side is A's decision on 1 - P(A > B)
        mirror = dict(zip(DECISIONS, DECISIONS[::-1], strict=True))
        assert outperform_decision(1 - high, 1 - low) == mirror[expected]

    def test_gamma(self):
        assert outperform_decision(0.55, 0.85, gamma=0.9) == "better, not meaningful"
        assert outperform_decision(0.55, 0.85, gamma=0.6) == "better"

    def test_arrays(self):
        res = outperform_decision([0.6, 0.1, 0.4], [0.9, 0.3, 0.6])
        assert res.tolist() == ["better", "worse", "no significant difference"]

    @pytest.mark.parametrize(
        ("args", "err", "msg"),
        [
            ((0.6, 0.9, 0.5), ValueError, "`gamma` must be in (0.5, 1); got 0.5."),
            (
                (0.6, 0.9, 75),
                ValueError,
                "`gamma` must be in (0.5, 1); got 75. Did you mean 0.75?",
            ),
            (
                (0.6, 0.9, "a"),
                TypeError,
                "`gamma` must be a float in (0.5, 1); got 'a'.",
            ),
            (
                (0.9, 0.6),
                ValueError,
                "`low` and `high` must satisfy 0 <= low <= high <= 1",
            ),
            (
                (0.6, 1.2),
                ValueError,
                "`low` and `high` must satisfy 0 <= low <= high <= 1",
            ),
        ],
    )
    def test_bad_arguments(self, args, err, msg):
        low, high, *gamma = args  # gamma is keyword-only
        kw = {"gamma": gamma[0]} if gamma else {}
        with pytest.raises(err, match=re.escape(msg)):
            outperform_decision(low, high, **kw)


class TestNoether:
    def test_paper_value(self):
        # Bouthillier et al., App. C.3: 29 runs for gamma = 0.75 at a
        # one-sided 0.05, which is a two-sided confidence of 0.9
        assert noether_sample_size(0.75, confidence=0.9) == 29
        # skperf's decisions are two-sided: each bound errs 0.025
        assert noether_sample_size(0.75) == 35
        # "more than 700 trainings below 0.55"
        assert noether_sample_size(0.55) > 700

    def test_formula(self):
        # (z_0.95 + z_0.8)^2 / (6 * 0.1^2) = (1.644854 + 0.841621)^2 / 0.06 = 103.04
        assert noether_sample_size(0.6, confidence=0.9, power=0.8) == 104
        # (z_0.99 + z_0.9)^2 / (6 * 0.4^2) = (2.326348 + 1.281552)^2 / 0.96 = 13.56
        assert noether_sample_size(0.9, confidence=0.98, power=0.9) == 14

    def test_decreasing_in_gamma(self):
        sizes = [noether_sample_size(g) for g in (0.55, 0.6, 0.7, 0.8, 0.95)]
        assert sizes == sorted(sizes, reverse=True)

    def test_bad_arguments(self):
        with pytest.raises(
            ValueError, match=re.escape("`gamma` must be in (0.5, 1); got 0.4.")
        ):
            noether_sample_size(0.4)
        with pytest.raises(
            ValueError, match=re.escape("`power` must be in (0, 1); got 5.")
        ):
            noether_sample_size(0.75, power=5)
        with pytest.raises(TypeError, match="positional"):
            noether_sample_size(0.75, 0.05)  # keyword-only: never alpha by position


# ---------------------------------------------------------------------------
# Exact methods: paired "sign", unpaired "newcombe" (skperf issue 12, item 1)
# ---------------------------------------------------------------------------

CONFIDENCES = (0.90, 0.95, 0.99)


def _trinomial(n):
    """Every (wins, ties, losses) with sum n."""
    w, t = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = w + t <= n
    return w[keep], t[keep], n - w[keep] - t[keep]


def _trinomial_pmf(w, t, ls, p_win, p_tie):
    from scipy import stats

    p_loss = max(1.0 - p_win - p_tie, 0.0)
    return stats.multinomial.pmf(
        np.stack([w, t, ls], axis=1), w[0] + t[0] + ls[0], [p_win, p_tie, p_loss]
    )


def _paired_scores(w, t, ls):
    """Scores of A and B with ``w`` wins, ``t`` ties and ``ls`` losses of A."""
    a = np.concatenate([np.ones(w), np.zeros(t), -np.ones(ls)])
    return a, np.zeros(w + t + ls)


class TestSignInterval:
    """Paired: Clopper-Pearson on the wins, checked by exact enumeration."""

    def test_bounds_and_pvalue_match_scipy_binomtest(self):
        from scipy import stats

        from skperf.stats._outperform import _beta_bounds, _sign_pvalue

        for m in (1, 2, 7, 20):
            for k in range(m + 1):
                ref = stats.binomtest(k, m).proportion_ci(0.9, method="exact")
                low, high = _beta_bounds(k, m, 0.9)
                assert (low, high) == pytest.approx((ref.low, ref.high), abs=1e-12)
                assert _sign_pvalue(k, m - k) == pytest.approx(
                    stats.binomtest(k, m).pvalue, rel=1e-12
                )

    def test_untied_interval_is_clopper_pearson(self):
        from scipy import stats

        # 7 wins, 3 losses: the Clopper-Pearson interval of 7 / 10
        a, b = _paired_scores(7, 0, 3)
        r = prob_outperform_ci(a, b, paired=True, method="sign")
        est, low, high = r.estimate, r.low, r.high
        ref = stats.binomtest(7, 10).proportion_ci(0.95, method="exact")
        assert est == 0.7
        assert (low, high) == pytest.approx((ref.low, ref.high), abs=1e-12)

    @pytest.mark.parametrize("confidence", CONFIDENCES)
    def test_significant_iff_sign_test_rejects(self, confidence):
        from skperf.stats._outperform import _sign_interval, _sign_pvalue

        for n in range(2, 41):
            w, t, ls = _trinomial(n)
            low, high = _sign_interval(w, t, ls, confidence)
            p = _sign_pvalue(w, ls)
            np.testing.assert_array_equal(
                (low > 0.5) | (high < 0.5), p < 1 - confidence
            )
            est = (w + 0.5 * t) / n
            assert np.all((low <= est) & (est <= high))

    @pytest.mark.parametrize("confidence", CONFIDENCES)
    def test_null_rate_exact_untied(self, confidence):
        # identical models, no ties: wins ~ Bin(n, 1/2); P(significant) by
        # enumeration over the win count, n = 5..50
        from scipy import stats

        from skperf.stats._outperform import _sign_interval

        rates = []
        for n in range(5, 51):
            w = np.arange(n + 1)
            low, high = _sign_interval(w, 0 * w, n - w, confidence)
            rates.append(stats.binom.pmf(w, n, 0.5)[(low > 0.5) | (high < 0.5)].sum())
        rates = np.array(rates)
        assert rates.max() <= 1 - confidence
        # the largest rate on the grid: close to nominal, not far below it
        worst = {0.90: (0.0989, 37), 0.95: (0.0490, 17), 0.99: (0.00956, 44)}
        assert rates.max() == pytest.approx(worst[confidence][0], abs=5e-5)
        assert 5 + rates.argmax() == worst[confidence][1]

    @pytest.mark.parametrize("confidence", CONFIDENCES)
    @pytest.mark.parametrize("p_tie", [0.1, 0.3, 0.6])
    def test_null_rate_exact_with_ties(self, confidence, p_tie):
        # accuracy-like scores: P(win) = P(loss) = (1 - p_tie) / 2
        from skperf.stats._outperform import _sign_interval

        for n in range(5, 51):
            w, t, ls = _trinomial(n)
            pmf = _trinomial_pmf(w, t, ls, (1 - p_tie) / 2, p_tie)
            low, high = _sign_interval(w, t, ls, confidence)
            rate = pmf[(low > 0.5) | (high < 0.5)].sum()
            assert rate <= 1 - confidence, (n, rate)

    @pytest.mark.parametrize("confidence", CONFIDENCES)
    def test_coverage_exact(self, confidence):
        # coverage of P(A > B) by enumeration, n = 10..50, no ties and 30 %
        # ties, including P = 1 - p_tie / 2 (B never beats A)
        from skperf.stats._outperform import _sign_interval

        worst = 1.0
        for n in range(10, 51):
            w, t, ls = _trinomial(n)
            low, high = _sign_interval(w, t, ls, confidence)
            for p_tie, ps in (
                (0.0, (0.5, 0.6, 0.75, 0.9, 0.95)),
                (0.3, (0.5, 0.6, 0.75, 0.85)),
            ):
                for p in ps:
                    pmf = _trinomial_pmf(w, t, ls, p - p_tie / 2, p_tie)
                    cov = pmf[(low <= p + 1e-12) & (p - 1e-12 <= high)].sum()
                    worst = min(worst, cov)
        assert worst >= confidence

    def test_rescaling_alone_would_undercover(self):
        # the bound away from 0.5 needs the ties-split bound: with the tie
        # share plugged in, B never beating A (P = 0.95, 10 % ties) is
        # covered 42 % of the time at n = 19; the interval used covers >= 95 %
        from skperf.stats._outperform import _beta_bounds, _sign_interval

        n, p_tie = 19, 0.1
        w, t, ls = _trinomial(n)
        pmf = _trinomial_pmf(w, t, ls, 0.9, p_tie)
        _, q_high = _beta_bounds(w, w + ls, 0.95)
        plug_high = 0.5 + (w + ls) / n * (q_high - 0.5)
        assert pmf[plug_high >= 0.95].sum() == pytest.approx(0.4203, abs=1e-4)
        low, high = _sign_interval(w, t, ls, 0.95)
        assert pmf[(low <= 0.95) & (0.95 <= high)].sum() >= 0.95

    @pytest.mark.parametrize("n", range(2, 30))
    def test_clean_sweep_is_not_degenerate(self, n):
        r = prob_outperform_ci(np.ones(n), np.zeros(n), paired=True, method="sign")
        est, low, high = r.estimate, r.low, r.high
        assert est == high == 1.0
        assert low == pytest.approx(0.025 ** (1 / n), rel=1e-12)
        assert low < 1.0

    def test_all_ties_is_not_degenerate(self):
        r = prob_outperform_ci(np.ones(10), np.ones(10), paired=True, method="sign")
        est, low, high = r.estimate, r.low, r.high
        assert est == 0.5
        assert low < 0.5 < high


class TestBootstrapNullRate:
    """The issue's numbers for method="bootstrap", by enumeration of the wins."""

    @pytest.mark.parametrize(
        ("confidence", "n", "rate"),
        [
            (0.90, 10, 0.1094),
            (0.90, 15, 0.1185),
            (0.90, 20, 0.1153),
            (0.90, 29, 0.1360),
            (0.95, 15, 0.0768),
            (0.95, 29, 0.0614),
        ],
    )
    def test_paired_bootstrap_exceeds_nominal(self, confidence, n, rate):
        from scipy import stats

        k = np.arange(n + 1)
        wins = (np.arange(n) < k[:, None]).astype(float) * 2 - 1  # +1 win, -1 loss
        r = prob_outperform_ci(
            wins,
            np.zeros(n),
            paired=True,
            confidence=confidence,
            n_boot=2000,  # the issue measured at 2000 resamples
            random_state=0,
            method="bootstrap",
        )
        low, high = r.low, r.high
        significant = (low > 0.5) | (high < 0.5)
        got = stats.binom.pmf(k, n, 0.5)[significant].sum()
        assert got == pytest.approx(rate, abs=1e-4)
        assert got > 1 - confidence  # the reason "auto" does not use it
        # the exact interval at the same n stays at or below nominal
        r = prob_outperform_ci(
            wins, np.zeros(n), paired=True, confidence=confidence, method="sign"
        )
        low, high = r.low, r.high
        exact = stats.binom.pmf(k, n, 0.5)[(low > 0.5) | (high < 0.5)].sum()
        assert exact <= 1 - confidence

    def test_clean_sweep_is_degenerate(self):
        r = prob_outperform_ci(
            np.ones(10), np.zeros(10), paired=True, random_state=0, method="bootstrap"
        )
        low, high = r.low, r.high
        assert low == high == 1.0


class TestNewcombe:
    """Unpaired: Newcombe's score interval joined with the Mann-Whitney test."""

    def test_u_null_pmf_matches_scipy(self):
        from scipy import stats

        pmf = _u_null_pmf(4, 6)
        assert pmf.sum() == pytest.approx(1.0)
        cdf = np.cumsum(pmf)
        # scipy's exact p-value of U = u is 2 min(P(U <= u), P(U >= u))
        for u in (0, 3, 8, 12, 24):
            x, y = _samples_with_u(4, 6, u)
            assert stats.mannwhitneyu(x, y).statistic == u
            ref = min(1.0, 2 * min(cdf[u], 1 - cdf[u] + pmf[u]))
            p = stats.mannwhitneyu(x, y, method="exact").pvalue
            assert p == pytest.approx(ref, rel=1e-12)

    def test_null_variance_is_mann_whitney(self):
        from skperf.stats._outperform import _hm_sd

        for m, n in ((3, 3), (5, 12), (29, 29)):
            assert _hm_sd(0.5, m, n) ** 2 == pytest.approx(
                (m + n + 1) / (12 * m * n), rel=1e-14
            )

    def test_bounds_solve_the_score_equation(self):
        # independent check: a dense grid of the acceptance region
        from scipy import special

        from skperf.stats._outperform import _hm_sd, _newcombe_bounds

        grid = np.linspace(0, 1, 400_001)
        z = special.ndtri(0.975)
        for m, n in ((5, 5), (3, 8), (12, 10)):
            theta = np.arange(m * n + 1) / (m * n)
            low, high = _newcombe_bounds(theta, m, n, 0.95)
            sd = _hm_sd(grid, m, n)
            for t, lo, hi in zip(theta, low, high, strict=True):
                ok = np.flatnonzero(np.abs(t - grid) - 0.5 / (m * n) <= z * sd)
                assert np.all(np.diff(ok) == 1)  # an interval
                assert lo == pytest.approx(grid[ok[0]], abs=3e-6)
                assert hi == pytest.approx(grid[ok[-1]], abs=3e-6)

    @pytest.mark.parametrize("confidence", CONFIDENCES)
    def test_null_rate_exact_untied(self, confidence):
        # identical continuous distributions: U has the exact null pmf and
        # both the interval and the exact p-value are functions of U, so the
        # false-significant rate is computed exactly, n = m = 2..50
        from skperf.stats._outperform import _newcombe_bounds

        alpha = 1 - confidence
        worst_hull = worst_score = 0.0
        for n in range(2, 51):
            pmf = _u_null_pmf(n, n)
            cdf = np.cumsum(pmf)
            p = np.minimum(1, 2 * np.minimum(cdf, 1 - cdf + pmf))
            theta = np.arange(n * n + 1) / (n * n)
            low, high = _newcombe_bounds(theta, n, n, confidence)
            score = (low > 0.5) | (high < 0.5)
            worst_score = max(worst_score, pmf[score].sum())
            worst_hull = max(worst_hull, pmf[score & (p < alpha)].sum())
        assert worst_hull <= alpha
        if confidence == 0.90:
            # the score interval alone exceeds 0.10 at some n (0.1005 at
            # n = 12); joining it with the exact test fixes that
            assert worst_score == pytest.approx(0.1005, abs=1e-4)

    @pytest.mark.parametrize("n", [5, 10])
    def test_null_rate_with_ties_simulated(self, n):
        # accuracy-like scores: 7 or so distinct values
        runs, alpha = 2000, 0.05
        rng = np.random.default_rng(n)
        a = rng.binomial(50, 0.8, size=(runs, n)) / 50
        b = rng.binomial(50, 0.8, size=(runs, n)) / 50
        r = prob_outperform_ci(a, b, paired=False, method="newcombe")
        low, high = r.low, r.high
        rate = np.mean((low > 0.5) | (high < 0.5))
        assert rate <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / runs)

    @pytest.mark.parametrize("n", [10, 29])
    def test_coverage_normal_shifts(self, n):
        worst = _newcombe_coverage(n, 0.95, runs=2000, seed=n)
        assert worst >= 0.95 - 0.03

    @pytest.mark.slow
    @pytest.mark.parametrize("confidence", CONFIDENCES)
    @pytest.mark.parametrize("n", [5, 10, 15, 29, 50])
    def test_paper_sized(self, n, confidence):
        runs = 4000
        se = np.sqrt((1 - confidence) * confidence / runs)
        rng = np.random.default_rng(n)
        for kind in ("continuous", "accuracy"):
            if kind == "continuous":
                a, b = rng.normal(size=(runs, n)), rng.normal(size=(runs, n))
            else:
                a = rng.binomial(50, 0.8, size=(runs, n)) / 50
                b = rng.binomial(50, 0.8, size=(runs, n)) / 50
            r = prob_outperform_ci(
                a, b, paired=False, method="newcombe", confidence=confidence
            )
            low, high = r.low, r.high
            rate = np.mean((low > 0.5) | (high < 0.5))
            assert rate <= 1 - confidence + 3 * se
        if n >= 10:
            worst = _newcombe_coverage(n, confidence, runs=runs, seed=n + 1)
            assert worst >= confidence - 0.03

    def test_clean_separation_is_not_degenerate(self):
        r = prob_outperform_ci(
            np.arange(10.0, 20.0), np.arange(10.0), paired=False, method="newcombe"
        )
        est, low, high = r.estimate, r.low, r.high
        assert est == high == 1.0
        assert 0.5 < low < 0.9

    def test_mann_whitney_pvalue(self):
        from scipy import stats

        from skperf.stats._outperform import _mann_whitney_pvalue

        rng = np.random.default_rng(0)
        x, y = rng.normal(size=(3, 12)), rng.normal(size=(3, 20))
        ref = stats.mannwhitneyu(x, y, method="exact", axis=-1).pvalue
        np.testing.assert_allclose(_mann_whitney_pvalue(x, y), ref, rtol=1e-12)
        x, y = np.round(x), np.round(y)  # ties: normal approximation
        ref = stats.mannwhitneyu(x, y, method="asymptotic", axis=-1).pvalue
        np.testing.assert_allclose(_mann_whitney_pvalue(x, y), ref, rtol=1e-12)
        assert _mann_whitney_pvalue(np.ones(3), np.ones(4)) == 1.0


def _samples_with_u(m, n, u):
    """Untied samples of sizes m and n whose Mann-Whitney U (x > y) is u."""
    # x_i beats the first c_i of y: choose c nondecreasing with sum u
    c = np.zeros(m, dtype=int)
    rest = u
    for i in range(m - 1, -1, -1):
        c[i] = min(n, rest)
        rest -= c[i]
    y = np.arange(n, dtype=float)
    x = c - 0.5
    return x, y


def _newcombe_coverage(n, confidence, runs, seed):
    """Smallest coverage over P(A > B) in {0.5, 0.6, 0.75, 0.9, 0.95}."""
    from scipy import stats

    rng = np.random.default_rng(seed)
    worst = 1.0
    for p in (0.5, 0.6, 0.75, 0.9, 0.95):
        shift = np.sqrt(2) * stats.norm.ppf(p)  # P(N(shift, 1) > N(0, 1)) = p
        a = rng.normal(shift, 1.0, size=(runs, n))
        b = rng.normal(0.0, 1.0, size=(runs, n))
        r = prob_outperform_ci(
            a, b, paired=False, method="newcombe", confidence=confidence
        )
        low, high = r.low, r.high
        worst = min(worst, np.mean((low <= p) & (p <= high)))
    return worst


class TestMethodArgument:
    def test_auto(self):
        a, b = np.arange(8.0), np.arange(8.0)[::-1]
        assert prob_outperform_ci(a, b, paired=True, method="auto") == (
            prob_outperform_ci(a, b, paired=True, method="sign")
        )
        assert prob_outperform_ci(a, b, paired=False, method="auto") == (
            prob_outperform_ci(a, b, paired=False, method="brunner-munzel")
        )

    @pytest.mark.parametrize(
        ("paired", "method", "msg"),
        [
            (False, "sign", "method='sign' needs paired scores"),
            (True, "newcombe", "method='newcombe' is for unpaired scores"),
            (True, "exact", "`method` must be one of ['auto', 'bootstrap', 'brunner-"),
        ],
    )
    def test_bad_method(self, paired, method, msg):
        with pytest.raises(ValueError, match=re.escape(msg)):
            prob_outperform_ci([1.0, 2.0], [2.0, 1.0], paired=paired, method=method)

    def test_losses(self):
        a, b = np.arange(6.0), np.arange(6.0) + 0.5
        for method in ("sign", "newcombe"):
            paired = method == "sign"
            r1 = prob_outperform_ci(
                a, b, paired=paired, method=method, greater_is_better=False
            )
            r2 = prob_outperform_ci(-a, -b, paired=paired, method=method)
            assert r1 == r2
            assert r1.estimate == (1.0 if paired else 21 / 36)  # a_i < b_j iff i <= j


# ---------------------------------------------------------------------------
# Unpaired default: Brunner-Munzel (skperf issue 18, item 2)
# ---------------------------------------------------------------------------


def _unequal_spread(n, m, p_true, runs, seed, sd_a=0.02, sd_b=0.002):
    """``runs`` pairs of samples N(.85 + d, sd_a) (n) and N(.85, sd_b) (m)."""
    from scipy import stats

    rng = np.random.default_rng(seed)
    shift = stats.norm.ppf(p_true) * np.hypot(sd_a, sd_b)  # P(A > B) = p_true
    a = rng.normal(0.85 + shift, sd_a, size=(runs, n))
    b = rng.normal(0.85, sd_b, size=(runs, m))
    return a, b


class TestBrunnerMunzel:
    def test_matches_scipy(self, global_random_seed):
        from scipy import stats

        from skperf.stats._outperform import _brunner_munzel

        rng = np.random.default_rng(global_random_seed)
        a = np.round(rng.normal(0.8, 0.05, size=12), 2)  # with ties
        b = np.round(rng.normal(0.82, 0.01, size=17), 2)
        est, se, df = _brunner_munzel(a, b)
        ref = stats.brunnermunzel(a, b)
        assert est == pytest.approx(prob_outperform(a, b, paired=False), rel=1e-12)
        # scipy's statistic is for P(B > A): the same up to sign
        assert abs(est - 0.5) / se == pytest.approx(abs(ref.statistic), rel=1e-10)
        p = 2 * stats.t.sf(abs(est - 0.5) / se, df)
        assert p == pytest.approx(ref.pvalue, rel=1e-10)

    def test_auto_is_brunner_munzel_and_dual(self):
        from scipy import stats

        from skperf.stats._outperform import _brunner_munzel, _exact_interval

        a, b = _unequal_spread(20, 25, 0.75, runs=300, seed=3)
        assert prob_outperform_ci(a, b, paired=False) == prob_outperform_ci(
            a, b, paired=False, method="brunner-munzel"
        )
        est, low, high, p, w = _exact_interval(a, b, False, 0.95)
        # the p-value: the larger of the Mann-Whitney one and the
        # Brunner-Munzel t test with continuity correction 1 / (2 max(n, m))
        _, se, df = _brunner_munzel(a, b)
        ok = se > 0  # 1 of 300 separates completely (variance 0)
        dist = np.maximum(np.abs(est[ok] - 0.5) - 0.5 / 25, 0.0)
        p_bm = np.minimum(1.0, 2 * stats.t.sf(dist / se[ok], df[ok]))
        p_mw = stats.mannwhitneyu(a, b, axis=-1, method="exact").pvalue
        np.testing.assert_allclose(p[ok], np.maximum(p_bm, p_mw[ok]), rtol=1e-9)
        scipy_bm = stats.brunnermunzel(a[ok], b[ok], axis=-1)
        assert np.all(p[ok] >= scipy_bm.pvalue)
        # its statistic is scipy's W (NaN without spread)
        np.testing.assert_allclose(w[ok], scipy_bm.statistic, rtol=1e-9)
        assert np.isnan(w[~ok]).all()
        # significant exactly when both tests reject
        significant = (low > 0.5) | (high < 0.5)
        assert 0.2 < significant.mean() < 0.95
        np.testing.assert_array_equal(significant, p < 0.05)

    @pytest.mark.parametrize(("n", "m"), [(10, 10), (20, 20), (60, 60), (10, 40)])
    def test_false_significant_unequal_spread(self, n, m):
        # the issue: N(.85, .02) vs N(.85, .002), P(A > B) = 1/2 exactly;
        # Newcombe/Mann-Whitney said "significant" in 0.087-0.094 (0.151 for
        # 10 vs 40). 4000 seeded runs: Monte-Carlo s.e. 0.0034.
        a, b = _unequal_spread(n, m, 0.5, runs=4000, seed=n + m)
        r = prob_outperform_ci(a, b, paired=False)
        low, high = r.low, r.high
        rate = np.mean((low > 0.5) | (high < 0.5))
        assert rate <= 0.05 + 2 * 0.0034
        r = prob_outperform_ci(a, b, paired=False, method="newcombe")
        low, high = r.low, r.high
        assert np.mean((low > 0.5) | (high < 0.5)) > 0.075  # the old default

    @pytest.mark.parametrize("n", [10, 15, 20, 30, 40, 50, 60, 75, 100])
    def test_false_significant_against_constant_model_exact(self, n):
        # B constant at c, A continuous with median c: P(A > B) = 1/2 and the
        # result depends only on k = #(a > c) ~ Bin(n, 1/2): enumerate k
        from scipy import stats

        k = np.arange(n + 1)
        a = np.where(np.arange(n) < k[:, None], 1.0, -1.0) * (1 + np.arange(n))
        b = np.zeros((n + 1, n))
        r = prob_outperform_ci(a, b, paired=False)
        low, high = r.low, r.high
        significant = (low > 0.5) | (high < 0.5)
        rate = stats.binom.pmf(k, n, 0.5) @ significant
        # measured 0.020-0.043 (without the continuity correction 0.065 at 50)
        assert rate <= 0.05
        assert rate > 0.015  # and it does reject

    @pytest.mark.parametrize(("n", "m"), [(10, 10), (30, 30), (10, 40), (40, 10)])
    @pytest.mark.parametrize("p_true", [0.7, 0.9, 0.97])
    @pytest.mark.parametrize("sd_b", [0.002, 0.02])
    def test_coverage(self, n, m, p_true, sd_b):
        # 2000 seeded runs (s.e. 0.005); measured 0.944-1.0 with 6000 runs
        a, b = _unequal_spread(n, m, p_true, runs=2000, seed=7, sd_b=sd_b)
        r = prob_outperform_ci(a, b, paired=False)
        low, high = r.low, r.high
        assert np.mean((low <= p_true) & (p_true <= high)) >= 0.935

    def test_complete_separation_has_width(self):
        # the t interval collapses (variance 0); Newcombe's bound keeps width
        r = prob_outperform_ci(np.arange(10.0, 20.0), np.arange(10.0), paired=False)
        est, low, high = r.estimate, r.low, r.high
        assert est == high == 1.0
        assert 0.5 < low < 0.9
