"""Coverage of the mean intervals (t, percentile bootstrap, BCa) by n.

Distributions of scores: normal, a left-skewed Beta (accuracy-like, bounded),
accuracy on a 200-example test set (Binomial(200, 0.9) / 200, ties), a
lognormal (right-skewed) and Student t with 3 degrees of freedom (heavy
tails). n = 2 ... 100, confidence 0.90 and 0.95, 4000 runs per cell (2000
for n >= 50), 2000 bootstrap resamples. Every run is one batch element of a
single vectorized ``mean_ci`` call.

Writes docs/mean_coverage.csv and prints a pivot table.

Usage: python benchmarks/mean_coverage.py [--runs 4000]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from scipy import stats

from skperf.stats import mean_ci
from skperf.stats._mean import _BOOT_MIN_N

SIZES = (2, 3, 5, 7, 10, 15, 20, 25, 30, 50, 100)
CONFIDENCES = (0.90, 0.95)
METHODS = ("t", "bootstrap", "bca")

DISTRIBUTIONS = {
    "normal(0.8, 0.05)": stats.norm(0.8, 0.05),
    "beta(5, 1.5)": stats.beta(5, 1.5),
    "binomial(200, 0.9)/200": None,  # accuracy on a 200-example test set
    "lognormal(0, 1)": stats.lognorm(1.0),
    "t(3)": stats.t(3),
}


def draw(name, size, rng):
    """Samples and the true mean."""
    if name == "binomial(200, 0.9)/200":
        return rng.binomial(200, 0.9, size) / 200, 0.9
    dist = DISTRIBUTIONS[name]
    return dist.rvs(size=size, random_state=rng), float(dist.mean())


def table(n_runs=4000, n_boot=2000, seed=0):
    import pandas as pd

    rows = []
    ss = np.random.SeedSequence(seed)
    for name, child in zip(DISTRIBUTIONS, ss.spawn(len(DISTRIBUTIONS)), strict=True):
        for n, sub in zip(SIZES, child.spawn(len(SIZES)), strict=True):
            runs = n_runs if n < 50 else n_runs // 2
            rng = np.random.default_rng(sub)
            x, mu = draw(name, (runs, n), rng)
            for conf in CONFIDENCES:
                for method in METHODS:
                    if method != "t" and n < _BOOT_MIN_N[method]:
                        ci = _raw_bootstrap(x, conf, method, n_boot, rng)
                    else:
                        ci = mean_ci(
                            x,
                            confidence=conf,
                            method=method,
                            n_boot=n_boot,
                            random_state=rng,
                        )
                    inside = (ci.low <= mu) & (mu <= ci.high)
                    cov = float(inside.mean())
                    rows.append(
                        {
                            "distribution": name,
                            "n": n,
                            "confidence": conf,
                            "method": method,
                            "coverage": cov,
                            "se": float(np.sqrt(cov * (1 - cov) / runs)),
                            "runs": runs,
                        }
                    )
    return pd.DataFrame(rows)


def _raw_bootstrap(x, conf, method, n_boot, rng):
    """The interval mean_ci would give without its minimum-n check."""
    from skperf.stats import _mean

    saved = _mean._BOOT_MIN_N
    try:
        _mean._BOOT_MIN_N = dict.fromkeys(saved, 2)
        return mean_ci(
            x, confidence=conf, method=method, n_boot=n_boot, random_state=rng
        )
    finally:
        _mean._BOOT_MIN_N = saved


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4000)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--out", default=str(Path(__file__).parents[1] / "docs"))
    args = parser.parse_args()
    t0 = time.perf_counter()
    df = table(args.runs, args.n_boot)
    path = Path(args.out) / "mean_coverage.csv"
    df.round(4).to_csv(path, index=False)
    pivot = df.pivot_table(
        index=["confidence", "method", "distribution"], columns="n", values="coverage"
    )
    print(pivot.round(3).to_string())
    print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
