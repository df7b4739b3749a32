"""Tests for PerformanceDistribution: array-likeness, validation, I/O, statistics."""

import json
import pickle
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from skperf import Interval, PerformanceDistribution, QuantileCI
from skperf.exceptions import (
    DependentObservationsWarning,
    SmallSampleWarning,
    TiesWarning,
)


@pytest.fixture
def dist():
    scores = np.random.default_rng(0).normal(0.9, 0.02, 30)
    return PerformanceDistribution(
        scores, metric="accuracy", name="lr", seeds={"split": np.arange(30)}
    )


class TestArrayLike:
    def test_numpy_functions(self, dist):
        x = dist.scores
        np.testing.assert_array_equal(np.asarray(dist), x)
        assert len(dist) == 30
        assert dist[0] == x[0]
        np.testing.assert_array_equal(dist[2:5], x[2:5])
        assert list(dist) == list(x)
        assert dist.mean() == x.mean()
        assert dist.std() == x.std()
        assert np.mean(dist) == x.mean()
        assert np.percentile(dist, 50) == np.percentile(x, 50)
        assert f"{dist.mean():.3f}" == f"{x.mean():.3f}"
        np.testing.assert_array_equal(dist * 100, x * 100)
        np.testing.assert_array_equal(dist - dist, np.zeros(30))
        np.testing.assert_array_equal(dist > 0.9, x > 0.9)
        assert dist.shape == (30,)
        assert np.asarray(dist).dtype == np.float64

    def test_scores_read_only(self, dist):
        with pytest.raises(ValueError, match="read-only"):
            dist.scores[0] = 1.0
        raw = np.array([0.1, 0.2, 0.3])
        d = PerformanceDistribution(raw)
        raw[0] = 5.0  # the distribution kept its own copy
        assert d[0] == 0.1

    def test_repr(self, dist):
        m = re.fullmatch(
            r"PerformanceDistribution\('lr', accuracy, n=30, mean=(0\.\d+), "
            r"sd\(ddof=1\)=(0\.\d+)\)",
            repr(dist),
        )
        assert m
        assert float(m.group(1)) == pytest.approx(dist.mean(), rel=1e-3)
        # the repr's sd says its ddof: it is the sample sd, not .std()'s ddof=0
        assert float(m.group(2)) == pytest.approx(dist.std(ddof=1), rel=1e-3)
        assert float(m.group(2)) != pytest.approx(dist.std(), rel=1e-3)

    def test_repr_numbers(self):
        d = PerformanceDistribution([0.8, 0.9, 0.7], metric="accuracy", name="m")
        assert repr(d) == (
            "PerformanceDistribution('m', accuracy, n=3, mean=0.8, sd(ddof=1)=0.1)"
        )
        assert repr(PerformanceDistribution([1.0, 2.0])) == (
            "PerformanceDistribution(n=2, mean=1.5, sd(ddof=1)=0.7071)"
        )

    def test_ndarray_methods(self):
        # what users call on cross_val_score's array works and returns plain
        # numpy results, identical to those of the array
        x = np.array([0.8, 0.95, 0.7, 0.9, 0.85])
        d = PerformanceDistribution(x)
        assert d.argmax() == 1
        assert d.argmin() == 2
        assert isinstance(d.argmax(), np.integer)
        np.testing.assert_array_equal(d.argsort(), [2, 0, 4, 3, 1])
        np.testing.assert_array_equal(d.round(1), x.round(1))
        np.testing.assert_array_equal(np.round(d, 1), x.round(1))
        np.testing.assert_array_equal(d.clip(0.75, 0.9), x.clip(0.75, 0.9))
        assert d.ptp() == pytest.approx(0.25)
        a = d.astype(np.float32)
        assert type(a) is np.ndarray
        assert a.dtype == np.float32
        c = d.copy()
        assert type(c) is np.ndarray
        c[0] = 0.0  # writeable, and the distribution is untouched
        assert d[0] == 0.8
        assert d.sum() == pytest.approx(x.sum())
        assert (d.min(), d.max()) == (0.7, 0.95)
        assert d.tolist() == x.tolist()


class TestValidation:
    def test_too_few(self):
        with pytest.raises(
            ValueError, match=re.escape("`scores` must have at least 2 values; got 1.")
        ):
            PerformanceDistribution([0.5])

    def test_nan(self):
        msg = "`scores` must be finite; found 1 NaN and 1 infinite value(s) at index 1, 3."
        with pytest.raises(ValueError, match=re.escape(msg)):
            PerformanceDistribution([0.5, np.nan, 0.6, np.inf])

    def test_non_numeric(self):
        with pytest.raises(TypeError, match="`scores` must be numeric"):
            PerformanceDistribution(["a", "b"])

    def test_2d(self):
        with pytest.raises(ValueError, match=re.escape("`scores` must be 1-D")):
            PerformanceDistribution(np.ones((2, 3)))

    def test_groups_length(self):
        with pytest.raises(
            ValueError,
            match=re.escape(
                "`groups` must have one entry per score (3); got shape (2,)."
            ),
        ):
            PerformanceDistribution([1.0, 2.0, 3.0], groups=[0, 1])

    def test_seeds_length(self):
        with pytest.raises(
            ValueError,
            match=re.escape("`seeds['split']` must have one entry per score (2)"),
        ):
            PerformanceDistribution([1.0, 2.0], seeds={"split": [1, 2, 3]})

    def test_greater_is_better_type(self):
        with pytest.raises(TypeError, match="`greater_is_better` must be a bool"):
            PerformanceDistribution([1.0, 2.0], greater_is_better="yes")


class TestBadStatisticsInput:
    @pytest.fixture
    def small(self):
        return PerformanceDistribution(np.linspace(0.7, 0.9, 10))

    @pytest.mark.parametrize(
        ("call", "exc", "msg"),
        [
            (
                lambda d: d.quantile_ci(50),
                ValueError,
                "`q` must be in (0, 1) (exclusive); got 50 (invalid: [50.0]). Did you mean 0.5?",
            ),
            (
                lambda d: d.quantile_ci(1.5),
                ValueError,
                "`q` must be in (0, 1) (exclusive); got 1.5 (invalid: [1.5]).",
            ),
            (
                lambda d: d.quantile(0),
                ValueError,
                "`q` must be in (0, 1) (exclusive); got 0",
            ),
            (
                lambda d: d.quantile_ci(0.5, confidence=95),
                ValueError,
                "`confidence` must be in (0, 1); got 95. Did you mean 0.95?",
            ),
            (
                lambda d: d.mean_ci(confidence=1.0),
                ValueError,
                "`confidence` must be in (0, 1); got 1.0.",
            ),
            (
                lambda d: d.quantile_ci(0.5, method="foo"),
                ValueError,
                "`method` must be one of ['asymptotic', 'auto', 'bootstrap', 'exact']; got 'foo'.",
            ),
            (
                lambda d: d.mean_ci(method="zzz"),
                ValueError,
                "`method` must be one of ['bca', 'bootstrap', 'corrected-t', 't']; got 'zzz'.",
            ),
            (
                lambda d: d.quantile_ci(0.95, method="exact"),
                ValueError,
                "n = 10 is too small for a 0.95 exact interval: it needs n >= 59 for q = 0.95.",
            ),
            (
                lambda d: d.quantile_ci(0.9, confidence=0.95, method="asymptotic"),
                ValueError,
                "it needs n >= 35 for q = 0.9",
            ),
            (
                lambda d: d.mean_ci(method="corrected-t"),
                ValueError,
                "method='corrected-t' needs the training and test set sizes",
            ),
            (
                lambda d: d.quantile_ci("a"),
                TypeError,
                "`q` must be a float or array of floats",
            ),
            (
                lambda d: d.quantile_ci(0.5, confidence="high"),
                TypeError,
                "`confidence` must be a float in (0, 1); got 'high'.",
            ),
        ],
    )
    def test_messages(self, small, call, exc, msg):
        with pytest.raises(exc, match=re.escape(msg)):
            call(small)

    def test_min_sample_size_matches_error(self, small):
        # the n named in the error is the one min_sample_size reports
        assert small.min_sample_size(0.95, method="exact") == 59
        assert small.min_sample_size(0.9, method="asymptotic") == 35


class TestIO:
    def test_dict_roundtrip(self, dist):
        d2 = PerformanceDistribution.from_dict(dist.to_dict())
        np.testing.assert_array_equal(d2.scores, dist.scores)
        assert (d2.metric, d2.name, d2.greater_is_better) == ("accuracy", "lr", True)
        np.testing.assert_array_equal(d2.seeds["split"], np.arange(30))

    def test_json_roundtrip(self, dist, tmp_path):
        text = dist.to_json()
        assert json.loads(text)["metric"] == "accuracy"
        d2 = PerformanceDistribution.from_json(text)
        np.testing.assert_array_equal(d2.scores, dist.scores)
        path = tmp_path / "d.json"
        dist.to_json(path)
        d3 = PerformanceDistribution.from_json(path)
        np.testing.assert_array_equal(d3.scores, dist.scores)

    def test_from_dict_errors(self):
        with pytest.raises(ValueError, match="at least a 'scores' entry"):
            PerformanceDistribution.from_dict({"metric": "x"})
        with pytest.raises(ValueError, match="unknown keys"):
            PerformanceDistribution.from_dict({"scores": [1, 2], "bogus": 1})

    def test_pickle(self, dist):
        d2 = pickle.loads(pickle.dumps(dist))
        np.testing.assert_array_equal(d2.scores, dist.scores)
        assert not d2.scores.flags.writeable
        assert d2.name == "lr"

    def test_to_frame(self, dist):
        frame = dist.to_frame()
        assert list(frame.columns) == ["score", "split_seed"]
        np.testing.assert_array_equal(frame["score"], dist.scores)
        assert frame.attrs["metric"] == "accuracy"


class TestAggregate:
    def test_per_group_mean(self):
        d = PerformanceDistribution(
            [0.8, 0.9, 0.7, 0.9, 0.6, 0.6],
            groups=[2, 2, 1, 1, 3, 3],
            seeds={"split": [5, 5, 6, 6, 7, 7]},
        )
        agg = d.aggregate()
        np.testing.assert_allclose(agg.scores, [0.85, 0.8, 0.6])
        np.testing.assert_array_equal(agg.seeds["split"], [5, 6, 7])
        assert agg.groups is None

    def test_dependent_warning(self):
        d = PerformanceDistribution(
            np.linspace(0, 1, 20), groups=np.repeat(np.arange(4), 5)
        )
        with pytest.warns(
            DependentObservationsWarning, match="20 scores form 4 groups"
        ):
            d.mean_ci()


class TestStatistics:
    def test_quantile_numpy_methods(self, dist):
        x = dist.scores
        for method in ("linear", "inverted_cdf", "weibull"):
            assert dist.quantile(0.3, method=method) == pytest.approx(
                np.quantile(x, 0.3, method=method)
            )

    def test_mean_ci_t_matches_scipy(self, dist):
        from scipy import stats

        ci = dist.mean_ci(confidence=0.9)
        x = dist.scores
        lo, hi = stats.t.interval(0.9, x.size - 1, loc=x.mean(), scale=stats.sem(x))
        assert isinstance(ci, Interval)
        assert (ci.low, ci.high) == pytest.approx((lo, hi), rel=1e-12)
        assert ci.n == 30

    def test_quantile_ci_array(self, dist):
        ci = dist.quantile_ci([0.25, 0.5, 0.75], method="exact")
        assert isinstance(ci, QuantileCI)
        assert ci.low.shape == (3,)
        assert np.all(ci.low <= ci.estimate)
        assert np.all(ci.estimate <= ci.high)
        frame = ci.to_frame()
        assert list(frame["q"]) == [0.25, 0.5, 0.75]

    def test_ties_warning(self):
        # ties break the asymptotic interval's guarantee, not the exact one's
        d = PerformanceDistribution(np.r_[np.linspace(0.7, 0.9, 28), 0.9, 0.9])
        with pytest.warns(TiesWarning, match="2 repeated value"):
            d.quantile_ci(0.5, method="asymptotic")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert d.quantile_ci(0.5).method == "exact"  # auto, with ties

    def test_auto_falls_back_with_warning(self):
        d = PerformanceDistribution(np.linspace(0.7, 0.9, 10))
        with pytest.warns(SmallSampleWarning, match="exact interval needs n >= 59"):
            ci = d.quantile_ci(0.95, method="auto", random_state=0)
        assert ci.method == "bootstrap"

    def test_min_sample_size(self, dist):
        assert dist.min_sample_size(0.9, confidence=0.95, method="exact") == 29
        assert dist.min_sample_size(0.9, confidence=0.95, method="asymptotic") == 35

    def test_summary_labels(self, dist):
        frame = dist.summary()
        assert isinstance(frame, pd.DataFrame)
        assert list(frame["statistic"]) == [
            "n",
            "mean",
            "sd",
            "q10",
            "q25",
            "q50",
            "q75",
            "q90",
        ]
        assert frame.set_index("statistic").loc["sd", "describes"] == "spread"
        assert frame.set_index("statistic").loc["mean", "ci_method"] == "t"
        assert frame.set_index("statistic").loc["mean", "value"] == pytest.approx(
            dist.mean()
        )
        assert frame.set_index("statistic").loc["sd", "value"] == pytest.approx(
            dist.scores.std(ddof=1)
        )
        q = frame.set_index("statistic").loc["q50"]
        assert q["ci_low"] <= q["value"] <= q["ci_high"]

    def test_repr_html(self, dist):
        html = dist._repr_html_()
        assert "<table" in html
        assert "<strong>lr</strong> — accuracy (n = 30)" in html
        assert f"{dist.mean():.4g}" in html

    def test_plot(self, dist):
        pytest.importorskip("matplotlib")
        ax = dist.plot(quantiles=(0.25, 0.5, 0.75))
        assert ax.get_xlabel() == "accuracy"
        # the ECDF: sorted scores against i / n
        x, y = ax.lines[0].get_data()
        np.testing.assert_array_equal(x, np.sort(dist.scores))
        np.testing.assert_allclose(y, np.arange(1, 31) / 30)
        # the quantile points sit at their estimates, at height q
        ci = dist.quantile_ci([0.25, 0.5, 0.75], random_state=0)
        px, py = ax.lines[1].get_data()
        np.testing.assert_allclose(px, ci.estimate)
        np.testing.assert_allclose(py, [0.25, 0.5, 0.75])

    def test_compare_wraps_arrays(self, dist):
        other = dist.scores - 0.05
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            c = dist.compare(other, paired=True, random_state=0)
        assert c.estimate == 1.0


def test_summary_warns_once_at_the_callers_line():
    # mean_ci and quantile_ci both check independence: summary() gives the
    # warning once, attributed to the user's code, not to skperf's own lines
    groups = np.repeat(np.arange(10), 4)
    d = PerformanceDistribution(
        np.random.default_rng(0).normal(0.8, 0.02, 40), groups=groups
    )
    with pytest.warns(DependentObservationsWarning) as rec:
        frame = d.summary(quantiles=(0.5,))
    assert len(rec) == 1
    assert rec[0].filename == __file__
    assert str(rec[0].message).startswith(
        "The 40 scores form 10 groups of dependent observations"
    )
    assert frame["statistic"].tolist() == ["n", "mean", "sd", "q50"]


def test_summary_one_fallback_warning_with_measured_coverage():
    # n = 10 at 95 %: only the median has an exact or asymptotic interval
    # (q = 0.25 needs n >= 11, q = 0.1 n >= 29): one warning for the four
    # other levels, quoting the measured coverage of the shipped table
    from skperf.exceptions import SmallSampleWarning
    from skperf.stats._quantile import _measured_fallback_coverage

    d = PerformanceDistribution(np.random.default_rng(0).normal(0.8, 0.02, 10))
    with pytest.warns(SmallSampleWarning) as rec:
        frame = d.summary()
    assert len(rec) == 1
    assert rec[0].filename == __file__
    msg = str(rec[0].message)
    for q in (0.1, 0.25, 0.75, 0.9):
        lo, hi = _measured_fallback_coverage(10, q, 0.95)
        assert f"q = {q:g}: {lo:.2f}-{hi:.2f}" in msg
    approx = frame.set_index("statistic")["approximate"]
    assert approx.to_dict() == {
        "n": False,
        "mean": False,
        "sd": False,
        "q10": True,
        "q25": True,
        "q50": False,
        "q75": True,
        "q90": True,
    }
    methods = frame.set_index("statistic")["ci_method"]
    assert (methods[approx] == "bootstrap").all()
    assert (methods[~approx & (methods != "")] != "bootstrap").all()


def test_plot_passes_fallback_warning_on_once():
    pytest.importorskip("matplotlib")
    from skperf.exceptions import SmallSampleWarning

    d = PerformanceDistribution(np.random.default_rng(0).normal(0.8, 0.02, 10))
    with pytest.warns(SmallSampleWarning, match="measured coverage") as rec:
        ax = d.plot()
    assert len(rec) == 1
    assert rec[0].filename == __file__
    labels = ax.get_legend_handles_labels()[1]
    assert "quantiles, approximate 95% CI" in labels


_X10 = np.linspace(0.7, 0.9, 10)
_TIED = np.r_[np.linspace(0.7, 0.9, 28), 0.9, 0.9]
_GROUPED = PerformanceDistribution(
    np.random.default_rng(0).normal(0.8, 0.02, 40), groups=np.repeat(np.arange(10), 4)
)
_X30 = np.random.default_rng(1).normal(0.8, 0.02, 30)


@pytest.mark.parametrize(
    ("category", "call"),
    [
        # quantile_ci: fallback to the bootstrap, ties, dependence, small n_boot
        (
            SmallSampleWarning,
            lambda: PerformanceDistribution(_X10).quantile_ci(0.95, random_state=0),
        ),
        (
            TiesWarning,
            lambda: PerformanceDistribution(_TIED).quantile_ci(
                0.5, method="asymptotic"
            ),
        ),
        (DependentObservationsWarning, lambda: _GROUPED.quantile_ci(0.5)),
        (
            SmallSampleWarning,
            lambda: PerformanceDistribution(_X30).quantile_ci(
                0.5, method="bootstrap", n_boot=50, random_state=0
            ),
        ),
        # mean_ci: dependence, small n_boot
        (DependentObservationsWarning, lambda: _GROUPED.mean_ci()),
        (
            SmallSampleWarning,
            lambda: PerformanceDistribution(_X30).mean_ci(
                method="bootstrap", n_boot=50, random_state=0
            ),
        ),
        # compare: dependence, small n_boot
        (DependentObservationsWarning, lambda: _GROUPED.compare(_GROUPED + 0.01)),
        (
            SmallSampleWarning,
            lambda: PerformanceDistribution(_X30).compare(
                _X30 - 0.01, method="bootstrap", n_boot=50, random_state=0
            ),
        ),
        # the other methods that check independence
        (DependentObservationsWarning, lambda: _GROUPED.quantile_band()),
        (DependentObservationsWarning, lambda: _GROUPED.requirement(0.75)),
        (DependentObservationsWarning, lambda: _GROUPED.summary(quantiles=(0.5,))),
    ],
    ids=[
        "quantile_ci-fallback",
        "quantile_ci-ties",
        "quantile_ci-groups",
        "quantile_ci-n_boot",
        "mean_ci-groups",
        "mean_ci-n_boot",
        "compare-groups",
        "compare-n_boot",
        "quantile_band-groups",
        "requirement-groups",
        "summary-groups",
    ],
)
def test_warning_points_at_the_callers_line(category, call):
    # the frame walker names this file (the lambda's line), never skperf's
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        call()
    hits = [w for w in rec if issubclass(w.category, category)]
    assert hits, f"no {category.__name__}"
    assert {w.filename for w in hits} == {__file__}


def test_plot_band_is_the_quantile_band_at_the_confidence():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    d = PerformanceDistribution(np.random.default_rng(0).normal(0.8, 0.02, 20))
    ax = d.plot(band=True, confidence=0.9, quantiles=())
    band = d.quantile_band(confidence=0.9)
    assert f"90% band ({band.method})" in ax.get_legend_handles_labels()[1]
    # the filled region is F_n -+ epsilon, clipped to [0, 1]
    (poly,) = ax.collections
    ys = np.unique(np.round(poly.get_paths()[0].vertices[:, 1], 12))
    f = np.arange(21) / 20
    expected = np.unique(
        np.round(
            np.r_[np.clip(f - band.epsilon, 0, 1), np.clip(f + band.epsilon, 0, 1)], 12
        )
    )
    np.testing.assert_allclose(ys, expected, atol=1e-12)
    plt.close(ax.figure)


def test_summary_bad_requirement_names_it():
    d = PerformanceDistribution(np.linspace(0.8, 0.9, 30))
    with pytest.raises(ValueError, match=r"`requirement=\(0.85, 0.9, 0.99\)`: a tuple"):
        d.summary(quantiles=(), requirement=(0.85, 0.9, 0.99))
    with pytest.raises(TypeError, match="a dict takes the keys threshold"):
        d.summary(quantiles=(), requirement={"threshold": 0.85, "prob": 0.9})


def test_quantile_band_is_the_stats_band_of_the_scores():
    from skperf.exceptions import DependentObservationsWarning
    from skperf.stats import quantile_band

    x = np.random.default_rng(0).normal(0.9, 0.02, 50)
    band = PerformanceDistribution(x).quantile_band(confidence=0.9)
    ref = quantile_band(x, confidence=0.9)
    np.testing.assert_array_equal(band.low, ref.low)
    np.testing.assert_array_equal(band.high, ref.high)
    low, high = band.at(0.5)
    assert low < np.median(x) < high
    g = PerformanceDistribution(x, groups=np.repeat(np.arange(10), 5))
    with pytest.warns(DependentObservationsWarning, match="10 groups"):
        g.quantile_band()


def test_simultaneous_must_be_bool():
    d = PerformanceDistribution(np.linspace(0.8, 0.9, 40))
    with pytest.raises(TypeError, match="`simultaneous` must be True or False"):
        d.quantile_ci([0.1, 0.9], simultaneous="yes")


def test_requirement_sequence_of_three_is_refused():
    from skperf.stats._requirement import _requirement_kwargs

    assert _requirement_kwargs((0.8, 0.95), 0.9) == {
        "threshold": 0.8,
        "probability": 0.95,
        "confidence": 0.9,
    }
    with pytest.raises(ValueError, match="got 3 values"):
        _requirement_kwargs((0.8, 0.9, 0.99), 0.95)


class TestNamedMetricChecks:
    """Issue 17 items 3 and 10: scores that cannot be the named metric's."""

    def test_percent_accuracy_refused_with_hint(self):
        msg = (
            r"`scores` of metric 'accuracy' must lie in \[0, 1\]; got 90.88 "
            r"\(3 of 3 outside\); these look like percentages: divide the scores "
            r"by 100 \(90.88 -> 0.9088\)\."
        )
        with pytest.raises(ValueError, match=msg):
            PerformanceDistribution([90.88, 91.2, 89.9], metric="accuracy")
        d = PerformanceDistribution([0.9088, 0.912, 0.899], metric="accuracy")
        assert d.n == 3
        # other ranges of the report's table
        with pytest.raises(ValueError, match=r"'r2' must be at most 1; got 1\.2"):
            PerformanceDistribution([1.2, 0.4], metric="r2")
        with pytest.raises(ValueError, match="'roc_auc_ovr' must lie in"):
            PerformanceDistribution([0.9, 1.5], metric="roc_auc_ovr")
        with pytest.raises(ValueError, match="'neg_log_loss' must be at most 0"):
            PerformanceDistribution([0.3, 0.4], metric="neg_log_loss")
        # a rounding error at a bound is not refused; unknown names are free
        PerformanceDistribution([1 + 1e-12, 0.9], metric="accuracy")
        PerformanceDistribution([90.88, 91.2], metric="my_score")

    @pytest.mark.parametrize(
        "metric",
        ["log_loss", "mse", "rmse", "loss", "val_loss", "Test-MAE", "cv_error"],
    )
    def test_loss_name_requires_direction(self, metric):
        with pytest.raises(ValueError, match=f"`metric` '{metric}' is a loss"):
            PerformanceDistribution([0.3, 0.4, 0.2], metric=metric)
        d = PerformanceDistribution(
            [0.3, 0.4, 0.2], metric=metric, greater_is_better=False
        )
        assert not d.greater_is_better
        # the best of two models is the lower loss
        low = PerformanceDistribution(
            np.linspace(0.1, 0.2, 30), metric=metric, greater_is_better=False
        )
        high = PerformanceDistribution(
            np.linspace(0.3, 0.4, 30), metric=metric, greater_is_better=False
        )
        assert low.compare(high).decision == "better"
        # negated losses (as scikit-learn's neg_* scorers) stay greater-is-better
        neg = PerformanceDistribution([-0.3, -0.4, -0.2], metric=metric)
        assert neg.greater_is_better

    def test_loss_range(self):
        with pytest.raises(ValueError, match=r"'mse' must be at least 0; got -0\.3"):
            PerformanceDistribution([-0.3, 0.4], metric="mse", greater_is_better=False)
        with pytest.raises(ValueError, match="'brier' must lie in"):
            PerformanceDistribution([0.3, 1.4], metric="brier", greater_is_better=False)
        # a generic "loss" may be negative (a log-likelihood of densities)
        PerformanceDistribution([-0.3, 0.4], metric="loss", greater_is_better=False)

    def test_not_loss_names(self):
        from skperf._distribution import _is_loss_name

        assert not _is_loss_name("neg_log_loss")
        assert not _is_loss_name("test_neg_mean_squared_error")
        assert not _is_loss_name("accuracy")
        assert not _is_loss_name("errors_fixed_share")
        assert _is_loss_name("mean_test_max_error")
        assert _is_loss_name("VAL LOSS")


def test_quantile_vs_quantile_ci_estimate():
    # issue 17.18: the two estimates differ, and the docs say which is which
    d = PerformanceDistribution(np.random.default_rng(0).normal(0.9, 0.02, 50))
    ci = d.quantile_ci(0.1)
    assert d.quantile(0.1) == pytest.approx(0.881389706860271)
    assert ci.estimate == pytest.approx(0.8798076363292253)
    assert d.quantile(0.1, method="inverted_cdf") == ci.estimate
    assert np.sort(d.scores)[4] == ci.estimate  # X_(ceil(50 * 0.1)) = X_(5)
    assert "inverted_cdf" in PerformanceDistribution.quantile.__doc__
    assert "inverted_cdf" in PerformanceDistribution.quantile_ci.__doc__


def test_negated_loss_shown_as_loss():
    # issue 17.17: regression reports showed -56.2 (neg RMSE), not RMSE 56.2
    from skperf._distribution import _as_loss

    rng = np.random.default_rng(0)
    seeds = {"s": np.arange(30)}
    neg = {
        n: PerformanceDistribution(
            -rng.normal(mu, 2, 30),
            metric="neg_root_mean_squared_error",
            name=n,
            seeds=seeds,
        )
        for n, mu in (("ridge", 56.2), ("tree", 60.0))
    }
    loss = {n: _as_loss(d) for n, d in neg.items()}
    assert loss["ridge"].metric == "root_mean_squared_error"
    assert not loss["ridge"].greater_is_better
    np.testing.assert_array_equal(loss["ridge"].scores, -neg["ridge"].scores)
    # the same comparison, in the loss's own units
    a, b = neg["ridge"].compare(neg["tree"]), loss["ridge"].compare(loss["tree"])
    assert (a.estimate, a.low, a.high, a.decision) == (
        b.estimate,
        b.low,
        b.high,
        b.decision,
    )
    assert b.decision == "better"
    assert b.mean_difference.estimate == pytest.approx(-a.mean_difference.estimate)
    # q-quantile of the negated scores is minus the (1 - q)-quantile
    assert loss["ridge"].quantile(0.9) == pytest.approx(-neg["ridge"].quantile(0.1))
    # anything else is returned as is
    acc = PerformanceDistribution([0.8, 0.9], metric="accuracy")
    assert _as_loss(acc) is acc


def test_training_log_names_checked():
    # deep-learning logs name accuracy "acc" / "val_acc" (issue 17.3)
    with pytest.raises(ValueError, match="divide the scores by 100"):
        PerformanceDistribution([90.88, 91.5], metric="val_acc")
    with pytest.raises(ValueError, match="'AUC' must lie in"):
        PerformanceDistribution([0.9, 1.5], metric="AUC")
    assert PerformanceDistribution([0.9088, 0.915], metric="acc").n == 2
