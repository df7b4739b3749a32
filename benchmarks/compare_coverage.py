"""False-"significant" rate and coverage of P(A > B) per method and n.

Generates the tables of docs/user_guide/comparing.rst ("How the methods
behave at small n"). Paired numbers are exact: the sign interval and the
percentile bootstrap (n_boot = 2000, fixed seed) depend on the data only
through the counts of wins, ties and losses, so the rates are sums over the
binomial (no ties) or trinomial (30 % ties) distribution of those counts.
Unpaired numbers without ties for "newcombe" are exact too (the null
distribution of the Mann-Whitney U); the others are simulated (normal
shifts giving the stated P(A > B); ties: accuracies on 50 test points,
Binomial(50, 0.8) / 50), with --runs runs per cell.

Usage: python benchmarks/compare_coverage.py [--runs 2000] > table.rst
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy import stats

from skperf.stats import prob_outperform_ci
from skperf.stats._outperform import _newcombe_bounds, _u_null_pmf

SIZES = (5, 10, 15, 20, 29, 50)
PROBS = (0.5, 0.6, 0.75, 0.9, 0.95)
CONFIDENCES = (0.90, 0.95)


def _trinomial(n):
    w, t = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = w + t <= n
    return w[keep], t[keep], n - w[keep] - t[keep]


def _paired_interval(w, t, ls, method, confidence):
    """Interval for every count (w, t, ls), from scores that realise them."""
    n = w[0] + t[0] + ls[0]
    idx = np.arange(n)
    a = np.where(idx < w[:, None], 1.0, np.where(idx < (w + t)[:, None], 0.0, -1.0))
    r = prob_outperform_ci(
        a,
        np.zeros(n),
        paired=True,
        method=method,
        confidence=confidence,
        random_state=0,
    )
    low, high = r.low, r.high
    return low, high


def paired_rates(n, method, confidence, p_tie):
    """Exact null rate, and smallest coverage over PROBS (feasible ones)."""
    w, t, ls = _trinomial(n)
    if p_tie == 0:
        keep = t == 0
        w, t, ls = w[keep], t[keep], ls[keep]
    low, high = _paired_interval(w, t, ls, method, confidence)
    out = []
    for p in PROBS:
        p_win = p - p_tie / 2
        p_loss = 1 - p_tie - p_win
        if p_loss < -1e-12:
            continue
        pmf = stats.multinomial.pmf(
            np.stack([w, t, ls], axis=1), n, [p_win, p_tie, max(p_loss, 0.0)]
        )
        covered = (low <= p + 1e-12) & (p - 1e-12 <= high)
        out.append((p, pmf[(low > 0.5) | (high < 0.5)].sum(), pmf[covered].sum()))
    null = out[0][1]
    return null, min(c for _, _, c in out)


def newcombe_exact_null(n, confidence):
    pmf = _u_null_pmf(n, n)
    cdf = np.cumsum(pmf)
    p = np.minimum(1, 2 * np.minimum(cdf, 1 - cdf + pmf))
    low, high = _newcombe_bounds(np.arange(n * n + 1) / (n * n), n, n, confidence)
    return pmf[((low > 0.5) | (high < 0.5)) & (p < 1 - confidence)].sum()


def unpaired_sim(n, method, confidence, runs, seed, ties=False):
    """Simulated null rate (continuous or accuracy-like) and coverage."""
    rng = np.random.default_rng(seed)
    kw = {"paired": False, "method": method, "confidence": confidence}
    if method == "bootstrap":
        kw.update(n_boot=999, random_state=seed)
    if ties:
        a = rng.binomial(50, 0.8, size=(runs, n)) / 50
        b = rng.binomial(50, 0.8, size=(runs, n)) / 50
        r = prob_outperform_ci(a, b, **kw)
        low, high = r.low, r.high
        return np.mean((low > 0.5) | (high < 0.5)), None
    null, cover = None, 1.0
    for p in PROBS:
        shift = np.sqrt(2) * stats.norm.ppf(p)
        a = rng.normal(shift, 1.0, size=(runs, n))
        b = rng.normal(0.0, 1.0, size=(runs, n))
        r = prob_outperform_ci(a, b, **kw)
        low, high = r.low, r.high
        if p == 0.5:
            null = np.mean((low > 0.5) | (high < 0.5))
        cover = min(cover, np.mean((low <= p) & (p <= high)))
    return null, cover


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    rows = []  # (label, confidence, kind, {n: value})
    for confidence in CONFIDENCES:
        for label, method, p_tie in (
            ("paired, sign (auto)", "sign", 0.0),
            ("paired, sign (auto), 30 % ties", "sign", 0.3),
            ("paired, bootstrap", "bootstrap", 0.0),
            ("paired, bootstrap, 30 % ties", "bootstrap", 0.3),
        ):
            res = {n: paired_rates(n, method, confidence, p_tie) for n in SIZES}
            rows.append((label, confidence, "exact", res))
        res = {}
        for n in SIZES:
            null = newcombe_exact_null(n, confidence)
            _, cover = unpaired_sim(n, "newcombe", confidence, args.runs, seed=n)
            res[n] = (null, cover)
        rows.append(("unpaired, newcombe (auto)", confidence, "exact / sim.", res))
        res = {
            n: (
                unpaired_sim(n, "newcombe", confidence, args.runs, n, ties=True)[0],
                None,
            )
            for n in SIZES
        }
        rows.append(("unpaired, newcombe (auto), ties", confidence, "sim.", res))
        res = {
            n: unpaired_sim(n, "bootstrap", confidence, args.runs // 2, seed=100 + n)
            for n in SIZES
        }
        rows.append(("unpaired, bootstrap", confidence, "sim.", res))
    print('.. list-table:: False-"significant" rate for identical models / smallest')
    print("   coverage of P(A > B) over P in {0.5, 0.6, 0.75, 0.9, 0.95}")
    print("   :header-rows: 1\n")
    print("   * - method")
    print("     - confidence")
    for n in SIZES:
        print(f"     - n = {n}")
    for label, confidence, kind, res in rows:
        print(f"   * - {label} ({kind})")
        print(f"     - {confidence:.2f}")
        for n in SIZES:
            null, cover = res[n]
            cell = f"{null:.3f}" + (f" / {cover:.3f}" if cover is not None else "")
            print(f"     - {cell}")


if __name__ == "__main__":
    main()
