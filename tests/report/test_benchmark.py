"""BenchmarkReport and benchmark: many datasets (issue 19).

The across-dataset numbers are checked against the statistics core (itself
checked against scipy, autorank, scikit-posthocs and baycomp in
tests/stats/test_ranks.py) and against Demšar (2006)'s worked example.
"""

import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from skperf import BenchmarkReport, ModelSelectionReport
from skperf.cli import main
from skperf.stats import _ranks

from ..stats.test_ranks import DEMSAR, SP_NEMENYI, SP_WILCOXON_HOLM

NAMES = ["C45", "C45m", "C45cf", "C45mcf"]


def _demsar_frame():
    return pd.DataFrame(
        [(f"ds{i}", NAMES[j], DEMSAR[i, j]) for i in range(14) for j in range(4)],
        columns=["dataset", "model", "auc"],
    )


def _runs_frame(seed=0, D=8, R=6, shifts=(0.0, 0.02, 0.01), noise=0.01):
    rng = np.random.default_rng(seed)
    rows = [
        (f"d{d}", m, s, 0.8 + 0.01 * d + shift + rng.normal(0, noise))
        for d in range(D)
        for m, shift in zip("abc", shifts, strict=False)
        for s in range(R)
    ]
    return pd.DataFrame(rows, columns=["dataset", "model", "seed", "acc"])


@pytest.fixture(scope="module")
def demsar():
    return BenchmarkReport.from_frame(
        _demsar_frame(), score="auc", by="model", dataset="dataset", random_state=0
    )


@pytest.fixture(scope="module")
def runs_report():
    return BenchmarkReport.from_frame(
        _runs_frame(),
        score="acc",
        by="model",
        dataset="dataset",
        pair_by="seed",
        random_state=0,
    )


class TestDemsarTable:
    """One score per model and dataset: Demšar (2006), Table 6."""

    def test_ranks_and_tests(self, demsar):
        rk = demsar.ranks().reindex(NAMES)
        np.testing.assert_allclose(
            rk["mean_rank"], [3.142857, 2.0, 2.928571, 1.928571], atol=1e-6
        )
        res = demsar.test()
        assert res.pvalue == pytest.approx(0.011986176325417788, rel=1e-10)  # autorank
        assert res.statistic == pytest.approx(stats.friedmanchisquare(*DEMSAR.T)[0])
        assert res.critical_difference == pytest.approx(1.2535512603486423, rel=1e-5)
        np.testing.assert_allclose(res.pvalues.loc[NAMES, NAMES], SP_NEMENYI, rtol=1e-6)
        holm = demsar.test(posthoc="holm")
        np.testing.assert_allclose(
            holm.pvalues.loc[NAMES, NAMES], SP_WILCOXON_HOLM, rtol=1e-10
        )
        assert holm.to_frame().attrs["pvalue"] == res.pvalue
        assert res.target == "new datasets"
        # Demšar's conclusion: C4.5 differs from C4.5+m+cf only at 0.10
        assert res.pvalues.at["C45", "C45mcf"] > 0.05
        assert _ranks.nemenyi_pvalues(rk["mean_rank"].to_numpy(), 14)[0, 3] < 0.10

    def test_single_run_treatment_is_stated(self, demsar):
        assert demsar.reports == {}
        assert demsar.notes.codes() == ["single_run"]
        assert demsar.ranks()["resample"].iloc[0].startswith("bootstrap of datasets")
        with pytest.raises(ValueError, match="resample='runs' needs several runs"):
            demsar.aggregate("mean", resample="runs")
        wtl = demsar.win_tie_loss().set_index(["model_a", "model_b"])
        d = np.sign(DEMSAR[:, 0] - DEMSAR[:, 1])
        assert tuple(wtl.loc[("C45", "C45m"), ["wins", "ties", "losses"]]) == (
            int((d > 0).sum()),
            int((d == 0).sum()),
            int((d < 0).sum()),
        )
        assert wtl["target"].unique().tolist() == ["this dataset"]
        md = demsar.to_markdown()
        assert "*" not in md.replace("**", "").split("\n\n")[1]  # no test, no marks
        assert "no per-dataset test, no marks" in md
        assert "no per-dataset test; a win or loss" in demsar.to_html(plots=False)

    def test_bayesian_signed_rank_matches_baycomp(self, demsar):
        # baycomp.SignedRankTest.probs(C45, C45mcf, rope=0.01, nsamples=200000)
        # = (0.000395, 0.03276, 0.966845): p_left is C45 better
        row = demsar.bayesian_signed_rank("C45mcf", "C45", rope=0.01).iloc[0]
        assert row["p_better"] == pytest.approx(0.966845, abs=0.012)
        assert row["p_rope"] == pytest.approx(0.03276, abs=0.012)
        assert row["decision"] == "better"
        assert row["target"] == "new datasets"

    def test_aggregates(self, demsar):
        agg = demsar.aggregate("mean")
        np.testing.assert_allclose(agg.loc[NAMES, "estimate"], DEMSAR.mean(axis=0))
        iqm = demsar.aggregate("iqm")
        np.testing.assert_allclose(
            iqm.loc[NAMES, "estimate"], stats.trim_mean(DEMSAR, 0.25, axis=0)
        )
        gap = demsar.aggregate("optimality_gap")
        np.testing.assert_allclose(gap.loc[NAMES, "estimate"], 1 - DEMSAR.mean(axis=0))
        assert (agg["low"] <= agg["estimate"]).all()
        assert (agg["estimate"] <= agg["high"]).all()
        assert agg["target"].iloc[0] == "new datasets"


class TestRuns:
    def test_paired_runs_use_the_report_numbers(self, runs_report):
        rep = runs_report
        assert rep.paired
        assert rep.decision_target == "this dataset"
        df = _runs_frame()
        means = df.groupby(["dataset", "model"])["acc"].mean().unstack()
        pd.testing.assert_frame_equal(
            rep.scores, means.loc[rep.datasets, rep.models], check_names=False
        )
        for d in rep.datasets:
            assert isinstance(rep.reports[d], ModelSelectionReport)
        res = rep.test()
        ref = _ranks.friedman(rep.scores.to_numpy())
        assert res.statistic == ref.statistic

    def test_win_tie_loss_from_per_dataset_decisions(self, runs_report):
        rep = runs_report
        wtl = rep.win_tie_loss().set_index(["model_a", "model_b"])
        for a, b in [("a", "b"), ("a", "c"), ("b", "c")]:
            dec = [rep.reports[d].comparisons[a, b].decision for d in rep.datasets]
            wins = sum(x.startswith("better") for x in dec)
            losses = sum(x.startswith("worse") for x in dec)
            assert wtl.loc[(a, b), "wins"] == wins
            assert wtl.loc[(a, b), "losses"] == losses
            assert wtl.loc[(a, b), "ties"] == len(dec) - wins - losses
        # with 6 runs, b beats a clearly on some datasets
        assert wtl.loc[("a", "b"), "losses"] > 0

    def test_iqm_interval_matches_core(self, runs_report):
        rep = runs_report
        agg = rep.aggregate("iqm")
        runs = np.stack(
            [
                np.stack(
                    [rep.reports[d].distributions[m].scores for m in rep.models], 1
                )
                for d in rep.datasets
            ]
        )
        point = _ranks.aggregate(runs, "iqm")
        np.testing.assert_allclose(agg["estimate"], point)
        np.testing.assert_allclose(
            agg["estimate"],
            [stats.trim_mean(runs[:, :, k].ravel(), 0.25) for k in range(3)],
        )
        # the runs-only (rliable) interval is narrower than the two-level one
        runs_only = rep.aggregate("iqm", resample="runs")
        assert runs_only["target"].iloc[0] == "these datasets"
        assert (
            (runs_only["high"] - runs_only["low"]) < (agg["high"] - agg["low"])
        ).all()

    def test_lower_is_better(self):
        df = _runs_frame()
        df["err"] = 1 - df["acc"]
        up = BenchmarkReport.from_frame(
            df,
            score="acc",
            by="model",
            dataset="dataset",
            pair_by="seed",
            random_state=1,
        )
        down = BenchmarkReport.from_frame(
            df,
            score="err",
            by="model",
            dataset="dataset",
            pair_by="seed",
            greater_is_better=False,
            random_state=1,
        )
        pd.testing.assert_frame_equal(up.ranks(), down.ranks())
        a, b = up.aggregate("mean"), down.aggregate("mean")
        np.testing.assert_allclose(b["estimate"], 1 - a["estimate"])
        np.testing.assert_allclose(b["low"], 1 - a["high"])
        np.testing.assert_allclose(
            down.aggregate("optimality_gap")["estimate"],
            up.aggregate("optimality_gap")["estimate"],
        )

    def test_reproducible(self):
        kw = {"score": "acc", "by": "model", "dataset": "dataset", "random_state": 3}
        a = BenchmarkReport.from_frame(_runs_frame(), **kw)
        b = BenchmarkReport.from_frame(_runs_frame(), **kw)
        pd.testing.assert_frame_equal(a.ranks(), b.ranks())
        pd.testing.assert_frame_equal(
            a.bayesian_signed_rank(rope=0.01, n_samples=2000),
            b.bayesian_signed_rank(rope=0.01, n_samples=2000),
        )

    def test_unpaired_is_stated(self):
        rep = BenchmarkReport.from_frame(
            _runs_frame(), score="acc", by="model", dataset="dataset", random_state=0
        )
        assert not rep.paired
        assert rep.notes.codes() == ["unpaired_runs"]
        assert rep.notes[0].where == tuple(rep.datasets)

    def test_from_reports_equals_from_frame(self, runs_report):
        rep = BenchmarkReport(runs_report.reports, random_state=0)
        pd.testing.assert_frame_equal(rep.scores, runs_report.scores)
        assert rep.test().pvalue == runs_report.test().pvalue
        assert rep.decision_target == "this dataset"


class TestOutputs:
    def test_markdown(self, runs_report):
        md = runs_report.to_markdown()
        assert "| mean rank " in md
        assert "**" in md
        assert "target: this dataset" in md
        assert "target: new datasets" in md
        assert f"{runs_report.test().pvalue:.3g}" in md

    def test_html_is_self_contained(self, runs_report, tmp_path):
        pytest.importorskip("matplotlib")
        path = tmp_path / "bench.html"
        text = runs_report.to_html(path)
        assert path.read_text(encoding="utf-8") == text
        assert text.count("data:image/png;base64,") == 1
        assert "http" not in text.lower()
        for i in range(runs_report.n_datasets):
            assert f'href="#dataset-{i}"' in text
            assert f'id="dataset-{i}"' in text
        assert "Critical-difference diagram" in text
        assert "new datasets" in text

    def test_plot_cd(self, runs_report):
        pytest.importorskip("matplotlib")
        ax = runs_report.plot_cd()
        texts = [t.get_text() for t in ax.texts]
        cd = runs_report.test().critical_difference
        assert f"CD = {cd:.2f}" in texts
        rk = runs_report.ranks()
        for m in runs_report.models:
            r = rk.at[m, "mean_rank"]
            assert any(m in t and f"{r:.2f}" in t for t in texts)
        ax2 = runs_report.plot_cd(posthoc="holm", intervals=False)
        assert not any(t.startswith("CD =") for t in (x.get_text() for x in ax2.texts))

    def test_to_dict_is_json(self, runs_report):
        d = runs_report.to_dict()
        text = json.dumps(d)
        assert json.loads(text)["test"]["pvalue"] == runs_report.test().pvalue
        assert d["decision_target"] == "this dataset"
        assert d["ranks"][0]["target"] == "new datasets"

    def test_to_frame(self, runs_report):
        f = runs_report.to_frame()
        assert len(f) == runs_report.n_datasets * runs_report.n_models
        assert set(f["rank"]) <= {1.0, 2.0, 3.0}
        assert (f["n_runs"] == 6).all()
        assert f["target"].unique().tolist() == ["this dataset"]

    def test_repr_names_targets(self, runs_report):
        text = repr(runs_report)
        assert "target='this dataset'" in text
        assert "target='new datasets'" in text
        assert "target='new datasets'" in repr(runs_report.test())


class TestBadInput:
    def test_model_missing_on_a_dataset(self):
        df = _runs_frame()
        df = df[~((df["dataset"] == "d3") & (df["model"] == "c"))]
        msg = "model 'c' has no runs on dataset 'd3'"
        with pytest.raises(ValueError, match=re.escape(msg)):
            BenchmarkReport.from_frame(df, score="acc", by="model", dataset="dataset")

    def test_dataset_with_one_model(self):
        df = _runs_frame()
        df = df[~((df["dataset"] == "d2") & (df["model"] != "a"))]
        with pytest.raises(ValueError, match="has no runs on dataset 'd2'"):
            BenchmarkReport.from_frame(df, score="acc", by="model", dataset="dataset")

    def test_duplicate_pair_key_names_the_dataset(self):
        df = _runs_frame()
        df.loc[(df["dataset"] == "d1") & (df["model"] == "b"), "seed"] = 0
        with pytest.raises(ValueError, match=r"dataset 'd1': duplicate pair key"):
            BenchmarkReport.from_frame(
                df, score="acc", by="model", dataset="dataset", pair_by="seed"
            )

    def test_one_run_among_many(self):
        df = _runs_frame()
        drop = (df["dataset"] == "d0") & (df["model"] == "a") & (df["seed"] > 0)
        with pytest.raises(ValueError, match="model 'a' has 1 run on dataset 'd0'"):
            BenchmarkReport.from_frame(
                df[~drop], score="acc", by="model", dataset="dataset"
            )

    def test_one_model_or_dataset(self):
        df = _runs_frame()
        with pytest.raises(ValueError, match="at least 2 models"):
            BenchmarkReport.from_frame(
                df[df["model"] == "a"], score="acc", by="model", dataset="dataset"
            )
        with pytest.raises(ValueError, match="at least 2 datasets"):
            BenchmarkReport.from_frame(
                df[df["dataset"] == "d0"], score="acc", by="model", dataset="dataset"
            )

    def test_columns(self):
        df = _runs_frame()
        with pytest.raises(ValueError, match="`dataset` column 'x' not found"):
            BenchmarkReport.from_frame(df, score="acc", by="model", dataset="x")
        with pytest.raises(ValueError, match="must name different columns"):
            BenchmarkReport.from_frame(df, score="acc", by="model", dataset="model")

    @pytest.mark.parametrize(
        ("call", "msg"),
        [
            (lambda r: r.test(posthoc="bonferroni"), "`posthoc` must be one of"),
            (
                lambda r: r.test(control="a"),
                "`control` is only used with posthoc='holm'",
            ),
            (lambda r: r.test(posthoc="holm", control="z"), "`control` must be one of"),
            (lambda r: r.aggregate("max"), "`metric` must be one of"),
            (lambda r: r.aggregate("mean", threshold=1), "`threshold` is only used"),
            (lambda r: r.ranks(resample="seeds"), "`resample` must be one of"),
            (
                lambda r: r.bayesian_signed_rank("a"),
                "Give both `model_a` and `model_b`",
            ),
            (lambda r: r.bayesian_signed_rank("a", "a"), "the same model 'a'"),
            (
                lambda r: r.bayesian_signed_rank(rope=-1),
                "`rope` must be None or a non-negative float",
            ),
        ],
    )
    def test_methods(self, runs_report, call, msg):
        with pytest.raises(ValueError, match=re.escape(msg)):
            call(runs_report)

    def test_reports(self):
        with pytest.raises(TypeError, match="`reports` must be a non-empty dict"):
            BenchmarkReport({})
        with pytest.raises(TypeError, match=r"`reports\['x'\]` must be a ModelSelect"):
            BenchmarkReport({"x": 1})

    def test_reports_with_different_models(self):
        df = _runs_frame(D=2)
        x = ModelSelectionReport.from_frame(
            df[df["dataset"] == "d0"], score="acc", by="model", random_state=0
        )
        sub = df[(df["dataset"] == "d1") & (df["model"] != "c")]
        y = ModelSelectionReport.from_frame(
            sub, score="acc", by="model", random_state=0
        )
        with pytest.raises(ValueError, match="model 'c' is missing on dataset 'y'"):
            BenchmarkReport({"x": x, "y": y})

    def test_benchmark_input(self):
        from skperf import benchmark

        with pytest.raises(TypeError, match="`datasets` must be a dict of at least 2"):
            benchmark({"a": object(), "b": object()}, {"x": (1, 2)})
        with pytest.raises(
            TypeError, match=r"`datasets\['x'\]` must be a tuple \(X, y\)"
        ):
            benchmark({"a": object(), "b": object()}, {"x": 1, "y": 2})
        with pytest.raises(ValueError, match="`confidence` must be in"):
            benchmark(
                {"a": object(), "b": object()},
                {"x": (1, 2), "y": (1, 2)},
                confidence=95,
            )


def test_cli_summarize_dataset(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    _runs_frame().to_csv(path, index=False)
    out = tmp_path / "bench.html"
    code = main(
        [
            "summarize",
            str(path),
            "--score",
            "acc",
            "--by",
            "model",
            "--dataset",
            "dataset",
            "--pair-by",
            "seed",
            "--out",
            str(out),
            "--random-state",
            "0",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    ref = BenchmarkReport.from_frame(
        _runs_frame(),
        score="acc",
        by="model",
        dataset="dataset",
        pair_by="seed",
        random_state=0,
    )
    assert "3 models on 8 datasets, 144 runs; paired by seed" in text
    r = ref.ranks()
    assert f"{r['mean_rank'].iloc[0]:.2f} [{r['low'].iloc[0]:.2f}" in text
    assert f"p = {ref.test().pvalue:.3g}" in text
    assert out.exists()
    code = main(["summarize", str(path), "--score", "acc", "--dataset", "dataset"])
    assert code == 2
    assert "--dataset needs --by" in capsys.readouterr().err
