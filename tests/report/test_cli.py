import base64
import os
import subprocess
import sys
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

from skperf._cli import main


class _Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.imgs, self.text = [], []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.imgs.append(dict(attrs)["src"])

    def handle_data(self, data):
        self.text.append(data)


def _run(*args, cwd):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run(
        [sys.executable, "-m", "skperf", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def _table_rows(stdout):
    rows = {}
    for line in stdout.splitlines():
        if line.startswith("| ") and not line.startswith("| model"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells
    return rows


@pytest.fixture
def csv_file(tmp_path):
    X, y = make_classification(
        n_samples=120, n_features=4, n_informative=3, n_redundant=0, random_state=0
    )
    frame = pd.DataFrame(X, columns=["f1", "f2", "f3", "f4"])
    frame["label"] = np.where(y == 1, "yes", "no")
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    return path


def test_default_run_end_to_end(tmp_path):
    res = _run(
        "report",
        "--n-repeats",
        "3",
        "--random-state",
        "0",
        "--n-jobs",
        "1",
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "breast cancer" in out
    assert "569 samples, 30 features" in out
    assert "n_repeats=3" in out
    assert "scoring=accuracy" in out  # the default models' score, named
    assert "random_state=0" in out
    rows = _table_rows(out)
    assert set(rows) == {"logistic_regression", "random_forest", "gradient_boosting"}
    assert all(r[1] == "3" for r in rows.values())
    assert "wrote report.html" in out
    assert "fits" in res.stderr  # the progress bar
    assert "9/9" in res.stderr  # one bar over all 3 models x 3 repeats
    assert (
        "note: n = 3 per model is below the Noether sample size 29 for gamma = 0.75"
        in out
    )
    assert "Traceback" not in res.stderr
    # text wraps (tables excepted): the models line was 1,500 characters
    assert max(len(x) for x in out.splitlines() if not x.startswith("|")) <= 100
    # no model contains a search: the header does not claim one was varied
    assert "not search: no model contains a hyperparameter search" in out
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "http" not in html.lower()
    parser = _Images()
    parser.feed(html)
    assert len(parser.imgs) == 1
    assert base64.b64decode(parser.imgs[0].split(",", 1)[1])[:4] == b"\x89PNG"
    text = " ".join(parser.text)
    assert "Model comparison: accuracy" in text
    assert "logistic_regression" in text
    # what was varied, n per model, confidence, gamma, correction and seeds
    for setting, value in [
        (
            "varied per repeat",
            "split, init (not search: no model contains a hyperparameter search)",
        ),
        ("repeats", "3"),
        ("scores per model (n)", "3"),
        ("confidence", "0.95"),
        ("gamma (meaningful P(A > B))", "0.75"),
        ("multiple-comparison correction", "holm"),
        ("random_state (seed entropy)", "0"),
    ]:
        assert f"{setting} {value}" in " ".join(t.strip() for t in parser.text)


def test_csv_run_end_to_end(tmp_path, csv_file):
    out_path = tmp_path / "out.html"
    res = _run(
        "report",
        "--data",
        str(csv_file),
        "--target",
        "label",
        "--model",
        "lr=sklearn.linear_model.LogisticRegression",
        "--model",
        "dummy=sklearn.dummy.DummyClassifier",
        "--scoring",
        "accuracy",
        "--n-repeats",
        "10",
        "--random-state",
        "1",
        "--n-jobs",
        "1",
        "--correction",
        "bonferroni",
        "--confidence",
        "0.9",
        "--out",
        str(out_path),
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    assert "data.csv (target 'label'): 120 samples, 4 features" in res.stdout
    rows = _table_rows(res.stdout)
    assert list(rows) == ["lr", "dummy"]
    assert rows["lr"][4] == "–"
    assert rows["lr"][5] == "yes"
    assert rows["dummy"][5] == "no"  # always-majority is significantly worse
    assert "best: lr" in res.stdout
    html = out_path.read_text(encoding="utf-8")
    assert "bonferroni" in html
    assert "90% CI" in html
    assert "accuracy" in html


def test_reproducible_in_process(csv_file, capsys):
    args = [
        "report",
        "--data",
        str(csv_file),
        "--target",
        "label",
        "--model",
        "tree=sklearn.tree.DecisionTreeClassifier",
        "--model",
        "lr=sklearn.linear_model.LogisticRegression",
        "--n-repeats",
        "4",
        "--random-state",
        "7",
        "--n-jobs",
        "1",
        "--out",
        os.devnull,
    ]
    assert main(args) == 0
    first = _table_rows(capsys.readouterr().out)
    assert main(args) == 0
    assert _table_rows(capsys.readouterr().out) == first
    assert set(first) == {"tree", "lr"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--data", "missing.csv", "--target", "y"],
            "data file not found: missing.csv",
        ),
        (
            ["--data", "{csv}", "--target", "nope"],
            "--target 'nope' is not a column of data.csv; it has 5 columns: f1, f2, "
            "f3, f4, ...",
        ),
        (["--data", "{csv}"], "--target COLUMN is required with --data"),
        (["--target", "y"], "--target needs --data CSV"),
        (
            ["--model", "x=sklearn.nothing.Here"],
            (
                "--model x: unknown model path 'sklearn.nothing.Here' (cannot import module "
                "'sklearn.nothing'"
            ),
        ),
        (
            ["--model", "x=sklearn.linear_model.Nope"],
            (
                "--model x: unknown model path 'sklearn.linear_model.Nope' (module "
                "'sklearn.linear_model' has no attribute 'Nope')"
            ),
        ),
        (
            ["--model", "x=os.path.join"],
            "--model x: 'os.path.join' is not an estimator class",
        ),
        (
            ["--model", "x"],
            "--model must look like NAME=dotted.path.Estimator; got 'x'",
        ),
        (["--model", "x=__import__('os')"], "is not a dotted path"),
        (
            [
                "--model",
                "a=sklearn.dummy.DummyClassifier",
                "--model",
                "a=sklearn.dummy.DummyClassifier",
            ],
            "--model name 'a' given twice",
        ),
        (["--scoring", "acuracy"], "unknown --scoring 'acuracy'"),
        (["--confidence", "95"], "Did you mean 0.95?"),
        (["--gamma", "0.3"], "must be in (0.5, 1)"),
        (["--n-repeats", "1"], "--n-repeats must be at least 2; got 1"),
    ],
)
def test_errors_are_one_line(args, message, csv_file, capsys):
    args = [a.replace("{csv}", str(csv_file)) for a in args]
    message = message.replace("{csv}", str(csv_file))
    assert main(["report", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skperf report: error: ")
    assert message in err
    assert err.count("\n") == 1


def test_non_numeric_features_named(tmp_path, capsys):
    frame = pd.DataFrame(
        {
            "num": np.arange(40.0),
            "color": ["red", "blue"] * 20,
            "city": ["a", "b", "c", "d"] * 10,
            "target": [0, 1] * 20,
        }
    )
    path = tmp_path / "mixed.csv"
    frame.to_csv(path, index=False)
    model = "lr=sklearn.linear_model.LogisticRegression"
    args = ["report", "--data", str(path), "--target", "target", "--model", model]
    assert main([*args, "--no-preprocess"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "skperf report: error: model 'lr' (LogisticRegression) "
        "cannot take the non-numeric feature column(s) color, city"
    )
    assert err.count("\n") == 1


def test_default_models_encode_categorical_columns_and_see_regression(tmp_path, capsys):
    # a whole-number target with many values (like load_diabetes read from a
    # CSV) is a regression target; the default models one-hot encode text
    rng = np.random.default_rng(0)
    n = 60
    frame = pd.DataFrame(
        {"num": rng.normal(size=n), "region": rng.choice(["n", "s", "e"], n)}
    )
    frame["target"] = np.round(100 + 30 * frame["num"] + rng.normal(0, 5, n))
    path = tmp_path / "reg.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "r.html"
    args = ["--data", str(path), "--target", "target", "--n-repeats", "2"]
    assert main(["report", *args, "--n-jobs", "1", "--out", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "60 samples, 2 features, regression target" in stdout
    assert "scoring=r2" in stdout
    assert set(_table_rows(stdout)) == {"ridge", "random_forest", "gradient_boosting"}
    flat = " ".join(stdout.split())  # long lines wrap
    assert "OneHotEncoder(handle_unknown='ignore', sparse_output=False)" in flat
    mean = float(_table_rows(stdout)["ridge"][2].split()[0])
    assert mean > 0.8


def test_error_via_subprocess_has_no_traceback(tmp_path):
    res = _run("report", "--data", "nowhere.csv", "--target", "y", cwd=tmp_path)
    assert res.returncode == 2
    assert res.stderr == "skperf report: error: data file not found: nowhere.csv\n"
    assert res.stdout == ""


def test_subcommand_required(capsys):
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2
    assert "required" in capsys.readouterr().err
