"""Coverage of seeds x test rows intervals (skperf.stats._crossed).

A population with known truth: per-row difficulty, per-seed effect and a
seed-by-row interaction; each run draws fresh seeds AND fresh test rows and
checks whether the interval holds the population mean (the target: new test
rows, this training set, over training seeds).

Populations
    normal-rows     x = a_s + b_r + e_sr, sd (0.1, 1.0, 0.5): rows dominate
    normal-seeds    sd (1.0, 0.3, 0.3): seeds dominate
    normal-inter    sd (0.05, 0.2, 1.0): interaction dominates
    lognormal       exp(b_r + a_s + e_sr), sd (0.2, 1.0, 0.5): skewed loss
    binary-0.8      correct ~ Bernoulli(sigmoid(l_r + a_s + g_sr)),
                    l_r ~ N(2, 1.5), a_s ~ N(0, 0.3), g_sr ~ N(0, 1): accuracy
                    about 0.80
    binary-0.97     the same with l_r ~ N(4.5, 1.5): accuracy about 0.96

Methods
    vc              variance-components t interval, Satterthwaite df (default)
    seeds-only      t interval over the S seed means (rows held fixed)
    pigeonhole      percentile interval of Owen's pigeonhole bootstrap
                    (seeds and rows resampled independently), fewer runs

Usage: python benchmarks/crossed_coverage.py [--runs 2000] [--boot-runs 400]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import special, stats

from skperf.stats._crossed import _crossed_from_covariance, _pigeonhole_means

POPULATIONS = {
    "normal-rows": ("normal", (0.1, 1.0, 0.5)),
    "normal-seeds": ("normal", (1.0, 0.3, 0.3)),
    "normal-inter": ("normal", (0.05, 0.2, 1.0)),
    "lognormal": ("lognormal", (0.2, 1.0, 0.5)),
    "binary-0.8": ("binary", (2.0, 1.5, 0.3, 1.0)),
    "binary-0.97": ("binary", (4.5, 1.5, 0.3, 1.0)),
}


def truth(name):
    kind, p = POPULATIONS[name]
    if kind == "normal":
        return 0.0
    if kind == "lognormal":
        return float(np.exp(sum(v**2 for v in p) / 2))
    m, sd, sa, tau = p
    z, w = special.roots_hermitenorm(200)
    return float(w @ special.expit(m + np.sqrt(sd**2 + sa**2 + tau**2) * z) / w.sum())


def draw(name, runs, s, n, rng):
    kind, p = POPULATIONS[name]
    if kind in ("normal", "lognormal"):
        sa, sb, se = p
        x = (
            sa * rng.standard_normal((runs, s, 1))
            + sb * rng.standard_normal((runs, 1, n))
            + se * rng.standard_normal((runs, s, n))
        )
        return np.exp(x) if kind == "lognormal" else x
    m, sd, sa, tau = p
    logit = (
        m
        + sd * rng.standard_normal((runs, 1, n))
        + sa * rng.standard_normal((runs, s, 1))
        + tau * rng.standard_normal((runs, s, n))
    )
    return (rng.random((runs, s, n)) < special.expit(logit)).astype(float)


def vc_intervals(x, confidence):
    """Batch of variance-components and seeds-only intervals."""
    s, n = x.shape[-2:]
    theta = x.mean(axis=-1)
    xc = x - theta[..., None]
    cov = xc @ np.swapaxes(xc, -1, -2) / (n - 1) / n
    v_seed, v_row, df = _crossed_from_covariance(theta, cov, n)
    est = theta.mean(axis=-1)
    q = stats.t.ppf(0.5 + confidence / 2, df)
    half = q * np.sqrt(v_seed + v_row)
    qs = stats.t.ppf(0.5 + confidence / 2, s - 1)
    half_s = qs * np.sqrt(np.var(theta, axis=-1, ddof=1) / s)
    return (est - half, est + half), (est - half_s, est + half_s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--boot-runs", type=int, default=400)
    ap.add_argument("--n-boot", type=int, default=999)
    ap.add_argument("--only", default=None)
    ap.add_argument("--confidence", type=float, default=0.95)
    args = ap.parse_args()
    conf = args.confidence
    print(
        f"{'population':14s} {'S':>3s} {'n':>5s}  {'vc':>6s} {'seeds':>6s} "
        f"{'pigeon':>6s}  {'w_vc':>7s} {'w_pig/w_vc':>10s} {'w_vc/w_seeds':>12s}"
    )
    t0 = time.perf_counter()
    for name in POPULATIONS:
        if args.only and args.only not in name:
            continue
        mu = truth(name)
        for s in (5, 10, 30):
            for n in (50, 200, 1000):
                rng = np.random.default_rng([s, n, len(name)])
                cov_vc, cov_s, widths, widths_s = [], [], [], []
                chunk = max(1, 4_000_000 // (s * n))
                for start in range(0, args.runs, chunk):
                    x = draw(name, min(chunk, args.runs - start), s, n, rng)
                    (lo, hi), (slo, shi) = vc_intervals(x, conf)
                    cov_vc.append((lo <= mu) & (mu <= hi))
                    cov_s.append((slo <= mu) & (mu <= shi))
                    widths.append(hi - lo)
                    widths_s.append(shi - slo)
                cov_vc = np.concatenate(cov_vc).mean()
                cov_s = np.concatenate(cov_s).mean()
                w_vc = np.concatenate(widths)
                w_s = np.concatenate(widths_s)
                hits, wp, wv = [], [], []
                alpha = 1 - conf
                for _ in range(args.boot_runs):
                    x = draw(name, 1, s, n, rng)[0]
                    b = _pigeonhole_means(x, args.n_boot, rng)
                    lo, hi = np.quantile(b, [alpha / 2, 1 - alpha / 2])
                    hits.append(lo <= mu <= hi)
                    wp.append(hi - lo)
                    (vlo, vhi), _ = vc_intervals(x, conf)
                    wv.append(vhi - vlo)
                print(
                    f"{name:14s} {s:3d} {n:5d}  {cov_vc:6.3f} {cov_s:6.3f} "
                    f"{np.mean(hits):6.3f}  {np.median(w_vc):7.4f} "
                    f"{np.median(np.array(wp) / np.array(wv)):10.2f} "
                    f"{np.median(w_vc / w_s):12.2f}",
                    flush=True,
                )
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
