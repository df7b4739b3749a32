"""Speed of the many-datasets analysis (issue 19): target < 10 s.

20 datasets x 5 models x 30 paired repeats of precomputed scores (as a
cache or a CSV gives them) are analysed end to end: the 20 per-dataset
model-selection reports (BenchmarkReport.from_frame), mean ranks with the
two-level bootstrap intervals and P(best), Friedman / Iman-Davenport with
Nemenyi and Holm-Wilcoxon post-hoc tests, win/tie/loss, the four aggregates
with intervals, the Bayesian signed-rank test of all 10 pairs, markdown, and
the self-contained HTML report with the critical-difference diagram.

Prints each step's wall and CPU time and PASS/FAIL for the total (minimum
over 3 runs; the machine may be shared). Run:
``python benchmarks/bench_benchmark.py | tee benchmarks/results/bench_benchmark.txt``
"""

import os
import tempfile
import time

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np
import pandas as pd

from skperf import BenchmarkReport

D, K, R = 20, 5, 30
TARGET = 10.0


def _frame(seed=0):
    rng = np.random.default_rng(seed)
    level = rng.uniform(0.6, 0.95, D)
    effect = np.linspace(0.0, 0.02, K)
    rows = []
    for d in range(D):
        shared = rng.normal(0, 0.01, R)  # split-to-split noise shared by the models
        for k in range(K):
            scores = level[d] + effect[k] + rng.normal(0, 0.01) + shared
            scores = scores + rng.normal(0, 0.005, R)
            rows += [(f"dataset{d}", f"model{k}", r, s) for r, s in enumerate(scores)]
    return pd.DataFrame(rows, columns=["dataset", "model", "seed", "accuracy"])


def _run(frame, path):
    steps = {}

    def step(name, fn):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        steps[name] = (time.perf_counter() - t0, time.process_time() - c0)
        return out

    rep = step(
        "from_frame (20 per-dataset reports)",
        lambda: BenchmarkReport.from_frame(
            frame,
            score="accuracy",
            by="model",
            dataset="dataset",
            pair_by="seed",
            random_state=0,
        ),
    )
    step("ranks (two-level bootstrap, 2000)", rep.ranks)
    step("test nemenyi + holm", lambda: (rep.test(), rep.test(posthoc="holm")))
    step("win_tie_loss", rep.win_tie_loss)
    step(
        "aggregate mean/median/iqm/gap",
        lambda: [rep.aggregate(m) for m in ("mean", "median", "iqm", "optimality_gap")],
    )
    step("bayesian_signed_rank (10 pairs)", lambda: rep.bayesian_signed_rank(rope=0.01))
    step("to_markdown", rep.to_markdown)
    step("to_html (CD diagram)", lambda: rep.to_html(path))
    return steps


def main():
    frame = _frame()
    path = os.path.join(tempfile.mkdtemp(), "bench.html")
    _run(frame, path)  # warm-up: imports (matplotlib, scipy.stats)
    runs = [_run(frame, path) for _ in range(3)]
    totals = [sum(w for w, _ in r.values()) for r in runs]
    best = runs[int(np.argmin(totals))]
    print(f"{D} datasets x {K} models x {R} repeats ({len(frame)} runs)")
    for name, (wall, cpu) in best.items():
        print(f"  {name:<40s} wall {wall:6.2f} s   cpu {cpu:6.2f} s")
    total = min(totals)
    cpu = sum(c for _, c in best.values())
    verdict = "PASS" if total < TARGET else "FAIL"
    print(
        f"total: wall {total:.2f} s, cpu {cpu:.2f} s (target < {TARGET:g} s): {verdict}"
    )


if __name__ == "__main__":
    main()
