"""Sequential stopping rules for the corrected t, measured over datasets (issue 26).

The rules of ``skperf/stats/_sequential.py`` are replayed round by round on
fold scores computed once per dataset:

* ``folds``: the null/power populations of ``generalization_study.py`` (two
  logistic regressions on disjoint feature blocks, equally good ("null") or
  not ("power"), a fresh dataset of ``n`` rows each time, n = 200 and 1000):
  10 repetitions of 10-fold CV (the same datasets, splits and fits as
  ``generalization_study.py null --repeats``), and Alpaydin's 5 x 2 CV on
  the splits of ``generalization_study.py null``; per-fold score
  differences A - B (accuracy, log loss; positive = A better) are appended
  to ``benchmarks/results/sequential_folds_w<worker>.csv``.
* ``replay``: every candidate rule on those folds: the false-"significant"
  rate on equal pairs, the power on real differences (against the fixed
  10 x 10-fold design's), fits spent (mean, median, 90th percentile), and
  the designs per budget (10, 20, 30, 50, 100 fits per model).
* ``intervals``: the single-model interval under the stopping rule, on the
  datasets of every cell of the coverage study (``generalization_study.py
  run --repeats`` rows: the 3, 5 and 10 x 10-fold corrected t of each
  dataset; the default rule stops at a data-independent round, so its
  interval is one of those rows, re-read with the rule's degrees of freedom).
* ``tables``: ``benchmarks/results/sequential_*.csv`` and
  ``docs/sequential_tables.inc``.

Usage::

    python benchmarks/sequential_study.py folds [--reps 400] [--worker 0 --workers 1]
    python benchmarks/sequential_study.py replay
    python benchmarks/sequential_study.py intervals
    python benchmarks/sequential_study.py tables

Run with OMP_NUM_THREADS=1 (set on import of generalization_study).
"""

from __future__ import annotations

import argparse
import copy
import csv
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import generalization_study as gs  # noqa: E402
import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

from skperf.stats import _sequential as seq  # noqa: E402

RESULTS = gs.RESULTS
DOCS_INC = gs.ROOT / "docs" / "sequential_tables.inc"
K = 10
RATIO = 1 / 9
MAX_ROUNDS = 10
METRICS = ("accuracy", "log_loss")
STUDIES = ("null", "power")
NS = (200, 1000)
FOLD_FIELDS = ("study", "n", "rep", "metric", "design", "round", "seconds") + tuple(
    f"f{i}" for i in range(K)
)


# --------------------------------------------------------------------------
# Fold scores, once per dataset
# --------------------------------------------------------------------------


def pair_folds(study, n, rep):
    """Per-fold differences A - B on one dataset: ``{metric: (cv10, cv2)}``,
    ``cv10`` of shape (10, 10) (rounds x folds), ``cv2`` (5, 2).

    The dataset and the 10 x 10-fold splits are those of
    ``gs.repeats_compare_replicate``; the 5 x 2 splits those of
    ``gs.compare_replicate`` (drawn after its 3 x 10-fold splits)."""
    X, y, rng = gs._pair_dataset(study, n, rep)
    rng52 = copy.deepcopy(rng)
    cols = (slice(0, 4), slice(4, 8))

    def fit_both(tr, te):
        return [
            gs._fast_linear("clf", X[tr][:, c], y[tr], X[te][:, c], scale=False)
            for c in cols
        ]

    cv, ids_all = gs._repeated_cv(rng, n, fit_both, lead=(2,), repeats=MAX_ROUNDS)
    for _ in range(gs.N_CV_REPEATS):  # compare_replicate's 3 x 10-fold splits
        gs._folds(rng52, n, 10)
    five = np.empty((2, 5, n))
    ids52 = np.empty((5, n), dtype=int)
    for r in range(5):
        ids = gs._folds(rng52, n, 2)
        ids52[r] = ids
        for f in range(2):
            te = ids == f
            five[:, r, te] = fit_both(~te, te)
    return {
        m: (gs._fold_diffs(m, y, cv, ids_all, K), gs._fold_diffs(m, y, five, ids52, 2))
        for m in METRICS
    }


def run_folds(args):
    RESULTS.mkdir(parents=True, exist_ok=True)
    done = gs._done("sequential_folds_w*.csv", ("study", "n", "rep"))
    path = RESULTS / f"sequential_folds_w{args.worker}.csv"
    k = 0
    for lo in range(0, args.reps, 50):
        for n in args.ns:
            for study in STUDIES:
                for rep in range(lo, min(lo + 50, args.reps)):
                    if (study, str(n), str(rep)) in done:
                        continue
                    k += 1
                    if k % args.workers != args.worker:
                        continue
                    t0 = time.perf_counter()
                    out = pair_folds(study, n, rep)
                    secs = round(time.perf_counter() - t0, 3)
                    rows = []
                    for m, (cv10, cv2) in out.items():
                        for design, a in (("cv10", cv10), ("cv2", cv2)):
                            for r, vals in enumerate(a):
                                row = dict(
                                    study=study, n=n, rep=rep, metric=m,
                                    design=design, round=r, seconds=secs,
                                )
                                row.update({f"f{i}": v for i, v in enumerate(vals)})
                                rows.append(row)
                    gs._append(path, rows, FOLD_FIELDS)
            print(f"n={n} reps<{min(lo + 50, args.reps)} done", flush=True)


def load_folds():
    """``{(study, n, metric): (cv10 (D, 10, 10), cv2 (D, 5, 2), reps)}``."""
    import pandas as pd

    paths = sorted(RESULTS.glob("sequential_folds_w*.csv"))
    df = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    df = df.drop_duplicates(["study", "n", "rep", "metric", "design", "round"])
    out = {}
    fcols = [f"f{i}" for i in range(K)]
    for (study, n, metric), g in df.groupby(["study", "n", "metric"]):
        a = g[g.design == "cv10"].sort_values(["rep", "round"])
        b = g[g.design == "cv2"].sort_values(["rep", "round"])
        reps = np.intersect1d(a.rep.unique(), b.rep.unique())
        a = a[a.rep.isin(reps)]
        b = b[b.rep.isin(reps)]
        cv10 = a[fcols].to_numpy().reshape(len(reps), MAX_ROUNDS, K)
        cv2 = b[fcols[:2]].to_numpy().reshape(len(reps), 5, 2)
        out[(study, int(n), metric)] = (cv10, cv2, reps)
    return out


def run_replay(args):
    raise NotImplementedError


def run_intervals(args):
    raise NotImplementedError


def run_tables(args):
    raise NotImplementedError


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("folds", "replay", "intervals", "tables"))
    ap.add_argument("--worker", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--ns", type=int, nargs="+", default=list(NS))
    args = ap.parse_args(argv)
    {
        "folds": run_folds,
        "replay": run_replay,
        "intervals": run_intervals,
        "tables": run_tables,
    }[args.command](args)


if __name__ == "__main__":
    main()
