"""The race of ``compare_models`` (issue 26, item 1) with three and four models.

``sequential_api_study.py`` measures two models; with more, the race drops
a model once it is decided worse than another or once all its pairs are
settled, and its open pairs are read on the rounds it has. This script
measures, through the public API, the family-wise error (any pair called
significant) when every model is equally good, and on real differences the
share of datasets where the fixed 10 x 10-fold design's decisions are found,
with the fits spent per model against the fixed design's on the same
datasets and seeds.

Population: ``x ~ N(0, I_{4k})``, ``P(y = 1) = logistic(sum_j b_j s_j)``
with ``s_j`` the sum of block ``j``'s four features; model ``j`` is
:class:`~sequential_api_study.BlockLogistic` on block ``j`` only. ``null``:
``b_j = 0.5`` for every block (equal models by symmetry); ``power``: ``b_1 =
0.7`` and the others 0.4 (model 1 better, the others equal). A fresh
dataset of ``n`` rows per replicate (seeds ``[SEED, 91, k, rep]``).

Run: ``python benchmarks/race_study.py run --k 3 --study null --reps 400``
(appends to ``benchmarks/results/race_study.csv``), ``... summary``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from sequential_api_study import BlockLogistic

SEED = 20261128
OUT = Path(__file__).resolve().parent / "results" / "race_study.csv"
FIELDS = (
    "k",
    "study",
    "n",
    "rep",
    "design",
    "any_significant",
    "best",
    "decisions",
    "fits_mean",
    "fits_max",
    "stopped",
    "seconds",
)


def dataset(k, study, n, rep):
    rng = np.random.default_rng([SEED, 91, k, rep, n])
    X = rng.standard_normal((n, 4 * k))
    b = np.full(k, 0.5) if study == "null" else np.r_[0.7, np.full(k - 1, 0.4)]
    s = X.reshape(n, k, 4).sum(axis=2) @ b
    y = (rng.random(n) < 1 / (1 + np.exp(-s))).astype(int)
    models = {f"m{j}": BlockLogistic(tuple(range(4 * j, 4 * j + 4))) for j in range(k)}
    return X, y, models, int(rng.integers(2**31 - 1))


def replicate(k, study, n, rep):
    import skperf

    X, y, models, seed = dataset(k, study, n, rep)
    rows = []
    for design, n_repeats in (("sequential", "auto"), ("fixed", 10)):
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = skperf.compare_models(
                models, X, y, random_state=seed, n_jobs=1, n_repeats=n_repeats
            )
        pw = r.pairwise()
        sig = pw["decision"] != "no significant difference"
        rows.append(
            {
                "k": k,
                "study": study,
                "n": n,
                "rep": rep,
                "design": design,
                "any_significant": int(sig.any()),
                "best": r.best,
                "decisions": ";".join(
                    f"{a}>{b}" if d.startswith("better") else f"{b}>{a}"
                    for a, b, d in zip(
                        pw["model_a"], pw["model_b"], pw["decision"], strict=True
                    )
                    if d != "no significant difference"
                ),
                "fits_mean": float(np.mean(list(r.fits.values()))),
                "fits_max": max(r.fits.values()),
                "stopped": r.stopped,
                "seconds": time.perf_counter() - t0,
            }
        )
    return rows


def run(args):
    done = set()
    if OUT.exists():
        import pandas as pd

        d = pd.read_csv(OUT)
        done = set(zip(d.k, d.study, d.n, d.rep, strict=True))
    new = not OUT.exists()
    with OUT.open("a", newline="") as fh:
        w = csv.DictWriter(fh, FIELDS)
        if new:
            w.writeheader()
        for rep in range(args.reps):
            if (args.k, args.study, args.n, rep) in done:
                continue
            for row in replicate(args.k, args.study, args.n, rep):
                w.writerow(row)
            fh.flush()


def summary(args):
    import pandas as pd

    d = pd.read_csv(OUT, keep_default_na=False)
    out = []
    for (k, study, n), g in d.groupby(["k", "study", "n"]):
        s = g[g.design == "sequential"].set_index("rep")
        f = g[g.design == "fixed"].set_index("rep").loc[s.index]
        D = len(s)
        rate = s.any_significant.mean()
        out.append(
            {
                "models": k,
                "study": study,
                "n": n,
                "datasets": D,
                "any_significant": rate,
                "mc_se": float(np.sqrt(max(rate, 0.05) * (1 - max(rate, 0.05)) / D)),
                "fixed_any_significant": f.any_significant.mean(),
                "same_decisions": float((s.decisions == f.decisions).mean()),
                "same_best": float((s.best == f.best).mean()),
                "m0_decided_best": float(s.decisions.str.count("m0>").eq(k - 1).mean()),
                "fixed_m0_decided_best": float(
                    f.decisions.str.count("m0>").eq(k - 1).mean()
                ),
                "fits_mean": s.fits_mean.mean(),
                "fits_ratio": s.fits_mean.sum() / f.fits_mean.sum(),
                "fits_median": s.fits_mean.median(),
                "fits_p90": s.fits_mean.quantile(0.9),
            }
        )
    table = pd.DataFrame(out)
    print(table.to_string(float_format=lambda v: f"{v:.4g}"))
    table.to_csv(
        OUT.with_name("race_study_summary.csv"), index=False, float_format="%.5g"
    )


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=("run", "summary"))
    p.add_argument("--k", type=int, default=3)
    p.add_argument("--study", default="null", choices=("null", "power"))
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--reps", type=int, default=400)
    args = p.parse_args(argv)
    run(args) if args.what == "run" else summary(args)


if __name__ == "__main__":
    main()
