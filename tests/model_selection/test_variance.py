"""Tests for skperf/model_selection/_variance.py: one source of variation at a time."""

import re

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from skperf import RepeatedEvaluator, variance_sources
from skperf.model_selection._noisy_grid import NoisyGridSearchCV
from skperf.model_selection._variance import plot_variance_sources

X_IRIS, Y_IRIS = load_iris(return_X_y=True)


def _bonett_by_hand(x, confidence):
    # Bonett (2006), Comput. Stat. Data Anal. 50, eq. for the variance
    n = len(x)
    z = stats.norm.ppf(0.5 + confidence / 2)
    trim = 1 / (2 * np.sqrt(n - 4))
    m = stats.trim_mean(x, trim)
    g4 = n * np.sum((x - m) ** 4) / np.sum((x - np.mean(x)) ** 2) ** 2
    c = n / (n - z)
    se = c * np.sqrt((g4 - (n - 3) / n) / (n - 1))
    v = np.var(x, ddof=1)
    return np.sqrt(c * v * np.exp(-z * se)), np.sqrt(c * v * np.exp(z * se))


@pytest.fixture(scope="module")
def tree_frame():
    return variance_sources(
        DecisionTreeClassifier(), X_IRIS, Y_IRIS, n_repeats=12, random_state=0
    )


class TestVarianceSources:
    def test_rows_and_skipped_source(self, tree_frame):
        assert list(tree_frame.index) == ["split", "init", "search", "all"]
        assert tree_frame["n"].tolist() == [12, 12, 0, 12]
        assert tree_frame.loc["search", "note"] == (
            "not evaluated: the estimator is not a hyperparameter search"
        )
        assert np.isnan(tree_frame.loc["search", "mean"])
        assert set(tree_frame.attrs["distributions"]) == {"split", "init", "all"}
        assert tree_frame.attrs["random_state"] == 0

    def test_rows_are_paired_repeated_evaluations(self, tree_frame):
        for src, vary in [("split", ["split"]), ("init", ["init"]), ("all", "all")]:
            ev = RepeatedEvaluator(
                DecisionTreeClassifier(),
                n_repeats=12,
                vary=vary,
                random_state=0,
                refit=False,
            ).fit(X_IRIS, Y_IRIS)
            np.testing.assert_array_equal(
                tree_frame.attrs["distributions"][src].scores, ev.distribution_.scores
            )
            assert tree_frame.loc[src, "mean"] == pytest.approx(ev.distribution_.mean())

    def test_statistics_by_hand(self, tree_frame):
        for src in ("split", "init", "all"):
            x = tree_frame.attrs["distributions"][src].scores
            row = tree_frame.loc[src]
            n = x.size
            mean, sd = x.mean(), x.std(ddof=1)
            t_low, t_high = stats.t.interval(
                0.95, n - 1, loc=mean, scale=sd / np.sqrt(n)
            )
            assert row["mean"] == pytest.approx(mean)
            assert (row["mean_low"], row["mean_high"]) == pytest.approx((t_low, t_high))
            assert row["std"] == pytest.approx(sd)
            assert (row["std_low"], row["std_high"]) == pytest.approx(
                _bonett_by_hand(x, 0.95)
            )
            q10, q90 = np.quantile(x, [0.1, 0.9])
            assert row["idr"] == pytest.approx(q90 - q10)
            # 12 repeats: no distribution-free interval (needs 35), said so
            assert np.isnan(row["idr_low"])
            assert np.isnan(row["idr_high"])
            assert "no interdecile-range interval below n = 35" in row["note"]
        # the split moves the score more than the tree's tie-breaking seed
        assert tree_frame.loc["split", "std"] > 3 * tree_frame.loc["init", "std"]
        # the tree's random feature order still moves the score a little
        assert tree_frame.loc["init", "std"] > 0

    def test_reproducible(self, tree_frame):
        again = variance_sources(
            DecisionTreeClassifier(), X_IRIS, Y_IRIS, n_repeats=12, random_state=0
        )
        cols = [c for c in tree_frame.columns if c != "note"]
        np.testing.assert_array_equal(
            again[cols].to_numpy(), tree_frame[cols].to_numpy()
        )

    def test_search_source(self):
        search = NoisyGridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"ccp_alpha": [0.003, 0.03, 0.3]},
            cv=KFold(3, shuffle=True, random_state=0),
        )
        frame = variance_sources(
            search,
            X_IRIS,
            Y_IRIS,
            sources=("search",),
            n_repeats=6,
            random_state=1,
        )
        assert list(frame.index) == ["search", "all"]
        assert frame["n"].tolist() == [6, 6]
        ev = RepeatedEvaluator(
            search,
            n_repeats=6,
            vary=["search"],
            random_state=1,
            refit=False,
        ).fit(X_IRIS, Y_IRIS)
        np.testing.assert_array_equal(
            frame.attrs["distributions"]["search"].scores, ev.distribution_.scores
        )
        assert len({p["ccp_alpha"] for p in ev.results_["best_params"]}) == 6
        # "all" varies every source with randomness: split, init and search
        ev_all = RepeatedEvaluator(
            search,
            n_repeats=6,
            vary=["split", "init", "search"],
            random_state=1,
            refit=False,
        ).fit(X_IRIS, Y_IRIS)
        np.testing.assert_array_equal(
            frame.attrs["distributions"]["all"].scores, ev_all.distribution_.scores
        )

    def test_plain_grid_search_with_int_cv_gets_shuffled_inner_cv(self):
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, cv=3
        )
        frame = variance_sources(search, X_IRIS, Y_IRIS, n_repeats=4, random_state=0)
        assert frame["n"].tolist() == [4, 4, 4, 4]
        dists = frame.attrs["distributions"]
        # "all" is vary="all", which is the same as naming the three sources
        ev = RepeatedEvaluator(
            search,
            n_repeats=4,
            vary=["split", "init", "search"],
            random_state=0,
            refit=False,
        ).fit(X_IRIS, Y_IRIS)
        np.testing.assert_array_equal(dists["all"].scores, ev.distribution_.scores)
        # paired rows: each row varies its source with the seeds of "all" and
        # holds the others at the first seed of "all"
        for src in ("split", "init", "search"):
            for other in ("split", "init", "search"):
                expected = dists["all"].seeds[other]
                if other != src:
                    expected = np.full(4, expected[0])
                np.testing.assert_array_equal(dists[src].seeds[other], expected)
        assert len(set(dists["search"].seeds["search"])) == 4

    def test_deterministic_estimator_skips_init(self):
        frame = variance_sources(
            KNeighborsClassifier(),
            X_IRIS,
            Y_IRIS,
            sources=("init",),
            n_repeats=3,
            random_state=0,
        )
        assert frame["n"].tolist() == [0, 3]
        assert frame.loc["init", "note"].startswith(
            "not evaluated: the estimator has no random_state"
        )

    def test_kfold_aggregated_per_repeat(self):
        frame = variance_sources(
            DecisionTreeClassifier(),
            X_IRIS,
            Y_IRIS,
            sources=("split",),
            n_repeats=4,
            cv=3,
            random_state=0,
        )
        assert frame.loc["split", "n"] == 4
        ev = RepeatedEvaluator(
            DecisionTreeClassifier(),
            cv=3,
            n_repeats=4,
            vary=["split"],
            random_state=0,
            refit=False,
        ).fit(X_IRIS, Y_IRIS)
        per_repeat = ev.results_.groupby("repeat")["test_score"].mean().to_numpy()
        np.testing.assert_allclose(
            frame.attrs["distributions"]["split"].scores, per_repeat
        )

    @pytest.mark.parametrize(
        ("kwargs", "exc", "msg"),
        [
            (
                {"sources": ("data",)},
                ValueError,
                "`sources` must be a non-empty subset of",
            ),
            ({"sources": ()}, ValueError, "`sources` must be a non-empty subset of"),
            ({"sources": ("split", "split")}, ValueError, "without repeats"),
            ({"sources": 3}, TypeError, "`sources` must be a subset of"),
            ({"n_repeats": 1}, ValueError, "`n_repeats` must be an int >= 2; got 1."),
            ({"confidence": 95}, ValueError, "`confidence` must be in (0, 1)"),
        ],
    )
    def test_bad_arguments(self, kwargs, exc, msg):
        with pytest.raises(exc, match=re.escape(msg)):
            variance_sources(DecisionTreeClassifier(), X_IRIS, Y_IRIS, **kwargs)


class TestPlotVarianceSources:
    def test_plot_from_frame(self, tree_frame):
        ax = plot_variance_sources(tree_frame)
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert labels == ["split", "init", "all"]  # top to bottom in frame order
        # one scatter per evaluated source, with every score drawn
        sizes = [
            len(c.get_offsets())
            for c in ax.collections
            if hasattr(c, "get_offsets") and len(c.get_offsets()) > 2
        ]
        assert sizes == [12, 12, 12]
        # the standard deviation of each row is written at its right
        texts = [t.get_text() for t in ax.texts]
        expected = [
            f"sd {tree_frame.loc[s, 'std']:.3g}" for s in ("split", "init", "all")
        ]
        assert texts == expected
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend == ["scores", "mean \u00b1 1 sd", "q10 to q90"]
        # thick bars span mean +- sd
        bars = [c for c in ax.collections if max(c.get_linewidths(), default=0) == 6]
        split = tree_frame.loc["split"]
        (x0, _), (x1, _) = bars[0].get_segments()[0]
        assert (x0, x1) == pytest.approx(
            (split["mean"] - split["std"], split["mean"] + split["std"])
        )

    def test_bad_input(self):
        with pytest.raises(
            ValueError, match="must be the frame returned by variance_sources"
        ):
            plot_variance_sources({})


class TestIntervalsHold:
    """Issue 18.7: the sd and interdecile-range intervals at 10 repeats."""

    @pytest.mark.parametrize(
        ("dist", "floor"),
        [("normal", 0.94), ("t5", 0.91), ("beta", 0.93)],
    )
    def test_sd_interval_coverage_at_10(self, dist, floor):
        from skperf.model_selection._variance import _bonett_sd

        rng = np.random.default_rng(18)
        size = (3000, 10)
        x, sd = {
            "normal": (rng.normal(size=size), 1.0),
            "t5": (rng.standard_t(5, size=size), np.sqrt(5 / 3)),
            "beta": (rng.beta(2, 8, size=size), np.sqrt(16 / 1100)),
        }[dist]
        low, high = _bonett_sd(x, 0.95)
        assert (low[0], high[0]) == pytest.approx(_bonett_sd(x[0], 0.95))
        # the chi-square interval: 0.95 / 0.87 / 0.93; s.e. 0.004
        assert np.mean((low <= sd) & (sd <= high)) >= floor

    def test_heavy_tails_are_said(self):
        from skperf.model_selection._variance import _row

        x = np.r_[np.zeros(9), 10.0] + np.arange(10) * 1e-3  # kurtosis 9
        assert "heavy-tailed scores (kurtosis" in _row(x, 0.95)[10]
        assert "covered only 0.77-0.86 on t3" in _row(x, 0.95)[10]
        assert _row(np.random.default_rng(0).normal(size=10), 0.95)[10].startswith(
            "no interdecile-range interval below n = 35"
        )

    def test_idr_interval_distribution_free(self):
        from skperf.model_selection._variance import _row
        from skperf.stats import simultaneous_quantile_ci

        rng = np.random.default_rng(7)
        true = stats.t.ppf(0.9, 3) - stats.t.ppf(0.1, 3)
        x = rng.standard_t(3, size=(1000, 35))
        ci = simultaneous_quantile_ci(x, [0.1, 0.9], confidence=0.95)
        low = np.maximum(0.0, ci.low[:, 1] - ci.high[:, 0])
        high = ci.high[:, 1] - ci.low[:, 0]
        assert np.mean((low <= true) & (true <= high)) >= 0.95
        row = _row(x[0], 0.95)  # the row uses this interval
        assert (row[8], row[9]) == pytest.approx((low[0], high[0]))
        assert "interdecile" not in row[10]
        # at 90 % the minimum is 29
        row = _row(rng.normal(size=29), 0.9)
        assert np.isfinite(row[8])
        assert row[8] <= row[7] <= row[9]
