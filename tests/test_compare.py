import re
import warnings

import numpy as np
import pytest
from scipy import stats

from skperf import Comparison, PerformanceDistribution
from skperf._compare import _pair_labels, _wilcoxon_pvalue, compare
from skperf.exceptions import DependentObservationsWarning, SmallSampleWarning
from skperf.stats import noether_sample_size, outperform_decision, prob_outperform_ci

SEEDS = {"split": np.arange(8), "init": np.arange(8) + 100}


def _dist(scores, **kw):
    return PerformanceDistribution(np.asarray(scores, dtype=float), **kw)


class TestHandComputed:
    def test_paired_counts(self):
        a = _dist(
            [0.81, 0.83, 0.80, 0.85, 0.90, 0.82, 0.84, 0.86], seeds=SEEDS, name="A"
        )
        b = _dist(
            [0.80, 0.84, 0.80, 0.82, 0.85, 0.81, 0.80, 0.83], seeds=SEEDS, name="B"
        )
        res = compare(a, b)
        # wins: 1, 0, 1/2, 1, 1, 1, 1, 1 -> 6.5 / 8
        assert isinstance(res, Comparison)
        assert res.paired
        assert res.method == "sign"
        assert res.test == "wilcoxon"
        assert res.estimate == pytest.approx(6.5 / 8)
        assert res.names == ("A", "B")
        assert (res.n_self, res.n_other) == (8, 8)
        assert res.noether_n == 35  # one-sided 0.025 of a 95 % interval
        assert res.n_boot is None
        assert res.note == (
            "n = 8 is below the Noether sample size 35 for gamma = 0.75 at "
            "confidence = 0.95: the comparison may lack power; borderline: p = "
            "0.0625 is within a factor of 2 of the level 0.05 (0.025 to 0.1), so "
            "a re-run with another random_state can flip the decision; more runs "
            "(repeats) settle it"
        )
        assert res.borderline is True
        # 6 wins, 1 tie, 1 loss: near bound from Clopper-Pearson of 6 / 7
        # rescaled by 7 / 8, far bound from 6.5 / 8 (ties split)
        ref_w = stats.binomtest(6, 7).proportion_ci(0.95, method="exact")
        ref_s = stats.beta.ppf([0.025, 0.975], [6.5, 7.5], [2.5, 1.5])
        near = 0.5 + 7 / 8 * (np.array([ref_w.low, ref_w.high]) - 0.5)
        assert res.low == pytest.approx(min(near[0], ref_s[0]), rel=1e-12)
        assert res.high == pytest.approx(max(near[1], ref_s[1]), rel=1e-12)
        assert res.decision == "no significant difference"  # sign p = 0.125
        boot = compare(a, b, method="bootstrap", n_boot=2000, random_state=0)
        r = prob_outperform_ci(
            a.scores,
            b.scores,
            paired=True,
            method="bootstrap",
            n_boot=2000,
            random_state=np.random.default_rng(0),
        )
        est, low, high = r.estimate, r.low, r.high
        assert (boot.estimate, boot.low, boot.high) == (est, low, high)
        assert boot.decision == outperform_decision(low, high)
        assert (boot.method, boot.n_boot) == ("bootstrap", 2000)

    def test_unpaired_counts(self):
        a, b = _dist([1.0, 3.0]), _dist([1.0, 2.0, 4.0])
        res = compare(a, b, random_state=0)
        # 1 vs (1, 2, 4): 1/2; 3 vs (1, 2, 4): 2 -> 2.5 / 6
        assert not res.paired
        assert res.test == "brunnermunzel"
        assert res.estimate == pytest.approx(2.5 / 6)
        assert res.names == ("self", "other")

    def test_losses_lower_is_better(self):
        a = _dist([0.10, 0.12, 0.11, 0.09], greater_is_better=False, metric="log_loss")
        b = _dist([0.20, 0.22, 0.21, 0.19], greater_is_better=False)
        res = compare(a, b, random_state=0)
        assert res.estimate == 1.0
        assert 0.5 < res.low < 1.0  # exact Mann-Whitney p = 2 / 70
        assert res.high == 1.0
        assert res.decision == "better"
        assert res.winner == "self"
        assert res.metric == "log_loss"
        # the difference of means keeps the metric's direction: a - b < 0
        assert res.mean_difference.estimate == pytest.approx(-0.1)
        assert compare(b, a, random_state=0).decision == "worse"

    def test_accepts_arrays(self):
        res = _dist([0.9, 0.8, 0.85]).compare([0.7, 0.75, 0.72])
        assert res.estimate == 1.0
        assert not res.paired
        with pytest.raises(TypeError, match="`a` must be a PerformanceDistribution"):
            compare([0.9, 0.8, 0.85], _dist([0.7, 0.75, 0.72]))


class TestPairing:
    def test_auto_pairs_identical_seeds(self):
        a = _dist(np.linspace(0, 1, 8), seeds=SEEDS)
        b = _dist(
            np.linspace(0, 1, 8)[::-1], seeds={k: v.copy() for k, v in SEEDS.items()}
        )
        assert compare(a, b, random_state=0).paired

    @pytest.mark.parametrize(
        "seeds_b",
        [None, {"split": np.arange(8)}, {"split": np.arange(8), "init": np.arange(8)}],
    )
    def test_auto_unpaired_otherwise(self, seeds_b):
        a = _dist(np.linspace(0, 1, 8), seeds=SEEDS)
        b = _dist(np.linspace(0, 1, 8), seeds=seeds_b)
        assert not compare(a, b, random_state=0).paired

    def test_auto_unpaired_without_seeds(self):
        assert not compare(_dist([1.0, 2.0]), _dist([2.0, 3.0]), random_state=0).paired

    def test_forced_pairing_without_seeds(self):
        res = compare(
            _dist([1.0, 3.0, 2.0]), _dist([0.0, 4.0, 1.0]), paired=True, random_state=0
        )
        assert res.paired
        assert res.estimate == pytest.approx(2 / 3)
        assert res.mean_difference.method == "paired-t"

    def test_forced_pairing_with_one_seeded(self):
        res = compare(
            _dist(np.arange(8.0), seeds=SEEDS),
            _dist(np.zeros(8)),
            paired=True,
            random_state=0,
        )
        assert res.paired

    def test_forced_unpaired(self):
        a = _dist(np.linspace(0, 1, 8), seeds=SEEDS)
        res = compare(
            a, _dist(np.linspace(0, 1, 8), seeds=SEEDS), paired=False, random_state=0
        )
        assert not res.paired
        assert res.mean_difference.method == "welch"

    def test_paired_unequal_lengths(self):
        msg = "paired=True needs the same number of scores; got n = 3 and n = 2."
        with pytest.raises(ValueError, match=re.escape(msg)):
            compare(_dist([1.0, 2.0, 3.0]), _dist([1.0, 2.0]), paired=True)

    def test_paired_mismatching_seeds(self):
        seeds_b = {"split": np.arange(8), "init": np.r_[np.arange(100, 105), 0, 1, 2]}
        a, b = _dist(np.arange(8.0), seeds=SEEDS), _dist(np.arange(8.0), seeds=seeds_b)
        msg = "seeds['init'] differ at 3 position(s), first at index 5"
        with pytest.raises(ValueError, match=re.escape(msg)):
            compare(a, b, paired=True)
        b = _dist(np.arange(8.0), seeds={"split": np.arange(8)})
        with pytest.raises(
            ValueError,
            match=re.escape("seed sources differ: ['init', 'split'] vs ['split']"),
        ):
            compare(a, b, paired=True)


class TestValidation:
    def test_different_metrics(self):
        msg = "Cannot compare different metrics: 'accuracy' and 'f1'."
        with pytest.raises(ValueError, match=re.escape(msg)):
            compare(
                _dist([0.1, 0.2], metric="accuracy"), _dist([0.1, 0.2], metric="f1")
            )

    def test_one_metric_missing_is_fine(self):
        res = compare(_dist([0.1, 0.2]), _dist([0.1, 0.2], metric="f1"), random_state=0)
        assert res.metric == "f1"

    def test_score_vs_loss(self):
        msg = "Cannot compare a score with a loss: greater_is_better is True for the first"
        with pytest.raises(ValueError, match=re.escape(msg)):
            compare(_dist([1.0, 2.0]), _dist([1.0, 2.0], greater_is_better=False))

    @pytest.mark.parametrize(
        ("kw", "err", "msg"),
        [
            ({"gamma": 0.5}, ValueError, "`gamma` must be in (0.5, 1); got 0.5."),
            ({"gamma": 1.0}, ValueError, "`gamma` must be in (0.5, 1); got 1.0."),
            (
                {"confidence": 1.5},
                ValueError,
                "`confidence` must be in (0, 1); got 1.5.",
            ),
            (
                {"paired": "yes"},
                ValueError,
                "`paired` must be 'auto', True or False; got 'yes'.",
            ),
            (
                {"paired": 1},
                TypeError,
                "`paired` must be 'auto', True or False; got 1.",
            ),
            (
                {"n_boot": -1},
                ValueError,
                "`n_boot` must be a positive int or 'auto'; got -1.",
            ),
        ],
    )
    def test_bad_arguments(self, kw, err, msg):
        with pytest.raises(err, match=re.escape(msg)):
            compare(_dist([1.0, 2.0]), _dist([1.0, 2.0]), **kw)

    def test_bad_scores(self):
        with pytest.raises(
            ValueError,
            match=re.escape("`other` must be a PerformanceDistribution or an array"),
        ):
            _dist([1.0, 2.0]).compare([1.0])
        with pytest.raises(
            TypeError,
            match=re.escape(
                "`b` must be a PerformanceDistribution (missing scores, seeds"
            ),
        ):
            compare(_dist([1.0, 2.0]), [1.0])

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
            _dist([1.0, 2.0, 3.0]).compare(
                _dist([2.0, 1.0, 0.0]), paired=paired, method=method
            )

    def test_exact_method_refuses_dependent_scores(self):
        a = _folds(np.arange(6.0), 2)
        b = _folds(np.arange(6.0)[::-1], 2)
        msg = (
            "method='sign' treats every score as independent, but self has 6 "
            "scores in 3 groups and other has 6 scores in 3 groups of dependent"
        )
        with pytest.raises(ValueError, match=re.escape(msg)):
            a.compare(b, method="sign")


class TestMeanDifferenceAndTest:
    def test_paired_t_and_wilcoxon_match_scipy(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        x, y = rng.normal(size=15), rng.normal(size=15)
        res = compare(_dist(x), _dist(y), paired=True, confidence=0.9, random_state=0)
        ref = stats.ttest_rel(x, y).confidence_interval(0.9)
        md = res.mean_difference
        assert md.method == "paired-t"
        assert md.confidence == 0.9
        assert md.n == 15
        assert md.estimate == pytest.approx(np.mean(x - y))
        assert (md.low, md.high) == pytest.approx((ref.low, ref.high), rel=1e-10)
        assert res.pvalue == pytest.approx(stats.wilcoxon(x - y).pvalue, rel=1e-12)
        assert res.statistic == stats.wilcoxon(x - y).statistic

    def test_statistic_is_scipys_for_every_test(self):
        # issue 27, item 3: statistic next to pvalue, as scipy.stats reports it
        rng = np.random.default_rng(4)
        x, y = rng.normal(0.5, 1, 20), rng.normal(size=25)
        res = compare(_dist(x), _dist(y), method="newcombe")
        assert res.test == "mannwhitneyu"
        assert res.statistic == stats.mannwhitneyu(x, y).statistic
        res = compare(_dist(x), _dist(y), method="brunner-munzel")
        assert res.test == "brunnermunzel"
        assert res.statistic == pytest.approx(stats.brunnermunzel(x, y).statistic)
        same = compare(_dist(x[:10]), _dist(x[:10]), paired=True)
        assert same.statistic == 0.0  # no difference at all
        # a loss: the statistic of the scores as given (not of their flip)
        loss = compare(
            PerformanceDistribution(x, greater_is_better=False),
            PerformanceDistribution(y, greater_is_better=False),
            method="brunner-munzel",
        )
        assert loss.statistic == pytest.approx(stats.brunnermunzel(x, y).statistic)

    @pytest.mark.parametrize(
        "n", [3, 8, pytest.param(12, marks=pytest.mark.slow), 13, 14, 50, 51]
    )
    @pytest.mark.parametrize("kind", ["untied", "ties", "zeros"])
    def test_wilcoxon_pvalue_matches_scipy(self, n, kind):
        # the cached exact null distribution reproduces scipy's p-value
        d = np.random.default_rng(n).normal(0.3, 1.0, size=n)
        if kind == "ties":
            d = np.round(d, 1)
        elif kind == "zeros":
            d[:2] = 0.0
        if n == 13 and kind != "untied":
            # scipy's permutation test takes seconds here; the same enumeration
            # as ours with the statistic recomputed by scipy for each pattern
            signs = 1 - 2 * ((np.arange(2**n)[:, None] >> np.arange(n)) & 1)
            null = stats.wilcoxon(signs * d, axis=-1, method="asymptotic").statistic
            obs = stats.wilcoxon(d, method="asymptotic").statistic  # min(r+, r-)
            ref = min(np.mean(null <= obs + 1e-9), 1.0)
        else:
            ref = stats.wilcoxon(d).pvalue
        assert _wilcoxon_pvalue(d) == pytest.approx(ref, rel=1e-12)

    def test_welch_and_mannwhitney_match_scipy(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        x, y = rng.normal(size=12), rng.normal(0.5, 2.0, size=20)
        res = compare(_dist(x), _dist(y), method="newcombe", random_state=0)
        ref = stats.ttest_ind(x, y, equal_var=False).confidence_interval(0.95)
        md = res.mean_difference
        assert md.method == "welch"
        assert (md.low, md.high) == pytest.approx((ref.low, ref.high), rel=1e-10)
        # no ties: the exact p-value (scipy's default is exact only up to n = 8)
        ref_p = stats.mannwhitneyu(x, y, method="exact").pvalue
        assert res.pvalue == pytest.approx(ref_p, rel=1e-12)
        xr, yr = np.round(x), np.round(y)  # ties: normal approximation
        res = compare(_dist(xr), _dist(yr), method="newcombe")
        assert res.pvalue == pytest.approx(stats.mannwhitneyu(xr, yr).pvalue)

    def test_all_zero_differences(self):
        x = _dist([0.8, 0.9, 0.85, 0.7], seeds={"split": np.arange(4)})
        y = _dist([0.8, 0.9, 0.85, 0.7], seeds={"split": np.arange(4)})
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            res = compare(x, y, random_state=0)
        assert res.paired
        assert res.pvalue == 1.0
        assert res.estimate == 0.5
        # four ties say little: ties split half/half, 2 of 4 (Clopper-Pearson)
        ref = stats.binomtest(2, 4).proportion_ci(0.95, method="exact")
        assert (res.low, res.high) == pytest.approx((ref.low, ref.high), rel=1e-12)
        assert res.decision == "no significant difference"
        md = res.mean_difference
        assert md.estimate == md.low == md.high == 0.0

    def test_all_equal_unpaired(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            res = compare(_dist([0.5, 0.5, 0.5]), _dist([0.5, 0.5]), random_state=0)
        assert res.pvalue == 1.0
        assert res.mean_difference.low == 0.0


class TestResult:
    def test_reproducible(self):
        rng = np.random.default_rng(0)
        a, b = _dist(rng.normal(size=20)), _dist(rng.normal(size=20))
        r1, r2 = compare(a, b, random_state=5), compare(a, b, random_state=5)
        assert (r1.low, r1.high) == (r2.low, r2.high)

    def test_no_note_at_noether_size(self):
        rng = np.random.default_rng(0)
        res = compare(_dist(rng.normal(size=35)), _dist(rng.normal(size=40)))
        # only the borderline note (p = 0.046, issue 29 item 18): no Noether note
        assert res.borderline is True
        assert res.note.startswith("borderline: p = 0.0")

    @pytest.mark.parametrize(
        ("confidence", "expected"), [(0.90, 29), (0.95, 35), (0.99, 48)]
    )
    def test_noether_follows_confidence(self, confidence, expected):
        # App. C.3 at the one-sided level (1 - confidence) / 2 of the decision,
        # power 0.95; the paper's 29 is the level 0.05 (a 90 % interval)
        res = _dist(np.arange(5.0)).compare(
            _dist(np.arange(5.0) + 0.5), confidence=confidence
        )
        assert res.noether_n == expected
        assert res.noether_n == noether_sample_size(
            0.75, confidence=confidence, power=0.95
        )

    def test_str_and_repr(self):
        a = _dist([0.9, 0.91, 0.92, 0.93, 0.94], name="svm")
        b = _dist([0.8, 0.81, 0.82, 0.83, 0.84], name="tree")
        res = compare(a, b, random_state=0)
        assert str(res) == (
            "svm is significantly and meaningfully better than tree (gamma = 0.75): "
            "P(svm > tree) = 1.000 [95% CI 0.617, 1.000] (brunner-munzel), unpaired, "
            "n = 5/5."
        )
        assert repr(res).startswith(
            "Comparison(estimate=1, low=0.6167, high=1, decision='better'"
        )
        d = res.to_dict()
        assert d["mean_difference"] == pytest.approx(0.1)
        assert d["mean_difference_method"] == "welch"
        assert d["method"] == "brunner-munzel"


def _simulate(p_true, n, n_runs, seed, paired=True, method="auto", confidence=0.95):
    """Decisions over ``n_runs`` simulated benchmarks (Bouthillier et al., Fig. 6).

    Paired: differences d ~ N(mu, 1) with P(d > 0) = p_true. Unpaired:
    a ~ N(mu, 1/2), b ~ N(0, 1/2) so that P(a > b) = p_true as well.
    """
    rng = np.random.default_rng(seed)
    mu = stats.norm.ppf(p_true)
    b = rng.normal(0.0, np.sqrt(0.5), size=(n_runs, n))
    a = (
        (b + rng.normal(mu, 1.0, size=(n_runs, n)))
        if paired
        else rng.normal(mu, np.sqrt(0.5), size=(n_runs, n))
    )
    r = prob_outperform_ci(
        a, b, paired=paired, method=method, confidence=confidence, random_state=seed + 1
    )
    low, high = r.low, r.high
    return outperform_decision(low, high, gamma=0.75)


class TestDecisionSimulation:
    """Error rates of the decision, in the spirit of Bouthillier et al., Fig. 6."""

    @pytest.mark.parametrize("paired", [True, False])
    @pytest.mark.parametrize(("n", "confidence"), [(5, 0.90), (10, 0.95), (29, 0.95)])
    def test_identical_distributions(self, paired, n, confidence):
        n_runs, alpha = 2000, 1 - confidence
        decisions = _simulate(
            0.5, n, n_runs, seed=n, paired=paired, confidence=confidence
        )
        rate = np.mean(decisions != "no significant difference")
        assert rate <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / n_runs)

    @pytest.mark.parametrize("paired", [True, False])
    def test_meaningful_difference_detected(self, paired):
        decisions = _simulate(0.85, 29, 400, seed=1, paired=paired)
        assert np.mean(decisions == "better") >= 0.9
        assert not np.any(np.char.startswith(decisions.astype(str), "worse"))

    def test_compare_agrees_with_batch(self):
        # compare() on single runs gives the batch core's decision
        rng = np.random.default_rng(3)
        for _ in range(5):
            seeds = {"split": np.arange(29)}
            b = rng.normal(size=29)
            a = b + rng.normal(0.5, 1.0, size=29)
            res = compare(_dist(a, seeds=seeds), _dist(b, seeds=seeds))
            r = prob_outperform_ci(a, b, paired=True, method="sign")
            low, high = r.low, r.high
            assert res.decision == outperform_decision(low, high)
            res = compare(_dist(a), _dist(b))
            r = prob_outperform_ci(a, b, paired=False, method="newcombe")
            low, high = r.low, r.high
            assert res.decision == outperform_decision(low, high)

    def test_paired_null_rate_is_binomial(self):
        # Paired, P(A > B) is a proportion of wins: with n = 29 pairs and no
        # ties the percentile interval excludes 0.5 exactly when A wins >= 20
        # or <= 9 pairs, so under H0 the false-positive rate is
        # 2 P(Bin(29, 1/2) >= 20) = 0.0614, a little above alpha = 0.05.
        k = np.arange(30)
        wins = (np.arange(29) < k[:, None]).astype(float) * 2 - 1  # +1 win, -1 loss
        r = prob_outperform_ci(
            wins,
            np.zeros(29),
            paired=True,
            method="bootstrap",
            n_boot=2000,
            random_state=0,
        )
        low, high = r.low, r.high
        significant = (low > 0.5) | (high < 0.5)
        np.testing.assert_array_equal(significant, (k >= 20) | (k <= 9))
        assert 2 * stats.binom.sf(19, 29, 0.5) == pytest.approx(0.0614, abs=1e-4)

    @pytest.mark.slow
    @pytest.mark.parametrize("paired", [True, False])
    def test_paper_sized(self, paired):
        n_runs, alpha = 2000, 0.05
        se = np.sqrt(alpha * (1 - alpha) / n_runs)
        for n in (5, 10, 15, 29, 50):
            null = _simulate(0.5, n, n_runs, seed=10 + n, paired=paired)
            assert np.mean(null != "no significant difference") <= alpha + 3 * se
        alt = _simulate(0.85, 29, n_runs, seed=11, paired=paired)
        assert np.mean(alt == "better") >= 0.9
        # between the hypotheses (P = 0.65) some runs are "better", none "worse"
        mid = _simulate(0.65, 29, n_runs, seed=12, paired=paired)
        assert 0.2 <= np.mean(mid == "better") <= 0.8
        assert np.mean(np.char.startswith(mid.astype(str), "worse")) <= 0.001


def _folds(scores, n_folds, **kw):
    """Scores of a K-fold RepeatedEvaluator: groups = repeats, fold in seeds."""
    n = len(scores)
    repeat = np.repeat(np.arange(n // n_folds), n_folds)
    seeds = {"split": repeat + 100, "fold": np.tile(np.arange(n_folds), n // n_folds)}
    return _dist(scores, groups=repeat, seeds=seeds, **kw)


class TestDependentFolds:
    """Folds of one repeat are dependent: resample whole repeats, and warn."""

    def test_paired_resamples_whole_repeats(self):
        rng = np.random.default_rng(0)
        a_scores, b_scores = rng.normal(size=12), rng.normal(size=12)
        a, b = _folds(a_scores, 3, name="A"), _folds(b_scores, 3, name="B")
        msg = (
            "A has 12 scores in 4 groups and B has 12 scores in 4 groups of "
            "dependent scores (e.g. the folds of one repeat): the bootstrap of "
            "P(A > B) resamples whole groups (4 of them); the p-value and the "
            "interval of the mean difference assume independent scores"
        )
        with pytest.warns(DependentObservationsWarning, match=re.escape(msg)):
            res = a.compare(b, n_boot=999, random_state=7)
        assert res.paired  # same seeds, fold included: fold k pairs with fold k
        wins = (a_scores > b_scores) + 0.5 * (a_scores == b_scores)
        assert res.estimate == pytest.approx(wins.mean())
        # reference: a loop over resamples of the 4 repeats
        idx = np.random.default_rng(7).integers(0, 4, size=(999, 4))
        per_repeat = wins.reshape(4, 3)
        boot = [per_repeat[i].mean() for i in idx]
        assert res.low == pytest.approx(np.quantile(boot, 0.025), abs=1e-12)
        assert res.high == pytest.approx(np.quantile(boot, 0.975), abs=1e-12)
        assert res.method == "cluster-bootstrap"
        assert res.note.startswith(
            "n = 4 groups is below the Noether sample size 35 for gamma = 0.75"
        )

    def test_unpaired_resamples_each_side_by_group(self):
        rng = np.random.default_rng(1)
        a_scores = rng.integers(0, 4, size=8).astype(float)  # ties
        b_scores = rng.integers(0, 4, size=9).astype(float)
        a, b = _folds(a_scores, 2), _folds(b_scores, 3)
        with pytest.warns(DependentObservationsWarning, match="whole groups"):
            res = compare(a, b, n_boot=999, random_state=3)
        assert not res.paired
        ga, gb = np.random.default_rng(3).spawn(2)
        ia, ib = ga.integers(0, 4, size=(999, 4)), gb.integers(0, 3, size=(999, 3))
        ra, rb = a_scores.reshape(4, 2), b_scores.reshape(3, 3)
        boot = [
            np.mean(
                (ra[i].ravel()[:, None] > rb[j].ravel())
                + 0.5 * (ra[i].ravel()[:, None] == rb[j].ravel())
            )
            for i, j in zip(ia, ib, strict=True)
        ]
        assert res.low == pytest.approx(np.quantile(boot, 0.025), abs=1e-12)
        assert res.high == pytest.approx(np.quantile(boot, 0.975), abs=1e-12)

    def test_single_group_falls_back_to_scores(self):
        # one K-fold run: one group, nothing to resample by group
        x, y = np.arange(5.0), np.arange(5.0)[::-1]
        seeds = {"fold": np.arange(5)}
        a = _dist(x, groups=np.zeros(5), seeds=seeds)
        b = _dist(y, groups=np.zeros(5), seeds=seeds)
        with pytest.warns(
            DependentObservationsWarning,
            match=re.escape("cannot be resampled by group, so its single scores"),
        ):
            res = compare(a, b, random_state=0)
        ref = compare(
            _dist(x), _dist(y), paired=True, method="bootstrap", random_state=0
        )
        assert (res.estimate, res.low, res.high) == (ref.estimate, ref.low, ref.high)

    def test_pairs_join_groups_of_either_side(self):
        la = np.array([0, 0, 1, 1, 2, 2])
        lb = np.array([0, 1, 1, 2, 3, 3])
        # pairs 0-1 share a's group 0, 1-2 share b's group 1, ...: {0..3}, {4, 5}
        np.testing.assert_array_equal(_pair_labels(la, lb), [0, 0, 0, 0, 1, 1])
        np.testing.assert_array_equal(_pair_labels(la, None), la)

    def test_null_error_rate_with_correlated_folds(self):
        # 10 repeats of 3 folds; the repeat moves the difference of all its
        # folds together. Resampling single folds calls ~20 % of identical
        # models "significant"; resampling repeats stays near alpha.
        rng = np.random.default_rng(0)
        n_runs = 400
        groups = np.repeat(np.arange(10), 3)
        seeds = {"split": groups, "fold": np.tile(np.arange(3), 10)}
        b = rng.normal(size=(n_runs, 30))
        a = b + np.repeat(rng.normal(size=(n_runs, 10)), 3, axis=1)
        a += rng.normal(0.0, 0.2, size=(n_runs, 30))
        r = prob_outperform_ci(
            a, b, paired=True, method="bootstrap", n_boot=999, random_state=1
        )
        lo, hi = r.low, r.high
        naive = np.mean((lo > 0.5) | (hi < 0.5))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DependentObservationsWarning)
            grouped = np.mean(
                [
                    _dist(a[r], groups=groups, seeds=seeds)
                    .compare(
                        _dist(b[r], groups=groups, seeds=seeds),
                        n_boot=999,
                        random_state=r,
                    )
                    .significant
                    for r in range(n_runs)
                ]
            )
        assert naive == pytest.approx(0.1975, abs=1e-12)  # 4 times alpha
        assert grouped == pytest.approx(0.0425, abs=1e-12)
        assert grouped <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / n_runs)  # 0.083

    def test_small_n_boot_warns_once(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _dist(np.arange(10.0)).compare(
                _dist(np.arange(10.0) + 0.5), method="bootstrap", n_boot=100
            )
        assert [w.category for w in caught] == [SmallSampleWarning]
        assert caught[0].filename == __file__


class TestSmallSamples:
    """Skperf issue 12, item 1: compare() at small n."""

    def test_issue_example_is_not_significant(self):
        a, b = _dist([0.8, 0.85, 0.9]), _dist([0.7, 0.75, 0.8])
        res = a.compare(b)
        assert res.method == "brunner-munzel"
        assert res.decision == "no significant difference"
        assert res.pvalue == pytest.approx(0.1212, abs=1e-4)  # Mann-Whitney
        assert res.low < 0.5 < res.high
        assert "no difference can be significant with n = 3 scores per model" in (
            res.note
        )
        # the percentile bootstrap calls it "better" against its own p-value;
        # the note says so
        boot = a.compare(b, method="bootstrap", random_state=0)
        assert boot.decision == "better"
        assert boot.low > 0.5
        assert "the percentile-bootstrap interval excludes 0.5 but the " in boot.note
        assert "Mann-Whitney test does not reject (p = 0.121 >= 0.05)" in boot.note

    @pytest.mark.parametrize("n", [6, 10, 29])
    def test_clean_sweep_interval_has_width(self, n):
        seeds = {"split": np.arange(n)}
        res = _dist(np.arange(n) + 1.0, seeds=seeds).compare(
            _dist(np.arange(float(n)), seeds=seeds)
        )
        assert res.estimate == res.high == 1.0
        assert res.low == pytest.approx(0.025 ** (1 / n), rel=1e-12)
        assert res.decision == "better"
        # the bootstrap's [1, 1]
        boot = _dist(np.arange(n) + 1.0, seeds=seeds).compare(
            _dist(np.arange(float(n)), seeds=seeds), method="bootstrap", random_state=0
        )
        assert boot.low == 1.0

    def test_five_pairs_cannot_be_significant(self):
        seeds = {"split": np.arange(5)}
        res = _dist(np.arange(5) + 1.0, seeds=seeds).compare(
            _dist(np.arange(5.0), seeds=seeds)
        )
        assert res.decision == "no significant difference"
        assert res.note.startswith(
            "no difference can be significant with n = 5 pairs at confidence = 0.95 "
            "(at least 6 needed)"
        )

    @pytest.mark.parametrize("paired", [True, False])
    @pytest.mark.parametrize("method", ["auto", "bootstrap"])
    def test_significant_never_contradicts_p_value(self, paired, method):
        rng = np.random.default_rng(7)
        n_sig = n_note = 0
        for r in range(150):
            n = int(rng.integers(4, 30))
            b = np.round(rng.normal(0.8, 0.02, size=n), 2)  # ties
            a = np.round(b + rng.normal(0.01, 0.02, size=n), 2)
            if not paired:
                b = np.round(rng.normal(0.8, 0.02, size=n), 2)
            res = _dist(a).compare(
                _dist(b), paired=paired, method=method, random_state=r
            )
            if res.significant:
                n_sig += 1
                if not res.pvalue < 0.05:
                    n_note += 1
                    assert method == "bootstrap"
                    assert "does not reject" in res.note
        assert n_sig >= (20 if (method, paired) == ("auto", False) else 30)
        if method == "bootstrap":
            assert n_note >= 1  # the bootstrap does contradict its test

    def test_sign_interval_joined_with_wilcoxon(self):
        # 9 small wins and one large loss: the sign test rejects (p = 0.021),
        # Wilcoxon's signed-rank test does not (p = 0.084)
        d = np.r_[np.linspace(0.001, 0.009, 9), -1.0]
        seeds = {"split": np.arange(10)}
        res = _dist(d, seeds=seeds).compare(_dist(np.zeros(10), seeds=seeds))
        assert stats.binomtest(9, 10).pvalue == pytest.approx(0.0215, abs=1e-4)
        assert res.pvalue == pytest.approx(stats.wilcoxon(d).pvalue, rel=1e-12)
        assert res.pvalue == pytest.approx(0.0840, abs=1e-4)
        assert res.decision == "no significant difference"
        assert res.low == 0.5
        assert "the sign interval excludes 0.5 but the Wilcoxon test does not" in (
            res.note
        )


class TestSplitIdSeeds:
    """A per-observation split fingerprint in ``seeds`` refuses pairing."""

    def _pair(self, same):
        split_id = np.array([11, 12, 13, 14, 15, 16])
        other_id = split_id if same else np.array([11, 12, 99, 14, 15, 16])
        a = _dist(np.arange(6.0), seeds={"split": np.arange(6), "split_id": split_id})
        b = _dist(
            np.arange(6.0) - 0.5,
            seeds={"split": np.arange(6), "split_id": other_id.copy()},
        )
        return a, b

    def test_equal_split_ids_pair(self):
        a, b = self._pair(same=True)
        assert a.compare(b).paired

    def test_differing_split_ids_do_not_pair(self):
        a, b = self._pair(same=False)
        assert not a.compare(b).paired
        msg = "seeds['split_id'] differ at 1 position(s), first at index 2"
        with pytest.raises(ValueError, match=re.escape(msg)):
            a.compare(b, paired=True)


class TestLayering:
    def test_compare_does_not_import_distribution(self):
        # imports run downward: _distribution -> _compare -> stats
        import ast
        import inspect

        import skperf._compare as module

        tree = ast.parse(inspect.getsource(module))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        }
        imported |= {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        assert not any("_distribution" in name for name in imported), imported
        assert not any(name.startswith("report") for name in imported)

    def test_duck_typed_distributions(self):
        from types import SimpleNamespace

        def ns(scores):
            return SimpleNamespace(
                scores=np.asarray(scores),
                seeds=None,
                groups=None,
                metric=None,
                greater_is_better=True,
                name=None,
                n=len(scores),
            )

        res = compare(ns([1.0, 2.0, 3.0, 4.0]), ns([0.0, 0.5, 1.5, 2.5]))
        assert res.estimate == pytest.approx(13 / 16)
        assert res.method == "brunner-munzel"

        # duck-typed scores are validated like PerformanceDistribution's: a NaN
        # used to give decision "better" with a NaN mean difference
        good = ns([0.0, 0.5, 1.5, 2.5])
        with pytest.raises(ValueError, match=r"`a.scores` must be finite; found 1 NaN"):
            compare(ns([1.0, np.nan, 3.0, 4.0]), good)
        with pytest.raises(ValueError, match=r"`b.scores` must be finite.*1 infinite"):
            compare(good, ns([1.0, np.inf, 3.0, 4.0]), paired=False)
        with pytest.raises(ValueError, match=r"`a.scores` must have at least 2.*got 1"):
            compare(ns([1.0]), ns([0.0]))
        with pytest.raises(ValueError, match=r"`a.scores` must have at least 2.*got 0"):
            compare(ns([]), good)
        with pytest.raises(ValueError, match=r"`a.scores` must be 1-D"):
            compare(ns(np.ones((4, 2))), good)


@pytest.mark.parametrize("paired", [True, False])
def test_sides_mirror(paired):
    # compare(b, a) is compare(a, b) seen from the other side, with ties
    rng = np.random.default_rng(11)
    seeds = {"split": np.arange(12)}
    a = _dist(np.round(rng.normal(0.8, 0.02, 12), 2), seeds=seeds)
    b = _dist(np.round(rng.normal(0.79, 0.02, 12), 2), seeds=seeds)
    ab = a.compare(b, paired=paired)
    ba = b.compare(a, paired=paired)
    assert ab.method == ba.method == ("sign" if paired else "brunner-munzel")
    assert ba.estimate == pytest.approx(1 - ab.estimate, abs=1e-12)
    assert (ba.low, ba.high) == pytest.approx((1 - ab.high, 1 - ab.low), abs=1e-9)
    assert ba.pvalue == pytest.approx(ab.pvalue, rel=1e-12)


def test_note_when_mean_difference_disagrees():
    # issue 18.10: "better" by P(A > B) while the mean difference lies below 0
    base = np.random.default_rng(0).normal(0.8, 0.01, 60)
    d = np.r_[np.full(50, 0.01), np.full(10, -0.2)]  # A wins 50 of 60 by little
    seeds = {"s": np.arange(60)}
    a = _dist(base + d, seeds=seeds, name="A")
    b = _dist(base, seeds=seeds, name="B")
    res = compare(a, b)
    md = res.mean_difference
    assert res.decision == "better"
    assert res.estimate == pytest.approx(50 / 60)
    assert md.estimate == pytest.approx(-0.025)
    assert md.high < 0  # the whole interval favours B
    assert "A beats B in most runs (P(A > B) = 0.833)" in res.note
    assert "favours B: the two answer different questions" in res.note
    # the mirror comparison says the same from B's side
    assert "favours B" in compare(b, a).note
    # losses: lower is better, the same story with the signs flipped
    la = _dist(-(base + d), seeds=seeds, name="A", greater_is_better=False)
    lb = _dist(-base, seeds=seeds, name="B", greater_is_better=False)
    assert "favours B" in compare(la, lb).note
    # when both agree there is no such note
    agree = compare(_dist(base + 0.01, seeds=seeds, name="A"), b)
    assert "different questions" not in agree.note


class TestBorderline:
    """Issue 29, item 18: a p-value within a factor of 2 of the level says so."""

    @staticmethod
    def _pair(shift):
        rng = np.random.default_rng(0)
        base = rng.normal(0.9, 0.02, 30)
        na, nb = rng.normal(0, 0.01, 30), rng.normal(0, 0.01, 30)
        seeds = {"split": np.arange(30)}
        a = PerformanceDistribution(base + shift + na, name="A", seeds=seeds)
        b = PerformanceDistribution(base + nb, name="B", seeds=seeds)
        return a, b

    @pytest.mark.parametrize(
        ("shift", "p", "decision", "borderline"),
        [
            (0.003, 0.11417667, "no significant difference", False),
            (0.004, 0.06355649, "no significant difference", True),
            (0.005, 0.02622899, "no significant difference", True),
            (0.006, 0.00993151, "better", False),
        ],
    )
    def test_flag_and_note(self, shift, p, decision, borderline):
        res = compare(*self._pair(shift))
        assert res.pvalue == pytest.approx(p, abs=1e-8)
        assert res.decision == decision
        assert res.borderline is borderline
        assert res.to_dict()["borderline"] is borderline
        text = (
            f"borderline: p = {p:.3g} is within a factor of 2 of the level 0.05 "
            "(0.025 to 0.1), so a re-run with another random_state can flip the "
            "decision; more runs (repeats) settle it"
        )
        assert (text in res.note) is borderline

    def test_boundaries_and_mirror(self):
        from skperf.stats._results import _is_borderline

        got = _is_borderline([0.0249, 0.025, 0.05, 0.0999, 0.1, np.nan], 0.05)
        assert got.tolist() == [False, True, True, True, False, False]
        assert _is_borderline(0.01, 0.01) is True  # 0.005 <= p < 0.02 at 99 %
        res = compare(*self._pair(0.004))
        import dataclasses

        mirrored = dataclasses.replace(res, names=res.names[::-1])
        assert mirrored.borderline is True
        assert mirrored.note.count("borderline:") == 1
