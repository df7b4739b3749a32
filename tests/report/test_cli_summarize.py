"""`skperf summarize` end to end (subprocess) and its one-line errors."""

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from skperf import ModelSelectionReport
from skperf._cli import main


def _csv(tmp_path, n=10, name="scores.csv"):
    rng = np.random.default_rng(0)
    base = rng.normal(0.8, 0.02, n)
    rows = [
        {"model": m, "seed": s, "acc": round(base[s] + sh + rng.normal(0, 0.002), 6)}
        for m, sh in (("mlp", 0.03), ("linear", 0.0))
        for s in range(n)
    ]
    path = tmp_path / name
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _skperf(*args, cwd):
    env = {**os.environ, "MPLBACKEND": "Agg"}
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "skperf", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_end_to_end_subprocess(tmp_path):
    path = _csv(tmp_path)
    out = tmp_path / "r.html"
    res = _skperf(
        "summarize",
        path,
        "--score",
        "acc",
        "--by",
        "model",
        "--pair-by",
        "seed",
        "--out",
        out,
        "--random-state",
        "0",
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    assert "best: mlp" in res.stdout
    assert "2 model(s), 20 runs; paired by seed" in res.stdout
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") or "<html" in html[:200]
    # the same report as built in Python from the same table
    report = ModelSelectionReport.from_frame(
        pd.read_csv(path), score="acc", by="model", pair_by="seed", random_state=0
    )
    p = report.comparisons["mlp", "linear"]
    assert p.paired
    assert p.estimate == 1.0
    # the summary table of `skperf report`, a row for every model (worse ones too)
    from skperf._cli_common import _summary

    assert _summary(report) in res.stdout
    rows = [line for line in res.stdout.splitlines() if line.startswith("| ")]
    assert [r.split("|")[1].strip() for r in rows] == ["model", "mlp", "linear"]
    assert rows[2].split("|")[-2].strip() == "no"  # linear: not tied with best
    assert "mlp" in html
    assert "linear" in html


def test_lower_is_better(tmp_path, capsys):
    path = _csv(tmp_path)
    out = tmp_path / "r.html"
    argv = ["summarize", str(path), "--score", "acc", "--by", "model"]
    assert (
        main([*argv, "--lower-is-better", "--out", str(out), "--random-state", "0"])
        == 0
    )
    assert "best: linear" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--lower-is-better", "--greater-is-better"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    ("case", "extra", "message"),
    [
        ("missing_file", [], "scores file not found"),
        (
            "ok",
            ["--score", "nope"],
            "score column 'nope' not found; columns are: model, seed, acc",
        ),
        ("text", ["--score", "acc"], "score column 'acc' is not numeric"),
        ("nan", ["--score", "acc"], "score column 'acc' has 1 missing value(s)"),
        ("inf", ["--score", "acc"], "score column 'acc' has a non-finite value (inf)"),
        ("ok", ["--out", "{tmp}/nowhere/r.html"], "folder '{tmp}/nowhere' does not"),
        (
            "one_run",
            ["--score", "acc", "--by", "model"],
            "model 'solo' has 1 run; at least 2",
        ),
        (
            "dup",
            ["--score", "acc", "--by", "model", "--pair-by", "seed"],
            "duplicate pair key: model 'mlp' has seed=0",
        ),
        (
            "ok",
            ["--score", "acc", "--by", "nope"],
            "`by` column 'nope' not found".replace("`", ""),
        ),
        ("garbage", ["--score", "acc"], "cannot read"),
        ("ok", ["--random-state", "-1"], "--random-state must be an integer >= 0"),
        ("ok", ["--gamma", "0.3"], "--gamma must be in (0.5, 1)"),
    ],
)
def test_one_line_errors(tmp_path, capsys, case, extra, message):
    path = _csv(tmp_path)
    df = pd.read_csv(path)
    if case == "missing_file":
        path = tmp_path / "absent.csv"
    elif case == "text":
        df["acc"] = df["acc"].astype(object)
        df.loc[4, "acc"] = "n/a!"
        df.to_csv(path, index=False)
    elif case in ("nan", "inf"):
        df.loc[4, "acc"] = float(case)
        df.to_csv(path, index=False)
    elif case == "one_run":
        pd.concat(
            [df, pd.DataFrame([{"model": "solo", "seed": 0, "acc": 0.5}])]
        ).to_csv(path, index=False)
    elif case == "dup":
        df.loc[1, "seed"] = 0
        df.to_csv(path, index=False)
    elif case == "garbage":
        path.write_bytes(b'a,b\n"unterminated\n1,2,3,4\n\xff\xfe')
    if "--score" not in extra:
        extra = ["--score", "acc", *extra]
    extra = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    message = message.replace("{tmp}", str(tmp_path))
    if "--out" not in extra:
        extra = [*extra, "--out", str(tmp_path / "r.html")]
    if case in ("missing_file", "text"):  # a real process: no traceback anywhere
        res = _skperf("summarize", path, *extra, cwd=tmp_path)
        code, stderr = res.returncode, res.stderr
    else:  # the same main() in process (faster)
        code = main(["summarize", str(path), *extra])
        stderr = capsys.readouterr().err
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("skperf summarize: error: ")
    assert len(lines[0]) <= 200
    assert message in lines[0]
    assert "Traceback" not in stderr
    assert not (tmp_path / "r.html").exists()
