"""Coverage of metric_ci at 95 % per metric, method, test-set size and scenario.

For each scenario the true value of the metric is known in closed form (or
by a one-off large simulation); ``--runs`` test sets are drawn, an interval
is computed for each with every method, and the share of intervals holding
the true value is reported with its Monte-Carlo standard error and the mean
interval length. The row marked ``auto`` is the method ``method="auto"``
picks.

Scenarios
---------
* ``roc_auc``: binormal scores, positives N(d, 1), negatives N(0, 1),
  ``d = sqrt(2) Phi^-1(AUC)``; classes of fixed size (positives / negatives).
* ``f1``: labels with prevalence ``pi``, predictions with given sensitivity
  and specificity (true F1 from the confusion probabilities).
* ``accuracy``: each prediction right with probability ``p``.
* ``mae`` with lognormal(0, 1) absolute errors (true e^0.5); ``mse`` with
  t5 errors (true 5/3, squared t5 is heavy-tailed: infinite fourth moment)
  and with normal errors (true 1); ``log_loss`` and ``brier_score_loss``
  of a calibrated model.

Writes docs/metric_coverage.csv, shown by a csv-table in
docs/test_set_intervals.rst.

Usage: python benchmarks/metric_coverage.py [--runs 1000]
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from scipy import special, stats

from skperf.metrics import metric_ci
from skperf.metrics._intervals import _choose_method
from skperf.metrics._registry import _resolve

CONFIDENCE = 0.95


def _auc(auc, m, n):
    d = np.sqrt(2) * special.ndtri(auc)
    y = np.r_[np.ones(m, int), np.zeros(n, int)]

    def draw(rng):
        return y, np.r_[rng.normal(d, 1, m), rng.normal(0, 1, n)]

    return f"AUC {auc}, {m} pos / {n} neg", m + n, auc, draw


def _f1(pi, sens, spec, n):
    tp, fp, fn = pi * sens, (1 - pi) * (1 - spec), pi * (1 - sens)
    true = 2 * tp / (2 * tp + fp + fn)

    def draw(rng):
        y = (rng.random(n) < pi).astype(int)
        u = rng.random(n)
        return y, np.where(y == 1, u < sens, u >= spec).astype(int)

    return f"F1 {true:.3f} (prevalence {pi}, sens {sens}, spec {spec})", n, true, draw


def _accuracy(p, n):
    def draw(rng):
        return np.ones(n, int), (rng.random(n) < p).astype(int)

    return f"accuracy {p}", n, p, draw


def _loss(kind, n):
    if kind == "lognormal":
        return (
            "lognormal(0, 1) absolute errors",
            n,
            float(np.exp(0.5)),
            lambda rng: (np.zeros(n), rng.lognormal(0, 1, n)),
        )
    if kind == "t5":
        return (
            "t5 errors",
            n,
            5 / 3,
            lambda rng: (np.zeros(n), rng.standard_t(5, n)),
        )
    return "normal errors", n, 1.0, lambda rng: (np.zeros(n), rng.normal(size=n))


def _logloss(n):
    # calibrated probabilities p ~ Beta(2, 2) ... true log loss by quadrature
    a = 0.7
    grid = np.linspace(1e-6, 1 - 1e-6, 200_001)
    dens = stats.beta(a, a).pdf(grid)
    ent = -(grid * np.log(grid) + (1 - grid) * np.log(1 - grid))
    true = float(np.trapezoid(dens * ent, grid))

    def draw(rng):
        p = rng.beta(a, a, n)
        return (rng.random(n) < p).astype(int), p

    return "calibrated Beta(0.7, 0.7) probabilities", n, true, draw


def _brier(n):
    # calibrated probabilities p ~ Beta(a, a): Brier score E[p (1 - p)]
    a = 0.7
    true = a * a / (2 * a * (2 * a + 1))

    def draw(rng):
        p = rng.beta(a, a, n)
        return (rng.random(n) < p).astype(int), p

    return "calibrated Beta(0.7, 0.7) probabilities", n, true, draw


def scenarios():
    """(metric, methods, scenario builders)."""
    auc_methods = ("delong-logit", "delong", "hanley-mcneil", "percentile", "bca")
    loss_methods = ("studentized", "bca", "percentile", "basic")
    return [
        (
            "roc_auc",
            auc_methods,
            [
                _auc(0.97, 25, 25),
                _auc(0.90, 20, 180),
                _auc(0.97, 20, 180),
                _auc(0.80, 50, 50),
                _auc(0.60, 30, 30),
                _auc(0.99, 30, 300),
            ],
        ),
        (
            "f1",
            ("wilson", "bca", "percentile"),
            [
                _f1(0.5, 0.8, 0.8, 50),
                _f1(0.5, 0.95, 0.95, 50),
                _f1(0.2, 0.8, 0.9, 50),
                _f1(0.5, 0.95, 0.95, 200),
            ],
        ),
        (
            "accuracy",
            ("wilson", "wald", "bca"),
            [_accuracy(0.9, 50), _accuracy(0.97, 100)],
        ),
        (
            "mae",
            loss_methods,
            [_loss("lognormal", 30), _loss("lognormal", 100)],
        ),
        (
            "mse",
            loss_methods,
            [
                _loss("t5", 30),
                _loss("t5", 100),
                _loss("t5", 300),
                _loss("normal", 30),
            ],
        ),
        ("log_loss", loss_methods, [_logloss(30), _logloss(100)]),
        ("brier_score_loss", loss_methods, [_brier(30), _brier(100)]),
    ]


def run(runs=1000, seed=0):
    rows = []
    for metric, methods, builders in scenarios():
        auto = _choose_method(_resolve(metric), "auto", None)
        for k, (label, n, true, draw) in enumerate(builders):
            rng = np.random.default_rng([seed, k, len(rows)])
            data = [draw(rng) for _ in range(runs)]
            for method in methods:
                hits, lengths = [], []
                boot_rng = np.random.default_rng([seed, k, 7])
                for y, pred in data:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        try:
                            ci = metric_ci(
                                y,
                                pred,
                                metric=metric,
                                method=method,
                                confidence=CONFIDENCE,
                                random_state=boot_rng,
                            )
                        except ValueError:  # undefined on this test set
                            hits.append(False)
                            lengths.append(np.nan)
                            continue
                    hits.append(ci.low <= true <= ci.high)
                    lengths.append(ci.high - ci.low)
                cov = float(np.mean(hits))
                rows.append(
                    {
                        "metric": metric,
                        "scenario": label,
                        "n": n,
                        "method": method + (" (auto)" if method == auto else ""),
                        "coverage": round(cov, 3),
                        "mc_se": round(float(np.sqrt(cov * (1 - cov) / runs)), 3),
                        "mean_length": round(float(np.nanmean(lengths)), 4),
                        "runs": runs,
                    }
                )
                print(f"{metric:9s} {label:52s} {method:14s} {cov:.3f}", flush=True)
    return rows


def main():
    import pandas as pd

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    args = parser.parse_args()
    t0 = time.perf_counter()
    df = pd.DataFrame(run(args.runs))
    docs = Path(__file__).resolve().parents[1] / "docs"
    df.to_csv(docs / "metric_coverage.csv", index=False)
    print(f"done in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
