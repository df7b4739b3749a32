import re
import time

import numpy as np
import pytest

from skperf.stats import (
    noether_sample_size,
    outperform_decision,
    prob_outperform,
    prob_outperform_ci,
)
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


class TestProbOutperformCI:
    def test_paired_equals_loop_over_resamples(self):
        rng = np.random.default_rng(0)
        a, b = rng.normal(size=12), rng.normal(size=12)
        est, low, high = prob_outperform_ci(a, b, paired=True, n_boot=999, rng=7)
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
        est, low, high = prob_outperform_ci(a, b, paired=False, n_boot=999, rng=3)
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
        est, low, high = prob_outperform_ci(
            np.tile(a, (2, 3, 1)), b, paired=paired, n_boot=499, rng=0
        )
        ref = prob_outperform_ci(a, b, paired=paired, n_boot=499, rng=0)
        assert est.shape == low.shape == (2, 3)
        np.testing.assert_allclose(low, ref[1], rtol=1e-13)
        np.testing.assert_allclose(high, ref[2], rtol=1e-13)

    @pytest.mark.parametrize("paired", [True, False])
    def test_greater_is_better_mirrors(self, paired):
        rng = np.random.default_rng(2)
        a, b = rng.normal(size=20), rng.normal(size=20)
        e1, l1, h1 = prob_outperform_ci(
            a, b, paired=paired, rng=0, greater_is_better=False
        )
        e2, l2, h2 = prob_outperform_ci(-a, -b, paired=paired, rng=0)
        assert (e1, l1, h1) == (e2, l2, h2)

    def test_all_pairs_won_is_degenerate(self):
        est, low, high = prob_outperform_ci(
            [2.0, 3.0, 4.0], [1.0, 1.0, 1.0], paired=True, rng=0
        )
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
        with pytest.raises(err, match=re.escape(msg)):
            outperform_decision(*args)


class TestNoether:
    def test_paper_value(self):
        # Bouthillier et al., App. C.3: 29 runs for gamma = 0.75
        assert noether_sample_size(0.75) == 29
        # "more than 700 trainings below 0.55"
        assert noether_sample_size(0.55) > 700

    def test_formula(self):
        # (z_0.95 + z_0.8)^2 / (6 * 0.1^2) = (1.644854 + 0.841621)^2 / 0.06 = 103.04
        assert noether_sample_size(0.6, beta=0.2) == 104
        # (z_0.99 + z_0.9)^2 / (6 * 0.4^2) = (2.326348 + 1.281552)^2 / 0.96 = 13.56
        assert noether_sample_size(0.9, alpha=0.01, beta=0.1) == 14

    def test_decreasing_in_gamma(self):
        sizes = [noether_sample_size(g) for g in (0.55, 0.6, 0.7, 0.8, 0.95)]
        assert sizes == sorted(sizes, reverse=True)

    def test_bad_arguments(self):
        with pytest.raises(
            ValueError, match=re.escape("`gamma` must be in (0.5, 1); got 0.4.")
        ):
            noether_sample_size(0.4)
        with pytest.raises(
            ValueError, match=re.escape("`alpha` must be in (0, 1); got 5.")
        ):
            noether_sample_size(0.75, alpha=5)
