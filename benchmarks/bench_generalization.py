"""generalization_ci() vs the same fits by hand.

Issue 15, "Cost": ``method="auto"`` uses at most 100 fits per model by
default, the statistics add less than 1 % to the fit time, and a cached rerun
refits nothing.

Both arms fit the same estimators on the same train/test splits with the same
seeds: the skperf call records its designs (``skperf.model_selection._generalization._run``
is wrapped to keep its arguments), and the hand arm replays them with
``clone(est).fit(X[train], y[train])`` and the scorer on the test rows, the
plain ``cross_validate`` loop. skperf additionally keeps the test predictions
where a method needs per-row losses, computes the per-row losses and the
interval. Each arm runs
ROUNDS times, alternating, and the minimum CPU time is compared (the least
disturbed run, as ``timeit`` recommends). ``n_jobs=1`` in both arms.

Run: python benchmarks/bench_generalization.py
"""

import os
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import check_scoring

import skperf.model_selection._generalization as gen
from skperf import generalization_ci

ROUNDS = 3
TARGET_STATS = 1.01  # the statistics add < 1 % to the fits
TARGET_FITS = 100  # auto's fits per model at most
TARGET_CACHED = 0.05  # a cached rerun: loading, no fit
OUT = Path(__file__).resolve().parent / "results" / "bench_generalization.txt"

X, y = make_classification(
    n_samples=2000, n_features=20, n_informative=8, random_state=0
)
CASES = [  # (label, estimator, scoring, which auto branch it takes)
    (
        "forest, accuracy",
        RandomForestClassifier(n_estimators=50, max_depth=10),
        "accuracy",
    ),
    (
        "forest, log loss",
        RandomForestClassifier(n_estimators=50, max_depth=10),
        "neg_log_loss",
    ),
    ("logistic, log loss", LogisticRegression(max_iter=1000), "neg_log_loss"),
]


def _recording():
    """Wrap ``gen._run`` to keep every call's designs and seeds."""
    calls = []
    original = gen._run

    def run(estimator, X, y, designs, seeds, **kw):
        calls.append((estimator, designs, seeds, kw["scoring"]))
        return original(estimator, X, y, designs, seeds, **kw)

    return calls, original, run


def _by_hand(calls):
    """The same fits, fit and scored in a plain loop; returns the fit count."""
    k = 0
    for estimator, designs, seeds, scoring in calls:
        scorer = check_scoring(estimator, scoring)
        for splits, seed in zip(designs, seeds, strict=True):
            est = gen._seeded(estimator, y, seed)
            for train, test in splits:
                model = clone(est).fit(X[train], y[train])
                scorer(model, X[test], y[test])
                k += 1
    return k


def _cpu(func):
    start = time.process_time()
    out = func()
    return time.process_time() - start, out


def bench(label, call):
    calls, original, wrapped = _recording()
    gen._run = wrapped
    try:
        call()  # records the designs (and warms up)
    finally:
        gen._run = original
    skperf_t, hand_t = [], []
    for _ in range(ROUNDS):
        t, res = _cpu(call)
        skperf_t.append(t)
        t, fits = _cpu(lambda: _by_hand(calls))
        hand_t.append(t)
    ratio = min(skperf_t) / min(hand_t)
    ok = ratio <= TARGET_STATS and fits <= TARGET_FITS
    line = (
        f"{label}: {res.method}, {fits} fits; skperf {min(skperf_t):.3f} s CPU, "
        f"same fits by hand {min(hand_t):.3f} s CPU, ratio {ratio:.4f} "
        f"(target <= {TARGET_STATS}) {'PASS' if ok else 'FAIL'}"
    )
    return line, ok


def main():
    load = os.getloadavg()[0]
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    head = (
        f"# python benchmarks/bench_generalization.py  ({stamp}; load average "
        f"before the run {load:.2f} on {os.cpu_count()} cores)"
    )
    lines = [head]
    results = []
    for label, est, scoring in CASES:
        line, ok = bench(
            f"generalization_ci auto, {label}",
            lambda est=est, scoring=scoring: generalization_ci(
                est, X, y, scoring=scoring, random_state=0, n_jobs=1
            ),
        )
        lines.append(line)
        results.append(ok)
        print(line, flush=True)
    # a cached rerun refits nothing
    with tempfile.TemporaryDirectory() as tmp:
        est, scoring = CASES[1][1], CASES[1][2]
        t_first, first = _cpu(
            lambda: generalization_ci(
                est, X, y, scoring=scoring, random_state=0, memory=tmp
            )
        )
        t_again, again = _cpu(
            lambda: generalization_ci(
                est, X, y, scoring=scoring, random_state=0, memory=tmp
            )
        )
        same = (again.low, again.high) == (first.low, first.high)
        share = t_again / t_first
        ok = share <= TARGET_CACHED and same
        line = (
            f"cached rerun, forest log loss ({first.n_fits} fits): first run "
            f"{t_first:.3f} s CPU, rerun {t_again:.3f} s CPU, share {share:.4f} "
            f"(target <= {TARGET_CACHED}: loads, no fit; tests/model_selection/test_generalization.py "
            f"counts 0 fits), same interval {same} {'PASS' if ok else 'FAIL'}"
        )
        lines.append(line)
        results.append(ok)
        print(line, flush=True)
    lines.append(f"summary: {sum(results)} of {len(results)} targets PASS")
    OUT.write_text("\n".join(lines) + "\n")
    print(lines[-1])


if __name__ == "__main__":
    main()
