"""Speed and numbers of the decision tools (requirements, band, simultaneous CIs).

1. Speed at n = 1,000,000 scores: ``requirement`` and ``quantile_band``
   (target: well under a second each), ``PerformanceDistribution``
   methods included.
2. Simultaneous intervals against the Bonferroni split of exact intervals
   and the pointwise ones: exact joint coverage (recursion) and mean length
   on normal scores (fixed seed), n = 20, 50, 200. This is the table in
   docs/user_guide/how_many_runs.rst.
3. Joint coverage of the KS band by simulation (2000 runs per cell).

Usage: python benchmarks/bench_decisions.py
(writes benchmarks/results/bench_decisions.txt)
"""

# k, l are the paper's order-statistic indices (eq. 8)
# ruff: noqa: E741

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from _timing import best_of
from scipy import stats

from skperf import PerformanceDistribution
from skperf.stats import joint_coverage, quantile_band, requirement
from skperf.stats._band import _band_at, _epsilon
from skperf.stats._simultaneous import _pairs, _simultaneous_pairs

LEVELS = {20: [0.25, 0.5, 0.75], 50: [0.1, 0.25, 0.5, 0.75, 0.9]}
LEVELS[200] = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95]


def speed(out):
    n = 1_000_000
    x = np.random.default_rng(0).normal(0.9, 0.02, size=n)
    d = PerformanceDistribution(x)
    out.append(f"Speed at n = {n:,} scores (best of 5)")
    cases = [
        ("stats.requirement", lambda: requirement(x, 0.87)),
        ("PerformanceDistribution.requirement", lambda: d.requirement(0.87)),
        ("stats.quantile_band", lambda: quantile_band(x)),
        ("PerformanceDistribution.quantile_band", lambda: d.quantile_band()),
    ]
    band = quantile_band(x)
    cases.append(("QuantileBand.at (999 levels)", lambda: band.at(band.q)))
    for name, func in cases:
        t = best_of(func)
        verdict = "PASS" if t < 0.5 else "FAIL"
        out.append(f"  {name:40s} {1000 * t:8.1f} ms  (target < 500 ms) {verdict}")
    r = requirement(x, 0.87)
    out.append(f"  verdict {r.verdict}, bound {r.bound:.5f}, share {r.estimate:.4f}")


def simultaneous_table(out):
    c = 0.95
    out.append("")
    out.append("Simultaneous intervals vs Bonferroni (95 %): exact joint coverage,")
    out.append("mean total length (sum over levels) on N(0, 1) scores, 2000 samples")
    out.append(
        f"  {'n':>4} {'levels':>30} {'method':>13} {'joint cov.':>10} "
        f"{'mean length':>11} {'vs Bonf.':>8}"
    )
    rows = []
    for n, q in LEVELS.items():
        q = np.array(q)
        x = np.sort(np.random.default_rng(n).normal(size=(2000, n)), axis=-1)
        k0, l0 = _pairs(n, q, c)
        kb, lb = _pairs(n, q, 1 - (1 - c) / q.size)
        ks, ls, _, _ = _simultaneous_pairs(n, q, c)
        lengths = {}
        for name, (k, l) in {
            "pointwise": (k0, l0),
            "Bonferroni": (kb, lb),
            "simultaneous": (ks, ls),
        }.items():
            cov = joint_coverage(n, q, k, l)
            length = (x[:, l - 1] - x[:, k - 1]).sum(axis=1).mean()
            lengths[name] = length
            rows.append((n, q, name, cov, length))
        for n_, q_, name, cov, length in rows[-3:]:
            ratio = length / lengths["Bonferroni"]
            levels = ", ".join(f"{v:g}" for v in q_)
            out.append(
                f"  {n_:>4} {levels:>30} {name:>13} {cov:>10.4f} {length:>11.3f} "
                f"{ratio:>8.3f}"
            )


def band_coverage(out):
    c, reps = 0.95, 2000
    grid = np.r_[np.arange(1, 2000) / 2000, 1e-4, 1 - 1e-4]
    out.append("")
    out.append("Quantile band: joint coverage of Q(u) on 2001 levels, 2000 runs, 95 %")
    out.append(f"  {'n':>4} {'distribution':>14} {'ks':>7} {'dkw':>7}")
    dists = {
        "normal": (lambda r, s: r.normal(size=s), stats.norm.ppf(grid)),
        "beta(5,1.5)": (
            lambda r, s: r.beta(5, 1.5, size=s),
            stats.beta.ppf(grid, 5, 1.5),
        ),
        "Bin(200,.9)/200": (
            lambda r, s: r.binomial(200, 0.9, size=s) / 200,
            stats.binom.ppf(grid, 200, 0.9) / 200,
        ),
    }
    for n in (20, 50, 200):
        for name, (draw, truth) in dists.items():
            xs = np.sort(draw(np.random.default_rng(n), (reps, n)), axis=-1)
            cov = []
            for method in ("ks", "dkw"):
                low, high = _band_at(xs, grid, _epsilon(n, c, method))
                cov.append(np.all((low <= truth) & (truth <= high), axis=-1).mean())
            out.append(f"  {n:>4} {name:>14} {cov[0]:>7.3f} {cov[1]:>7.3f}")


def main():
    out = []
    speed(out)
    simultaneous_table(out)
    band_coverage(out)
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    path = Path(__file__).parent / "results" / "bench_decisions.txt"
    path.write_text(text)


if __name__ == "__main__":
    main()
