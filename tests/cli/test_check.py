"""`skperf check`: the release gate, run as a subprocess like a CI step.

Every exit code (0 met, 1 not met, 3 inconclusive, 2 usage error) and every
kind of bad input, each reported in one line without a traceback.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from skperf import PerformanceDistribution
from skperf.cli import main

from .conftest import call_main, run_skperf


def _check(*args, cwd):
    return run_skperf("check", *args, cwd=cwd, warnings="error", timeout=120)


def _check_in_process(capsys, *args):
    """``main(["check", ...])``: the code path of the subprocess, no start-up."""
    return call_main(["check", *args], capsys)


@pytest.fixture
def scores_csv(tmp_path):
    acc = np.random.default_rng(0).normal(0.93, 0.01, size=60)
    frame = pd.DataFrame(
        {"seed": np.arange(60), "accuracy": acc, "log_loss": 1 - acc, "model": "m"}
    )
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    return path


def _one_line(text):
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert not lines[0].endswith("…")  # the whole message (issue 29, item 16)
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.parametrize(
    ("args", "code", "verdict"),
    [
        (["--threshold", 0.9], 0, "MET"),
        (["--threshold", 0.95], 1, "NOT MET"),
        (["--threshold", 0.931, "--probability", 0.5], 3, "INCONCLUSIVE"),
        pytest.param(
            ["--threshold", 0.9, "--probability", 0.99],
            3,
            "INCONCLUSIVE",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_exit_codes(scores_csv, tmp_path, args, code, verdict):
    # a real `python -m skperf check` per exit code, as a CI step runs it
    res = _check(scores_csv, "--score", "accuracy", *args, cwd=tmp_path)
    assert res.returncode == code, res.stderr
    line = _one_line(res.stdout)
    assert line.startswith(verdict + ":")
    assert "n = 60" in line
    assert res.stderr == ""
    # the verdict is the library's
    x = pd.read_csv(scores_csv)["accuracy"].to_numpy()
    kw = dict(zip(args[::2], args[1::2], strict=True))
    r = PerformanceDistribution(x).requirement(
        kw["--threshold"], probability=kw.get("--probability", 0.9)
    )
    assert r.exit_code == code
    assert f"{r.bound:.6g}" in line


def test_inconclusive_names_runs_needed(scores_csv, tmp_path, capsys):
    frame = pd.read_csv(scores_csv).iloc[:20]
    path = tmp_path / "few.csv"
    frame.to_csv(path, index=False)
    res = _check_in_process(capsys, path, "--score", "accuracy", "--threshold", 0.9)
    assert res.returncode == 3
    assert "at least 29 runs needed" in _one_line(res.stdout)


def test_lower_is_better(scores_csv, capsys):
    args = [scores_csv, "--score", "log_loss", "--lower-is-better", "--threshold"]
    res = _check_in_process(capsys, *args, 0.1)
    assert res.returncode == 0
    line = _one_line(res.stdout)
    assert "P(log_loss <= 0.1) >= 0.9" in line
    assert "upper bound of the 0.9-quantile" in line
    assert _check_in_process(capsys, *args, 0.06).returncode == 1


def test_confidence_changes_verdict(tmp_path, capsys):
    # 58 of 60 meet: met at 0.8 confidence, not at 0.95 (Clopper-Pearson)
    x = np.r_[np.full(58, 0.95), np.full(2, 0.85)]
    path = tmp_path / "s.csv"
    pd.DataFrame({"acc": x}).to_csv(path, index=False)
    for conf in (0.8, 0.95):
        res = _check_in_process(
            capsys, path, "--score", "acc", "--threshold", 0.9, "--confidence", conf
        )
        low = stats.binomtest(58, 60, alternative="greater").proportion_ci(conf).low
        assert (res.returncode == 0) == (low >= 0.9)
    assert low < 0.9  # 0.95: not met at this confidence, 0.8: met
    assert res.returncode == 3


#: the arguments of a good call, in the table of usage errors below
ACCURACY = ["--score", "accuracy", "--threshold", 0.9]
COLUMN = "score column 'accuracy'"


def _bad(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        ("missing_file", ACCURACY, "scores file not found"),
        ("good", ["--score", "acc", *ACCURACY[2:]], "--score 'acc' is not a column of"),
        (
            "text",
            ACCURACY,
            f"{COLUMN} is not numeric: 1 value(s) are not numbers, first 'high' in row 2.",
        ),
        ("empty_cell", ACCURACY, f"{COLUMN} has 1 missing value(s), first in row 2"),
        ("nan", ACCURACY, f"{COLUMN} has 1 missing value(s), first in row 2"),
        ("inf", ACCURACY, f"{COLUMN} has a non-finite value (inf) in row 3."),
        ("one_row", ACCURACY, "has 1 run; at least 2 are needed"),
        ("empty", ACCURACY, "cannot read"),
        ("good", ACCURACY[:2], "required: --threshold"),
        ("good", [*ACCURACY[:3], "high"], "invalid float value"),
        (
            "good",
            [*ACCURACY, "--probability", 90],
            "--probability must be in (0, 1); got 90 (did you mean 0.9?)",
        ),
        ("good", [*ACCURACY, "--confidence", 0], "--confidence must be in (0, 1)"),
        ("good", [*ACCURACY[:3], "nan"], "--threshold must be finite"),
    ],
)
@pytest.mark.parametrize(
    "subprocess_run",
    [False, pytest.param(True, marks=pytest.mark.slow)],
    ids=["in-process", "subprocess"],
)
def test_usage_errors(
    scores_csv, tmp_path, capsys, setup, args, message, subprocess_run
):
    files = {
        "missing_file": tmp_path / "nope.csv",
        "good": scores_csv,
        "text": _bad(tmp_path, "t.csv", "accuracy\n0.9\nhigh\n0.8\n"),
        "empty_cell": _bad(tmp_path, "e.csv", "accuracy,seed\n0.9,1\n,2\n0.8,3\n"),
        "nan": _bad(tmp_path, "n.csv", "accuracy\n0.9\nnan\n0.8\n"),
        "inf": _bad(tmp_path, "i.csv", "accuracy\n0.9\n0.7\ninf\n"),
        "one_row": _bad(tmp_path, "o.csv", "accuracy\n0.9\n"),
        "empty": _bad(tmp_path, "z.csv", ""),
    }
    if subprocess_run or setup == "missing_file":
        res = _check(files[setup], *args, cwd=tmp_path)
    else:  # the same code path without the interpreter start (seconds each)
        res = _check_in_process(capsys, files[setup], *args)
    assert res.returncode == 2
    line = _one_line(res.stderr)
    assert line.startswith("skperf check: error: ")
    assert message in line
    assert res.stdout == ""


def test_in_process(scores_csv, capsys):
    assert (
        main(["check", str(scores_csv), "--score", "accuracy", "--threshold", "0.9"])
        == 0
    )
    assert capsys.readouterr().out.startswith("MET:")
    # a usage error: status 2 returned, as by every subcommand (argparse's
    # own errors exit with SystemExit(2))
    assert (
        main(["check", str(scores_csv), "--score", "nope", "--threshold", "0.9"]) == 2
    )


class TestReportRequire:
    def test_parse(self):
        from skperf.cli._common import _CLIError
        from skperf.cli._report import _parse_require

        assert _parse_require("0.9@0.95") == (0.9, 0.95)
        assert _parse_require("0.9") == (0.9, 0.9)
        assert _parse_require(None) is None
        with pytest.raises(_CLIError, match="THRESHOLD@PROBABILITY"):
            _parse_require("high@0.9")
        with pytest.raises(_CLIError, match="must be in"):
            _parse_require("0.9@90")

    def test_report_verdict_per_model(self):
        from skperf import ModelSelectionReport

        rng = np.random.default_rng(0)
        dists = {
            "a": PerformanceDistribution(rng.normal(0.93, 0.01, 40)),
            "b": PerformanceDistribution(rng.normal(0.91, 0.01, 40)),
        }
        report = ModelSelectionReport(
            dists, random_state=0, requirement=(0.9, 0.9), target="this dataset"
        )
        assert {k: r.verdict for k, r in report.requirements.items()} == {
            "a": "met",
            "b": "inconclusive",
        }
        frame = report.to_frame()
        assert frame["requirement"].tolist() == ["met", "inconclusive"]
        assert frame.loc["a", "requirement_bound"] == report.requirements["a"].bound
        assert "- a: met (40/40 runs meet it)" in report.to_markdown()
        assert "<li>b: inconclusive (33/40 runs meet it)</li>" in report.to_html()
        no_req = ModelSelectionReport(dists, random_state=0, target="this dataset")
        assert "requirement" not in no_req.to_frame()
        assert "Requirement" not in no_req.to_markdown()

    def test_cli_report_require(self, tmp_path, capsys):
        from sklearn.datasets import make_classification

        X, y = make_classification(n_samples=80, n_features=4, random_state=0)
        frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
        frame["y"] = y
        data = tmp_path / "d.csv"
        frame.to_csv(data, index=False)
        argv = ["report", "--data", str(data), "--target", "y", "--n-repeats", "3"]
        argv += ["--model", "lr=sklearn.linear_model.LogisticRegression"]
        argv += [
            "--random-state",
            "0",
            "--n-jobs",
            "1",
            "--out",
            str(tmp_path / "r.html"),
        ]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert main([*argv, "--require", "0.5@0.6"]) == 0
        out = " ".join(capsys.readouterr().out.split())
        # the verdict line of `skperf check`, per model, on the report's metric
        assert (
            "requirement: lr: INCONCLUSIVE: P(accuracy >= 0.5) >= 0.6 at 0.95 "
            "confidence; 3/3 runs meet it" in out
        )


class TestScoresFromAnywhere:
    """Issue 17 items 1, 2, 3, 10, 18: check judges one model, one run per row."""

    @pytest.fixture
    def two_models(self, tmp_path):
        # the candidate fails alone (5 of 10 runs reach 0.9); pooled with a
        # baseline's 200 passing runs the old check said MET (205/210, exit 0)
        cand = np.r_[np.full(5, 0.95), np.full(5, 0.85)]
        base = np.full(200, 0.95)
        frame = pd.DataFrame(
            {
                "model": ["cand"] * 10 + ["base"] * 200,
                "seed": np.r_[np.arange(10), np.arange(200)],
                "acc": np.r_[cand, base],
            }
        )
        path = tmp_path / "two.csv"
        frame.to_csv(path, index=False)
        return path

    def test_pooled_models_refused(self, two_models, capsys):
        res = _check_in_process(
            capsys, two_models, "--score", "acc", "--threshold", 0.9
        )
        assert res.returncode == 2
        line = _one_line(res.stderr)
        assert "holds 2 models in column 'model' ('cand', 'base')" in line
        assert "--by model --model NAME" in line
        assert res.stdout == ""
        # --by without --model: the same refusal
        res = _check_in_process(
            capsys, two_models, "--score", "acc", "--threshold", 0.9, "--by", "model"
        )
        assert res.returncode == 2
        assert "name it with --model NAME" in res.stderr

    def test_named_model_is_judged_alone(self, two_models, capsys):
        args = [two_models, "--score", "acc", "--threshold", 0.9]
        res = _check_in_process(capsys, *args, "--by", "model", "--model", "cand")
        assert res.returncode == 1  # NOT MET, as the candidate's runs alone
        line = _one_line(res.stdout)
        assert line.startswith("NOT MET: P(acc of cand >= 0.9)")
        assert "5/10 runs meet it" in line
        r = PerformanceDistribution(np.r_[np.full(5, 0.95), np.full(5, 0.85)])
        assert r.requirement(0.9).verdict == "not met"
        # --model alone finds the column named "model"
        res = _check_in_process(capsys, *args, "--model", "base")
        assert res.returncode == 0
        assert "200/200 runs meet it" in res.stdout
        res = _check_in_process(capsys, *args, "--by", "model", "--model", "nope")
        assert res.returncode == 2
        assert "--model 'nope' is not in column 'model'; it has 'cand', 'base'" in (
            res.stderr
        )

    def test_duplicate_rows_refused(self, tmp_path, capsys):
        # 20 runs: inconclusive (29 needed); the same 20 appended twice said MET
        frame = pd.DataFrame({"seed": np.arange(20), "acc": np.full(20, 0.95)})
        once = tmp_path / "once.csv"
        frame.to_csv(once, index=False)
        twice = tmp_path / "twice.csv"
        pd.concat([frame, frame]).to_csv(twice, index=False)
        res = _check_in_process(capsys, once, "--score", "acc", "--threshold", 0.9)
        assert res.returncode == 3
        res = _check_in_process(capsys, twice, "--score", "acc", "--threshold", 0.9)
        assert res.returncode == 2
        line = _one_line(res.stderr)
        assert "20 row(s) repeat an earlier row exactly (row 21 repeats row 1)" in line

    def test_fold_rows_need_repeat_by(self, tmp_path, capsys):
        # results_ of cv=5 x 8 repeats: 40 fold rows said MET with n = 40
        rng = np.random.default_rng(0)
        frame = pd.DataFrame(
            {
                "repeat": np.repeat(np.arange(8), 5),
                "fold": np.tile(np.arange(5), 8),
                "test_score": rng.uniform(0.92, 0.99, 40),
            }
        )
        path = tmp_path / "results.csv"
        frame.to_csv(path, index=False)
        args = [path, "--score", "test_score", "--threshold", 0.9]
        res = _check_in_process(capsys, *args)
        assert res.returncode == 2
        line = _one_line(res.stderr)
        assert "column 'fold' has 5 values for model 'test_score'" in line
        assert "pass --repeat-by 'repeat'" in line
        res = _check_in_process(capsys, *args, "--repeat-by", "repeat")
        assert res.returncode == 3  # 8 repeats: inconclusive (29 needed)
        line = _one_line(res.stdout)
        assert "8/8 runs meet it" in line
        assert "n = 8" in line
        assert "(runs: one per repeat, its folds averaged)" in line

    def test_percent_accuracy_refused(self, tmp_path, capsys):
        path = tmp_path / "pct.csv"
        pd.DataFrame({"accuracy": [90.88, 91.5, 89.2, 92.0]}).to_csv(path, index=False)
        res = _check_in_process(capsys, path, "--score", "accuracy", "--threshold", 90)
        assert res.returncode == 2
        line = _one_line(res.stderr)
        assert "must lie in [0, 1]; got 90.88 (4 of 4 outside)" in line
        assert "divide the scores by 100 (90.88 -> 0.9088)" in line

    def test_loss_name_sets_lower_is_better(self, scores_csv, capsys):
        # log_loss = 1 - acc, about 0.07: "at most 0.1" holds for every run
        args = [scores_csv, "--score", "log_loss", "--threshold", 0.1]
        res = _check_in_process(capsys, *args)
        assert res.returncode == 0
        assert "P(log_loss <= 0.1) >= 0.9" in _one_line(res.stdout)
        # the old default (greater is better) said NOT MET; now it needs the flag
        res = _check_in_process(capsys, *args, "--greater-is-better")
        assert res.returncode == 2
        line = _one_line(res.stderr)
        assert "'log_loss' is a loss (lower is better)" in line
        assert "pass --lower-is-better" in line

    def test_rows_counted_as_summarize(self, tmp_path, capsys):
        path = _bad(tmp_path, "n.csv", "seed,accuracy\n0,0.9\n1,nan\n2,0.8\n")
        res = _check_in_process(capsys, path, "--score", "accuracy", "--threshold", 0.9)
        check_line = _one_line(res.stderr)
        code = main(["summarize", str(path), "--score", "accuracy"])
        summarize_line = _one_line(capsys.readouterr().err)
        assert code == 2
        text = "score column 'accuracy' has 1 missing value(s), first in row 2"
        assert text in check_line
        assert text in summarize_line
