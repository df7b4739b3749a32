"""Fold scores you bring: the new-data answers of a fold design (issue 28, item 3).

Fold scores written to a CSV give the numbers of compare_generalization and
generalization_ci on the same splits, to 1e-12, through the Python API and
through ``skperf summarize`` / ``skperf check``; a bad design is refused
naming the column or parameter. Also issue 29, items 6 and 9 (benchmark
direction and model names; a score-only CSV appended twice).
"""

import argparse

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import skperf.model_selection._compare_generalization as _cg
import skperf.model_selection._generalization as _gen
from skperf import (
    BenchmarkReport,
    Comparison,
    GeneralizationComparison,
    compare_generalization,
    from_frame,
    generalization_ci,
)
from skperf.model_selection._folds import fold_ci

from ..cli.conftest import call_main

TOL = 1e-12


def _assert_same(got, want):
    for field in ("estimate", "low", "high", "pvalue"):
        assert abs(getattr(got, field) - getattr(want, field)) <= TOL, field
    assert got.decision == want.decision
    assert got.target == want.target == "new data"


def _fold_frame(monkeypatch, a, b, X, y, **kw):
    """compare_generalization(a, b) and its fold scores as a long table."""
    kept = {}
    fit = _cg._fit

    def spy(evaluators, *args, **kwargs):
        out = fit(evaluators, *args, **kwargs)
        kept.update(evaluators)
        return out

    monkeypatch.setattr(_cg, "_fit", spy)
    res = compare_generalization(a, b, X, y, **kw)
    rows = []
    for name, ev in (("A", kept["a"]), ("B", kept["b"])):
        r = ev.results_
        col = next(c for c in r.columns if c.startswith("test_"))
        rows.append(
            pd.DataFrame(
                {
                    "model": name,
                    "repeat": r["repeat"],
                    "fold": r["fold"],
                    "n_train": r["n_train"],
                    "n_test": r["n_test"],
                    "accuracy": r[col],
                }
            )
        )
    return res, pd.concat(rows, ignore_index=True)


@pytest.fixture
def iris_folds(monkeypatch, tmp_path):
    X, y = load_iris(return_X_y=True)
    res, frame = _fold_frame(
        monkeypatch,
        KNeighborsClassifier(1),
        KNeighborsClassifier(15),
        X,
        y,
        n_fits=30,
        random_state=0,
        method="corrected-t",
    )
    path = tmp_path / "folds.csv"
    frame.to_csv(path, index=False)
    return res, path


def test_compare_equals_compare_generalization(iris_folds):
    res, path = iris_folds
    frame = pd.read_csv(path)
    # 10-fold on 150 rows: 135 / 15 rows exactly, so the ints are the design
    dists = from_frame(
        frame,
        score="accuracy",
        by="model",
        fold="fold",
        repeat="repeat",
        n_train=135,
        n_test=15,
    )
    got = dists["A"].compare(dists["B"])  # target "new data" is the default
    assert isinstance(got, GeneralizationComparison)
    _assert_same(got, res)
    assert res.decision == "no significant difference"
    assert got.n_fits == 30
    assert got.n == 150
    assert "new data" in got.note
    assert "3 x 10-fold" in got.note
    # the other side: the same test from B's side
    back = dists["B"].compare(dists["A"], target="new data")
    assert abs(back.estimate + res.estimate) <= TOL
    assert abs(back.pvalue - res.pvalue) <= TOL


def test_compare_equals_on_uneven_folds_with_size_columns(monkeypatch):
    # wine: 178 rows, 10-fold folds of 17 and 18 rows: the mean sizes
    X, y = load_wine(return_X_y=True)
    res, frame = _fold_frame(
        monkeypatch,
        make_pipeline(StandardScaler(), LogisticRegression()),
        KNeighborsClassifier(),
        X,
        y,
        n_fits=20,
        random_state=1,
        method="corrected-t",
    )
    frame = frame.sample(frac=1, random_state=0)  # any row order
    dists = from_frame(
        frame,
        score="accuracy",
        by="model",
        fold="fold",
        repeat="repeat",
        n_train="n_train",
        n_test="n_test",
    )
    got = dists["A"].compare(dists["B"])
    _assert_same(got, res)
    assert res.decision == "better"


def test_summarize_cli_equals_compare_generalization(iris_folds, capsys, tmp_path):
    from skperf.cli import _summarize

    res, path = iris_folds
    argv = [
        "summarize",
        str(path),
        "--score",
        "accuracy",
        "--by",
        "model",
        "--repeat-by",
        "repeat",
        "--fold-by",
        "fold",
        "--n-train",
        "135",
        "--n-test",
        "15",
        "--out",
        str(tmp_path / "r.html"),
        "--random-state",
        "0",
    ]
    out = call_main(argv, capsys)
    assert out.returncode == 0, out.stderr
    assert "target: new data" in out.stdout
    assert f"p = {res.pvalue:.3g}" in out.stdout
    assert "no significant difference (new data)" in out.stdout
    # the report the command printed, to 1e-12
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    _summarize.add_parser(sub)
    args = parser.parse_args(argv)
    frame = pd.read_csv(path)
    report = _summarize._model_selection(frame, args, True, 0)
    row = report.pairwise().iloc[0]
    sign = 1.0 if row["model_a"] == "A" else -1.0
    assert abs(sign * row["estimate"] - res.estimate) <= TOL
    lo, hi = sorted((sign * row["low"], sign * row["high"]))
    assert abs(lo - res.low) <= TOL
    assert abs(hi - res.high) <= TOL
    assert abs(row["pvalue"] - res.pvalue) <= TOL
    assert row["pvalue_adjusted"] == row["pvalue"]  # one pair
    assert row["target"] == "new data"


def _spy_scores(monkeypatch):
    # the fold scores generalization_ci's corrected t reads (in fit order)
    seen = []
    read = _gen._read_corrected_t

    def spy(res, name, *args, **kwargs):
        seen.append(res[f"test_{name}"].to_numpy(dtype=float))
        return read(res, name, *args, **kwargs)

    monkeypatch.setattr(_gen, "_read_corrected_t", spy)
    return seen


@pytest.mark.parametrize(
    ("method", "n_fits", "df"), [("corrected-t", 30, 29), ("auto", "auto", 9)]
)
def test_single_model_equals_generalization_ci(monkeypatch, method, n_fits, df):
    X, y = load_iris(return_X_y=True)
    seen = _spy_scores(monkeypatch)
    want = generalization_ci(
        KNeighborsClassifier(15), X, y, method=method, n_fits=n_fits, random_state=0
    )
    (scores,) = seen
    J = scores.size
    frame = pd.DataFrame(
        {"repeat": np.arange(J) // 10, "fold": np.arange(J) % 10, "score": scores}
    )
    # "score" as generalization_ci names the metric here: neither clips
    dist = from_frame(
        frame, score="score", fold="fold", repeat="repeat", n_train=135, n_test=15
    )["score"]
    got = fold_ci(dist, method=method)
    for field in ("estimate", "low", "high"):
        assert abs(getattr(got, field) - getattr(want, field)) <= TOL, field
    assert got.target == want.target == "new data"
    assert got.n_fits == want.n_fits == J
    if method == "corrected-t":  # mean_ci reads the design (J - 1 df)
        ci = dist.mean_ci(method="corrected-t")
        assert abs(ci.low - want.low) <= TOL
        assert ci.target == "new data"
    else:
        assert "K - 1 = 9 degrees of freedom" in got.note
    # named as accuracy, the interval is cut to its range [0, 1]
    acc = from_frame(
        frame.rename(columns={"score": "accuracy"}),
        score="accuracy",
        fold="fold",
        repeat="repeat",
        n_train=135,
        n_test=15,
    )["accuracy"]
    assert want.high > 1
    assert fold_ci(acc, method=method).high == 1.0


def _design_frame(R=2, K=5):
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "model": np.repeat(["a", "b"], R * K),
            "repeat": np.tile(np.repeat(np.arange(R), K), 2),
            "fold": np.tile(np.arange(K), 2 * R),
            "acc": rng.uniform(0.7, 0.9, 2 * R * K),
        }
    )


def _folds(frame, **kw):
    kw = {"n_train": 80, "n_test": 20, **kw}
    return from_frame(
        frame, score="acc", by="model", fold="fold", repeat="repeat", **kw
    )


@pytest.mark.parametrize(
    ("edit", "kw", "match"),
    [
        (
            lambda f: f.drop(index=3),
            {},
            (
                r"`fold` column 'fold': model 'a', "
                r"repeat=0 has 4 of the K = 5 folds \(missing 3\)"
            ),
        ),
        (
            lambda f: f.assign(fold=f.fold.where(f.index != 4, 7)),
            {},
            (
                r"fold index 7 \(row 4\) is out of range: with K = 5 folds per repeat "
                r"the folds are numbered 0..4"
            ),
        ),
        (
            lambda f: f[~((f.repeat == 1) & (f.fold == 4))],
            {},
            "repeats with different K",
        ),
        (lambda f: f.assign(fold=f.fold + 2), {}, "must start at 0 \\(or 1\\)"),
        (
            lambda f: f.assign(fold=f.fold.astype(float) + 0.5),
            {},
            "must hold fold numbers",
        ),
        (
            lambda f: f[~((f.model == "b") & (f.repeat == 1))],
            {},
            r"not scored on the same splits \('b' lacks repeat=1\)",
        ),
        (
            lambda f: pd.concat([f, f.iloc[[0]].assign(acc=0.5)]),
            {},
            "model 'a' has repeat=0, fold=0 more than once",
        ),
        (lambda f: f, {"n_train": 0}, "`n_train` must be a positive int"),
        (lambda f: f, {"n_test": 1.5}, "`n_test` must be a positive int"),
        (lambda f: f, {"n_train": True}, "`n_train` must be a positive int"),
        (lambda f: f, {"n_train": "rows"}, "'rows' is not a column"),
        (lambda f: f, {"n_test": None}, "needs the split sizes: pass `n_test`"),
        (
            lambda f: f.assign(seed=f.repeat),
            {"pair_by": "seed"},
            "the splits \\(repeat, fold\\) pair the models",
        ),
    ],
)
def test_bad_fold_design_is_refused(edit, kw, match):
    with pytest.raises(ValueError, match=match):
        _folds(edit(_design_frame()), **kw)


def test_sizes_without_fold_refused_and_old_behaviour_unchanged():
    frame = _design_frame()
    with pytest.raises(ValueError, match="pass fold=<the column"):
        from_frame(frame, score="acc", by="model", repeat_by="repeat", n_train=80)
    # without a fold design: per-repeat means, the run-to-run answer
    old = from_frame(
        frame, score="acc", by="model", repeat_by="repeat", pair_by="repeat"
    )
    c = old["a"].compare(old["b"])
    assert isinstance(c, Comparison)
    assert c.target == "this dataset"
    # with one: "this dataset" compares the same per-repeat means
    new = _folds(frame)
    c2 = new["a"].compare(new["b"], target="this dataset")
    assert isinstance(c2, Comparison)
    assert c2.target == "this dataset"
    assert (c2.estimate, c2.low, c2.high) == (c.estimate, c.low, c.high)
    with pytest.raises(ValueError, match="needs the split design"):
        old["a"].compare(old["b"], target="new data")


def test_test_train_ratio_on_plain_scores():
    from skperf import PerformanceDistribution
    from skperf.stats._paired_tests import corrected_paired_t

    rng = np.random.default_rng(3)
    a, b = rng.normal(0.8, 0.02, 20), rng.normal(0.79, 0.02, 20)
    res = PerformanceDistribution(a).compare(b, test_train_ratio=1 / 9)
    ref = corrected_paired_t(a - b, test_train_ratio=1 / 9)
    assert res.target == "new data"
    assert abs(res.pvalue - ref.pvalue) <= TOL
    assert abs(res.low - ref.low) <= TOL


def test_loss_direction_on_new_data():
    frame = _design_frame().rename(columns={"acc": "log_loss"})
    frame.loc[frame.model == "b", "log_loss"] += 0.3  # b has the larger loss
    d = from_frame(
        frame,
        score="log_loss",
        by="model",
        fold="fold",
        repeat="repeat",
        n_train=80,
        n_test=20,
        greater_is_better=False,
    )
    res = d["a"].compare(d["b"])
    assert res.estimate < 0
    assert res.decision == "better"


def test_design_survives_pickle_and_dict():
    import pickle

    d = _folds(_design_frame())["a"]
    back = pickle.loads(pickle.dumps(d))
    assert back._fold_design == d._fold_design
    assert fold_ci(back).low == fold_ci(d).low


# ---------------------------------------------------------------------------
# issue 29, item 6: BenchmarkReport.from_frame, direction and model names
def _bench(score="acc", models=("x", "y")):
    return pd.DataFrame(
        {
            "dataset": ["a"] * 2 + ["b"] * 2 + ["c"] * 2,
            "model": list(models) * 3,
            score: [0.2, 0.5, 0.3, 0.6, 0.1, 0.4],
        }
    )


def test_benchmark_refuses_a_loss_read_as_a_score():
    with pytest.raises(ValueError, match="'log_loss' is a loss"):
        BenchmarkReport.from_frame(
            _bench("log_loss"), score="log_loss", by="model", dataset="dataset"
        )
    rep = BenchmarkReport.from_frame(
        _bench("log_loss"),
        score="log_loss",
        by="model",
        dataset="dataset",
        greater_is_better=False,
        random_state=0,
    )
    wtl = rep.win_tie_loss().iloc[0]
    assert (wtl["model_a"], wtl["wins"], wtl["losses"]) == ("x", 3, 0)


def test_benchmark_does_not_merge_1_and_str_1():
    with pytest.raises(ValueError, match=r"1 \(int\) and '1' \(str\)"):
        BenchmarkReport.from_frame(
            _bench(models=(1, "1")), score="acc", by="model", dataset="dataset"
        )


def test_benchmark_with_fold_design():
    frames = []
    for name, shift in (("d1", 0.08), ("d2", 0.0)):
        f = _design_frame(R=3, K=5)
        f.loc[f.model == "a", "acc"] += shift
        frames.append(f.assign(dataset=name))
    rep = BenchmarkReport.from_frame(
        pd.concat(frames),
        score="acc",
        by="model",
        dataset="dataset",
        fold="fold",
        repeat="repeat",
        n_train=80,
        n_test=20,
        random_state=0,
    )
    assert rep.decision_target == "new data"
    d1 = _folds(frames[0])
    res = d1["a"].compare(d1["b"])
    row = rep.reports["d1"].pairwise().iloc[0]
    assert abs(abs(row["estimate"]) - abs(res.estimate)) <= TOL
    assert abs(row["pvalue"] - res.pvalue) <= TOL
    assert rep.n_runs.to_numpy().tolist() == [[3, 3], [3, 3]]


# ---------------------------------------------------------------------------
# issue 29, item 9: skperf check on duplicated evidence; check with folds
def test_check_refuses_a_score_only_csv_appended_twice(tmp_path, capsys):
    acc = np.random.default_rng(0).normal(0.95, 0.01, 20).round(6)
    once, twice = tmp_path / "once.csv", tmp_path / "twice.csv"
    pd.DataFrame({"acc": acc}).to_csv(once, index=False)
    pd.DataFrame({"acc": np.r_[acc, acc]}).to_csv(twice, index=False)
    args = ["--score", "acc", "--threshold", "0.93", "--probability", "0.8"]
    assert call_main(["check", once, *args], capsys).returncode == 3
    res = call_main(["check", twice, *args], capsys)
    assert res.returncode == 2
    assert "2 copies of the same 20 rows" in res.stderr
    # ties are not copies: one value repeated stays accepted
    ties = tmp_path / "ties.csv"
    pd.DataFrame({"acc": [1.0] * 40}).to_csv(ties, index=False)
    assert call_main(["check", ties, *args], capsys).returncode == 0


def test_check_refuses_repeated_seeds(tmp_path, capsys):
    rng = np.random.default_rng(1)
    seeds = np.r_[np.arange(20), np.arange(20)]
    path = tmp_path / "s.csv"
    pd.DataFrame({"seed": seeds, "acc": rng.normal(0.95, 0.01, 40)}).to_csv(
        path, index=False
    )
    res = call_main(["check", path, "--score", "acc", "--threshold", "0.9"], capsys)
    assert res.returncode == 2
    assert "column 'seed' repeats seed=0 (rows 1 and 21" in res.stderr


def test_check_with_a_fold_design(iris_folds, capsys):
    _res, path = iris_folds
    base = [
        "check",
        path,
        "--score",
        "accuracy",
        "--by",
        "model",
        "--model",
        "B",
        "--repeat-by",
        "repeat",
        "--fold-by",
        "fold",
        "--n-train",
        "135",
        "--n-test",
        "15",
    ]
    frame = pd.read_csv(path)
    dist = _folds_of(frame)["B"]
    ci = fold_ci(dist, confidence=0.9)  # one-sided 95 % bounds
    met = call_main([*base, "--threshold", f"{ci.low - 0.01}"], capsys)
    assert met.returncode == 0
    assert "MET: expected accuracy of B on new data" in met.stdout
    assert call_main([*base, "--threshold", "0.99"], capsys).returncode == 3
    no = call_main([*base, "--threshold", f"{min(ci.high + 0.001, 1.0)}"], capsys)
    assert no.returncode in (1, 3)
    bad = call_main([*base, "--threshold", "0.9", "--probability", "0.9"], capsys)
    assert bad.returncode == 2
    assert "--probability" in bad.stderr
    part = call_main(
        [
            "check",
            path,
            "--score",
            "accuracy",
            "--fold-by",
            "fold",
            "--threshold",
            "0.9",
        ],
        capsys,
    )
    assert part.returncode == 2
    assert "needs the split sizes" in part.stderr


def _folds_of(frame):
    return from_frame(
        frame,
        score="accuracy",
        by="model",
        fold="fold",
        repeat="repeat",
        n_train=135,
        n_test=15,
    )
