"""Text formatting shared by the markdown and HTML reports."""

from __future__ import annotations

import math

import numpy as np

__all__: list[str] = []


def _num(x, fmt=".4g"):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return format(x, fmt)


def _ci(est, low, high, fmt=".4g"):
    if isinstance(est, float) and math.isnan(est):
        return "–"
    return f"{format(est, fmt)} [{format(low, fmt)}, {format(high, fmt)}]"


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
            "decision (best vs model)",
            "p",
            f"p adj. ({report.correction or 'none'})",
            "tied with best",
        ]
    )
    rows = []
    for name, r in frame.iterrows():
        rows.append(
            [
                name,
                str(r["n"]),
                _ci(r["mean"], r["mean_low"], r["mean_high"], f),
                _num(r["sd"], f),
            ]
            + [
                # approximate: Hutson's bootstrap where no exact interval exists
                _ci(r[c], r[f"{c}_low"], r[f"{c}_high"], f)
                + (" (approx.)" if r.get(f"{c}_method") == "bootstrap" else "")
                for c in qcols
            ]
            + [
                _ci(
                    r["p_best_better"],
                    r["p_best_better_low"],
                    r["p_best_better_high"],
                    ".3f",
                ),
                r["decision"],
                _pval(r["p_value"]),
                _pval(r["p_adjusted"]),
                "yes" if r["tied_with_best"] else "no",
            ]
        )
    return header, rows


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
    return "; ".join(parts)


def _settings_items(report):
    """(label, value) pairs describing how to reproduce the report."""
    s = report.settings
    items = []
    if "vary" in s:
        items.append(("varied per repeat", ", ".join(s["vary"]) or "nothing"))
    if "n_repeats" in s:
        items.append(("repeats", str(s["n_repeats"])))
    ns = sorted({d.n for d in report.distributions.values()})
    items.append(("scores per model (n)", ", ".join(map(str, ns))))
    for key, label in [("cv", "cv"), ("scoring", "scoring"), ("n_samples", "samples")]:
        if key in s:
            items.append((label, str(s[key])))
    if report.metric:
        items.append(("metric", report.metric))
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
    "P(A > B) is the probability of outperforming (ties count 1/2) with a "
    "percentile-bootstrap CI (Bouthillier et al. 2021, Sec. 4.1, App. C.5). "
    "Decision (App. C.6, per comparison, uncorrected): significant when the CI "
    "excludes 0.5, meaningful when it also reaches gamma. The p-values of the "
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


def _markdown_report(report, quantiles):
    header, rows = _summary_table(report, quantiles)
    parts = [
        "## Model comparison",
        "",
        _conclusion(report),
        "",
        _markdown_table(header, rows),
        "",
        f"Interval methods: {_methods_line(report, quantiles)}.",
        "",
        _DEFINITIONS,
        "",
        _markdown_table(["setting", "value"], _settings_items(report)),
    ]
    if report.notes:
        parts += ["", "Notes:", ""] + [f"- {_escape_md(n)}" for n in report.notes]
    return "\n".join(parts) + "\n"
