"""Speed of skperf's quantile intervals, as ratios measured in one run.

1. Hutson semiparametric bootstrap CI, B = 2000, n = 25, 7 quantile levels
   at once, against (a) a per-resample Python loop computing the same
   interval (target: >= 20x faster) and (b) ``scipy.stats.bootstrap(...,
   vectorized=True, method="percentile")`` computing a percentile interval
   of the same quantiles (plain nonparametric resampling; target: no
   slower).
2. Exact CI at n = 100,000 against
   ``scipy.stats.quantile_test(...).confidence_interval()`` (target: no
   slower), with skperf's cache of order-statistic pairs cleared before
   every call ("cold") and kept ("warm").

Usage: python benchmarks/bench_quantile.py
"""

from __future__ import annotations

import functools

import _timing
import numpy as np
from scipy import stats

from skperf.stats import quantile_ci
from skperf.stats._quantile import _exact_pair, _hutson_sorted

LEVELS = np.array([0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95])


best_of = functools.partial(_timing.best_of, repeat=7)


def hutson_loop(x, levels, confidence, n_boot, rng):
    """Reference: one Python iteration per resample (Hutson, Sec. 3.2.3)."""
    xs = np.sort(x)
    n = len(x)
    boot = np.empty((n_boot, len(levels)))
    for b in range(n_boot):
        u = rng.random(n)  # step 1: n uniform quantile levels
        sample = _hutson_sorted(xs, u)  # step 2: Q̂_T (eq. 12)
        boot[b] = np.quantile(sample, levels, method="inverted_cdf")  # step 3
    alpha = 1 - confidence
    return np.quantile(boot, [alpha / 2, 1 - alpha / 2], axis=0)


def main():
    rng = np.random.default_rng(0)
    x = stats.beta(5, 1.5).rvs(25, random_state=rng)
    conf, n_boot = 0.9, 2000

    ours = best_of(
        lambda: quantile_ci(
            x,
            LEVELS,
            confidence=conf,
            method="bootstrap",
            n_boot=n_boot,
            random_state=1,
        )
    )
    loop = best_of(
        lambda: hutson_loop(x, LEVELS, conf, n_boot, np.random.default_rng(1)), repeat=3
    )

    def scipy_boot():
        return stats.bootstrap(
            (x,),
            lambda s, axis: np.quantile(s, LEVELS, axis=axis, method="inverted_cdf"),
            n_resamples=n_boot,
            vectorized=True,
            method="percentile",
            confidence_level=conf,
            random_state=1,
        ).confidence_interval

    scipy_b = best_of(scipy_boot)

    # the loop and the vectorized version estimate the same interval
    a = quantile_ci(
        x, LEVELS, confidence=conf, method="bootstrap", n_boot=20000, random_state=2
    )
    lo, hi = hutson_loop(x, LEVELS, conf, 20000, np.random.default_rng(3))
    gap = max(np.abs(a.low - lo).max(), np.abs(a.high - hi).max()) / np.ptp(x)

    print("Hutson bootstrap CI, n = 25, B = 2000, 7 levels")
    print(f"  skperf (vectorized)        {ours * 1e3:8.2f} ms")
    print(
        f"  per-resample Python loop   {loop * 1e3:8.2f} ms   ratio {loop / ours:6.1f}x"
        f"  (target >= 20x) {_verdict(loop / ours, 20)}"
    )
    print(
        f"  scipy.stats.bootstrap      {scipy_b * 1e3:8.2f} ms   ratio {scipy_b / ours:6.1f}x"
        f"  (target >= 1x) {_verdict(scipy_b / ours, 1)}"
    )
    print(f"  max |bound difference| / range, B = 20000: {gap:.4f}")

    big = rng.normal(size=100_000)

    def ours_cold():
        _exact_pair.cache_clear()
        return quantile_ci(big, 0.5, confidence=0.95, method="exact")

    cold = best_of(ours_cold, repeat=15)
    warm = best_of(
        lambda: quantile_ci(big, 0.5, confidence=0.95, method="exact"), repeat=15
    )
    ref = best_of(
        lambda: stats.quantile_test(big, q=0, p=0.5).confidence_interval(0.95),
        repeat=15,
    )
    ci = quantile_ci(big, 0.5, confidence=0.95, method="exact")
    sp = stats.quantile_test(big, q=0, p=0.5).confidence_interval(0.95)
    print("Exact CI, n = 100,000, q = 0.5, 95 %")
    print(
        f"  skperf cold cache          {cold * 1e3:8.2f} ms   ratio {ref / cold:6.2f}x"
        f"  (target >= 1x) {_verdict(ref / cold, 1)}"
    )
    print(
        f"  skperf warm cache          {warm * 1e3:8.2f} ms   ratio {ref / warm:6.2f}x"
    )
    print(f"  scipy quantile_test        {ref * 1e3:8.2f} ms")
    print(
        f"  skperf [{ci.low:.5f}, {ci.high:.5f}] coverage {ci.coverage:.4f}; "
        f"scipy [{sp.low:.5f}, {sp.high:.5f}]"
    )


def _verdict(ratio, target):
    return "PASS" if ratio >= target else "FAIL"


if __name__ == "__main__":
    main()
