"""Fold scores you bring: the new-data answers of a repeated K-fold design.

A long table with one row per (model, repeat, fold) and the training and
test set sizes of the splits holds what :func:`skperf.generalization_ci`
and :func:`skperf.compare_generalization` compute their new-data answers
from: the score of every fold. This module checks such a design
(:func:`_fold_design`), and gives

- :func:`fold_ci`: one model's interval for the expected score on new data,
  the corrected resampled t read as :func:`skperf.generalization_ci`'s
  ``method="auto"`` reads repeated K-fold (``K - 1`` degrees of freedom,
  Bouckaert 2003) or, with ``method="corrected-t"``, with ``J - 1`` (Nadeau
  & Bengio 2003);
- :func:`fold_compare`: two models' corrected resampled paired t on their
  per-split differences, as :func:`skperf.compare_generalization`'s
  default (``J - 1`` degrees of freedom), with its decision.

Both call :func:`skperf.stats._generalization.corrected_t_ci`; nothing here
fits a model.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import _distribution
from .._distribution import FoldDesign, _known_range
from ..stats import _generalization as _gstats
from ..stats._validation import _check_confidence

__all__ = ["FoldDesign", "design_of", "fold_ci", "fold_compare"]

TARGET_NEW_DATA = "new data"
TARGET_THIS_DATASET = "this dataset"


# ---------------------------------------------------------------------------
# validation of a design from a frame
def _check_size(value, name, frame):
    """``n_train``/``n_test``: a positive int, or a column of positive sizes.

    Returns the per-row sizes as a float array.
    """
    if isinstance(value, str):
        if value not in frame.columns:
            raise ValueError(
                f"`{name}` must be a positive int (the {name[2:]} set size of "
                f"every split) or the name of a column of sizes; {value!r} is not "
                "a column."
            )
        import pandas as pd

        col = pd.to_numeric(frame[value], errors="coerce").to_numpy(dtype=float)
        bad = ~(np.isfinite(col) & (col > 0) & (col == np.round(col)))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"`{name}` column {value!r} must hold positive integer set sizes; "
                f"got {frame[value].iloc[i]!r} in row {_show(frame.index[i])}."
            )
        return col
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or int(value) < 1
    ):
        raise ValueError(
            f"`{name}` must be a positive int (the number of {name[2:]} rows of "
            f"each split, e.g. {'135' if name == 'n_train' else '15'} for 10-fold "
            f"CV on 150 rows) or a column name; got {value!r}."
        )
    return np.full(len(frame), float(value))


def _show(value):
    return repr(value.item() if hasattr(value, "item") else value)


def _fold_numbers(col, fold):
    """The fold column as integers; refused when a value is not a whole number."""
    import pandas as pd

    if col.isna().any():
        i = int(np.flatnonzero(col.isna().to_numpy())[0])
        raise ValueError(
            f"`fold` column {fold!r} has {int(col.isna().sum())} missing value(s), "
            f"first in row {_show(col.index[i])}."
        )
    values = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values) | (values != np.round(values))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"`fold` column {fold!r} must hold fold numbers (integers 0..K-1 or "
            f"1..K); got {col.iloc[i]!r} in row {_show(col.index[i])}."
        )
    return values.astype(np.int64)


def _fold_design(frame, models, *, fold, repeat, n_train, n_test):
    """Check a repeated K-fold design; return ``(split, repeat, design)``.

    ``split[i]`` is the split id ``r K + k`` of row ``i`` (``r`` the repeat in
    sorted order, ``k`` the fold from 0), ``repeat[i]`` its repeat code.
    Every model must hold every fold of every repeat exactly once, and the
    same repeats as the other models.
    """
    import pandas as pd

    folds = _fold_numbers(frame[fold], fold)
    if repeat is None:
        rep_codes = np.zeros(len(frame), dtype=np.int64)
        rep_values = np.array([0])
    else:
        rcol = frame[repeat]
        if rcol.isna().any():
            raise ValueError(
                f"`repeat` column {repeat!r} has {int(rcol.isna().sum())} missing "
                "value(s)."
            )
        rep_codes, rep_values = pd.factorize(rcol, sort=True)
        rep_codes = rep_codes.astype(np.int64)
    base = int(folds.min())
    if base not in (0, 1):
        raise ValueError(
            f"`fold` column {fold!r}: fold numbers must start at 0 (or 1); the "
            f"smallest is {base}."
        )
    keys = pd.DataFrame({"m": models, "r": rep_codes, "f": folds})
    dup = keys.duplicated()
    if dup.any():
        i = int(np.flatnonzero(dup.to_numpy())[0])
        where = (
            "" if repeat is None else f"{repeat}={_show(rep_values[rep_codes[i]])}, "
        )
        raise ValueError(
            f"model {models[i]!r} has {where}{fold}={folds[i]} more than once (row "
            f"{_show(frame.index[i])}): each model needs one score per fold of each "
            "repeat"
            + (
                ""
                if repeat is not None
                else " (pass `repeat` if the rows come from several repeats)"
            )
            + "."
        )
    counts = keys.groupby(["m", "r"], sort=False)["f"].agg(["size", "min", "max"])
    K = int(counts["size"].max())
    top = base + K - 1
    if folds.max() > top:
        i = int(np.argmax(folds))
        raise ValueError(
            f"`fold` column {fold!r}: fold index {folds[i]} (row "
            f"{_show(frame.index[i])}) is out of range: with K = {K} folds per "
            f"repeat the folds are numbered {base}..{top}."
        )
    short = counts[counts["size"] < K]
    if len(short):
        (m, r), row = short.index[0], short.iloc[0]
        have = set(folds[(models == m) & (rep_codes == r)].tolist())
        missing = [k for k in range(base, top + 1) if k not in have]
        shown = ", ".join(map(str, missing[:5])) + (", ..." if len(missing) > 5 else "")
        where = "" if repeat is None else f", {repeat}={_show(rep_values[r])}"
        raise ValueError(
            f"`fold` column {fold!r}: model {m!r}{where} has {int(row['size'])} of "
            f"the K = {K} folds (missing {shown}): every repeat must hold the same "
            f"K folds, numbered {base}..{top} (repeats with different K, or rows "
            "dropped?)."
        )
    if K < 2:
        raise ValueError(
            f"`fold` column {fold!r} has 1 fold per repeat; a K-fold design needs "
            "K >= 2."
        )
    names = list(dict.fromkeys(models))
    ref = set(rep_codes[models == names[0]].tolist())
    for name in names[1:]:
        own = set(rep_codes[models == name].tolist())
        if own != ref:
            r, who = (
                (min(ref - own), f"{name!r} lacks")
                if ref - own
                else (min(own - ref), f"{names[0]!r} lacks")
            )
            raise ValueError(
                f"`repeat` column {repeat!r}: the models were not scored on the "
                f"same splits ({who} {repeat}={_show(rep_values[r])}); new-data "
                "comparisons pair the models split by split: give every model the "
                "same repeats, or drop `fold` for run-to-run answers."
            )
    tr = _check_size(n_train, "n_train", frame)
    te = _check_size(n_test, "n_test", frame)
    R = len(ref)
    # repeats numbered 0..R-1 among those present (all models share them)
    present = np.unique(rep_codes)
    rep_dense = np.searchsorted(present, rep_codes)
    split = rep_dense * K + (folds - base)
    design = FoldDesign(R, K, float(np.mean(tr)), float(np.mean(te)))
    return split, rep_dense, design


# ---------------------------------------------------------------------------
# the new-data answers
def _design_of(dist, name="self"):
    design = getattr(dist, "_fold_design", None)
    if design is None:
        raise ValueError(
            f"`{name}` carries no fold design; build it with skperf.from_frame(..., "
            "fold=..., repeat=..., n_train=..., n_test=...)."
        )
    return design


def fold_ci(dist, *, confidence=0.95, method="auto"):
    """One model's interval for the expected score on new data, from its folds.

    Parameters
    ----------
    dist : PerformanceDistribution
        Per-fold scores with a fold design (:func:`skperf.from_frame` with
        ``fold``, ``n_train`` and ``n_test``).
    confidence : float, default=0.95
        Confidence level in (0, 1).
    method : {"auto", "corrected-t"}, default="auto"
        The corrected resampled t (Nadeau & Bengio 2003) over the ``J = R K``
        fold scores, read with ``K - 1`` degrees of freedom (``"auto"``, as
        :func:`skperf.generalization_ci` and
        :meth:`RepeatedEvaluator.generalization_ci` read repeated K-fold:
        Bouckaert 2003's calibrated test) or ``J - 1``
        (``"corrected-t"``, Nadeau & Bengio's test as defined).

    Returns
    -------
    GeneralizationCI
        ``target="new data"``: the expected score of the algorithm trained on
        about ``n_train`` rows of the same population.

    Examples
    --------
    >>> import pandas as pd
    >>> from skperf import from_frame
    >>> from skperf.model_selection._folds import fold_ci
    >>> df = pd.DataFrame({"repeat": [0] * 5 + [1] * 5, "fold": list(range(5)) * 2,
    ...                    "accuracy": [.90, .85, .95, .80, .90, .85, .90, .85, .95, .90]})
    >>> d = from_frame(df, score="accuracy", repeat="repeat", fold="fold",
    ...                n_train=80, n_test=20)["accuracy"]
    >>> ci = fold_ci(d)
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}] {ci.target}")
    0.885 [0.807, 0.963] new data
    """
    from ._generalization import GeneralizationCI, _calibrated_text

    design = _design_of(dist, "dist")
    confidence = _check_confidence(confidence)
    if method not in ("auto", "corrected-t"):
        raise ValueError(
            f"`method` must be 'auto' or 'corrected-t' for fold scores; got {method!r}."
        )
    scores = np.asarray(dist.scores, dtype=float)
    J, K = scores.size, design.n_folds
    df = min(J - 1, K - 1) if method == "auto" else None
    ci = _gstats.corrected_t_ci(
        scores,
        n_train=design.n_train,
        n_test=design.n_test,
        confidence=confidence,
        df=df,
    )
    est, low, high = float(ci.estimate), float(ci.low), float(ci.high)
    if dist.metric is not None:
        lo, hi = _known_range(dist.metric) or (-np.inf, np.inf)
        low, high = max(low, lo), min(high, hi)
    note = (
        f"Nadeau & Bengio's corrected resampled t over the fold scores you "
        f"brought ({design.text()}): the interval is for the expected score on new "
        f"data of the algorithm trained on about {design.n_train:.0f} rows (not "
        f"corrected to the full data)."
    )
    if df is not None and df < J - 1:
        note += _calibrated_text(K, J)
    return GeneralizationCI(
        estimate=est,
        low=low,
        high=high,
        confidence=confidence,
        method="corrected-t",
        target=TARGET_NEW_DATA,
        n=design.n,
        n_fits=J,
        metric=dist.metric or "score",
        note=note,
    )


def _aligned(a, b, design_a, design_b):
    """The two score arrays split by split (``seeds['split_id']`` or position)."""
    x, y = np.asarray(a.scores, dtype=float), np.asarray(b.scores, dtype=float)
    sa = None if a.seeds is None else a.seeds.get("split_id")
    sb = None if b.seeds is None else b.seeds.get("split_id")
    if sa is not None and sb is not None:
        sa, sb = np.asarray(sa), np.asarray(sb)
        if sa.size != np.unique(sa).size or not np.array_equal(
            np.sort(sa), np.sort(sb)
        ):
            raise ValueError(
                "target='new data' pairs the two models split by split, but they "
                "were scored on different splits (seeds['split_id'] differ); use "
                "target='this dataset'."
            )
        return x[np.argsort(sa)], y[np.argsort(sb)]
    if x.size != y.size:
        raise ValueError(
            "target='new data' pairs the two models split by split (one score per "
            f"split, the same splits in the same order); got {x.size} and {y.size} "
            "scores. Use target='this dataset' for scores not paired by split."
        )
    return x, y


def fold_compare(a, b, *, confidence=0.95, test_train_ratio=None):
    """Two models' corrected resampled paired t on their per-split differences.

    The numbers of :func:`skperf.compare_generalization` (``method="auto"``:
    the corrected paired t with ``J - 1`` degrees of freedom) on the fold
    scores of the same splits; see :meth:`PerformanceDistribution.compare`.

    Parameters
    ----------
    a, b : PerformanceDistribution
        Per-split scores of the two models: with fold designs (from
        :func:`skperf.from_frame`) or, with ``test_train_ratio``, one score
        per split in the same order.
    confidence : float, default=0.95
        Confidence level; the test is at ``1 - confidence``.
    test_train_ratio : float or None, default=None
        ``n_test / n_train`` of the splits; ``None``: from the designs.

    Returns
    -------
    GeneralizationComparison
        ``estimate`` is the mean of ``a - b`` in the metric's units
        (positive: ``a`` better when greater is better, worse for a loss);
        ``decision`` is from ``a``'s side, in the metric's direction.
    """
    from ..stats._paired_tests import paired_decision
    from ..stats._validation import _check_test_train_ratio
    from ._compare_generalization import GeneralizationComparison, _Shim

    confidence = _check_confidence(confidence)
    da = getattr(a, "_fold_design", None)
    db = getattr(b, "_fold_design", None)
    ratio = _check_test_train_ratio(test_train_ratio)
    if ratio is None:
        if da is None or db is None:
            raise ValueError(
                "target='new data' needs the split design of the scores: build the "
                "distributions with skperf.from_frame(..., fold=..., n_train=..., "
                "n_test=...), or pass test_train_ratio (n_test / n_train of the "
                "splits; 1 / (K - 1) for K-fold)."
            )
        if not np.isclose(da.test_train_ratio, db.test_train_ratio, rtol=1e-9):
            raise ValueError(
                "the two fold designs differ (n_test / n_train "
                f"{da.test_train_ratio:.4g} vs {db.test_train_ratio:.4g}); "
                "new-data comparisons need the same splits."
            )
        n_train, n_test = da.n_train, da.n_test
    else:
        n_train, n_test = 1.0, ratio
    x, y = _aligned(a, b, da, db)
    d = x - y
    ci = _gstats.corrected_t_ci(
        d, n_train=n_train, n_test=n_test, confidence=confidence
    )
    pvalue = float(ci.pvalue())
    sign = 1.0 if a.greater_is_better else -1.0
    est, low, high = float(ci.estimate), float(ci.low), float(ci.high)
    lo, hi = sorted((sign * low, sign * high))
    decision = paired_decision(
        _Shim(sign * est, lo, hi, pvalue, confidence, "corrected-t")
    )
    se = float(ci.se)
    statistic = est / se if se > 0 else (0.0 if est == 0 else np.sign(est) * np.inf)
    J = d.size
    names = (a.name or "self", b.name or "other")
    metric = a.metric or b.metric or "score"
    direction = (
        "positive: A better"
        if a.greater_is_better
        else "lower is better: negative means A better"
    )
    design = da.text() if da is not None else f"{J} splits"
    note = (
        f"Corrected resampled paired t (Nadeau & Bengio 2003) over the per-split "
        f"differences of the fold scores you brought ({design}, n_test / n_train = "
        f"{n_test / n_train:.4g}), df = {J - 1}. Target: the difference of the "
        "expected scores on new data of the two algorithms trained on "
        + (
            f"about {n_train:.0f} rows"
            if da is not None
            else "the training size of the splits"
        )
        + f" ({names[0]} minus {names[1]} in {metric}; {direction})."
    )
    return GeneralizationComparison(
        estimate=est,
        low=low,
        high=high,
        pvalue=pvalue,
        decision=decision,
        method="corrected-t",
        confidence=confidence,
        rope=None,
        n=da.n if da is not None else 0,
        n_fits=J,
        statistic=statistic,
        metric=metric,
        note=note,
    )


def design_of(dist):
    """The :class:`FoldDesign` of a distribution, or ``None`` (no fold design)."""
    return getattr(dist, "_fold_design", None)


_distribution._NEW_DATA_COMPARE[:] = [fold_compare]
