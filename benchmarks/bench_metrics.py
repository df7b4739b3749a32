"""Benchmark of skperf.metrics test-set intervals against plain loops.

Run: ``python benchmarks/bench_metrics.py``. Ratios are measured in one run
and each target of the issue is printed with PASS/FAIL:

1. percentile bootstrap CI of F1 and of accuracy, 100,000 binary
   predictions, 2,000 resamples, vs a per-resample loop calling
   ``sklearn.metrics.f1_score`` / ``accuracy_score`` (target >= 50x);
   peak extra memory measured with tracemalloc against the stated bound;
2. a generic metric (mean absolute error, log loss), 100,000 rows, 2,000
   resamples, vs the same loop (target >= 3x), with the default threads
   and with one thread; peak extra memory against the stated bound;
3. DeLong on 1,000,000 scores vs the ``confidenceinterval`` package's
   DeLong (target >= 4x), and near-linear growth from 10^4 to 10^6 scores
   (target: growth exponent log(t(10^6) / t(10^4)) / log(100) <= 1.2;
   n log n gives 1.09).

The loop baselines are timed on 200 resamples and scaled to 2,000; every
timing is the best of 3 because the machine may be shared.
"""

import itertools
import os
import time
import tracemalloc

import numpy as np
from sklearn import metrics as skm

import skperf.metrics._resample as resample
from skperf.metrics import metric_ci
from skperf.stats._auc import roc_auc_ci

N = 100_000
N_BOOT = 2_000
# the loop baseline is timed on this many resamples and scaled to N_BOOT
N_LOOP = 200


def _time(f, repeat=1):
    best = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def _loop(func, y, p, n_loop=N_LOOP, repeat=1):
    rng = np.random.default_rng(0)

    def run():
        vals = []
        for _ in range(n_loop):
            idx = rng.integers(0, y.size, y.size)
            vals.append(func(y[idx], p[idx]))
        return np.percentile(vals, [2.5, 97.5])

    t, _ = _time(run, repeat=repeat)
    return t * N_BOOT / n_loop


def _peak(f):
    tracemalloc.start()
    f()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _verdict(ok):
    return "PASS" if ok else "FAIL"


def main():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, N)
    pred = np.where(rng.random(N) < 0.85, y, 1 - y)
    proba = np.clip(0.35 * y + 0.65 * rng.random(N), 1e-6, 1 - 1e-6)
    yr = rng.normal(size=N)
    pr = yr + rng.normal(size=N)

    # inputs are O(n): y, predictions, a copy as arrays, the per-row feature
    # matrix with a ones column (<= 5 columns), its transpose and a mask
    bound = resample._memory_bound(N) + 16 * 8 * N
    threads = min(resample._N_THREADS, os.cpu_count() or 1)
    print(
        f"stated bound on peak extra memory: {bound / 2**20:.0f} MiB = resampling "
        f"work arrays {resample._memory_bound(N) / 2**20:.0f} MiB (48 bytes x "
        f"max(_BLOCK_ELEMENTS={resample._BLOCK_ELEMENTS:,}, n) per thread, "
        f"{threads} threads) + 16 n x 8 bytes of O(n) arrays"
    )
    print(f"== 1. confusion-count metrics, n={N:,}, n_boot={N_BOOT:,} (target >= 50x)")
    for name, func in (("f1", skm.f1_score), ("accuracy", skm.accuracy_score)):
        t_loop = _loop(func, y, pred, repeat=2)
        t_ours, ci = _time(
            lambda name=name: metric_ci(
                y, pred, metric=name, method="percentile", n_boot=N_BOOT, random_state=0
            ),
            repeat=3,
        )
        peak = _peak(
            lambda name=name: metric_ci(
                y, pred, metric=name, method="percentile", n_boot=N_BOOT, random_state=0
            )
        )
        ratio = t_loop / t_ours
        print(
            f"{name:9s} loop {t_loop:7.2f} s  skperf {t_ours:7.4f} s  ratio "
            f"{ratio:8.0f}x {_verdict(ratio >= 50)}  peak extra memory "
            f"{peak:6.1f} MiB {_verdict(peak * 2**20 <= bound)}  "
            f"CI [{ci.low:.4f}, {ci.high:.4f}]"
        )

    print(f"== 2. generic metrics, n={N:,}, n_boot={N_BOOT:,} (target >= 3x)")
    threads = resample._N_THREADS
    print(f"   (skperf with {threads} threads, and with one thread)")
    for name, func, yt, yp in (
        ("mean_absolute_error", skm.mean_absolute_error, yr, pr),
        ("log_loss", skm.log_loss, y, proba),
    ):
        t_loop = _loop(
            func, yt, yp, n_loop=100 if name == "log_loss" else N_LOOP, repeat=3
        )
        timings = {}
        for n_threads in (threads, 1):
            resample._N_THREADS = n_threads
            timings[n_threads], ci = _time(
                lambda name=name, yt=yt, yp=yp: metric_ci(
                    yt,
                    yp,
                    metric=name,
                    method="percentile",
                    n_boot=N_BOOT,
                    random_state=0,
                ),
                repeat=3,
            )
        resample._N_THREADS = threads
        peak = _peak(
            lambda name=name, yt=yt, yp=yp: metric_ci(
                yt, yp, metric=name, method="percentile", n_boot=N_BOOT, random_state=0
            )
        )
        t_ours = timings[threads]
        ratio = t_loop / t_ours
        print(
            f"{name:20s} loop {t_loop:6.2f} s  skperf {t_ours:5.2f} s  ratio "
            f"{ratio:5.1f}x {_verdict(ratio >= 3)}  (one thread: "
            f"{timings[1]:5.2f} s, {t_loop / timings[1]:4.1f}x)  peak extra memory "
            f"{peak:6.1f} MiB {_verdict(peak * 2**20 <= bound)}  "
            f"CI [{ci.low:.4f}, {ci.high:.4f}]"
        )

    print("== 3. DeLong")
    sizes = [10_000, 100_000, 1_000_000]
    times = {}
    for n in sizes:
        yy = rng.integers(0, 2, n)
        ss = np.round(yy + rng.normal(size=n), 3)  # ties included
        t, ci = _time(lambda yy=yy, ss=ss: roc_auc_ci(yy, ss), repeat=7)
        times[n] = t
        print(
            f"n={n:>9,}  skperf DeLong {t:7.3f} s  AUC {ci.estimate:.4f} [{ci.low:.4f}, {ci.high:.4f}]"
        )
    for a, b in itertools.pairwise(sizes):
        print(
            f"  time ratio n={b:,} / n={a:,}: {times[b] / times[a]:.1f} (linear: {b / a:.0f})"
        )
    expo = np.log(times[sizes[-1]] / times[sizes[0]]) / np.log(sizes[-1] / sizes[0])
    print(
        f"  growth exponent 10^4 -> 10^6: {expo:.2f} (target <= 1.2, n log n: "
        f"1.09) {_verdict(expo <= 1.2)}"
    )
    try:
        from confidenceinterval import roc_auc_score as ci_roc_auc

        ref_name = "confidenceinterval.roc_auc_score(method='delong')"

        def ref(yy, ss):
            return ci_roc_auc(yy, ss, confidence_level=0.95, method="delong")
    except ImportError:  # pragma: no cover
        from scipy import special
        from scipy.stats import rankdata

        ref_name = "straightforward O(n log n) DeLong with scipy midranks"

        def ref(yy, ss):
            pos, neg = yy == 1, yy == 0
            m, n = int(pos.sum()), int(neg.sum())
            ranks = rankdata(ss)
            v10 = (ranks[pos] - rankdata(ss[pos])) / n
            v01 = 1 - (ranks[neg] - rankdata(ss[neg])) / m
            auc = v10.mean()
            se = np.sqrt(v10.var(ddof=1) / m + v01.var(ddof=1) / n)
            z = special.ndtri(0.975)
            return auc, (auc - z * se, auc + z * se)

    yy = rng.integers(0, 2, 1_000_000)
    for label, ss in (
        ("continuous scores", yy + rng.normal(size=yy.size)),
        (
            "scores rounded to 3 decimals (many ties)",
            np.round(yy + rng.normal(size=yy.size), 3),
        ),
    ):
        t_ours, ci = _time(lambda ss=ss: roc_auc_ci(yy, ss), repeat=3)
        t_ref, out = _time(lambda ss=ss: ref(yy, ss), repeat=3)
        ratio = t_ref / t_ours
        print(
            f"n=1,000,000, {label}: {ref_name} {t_ref:.3f} s, skperf {t_ours:.3f} s, "
            f"ratio {ratio:.1f}x (target >= 4x) {_verdict(ratio >= 4)}; CIs skperf "
            f"[{ci.low:.5f}, {ci.high:.5f}] vs ref [{out[1][0]:.5f}, {out[1][1]:.5f}]"
        )


if __name__ == "__main__":
    main()
