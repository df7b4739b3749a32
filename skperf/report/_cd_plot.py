"""The critical-difference diagram of Demšar (2006), Sec. 3.2.4, Fig. 1.

matplotlib is imported inside the function (an optional dependency).
"""

from __future__ import annotations

import numpy as np

__all__: list[str] = []


def _plot_cd(
    names,
    ranks,
    *,
    critical_difference=None,
    cliques=(),
    low=None,
    high=None,
    ax=None,
    title=None,
):
    """Draw a critical-difference diagram; return the matplotlib Axes.

    Parameters
    ----------
    names : list of str
        Model names.
    ranks : array-like of shape (k,)
        Mean ranks (1 is the best).
    critical_difference : float or None
        Nemenyi's CD, drawn as a bar above the axis (``None``: no bar, e.g.
        for Holm-corrected Wilcoxon cliques).
    cliques : list of list of int
        Groups of models not significantly different, joined by thick bars.
    low, high : array-like of shape (k,) or None
        Interval of each mean rank (two-level bootstrap), drawn as a shaded
        segment on the model's row.
    ax : matplotlib Axes or None
        Where to draw; a new figure when ``None``.
    title : str or None
        Axes title.
    """
    import matplotlib.pyplot as plt

    ranks = np.asarray(ranks, dtype=float)
    k = ranks.size
    order = np.argsort(ranks, kind="stable")
    n_left = (k + 1) // 2
    n_cl = len(cliques)
    row0 = 0.55 + 0.18 * n_cl  # first model row, below the clique bars
    step = 0.32
    height = row0 + step * n_left + 0.3
    if ax is None:
        _, ax = plt.subplots(figsize=(7.0, 1.0 + 0.55 * height))
    lo_x, hi_x = 1.0, float(max(k, 2))
    span = hi_x - lo_x
    margin = 0.38 * span + 0.4
    ax.set_xlim(lo_x - margin, hi_x + margin)
    ax.set_ylim(height, -0.75)
    ax.axis("off")

    # the rank axis
    ax.plot([lo_x, hi_x], [0, 0], color="black", lw=1)
    for t in range(1, k + 1):
        ax.plot([t, t], [0, -0.1], color="black", lw=1)
        ax.text(t, -0.15, str(t), ha="center", va="bottom", fontsize=9)
    for t in np.arange(1.5, k, 1.0):
        ax.plot([t, t], [0, -0.05], color="black", lw=0.7)

    if critical_difference is not None and np.isfinite(critical_difference):
        cd = float(critical_difference)
        y = -0.55
        ax.plot([lo_x, lo_x + cd], [y, y], color="black", lw=1.5)
        for x in (lo_x, lo_x + cd):
            ax.plot([x, x], [y - 0.05, y + 0.05], color="black", lw=1.5)
        ax.text(
            lo_x + cd / 2,
            y - 0.07,
            f"CD = {cd:.2f}",
            ha="center",
            va="bottom",
            fontsize=8,
        )

    for j, members in enumerate(cliques):
        r = ranks[list(members)]
        y = 0.3 + 0.18 * j
        ax.plot([r.min() - 0.03, r.max() + 0.03], [y, y], color="black", lw=3.5)

    for pos, i in enumerate(order):
        left = pos < n_left
        row = pos if left else k - 1 - pos
        y = row0 + step * row
        x_text = lo_x - 0.12 * span - 0.15 if left else hi_x + 0.12 * span + 0.15
        ax.plot([ranks[i], ranks[i]], [0, y], color="black", lw=0.8)
        ax.plot([ranks[i], x_text], [y, y], color="black", lw=0.8)
        if low is not None and high is not None:
            ax.plot(
                [low[i], high[i]],
                [y, y],
                color="tab:blue",
                lw=4,
                alpha=0.35,
                solid_capstyle="butt",
            )
        ax.text(
            x_text + (-0.05 if left else 0.05),
            y,
            f"{names[i]} ({ranks[i]:.2f})" if left else f"({ranks[i]:.2f}) {names[i]}",
            ha="right" if left else "left",
            va="center",
            fontsize=9,
        )
    if title:
        ax.set_title(title, fontsize=10)
    return ax
