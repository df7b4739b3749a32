"""compare(): vectorized bootstrap of P(A > B) vs a per-resample Python loop.

Both compute the same percentile interval from the same resamples (paired,
n = 50 pairs, n_boot = 2000, compare(method="bootstrap")); the script checks
that the bounds agree and prints the speed ratio. compare() also computes the
t interval of the mean difference and the Wilcoxon test, which the loop does
not. It also times the default compare(method="auto") (the exact sign
interval, paired; Newcombe's score interval, unpaired), which must not be
slower than the bootstrap.

Run: python benchmarks/bench_compare.py
"""

import time

import numpy as np

from skperf import PerformanceDistribution
from skperf._compare import compare

N, N_BOOT, REPEATS = 50, 2000, 20
TARGET = 20.0  # issue 4: >= 20x faster than a per-resample loop


def loop_ci(a, b, n_boot, rng, confidence=0.95):
    """The textbook loop (Bouthillier et al., App. C.5): one resample at a time."""
    n = a.size
    boot = np.empty(n_boot)
    for r in range(n_boot):
        idx = rng.integers(0, n, size=n)
        ar, br = a[idx], b[idx]
        boot[r] = np.mean((ar > br) + 0.5 * (ar == br))
    alpha = 1 - confidence
    return np.quantile(boot, [alpha / 2, 1 - alpha / 2])


def best_time(func, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    return min(times), np.median(times)


def main():
    rng = np.random.default_rng(0)
    seeds = {"split": np.arange(N)}
    base = rng.normal(0.8, 0.02, size=N)
    a = PerformanceDistribution(base + rng.normal(0.005, 0.01, size=N), seeds=seeds)
    b = PerformanceDistribution(base + rng.normal(0.0, 0.01, size=N), seeds=seeds)

    res = compare(a, b, method="bootstrap", n_boot=N_BOOT, random_state=1)
    low, high = loop_ci(np.asarray(a), np.asarray(b), N_BOOT, np.random.default_rng(1))
    assert res.paired
    if not (np.isclose(res.low, low) and np.isclose(res.high, high)):
        raise AssertionError(f"different intervals: {res!r} vs [{low}, {high}]")

    t_vec, m_vec = best_time(
        lambda: compare(a, b, method="bootstrap", n_boot=N_BOOT, random_state=1),
        REPEATS,
    )
    t_auto, m_auto = best_time(lambda: compare(a, b), REPEATS)
    ua = PerformanceDistribution(np.asarray(a))  # no seeds: unpaired
    ub = PerformanceDistribution(np.asarray(b))
    t_unp, m_unp = best_time(lambda: compare(ua, ub), REPEATS)
    t_unp_boot, _ = best_time(
        lambda: compare(ua, ub, method="bootstrap", n_boot=N_BOOT, random_state=1),
        REPEATS,
    )
    t_loop, m_loop = best_time(
        lambda: loop_ci(np.asarray(a), np.asarray(b), N_BOOT, np.random.default_rng(1)),
        5,
    )
    print(
        f"n = {N} pairs, n_boot = {N_BOOT}; identical CI [{res.low:.4f}, {res.high:.4f}]"
    )
    print(
        f"compare() (vectorized, + t interval + Wilcoxon): best {t_vec * 1e3:.2f} ms, "
        f"median {m_vec * 1e3:.2f} ms"
    )
    print(
        f"per-resample Python loop (CI only):             best {t_loop * 1e3:.2f} ms, "
        f"median {m_loop * 1e3:.2f} ms"
    )
    print(
        f"compare() method='auto' (paired: sign):          best {t_auto * 1e3:.2f} ms, "
        f"median {m_auto * 1e3:.2f} ms"
    )
    print(
        f"compare() method='auto' (unpaired: newcombe):    best {t_unp * 1e3:.2f} ms, "
        f"median {m_unp * 1e3:.2f} ms (bootstrap: best {t_unp_boot * 1e3:.2f} ms)"
    )
    ratio = t_loop / t_vec
    ok = ratio >= TARGET and t_auto <= t_vec and t_unp <= t_unp_boot
    verdict = "PASS" if ok else "FAIL"
    print(
        f"speed-up (best times): {ratio:.1f}x  (target >= {TARGET:g}x); exact "
        f"methods not slower than the bootstrap: {verdict}"
    )


if __name__ == "__main__":
    main()
