import base64
import os
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

from skperf.cli import _models, main

from .conftest import call_main, run_skperf


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
    return run_skperf(*args, cwd=cwd, warnings="ignore")


def _call(args, capsys):
    """Exit status, stdout and stderr of ``main(args)`` (argparse exits too)."""
    res = call_main(args, capsys)
    return res.returncode, res.stdout, res.stderr


LR = "lr=sklearn.linear_model.LogisticRegression"
DUMMY = "dummy=sklearn.dummy.DummyClassifier"
D = "d=sklearn.dummy.DummyClassifier"


def _report_args(data=None, target=None, *, models=(), **options):
    """``report --data DATA --target TARGET --model M ... --OPTION VALUE ...``.

    An option ``n_repeats=2`` is ``--n-repeats 2``; ``True`` a bare flag.
    """
    args = ["report"]
    if data is not None:
        args += ["--data", str(data), "--target", target]
    for model in models:
        args += ["--model", model]
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        args += [flag] if value is True else [flag, str(value)]
    return args


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
    args = _report_args(n_repeats=1, folds=3, random_state=0, n_jobs=1)
    res = _run(*args, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "breast cancer" in out
    assert "569 samples, 30 features" in out
    assert "n_repeats=1 x 3-fold per model" in out
    assert "decisions on new data; scoring=accuracy" in out  # the score, named
    assert "random_state=0" in out
    # the first sentence of the results answers "which model, on new data"
    results = out.split("random_state=0 (pass --random-state 0 to reproduce)\n")[1]
    first = " ".join(results.split("|")[0].split())
    assert first.startswith(
        "On new data (each algorithm trained on about 379 of the 569 rows from the same "
        "population), choose "
    )
    assert "(95% CI, corrected-t)" in first
    rows = _table_rows(out)
    assert set(rows) == {"logistic_regression", "random_forest", "gradient_boosting"}
    header = next(x for x in out.splitlines() if x.startswith("| model"))
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "model",
        "accuracy, new data [95% CI]",
        "best - model [95% CI, holm-adjusted]",
        "p adj. (holm, 3 pairs)",
        "tied with best",
        "run-to-run mean, this dataset [95% CI]",
    ]
    best = next(n for n, r in rows.items() if r[2] == "–")
    assert f"choose {best}:" in first
    assert "wrote report.html" in out
    assert "fits" in res.stderr  # the progress bar
    assert "9/9" in res.stderr  # one bar over all 3 models x 3 folds
    assert "Noether" not in out  # a run-to-run notion: not for new-data decisions
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
    assert "On new data" in text
    for setting, value in [
        (
            "varied per repeat",
            "split, init (not search: no model contains a hyperparameter search)",
        ),
        ("repeats", "1"),
        ("target of the decisions", "new data"),
        ("confidence", "0.95"),
        ("multiple-comparison correction", "holm"),
        ("random_state (seed entropy)", "0"),
    ]:
        assert f"{setting} {value}" in " ".join(t.strip() for t in parser.text)


def _lr_vs_dummy(csv_file, **options):
    """Logistic regression against the majority class on ``csv_file``, seed 1."""
    return _report_args(
        csv_file, "label", models=(LR, DUMMY), random_state=1, n_jobs=1, **options
    )


def test_csv_run_end_to_end(tmp_path, csv_file):
    out_path = tmp_path / "out.html"
    args = _lr_vs_dummy(csv_file, n_repeats=2, folds=5, scoring="accuracy")
    args += ["--correction", "bonferroni", "--confidence", "0.9", "--out", out_path]
    res = _run(*args, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "data.csv (target 'label'): 120 samples, 4 features" in res.stdout
    rows = _table_rows(res.stdout)
    assert list(rows) == ["lr", "dummy"]
    assert rows["lr"][2] == "–"
    assert rows["lr"][4] == "yes"
    assert rows["dummy"][4] == "no"  # always-majority is significantly worse
    assert float(rows["dummy"][3]) < 0.1  # bonferroni-adjusted, below 1 - 0.9
    assert "choose lr:" in " ".join(res.stdout.split())
    html = out_path.read_text(encoding="utf-8")
    assert "bonferroni" in html
    assert "90% CI" in html
    assert "accuracy" in html


def test_this_dataset_keeps_the_run_to_run_decisions(tmp_path, csv_file):
    args = _lr_vs_dummy(csv_file, decide_on="this-dataset", n_repeats=10)
    res = _run(*args, "--out", tmp_path / "o.html", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "n_repeats=10 per model, one out-of-bootstrap split per repeat" in out
    assert "decisions on this dataset;" in out
    rows = _table_rows(out)
    assert rows["lr"][1] == "10"
    assert rows["lr"][5] == "yes"
    assert rows["dummy"][5] == "no"
    assert "best: lr" in out
    assert "note: n = 10 per model is below the Noether sample size 35" in out
    assert "20/20" in res.stderr  # 2 models x 10 out-of-bootstrap repeats


def test_decide_on_options(tmp_path, csv_file, capsys):
    base = _report_args(csv_file, "label")
    code, _, err = _call([*base, "--decide-on", "this-dataset", "--folds", "5"], capsys)
    assert code == 2
    assert "--folds is for --decide-on new-data" in err
    code, _, err = _call([*base, "--folds", "1"], capsys)
    assert code == 2
    assert "--folds must be at least 2; got 1" in err
    code, _, err = _call([*base, "--decide-on", "new"], capsys)
    assert code == 2
    assert "invalid choice: 'new'" in err


def test_reproducible_in_process(csv_file, capsys):
    args = _report_args(
        csv_file,
        "label",
        models=("tree=sklearn.tree.DecisionTreeClassifier", LR),
        n_repeats=2,
        folds=3,
        random_state=7,
        n_jobs=1,
        out=os.devnull,
    )
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
            (
                "--target 'nope' is not a column of data.csv; it has 5 columns: f1, f2, "
                "f3, f4, ..."
            ),
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
        (
            ["--scoring", "acuracy"],
            "'acuracy' is not a scikit-learn scorer name. Did you mean 'accuracy'",
        ),
        (
            ["--confidence", "95"],
            "--confidence must be in (0, 1); got 95 (did you mean 0.95?)",
        ),
        (["--gamma", "0.3"], "must be in (0.5, 1)"),
        (["--n-repeats", "0"], "--n-repeats must be at least 1; got 0"),
        (["--require", "nan@0.9"], "--require: the threshold must be finite; got nan"),
        (["--require=-inf"], "--require: the threshold must be finite; got -inf"),
        (
            ["--require", "0.9@90"],
            "--require: the probability must be in (0, 1); got 90",
        ),
        (["--require", "0.9@"], "--require must look like THRESHOLD@PROBABILITY"),
        (["--require", "high"], "--require must look like THRESHOLD@PROBABILITY"),
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
    args = _report_args(path, "target", models=(LR,), no_preprocess=True)
    assert main(args) == 2
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
    args = _report_args(path, "target", n_repeats=2, folds=3, n_jobs=1, out=out)
    assert main(args) == 0
    stdout = capsys.readouterr().out
    assert "60 samples, 2 features, regression target" in stdout
    assert "scoring=r2" in stdout
    assert set(_table_rows(stdout)) == {"ridge", "random_forest", "gradient_boosting"}
    flat = " ".join(stdout.split())  # long lines wrap
    assert "OneHotEncoder(handle_unknown='ignore', sparse_output=False)" in flat
    mean = float(_table_rows(stdout)["ridge"][1].split()[0])  # new data
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


# ----------------------------------------------------------------------
# Issue 9, item 11: bad input fails before any fit, in one line, exit 2

SLOW = "slow=skperf.utils._testing.SlowClassifier(delay=30)"  # 30 s per fit


@pytest.fixture
def wide_csv(tmp_path):
    # 40 long column names: naming them all made a 454-character line
    rng = np.random.default_rng(0)
    cols = {
        f"measurement_{i:02d}_with_a_long_name": rng.normal(size=30) for i in range(40)
    }
    frame = pd.DataFrame(cols)
    frame["outcome"] = np.r_[[0, 1] * 15]
    frame["price"] = rng.normal(100, 10, 30)
    frame["word"] = ["a", "b", "c"] * 10
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    return path


def _bad_inputs(tmp_path, csv, wide):
    (tmp_path / "adir").mkdir(exist_ok=True)
    data = ["--data", str(wide)]
    linear = "linear=sklearn.linear_model.LinearRegression"
    logistic = "logistic=sklearn.linear_model.LogisticRegression"
    tree = "sklearn.tree.DecisionTreeClassifier"
    return [
        (["--random-state", "-1"], "--random-state must be an integer >= 0; got -1"),
        (
            ["--out", str(tmp_path / "nowhere" / "r.html")],
            "folder '" + str(tmp_path / "nowhere") + "' does not exist",
        ),
        (["--out", str(tmp_path / "adir")], "is a folder; give a file name"),
        (["--n-jobs", "0"], "--n-jobs must be a positive number of jobs"),
        (["--n-repeats", "ten"], "argument --n-repeats: invalid int value: 'ten'"),
        (["--task", "ordinal"], "argument --task: invalid choice: 'ordinal'"),
        (
            [*data, "--target", "nosuch"],
            (
                "--target 'nosuch' is not a column of wide.csv; it has 43 columns: "
                "measurement_00_with…, measurement_01_with…, measurement_02_with…, "
                "measurement_03_with…, ..."
            ),
        ),
        (
            [*data, "--target", "Outcome"],
            (
                "--target 'Outcome' is not a column of wide.csv; did you mean 'outcome'? "
                "it has 43 columns"
            ),
        ),
        (
            [*data, "--target", "outcome", "--drop", "nope"],
            "--drop 'nope' is not a column",
        ),
        ([*data, "--target", "outcome", "--drop", "outcome"], "is the --target column"),
        (
            [*data, "--target", "word", "--task", "regression"],
            "--task regression needs a numeric target; 'word' has values such as 'a'",
        ),
        (
            [*data, "--target", "price", "--task", "classification"],
            "--task classification on target 'price' with fractional values",
        ),
        (
            ["--model", f"t={tree}(max_depth=three)"],
            (
                "--model t: max_depth=three is not a Python literal (quote text: "
                "max_depth='three'"
            ),
        ),
        (
            ["--model", f"t={tree}:max_depth='3'"],
            "--model t: The 'max_depth' parameter of DecisionTreeClassifier must be",
        ),
        (
            ["--model", f"t={tree}(depth=3)"],
            "unexpected keyword argument 'depth'",
        ),
        (["--model", f"t={tree}(3)"], "takes keyword arguments only"),
        (["--model", f"t={tree}(max_depth=(lambda: 3)())"], "is not a dotted path"),
        (
            # a classifier and a regressor (their own scores: accuracy vs R²)
            ["--model", logistic, "--model", linear],
            (
                "--model linear: LinearRegression is a regressor, but the data has a "
                "classification target; use a classifier or --task regression"
            ),
        ),
        (
            [*data, "--target", "price", "--model", logistic],
            (
                "--model logistic: LogisticRegression is a classifier, but the data has a "
                "regression target; use a regressor or --task classification"
            ),
        ),
    ]


def test_bad_input_fails_fast_in_one_line(tmp_path, csv_file, wide_csv, capsys):
    import time

    for args, message in _bad_inputs(tmp_path, csv_file, wide_csv):
        # a 30-second model is given too: an error after any fit would take > 30 s
        start = time.perf_counter()
        code, out, err = _call(["report", *args, "--model", SLOW], capsys)
        elapsed = time.perf_counter() - start
        assert code == 2, (args, err)
        assert elapsed < 3, (args, elapsed)
        assert err.startswith("skperf report: error: "), (args, err)
        assert err.count("\n") == 1, (args, err)
        assert len(err) <= 240, (args, len(err))  # whole (issue 29, item 16)
        assert message in err, (args, err)
        assert "Traceback" not in err
        assert out == ""


def test_bad_random_state_via_subprocess(tmp_path):
    res = _run("report", "--random-state", "-1", cwd=tmp_path)
    assert res.returncode == 2
    assert res.stderr == (
        "skperf report: error: --random-state must be an integer >= 0; got -1\n"
    )


def test_version(capsys):
    from skperf import __version__

    code, out, _ = _call(["--version"], capsys)
    assert code == 0
    assert out == f"skperf {__version__}\n"


def test_help_documents_the_options(capsys):
    code, out, _ = _call(["report", "--help"], capsys)
    assert code == 0
    flat = " ".join(out.split())
    for text in [
        "--task {auto,classification,regression}",
        "--drop COLUMN",
        "an unnamed row-index column ('Unnamed: 0' = 0, 1, 2, ...) is dropped",
        "rf=sklearn.ensemble.RandomForestClassifier:max_depth=3",
        "--no-preprocess",
    ]:
        assert text in flat


class TestModelSpec:
    def test_call_form_with_keywords(self):
        name, est = _models._resolve_model(
            "rf=sklearn.ensemble.RandomForestClassifier(n_estimators=50, max_depth=3)"
        )
        assert name == "rf"
        assert type(est).__name__ == "RandomForestClassifier"
        assert (est.n_estimators, est.max_depth) == (50, 3)

    def test_colon_form_literals_and_nested_estimator(self):
        _, est = _models._resolve_model(
            "mlp=sklearn.neural_network.MLPClassifier:hidden_layer_sizes=(8, 4),"
            "activation='tanh',early_stopping=True"
        )
        assert est.hidden_layer_sizes == (8, 4)
        assert est.activation == "tanh"
        assert est.early_stopping is True
        _, bag = _models._resolve_model(
            "bag=sklearn.ensemble.BaggingClassifier("
            "estimator=sklearn.tree.DecisionTreeClassifier(max_depth=2), n_estimators=5)"
        )
        assert bag.estimator.max_depth == 2

    def test_nothing_is_evaluated(self, tmp_path):
        marker = tmp_path / "evaluated"
        for spec in [
            f"x=sklearn.tree.DecisionTreeClassifier(max_depth=open({str(marker)!r}, 'w'))",
            "x=sklearn.tree.DecisionTreeClassifier(max_depth=__import__('os').getpid())",
            "x=sklearn.tree.DecisionTreeClassifier:max_depth=[i for i in range(3)]",
        ]:
            with pytest.raises(_models._CLIError):
                _models._resolve_model(spec)
        assert not marker.exists()


def _write(tmp_path, frame, name="d.csv", **kw):
    path = tmp_path / name
    frame.to_csv(path, **kw)
    return str(path)


def test_task_option_for_an_ordinal_target(tmp_path, capsys):
    # a quality score 0..13: auto reads 14 classes and says how to change that
    rng = np.random.default_rng(1)
    x = rng.normal(size=120)
    q = np.clip(np.round(6.5 + 3 * x + rng.normal(0, 0.5, 120)), 0, 13).astype(int)
    assert len(np.unique(q)) == 14
    path = _write(tmp_path, pd.DataFrame({"x": x, "quality": q}), index=False)
    base = _report_args(
        path,
        "quality",
        n_repeats=2,
        folds=3,
        n_jobs=1,
        random_state=0,
        out=os.devnull,
    )
    code, out, err = _call([*base, "--model", D], capsys)
    assert code == 0, err
    flat = " ".join(out.split())
    assert (
        "classification target (14 classes; auto: at most 20 values are classes, "
        in flat
    )
    assert "--task regression if they are ordered amounts)" in flat
    code, out, err = _call(
        [
            *base,
            "--task",
            "regression",
            "--model",
            "ridge=sklearn.linear_model.Ridge",
            "--model",
            "mean=sklearn.dummy.DummyRegressor",
        ],
        capsys,
    )
    assert code == 0, err
    assert "regression target (14 distinct values; --task regression)" in " ".join(
        out.split()
    )
    assert "scoring=r2" in out
    rows = _table_rows(out)
    assert float(rows["ridge"][1].split()[0]) > 0.8


def test_drop_and_unnamed_index(tmp_path, capsys):
    rng = np.random.default_rng(2)
    frame = pd.DataFrame(
        {"id": np.arange(500, 560), "a": rng.normal(size=60), "y": [0, 1] * 30}
    )
    path = _write(tmp_path, frame)  # pandas writes its index: "Unnamed: 0"
    assert pd.read_csv(path).columns[0] == "Unnamed: 0"
    args = _report_args(
        path, "y", models=(D,), drop="id", n_repeats=2, folds=3, n_jobs=1
    )
    code, out, err = _call([*args, "--out", os.devnull], capsys)
    assert code == 0, err
    assert "60 samples, 1 features" in out  # only "a"
    assert "note: dropped column 'Unnamed: 0': an unnamed row index" in out


def test_text_and_missing_values_work_with_any_model(tmp_path, capsys):
    rng = np.random.default_rng(3)
    n = 80
    frame = pd.DataFrame(
        {
            "num": rng.normal(size=n),
            "color": rng.choice(["red", "blue", "green"], n),
            "y": rng.choice(["yes", "no"], n),
        }
    )
    frame.loc[::7, "num"] = np.nan
    frame.loc[::11, "color"] = np.nan
    path = _write(tmp_path, frame, index=False)
    args = _report_args(
        path,
        "y",
        models=(LR, "svc=sklearn.svm.SVC"),
        n_repeats=2,
        folds=3,
        n_jobs=1,
        random_state=0,
        out=os.devnull,
    )
    code, out, err = _call(args, capsys)
    assert code == 0, err
    flat = " ".join(out.split())
    assert (
        "missing values: 20 missing value(s) in 2 column(s) (num, color), imputed"
        in flat
    )
    assert "SimpleImputer(strategy='median'), StandardScaler()" not in flat
    assert (
        "('simpleimputer', SimpleImputer(strategy='median')), ('standardscaler'" in flat
    )
    assert "OneHotEncoder(handle_unknown='ignore', sparse_output=False)" in flat
    assert set(_table_rows(out)) == {"lr", "svc"}


def test_missing_values_named_as_such_without_preprocessing(tmp_path, capsys):
    frame = pd.DataFrame({"a": [1.0, np.nan, 3.0, 4.0] * 10, "y": [0, 1] * 20})
    path = _write(tmp_path, frame, index=False)
    args = _report_args(path, "y", models=(LR,), no_preprocess=True)
    code, _, err = _call(args, capsys)
    assert code == 2
    assert err == (
        "skperf report: error: model 'lr' (LogisticRegression) cannot take missing "
        "values: the data has 10 missing value(s) in 1 column(s) (a); drop "
        "--no-preprocess to impute them\n"
    )


def test_report_embeds_a_png_in_process(tmp_path, csv_file, capsys):
    out = tmp_path / "r.html"
    args = _report_args(
        csv_file, "label", models=(D,), n_repeats=2, folds=3, n_jobs=1, out=out
    )
    code, _, err = _call(args, capsys)
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert "data:image/png;base64," in html
    assert "Plots are not included" not in html


def test_require_needing_more_runs_names_the_option(tmp_path, capsys):
    # 3 repeats are fewer than the 14 that P >= 0.8 at 95 % needs: the line
    # says which option gives them
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 30)
    frame = pd.DataFrame({"a": rng.normal(size=60) + y, "y": y})
    path = _write(tmp_path, frame, index=False)
    args = _report_args(
        path, "y", models=(D,), n_repeats=3, folds=3, n_jobs=1, require="0.4@0.8"
    )
    code, out, err = _call([*args, "--out", os.devnull], capsys)
    assert code == 0, err
    flat = " ".join(out.split())
    assert "requirement: d: INCONCLUSIVE" in flat
    assert "n = 3 (at least 14 runs needed to pass); --n-repeats 14 gives" in flat


def test_require_forms():
    from skperf.cli._report import _parse_require

    assert _parse_require(None) is None
    assert _parse_require("0.8") == (0.8, 0.9)  # T alone: P = 0.9, as --help says
    assert _parse_require("0.8@0.5") == (0.8, 0.5)
    assert _parse_require("-12.5@0.75") == (-12.5, 0.75)  # a negated loss


def test_id_column_dropped_with_a_note(tmp_path, capsys):
    # issue 17 item 6: a forgotten id column of a class-sorted export is not a
    # feature (it would predict the class from the row order)
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 30)
    frame = pd.DataFrame(
        {"id": np.arange(1000, 1060), "a": rng.normal(size=60) + y, "y": y}
    )
    path = _write(tmp_path, frame, index=False)
    args = _report_args(path, "y", models=(D,), n_repeats=2, folds=3, n_jobs=1)
    code, out, err = _call([*args, "--out", os.devnull], capsys)
    assert code == 0, err
    assert "60 samples, 1 features" in out  # only "a"
    flat = " ".join(out.split())
    assert "dropped column 'id': a distinct value in each of the 60 rows" in flat


def test_id_column_with_a_blank_cell_is_still_dropped(tmp_path, capsys):
    # issue 29 item 9: one blank cell made the id a (float) feature, and a
    # random forest scored 1.000 [1.000, 1.000] on a class-sorted export
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 30)
    ids = np.arange(1000, 1060).astype(float)
    ids[17] = np.nan
    frame = pd.DataFrame({"row": ids, "a": rng.normal(size=60) + y, "y": y})
    path = _write(tmp_path, frame, index=False)
    args = _report_args(path, "y", models=(D,), n_repeats=2, folds=3, n_jobs=1)
    code, out, err = _call([*args, "--out", os.devnull], capsys)
    assert code == 0, err
    assert "60 samples, 1 features" in out  # only "a"
    assert "dropped column 'row'" in " ".join(out.split())


def test_measurements_with_a_blank_cell_are_kept():
    # a numeric measurement with all values distinct is not an id
    from skperf.cli._common import _drop_id_columns

    rng = np.random.default_rng(0)
    x = rng.normal(size=60)
    x[5] = np.nan
    counts = rng.permutation(np.arange(0, 600, 3)[:60]).astype(float)
    counts[[1, 2, 3, 4]] = [1000, 2001, 3002, 4003]  # not evenly spaced
    frame = pd.DataFrame({"x": x, "counts": counts, "y": np.arange(60) % 2})
    kept, note = _drop_id_columns(frame, target="y")
    assert list(kept.columns) == ["x", "counts", "y"]
    assert note is None


def test_classification_of_a_continuous_target_refused_before_fitting(tmp_path, capsys):
    # issue 17 item 16: 214 distinct integer values in 442 rows are an amount
    from sklearn.datasets import load_diabetes

    X, y = load_diabetes(return_X_y=True, as_frame=True)
    frame = X.assign(progression=y.astype(int))
    path = _write(tmp_path, frame, index=False)
    args = ["report", "--data", path, "--target", "progression"]
    args += ["--task", "classification", "--out", os.devnull]
    code, _out, err = _call(args, capsys)
    assert code == 2
    assert "distinct values in 442 rows" in err
    assert "use --task regression" in err


class TestFactsReadFromTheReport:
    """What `skperf report` prints comes from the report's public surface."""

    @pytest.fixture
    def report(self):
        from skperf import ModelSelectionReport, PerformanceDistribution

        rng = np.random.default_rng(0)
        base = rng.normal(0.9, 0.02, 30)
        dists = {
            name: PerformanceDistribution(
                base + shift + rng.normal(0, 0.005, 30), metric="accuracy"
            )
            for name, shift in [("a", 0.0), ("b", 0.01), ("c", -0.03)]
        }
        return ModelSelectionReport(dists, test_train_ratio=1 / 9, random_state=0)

    def test_summary_table_holds_the_cells_of_the_markdown_report(self, report):
        table = report.summary_table()
        assert list(table.index) == report.ranking == ["b", "a", "c"]
        assert table.index.name == "model"
        markdown = report.to_markdown()
        header = next(x for x in markdown.splitlines() if x.startswith("| model"))
        assert [c.strip() for c in header.strip("|").split("|")] == [
            "model",
            *table.columns,
        ]
        for name, row in table.iterrows():
            line = next(x for x in markdown.splitlines() if x.startswith(f"| {name} "))
            assert [c.strip() for c in line.strip("|").split("|")] == [name, *row]
        # the numbers behind the cells
        frame = report.to_frame()
        cell = table.loc["c", "new data: accuracy [95% CI]"]  # "0.868 [0.854, 0.881]"
        estimate, low, high = map(
            float, cell.translate({ord(c): " " for c in "[],"}).split()
        )
        np.testing.assert_allclose(
            [estimate, low, high],
            frame.loc["c", ["new_data", "new_data_low", "new_data_high"]].to_numpy(
                float
            ),
            atol=5e-4,
        )

    def test_conclusion_is_the_headline_without_the_table_sentence(self, report):
        headline = report.to_dict()["headline"]
        assert headline.startswith(report.conclusion)
        assert headline[len(report.conclusion) :] == (
            " The table's run-to-run columns describe this dataset."
        )
        assert report.conclusion.startswith("On new data")
        assert "choose b:" in report.conclusion

    def test_cli_table_is_the_reports(self, report, capsys):
        from skperf.cli._common import _summary
        from skperf.cli._report import _print_new_data_summary

        _print_new_data_summary(report)
        out = capsys.readouterr().out
        rows = _table_rows(out)
        table = report.summary_table(quantiles=())
        for name in "abc":
            assert rows[name] == [
                name,
                table.loc[name, "new data: accuracy [95% CI]"],
                table.loc[name, "best - model, new data [95% CI, holm-adjusted]"],
                table.loc[name, "p adj. (holm, 3 pairs)"],
                table.loc[name, "tied with best"],
                table.loc[name, "mean [95% CI]"],
            ]
        assert " ".join(report.conclusion.split()) in " ".join(out.split())
        assert "| model | n | mean [95% CI]" in _summary(
            type(report)(report.raw_distributions, target="this dataset")
        ).replace("  ", " ")


def test_models_without_curves_named_from_the_report(tmp_path, capsys):
    # three classes: no ROC curves; the reason is the report's curves_missing
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=60), "y": np.repeat([0, 1, 2], 20)})
    path = _write(tmp_path, frame, index=False)
    args = _report_args(
        path, "y", models=(D,), curves=True, n_repeats=1, folds=2, n_jobs=1
    )
    code, out, err = _call([*args, "--random-state", "0", "--out", os.devnull], capsys)
    assert code == 0, err
    assert "curves: d: none (" in out
    assert "3 classes" in " ".join(out.split())


GS = (
    "gs=sklearn.model_selection.GridSearchCV("
    "estimator=sklearn.linear_model.LogisticRegression(max_iter=1000), "
    "param_grid={'C': [1.0]}, cv=2)"
)


def test_every_model_gets_the_same_preprocessing():
    # issue 29, item 3: a search over logistic regression was left unscaled
    # while lr was scaled, so the report measured the scaling it added to one
    # model; now both get the same StandardScaler (the search is seen inside)
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import GridSearchCV, cross_val_score
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    given = _models._parse_models(
        [GS, "lr=sklearn.linear_model.LogisticRegression(max_iter=1000)", D]
    )
    assert _models._scale_sensitive(given["gs"])
    assert not _models._scale_sensitive(given["d"])
    models, text = _models._preprocess(given, X)
    for est in models.values():
        assert isinstance(est, Pipeline)
        assert [type(s).__name__ for _, s in est.steps[:-1]] == ["StandardScaler"]
    assert isinstance(models["gs"].steps[-1][1], GridSearchCV)
    assert text == (
        "the same for every model: numeric columns standardized (for gs, lr; "
        "it changes nothing for tree models)"
    )
    # the same model behind the same preprocessing: the same scores, so the
    # comparison of gs (one C) with lr measures no difference
    a = cross_val_score(models["gs"], X, y, cv=3)
    b = cross_val_score(models["lr"], X, y, cv=3)
    np.testing.assert_allclose(a, b)
    # the scaler steps are separate objects (one fit each)
    assert models["gs"].steps[0][1] is not models["lr"].steps[0][1]
    assert isinstance(models["d"].steps[0][1], StandardScaler)
    # nothing to do (no model needs scaling, no text, no missing value)
    trees = {"d": given["d"]}
    same, none = _models._preprocess(trees, X)
    assert none is None
    assert same["d"] is given["d"]


def test_report_says_the_preprocessing_is_shared(capsys):
    args = _report_args(
        models=(GS, "lr=sklearn.linear_model.LogisticRegression(max_iter=1000)"),
        n_repeats=1,
        folds=3,
        n_jobs=1,
        random_state=0,
        out=os.devnull,
    )
    code, out, err = _call(args, capsys)
    assert code == 0, err
    flat = " ".join(out.split())
    assert (
        "note: preprocessing, the same for every model: numeric columns "
        "standardized (for gs, lr; it changes nothing for tree models)"
    ) in flat
    assert "gs = Pipeline(steps=[('standardscaler', StandardScaler()), " in flat
    assert "lr = Pipeline(steps=[('standardscaler', StandardScaler()), " in flat
    rows = _table_rows(out)
    # one C, same scaling, same folds: the two are the same model
    other = next(r for r in rows.values() if r[2] != "–")
    assert other[2] == "0.000 [0.000, 0.000] (zero width)"
