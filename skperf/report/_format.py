"""Text formatting shared by the markdown and HTML reports."""

from __future__ import annotations

import math
import textwrap

import numpy as np

__all__: list[str] = []


_SIDE = {
    "better": "better than {o} (significant, meaningful)",
    "better, not meaningful": "better than {o} (significant, not meaningful)",
    "no significant difference": "no significant difference from {o}",
    "worse, not meaningful": "worse than {o} (significant, not meaningful)",
    "worse": "worse than {o} (significant, meaningful)",
}


_SIDE_NEW_DATA = {
    "better": "better than {o} (significant)",
    "no significant difference": "no significant difference from {o}",
    "worse": "worse than {o} (significant)",
}


def _side_text(decision, other, target="this dataset"):
    """A decision of A against B read from A's side: ``"worse than B (...)"``.

    ``target="new data"``: a decision of the report's family of corrected
    paired t tests (significant or not; no "meaningful" threshold).
    """
    table = _SIDE_NEW_DATA if target == "new data" else _SIDE
    return table.get(decision, decision).format(o=other)


def _num(x, fmt=".4g"):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return format(x, fmt)


def _ci(est, low, high, fmt=".4g", zero=None):
    """``"est [low, high]"``; a zero-width interval says so.

    ``zero`` is the reason shown for an interval of zero width (e.g. ``"all
    scores equal"``). Bounds that differ but round to the same text get more
    decimals, so only a truly zero-width interval reads as one.
    """
    if isinstance(est, float) and math.isnan(est):
        return "–"
    lo, hi = format(low, fmt), format(high, fmt)
    if low != high and lo == hi and fmt.endswith("f"):
        digits = int(fmt[1:-1] or 6)
        for extra in range(1, 7):
            fmt = f".{digits + extra}f"
            lo, hi = format(low, fmt), format(high, fmt)
            if lo != hi:
                break
    text = f"{format(est, fmt)} [{lo}, {hi}]"
    if low == high:
        text += f" (zero width: {zero})" if zero else " (zero width)"
    return text


def _zero_reason_scores(dist):
    """Why an interval computed from ``dist``'s scores can have zero width."""
    scores = np.asarray(dist, dtype=float)
    return "all scores equal" if np.ptp(scores) == 0 else "tied scores"


def _pval(p):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _q_label(q):
    return "median" if q == 0.5 else f"q{q:g}"


def _score_format(report):
    """Fixed decimals showing the typical sd to two significant digits."""
    sds = [d.std(ddof=1) for d in report.distributions.values()]
    sd = float(np.median(sds))
    decimals = 4 if not sd > 0 else int(np.clip(1 - np.floor(np.log10(sd)), 0, 6))
    return f".{decimals}f"


def _metric_name(report):
    """The metric's name: the models' own score named (``"accuracy"``) if known."""
    return report.settings.get("default_metric") or report.metric or "score"


def _adjusted_label(report):
    """', holm-adjusted' when the difference intervals carry the correction."""
    if report.target == "new data" and report.correction:
        return f", {report.correction}-adjusted"
    return ""


def _n_pairs(report):
    return report.n_models * (report.n_models - 1) // 2


class _Header(list):
    """A table's header (its prose) with each column's key (``keys``)."""

    def __init__(self, texts, keys):
        super().__init__(texts)
        if len(keys) != len(texts):  # pragma: no cover - a bug if reached
            raise RuntimeError("a key per column")
        self.keys = list(keys)


def _summary_table(report, quantiles):
    """Header and rows (strings) of the per-model summary table."""
    if report.target == "new data":
        return _summary_table_new_data(report, quantiles)
    frame = report.to_frame(quantiles=quantiles)
    f = _score_format(report)
    pct = f"{report.confidence:.0%}"
    qcols = [f"q{float(q):g}" for q in quantiles]
    header = (
        ["model", "n", f"mean [{pct} CI]", "sd"]
        + [f"{_q_label(float(q))} [{pct} CI]" for q in quantiles]
        + [
            f"P(best > model) [{pct} CI]",
            "vs best (CI of P, uncorrected)",
            "p",
            f"p adj. ({report.correction or 'none'})",
            "tied with best",
        ]
    )
    rows = []
    for name, r in frame.iterrows():
        why = _zero_reason_scores(report.distributions[name])
        rows.append(
            [
                name,
                str(r["n"]),
                _ci(r["mean"], r["mean_low"], r["mean_high"], f, why),
                _num(r["sd"], f),
            ]
            + [
                # approximate: Hutson's bootstrap where no exact interval exists
                _ci(r[c], r[f"{c}_low"], r[f"{c}_high"], f, why)
                + (" (approx.)" if r.get(f"{c}_method") == "bootstrap" else "")
                for c in qcols
            ]
            + [
                _p_best_cell(report, name, r),
                r["vs_best"],
                _pval(r["pvalue"]),
                _pval(r["pvalue_adjusted"]),
                "yes" if r["tied_with_best"] else "no",
            ]
        )
    return header, rows


def _summary_table_new_data(report, quantiles):
    """The summary table of a new-data report: decisions first, then run-to-run.

    The new-data columns (interval, difference with the best, adjusted
    p-value, decision, tied with best) all read the report's one family;
    the run-to-run columns describe the repeats on this dataset.
    """
    frame = report.to_frame(quantiles=quantiles)
    f = _score_format(report)
    pct = f"{report.confidence:.0%}"
    qcols = [f"q{float(q):g}" for q in quantiles]
    header = [
        "model",
        f"new data: {_metric_name(report)} [{pct} CI]",
        f"best - model, new data [{pct} CI{_adjusted_label(report)}]",
        f"p adj. ({report.correction or 'none'}, {_n_pairs(report)} pairs)",
        "vs best (new data)",
        "tied with best",
        "run-to-run (this dataset): n",
        f"mean [{pct} CI]",
        "sd",
    ] + [f"{_q_label(float(q))} [{pct} CI]" for q in quantiles]
    # the columns' keys, for programs (the CLI): headers are prose
    keys = [
        "model",
        "new_data",
        "difference",
        "pvalue_adjusted",
        "vs_best",
        "tied_with_best",
        "n",
        "mean",
        "sd",
        *qcols,
    ]
    rows = []
    for name, r in frame.iterrows():
        why = _zero_reason_scores(report.distributions[name])
        diff = (
            "–"
            if name == report.best
            else _ci(r["difference"], r["difference_low"], r["difference_high"], f)
        )
        rows.append(
            [
                name,
                (
                    f"– (incomplete: {int(r['failed_splits'])} splits without a score)"
                    if r.get("failed_splits", 0)
                    else _ci(r["new_data"], r["new_data_low"], r["new_data_high"], f)
                ),
                diff,
                _pval(r["pvalue_adjusted"]),
                r["vs_best"],
                "yes" if r["tied_with_best"] else "no",
                str(r["n"]),
                _ci(r["mean"], r["mean_low"], r["mean_high"], f, why),
                _num(r["sd"], f),
            ]
            + [
                _ci(r[c], r[f"{c}_low"], r[f"{c}_high"], f, why)
                + (" (approx.)" if r.get(f"{c}_method") == "bootstrap" else "")
                for c in qcols
            ]
        )
    # one model, no pairs: no comparison columns
    pairs = {"difference", "pvalue_adjusted", "vs_best", "tied_with_best"}
    keep = [i for i, k in enumerate(keys) if report.n_models > 1 or k not in pairs]
    header = _Header([header[i] for i in keep], [keys[i] for i in keep])
    return header, [[row[i] for i in keep] for row in rows]


def _pairs_rows(report):
    """Header and rows (strings) of the table of all pairs (:meth:`pairwise`)."""
    pairs = report.pairwise()
    f = _score_format(report)
    pct = f"{report.confidence:.0%}"
    new = report.target == "new data"
    header = [
        "A",
        "B",
        f"mean A - B [{pct} CI{', per pair' if new else ''}]",
        "test",
        "p",
        f"p adj. ({report.correction or 'none'}"
        + (f", {_n_pairs(report)} pairs)" if new else ", best vs others)"),
        f"A vs B ({report.target})",
    ] + ([] if new else [f"P(A > B) [{pct} CI]"])
    rows = []
    for r in pairs.itertuples():
        row = [
            r.model_a,
            r.model_b,
            _ci(r.estimate, r.low, r.high, f),
            r.method,
            _pval(r.pvalue),
            _pval(r.pvalue_adjusted),
            _side_text(r.decision, "B", report.target),
        ]
        if not new:  # P(A > B) decides this dataset only
            c = report.comparisons[r.model_a, r.model_b]
            row.append(_ci(c.estimate, c.low, c.high, ".3f"))
        rows.append(row)
    return header, rows


def _p_best_cell(report, name, r):
    """P(best > model) with its interval (``–`` for the best model)."""
    est = r["p_best_better"]
    if isinstance(est, float) and math.isnan(est):
        return "–"
    # exact (sign) or Newcombe intervals: never of zero width in the report,
    # whose scores are independent (groups aggregated), so no bootstrap
    return _ci(est, r["p_best_better_low"], r["p_best_better_high"], ".3f")


def _methods_line(report, quantiles):
    """Which interval method each column used (per model when they differ)."""
    frame = report.to_frame(quantiles=quantiles)
    parts = []
    for col, label in [("mean", "mean")] + [
        (f"q{float(q):g}", _q_label(float(q))) for q in quantiles
    ]:
        methods = frame[f"{col}_method"]
        methods = methods[methods != ""]  # one run: no run-to-run interval
        if methods.empty:
            continue
        if methods.nunique() == 1:
            parts.append(f"{label}: {methods.iloc[0]}")
        else:
            per = ", ".join(f"{m} ({n})" for n, m in methods.items())
            parts.append(f"{label}: {per}")
    if report.target == "this dataset" and report.comparisons:
        methods = sorted({c.method for c in report.comparisons.values()})
        parts.append(f"P(A > B): {', '.join(methods)}")
    if report.target == "new data":
        methods = sorted({str(r) for r in frame["new_data_method"]})
        parts.insert(0, f"new data: {', '.join(methods)}")
        if report.n_models > 1:
            parts.insert(1, "pairs: corrected paired t")
    return "; ".join(parts)


def _settings_items(report):
    """(label, value) pairs describing how to reproduce the report."""
    s = report.settings
    items = []
    if "vary" in s:
        items.append(("varied per repeat", _varied_text(s)))
    if "n_repeats" in s:
        items.append(("repeats", str(s["n_repeats"])))
    ns = sorted({d.n for d in report.distributions.values()})
    items.append(("scores per model (n)", ", ".join(map(str, ns))))
    for key, label in [("cv", "cv"), ("scoring", "scoring"), ("n_samples", "samples")]:
        if key in s:
            items.append((label, str(s[key])))
    if report.metric:
        default = s.get("default_metric")
        shown = f"{report.metric} ({default})" if default else report.metric
        items.append(("metric", shown))
    items.append(
        (
            "direction",
            "greater is better" if report.greater_is_better else "smaller is better",
        )
    )
    items.append(("target of the decisions", report.target))
    if report.test_train_ratio is not None:
        items.append(
            (
                "n_test / n_train (corrected t)",
                str(s.get("test_train_ratio", f"{report.test_train_ratio:.4g}")),
            )
        )
    items.append(("confidence", f"{report.confidence:g}"))
    if report.target == "this dataset":  # the threshold of its decisions
        items.append(("gamma (meaningful P(A > B))", f"{report.gamma:g}"))
    if report.n_models > 1:
        items.append(("multiple-comparison correction", str(report.correction)))
    if "random_state" in s:
        items.append(("random_state (seed entropy)", str(s["random_state"])))
    items.append(
        ("bootstrap seed entropy", f"{report.random_state_} (n_boot={report.n_boot})")
    )
    for key in ("skperf", "scikit-learn"):
        if key in s:
            items.append((f"{key} version", str(s[key])))
    return items


def _varied_text(settings):
    """``"split, init (not search: no model contains a hyperparameter search)"``."""
    text = ", ".join(settings["vary"]) or "nothing"
    skipped = settings.get("not_varied") or {}
    if skipped:
        text += " (" + "; ".join(f"not {k}: {v}" for k, v in skipped.items()) + ")"
    return text


def _conclusion(report, *, table=True):
    """One paragraph stating the best model and the tied set.

    With ``target="new data"`` its first sentence answers "which model, on
    new data" and quotes the best model's generalization interval; with
    ``table`` a last sentence says how to read the summary table's
    run-to-run columns.
    """
    if report.target == "new data":
        return _conclusion_new_data(report, table=table)
    others = [n for n in report.tied_with_best if n != report.best]
    corr = report.correction or "no"
    text = f"Best mean: {report.best} (ties go to the first model in the given order). "
    if report.n_models == 1:
        return text + "Only one model was evaluated."
    if others:
        text += (
            f"Not significantly worse than {report.best} after {corr} correction "
            f"at level {1 - report.confidence:.2g}: {', '.join(others)}."
        )
    else:
        text += (
            f"Every other model is significantly worse than {report.best} after "
            f"{corr} correction at level {1 - report.confidence:.2g}."
        )
    return text


def _conclusion_new_data(report, *, table=True):
    best = report.best
    ci = report.generalization.get(best)  # None: failed fits (incomplete)
    f = _score_format(report)
    pct = f"{report.confidence:.0%}"
    n = report.settings.get("n_samples")
    ratio = report.test_train_ratio
    # K-fold: n_train + n_test = n, so each fit trains on n / (1 + ratio) rows
    rows = (
        f"about {round(n / (1 + ratio))} of the {n} rows"
        if n and ratio
        else "as many rows as these fits,"
    )
    incomplete = getattr(report, "incomplete", {})
    if ci is not None:
        low, high = ci.low, ci.high
        known = report._bounds() if hasattr(report, "_bounds") else None
        if known is not None:  # as the table's columns (issue 29, item 4)
            low, high = max(low, known[1][0]), min(high, known[1][1])
    interval = (
        f"no interval on new data ({incomplete.get(best, 0)} splits without a "
        "score: failed fits)"
        if ci is None
        else f"{_metric_name(report)} {_ci(ci.estimate, low, high, f)} "
        f"({pct} CI, {ci.method})"
    )
    if report.n_models == 1:
        return (
            f"On new data (the algorithm trained on {rows} from the same "
            f"population), {best}: {interval}. Only one model was evaluated."
        )
    others = [n for n in report.tied_with_best if n != best]
    m = _n_pairs(report)
    level = (
        f"{report.correction or 'no'} correction over all {m} pairs"
        if m > 1
        else "one pair"
    )
    level += f", level {1 - report.confidence:.2g}"
    text = (
        f"On new data (each algorithm trained on {rows} from the same "
        f"population), choose {best}: {interval}"
    )
    if others:
        text += (
            f"; not significantly worse ({level}): {', '.join(others)}, so "
            f"{'it is' if len(others) == 1 else 'they are'} as good a choice as far "
            "as these data tell."
        )
    else:
        text += f"; every other model is significantly worse ({level})."
    flagged = [n for n in report.ranking if n in incomplete and n != best]
    if flagged:
        text += (
            " Incomplete (failed fits; no interval on new data, compared on the "
            "splits both models have, not chosen as the best): "
            + ", ".join(
                f"{n} ({incomplete[n]} splits without a score)" for n in flagged
            )
            + "."
        )
    if not table:
        return text
    return text + " The table's run-to-run columns describe this dataset."


#: the new-data definitions: the interval, the pairs (with two models or
#: more), the run-to-run columns, the winner's curse (with a choice)
_NEW_DATA_INTERVAL = (
    "New data: {whose} interval is for its expected score when trained on "
    "about n rows from the same population (Nadeau & Bengio's corrected resampled "
    "t over the splits, or the evaluator's generalization_ci). "
)
_NEW_DATA_PAIRS = (
    "Every pair of models "
    "is tested with the corrected resampled paired t on the per-split score "
    "differences (variance (1/J + n_test/n_train) s^2; Nadeau & Bengio 2003, "
    "Sec. 4); the p-values of all pairs form one family, corrected together, so "
    "the headline, 'tied with best', the row and pairwise decisions and the "
    "heatmap marks never disagree; a model is tied with the best unless its pair "
    "with the best is significant. Intervals of differences are per pair "
    "(unadjusted). "
)
_RUN_TO_RUN = (
    "Run-to-run (this dataset): n repeats (folds averaged per "
    "repeat), their mean and sd (and quantiles where asked for): they describe "
    "how scores vary from run to run on this dataset, not new data"
)
_NEW_DATA_CHOICE = (
    "; target='this dataset' decides on P(A > B) over repeats instead. The best "
    "model's estimate is optimistically biased (winner's curse): confirm it on "
    "fresh data."
)

_DEFINITIONS = (
    "P(A > B) is the probability of outperforming (ties count 1/2) with a CI "
    "valid at every n: exact (sign) when paired, Newcombe's score interval "
    "otherwise, a cluster bootstrap for folds within repeats (Bouthillier et al. "
    "2021, Sec. 4.1; docs: Validity). "
    "Decision (App. C.6, per comparison, uncorrected): significant when the CI "
    "excludes 0.5, meaningful when it also reaches gamma; 'vs best' reads it from "
    "each model's side. The p-values of the "
    "best model against each other model (Wilcoxon signed-rank when paired, "
    "Mann-Whitney U otherwise) form the corrected family; a model is tied with "
    "the best unless its corrected p-value is below 1 - confidence with "
    "P(best > model) > 0.5. The best model's mean is optimistically biased "
    "(winner's curse): confirm it on fresh data."
)


def _definitions(report):
    """The definitions paragraph of the report's target."""
    if report.target == "this dataset":
        return _DEFINITIONS
    if report.n_models == 1:
        return _NEW_DATA_INTERVAL.format(whose="the model's") + _RUN_TO_RUN + "."
    return (
        _NEW_DATA_INTERVAL.format(whose="each model's")
        + _NEW_DATA_PAIRS
        + _RUN_TO_RUN
        + _NEW_DATA_CHOICE
    )


def _escape_md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _markdown_table(header, rows):
    """A GitHub-flavoured markdown table (no external dependency)."""
    cells = [[_escape_md(c) for c in header]] + [
        [_escape_md(c) for c in r] for r in rows
    ]
    widths = [max(len(r[j]) for r in cells) for j in range(len(header))]
    lines = []
    for i, r in enumerate(cells):
        lines.append(
            "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"
        )
        if i == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


#: text lines of the markdown report wrap at this width (tables cannot)
_WIDTH = 88


def _wrap(text, indent=""):
    return textwrap.fill(
        text,
        width=_WIDTH,
        initial_indent=indent,
        subsequent_indent=" " * len(indent),
        break_long_words=False,
        break_on_hyphens=False,
    )


def _requirement_lines(report):
    """One line per model with the verdict of ``report.requirement``."""
    if not getattr(report, "requirements", None):
        return []
    first = next(iter(report.requirements.values()))
    op = ">=" if first.greater_is_better else "<="
    head = (
        f"Requirement P(score {op} {first.threshold:g}) >= {first.probability:g} "
        f"(exact one-sided bounds at {first.confidence:g} confidence; 'met' needs "
        f"n >= {first.n_needed}):"
    )
    lines = [
        f"{name}: {r.verdict} ({r.n_meeting}/{r.n} runs meet it)"
        for name, r in report.requirements.items()
    ]
    return [head, *lines]


def _curves_text(report):
    """One line defining the curve bands of the report ("" without curves)."""
    bands = [cb for c in report.curves.values() for cb in c.values()]
    if not bands:
        return ""
    cb = bands[0]
    if cb.band == "quantile":
        band = (
            f"the pointwise {cb.quantiles[0]:.0%} and {cb.quantiles[1]:.0%} "
            "quantiles of the per-repeat curves (they describe the repeats at "
            "hand; not a prediction interval for a new repeat)"
        )
    else:
        band = (
            f"the pointwise {cb.quantiles[1] - cb.quantiles[0]:.0%} t prediction interval for the curve "
            "of a new repeat"
        )
    models = ", ".join(report.curves.get("roc", report.curves.get("pr", {})))
    return (
        f"Curves ({models}; plot_curves, HTML report): one ROC and one "
        f"precision-recall curve per repeat (n = {cb.n}, the repeat's test "
        "predictions pooled) on a common grid; the center line is the pointwise "
        f"{'median' if cb.band == 'quantile' else 'mean'}, the band {band}; "
        "pointwise, not a band for the whole curve at once."
    )


def _markdown_report(report, quantiles):
    header, rows = _summary_table(report, quantiles)
    parts = [
        "## Model comparison",
        "",
        _wrap(_conclusion(report)),
        "",
        _markdown_table(header, rows),
        "",
        _wrap(f"Interval methods: {_methods_line(report, quantiles)}."),
        "",
    ]
    if report.target == "new data" and report.n_models > 1:
        parts += [
            "### All pairs (new data)",
            "",
            _markdown_table(*_pairs_rows(report)),
            "",
        ]
    req = _requirement_lines(report)
    if req:
        parts += [
            _wrap(req[0]),
            "",
            *[_wrap(_escape_md(x), indent="- ") for x in req[1:]],
            "",
        ]
    parts += [
        _wrap(_definitions(report)),
        "",
        _markdown_table(["setting", "value"], _settings_items(report)),
    ]
    curves = _curves_text(report)
    if curves:
        parts += ["", _wrap(curves)]
    if report.notes:
        parts += ["", "Notes:", ""] + [
            _wrap(_escape_md(n), indent="- ") for n in report.notes
        ]
    return "\n".join(parts) + "\n"
