"""Fold scores you bring: the new-data answers of a repeated K-fold design.

A long table with one row per (model, repeat, fold) and the training and
test set sizes of the splits holds what :func:`skperf.generalization_ci`
and :func:`skperf.compare_generalization` compute their new-data answers
from: the score of every fold. :func:`skperf.from_frame` checks such a
design (``skperf._frame._fold_design``); this module gives

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
