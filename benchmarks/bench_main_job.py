"""The main job (``skperf report``'s models on breast cancer), fixed vs sequential.

Issue 26: the sequential default must make the same decisions as the fixed
10 x 10-fold design with at most half of its fits, and the statistics must
stay under 1 % of the fit time per round. For ``--seeds`` random states,
runs ``compare_models`` with the CLI's default models once with the fixed
design (``n_repeats=10``) and once sequential (the default), in the same
process, and records: fits per model, wall time, the chosen model and the
pairwise decisions, and the time spent in the stopping rule's looks.

Run: python benchmarks/bench_main_job.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skperf import compare_models
from skperf.cli._models import _default_models
from skperf.report import _compare_models as _ms

OUT = Path(__file__).resolve().parent / "results" / "bench_main_job.txt"


def _models():
    models = _default_models(regression=False)
    lr = models["logistic_regression"]
    models["logistic_regression"] = make_pipeline(StandardScaler(), lr)
    return models


_MIRROR = {"better": "worse", "worse": "better"}


def _decisions(report):
    """``{(a, b): decision}`` with ``a < b`` by name: the pairs' decisions
    whatever the ranking of two models found equal (a race's model stopped
    early has its mean over fewer splits, and may rank the other way)."""
    pw = report.pairwise()
    out = {}
    for a, b, d in zip(pw["model_a"], pw["model_b"], pw["decision"], strict=True):
        if a > b:
            a, b, d = b, a, _MIRROR.get(d, d)
        out[a, b] = d
    return out


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args(argv)
    X, y = load_breast_cancer(return_X_y=True)
    look_time = [0.0]
    call = _ms._RaceStopping.__call__

    def timed(self, *a, **k):
        start = time.perf_counter()
        try:
            return call(self, *a, **k)
        finally:
            look_time[0] += time.perf_counter() - start

    _ms._RaceStopping.__call__ = timed
    lines, fits_ratio, same = [], [], 0
    for seed in range(args.seeds):
        runs = {}
        for label, kw in (("fixed", {"n_repeats": 10}), ("sequential", {})):
            look_time[0] = 0.0
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                rep = compare_models(
                    _models(), X, y, random_state=seed, n_jobs=-1, **kw
                )
            wall = time.perf_counter() - start
            fits = float(np.mean(list(rep.fits.values())))  # a race: per model
            fit_time = sum(
                ev.results_["fit_time"].sum() for ev in rep.evaluators.values()
            )
            runs[label] = (rep, wall, fits, look_time[0], fit_time)
        (rf, wf, ff, _, _), (rs, ws, fs, ls, fts) = runs["fixed"], runs["sequential"]
        agree = rf.best == rs.best and _decisions(rf) == _decisions(rs)
        same += agree
        fits_ratio.append(fs / ff)
        lines.append(
            f"seed {seed}: fixed {ff:.0f} fits/model {wf:.1f} s, best {rf.best}; "
            f"sequential {fs:.1f} fits/model {rs.fits} ({rs.stopped}) {ws:.1f} s, "
            f"best {rs.best}; "
            f"same decisions: {agree}; looks {ls:.3f} s = "
            f"{100 * ls / max(fts, 1e-9):.2f} % of the fit time"
        )
        print(lines[-1], flush=True)
    summary = (
        f"sequential / fixed fits per model: mean {np.mean(fits_ratio):.2f} "
        f"(target <= 0.50); same decisions in {same} of {args.seeds} seeds"
    )
    print(summary)
    OUT.write_text(
        "# python benchmarks/bench_main_job.py "
        f"--seeds {args.seeds}  (breast cancer, the CLI's default models, n_jobs=-1)\n"
        + "\n".join(lines)
        + "\n"
        + summary
        + "\n"
    )


if __name__ == "__main__":
    main()
