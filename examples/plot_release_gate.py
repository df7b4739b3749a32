"""
From a distribution to a decision: plan, verify, release
========================================================

A model is signed off when "accuracy at least 0.80 with probability at
least 0.9" holds (Lehmann & Paromau, Sec. 5: "the accuracy drops below
90 % with probability at most 10 %"). This example goes through the steps:

1. a pilot of 10 seeded runs;
2. plan: how many runs for a verdict, and for a quantile interval of a
   given width (``repeats_needed``);
3. run the rest and decide (``requirement``), with the bound that decided;
4. read several quantiles at once (simultaneous intervals, and a band for
   the whole quantile function);
5. the same verdict as a release gate in a CI pipeline (``skperf check``).
"""

import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier

from skperf import PerformanceDistribution, RepeatedEvaluator

X, y = load_breast_cancer(return_X_y=True)
THRESHOLD, PROBABILITY = 0.92, 0.9

# %%
# 1. A pilot of 10 runs
# ---------------------
# Every run refits on a fresh out-of-bootstrap split with a fresh seed.
model = RandomForestClassifier(n_estimators=30)
pilot = RepeatedEvaluator(
    model, scoring="accuracy", n_repeats=10, random_state=0, refit=False
).fit(X, y)
d = pilot.distribution_
r = d.requirement(THRESHOLD, probability=PROBABILITY)
print("pilot:", r)

# %%
# 10 runs can never show the requirement: "met" needs at least
# ``r.n_needed`` runs even if every run passes (Wilks: 1 - 0.9^n >= 0.95).
#
# 2. Plan
# -------
# The verdict needs enough runs for the exact bound to clear 0.9 when the
# true share is what the pilot shows; the interval of the 10 % quantile
# needs enough runs for a chosen width.
print(f"runs needed for 'met' to be possible at all: {r.n_needed}")
share = min(r.estimate, 0.99)  # plan against a share below 1
print(
    f"runs for 'met' with power 0.8 at share {share:.2f}: {r.repeats_needed(0.8, share)}"
)
n_q = d.repeats_needed(0.02, q=0.1)
n_mean = d.repeats_needed(0.005)
print(f"runs for a 95 % interval of the 10 % quantile no wider than 0.02: {n_q}")
print(f"runs for a 95 % interval of the mean no wider than 0.005: {n_mean}")

# %%
# 3. Run the rest and decide
# --------------------------
# Same ``random_state``: the first 10 runs are the pilot's (seeds are
# children of one SeedSequence), so the pilot is not wasted.
n_total = 60  # more than the 46 planned for power 0.8
ev = RepeatedEvaluator(
    model, scoring="accuracy", n_repeats=n_total, random_state=0, refit=False
).fit(X, y)
d = ev.distribution_
r = d.requirement(THRESHOLD, probability=PROBABILITY)
print(r)
print(f"verdict: {r.verdict}; 95 % lower bound of the 10 % quantile: {r.bound:.4f}")

# %%
# 4. Several statements at once
# -----------------------------
# Reading the 10 %, 50 % and 90 % quantiles together: pointwise intervals
# each hold with 95 %, but all three only with about 85-90 %. The
# simultaneous intervals hold jointly (exact joint coverage, Hayter 2014);
# the band holds for every level of the quantile function at once.
levels = [0.1, 0.5, 0.9]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # accuracy has ties: coverage conservative
    point = d.quantile_ci(levels, method="exact")
    joint = d.quantile_ci(levels, simultaneous=True)
band = d.quantile_band()
for i, q in enumerate(levels):
    b_lo, b_hi = band.at(q)
    print(
        f"q = {q:g}: pointwise [{point.low[i]:.4f}, {point.high[i]:.4f}], "
        f"simultaneous [{joint.low[i]:.4f}, {joint.high[i]:.4f}], "
        f"band [{b_lo:.4f}, {b_hi:.4f}]"
    )

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    ax = d.plot(band=True, quantiles=levels)
ax.axvline(THRESHOLD, color="red", linestyle="--", label="threshold")
ax.legend(loc="upper left", fontsize="small")
ax.set_title(f"requirement P(acc >= {THRESHOLD}) >= {PROBABILITY}: {r.verdict}")
plt.tight_layout()

# %%
# 5. A release gate in CI
# -----------------------
# Save one row per run; ``skperf check`` prints one line and exits 0 (met),
# 1 (not met), 3 (inconclusive) or 2 (usage error), so a pipeline step
# fails unless the requirement is shown::
#
#     - name: release gate
#       run: skperf check scores.csv --score accuracy --threshold 0.92 --probability 0.9
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "scores.csv"
    pd.DataFrame({"run": np.arange(d.n), "accuracy": d.scores}).to_csv(
        path, index=False
    )
    gate = subprocess.run(
        [
            *(sys.executable, "-m", "skperf", "check", str(path)),
            *("--score", "accuracy", "--threshold", str(THRESHOLD)),
            *("--probability", str(PROBABILITY)),
        ],
        capture_output=True,
        text=True,
    )
print(gate.stdout.strip(), f"(exit {gate.returncode})")
assert gate.returncode == r.exit_code

# %%
# The same distribution can also be built from scores produced anywhere:
# ``PerformanceDistribution(scores).requirement(...)``.
print(PerformanceDistribution(d.scores.tolist()).requirement(THRESHOLD).verdict)
