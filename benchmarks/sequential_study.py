"""Sequential stopping rules for the corrected t, measured over datasets (issue 26).

The rules of ``skperf/stats/_sequential.py`` are replayed round by round on
fold scores computed once per dataset:

* ``folds``: the null/power populations of ``generalization_study.py`` (two
  logistic regressions on disjoint feature blocks, equally good ("null") or
  not ("power"), a fresh dataset of ``n`` rows each time, n = 200 and 1000):
  10 repetitions of 10-fold CV (the same datasets, splits and fits as
  ``generalization_study.py null --repeats``), and Alpaydin's 5 x 2 CV on
  the splits of ``generalization_study.py null``; per-fold score
  differences A - B (accuracy, log loss; positive = A better) are appended
  to ``benchmarks/results/sequential_folds_w<worker>.csv``.
* ``replay``: every candidate rule on those folds: the false-"significant"
  rate on equal pairs, the power on real differences (against the fixed
  10 x 10-fold design's), fits spent (mean, median, 90th percentile), and
  the designs per budget (10, 20, 30, 50, 100 fits per model).
* ``intervals``: the single-model interval under the stopping rule, on the
  datasets of every cell of the coverage study (``generalization_study.py
  run --repeats`` rows: the 3, 5 and 10 x 10-fold corrected t of each
  dataset; the default rule stops at a data-independent round, so its
  interval is one of those rows, re-read with the rule's degrees of freedom).
* ``tables``: ``benchmarks/results/sequential_*.csv`` and
  ``docs/sequential_tables.inc``.

Usage::

    python benchmarks/sequential_study.py folds [--reps 400] [--worker 0 --workers 1]
    python benchmarks/sequential_study.py replay
    python benchmarks/sequential_study.py intervals
    python benchmarks/sequential_study.py tables

Run with OMP_NUM_THREADS=1 (set on import of generalization_study).
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import generalization_study as gs
import numpy as np
from scipy import stats

from skperf.stats import _sequential as seq

RESULTS = gs.RESULTS
DOCS_INC = gs.ROOT / "docs" / "sequential_tables.inc"
K = 10
RATIO = 1 / 9
MAX_ROUNDS = 10
METRICS = ("accuracy", "log_loss")
STUDIES = ("null", "power")
NS = (200, 1000)
FOLD_FIELDS = (
    "study",
    "n",
    "rep",
    "metric",
    "design",
    "round",
    "seconds",
    *tuple(f"f{i}" for i in range(K)),
)


# --------------------------------------------------------------------------
# Fold scores, once per dataset
# --------------------------------------------------------------------------


def pair_folds(study, n, rep):
    """Per-fold differences A - B on one dataset: ``{metric: (cv10, cv2)}``,
    ``cv10`` of shape (10, 10) (rounds x folds), ``cv2`` (5, 2).

    The dataset and the 10 x 10-fold splits are those of
    ``gs.repeats_compare_replicate``; the 5 x 2 splits those of
    ``gs.compare_replicate`` (drawn after its 3 x 10-fold splits)."""
    X, y, rng = gs._pair_dataset(study, n, rep)
    rng52 = copy.deepcopy(rng)
    cols = (slice(0, 4), slice(4, 8))

    def fit_both(tr, te):
        return [
            gs._fast_linear("clf", X[tr][:, c], y[tr], X[te][:, c], scale=False)
            for c in cols
        ]

    cv, ids_all = gs._repeated_cv(rng, n, fit_both, lead=(2,), repeats=MAX_ROUNDS)
    for _ in range(gs.N_CV_REPEATS):  # compare_replicate's 3 x 10-fold splits
        gs._folds(rng52, n, 10)
    five = np.empty((2, 5, n))
    ids52 = np.empty((5, n), dtype=int)
    for r in range(5):
        ids = gs._folds(rng52, n, 2)
        ids52[r] = ids
        for f in range(2):
            te = ids == f
            five[:, r, te] = fit_both(~te, te)
    return {
        m: (gs._fold_diffs(m, y, cv, ids_all, K), gs._fold_diffs(m, y, five, ids52, 2))
        for m in METRICS
    }


def run_folds(args):
    RESULTS.mkdir(parents=True, exist_ok=True)
    done = gs._done("sequential_folds_w*.csv", ("study", "n", "rep"))
    path = RESULTS / f"sequential_folds_w{args.worker}.csv"
    k = 0
    for lo in range(0, args.reps, 50):
        for n in args.ns:
            for study in STUDIES:
                for rep in range(lo, min(lo + 50, args.reps)):
                    if (study, str(n), str(rep)) in done:
                        continue
                    k += 1
                    if k % args.workers != args.worker:
                        continue
                    t0 = time.perf_counter()
                    out = pair_folds(study, n, rep)
                    secs = round(time.perf_counter() - t0, 3)
                    rows = []
                    for m, (cv10, cv2) in out.items():
                        for design, a in (("cv10", cv10), ("cv2", cv2)):
                            for r, vals in enumerate(a):
                                row = {
                                    "study": study,
                                    "n": n,
                                    "rep": rep,
                                    "metric": m,
                                    "design": design,
                                    "round": r,
                                    "seconds": secs,
                                }
                                row.update({f"f{i}": v for i, v in enumerate(vals)})
                                rows.append(row)
                    gs._append(path, rows, FOLD_FIELDS)
            print(f"n={n} reps<{min(lo + 50, args.reps)} done", flush=True)


def load_folds():
    """``{(study, n, metric): (cv10 (D, 10, 10), cv2 (D, 5, 2), reps)}``."""
    import pandas as pd

    paths = sorted(RESULTS.glob("sequential_folds_w*.csv"))
    df = pd.concat(
        [pd.read_csv(p, keep_default_na=False, na_values=[""]) for p in paths],
        ignore_index=True,
    )
    df = df.drop_duplicates(["study", "n", "rep", "metric", "design", "round"])
    out = {}
    fcols = [f"f{i}" for i in range(K)]
    for (study, n, metric), g in df.groupby(["study", "n", "metric"]):
        a = g[g.design == "cv10"].sort_values(["rep", "round"])
        b = g[g.design == "cv2"].sort_values(["rep", "round"])
        reps = np.intersect1d(a.rep.unique(), b.rep.unique())
        a = a[a.rep.isin(reps)]
        b = b[b.rep.isin(reps)]
        cv10 = a[fcols].to_numpy().reshape(len(reps), MAX_ROUNDS, K)
        cv2 = b[fcols[:2]].to_numpy().reshape(len(reps), 5, 2)
        out[(study, int(n), metric)] = (cv10, cv2, reps)
    return out


# --------------------------------------------------------------------------
# Replaying the rules
# --------------------------------------------------------------------------

#: Candidate rules: name -> (max_rounds, spending or None (fixed), df,
#: futility, look schedule (None: every round)).
RULES = {
    "fixed 10 x 10 (99 df)": (10, None, "rk-1", None, None),
    "OBF": (10, "obrien-fleming", "rk-1", None, None),
    "OBF, futility 0.1": (10, "obrien-fleming", "rk-1", 0.1, None),
    "OBF, 9 df, futility 0.1": (10, "obrien-fleming", "k-1", 0.1, None),
    "Pocock": (10, "pocock", "rk-1", None, None),
    "Pocock, futility 0.1": (10, "pocock", "rk-1", 0.1, None),
}
for _sched in (
    (1, 3, 10),
    (2, 4, 10),
    (2, 5, 10),
    (3, 10),
    (2, 10),
    (3, 6, 10),
    (4, 10),
):
    _lab = "-".join(map(str, _sched))
    RULES[f"OBF at {_lab}"] = (10, "obrien-fleming", "rk-1", None, _sched)
    for _f in (0.05, 0.1, 0.2):
        RULES[f"OBF at {_lab}, futility {_f}"] = (
            10,
            "obrien-fleming",
            "rk-1",
            _f,
            _sched,
        )
    RULES[f"Pocock at {_lab}, futility 0.1"] = (10, "pocock", "rk-1", 0.1, _sched)
#: The rule recommended for compare_generalization / compare_models (set by
#: the measurements below; docs and report use it).
CHOSEN = "OBF at 2-10, futility 0.1"
BUDGETS = (10, 20, 30, 50, 100)


def budget_rules():
    """Designs per budget (fits per model): fixed r x 10-fold read with
    rK - 1 or K - 1 df, and the sequential rule with that maximum."""
    out = {}
    for b in BUDGETS:
        R = b // K
        out[f"{b}: fixed {R} x 10 ({R * K - 1} df)"] = (
            b,
            (R, None, "rk-1", None, None),
        )
        if R > 1:
            out[f"{b}: fixed {R} x 10 (9 df)"] = (b, (R, None, "k-1", None, None))
            out[f"{b}: sequential (default rule), max {R} x 10"] = (
                b,
                (R, "obrien-fleming", "rk-1", 0.1, seq.default_looks(R)),
            )
    return out


def replay(cv10, rule):
    """Apply one rule to datasets' fold differences ``(D, 10, 10)``: per
    dataset the round it stopped, its state, significance, direction and
    the interval's width at the stop."""
    R, kind, df, futility, looks = rule
    D = cv10.shape[0]
    stop = np.zeros(D, dtype=int)
    state = np.zeros(D, dtype=int)
    sig = np.zeros(D, dtype=bool)
    est = np.zeros(D)
    width = np.zeros(D)
    rounds = [R] if kind is None else range(1, R + 1)
    eff = () if kind is None else looks
    active = np.ones(D, dtype=bool)
    for r in rounds:
        x = cv10[:, :r, :].reshape(D, -1)
        mean = x.mean(axis=1)
        var = np.where(np.ptp(x, axis=1) > 0, x.var(axis=1, ddof=1), 0.0)
        o = seq._compare_core(
            mean,
            var,
            r,
            K,
            R,
            RATIO,
            kind or "obrien-fleming",
            gs.CONFIDENCE,
            df,
            0.0,
            futility,
            r == R,
            eff,
        )
        now = active & (o["state"] != 0)
        stop[now] = r
        state[now] = o["state"][now]
        sig[now] = o["significant"][now]
        est[now] = mean[now]
        width[now] = (o["high"] - o["low"])[now]
        active &= ~now
    return stop, state, sig, est, width


def five_by_two(cv2):
    from skperf.stats._paired_tests import combined_5x2cv_f

    res = combined_5x2cv_f(cv2)
    p = np.asarray(res.pvalue)
    return (
        p < 1 - gs.CONFIDENCE,
        np.asarray(res.estimate),
        np.asarray(res.high - res.low),
    )


def _summary_row(name, study, n, metric, stop, state, sig, est, width, fits_per_round):
    D = len(stop)
    fits = stop * fits_per_round
    rate = sig.mean()
    a_better = (sig & (est > 0)).mean()
    return {
        "rule": name,
        "study": study,
        "n": n,
        "metric": metric,
        "datasets": D,
        "significant": rate,
        "a_better": a_better,
        "mc_se": float(np.sqrt(max(rate, 0.05) * (1 - max(rate, 0.05)) / D)),
        "fits_mean": fits.mean(),
        "fits_median": float(np.median(fits)),
        "fits_p90": float(np.percentile(fits, 90)),
        "width_mean": float(np.nanmean(width)),
        "decided": (state == 1).mean(),
        "futile": (state == 2).mean(),
        "budget": (state == 3).mean(),
    }


def run_replay(args):
    import pandas as pd

    data = load_folds()
    rows = []
    for (study, n, metric), (cv10, cv2, _reps) in sorted(data.items()):
        for name, rule in RULES.items():
            rows.append(_summary_row(name, study, n, metric, *replay(cv10, rule), K))
        for name, (_, rule) in budget_rules().items():
            row = _summary_row(name, study, n, metric, *replay(cv10, rule), K)
            R = rule[0]
            if rule[1] is None:  # fixed: 80 % power difference at its se
                x = cv10[:, :R, :].reshape(len(cv10), -1)
                se = np.sqrt((1 / (R * K) + RATIO) * x.var(axis=1, ddof=1))
                dfR = R * K - 1 if rule[2] == "rk-1" else K - 1
                row["detectable_median"] = float(
                    np.median(se) * seq.detectable_difference(1.0, df=dfR)
                )
            rows.append(row)
        sig, est, width = five_by_two(cv2)
        D = len(sig)
        rows.append(
            _summary_row(
                "10: 5x2cv F",
                study,
                n,
                metric,
                np.full(D, 5),
                np.full(D, 3),
                sig,
                est,
                width,
                2,
            )
        )
    out = pd.DataFrame(rows)
    out.to_csv(RESULTS / "sequential_compare.csv", index=False, float_format="%.5g")
    pd.set_option("display.width", 250)
    pd.set_option("display.max_rows", 500)
    cols = [
        "rule",
        "study",
        "n",
        "metric",
        "datasets",
        "significant",
        "a_better",
        "fits_mean",
        "fits_median",
        "fits_p90",
        "width_mean",
        "futile",
    ]
    print(out[cols].to_string(float_format=lambda v: f"{v:.4g}"))


def interval_stop_round(max_rounds=MAX_ROUNDS, narrowing=0.9, df="k-1"):
    """The round at which :func:`seq.interval_look` stops without
    ``precision``: with ``df="k-1"`` the projected narrowing does not depend on
    the data, so the round is the same on every dataset (3 of 10 for 10-fold)."""
    s = np.ones((max_rounds, K))
    s[:, 0] = 2.0  # any non-constant scores: the ratio does not depend on them
    for r in range(1, max_rounds + 1):
        look = seq.interval_look(
            s[:r],
            test_train_ratio=RATIO,
            max_rounds=max_rounds,
            narrowing=narrowing,
            df=df,
        )
        if look.state != "continue":
            return r
    return max_rounds


def interval_rows():
    """Per dataset of the coverage study's cells (n >= 100): the interval of
    the default single-model rule, from the rows of ``gs run --repeats``
    (corrected t on the first 3 / 5 / 10 repetitions, J - 1 df) re-read with
    the rule's K - 1 = 9 df. Rules: ``auto 10 x 10`` (today's default),
    ``stop at r*`` (every metric) and ``stop at r*, log loss 10`` (the
    recommended: log loss, an unbounded per-row loss, runs the full design)."""
    import pandas as pd

    d = pd.concat(
        [pd.read_csv(p) for p in sorted(RESULTS.glob("generalization_repeats_w*.csv"))],
        ignore_index=True,
    )
    d = d.drop_duplicates(
        ["population", "learner", "n", "rep", "metric", "method", "n_fits"]
    )
    d = d[(d.method == "corrected-t") & (d.n >= 100)]
    q9 = stats.t.ppf(0.5 + gs.CONFIDENCE / 2, K - 1)
    J = d.n_fits
    half = (d.high - d.low) / 2 * q9 / stats.t.ppf(0.5 + gs.CONFIDENCE / 2, J - 1)
    d = d.assign(low=d.estimate - half, high=d.estimate + half)
    r_star = interval_stop_round()
    by_fits = {int(f): g for f, g in d.groupby("n_fits")}
    ten, star = by_fits[10 * MAX_ROUNDS], by_fits[10 * r_star]
    ll = star.metric == "log_loss"
    out = [
        ten.assign(method="auto 10 x 10 (today)"),
        star.assign(method=f"stop at round {r_star}"),
        pd.concat([star[~ll], ten[ten.metric == "log_loss"]]).assign(
            method=f"stop at round {r_star}, log loss 10 (recommended)"
        ),
    ]
    return pd.concat(out, ignore_index=True)


def run_intervals(args):
    import pandas as pd

    t = gs.coverage_table(interval_rows())
    p, p_holm = gs.below_hold_pvalues(t.coverage_new, t.replicates)
    t["p_below"], t["p_below_holm"] = p, p_holm
    t.to_csv(RESULTS / "sequential_intervals.csv", index=False, float_format="%.5g")
    s = (
        t.groupby("method")
        .agg(
            cells=("coverage_new", "size"),
            holding=("coverage_new", lambda c: int((c >= gs.HOLD).sum())),
            lowest=("coverage_new", "min"),
            below_holm=("p_below_holm", lambda v: int((v < 0.05).sum())),
            fits_mean=("n_fits", "mean"),
            width_mean=("mean_width", "mean"),
        )
        .reset_index()
    )
    s.to_csv(
        RESULTS / "sequential_intervals_summary.csv", index=False, float_format="%.4g"
    )
    pd.set_option("display.width", 200)
    print(s.to_string())
    low = t[t.coverage_new < gs.HOLD]
    print(
        low[
            [
                "population",
                "learner",
                "n",
                "metric",
                "method",
                "coverage_new",
                "p_below_holm",
            ]
        ]
    )


TABLE_RULES = (
    ("fixed 10 x 10 (99 df)", "fixed 10 x 10-fold (today)"),
    (CHOSEN, "sequential default: OBF looks at rounds 2, 10; futility 0.1"),
    ("OBF at 1-3-10, futility 0.1", "OBF looks at rounds 1, 3, 10; futility 0.1"),
    ("OBF, futility 0.1", "OBF every round, futility 0.1"),
    ("Pocock, futility 0.1", "Pocock every round, futility 0.1"),
)
BUDGET_ROWS = (
    (10, "10: fixed 1 x 10 (9 df)", "corrected t, 1 x 10-fold, 9 df (recommended)"),
    (10, "10: 5x2cv F", "5x2cv F (Alpaydin)"),
    (20, "20: fixed 2 x 10 (19 df)", "corrected t, 2 x 10-fold, 19 df (recommended)"),
    (20, "20: sequential (default rule), max 2 x 10", "sequential, max 2 x 10"),
    (
        30,
        "30: sequential (default rule), max 3 x 10",
        "sequential, max 3 x 10 (recommended)",
    ),
    (30, "30: fixed 3 x 10 (29 df)", "corrected t, 3 x 10-fold, 29 df"),
    (
        50,
        "50: sequential (default rule), max 5 x 10",
        "sequential, max 5 x 10 (recommended)",
    ),
    (50, "50: fixed 5 x 10 (49 df)", "corrected t, 5 x 10-fold, 49 df"),
    (100, CHOSEN, "sequential, max 10 x 10 (the default)"),
    (100, "fixed 10 x 10 (99 df)", "corrected t, 10 x 10-fold, 99 df"),
)
CELLS = [(st, n, m) for st in STUDIES for n in NS for m in METRICS]


def _pct(v):
    return f"{100 * v:.1f}"


def run_tables(args):
    import pandas as pd

    gs_ = gs
    c = pd.read_csv(RESULTS / "sequential_compare.csv", keep_default_na=False)
    key = c.set_index(["rule", "study", "n", "metric"])
    head = ["rule"] + [f"{st} n={n} {m.replace('_', ' ')}" for st, n, m in CELLS]
    out = [
        ".. Generated by benchmarks/sequential_study.py tables; do not edit.",
        "",
        'Equal algorithms (null: % said "significant") and real differences (power:',
        "% detected), with fits per model spent (mean / median / 90th percentile),",
        (
            f"logistic regressions on two feature blocks, {int(c.datasets.min())}-"
            f"{int(c.datasets.max())} datasets per cell (MC s.e. of a 5 % rate: "
            f"{100 * np.sqrt(0.05 * 0.95 / c.datasets.min()):.1f} points):"
        ),
        "",
    ]
    rows = []
    for rule, label in TABLE_RULES:
        row = [label]
        for st, n, m in CELLS:
            r = key.loc[(rule, st, n, m)]
            row.append(
                f"{_pct(r.significant)} ({r.fits_mean:.0f} / {r.fits_median:.0f} / "
                f"{r.fits_p90:.0f})"
            )
        rows.append(row)
    out.append(gs_._list_table(head, rows))
    # fits overall
    ch = c[c.rule == CHOSEN]
    out += [
        (
            f"The default spends {ch.fits_mean.mean():.1f} fits per model on average over "
            f"these datasets ({ch.fits_mean.mean() / MAX_ROUNDS / K:.0%} of the fixed "
            "design's 100); where "
            f"the difference is real its median is "
            f"{ch[ch.study == 'power'].fits_median.max():.0f} fits or fewer."
        ),
        "",
        'Designs per budget (fits per model): false-"significant" % on equal',
        "algorithms, power % on real differences, mean width of the interval for the",
        "difference (accuracy points x 100 / log loss x 100) and, for the fixed",
        "designs, the median difference in accuracy (x 100) they detect with 80 %",
        "power (the detectable difference a result states):",
        "",
    ]
    head = (
        ["fits", "design"]
        + [
            f"{w} n={n} {m.replace('_', ' ')}"
            for w in ("null", "power")
            for n in NS
            for m in METRICS
        ]
        + [
            "width n=200 acc / ll",
            "width n=1000 acc / ll",
            "detectable n=200 acc",
            "detectable n=1000 acc",
        ]
    )
    rows = []
    for b, rule, label in BUDGET_ROWS:
        row = [str(b), label]
        for st in STUDIES:
            for n in NS:
                for m in METRICS:
                    row.append(_pct(key.loc[(rule, st, n, m)].significant))
        for n in NS:
            w = [100 * key.loc[(rule, "power", n, m)].width_mean for m in METRICS]
            row.append(f"{w[0]:.1f} / {w[1]:.1f}")
        for n in NS:
            dd = key.loc[(rule, "power", n, "accuracy")].get("detectable_median")
            row.append("" if dd is None or dd == "" else f"{100 * float(dd):.1f}")
        rows.append(row)
    out.append(gs_._list_table(head, rows))
    iv = RESULTS / "sequential_intervals_summary.csv"
    if iv.exists():
        t = pd.read_csv(iv)
        out += [
            "",
            '``generalization_ci``: coverage of "new data" over the coverage study\'s',
            "cells with n >= 100 (100-200 datasets each) under the stopping rule:",
            "",
        ]
        rows = [
            [
                r.method,
                f"{r.holding} of {r.cells}",
                f"{r.lowest:.3f}",
                str(r.below_holm),
                f"{r.fits_mean:.1f}",
                f"{r.width_mean:.3f}",
            ]
            for r in t.itertuples()
        ]
        out.append(
            gs_._list_table(
                [
                    "rule",
                    "cells >= 0.93",
                    "lowest",
                    "significantly below (Holm)",
                    "mean fits",
                    "mean width",
                ],
                rows,
            )
        )
    DOCS_INC.write_text("\n".join(out))
    print("\n".join(out))


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("folds", "replay", "intervals", "tables"))
    ap.add_argument("--worker", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--ns", type=int, nargs="+", default=list(NS))
    args = ap.parse_args(argv)
    {
        "folds": run_folds,
        "replay": run_replay,
        "intervals": run_intervals,
        "tables": run_tables,
    }[args.command](args)


if __name__ == "__main__":
    main()
