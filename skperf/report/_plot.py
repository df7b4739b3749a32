"""Matplotlib drawing for ModelSelectionReport (imported inside plot())."""

from __future__ import annotations

import base64
import io
import re

import numpy as np

__all__: list[str] = []

_INSTALL = "pip install matplotlib"


def _require_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ImportError(
            f"Plotting needs matplotlib, which is not installed: {_INSTALL}"
        ) from exc


def _figsize(report):
    return (12.0, max(3.0, 0.55 * report.n_models + 1.6))


def _draw_distributions(report, ax, quantiles):
    names = report.ranking
    y = np.arange(len(names))[::-1]  # best on top
    rng = np.random.default_rng(report.random_state_ % 2**32)
    frame = report.to_frame(quantiles=quantiles)
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    for yi, name in zip(y, names, strict=True):
        scores = np.asarray(report.distributions[name])
        jitter = rng.uniform(-0.18, 0.18, scores.size)
        ax.scatter(scores, yi + jitter, s=10, color="0.55", alpha=0.6, linewidths=0)
        row = frame.loc[name]
        for k, q in enumerate(quantiles):
            col = f"q{float(q):g}"
            off = -0.3 + 0.6 * (k + 0.5) / len(quantiles) - 0.3 / len(quantiles)
            color = colors[k % len(colors)]
            ax.plot(
                [row[f"{col}_low"], row[f"{col}_high"]],
                [yi + off] * 2,
                color=color,
                lw=3,
                solid_capstyle="butt",
                label=f"q{float(q):g}" if yi == y[0] else None,
            )
            ax.plot([row[col]], [yi + off], "|", color="k", ms=9)
        ax.plot(
            [row["mean"]],
            [yi],
            "D",
            color="k",
            ms=5,
            label="mean" if yi == y[0] else None,
        )
        if report.target == "new data":
            ax.plot(
                [row["new_data_low"], row["new_data_high"]],
                [yi + 0.36] * 2,
                color="k",
                lw=1.5,
                marker="|",
                label=f"new data {report.confidence:.0%} CI" if yi == y[0] else None,
            )
    ax.set_yticks(y)
    labels = [f"{n} *" if n in report.tied_with_best else n for n in names]
    ax.set_yticklabels(labels)
    ax.set_xlabel(report.metric or "score")
    pct = f"{report.confidence:.0%}"
    title = f"scores (points) and {pct} quantile CIs" if len(quantiles) else "scores"
    if report.target == "new data":
        title = f"run-to-run (this dataset): {title}; new data: {pct} CI"
    ax.set_title(f"{title}\n* best or tied with best ({report.target})", fontsize=10)
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.22),
        ncol=len(quantiles) + 1 + (report.target == "new data"),
        fontsize=8,
        frameon=False,
    )
    ax.grid(axis="x", alpha=0.3)


def _draw_difference_matrix(report, ax):
    """Mean difference row - column on new data; marks from the report's family."""
    names = report.ranking
    k = len(names)
    mat = np.full((k, k), np.nan)
    marks = np.full((k, k), "", dtype=object)
    for r in report.pairwise().itertuples():
        i, j = names.index(r.model_a), names.index(r.model_b)
        mat[i, j], mat[j, i] = r.estimate, -r.estimate
        if r.decision != "no significant difference":
            marks[i, j] = marks[j, i] = "*"
    scale = np.nanmax(np.abs(mat)) if np.isfinite(mat).any() else 1.0
    scale = scale if scale > 0 else 1.0
    im = ax.imshow(mat, vmin=-scale, vmax=scale, cmap="RdBu")
    for i in range(k):
        for j in range(k):
            if i != j:
                ax.text(
                    j,
                    i,
                    f"{mat[i, j]:+.3g}{marks[i, j]}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if abs(mat[i, j]) > 0.6 * scale else "black",
                )
    ax.set_xticks(range(k))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_yticks(range(k))
    ax.set_yticklabels(names)
    ax.set_title(
        "New data: mean row - column\n* significant "
        f"({report.correction or 'no'} correction over all {k * (k - 1) // 2} pairs)",
        fontsize=10,
    )
    ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)


def _draw_matrix(report, ax):
    if report.n_models == 1:
        ax.axis("off")
        ax.text(0.5, 0.5, "one model: no pairs to compare", ha="center", va="center")
        return
    if report.target == "new data":
        _draw_difference_matrix(report, ax)
        return
    prob = report.prob_matrix()
    names = list(prob.index)
    mat = prob.to_numpy()
    im = ax.imshow(mat, vmin=0, vmax=1, cmap="RdBu")
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                continue
            c = report.comparisons[a, b]
            mark = "*" if c.significant else ""
            ax.text(
                j,
                i,
                f"{mat[i, j]:.2f}{mark}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if abs(mat[i, j] - 0.5) > 0.3 else "black",
            )
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.set_title(
        f"P(row > column)\n* {report.confidence:.0%} CI excludes 0.5 (uncorrected)",
        fontsize=10,
    )
    ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)


def _plot_report(report, axes=None, quantiles=(0.1, 0.5, 0.9)):
    _require_matplotlib()
    if axes is None:
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(
            1,
            2,
            figsize=_figsize(report),
            layout="constrained",
            width_ratios=[3, 2],
        )
    else:
        if len(axes) != 2:
            raise ValueError(f"`axes` must hold two matplotlib Axes; got {len(axes)}.")
        fig = axes[0].figure
    _draw_distributions(report, axes[0], quantiles)
    _draw_matrix(report, axes[1])
    return fig


def _png_base64(fig):
    """A figure as base64 PNG text that never contains "http" (any case)."""
    for dpi in range(100, 120):  # a new dpi re-encodes every byte
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
        text = base64.b64encode(buf.getvalue()).decode("ascii")
        if not re.search("http", text, flags=re.IGNORECASE):
            return text
    raise RuntimeError("could not encode the plot without the letters 'http'")


def _plot_png_base64(report, quantiles):
    """The report's figure as base64 PNG text, drawn without pyplot.

    The text never contains "http" (case-insensitive), so a check for network
    URLs in the HTML page cannot trip over an accident of base64; the
    matplotlib URL in the PNG metadata is dropped for the same reason.
    """
    _require_matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=_figsize(report), layout="constrained")
    axes = fig.subplots(1, 2, width_ratios=[3, 2])
    _plot_report(report, axes=axes, quantiles=quantiles)
    return _png_base64(fig)


def _check_curves(report, kind):
    if kind not in ("roc", "pr"):
        raise ValueError(f"`kind` must be 'roc' or 'pr'; got {kind!r}.")
    if not report.curves.get(kind):
        why = "; ".join(f"{name}: {r}" for name, r in report.curves_missing.items())
        raise ValueError(
            "The report holds no curves: "
            + (
                why  # return_predictions=True, and why each model has none
                if why
                else "build it with compare_models(..., return_predictions=True) "
                "on a binary target, with models that have predict_proba or "
                "decision_function (see the report's notes)"
            )
            + "."
        )


def _band_text(cb):
    if cb.band == "quantile":
        lo, hi = cb.quantiles
        return f"pointwise {lo:.0%}-{hi:.0%} quantiles"
    return f"pointwise {cb.quantiles[1] - cb.quantiles[0]:.0%} t prediction interval"


def _draw_curves(report, kind, ax):
    bands = report.curves[kind]
    what = "AUC" if kind == "roc" else "AP"
    for name, cb in bands.items():
        (line,) = ax.plot(
            cb.grid,
            cb.center,
            lw=1.8,
            label=f"{name} ({what} median {np.median(cb.area):.3f})",
        )
        ax.fill_between(cb.grid, cb.low, cb.high, color=line.get_color(), alpha=0.2)
    from ._curves import _frame_axes

    first = next(iter(bands.values()))
    center = "median" if first.band == "quantile" else "mean"
    title = "ROC" if kind == "roc" else "Precision-recall"
    ax.set_title(
        f"{title} over {first.n} repeats: {center} and\n"
        f"{_band_text(first)} of the per-repeat curves",
        fontsize=10,
    )
    _frame_axes(ax, kind, fontsize=8)
    ax.grid(alpha=0.3)
    return ax


def _plot_curves(report, kind="roc", ax=None):
    _check_curves(report, kind)
    _require_matplotlib()
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5.5, 5), layout="constrained")
    return _draw_curves(report, kind, ax)


def _curves_png_base64(report):
    """The ROC and precision-recall bands side by side, as base64 PNG text.

    Encoded as :func:`_plot_png_base64` (no "http" in the text).
    """
    _require_matplotlib()
    from matplotlib.figure import Figure

    kinds = [k for k in ("roc", "pr") if report.curves.get(k)]
    fig = Figure(figsize=(5.5 * len(kinds), 5), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(kinds)))
    for kind, ax in zip(kinds, axes, strict=True):
        _draw_curves(report, kind, ax)
    return _png_base64(fig)
