"""Quantile band (exact Kolmogorov-Smirnov, DKW): one statement for all levels.

Checked against scipy's exact KS distribution (``kstwo``) and ``kstest``,
and by fixed-seed Monte-Carlo joint coverage of the whole quantile function
(on a fine grid of levels) at n = 20, 50, 200 for a continuous, a skewed
and an accuracy-like discrete distribution.
"""

import re

import numpy as np
import pytest
from scipy import stats

from skperf import PerformanceDistribution, QuantileBand
from skperf.stats import quantile_band, quantile_ci
from skperf.stats._band import _band_at, _epsilon

DISTRIBUTIONS = {
    "normal": stats.norm(0.9, 0.02),
    "beta": stats.beta(5, 1.5),
    # accuracy on a test set of 200: discrete, ties everywhere
    "accuracy": None,
}
GRID = np.r_[np.arange(1, 2000) / 2000, 1e-4, 1 - 1e-4]


def _draw(name, size, rng):
    if name == "accuracy":
        return rng.binomial(200, 0.9, size=size) / 200
    return DISTRIBUTIONS[name].rvs(size=size, random_state=rng)


def _true_quantile(name, u):
    if name == "accuracy":
        return stats.binom.ppf(u, 200, 0.9) / 200
    return DISTRIBUTIONS[name].ppf(u)


@pytest.mark.parametrize("n", [2, 10, 50, 1000])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_epsilon_is_exact_ks_quantile(n, confidence):
    eps = _epsilon(n, confidence, "ks")
    assert stats.kstwo.cdf(eps, n) >= confidence
    assert stats.kstwo.cdf(eps - 1e-6, n) < confidence
    dkw = _epsilon(n, confidence, "dkw")
    assert dkw == pytest.approx(np.sqrt(np.log(2 / (1 - confidence)) / (2 * n)))
    assert dkw >= eps - 1e-12  # DKW-Massart is conservative


def test_band_inside_iff_ks_statistic():
    # for a continuous F, F inside F_n -+ eps everywhere iff D_n <= eps; the
    # quantile band then covers Q at every level of a fine grid
    rng = np.random.default_rng(0)
    agree = 0
    for _ in range(200):
        x = rng.normal(size=30)
        band = quantile_band(x, q=GRID)
        d = stats.kstest(x, "norm").statistic
        truth = stats.norm.ppf(GRID)
        covers = np.all((band.low <= truth) & (truth <= band.high))
        if d <= band.epsilon:
            assert covers
        agree += covers == (d <= band.epsilon)
    assert agree >= 195  # a grid can miss a violation between its levels


@pytest.mark.parametrize("n", [20, 50, 200])
@pytest.mark.parametrize("name", list(DISTRIBUTIONS))
@pytest.mark.parametrize("method", ["ks", "dkw"])
def test_joint_coverage(n, name, method):
    confidence, reps = 0.95, 2000
    rng = np.random.default_rng(n + len(name))
    xs = np.sort(_draw(name, (reps, n), rng), axis=-1)
    eps = _epsilon(n, confidence, method)
    low, high = _band_at(xs, GRID, eps)
    truth = _true_quantile(name, GRID)
    covered = np.all((low <= truth) & (truth <= high), axis=-1).mean()
    se = np.sqrt(confidence * (1 - confidence) / reps)
    assert covered >= confidence - 3 * se, covered
    if name == "normal" and method == "ks":
        assert covered <= confidence + 3 * se  # exact for continuous scores


def test_at_and_fields():
    x = np.random.default_rng(0).normal(size=100)
    band = quantile_band(x, q=[0.05, 0.25, 0.5, 0.75, 0.95])
    assert isinstance(band, QuantileBand)
    assert (band.n, band.method, band.confidence) == (100, "ks", 0.95)
    low, high = band.at([0.05, 0.25, 0.5, 0.75, 0.95])
    np.testing.assert_array_equal(low, band.low)
    np.testing.assert_array_equal(high, band.high)
    assert np.isneginf(band.low[0])  # u <= eps
    assert np.isposinf(band.high[-1])
    xs = np.sort(x)
    # Q(0.5) >= X_(ceil(n (0.5 - eps))), <= X_(ceil(n (0.5 + eps)))
    assert band.at(0.5) == (
        xs[int(np.ceil(100 * (0.5 - band.epsilon))) - 1],
        xs[int(np.ceil(100 * (0.5 + band.epsilon))) - 1],
    )
    lo, hi = band.at(0.5)
    assert isinstance(lo, float)
    assert isinstance(hi, float)
    assert list(band.to_frame().columns) == ["q", "low", "high"]
    assert "sorted_scores" not in band.to_dict()
    assert "QuantileBand(confidence=0.95" in repr(band)


def test_band_wider_than_pointwise():
    # simultaneous for all levels costs width: at the median the band is
    # longer than the pointwise exact interval
    x = np.random.default_rng(1).normal(size=200)
    lo, hi = quantile_band(x).at(0.5)
    ci = quantile_ci(x, 0.5, method="exact")
    assert lo <= ci.low
    assert hi >= ci.high
    assert (hi - lo) / ci.length > 1.5


def test_distribution_method_and_plot():
    import matplotlib.pyplot as plt

    d = PerformanceDistribution(np.random.default_rng(0).normal(0.9, 0.02, 50))
    band = d.quantile_band(confidence=0.9, method="dkw")
    assert band.method == "dkw"
    assert band.confidence == 0.9
    ax = band.plot()
    assert len(ax.collections) == 1
    ax = band.plot(orientation="quantile")
    assert ax.get_xlabel() == "level u"
    from matplotlib.collections import PolyCollection

    ax = d.plot(band=True)
    fills = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(fills) == 1  # the band under the ECDF
    assert any("band" in t.get_text() for t in ax.get_legend().get_texts())
    plt.close("all")


@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"confidence": 95}, "Did you mean 0.95?"),
        ({"method": "owen"}, "`method` must be one of ['auto', 'dkw', 'ks']"),
        ({"q": [0.5, 1.0]}, "`q` must be in (0, 1)"),
        ({"q": [np.nan]}, "`q` must be in (0, 1)"),
    ],
)
def test_bad_input(kwargs, msg):
    with pytest.raises(ValueError, match=re.escape(msg)):
        quantile_band(np.arange(10.0), **kwargs)


@pytest.mark.parametrize(
    ("x", "msg"),
    [
        ([0.9, np.nan, 0.8], "`x` must be finite; found 1 NaN"),
        ([0.9, -np.inf, 0.8], "`x` must be finite; found 0 NaN and 1 infinite"),
        ([0.9], "`x` must have at least 2 values; got 1"),
        (np.ones((3, 3)), "`x` must be 1-D; got shape (3, 3)"),
    ],
)
def test_bad_scores(x, msg):
    with pytest.raises(ValueError, match=re.escape(msg)):
        quantile_band(x)
