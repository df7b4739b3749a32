"""ROC and precision-recall curves across repeats, with a pointwise band.

From the predictions a :class:`~skperf.RepeatedEvaluator` kept
(``return_predictions=True``), one curve per repeat (the test predictions of
the repeat's fits pooled: the out-of-fold predictions for a K-fold cv, the
one test set for ``cv=None``), interpolated on a common grid. The band is
pointwise: at each grid point it describes the spread of the per-repeat
curves there, not a band for the whole curve at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

from ..stats._results import _ResultMixin

__all__ = ["CurveBand", "curve_band", "pr_curves", "roc_curves"]

_BANDS = ("quantile", "t")

#: opens the report's note on a model without curves (the CLI prints those notes)
_NO_CURVES = "no ROC or precision-recall curves"


def _check_quantiles(quantiles):
    """The band's pair of quantile levels as a tuple of two floats in (0, 1)."""
    try:
        lo, hi = (float(v) for v in quantiles)
    except (TypeError, ValueError):
        raise ValueError(
            "`quantiles` must be a pair (low, high) of quantile levels in (0, 1), "
            f"e.g. (0.1, 0.9); got {quantiles!r}."
        ) from None
    if not 0 < lo < hi < 1:
        raise ValueError(
            "`quantiles` must be a pair (low, high) with 0 < low < high < 1; got "
            f"{quantiles!r}."
        )
    return lo, hi


@dataclass(frozen=True, eq=False)
class CurveBand(_ResultMixin):
    """Per-repeat curves on a common grid with a pointwise band.

    Attributes
    ----------
    kind : {"roc", "pr"}
        ROC (x = false positive rate, y = true positive rate) or
        precision-recall (x = recall, y = interpolated precision).
    grid : ndarray of shape (n_grid,)
        The common x values.
    curves : ndarray of shape (n_repeats, n_grid)
        One interpolated curve per repeat.
    center : ndarray of shape (n_grid,)
        Pointwise median (``band="quantile"``) or mean (``band="t"``).
    low, high : ndarray of shape (n_grid,)
        The pointwise band.
    band : {"quantile", "t"}
        ``"quantile"``: the pointwise ``quantiles`` (e.g. 10 % and 90 %) of
        the repeats' curves (numpy's linear quantile): about a share
        ``high - low`` of the curves lies inside at each point. It describes
        the curves at hand; it is not a prediction interval: with 10 curves
        and ``quantiles=(0.1, 0.9)`` the curve of a new repeat falls inside
        about 68 % of the time (order statistics predict ``(8.1 - 0.9) / 11 =
        0.65``). ``"t"``: the pointwise quantiles of the normal prediction
        distribution of a new repeat's curve, ``mean + t_{n-1}(p) * sd *
        sqrt(1 + 1/n)`` at ``p`` in ``quantiles``, clipped to [0, 1];
        measured pointwise coverage of a new repeat's ROC curve at
        ``quantiles=(0.1, 0.9)``, 10 repeats of 100 binormal test rows, 150
        simulations: 0.81 on average over FPR 0.1-0.9 (0.73-0.87).
    quantiles : tuple of float
        The pair of quantile levels the band is drawn at (over repeats, not
        a confidence level).
    area : ndarray of shape (n_repeats,)
        Per repeat, from the repeat's raw (not interpolated) predictions:
        ``roc_auc_score`` for ROC, ``average_precision_score`` for PR.
    n : int
        Number of repeats.
    target : str, default="this dataset"
        The band describes the curves of the repeats on this dataset.

    Arrays are read-only; ``==`` compares every field (a copy is equal);
    ``to_dict()`` gives plain values, ``to_frame()`` one row per grid point.
    """

    kind: str
    grid: np.ndarray
    curves: np.ndarray
    center: np.ndarray
    low: np.ndarray
    high: np.ndarray
    band: str
    quantiles: tuple
    area: np.ndarray
    n: int
    target: str = "this dataset"

    def __post_init__(self):
        for name in ("grid", "curves", "center", "low", "high", "area"):
            arr = np.array(getattr(self, name), dtype=float)
            arr.flags.writeable = False
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "quantiles", _check_quantiles(self.quantiles))
        object.__setattr__(self, "n", int(self.n))

    def __repr__(self):
        what = "ROC AUC" if self.kind == "roc" else "average precision"
        lo, hi = self.quantiles
        return (
            f"CurveBand(kind={self.kind!r}, n={self.n}, band={self.band!r}, "
            f"quantiles=({lo:g}, {hi:g}), {what} median="
            f"{np.median(self.area):.4g}, target={self.target!r})"
        )

    def to_frame(self):
        """Return one row per grid point: ``x``, ``center``, ``low``, ``high``.

        Returns
        -------
        pandas.DataFrame
            Columns ``x`` (the grid), ``center``, ``low``, ``high``.
        """
        import pandas as pd

        return pd.DataFrame(
            {"x": self.grid, "center": self.center, "low": self.low, "high": self.high}
        )

    def plot(self, ax=None, *, show_curves=True, label=None):
        """Draw the per-repeat curves, the center and the band.

        Parameters
        ----------
        ax : matplotlib Axes or None, default=None
            Axes to draw on (new figure when None).
        show_curves : bool, default=True
            Also draw every repeat's curve (thin lines).
        label : str or None, default=None
            Legend label of the center line.

        Returns
        -------
        ax : matplotlib Axes
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(5, 4.5))
        if show_curves:
            for c in self.curves:
                ax.plot(self.grid, c, color="0.6", lw=0.5, alpha=0.5)
        what = "quantiles" if self.band == "quantile" else "t prediction interval"
        (line,) = ax.plot(
            self.grid,
            self.center,
            lw=2,
            label=label or ("median" if self.band == "quantile" else "mean"),
        )
        ax.fill_between(
            self.grid,
            self.low,
            self.high,
            color=line.get_color(),
            alpha=0.25,
            label=(
                f"pointwise {self.quantiles[0]:.0%}-{self.quantiles[1]:.0%} "
                f"band ({what})"
            ),
        )
        what = "ROC" if self.kind == "roc" else "Precision-recall"
        area = "AUC" if self.kind == "roc" else "AP"
        ax.set_title(
            f"{what} over {self.n} repeats ({area} median {np.median(self.area):.3f})"
        )
        _frame_axes(ax, self.kind)
        return ax


def _frame_axes(ax, kind, **legend):
    """Axis labels, limits, legend (and the ROC diagonal) of a curve plot."""
    if kind == "roc":
        ax.plot([0, 1], [0, 1], ls=":", color="0.5")
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
    else:
        ax.set_xlabel("recall")
        ax.set_ylabel("precision (interpolated)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(loc="lower right" if kind == "roc" else "lower left", **legend)


def _interp_roc(y_true, y_score, grid, pos_label):
    fpr, tpr, _ = roc_curve(y_true, y_score, pos_label=pos_label)
    # linear between the ROC points; at an FPR where the curve rises
    # vertically, the top of the rise (the best TPR reachable at that FPR)
    step = tpr[np.searchsorted(fpr, grid, side="right") - 1]
    return np.maximum(np.interp(grid, fpr, tpr), step)


def _interp_pr(y_true, y_score, grid, pos_label):
    precision, recall, _ = precision_recall_curve(y_true, y_score, pos_label=pos_label)
    # interpolated precision: the best precision at recall >= r
    order = np.argsort(recall, kind="stable")
    recall, precision = recall[order], precision[order]
    best = np.maximum.accumulate(precision[::-1])[::-1]
    idx = np.searchsorted(recall, grid, side="left")
    return best[np.minimum(idx, len(best) - 1)]


def curve_band(
    y_true,
    y_scores,
    *,
    kind="roc",
    grid=101,
    band="quantile",
    quantiles=(0.1, 0.9),
    pos_label=None,
):
    """Curves of several prediction sets on a common grid, with a pointwise band.

    Parameters
    ----------
    y_true : list of array-like
        True binary labels, one array per repeat.
    y_scores : list of array-like
        Scores of the positive class, one array per repeat.
    kind : {"roc", "pr"}, default="roc"
        ROC or precision-recall curves.
    grid : int or array-like, default=101
        Number of equally spaced grid points in [0, 1], or the grid itself.
    band : {"quantile", "t"}, default="quantile"
        Pointwise quantiles, or a pointwise t prediction interval (see
        :class:`CurveBand`).
    quantiles : pair of float, default=(0.1, 0.9)
        The pointwise quantile levels of the band: of the repeats' curves
        (``band="quantile"``) or of a new repeat's predictive distribution
        (``band="t"``). Not a confidence level.
    pos_label : int, str or None, default=None
        The positive class; ``None``: the greater of the two labels (the
        second of ``classes_``, as scikit-learn's classifiers order them).

    Returns
    -------
    CurveBand

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.report import curve_band
    >>> rng = np.random.default_rng(0)
    >>> ys = [rng.integers(0, 2, 200) for _ in range(10)]
    >>> ss = [y + rng.normal(0, 1, 200) for y in ys]
    >>> cb = curve_band(ys, ss, kind="roc")
    >>> cb.curves.shape, bool((cb.low <= cb.high).all())
    ((10, 101), True)
    """
    if kind not in ("roc", "pr"):
        raise ValueError(f"`kind` must be 'roc' or 'pr'; got {kind!r}.")
    if band not in _BANDS:
        raise ValueError(f"`band` must be one of {_BANDS}; got {band!r}.")
    q_low, q_high = _check_quantiles(quantiles)
    if len(y_true) != len(y_scores) or len(y_true) < 2:
        raise ValueError(
            "`y_true` and `y_scores` must hold the same number (at least 2) of "
            f"prediction sets; got {len(y_true)} and {len(y_scores)}."
        )
    if np.ndim(grid) == 0:
        if int(grid) < 2:
            raise ValueError(f"`grid` must be at least 2 points; got {grid!r}.")
        grid = np.linspace(0.0, 1.0, int(grid))
    grid = np.asarray(grid, dtype=float)
    if pos_label is None:
        labels = np.unique(np.concatenate([np.ravel(yt) for yt in y_true]))
        if len(labels) != 2:
            raise ValueError(
                "`pos_label=None` needs exactly two labels in `y_true` (the "
                f"greater is the positive class); got {labels.tolist()}."
            )
        pos_label = labels[1].item()
    interp = _interp_roc if kind == "roc" else _interp_pr
    curves = np.array(
        [interp(yt, s, grid, pos_label) for yt, s in zip(y_true, y_scores, strict=True)]
    )
    if kind == "roc":
        area = np.array(
            [
                roc_auc_score(np.asarray(yt) == pos_label, s)
                for yt, s in zip(y_true, y_scores, strict=True)
            ]
        )
    else:
        area = np.array(
            [
                average_precision_score(yt, s, pos_label=pos_label)
                for yt, s in zip(y_true, y_scores, strict=True)
            ]
        )
    n = len(curves)
    if band == "quantile":
        center = np.quantile(curves, 0.5, axis=0)
        low = np.quantile(curves, q_low, axis=0)
        high = np.quantile(curves, q_high, axis=0)
    else:
        center = curves.mean(axis=0)
        scale = curves.std(axis=0, ddof=1) * np.sqrt(1 + 1 / n)
        low = np.clip(center + stats.t.ppf(q_low, n - 1) * scale, 0, 1)
        high = np.clip(center + stats.t.ppf(q_high, n - 1) * scale, 0, 1)
    return CurveBand(
        kind, grid, curves, center, low, high, band, (q_low, q_high), area, n
    )


def _repeat_scores(ev, pos_label):
    from ..model_selection._predictions import _check_kept

    _check_kept(ev)
    preds = ev.predictions_
    y = ev._pred_meta["y"]
    if ev.results_["error"].notna().any():
        raise ValueError(
            "Curves need every fit to succeed; some failed (see results_['error'])."
        )
    y_true, y_scores = [], []
    classes = ev._pred_meta["meta"][0][0]
    if classes is None or len(classes) != 2:
        raise ValueError(
            "ROC and precision-recall curves need a binary classifier; got classes "
            f"{None if classes is None else list(classes)}."
        )
    pos = classes[1] if pos_label is None else pos_label
    col = int(np.flatnonzero(classes == pos)[0]) if pos in classes else None
    if col is None:
        raise ValueError(
            f"`pos_label` {pos!r} is not one of the classes {list(classes)}."
        )
    for r in np.unique(preds["repeat"]):
        sel = np.flatnonzero(preds["repeat"].to_numpy() == r)
        idx, sc = [], []
        for i in sel:
            s = preds["y_score"].iloc[i]
            if s is None:
                raise ValueError(
                    "No y_score kept: the estimator has neither "
                    "predict_proba nor decision_function."
                )
            s = np.asarray(s)
            if s.ndim == 2:
                s = s[:, col]
            elif col == 0:
                s = -s  # decision_function scores the second class
            idx.append(preds["test_index"].iloc[i])
            sc.append(s)
        idx = np.concatenate(idx)
        y_true.append(y[idx])
        y_scores.append(np.concatenate(sc))
    return y_true, y_scores, pos


def roc_curves(
    evaluator, *, grid=101, band="quantile", quantiles=(0.1, 0.9), pos_label=None
):
    """ROC curves of a fitted evaluator, one per repeat, with a pointwise band.

    Parameters
    ----------
    evaluator : RepeatedEvaluator
        Fitted with ``return_predictions=True`` on a binary target.
    grid : int or array-like, default=101
        False-positive-rate grid (number of points in [0, 1], or the grid).
        Each repeat's ROC curve is linearly interpolated on it.
    band : {"quantile", "t"}, default="quantile"
        See :class:`CurveBand`.
    quantiles : pair of float, default=(0.1, 0.9)
        The band's pointwise quantile levels over repeats (see
        :class:`CurveBand`).
    pos_label : label or None, default=None
        Positive class (default: the second of ``classes_``).

    Returns
    -------
    CurveBand
        ``area`` holds ``roc_auc_score`` of each repeat's pooled predictions.
    """
    y_true, y_scores, pos = _repeat_scores(evaluator, pos_label)
    return curve_band(
        y_true,
        y_scores,
        kind="roc",
        grid=grid,
        band=band,
        quantiles=quantiles,
        pos_label=pos,
    )


def pr_curves(
    evaluator, *, grid=101, band="quantile", quantiles=(0.1, 0.9), pos_label=None
):
    """Precision-recall curves, one per repeat, with a pointwise band.

    Precision is interpolated as the best precision at recall >= r (the
    usual interpolated precision), on a recall grid.

    Parameters
    ----------
    evaluator : RepeatedEvaluator
        Fitted with ``return_predictions=True`` on a binary target.
    grid : int or array-like, default=101
        Recall grid.
    band : {"quantile", "t"}, default="quantile"
        See :class:`CurveBand`.
    quantiles : pair of float, default=(0.1, 0.9)
        The band's pointwise quantile levels over repeats (see
        :class:`CurveBand`).
    pos_label : label or None, default=None
        Positive class (default: the second of ``classes_``).

    Returns
    -------
    CurveBand
        ``area`` holds ``average_precision_score`` of each repeat.
    """
    y_true, y_scores, pos = _repeat_scores(evaluator, pos_label)
    return curve_band(
        y_true,
        y_scores,
        kind="pr",
        grid=grid,
        band=band,
        quantiles=quantiles,
        pos_label=pos,
    )


def _no_curves_reason(ev):
    """Why a fitted evaluator's kept predictions give no curves, or None."""
    meta = [m for m in ev._pred_meta["meta"] if m[1] is not None]
    if not meta:
        return None  # every fit failed: roc_curves says so
    classes, kind, _ = meta[0]
    if kind != "classifier" or classes is None:
        return (
            "they need a binary classifier with scores; the model is not a "
            "classifier (e.g. a regression target)"
        )
    if len(classes) != 2:
        return f"they need a binary target; the target has {len(classes)} classes"
    if all(s is None for s in ev.predictions_["y_score"]):
        return (
            "they need scores; the model has neither predict_proba nor "
            "decision_function"
        )
    repeats = ev.predictions_["repeat"].nunique()
    if repeats < 2:  # e.g. a model a sequential race stopped after one round
        return (
            "a band needs predictions from at least 2 repeats; the model has "
            f"{repeats} (fix n_repeats >= 2 for curves of every model)"
        )
    return None


def _model_curves(evaluators):
    """ROC and PR bands of every evaluator that allows them, and why not.

    Each evaluator's per-repeat predictions are pooled once for both kinds
    (the defaults of :func:`roc_curves` and :func:`pr_curves`).

    Parameters
    ----------
    evaluators : dict of str to RepeatedEvaluator
        Fitted with ``return_predictions=True``.

    Returns
    -------
    curves : dict
        ``{"roc": {name: CurveBand}, "pr": {name: CurveBand}}`` (only the
        models with curves).
    missing : list of (str, str)
        ``(name, reason)`` for every model without curves.
    """
    curves = {"roc": {}, "pr": {}}
    missing = []
    for name, ev in evaluators.items():
        reason = _no_curves_reason(ev)
        if reason is None:
            try:
                y_true, y_scores, pos = _repeat_scores(ev, None)
                roc, pr = (
                    curve_band(y_true, y_scores, kind=kind, pos_label=pos)
                    for kind in ("roc", "pr")
                )
            except ValueError as exc:
                reason = str(exc)
            else:
                curves["roc"][name] = roc
                curves["pr"][name] = pr
                continue
        missing.append((name, reason))
    return curves, missing
