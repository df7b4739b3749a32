"""The sequential defaults of issue 26 measured through the public API.

``sequential_study.py`` replays the stopping rules on fold scores computed
once per dataset; this script calls skperf itself, on the same populations:

* ``compare``: the null/power populations of ``generalization_study.py`` (two
  logistic regressions on disjoint feature blocks of 4 features, equally
  good ("null", logit 0.5 / 0.5) or not ("power", 0.6 / 0.4), a fresh
  dataset of ``n`` rows each time; the datasets of ``null --repeats``). Per
  dataset and metric: ``compare_generalization(a, b, X, y)`` (the sequential
  default) and with ``n_fits=100`` (the fixed 10 x 10-fold design), and
  ``compare_models({"A": a, "B": b}, X, y)`` (``n_repeats="auto"``: the race,
  then the report's fixed-design corrected paired t + Holm read on the
  stopped fits) and with ``n_repeats=10``; all four with the same
  ``random_state``, so the sequential runs' fits are the first rounds of the
  fixed design's. Rows to ``benchmarks/results/sequential_api_compare.csv``.
  The learner is :class:`BlockLogistic` (L2 logistic regression, C = 1, by
  Newton's method, as ``generalization_study._fast_linear(scale=False)``),
  a scikit-learn estimator without scikit-learn's per-fit overhead.
* ``ci``: ``generalization_ci(est, X, y)`` (the sequential default) on cells
  of the coverage study (``generalization_study.skperf_replicate``: the same
  datasets, truth and learner), rows to
  ``benchmarks/results/sequential_api_ci.csv``.
* ``summary``: the rates, fits and bars; ``tables``: the summaries to
  ``benchmarks/results/sequential_api_*_summary.csv`` and an rst section
  appended to (or replaced in) ``docs/sequential_tables.inc``.

Usage::

    python benchmarks/sequential_api_study.py compare [--reps 400] [--ns 200 1000]
        [--metrics accuracy log_loss]
    python benchmarks/sequential_api_study.py ci [--reps 200]
    python benchmarks/sequential_api_study.py summary
    python benchmarks/sequential_api_study.py tables

Run with OMP_NUM_THREADS=1 (set on import of generalization_study).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import generalization_study as gs
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

RESULTS = gs.RESULTS
DOCS_INC = gs.ROOT / "docs" / "sequential_tables.inc"
CMP_CSV = RESULTS / "sequential_api_compare.csv"
CI_CSV = RESULTS / "sequential_api_ci.csv"
STUDIES = ("null", "power")
NS = (200, 1000)
SCORING = {"accuracy": "accuracy", "log_loss": "neg_log_loss"}
FIXED_FITS = 100
CMP_FIELDS = (
    "study",
    "n",
    "rep",
    "metric",
    "api",
    "design",
    "significant",
    "a_better",
    "estimate",
    "pvalue",
    "fits",
    "stopped",
    "decision",
    "seconds",
)
CI_CELLS = (("synth-clf", "linear", 200), ("fair", "linear", 200))
CI_PLAN = {"accuracy": ("auto",), "roc_auc": ("auto",), "log_loss": ("auto",)}
CI_FIELDS = (
    "population",
    "learner",
    "n",
    "rep",
    "metric",
    "method",
    "n_fits",
    "fits_used",
    "estimate",
    "low",
    "high",
    "truth_fitted",
    "note",
)
MARK_BEGIN = ".. sequential_api_study begin"
MARK_END = ".. sequential_api_study end"


class BlockLogistic(ClassifierMixin, BaseEstimator):
    """L2 logistic regression (C = 1, free intercept) on the columns ``cols``.

    The objective of ``LogisticRegression()`` on ``X[:, cols]``, solved by
    Newton's method to a gradient of 1e-10 (``_fast_linear(scale=False)`` of
    ``generalization_study.py``), for binary 0/1 targets.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((200, 8))
    >>> y = (X[:, :4].sum(axis=1) + rng.standard_normal(200) > 0).astype(int)
    >>> round(BlockLogistic((0, 1, 2, 3)).fit(X, y).score(X, y), 3)
    0.795
    """

    def __init__(self, cols=(0, 1, 2, 3)):
        self.cols = cols

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) < 2:
            self.w_ = None
            return self
        t = (y == self.classes_[1]).astype(float)
        Z = np.column_stack([X[:, list(self.cols)], np.ones(len(X))])
        pen = np.ones(Z.shape[1])
        pen[-1] = 0.0
        w = np.zeros(Z.shape[1])
        for _ in range(100):
            p = 1.0 / (1.0 + np.exp(-(Z @ w)))
            g = Z.T @ (p - t) + pen * w
            if np.abs(g).max() < 1e-10:
                break
            H = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(pen)
            w -= np.linalg.solve(H, g)
        self.w_ = w
        return self

    def predict_proba(self, X):
        X = np.asarray(X, dtype=float)
        if self.w_ is None:
            return np.ones((len(X), 1))
        p = 1.0 / (1.0 + np.exp(-(X[:, list(self.cols)] @ self.w_[:-1] + self.w_[-1])))
        return np.column_stack([1 - p, p])

    def predict(self, X):
        P = self.predict_proba(X)
        return self.classes_[P.argmax(axis=1)]


def pair(study, n, rep):
    """``X, y, A, B, seed``: ``gs._pair_dataset``'s dataset, the two block
    learners and the seed of ``gs._skperf_pair``."""
    X, y, _ = gs._pair_dataset(study, n, rep)
    seed = int(np.random.default_rng([gs.SEED, 78, rep]).integers(2**31 - 1))
    return X, y, BlockLogistic((0, 1, 2, 3)), BlockLogistic((4, 5, 6, 7)), seed


def _cg_row(res, design, secs):
    dec = str(res.decision)
    return {
        "api": "compare_generalization",
        "design": design,
        "significant": int(dec.startswith(("better", "worse"))),
        "a_better": int(dec.startswith("better")),
        "estimate": res.estimate,
        "pvalue": res.pvalue,
        "fits": res.n_fits,
        "stopped": res.stopped,
        "decision": dec,
        "seconds": secs,
    }


def _cm_row(report, design, secs):
    pw = report.pairwise().iloc[0]
    dec = str(pw["decision"])
    sig = dec != "no significant difference"
    # model_a is ranked above model_b; estimate in the metric's units (a loss
    # for log loss): the study's sign, positive = A better, from the ranking
    a_first = pw["model_a"] == "A"
    frame = report.to_frame()
    est = abs(float(pw["estimate"])) * (1 if a_first else -1)
    return {
        "api": "compare_models",
        "design": design,
        "significant": int(sig),
        "a_better": int(sig and (a_first == dec.startswith("better"))),
        "estimate": est,
        "pvalue": float(pw["pvalue_adjusted"]),
        "fits": int(frame["n_splits"].max()),
        "stopped": report.stopped,
        "decision": dec,
        "seconds": secs,
    }


def compare_replicate(study, n, rep, metric, apis=("cg", "cm")):
    """The four decisions on one dataset (rows without the cell's keys)."""
    import skperf

    X, y, a, b, seed = pair(study, n, rep)
    scoring = SCORING[metric]
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for design, n_fits in (("sequential", "auto"), ("fixed", FIXED_FITS)):
            if "cg" in apis:
                t0 = time.perf_counter()
                res = skperf.compare_generalization(
                    a,
                    b,
                    X,
                    y,
                    scoring=scoring,
                    n_fits=n_fits,
                    random_state=seed,
                    n_jobs=1,
                )
                rows.append(_cg_row(res, design, time.perf_counter() - t0))
            if "cm" in apis:
                t0 = time.perf_counter()
                rep_ = skperf.compare_models(
                    {"A": a, "B": b},
                    X,
                    y,
                    scoring=scoring,
                    random_state=seed,
                    n_jobs=1,
                    n_repeats="auto" if n_fits == "auto" else n_fits // 10,
                )
                rows.append(_cm_row(rep_, design, time.perf_counter() - t0))
    return rows


def _done(path, keys):
    import pandas as pd

    if not path.exists():
        return set()
    d = pd.read_csv(path, usecols=list(keys), dtype=str)
    return set(map(tuple, d.to_numpy()))


def run_compare(args):
    RESULTS.mkdir(parents=True, exist_ok=True)
    done = _done(CMP_CSV, ("study", "n", "rep", "metric"))
    t0 = time.perf_counter()
    for lo in range(0, args.reps, 50):
        for metric in args.metrics:
            for n in args.ns:
                for study in STUDIES:
                    for rep in range(lo, min(lo + 50, args.reps)):
                        if (study, str(n), str(rep), metric) in done:
                            continue
                        rows = compare_replicate(study, n, rep, metric)
                        for r in rows:
                            r.update(study=study, n=n, rep=rep, metric=metric)
                        gs._append(CMP_CSV, rows, CMP_FIELDS)
                print(
                    f"{metric} n={n} reps<{min(lo + 50, args.reps)} "
                    f"{time.perf_counter() - t0:.0f} s",
                    flush=True,
                )


def ci_replicate(pop, learner, n, rep):
    """``generalization_ci``'s default on replicate ``rep`` of a coverage-study
    cell (``gs.skperf_replicate``: same dataset, truth, learner); the fits
    spent in ``fits_used``."""
    rows = gs.skperf_replicate(gs.POPULATIONS[pop], learner, n, rep, plan=CI_PLAN)
    for r in rows:
        r["fits_used"] = int(str(r.get("note", "")).split()[-1])
    return rows


def run_ci(args):
    RESULTS.mkdir(parents=True, exist_ok=True)
    done = _done(CI_CSV, ("population", "learner", "n", "rep"))
    t0 = time.perf_counter()
    for lo in range(0, args.reps, 50):
        for pop, learner, n in CI_CELLS:
            for rep in range(lo, min(lo + 50, args.reps)):
                if (pop, learner, str(n), str(rep)) in done:
                    continue
                rows = ci_replicate(pop, learner, n, rep)
                for r in rows:
                    r.update(population=pop, learner=learner, n=n, rep=rep)
                gs._append(CI_CSV, rows, CI_FIELDS)
            print(
                f"{pop} {learner} n={n} reps<{min(lo + 50, args.reps)} "
                f"{time.perf_counter() - t0:.0f} s",
                flush=True,
            )


# --------------------------------------------------------------------------
# Summaries
# --------------------------------------------------------------------------


def compare_summary():
    """Per (api, study, n, metric): the sequential default against the fixed
    design on the same datasets, with the bars of issue 26."""
    import pandas as pd

    d = pd.read_csv(CMP_CSV, keep_default_na=False, na_values=[""])
    d = d.drop_duplicates(["study", "n", "rep", "metric", "api", "design"])
    # datasets with both designs of the api
    full = d.groupby(["study", "n", "rep", "metric", "api"]).design.transform("nunique")
    d = d[full == 2]
    rows = []
    for (api, study, n, metric), g in d.groupby(["api", "study", "n", "metric"]):
        s = g[g.design == "sequential"].set_index("rep").sort_index()
        f = g[g.design == "fixed"].set_index("rep").sort_index()
        D = len(s)
        rate = s.significant.mean()
        se = np.sqrt(max(rate, 0.05) * (1 - max(rate, 0.05)) / D)
        fixed = f.significant.mean()
        row = {
            "api": api,
            "study": study,
            "n": n,
            "metric": metric,
            "datasets": D,
            "significant": rate,
            "a_better": s.a_better.mean(),
            "mc_se": se,
            "fixed_significant": fixed,
            "agree": (s.significant.to_numpy() == f.significant.to_numpy()).mean(),
            "fits_mean": s.fits.mean(),
            "fits_median": float(s.fits.median()),
            "fits_p90": float(np.percentile(s.fits, 90)),
            "decided": (s.stopped == "decided").mean(),
            "futile": (s.stopped == "futile").mean(),
            "budget": (s.stopped == "budget").mean(),
            "seconds_seq": s.seconds.mean(),
            "seconds_fixed": f.seconds.mean(),
        }
        if study == "null":
            row["bar"] = "significant <= 0.05 + 2 s.e."
            row["met"] = bool(rate <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / D))
        else:
            row["bar"] = "power >= fixed - 0.03; median fits <= 40"
            row["met"] = bool(rate >= fixed - 0.03 and row["fits_median"] <= 40)
        rows.append(row)
    out = pd.DataFrame(rows)
    # the fixed reading of the race's stop, by why it stopped (compare_models)
    cm = d[(d.api == "compare_models") & (d.design == "sequential")]
    by_stop = (
        cm.groupby(["study", "n", "metric", "stopped"])
        .agg(datasets=("rep", "size"), significant=("significant", "mean"))
        .reset_index()
    )
    # compare_models' sequential reading against compare_generalization's
    # sequential decision on the same datasets (same seeds, same fits)
    seq = d[d.design == "sequential"].pivot_table(
        index=["study", "n", "metric", "rep"], columns="api", values="significant"
    )
    seq = seq.dropna()
    disagree = (
        (seq["compare_models"] != seq["compare_generalization"])
        .groupby(level=["study", "n", "metric"])
        .agg(["mean", "sum"])
        .reset_index()
    )
    return out, by_stop, disagree


def overall_fits(out):
    """Mean fits per model over all the study's comparison datasets, as a
    share of the fixed design's, per api and metric."""
    return (
        out.assign(w=out.fits_mean * out.datasets)
        .groupby(["api", "metric"])
        .apply(
            lambda g: g.w.sum() / g.datasets.sum() / FIXED_FITS, include_groups=False
        )
        .rename("mean_fits_share")
        .reset_index()
    )


def ci_summary():
    import pandas as pd

    d = pd.read_csv(CI_CSV, keep_default_na=False, na_values=[""])
    d = d.drop_duplicates(["population", "learner", "n", "rep", "metric", "method"])
    t = gs.coverage_table(d)
    p, p_holm = gs.below_hold_pvalues(t.coverage_new, t.replicates)
    t["p_below"], t["p_below_holm"] = p, p_holm
    t["met"] = (t.coverage_new >= gs.HOLD) | (t.p_below_holm >= 0.05)
    fits = d.groupby(["population", "learner", "n", "metric"]).fits_used.agg(
        ["mean", "median"]
    )
    t = t.merge(
        fits.rename(
            columns={"mean": "fits_mean", "median": "fits_median"}
        ).reset_index(),
        on=["population", "learner", "n", "metric"],
    )
    return pd.DataFrame(t)


def run_summary(args):
    import pandas as pd

    pd.set_option("display.width", 250)
    pd.set_option("display.max_columns", 40)
    if CMP_CSV.exists():
        out, by_stop, disagree = compare_summary()
        print(out.to_string(float_format=lambda v: f"{v:.4g}"))
        print(overall_fits(out).to_string())
        print(by_stop.to_string(float_format=lambda v: f"{v:.4g}"))
        print(disagree.to_string(float_format=lambda v: f"{v:.4g}"))
    if CI_CSV.exists():
        t = ci_summary()
        cols = [
            "population",
            "learner",
            "n",
            "metric",
            "replicates",
            "coverage_new",
            "mc_se_new",
            "p_below_holm",
            "mean_width",
            "fits_mean",
            "fits_median",
            "met",
        ]
        print(t[cols].to_string(float_format=lambda v: f"{v:.4g}"))


def _pct(v):
    return f"{100 * v:.1f}"


def run_tables(args):
    lines = [
        MARK_BEGIN,
        "",
        ".. Generated by benchmarks/sequential_api_study.py tables.",
        "",
    ]
    if CMP_CSV.exists():
        out, by_stop, disagree = compare_summary()
        out.to_csv(
            RESULTS / "sequential_api_compare_summary.csv",
            index=False,
            float_format="%.5g",
        )
        lines += [
            "Through the API (``benchmarks/sequential_api_study.py``): the sequential",
            "defaults of ``compare_generalization`` and ``compare_models`` (two models)",
            'against the fixed 10 x 10-fold design on the same datasets: % "significant"',
            '(equal algorithms: the false-"significant" rate, bar 5 % + 2 MC s.e.; real',
            "differences: power, bar the fixed design's - 3 points) and the fits per",
            "model spent (mean / median / 90th percentile; fixed: 100).",
            "",
        ]
        rows = []
        for r in out.itertuples():
            rows.append(
                [
                    r.api,
                    r.study,
                    str(r.n),
                    r.metric.replace("_", " "),
                    str(r.datasets),
                    _pct(r.significant),
                    _pct(r.fixed_significant),
                    f"{r.fits_mean:.0f} / {r.fits_median:.0f} / {r.fits_p90:.0f}",
                    "yes" if r.met else "no",
                ]
            )
        lines.append(
            gs._list_table(
                [
                    "API",
                    "algorithms",
                    "n",
                    "metric",
                    "datasets",
                    "sequential %",
                    "fixed %",
                    "fits mean / median / p90",
                    "bar met",
                ],
                rows,
            )
        )
        share = overall_fits(out)
        lines += [
            "Mean fits per model over all these datasets, share of the fixed design's: "
            + "; ".join(
                f"{r.api} ({r.metric.replace('_', ' ')}) {r.mean_fits_share:.0%}"
                for r in share.itertuples()
            )
            + ".",
            "",
            "``compare_models`` stops when the race has settled every pair, then reads",
            "its decisions with the fixed-design corrected paired t (Holm) on the fits",
            'spent: % "significant" by why the race stopped (datasets in brackets):',
            "",
        ]
        rows = []
        for (study, n, metric), g in by_stop.groupby(["study", "n", "metric"]):
            row = [study, str(n), metric.replace("_", " ")]
            for st in ("decided", "futile", "budget"):
                h = g[g.stopped == st]
                row.append(
                    f"{_pct(h.significant.iloc[0])} ({int(h.datasets.iloc[0])})"
                    if len(h)
                    else ""
                )
            dis = disagree[
                (disagree.study == study)
                & (disagree.n == n)
                & (disagree.metric == metric)
            ]
            row.append(str(int(dis["sum"].iloc[0])) if len(dis) else "")
            rows.append(row)
        lines.append(
            gs._list_table(
                [
                    "algorithms",
                    "n",
                    "metric",
                    "decided",
                    "futile",
                    "budget",
                    "datasets where it differs from compare_generalization",
                ],
                rows,
            )
        )
    if CI_CSV.exists():
        t = ci_summary()
        t.to_csv(
            RESULTS / "sequential_api_ci_summary.csv", index=False, float_format="%.5g"
        )
        lines += [
            "``generalization_ci``'s sequential default through the API: coverage of",
            '"new data" (truth as in the coverage study) and fits spent:',
            "",
        ]
        rows = [
            [
                f"{r.population} {r.learner}",
                str(r.n),
                r.metric.replace("_", " "),
                str(r.replicates),
                f"{r.coverage_new:.3f}",
                f"{r.mean_width:.3f}",
                f"{r.fits_mean:.1f}",
            ]
            for r in t.itertuples()
        ]
        lines.append(
            gs._list_table(
                [
                    "cell",
                    "n",
                    "metric",
                    "datasets",
                    "coverage",
                    "mean width",
                    "mean fits",
                ],
                rows,
            )
        )
    lines += [MARK_END, ""]
    text = DOCS_INC.read_text() if DOCS_INC.exists() else ""
    if MARK_BEGIN in text:
        text = (
            text[: text.index(MARK_BEGIN)]
            + text[text.index(MARK_END) + len(MARK_END) :]
        )
        text = text.rstrip("\n") + "\n"
    DOCS_INC.write_text(text.rstrip("\n") + "\n\n" + "\n".join(lines))
    print("\n".join(lines))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("compare", "ci", "summary", "tables"))
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--ns", type=int, nargs="+", default=list(NS))
    ap.add_argument("--metrics", nargs="+", default=["accuracy"], choices=list(SCORING))
    args = ap.parse_args(argv)
    if args.reps is None:
        args.reps = 200 if args.command == "ci" else 400
    {
        "compare": run_compare,
        "ci": run_ci,
        "summary": run_summary,
        "tables": run_tables,
    }[args.command](args)


if __name__ == "__main__":
    main()
