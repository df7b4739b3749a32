"""Tests for skperf/_variance.py: one source of variation at a time."""

import re

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from skperf import RepeatedEvaluator, variance_sources
from skperf._variance import plot_variance_sources
from skperf.search._noisy_grid import NoisyGridSearchCV

X_IRIS, Y_IRIS = load_iris(return_X_y=True)


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
            var_low = (n - 1) * sd**2 / stats.chi2.ppf(0.975, n - 1)
            var_high = (n - 1) * sd**2 / stats.chi2.ppf(0.025, n - 1)
            assert (row["std_low"], row["std_high"]) == pytest.approx(
                np.sqrt([var_low, var_high])
            )
            q10, q90 = np.quantile(x, [0.1, 0.9])
            assert row["idr"] == pytest.approx(q90 - q10)
            assert 0 <= row["idr_low"] <= row["idr_high"] <= x.max() - x.min()
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
