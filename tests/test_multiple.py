import re

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from skperf._multiple import correct_pvalues


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
    from skperf._multiple import _worse_than_best

    # holm on [0.01, 0.03, 0.2, nan]: 0.04, 0.09 (step-down max), 0.4, nan
    p = [0.01, 0.03, 0.2, np.nan]
    est = [0.9, 0.8, 0.95, 0.99]
    adjusted, worse = _worse_than_best(p, est, confidence=0.95, correction="holm")
    np.testing.assert_allclose(adjusted[:3], [0.04, 0.09, 0.4])
    assert np.isnan(adjusted[3])
    # only the first is below 0.05 with P(best > model) > 0.5; NaN counts as tied
    np.testing.assert_array_equal(worse, [True, False, False, False])
    # a small p-value with P(best > model) <= 0.5 is not "worse"
    _, worse = _worse_than_best([0.001], [0.5], confidence=0.95, correction=None)
    assert not worse[0]
