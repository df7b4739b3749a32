"""Coverage of the many-datasets intervals and error rate of the Bayesian test.

Seeded simulation (issue 19). A population of datasets: on dataset d, model
k's expected score is ``mu_dk = a_d + b_k + c_dk`` with a dataset level
``a_d ~ N(0.8, 0.05^2)``, a model effect ``b_k`` and a dataset x model
interaction ``c_dk ~ N(0, tau^2)``; its runs are ``mu_dk + s_dr + e_dkr``,
``s_dr ~ N(0, sigma^2)`` shared by all models (paired runs: the same split)
and ``e_dkr ~ N(0, sigma^2)`` of its own. A benchmark draws N datasets and R
runs per model and dataset.

Targets (over the population of datasets, "new datasets"), from 400,000
fresh datasets:

- mean rank, two versions: of the R-run means (what a benchmark with R runs
  ranks: includes run noise) and of the expected scores ``mu_dk``;
- the aggregates: mean (``E mu``), median (of the R-run means), IQM (of the
  pooled runs).

Intervals at 95 %, as BenchmarkReport computes them from the two-level
bootstrap (datasets, then runs): percentile for the mean ranks, expanded
percentile (Hesterberg 2015) for the aggregates; for comparison, the plain
percentile interval of the mean, and rliable's runs-only stratified
bootstrap (datasets fixed). Bayesian signed-rank (rope 0.01, decision at P > 0.95):
the share of benchmarks whose decision is wrong, for two models with equal
effects (any "better"/"worse" is wrong), and with a true difference of 0.005
(inside the rope: "better"/"worse" is wrong) and of 0.02 (outside: "worse" or
"practically equivalent" is wrong).

Run (about 10 minutes on one core):
``python benchmarks/benchmark_coverage.py`` writes
benchmarks/results/benchmark_coverage.csv and prints the table.
"""

import os
import sys
import time

import numpy as np
import pandas as pd
from scipy import stats

from skperf.stats import _ranks

EFFECTS = np.array([0.0, 0.005, 0.01, 0.02])  # b_k, K = 4 models
TAU = 0.01
SIGMA = 0.01
CONFIDENCE = 0.95
N_SIMS = int(os.environ.get("SKPERF_BENCH_SIMS", 300))
N_BOOT = 1000
CELLS = [(10, 5), (10, 30), (30, 5), (30, 30)]  # (N datasets, R runs)
OUT = os.path.join(os.path.dirname(__file__), "results", "benchmark_coverage.csv")


def _draw(rng, n, r, effects=EFFECTS, tau=TAU, sigma=SIGMA):
    k = effects.size
    a = rng.normal(0.8, 0.05, (n, 1, 1))
    mu = a + effects + rng.normal(0, tau, (n, 1, k))
    runs = mu + rng.normal(0, sigma, (n, r, 1)) + rng.normal(0, sigma, (n, r, k))
    return mu[:, 0, :], runs


def _targets(r, rng):
    mu, runs = _draw(rng, 400_000, r)
    means = runs.mean(axis=1)
    t = {
        "mean rank (R-run means)": _ranks.mean_ranks(means),
        "mean rank (expected scores)": _ranks.mean_ranks(mu),
        "mean": mu.mean(axis=0),
        "median": np.median(means, axis=0),
        "iqm": np.array(
            [stats.trim_mean(runs[:50_000, :, j].ravel(), 0.25) for j in range(4)]
        ),
    }
    return t


def _stat(sample):
    per = np.nanmean(sample, axis=2)  # (b, D, K)
    ranks = stats.rankdata(-per, axis=-1).mean(axis=1)
    return np.stack(
        [
            ranks,
            per.mean(axis=1),
            np.median(per, axis=1),
            _ranks.aggregate(sample, "iqm"),
        ],
        axis=1,
    )  # (b, 4, K)


def _coverage(n, r, seed):
    rng = np.random.default_rng([seed, n, r])
    targets = _targets(r, rng)
    names = ["mean rank", "mean", "median", "iqm"]
    hits = {key: np.zeros(4) for key in targets}
    hits["mean (plain percentile)"] = np.zeros(4)
    hits["mean (runs-only bootstrap)"] = np.zeros(4)
    widths = {key: [] for key in hits}
    for sim in range(N_SIMS):
        _, runs = _draw(rng, n, r)
        n_runs = np.full((n, 4), r)
        reps = _ranks.two_level_bootstrap(
            runs,
            n_runs,
            _stat,
            n_boot=N_BOOT,
            random_state=np.random.SeedSequence([seed, n, r, sim]),
        )
        # as BenchmarkReport: percentile for the ranks, expanded percentile
        # (Hesterberg 2015) for the aggregates
        low, high = _ranks.percentile_interval(reps, CONFIDENCE)  # (4 stats, K)
        elow, ehigh = _ranks.expanded_percentile_interval(reps, CONFIDENCE, n)
        for key, t in targets.items():
            i = names.index(key.split(" (")[0])
            lo, hi = (low[i], high[i]) if i == 0 else (elow[i], ehigh[i])
            hits[key] += (lo <= t) & (t <= hi)
            widths[key].append(hi - lo)
        t = targets["mean"]
        hits["mean (plain percentile)"] += (low[1] <= t) & (t <= high[1])
        widths["mean (plain percentile)"].append(high[1] - low[1])
        reps = _ranks.two_level_bootstrap(
            runs,
            n_runs,
            lambda s: np.nanmean(s, axis=2).mean(axis=1),
            resample="runs",
            n_boot=N_BOOT,
            random_state=np.random.SeedSequence([seed, n, r, sim, 1]),
        )
        lo, hi = _ranks.percentile_interval(reps, CONFIDENCE)
        t = targets["mean"]
        hits["mean (runs-only bootstrap)"] += (lo <= t) & (t <= hi)
        widths["mean (runs-only bootstrap)"].append(hi - lo)
    rows = []
    for key in hits:
        cov = hits[key] / N_SIMS
        rows.append(
            {
                "quantity": key,
                "n_datasets": n,
                "n_runs": r,
                "coverage_min": cov.min(),
                "coverage_mean": cov.mean(),
                "coverage_by_model": " ".join(f"{c:.3f}" for c in cov),
                "mean_width": float(np.mean(widths[key])),
                "n_sims": N_SIMS,
            }
        )
    return rows


def _bayes_errors(n, r, seed, n_sims=N_SIMS):
    rng = np.random.default_rng([seed, n, r, 7])
    rows = []
    for label, diff in [("equal", 0.0), ("inside rope", 0.005), ("outside rope", 0.02)]:
        wrong = 0
        decisions = {"better": 0, "worse": 0, "practically equivalent": 0, "none": 0}
        for sim in range(n_sims):
            _, runs = _draw(rng, n, r, effects=np.array([diff, 0.0]))
            means = runs.mean(axis=1)
            pb, pr, pw = _ranks.bayesian_signed_rank(
                means[:, 0] - means[:, 1],
                rope=0.01,
                n_samples=20000,
                random_state=np.random.SeedSequence([seed, n, r, sim]),
            )
            d = (
                "better"
                if pb > CONFIDENCE
                else "worse"
                if pw > CONFIDENCE
                else "practically equivalent"
                if pr > CONFIDENCE
                else "none"
            )
            decisions[d] += 1
            if label in ("equal", "inside rope"):
                wrong += d in ("better", "worse")
            else:
                wrong += d in ("worse", "practically equivalent")
        rows.append(
            {
                "quantity": f"bayesian signed-rank, difference {label} ({diff:g})",
                "n_datasets": n,
                "n_runs": r,
                "error_rate": wrong / n_sims,
                "better": decisions["better"] / n_sims,
                "rope": decisions["practically equivalent"] / n_sims,
                "worse": decisions["worse"] / n_sims,
                "undecided": decisions["none"] / n_sims,
                "n_sims": n_sims,
            }
        )
    return rows


def main(seed=2026):
    t0 = time.time()
    rows = []
    for n, r in CELLS:
        rows += _coverage(n, r, seed)
        rows += _bayes_errors(n, r, seed)
        print(f"cell N={n} R={r} done ({time.time() - t0:.0f} s)", file=sys.stderr)
    frame = pd.DataFrame(rows)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    frame.to_csv(OUT, index=False, float_format="%.4g")
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(frame.to_string(index=False))


if __name__ == "__main__":
    main()
