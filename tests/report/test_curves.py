"""ROC / precision-recall curves across repeats: checked on their data."""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import auc, average_precision_score, roc_auc_score
from sklearn.naive_bayes import GaussianNB

from skperf import RepeatedEvaluator
from skperf.report import curve_band, pr_curves, roc_curves


@pytest.fixture(scope="module")
def ev():
    X, y = load_breast_cancer(return_X_y=True)
    X = X[:, :4]  # a weaker model: curves with room to vary
    return RepeatedEvaluator(
        GaussianNB(),
        cv=3,
        n_repeats=12,
        random_state=0,
        refit=False,
        return_predictions=True,
    ).fit(X, y)


def _pooled(ev, r):
    p = ev.predictions_[ev.predictions_["repeat"] == r]
    idx = np.concatenate(list(p["test_index"]))
    score = np.concatenate([s[:, 1] for s in p["y_score"]])
    return ev._pred_meta["y"][idx], score


def test_roc_area_per_repeat_and_quantile_band(ev):
    cb = roc_curves(ev, grid=1001)
    assert cb.n == 12
    assert cb.curves.shape == (12, 1001)
    for r in range(12):
        y, s = _pooled(ev, r)
        assert cb.area[r] == roc_auc_score(y, s)
        # the interpolated curve integrates to the same AUC
        assert auc(cb.grid, cb.curves[r]) == pytest.approx(cb.area[r], abs=2e-3)
    assert np.ptp(cb.area) > 0.002  # the repeats do differ
    # the band is exactly the pointwise 10 % / 90 % quantiles of the curves
    np.testing.assert_array_equal(cb.low, np.quantile(cb.curves, 0.1, axis=0))
    np.testing.assert_array_equal(cb.high, np.quantile(cb.curves, 0.9, axis=0))
    np.testing.assert_array_equal(cb.center, np.median(cb.curves, axis=0))
    inside = (cb.curves >= cb.low) & (cb.curves <= cb.high)
    # at every point at least n - 2 * ceil(0.1 * (n - 1)) = 8 of the 12 curves
    assert inside.sum(axis=0).min() == 8
    assert inside.mean() > 0.9
    # curves are ROC curves: monotone from (0, .) to (1, 1)
    assert (np.diff(cb.curves, axis=1) >= 0).all()
    assert np.allclose(cb.curves[:, -1], 1.0)


def test_t_band(ev):
    cb = roc_curves(ev, band="t", level=0.9, grid=51)
    mean = cb.curves.mean(axis=0)
    half = stats.t.ppf(0.95, 11) * cb.curves.std(axis=0, ddof=1) * np.sqrt(1 + 1 / 12)
    np.testing.assert_allclose(cb.center, mean)
    np.testing.assert_allclose(cb.low, np.clip(mean - half, 0, 1))
    np.testing.assert_allclose(cb.high, np.clip(mean + half, 0, 1))
    assert (cb.low <= cb.center).all()
    assert (cb.center <= cb.high).all()
    assert (cb.high - cb.low).max() > 0.01


def test_pr_curves(ev):
    cb = pr_curves(ev, grid=201)
    for r in range(12):
        y, s = _pooled(ev, r)
        assert cb.area[r] == average_precision_score(y, s)
    # interpolated precision never increases with recall and ends at the prevalence or above
    assert (np.diff(cb.curves, axis=1) <= 1e-12).all()
    assert (cb.curves[:, -1] >= np.mean(ev._pred_meta["y"]) - 1e-12).all()
    assert (cb.low <= cb.center).all()
    assert (cb.center <= cb.high).all()


def test_known_curve():
    # a perfect and a random-ish ranking: ROC at 0 and at 1 known exactly
    y = np.array([0, 0, 1, 1])
    perfect = np.array([0.1, 0.2, 0.8, 0.9])
    swapped = np.array([0.8, 0.9, 0.1, 0.2])
    cb = curve_band([y, y], [perfect, swapped], grid=5)
    np.testing.assert_array_equal(cb.curves[0], [1, 1, 1, 1, 1])
    np.testing.assert_array_equal(cb.curves[1], [0, 0, 0, 0, 1])
    np.testing.assert_array_equal(cb.area, [1.0, 0.0])


def test_plot_draws_the_data(ev):
    cb = roc_curves(ev, grid=21)
    ax = cb.plot()
    lines = ax.get_lines()
    assert len(lines) == 12 + 1 + 1  # curves, center, diagonal
    np.testing.assert_array_equal(lines[12].get_ydata(), cb.center)
    assert "AUC median" in ax.get_title()
    pcb = pr_curves(ev, grid=21)
    ax = pcb.plot(show_curves=False)
    assert len(ax.get_lines()) == 1


def test_errors(ev):
    X, y = load_breast_cancer(return_X_y=True)
    plain = RepeatedEvaluator(LogisticRegression(), n_repeats=2, cv=2, refit=False)
    with pytest.raises(ValueError, match="return_predictions=True"):
        roc_curves(plain.fit(X[:, :3], y))
    with pytest.raises(ValueError, match="`band`"):
        roc_curves(ev, band="x")
    with pytest.raises(ValueError, match="`level`"):
        roc_curves(ev, level=1.5)


def test_band_coverage_of_a_new_repeat_monte_carlo():
    # binormal scores, 10 repeats of 100 test rows: how often does the curve
    # of an 11th repeat lie inside the band, pointwise (FPR 0.1 .. 0.9)?
    # t band (prediction interval, level 0.8): about 0.8. Quantile band
    # (descriptive, the 10-90 % quantiles of the 10 curves): about
    # (8.1 - 0.9) / 11 = 0.65, as order statistics predict -- not 0.8.
    from skperf.report._curves import _interp_roc

    rng = np.random.default_rng(12345)
    grid = np.linspace(0, 1, 11)

    def draw():
        y = rng.integers(0, 2, 100)
        return y, y + rng.normal(0, 1, 100)

    inside_t, inside_q = [], []
    for _ in range(150):
        ys, ss = zip(*(draw() for _ in range(10)), strict=True)
        t = curve_band(ys, ss, grid=grid, band="t", level=0.8)
        q = curve_band(ys, ss, grid=grid, band="quantile", level=0.8)
        new = _interp_roc(*draw(), grid, 1)
        inside_t.append((new >= t.low) & (new <= t.high))
        inside_q.append((new >= q.low) & (new <= q.high))
    cov_t = np.mean(inside_t, axis=0)[1:-1]
    cov_q = np.mean(inside_q, axis=0)[1:-1]
    assert 0.74 <= cov_t.mean() <= 0.88
    assert cov_t.min() >= 0.66
    assert 0.57 <= cov_q.mean() <= 0.73
