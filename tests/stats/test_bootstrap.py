"""Tests for skperf.stats._bootstrap: BCa bounds and the number of resamples."""

import numpy as np
import pytest
from scipy import special

from skperf.exceptions import SmallSampleWarning
from skperf.stats._bootstrap import _bca_bounds
from skperf.stats._validation import _check_n_boot, _n_boot_for, _resolve_n_boot


def _bca_reference(boot, est, jack, confidence):
    """Textbook BCa (Efron 1987) on the valid (non-NaN) values, scalar."""
    boot = boot[~np.isnan(boot)]
    jack = jack[~np.isnan(jack)]
    z0 = special.ndtri((np.sum(boot < est) + np.sum(boot <= est)) / (2 * boot.size))
    d = jack.mean() - jack
    a = (d**3).sum() / (6 * ((d**2).sum()) ** 1.5)
    z = special.ndtri([(1 - confidence) / 2, (1 + confidence) / 2])
    levels = special.ndtr(z0 + (z0 + z) / (1 - a * (z0 + z)))
    return np.percentile(boot, 100 * levels)


@pytest.fixture
def skewed():
    rng = np.random.default_rng(0)
    x = rng.exponential(size=30)
    boot = x[rng.integers(0, 30, size=(4000, 30))].mean(axis=-1)
    jack = (x.sum() - x) / 29
    return boot, np.float64(x.mean()), jack


@pytest.mark.parametrize(
    ("nan_boot", "nan_jack", "expected"),
    [
        (None, None, [0.83095499, 1.84325733]),
        (slice(None, None, 7), None, [0.83050528, 1.80796297]),
        # one undefined leave-one-out value used to make the acceleration
        # NaN, silently replaced by 0: [0.794, 1.726] instead of [0.832, 1.845]
        (None, 3, [0.83155199, 1.84498876]),
    ],
)
def test_bca_matches_reference_ignoring_nan(skewed, nan_boot, nan_jack, expected):
    boot, est, jack = (v.copy() for v in skewed)
    if nan_boot is not None:
        boot[nan_boot] = np.nan
    if nan_jack is not None:
        jack[nan_jack] = np.nan
    low, high = _bca_bounds(boot, est, jack, 0.95)
    np.testing.assert_allclose([low, high], expected, atol=1e-8)
    np.testing.assert_allclose(
        [low, high], _bca_reference(boot, est, jack, 0.95), rtol=1e-12
    )


def test_bca_batch_rows_are_independent(skewed):
    boot, est, jack = skewed
    with_nan = boot.copy()
    with_nan[:100] = np.nan
    jack_nan = jack.copy()
    jack_nan[0] = np.nan
    low, high = _bca_bounds(
        np.stack([boot, with_nan]),
        np.array([est, est]),
        np.stack([jack, jack_nan]),
        0.9,
    )
    for i, (b, j) in enumerate([(boot, jack), (with_nan, jack_nan)]):
        np.testing.assert_allclose(
            [low[i], high[i]], _bca_reference(b, est, j, 0.9), rtol=1e-12
        )


def test_bca_all_nan_replicates_give_nan():
    # no valid replicate: NaN bounds, not the +inf used to sort NaNs last
    low, high = _bca_bounds(np.full(50, np.nan), 1.0, np.arange(5.0), 0.95)
    assert np.isnan(low)
    assert np.isnan(high)


def test_bca_all_equal_replicates():
    low, high = _bca_bounds(np.full(100, 2.0), 2.0, np.full(5, 2.0), 0.95)
    assert (low, high) == (2.0, 2.0)


@pytest.mark.parametrize(
    ("confidence", "expected"), [(0.95, 399), (0.9, 199), (0.99, 1999), (0.5, 51)]
)
def test_n_boot_auto(confidence, expected):
    assert _n_boot_for(confidence, "auto") == (expected, None)


def test_n_boot_explicit_too_small_says_so():
    n_boot, msg = _n_boot_for(0.95, 100)
    assert n_boot == 100
    assert "about 2.5 resamples in each tail" in msg
    assert "n_boot >= 399" in msg
    assert _n_boot_for(0.9, 199) == (199, None)


@pytest.mark.parametrize(
    ("n_boot", "error", "shown"),
    [
        ("many", ValueError, "'many'"),
        (0, ValueError, "0"),
        (np.int64(-3), ValueError, "-3"),
        (True, TypeError, "True"),
        (99.5, TypeError, "99.5"),
        (None, TypeError, "None"),
    ],
)
def test_one_n_boot_check(n_boot, error, shown):
    # _n_boot_for, the stats functions and the reports share one check
    msg = f"`n_boot` must be a positive int or 'auto'; got {shown}."
    with pytest.raises(error) as exc:
        _n_boot_for(0.95, n_boot)
    assert str(exc.value) == msg
    with pytest.raises(error) as exc:
        _check_n_boot(n_boot)
    assert str(exc.value) == msg


def test_check_n_boot_auto():
    assert _check_n_boot("auto") == "auto"  # resolved where the resampling runs
    assert _check_n_boot("auto", auto=2000) == 2000  # the benchmark report's count
    assert _check_n_boot(np.int32(7)) == 7
    assert type(_check_n_boot(np.int32(7))) is int


def test_resolve_n_boot_warns_at_the_callers_line():
    assert _resolve_n_boot(0.95, "auto") == 399
    with pytest.warns(SmallSampleWarning, match="n_boot=100 leaves about 2.5") as rec:
        assert _resolve_n_boot(0.95, 100) == 100
    assert [w.filename for w in rec] == [__file__]
