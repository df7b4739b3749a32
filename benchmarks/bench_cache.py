"""Cost of RepeatedEvaluator(memory=...): extending, hashing, cached reruns.

Targets (each printed with PASS/FAIL):

1. Extension: 30 repeats with the first 10 cached cost <= 1.05x an uncached
   evaluation of 20 repeats (the same number of new fits of the same model
   on the same data). LogisticRegression on 20,000 x 20, cv=None.
2. Hashing: hashing a 100,000 x 50 float array (the data key, computed once
   per fit call) adds <= 2 % to an uncached run of 30 LogisticRegression
   fits on it. Also shown: the whole first-run overhead of caching (hashing
   plus storing 30 outcomes), informative.
3. Cached rerun: a fully cached rerun of 200 fits takes <= 5 % of the
   uncached time (RandomForestClassifier(n_estimators=20) on breast_cancer,
   cv=None).

Single-threaded BLAS, n_jobs=1; every timing is the minimum over repeated
runs, since the machine may be shared. Run:
``python benchmarks/bench_cache.py | tee benchmarks/results/bench_cache.txt``
"""

import os
import shutil
import tempfile
import time
import warnings

import numpy as np
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from threadpoolctl import threadpool_limits

from skperf import RepeatedEvaluator
from skperf._cache import data_key


def timed(fn, n):
    best = np.inf
    for _ in range(n):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def ev(est, n_repeats, memory=None):
    return RepeatedEvaluator(
        est, n_repeats=n_repeats, random_state=0, refit=False, memory=memory
    )


def verdict(ok):
    return "PASS" if ok else "FAIL"


def main():
    warnings.simplefilter("ignore")
    root = tempfile.mkdtemp(prefix="bench_cache_")
    results = []
    with threadpool_limits(1):
        # 1. extension 10 -> 30 (interleaved runs: the machine may be shared)
        X, y = make_classification(n_samples=50_000, n_features=40, random_state=0)
        est = LogisticRegression(max_iter=500)
        seed_cache = os.path.join(root, "ten")
        ev(est, 10, seed_cache).fit(X, y)
        t_ext, t_new = np.inf, np.inf
        for k in range(3):
            start = time.perf_counter()
            ev(est, 20).fit(X, y)
            t_new = min(t_new, time.perf_counter() - start)
            folder = os.path.join(root, f"ext{k}")
            shutil.copytree(seed_cache, folder)
            start = time.perf_counter()
            e = ev(est, 30, folder).fit(X, y)
            t_ext = min(t_ext, time.perf_counter() - start)
            assert int(e.results_["cached"].sum()) == 10
        ratio = t_ext / t_new
        results.append(ratio <= 1.05)
        print("1. extension: 30 repeats with 10 cached vs 20 uncached repeats")
        print(
            f"   LogisticRegression 50,000 x 40: extended run {t_ext:.3f} s, "
            f"20 new repeats {t_new:.3f} s, ratio {ratio:.3f} (target <= 1.05) "
            f"{verdict(ratio <= 1.05)}"
        )

        # 2. hashing 100,000 x 50
        X, y = make_classification(n_samples=100_000, n_features=50, random_state=0)
        t_hash = timed(lambda: data_key(X, y, {}), 5)
        t_plain = timed(lambda: ev(est, 30).fit(X, y), 2)
        share = t_hash / t_plain
        results.append(share <= 0.02)
        first = []

        def first_run():
            folder = os.path.join(root, f"big{len(first)}")
            start = time.perf_counter()
            ev(est, 30, folder).fit(X, y)
            first.append(time.perf_counter() - start)
            shutil.rmtree(folder)

        for _ in range(2):
            first_run()
        print("2. hashing the data (once per fit call)")
        print(
            f"   100,000 x 50 float64 + y: hash {t_hash * 1e3:.0f} ms, run of 30 "
            f"LogisticRegression fits {t_plain:.2f} s, share {share:.2%} "
            f"(target <= 2%) {verdict(share <= 0.02)}"
        )
        print(
            f"   first run with memory (hash + 30 stores) {min(first):.2f} s: overhead "
            f"{min(first) / t_plain - 1:+.2%} (informative, no target)"
        )

        # 3. fully cached rerun of 200 fits
        X, y = load_breast_cancer(return_X_y=True)
        rf = RandomForestClassifier(n_estimators=20)
        folder = os.path.join(root, "rf")
        t_uncached = timed(lambda: ev(rf, 200).fit(X, y), 2)
        ev(rf, 200, folder).fit(X, y)
        t_cached = timed(lambda: ev(rf, 200, folder).fit(X, y), 3)
        share = t_cached / t_uncached
        results.append(share <= 0.05)
        print("3. fully cached rerun of 200 fits")
        print(
            f"   RandomForest(20 trees) on breast_cancer: uncached {t_uncached:.2f} s, "
            f"cached {t_cached:.3f} s ({t_cached / 200 * 1e3:.2f} ms per fit), "
            f"share {share:.2%} (target <= 5%) {verdict(share <= 0.05)}"
        )
    shutil.rmtree(root, ignore_errors=True)
    print(f"summary: {sum(results)} of {len(results)} targets PASS")


if __name__ == "__main__":
    start = time.perf_counter()
    print(
        f"# python benchmarks/bench_cache.py  ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"load average before the run {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)"
    )
    main()
    print(f"# wall time {time.perf_counter() - start:.0f} s")
