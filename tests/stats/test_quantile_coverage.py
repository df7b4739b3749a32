"""Monte-Carlo coverage of quantile CIs, design of Lehmann & Paromau, Sec. 4.2.

Distributions: left-skewed Beta(5, 1.5), Normal(0.5, 0.15) (99.9 % of its
mass in [0, 1]) and a bimodal mixture 0.5 N(0.4, 0.06) + 0.5 N(0.7, 0.06)
(the paper gives its parameters only in a figure). n = 10, 15, 25, 50;
q = 0.05, ..., 0.95; confidence 0.90 and 0.95. Each cell is one vectorized
call: the runs are the batch axis.

Default run: 1000 runs per cell (300 with 400 resamples for the bootstrap).
``-m slow``: 2000 runs and 2000 resamples, as in the paper.

Assertions
----------
- exact: coverage >= its binomial guarantee - 3 Monte-Carlo s.e.;
- asymptotic (bounds at the real positions k, l of eq. 11): >= nominal -
  0.015 - 3 Monte-Carlo s.e. wherever Table 2 allows it, its edge included;
  the former bounds at levels k/n covered 0.85 at n = 25, q = 0.9, 90 %
  and fail this;
- auto: the same bound wherever an exact or asymptotic interval exists;
- Hutson bootstrap, where no exact interval exists: inside the measured
  range shipped in skperf/stats/_fallback_coverage.py (which the fallback
  warning quotes) give or take 3 s.e. + 0.02 (fewer resamples here); for
  central levels where an exact interval exists, >= nominal - 0.05.
"""

import warnings

import numpy as np
import pytest
from scipy import optimize, stats

from skperf.exceptions import SmallSampleWarning
from skperf.stats import min_sample_size, quantile_ci
from skperf.stats._fallback_coverage import COVERAGE

LEVELS = np.array([0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95])
SIZES = (10, 15, 25, 50)
CONFIDENCES = (0.90, 0.95)


class _Mixture:
    def __init__(self, w, m1, s1, m2, s2):
        self.w, self.a, self.b = w, stats.norm(m1, s1), stats.norm(m2, s2)
        self.true = np.array(
            [
                optimize.brentq(lambda t, v=v: self.cdf(t) - v, -5, 5, xtol=1e-14)
                for v in LEVELS
            ]
        )

    def cdf(self, x):
        return self.w * self.a.cdf(x) + (1 - self.w) * self.b.cdf(x)

    def ppf(self, q):
        assert np.array_equal(q, LEVELS)
        return self.true

    def rvs(self, size, random_state):
        first = random_state.random(size) < self.w
        a = self.a.rvs(size, random_state=random_state)
        b = self.b.rvs(size, random_state=random_state)
        return np.where(first, a, b)


DISTRIBUTIONS = {
    "beta": stats.beta(5, 1.5),
    "normal": stats.norm(0.5, 0.15),
    "mixture": _Mixture(0.5, 0.4, 0.06, 0.7, 0.06),
}


def _coverage(dist, x, confidence, method, n_boot=2000, rng=None):
    """Per-level coverage (NaN where the method is invalid) and the CI."""
    n = x.shape[-1]
    true = dist.ppf(LEVELS)
    cov = np.full(LEVELS.shape, np.nan)
    if method in ("exact", "asymptotic"):
        valid = (
            np.atleast_1d(
                min_sample_size(
                    LEVELS, confidence=confidence, method=method, sign_transform=True
                )
            )
            <= n
        )
    else:
        valid = np.ones(LEVELS.shape, dtype=bool)
    ci = None
    if valid.any():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SmallSampleWarning)
            ci = quantile_ci(
                x,
                LEVELS[valid],
                confidence=confidence,
                method=method,
                n_boot=n_boot,
                random_state=rng,
            )
        cov[valid] = ((ci.low <= true[valid]) & (true[valid] <= ci.high)).mean(axis=0)
    return cov, valid, ci


def _check_cell(dname, n, confidence, runs, boot_runs, n_boot, strict):
    dist = DISTRIBUTIONS[dname]
    seed = [
        SIZES.index(n),
        CONFIDENCES.index(confidence),
        list(DISTRIBUTIONS).index(dname),
    ]
    rng = np.random.default_rng(seed)
    x = dist.rvs(size=(runs, n), random_state=rng)
    # 0.015 below nominal (the true coverage at Table 2's edge is about
    # 0.89 at 90 %, measured with 20,000 runs) plus 3 Monte-Carlo s.e.: a
    # cell of 2000 runs at n = 15, q = 0.25 drew 0.8705 where 20,000 give
    # 0.892. The former k/n bounds (0.85 at n = 25, q = 0.9) still fail.
    se_nominal = np.sqrt(confidence * (1 - confidence) / runs)
    margin = 0.015 + 3 * se_nominal

    exact, valid_e, ci = _coverage(dist, x, confidence, "exact")
    if valid_e.any():
        g = np.full(LEVELS.shape, np.nan)
        g[valid_e] = ci.coverage
        se = np.sqrt(g * (1 - g) / runs)
        ok = exact[valid_e] >= (g - 3 * se)[valid_e]
        assert ok.all(), (exact, g)

    asym, valid_a, _ = _coverage(dist, x, confidence, "asymptotic")
    assert (asym[valid_a] >= confidence - margin).all(), asym

    auto, _, ci_auto = _coverage(
        dist, x, confidence, "auto", n_boot=400, rng=np.random.default_rng(1)
    )
    has_ci = valid_e | valid_a
    assert (auto[has_ci] >= confidence - margin).all(), (auto, ci_auto.method)

    boot, _, _ = _coverage(
        dist,
        x[:boot_runs],
        confidence,
        "bootstrap",
        n_boot=n_boot,
        rng=np.random.default_rng(2),
    )
    se_boot = np.sqrt(confidence * (1 - confidence) / boot_runs)
    fallback = ~valid_e
    for i in np.flatnonzero(fallback):
        p = round(min(LEVELS[i], 1 - LEVELS[i]), 10)
        lo, hi = COVERAGE[(confidence, n, p)]
        slack = 0.02 + 3 * np.sqrt(lo * (1 - lo) / boot_runs)
        assert lo - slack <= boot[i] <= hi + slack, (LEVELS[i], boot[i], lo, hi)
    central = (LEVELS >= 0.25) & (LEVELS <= 0.75) & valid_e
    assert (boot[central] >= confidence - 0.05 - 2 * se_boot).all(), boot
    return {"exact": exact, "asymptotic": asym, "auto": auto, "bootstrap": boot}


@pytest.mark.parametrize("confidence", CONFIDENCES)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dname", list(DISTRIBUTIONS))
def test_coverage_small(dname, n, confidence):
    res = _check_cell(
        dname, n, confidence, runs=1000, boot_runs=300, n_boot=400, strict=False
    )
    if n == 10:
        # Hutson's bootstrap undercovers the tail quantiles at n = 10 (paper:
        # "down to around 0.85"; here lower for the 5 % and 95 % quantiles)
        assert res["bootstrap"][[0, -1]].max() < confidence - 0.03


@pytest.mark.slow
@pytest.mark.parametrize("confidence", CONFIDENCES)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dname", list(DISTRIBUTIONS))
def test_coverage_paper_sized(dname, n, confidence):
    _check_cell(
        dname, n, confidence, runs=2000, boot_runs=2000, n_boot=2000, strict=True
    )


def test_asymptotic_holds_at_table_2_edge():
    # n = 25, q = 0.9, 90 % is the first valid n in Table 2; at the real
    # positions k, l the interval covers about 0.89-0.90 there (the former
    # bounds at levels k/n covered 0.85), so auto uses it
    rng = np.random.default_rng(0)
    x = rng.random((4000, 25))
    asym = quantile_ci(x, 0.9, confidence=0.9, method="asymptotic")
    cov = ((asym.low <= 0.9) & (0.9 <= asym.high)).mean()
    assert 0.88 <= cov <= 0.92
    auto = quantile_ci(x, 0.9, confidence=0.9, method="auto")
    assert auto.method == "asymptotic"
    np.testing.assert_array_equal(auto.low, asym.low)


def test_bootstrap_fallback_far_below_nominal_in_the_tails():
    # where nothing but the bootstrap exists, the tails undercover: the
    # shipped table says so, and a fresh simulation agrees (lognormal,
    # n = 10, q = 0.95, 95 %: a cell of the table, range 0.76-0.87)
    lo, hi = COVERAGE[(0.95, 10, 0.05)]
    assert hi < 0.9
    dist = stats.lognorm(1.0)
    x = dist.rvs(size=(1000, 10), random_state=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        ci = quantile_ci(x, 0.95, method="bootstrap", n_boot=1000, random_state=2)
    true = dist.ppf(0.95)
    cov = ((ci.low <= true) & (true <= ci.high)).mean()
    assert lo - 0.04 <= cov <= hi + 0.04, (cov, lo, hi)
