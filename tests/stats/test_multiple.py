import re

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from skperf.stats._multiple import correct_pvalues


class TestCorrectPvalues:
    @pytest.mark.parametrize("correction", ["holm", "bonferroni", "fdr_bh"])
    def test_matches_statsmodels(self, correction, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        p = np.concatenate([rng.uniform(0, 0.05, 4), rng.uniform(0, 1, 8)])
        expected = multipletests(p, method=correction)[1]
        np.testing.assert_allclose(
            correct_pvalues(p, correction=correction), expected, rtol=1e-12
        )

    def test_hand_computed(self):
        p = [0.01, 0.04, 0.03, 0.5]
        # bonferroni: 4 p; holm: sorted 0.01, 0.03, 0.04, 0.5 times 4, 3, 2, 1,
        # then running max; BH: m p_(i) / i, then running min from the top
        np.testing.assert_allclose(
            correct_pvalues(p, correction="bonferroni"), [0.04, 0.16, 0.12, 1.0]
        )
        np.testing.assert_allclose(
            correct_pvalues(p, correction="holm"), [0.04, 0.09, 0.09, 0.5]
        )
        np.testing.assert_allclose(
            correct_pvalues(p, correction="fdr_bh"), [0.04, 0.16 / 3, 0.16 / 3, 0.5]
        )

    def test_none_returns_copy(self):
        p = np.array([0.2, 0.01])
        out = correct_pvalues(p, correction=None)
        np.testing.assert_array_equal(out, p)
        assert out is not p

    def test_nan_counts_in_family_and_stays_nan(self):
        out = correct_pvalues([0.01, np.nan, 0.02], correction="bonferroni")
        np.testing.assert_allclose(out, [0.03, np.nan, 0.06])

    def test_single_and_empty(self):
        np.testing.assert_allclose(correct_pvalues([0.03], correction="holm"), [0.03])
        assert correct_pvalues([], correction="holm").shape == (0,)

    @pytest.mark.parametrize("correction", ["holm", "bonferroni", "fdr_bh"])
    def test_never_below_raw_and_at_most_one(self, correction, global_random_seed):
        p = np.random.default_rng(global_random_seed).uniform(size=20)
        out = correct_pvalues(p, correction=correction)
        assert np.all(out >= p - 1e-15)
        assert np.all(out <= 1)

    def test_bad_correction(self):
        msg = "`correction` must be one of ('holm', 'bonferroni', 'fdr_bh', None); got 'bh'."
        with pytest.raises(ValueError, match=re.escape(msg)):
            correct_pvalues([0.1], correction="bh")

    def test_bad_pvalues(self):
        with pytest.raises(ValueError, match=re.escape("`p_values` must be in [0, 1]")):
            correct_pvalues([0.1, 1.5])
        with pytest.raises(ValueError, match=re.escape("`p_values` must be 1-D")):
            correct_pvalues([[0.1]])


def test_worse_than_best_rule():
    from skperf.stats._multiple import _worse_than_best

    # k = 2: one pair, nothing else in the family
    adjusted, worse = _worse_than_best(
        [0.01], [0.9], [], confidence=0.95, correction="holm"
    )
    assert adjusted.tolist() == [0.01]
    assert worse.tolist() == [True]
    # k = 5: the best's 4 pairs and the 6 other pairs are one family of 10
    p = [0.01, 0.003, 0.2, np.nan]
    rest = [0.001, 0.5, 0.7, 0.9, 1.0, 0.04]
    est = [0.9, 0.8, 0.95, 0.99]
    adjusted, worse = _worse_than_best(p, est, rest, confidence=0.95, correction="holm")
    family = np.nan_to_num(np.r_[p, rest], nan=1.0)
    expected = multipletests(family, method="holm")[1][:4]
    np.testing.assert_allclose(adjusted[:3], expected[:3], rtol=1e-12)
    np.testing.assert_allclose(adjusted[:3], [0.08, 0.027, 1.0])
    assert np.isnan(adjusted[3])
    # only the second is below 0.05 with P(best > model) > 0.5; NaN counts as tied
    np.testing.assert_array_equal(worse, [False, True, False, False])
    # a small p-value with P(best > model) <= 0.5 is not "worse"
    _, worse = _worse_than_best([0.001], [0.5], [], confidence=0.95, correction=None)
    assert not worse[0]
    with pytest.raises(ValueError, match="the 6 pairs of the 4 models other than"):
        _worse_than_best(p, est, rest[:3], confidence=0.95, correction="holm")


def _tied_fwer(n_benchmarks, shifts, *, n=30, seed=0, best_only=False):
    """Simulated benchmarks of paired runs through the rule of the report.

    Scores ``shift + run effect (s.d. 0.02) + model noise (s.d. 0.01)`` for
    ``n`` paired runs; the best by mean; ``_rank_test`` (Wilcoxon) p-values
    of every pair, as ``ModelSelectionReport(target="this dataset")`` and
    ``candidates_tied_with_best`` compute them. Returns the share of
    benchmarks in which a model of the top shift is called worse (the
    family-wise error) and the mean share of lower models called worse (the
    power). ``best_only``: the old family of the best's ``k - 1`` pairs.
    """
    from skperf._compare import _rank_test
    from skperf.stats._multiple import _worse_than_best, correct_pvalues

    rng = np.random.default_rng(seed)
    shifts = np.asarray(shifts, dtype=float)
    k = shifts.size
    top = shifts == shifts.max()
    errors, power = 0, []
    for _ in range(n_benchmarks):
        s = rng.normal(0, 0.02, (1, n)) + rng.normal(0, 0.01, (k, n)) + shifts[:, None]
        best = int(np.argmax(s.mean(axis=1)))
        others = [i for i in range(k) if i != best]
        p = [_rank_test(s[best], s[i], True)[0] for i in others]
        est = [np.mean((s[best] > s[i]) + 0.5 * (s[best] == s[i])) for i in others]
        rest = [
            _rank_test(s[i], s[j], True)[0]
            for m, i in enumerate(others)
            for j in others[m + 1 :]
        ]
        if best_only:
            adjusted = correct_pvalues(p, correction="holm")
            worse = (adjusted < 0.05) & (np.asarray(est) > 0.5)
        else:
            _, worse = _worse_than_best(
                p, est, rest, confidence=0.95, correction="holm"
            )
        called = np.zeros(k, dtype=bool)
        called[others] = worse
        errors += bool(called[top].any())
        if (~top).any():
            power.append(called[~top].mean())
    return errors / n_benchmarks, (float(np.mean(power)) if power else None)


class TestTiedWithBestFamilywiseError:
    """Issue 29, item 11: 10 equal models, n = 30 paired runs, level 5 %."""

    def test_ten_equal_models(self):
        # 400 benchmarks (about 3 s): the old family of the best's 9 pairs
        # called a model worse in 0.1675; all pairs: 0.0275
        fwer, _ = _tied_fwer(400, [0.0] * 10)
        assert fwer == 0.0275
        assert fwer <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / 400)
        old, _ = _tied_fwer(400, [0.0] * 10, best_only=True)
        assert old == 0.1675

    @pytest.mark.slow
    def test_ten_equal_models_full(self):
        """Recorded (2,000 benchmarks each, seed 0).

        FWER, 10 equal models: best's 9 pairs 0.147 (s.e. 0.008), all pairs
        0.0285 (s.e. 0.004). Power (share of worse models called worse, 1,000
        benchmarks): five equal best and five 0.006 behind: 0.593 -> 0.305;
        one best and nine 0.008 behind: 0.633 -> 0.302.
        """
        fwer, _ = _tied_fwer(2000, [0.0] * 10)
        assert fwer == pytest.approx(0.0285, abs=1e-12)
        se = np.sqrt(0.05 * 0.95 / 2000)
        assert fwer <= 0.05 + 2 * se
        old, _ = _tied_fwer(2000, [0.0] * 10, best_only=True)
        assert old == pytest.approx(0.147, abs=1e-12)
        for shifts, (err, pw) in [
            ([0.0] * 5 + [-0.006] * 5, (0.007, 0.3052)),
            ([0.0] + [-0.008] * 9, (0.0, 0.30244444444444446)),
        ]:
            got = _tied_fwer(1000, shifts)
            assert got[0] == pytest.approx(err, abs=1e-12)
            assert got[1] == pytest.approx(pw, abs=1e-12)


class TestPairwiseFamily:
    """The one all-pairs family of the new-data decisions."""

    def test_matches_scipy_and_statsmodels(self):
        from scipy.stats import t

        from skperf.stats._multiple import _pairwise_family

        rng = np.random.default_rng(0)
        scores = rng.normal(0.8, 0.02, (4, 30)) + np.array([[0], [0.01], [0.03], [0]])
        f = _pairwise_family(
            scores, test_train_ratio=1 / 9, confidence=0.95, correction="holm"
        )
        pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
        assert list(zip(f.a, f.b, strict=True)) == pairs
        p = []
        for i, j in pairs:
            d = scores[i] - scores[j]
            stat = d.mean() / np.sqrt((1 / 30 + 1 / 9) * d.var(ddof=1))
            p.append(2 * t.sf(abs(stat), 29))
        np.testing.assert_allclose(f.pvalue, p, rtol=1e-10)
        np.testing.assert_allclose(
            f.pvalue_adjusted, multipletests(p, method="holm")[1], rtol=1e-12
        )
        sig = f.pvalue_adjusted < 0.05
        expected = np.full(6, "no significant difference", dtype=object)
        expected[sig] = np.where(f.estimate[sig] > 0, "better", "worse")
        np.testing.assert_array_equal(f.decision, expected)
        # model 2 (the best) against the others; worse_than reads the family
        worse = f.worse_than(2, 4)
        for m in (0, 1, 3):
            k = f.pair(2, m)
            assert worse[m] == (f.decision[k] == ("worse" if m < 2 else "better"))

    def test_failed_fits_use_each_pairs_finite_splits(self):
        from skperf.stats._multiple import _pairwise_family

        rng = np.random.default_rng(1)
        scores = rng.normal(0.8, 0.02, (3, 20))
        scores[1, 3] = np.nan
        f = _pairwise_family(
            scores, test_train_ratio=0.25, confidence=0.95, correction=None
        )
        assert f.n.tolist() == [19, 20, 19]
        full = _pairwise_family(
            scores[[0, 2]], test_train_ratio=0.25, confidence=0.95, correction=None
        )
        assert f.pvalue[1] == pytest.approx(full.pvalue[0])

    def test_direction_of_losses(self):
        from skperf.stats._multiple import _pairwise_family

        losses = np.array([[0.1, 0.11, 0.12, 0.1, 0.09], [0.3, 0.31, 0.29, 0.3, 0.32]])
        f = _pairwise_family(
            losses,
            test_train_ratio=0.25,
            confidence=0.95,
            correction="holm",
            greater_is_better=False,
        )
        assert f.decision.tolist() == ["better"]  # the smaller loss is better

    @pytest.mark.parametrize("k", [3, 5])
    def test_fwer_under_the_corrected_t_model(self, k):
        """All k models equal, per-split scores with the dependence the corrected
        t assumes (corr n_test / (n_test + n_train) between splits): any pair
        called significant in <= 0.05 + 2 MC s.e. of 1200 seeded runs (Holm
        over all pairs; a "best vs others" family ignores that the best was
        picked from the same scores)."""
        from skperf.stats._multiple import _pairwise_family

        rng = np.random.default_rng(18)
        reps, J, ratio = 1200, 30, 1 / 9
        rho = ratio / (1 + ratio)
        shared = rng.normal(size=(reps, k, 1)) * np.sqrt(rho)
        scores = shared + rng.normal(size=(reps, k, J)) * np.sqrt(1 - rho)
        hits = 0
        for s in scores:  # a loop over Monte Carlo runs
            f = _pairwise_family(
                s, test_train_ratio=ratio, confidence=0.95, correction="holm"
            )
            hits += (f.decision != "no significant difference").any()
        se = np.sqrt(0.05 * 0.95 / reps)
        assert hits / reps <= 0.05 + 2 * se


def test_adjusted_intervals_agree_with_the_corrected_decisions():
    # 4 models, 30 splits: the per-pair 95 % interval of a pair can exclude 0
    # while Holm keeps it "not significant"; the adjusted one never does
    from scipy import stats

    from skperf.stats._multiple import _pairwise_family

    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(50):
        scores = 0.8 + rng.normal(0, 0.03, (4, 30)) + rng.normal(0, 0.01, (4, 1))
        f = _pairwise_family(
            scores, test_train_ratio=1 / 9, confidence=0.95, correction="holm"
        )
        significant = f.decision != "no significant difference"
        excludes = (f.low_adjusted > 0) | (f.high_adjusted < 0)
        np.testing.assert_array_equal(excludes, significant)
        checked += int(np.any(((f.low > 0) | (f.high < 0)) & ~significant))
        # symmetric about the estimate, at level 1 - 0.05 p / p_adj
        np.testing.assert_allclose(
            f.estimate - f.low_adjusted, f.high_adjusted - f.estimate
        )
        half = (f.high - f.low) / 2 / stats.t.ppf(0.975, 29)
        level = 0.05 * f.pvalue / f.pvalue_adjusted
        np.testing.assert_allclose(
            f.high_adjusted - f.estimate, half * stats.t.ppf(1 - level / 2, 29)
        )
    assert checked > 0  # the unadjusted interval did contradict on some
    # no correction: the per-pair interval itself
    f = _pairwise_family(
        scores, test_train_ratio=1 / 9, confidence=0.95, correction=None
    )
    np.testing.assert_allclose(f.low_adjusted, f.low)
    np.testing.assert_allclose(f.high_adjusted, f.high)
