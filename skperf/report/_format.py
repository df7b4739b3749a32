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


def _side_text(decision, other):
    """A decision of ``A.compare(B)`` read from A's side: ``"worse than B (...)"``."""
    return _SIDE.get(decision, decision).format(o=other)


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


def _summary_table(report, quantiles):
    """Header and rows (strings) of the per-model summary table."""
    frame = report.to_frame(quantiles)
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
                _pval(r["p_value"]),
                _pval(r["p_adjusted"]),
                "yes" if r["tied_with_best"] else "no",
            ]
        )
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
    frame = report.to_frame(quantiles)
    parts = []
    for col, label in [("mean", "mean")] + [
        (f"q{float(q):g}", _q_label(float(q))) for q in quantiles
    ]:
        methods = frame[f"{col}_method"]
        if methods.nunique() == 1:
            parts.append(f"{label}: {methods.iloc[0]}")
        else:
            per = ", ".join(f"{m} ({n})" for n, m in methods.items())
            parts.append(f"{label}: {per}")
    if report.comparisons:
        methods = sorted({c.method for c in report.comparisons.values()})
        parts.append(f"P(A > B): {', '.join(methods)}")
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
    items += [
        ("confidence", f"{report.confidence:g}"),
        ("gamma (meaningful P(A > B))", f"{report.gamma:g}"),
        ("multiple-comparison correction", str(report.correction)),
    ]
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


def _conclusion(report):
    """One paragraph stating the best model and the tied set."""
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
            f"the pointwise {(1 - cb.level) / 2:.0%} and {(1 + cb.level) / 2:.0%} "
            "quantiles of the per-repeat curves (they describe the repeats at "
            "hand; not a prediction interval for a new repeat)"
        )
    else:
        band = (
            f"the pointwise {cb.level:.0%} t prediction interval for the curve "
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
    req = _requirement_lines(report)
    if req:
        parts += [
            _wrap(req[0]),
            "",
            *[_wrap(_escape_md(x), indent="- ") for x in req[1:]],
            "",
        ]
    parts += [
        _wrap(_DEFINITIONS),
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
