"""Seeds x test rows: predictions of ``(n_seeds, n_rows)`` in metric_ci / compare_predictions.

One fixed split, a model trained with several seeds, each seed's
predictions on the same test rows (issue 28, item 4). The statistics are in
:mod:`skperf.stats._crossed`; here the predictions become per-row values
(metrics that are a mean of per-row values: accuracy, error rate, MAE, MSE,
MAPE, log loss, Brier score) or per-seed metrics with a row bootstrap shared
by every seed (any other metric: ROC AUC, F1, R^2, RMSE, callables).
"""

from __future__ import annotations

import numpy as np

from ..stats._crossed import (
    SEEDS_ONLY_TARGET,
    TARGET,
    _crossed_diff_ci,
    _crossed_interval,
)
from ..stats._results import Interval
from ..stats._validation import _check_n_boot, _resolve_n_boot
from ._registry import _prepare, _reads_scores, _undefined_error
from ._results import CrossedPairedTestResult

__all__: list[str] = []

_CROSSED_METHODS = ("auto", "variance-components")

#: measured coverage at 95 % (tests/stats/test_crossed.py,
#: tests/metrics/test_seeds_rows.py, benchmarks/crossed_coverage.py)
_MEASURED = (
    "measured coverage at 95 % with 5-30 seeds: 0.93-0.97 for normal and 0/1 "
    "losses (accuracy 0.8) on 50-1000 rows; 0.92-0.93 at accuracy 0.96 on 50 "
    "rows; 0.89-0.905 for lognormal (skewed) losses on 50 rows, 0.92-0.945 "
    "from 200 (benchmarks/crossed_coverage.py); ROC AUC 0.94 with 5 seeds on 100 "
    "rows and 10 on 200 (tests/metrics/test_seeds_rows.py)"
)


def _as_array(pred, name):
    try:
        return np.asarray(pred)
    except ValueError:
        raise ValueError(
            f"`{name}` is ragged: predictions of several seeds must form an array "
            "of shape (n_seeds, n_rows), the same test rows for every seed."
        ) from None


def _reads_matrix(spec):
    """Whether ``spec`` takes an ``(n_rows, n_classes)`` array per row."""
    return _reads_scores(spec) or spec.target == "any"


def _seeds_layout(spec, pred, n, name):
    """``pred`` as ``(n_seeds, n_rows[, k])`` when it is one, else None.

    The shape decides, against ``n = len(y_true)``: a 2-D ``(a, b)`` array
    is seeds x rows when ``b == n`` and ``a != n``; per-row columns
    (``(n_rows, n_classes)`` probabilities) when ``a == n``; ``(n, n)`` is
    ambiguous for metrics that read probability columns and raises. A 3-D
    ``(n_seeds, n_rows, n_classes)`` array is seeds x rows.
    """
    if pred is None:
        return None
    arr = _as_array(pred, name)
    if arr.ndim <= 1:
        return None
    if arr.ndim == 2:
        a, b = arr.shape
        if a == n and b == n:
            if _reads_matrix(spec):
                raise ValueError(
                    f"`{name}` has shape {arr.shape} and `y_true` has {n} rows: it could "
                    f"be ({n} rows, {n} class columns) or ({n} seeds, {n} rows). Pass "
                    "seeds x rows as a 3-D array (n_seeds, n_rows, n_classes), or the "
                    "positive class's column per seed, with n_seeds != n_rows."
                )
        elif a == n:
            return None
        elif b != n:
            raise ValueError(
                f"`{name}` has shape {arr.shape} but `y_true` has {n} rows: pass "
                f"({n},) or ({n}, n_classes) for one model, or (n_seeds, {n}) for one "
                "model per training seed on the same test rows."
            )
    elif arr.ndim == 3:
        if arr.shape[1] != n:
            raise ValueError(
                f"`{name}` has shape {arr.shape}: a 3-D array must be (n_seeds, "
                f"n_rows, n_classes) with n_rows = len(y_true) = {n}."
            )
    else:
        raise ValueError(
            f"`{name}` has shape {arr.shape}; pass (n_rows,), (n_rows, n_classes), "
            "(n_seeds, n_rows) or (n_seeds, n_rows, n_classes)."
        )
    if arr.shape[0] < 2:
        raise ValueError(
            f"`{name}` holds n_seeds = {arr.shape[0]}; the seeds x rows interval "
            "needs at least 2 seeds to measure the seed-to-seed variation (pass "
            "the 1-D predictions of a single model for the test-set interval)."
        )
    return arr


def _check_crossed_options(method, groups, sample_weight, what="metric_ci"):
    if method not in _CROSSED_METHODS:
        raise ValueError(
            f"`method={method!r}` is not available for seeds x rows predictions; "
            f"use one of {list(_CROSSED_METHODS)} ('auto' is 'variance-components')."
        )
    for value, name in ((groups, "groups"), (sample_weight, "sample_weight")):
        if value is not None:
            raise ValueError(
                f"`{name}` is not supported with seeds x rows predictions in "
                f"{what}; pass it with 1-D predictions of one model."
            )


def _row_values(p):
    """Per-row values whose mean over the rows is the metric, or None."""
    spec = p.spec
    if spec.kind != "sums" or p.weights is not None:
        return None
    if spec.name == "accuracy":
        return p.F[:, 0]
    if spec.name == "error_rate":
        return 1.0 - p.F[:, 0]
    if spec.mean_loss and spec.post is None:
        return spec.sign * p.F[:, 0]
    return None


def _prepare_seeds(spec, y_true, preds, pos_label, name):
    return [
        _prepare(spec, y_true, preds[s], pos_label, pred_name=name)
        for s in range(len(preds))
    ]


def _n_boot(confidence, n_boot):
    # the bootstrap estimates covariances, not tail quantiles: at least 999
    # resamples (relative s.e. of a variance about sqrt(2 / 999) = 4.5 %)
    if isinstance(n_boot, str) and n_boot == "auto":
        return max(999, _resolve_n_boot(confidence, "auto"))
    return _check_n_boot(n_boot)


def _theta_cov(preps, n, confidence, n_boot, strata, rng):
    """Per-seed metrics ``(S,)``, their row covariance ``(S, S)``, method, n_boot."""
    rows = [_row_values(p) for p in preps]
    if all(r is not None for r in rows):
        x = np.vstack(rows)
        return x.mean(axis=1), np.cov(x) / n, "variance-components", None
    from ._resample import _replicates

    theta = np.array([p.estimate() for p in preps])
    if not np.all(np.isfinite(theta)):
        raise _undefined_error(preps[0].spec)
    b = _n_boot(confidence, n_boot)
    boot = _replicates(preps, b, rng, strata=strata)
    boot = boot[np.all(np.isfinite(boot), axis=1)]
    if boot.shape[0] < 10:
        raise ValueError(
            f"`metric={preps[0].spec.name!r}` is undefined on almost every resample "
            "of the test rows; no seeds x rows interval can be computed."
        )
    # the bootstrap covariance of a mean is (n - 1) / n times the unbiased one
    cov = np.cov(boot.T) * n / (n - 1)
    return theta, cov, "variance-components-bootstrap", b


def _note(design, res_low, res_high, seeds_low, seeds_high, df, method, n_boot):
    width, width_s = res_high - res_low, seeds_high - seeds_low
    if width_s <= 0:
        ratio = "of zero width"
    elif width / width_s < 1.05:
        ratio = "about as wide (the test-row part is small here)"
    else:
        ratio = f"{width / width_s:.1f} times narrower"
    how = (
        "variance of the per-row values split by a two-way ANOVA"
        if method == "variance-components"
        else f"per-seed metrics with their covariance over {n_boot} bootstrap "
        "resamples of the test rows shared by all seeds"
    )
    return (
        f"seeds x test rows ({design}): covers {TARGET}; t interval "
        f"with Satterthwaite df {df:.1f} ({how}); the seeds-only interval "
        f"[{seeds_low:.4g}, {seeds_high:.4g}] is {ratio}: it leaves out the "
        f"test-row sampling variation; {_MEASURED}"
    )


def _crossed_metric_ci(
    spec, y_true, preds, name, confidence, n_boot, strata, rng, pos_label
):
    """:class:`~skperf.stats._crossed.CrossedInterval` of one metric."""
    n = len(y_true)
    preps = _prepare_seeds(spec, y_true, preds, pos_label, name)
    theta, cov, method, b = _theta_cov(preps, n, confidence, n_boot, strata, rng)
    ci = _crossed_interval(theta, cov, n, confidence, method)
    lo, hi = np.clip([ci.low, ci.high], *spec.range)
    so = ci.seeds_only
    slo, shi = np.clip([so.low, so.high], *spec.range)
    seeds_only = Interval(
        so.estimate,
        slo,
        shi,
        confidence,
        so.method,
        so.n,
        note=so.note,
        target=so.target,
    )
    note = _note(f"{len(preds)} seeds, {n} rows", lo, hi, slo, shi, ci.df, method, b)
    return type(ci)(
        ci.estimate,
        float(lo),
        float(hi),
        confidence,
        method,
        n,
        n_boot=b,
        note=note,
        target=ci.target,
        n_seeds=ci.n_seeds,
        df=ci.df,
        se=ci.se,
        seeds_only=seeds_only,
        components=ci.components,
    )


def _crossed_compare(
    spec,
    y_true,
    preds_a,
    preds_b,
    confidence,
    n_boot,
    strata,
    rng,
    pos_label,
    paired_seeds,
):
    """:class:`CrossedPairedTestResult` of ``metric(a) - metric(b)``."""
    n = len(y_true)
    sa, sb = len(preds_a), len(preds_b)
    if paired_seeds and sa != sb:
        raise ValueError(
            f"`paired_seeds=True` needs the same seeds for both models; got "
            f"{sa} seeds in `y_pred_a` and {sb} in `y_pred_b`."
        )
    pa = _prepare_seeds(spec, y_true, preds_a, pos_label, "y_pred_a")
    pb = _prepare_seeds(spec, y_true, preds_b, pos_label, "y_pred_b")
    theta, cov, method, b = _theta_cov(pa + pb, n, confidence, n_boot, strata, rng)
    ta, tb = theta[:sa], theta[sa:]
    c_aa, c_bb, c_ab = cov[:sa, :sa], cov[sa:, sa:], cov[:sa, sa:]
    r = _crossed_diff_ci(
        ta, tb, c_aa, c_bb, c_ab, n, confidence=confidence, paired_seeds=paired_seeds
    )
    slo, shi, _sdf = r["seeds_only"]
    seeds_only = Interval(
        r["estimate"],
        slo,
        shi,
        confidence,
        "t over seeds",
        sa if paired_seeds else sa + sb,
        note="the test rows held fixed: leaves out the test-row sampling variation",
        target=SEEDS_ONLY_TARGET,
    )
    pairing = "seeds paired" if paired_seeds else "seeds independent"
    design = f"{sa} and {sb} seeds, {pairing}; the same {n} rows, paired"
    note = _note(design, r["low"], r["high"], slo, shi, r["df"], method, b)
    return CrossedPairedTestResult(
        r["estimate"],
        r["low"],
        r["high"],
        r["pvalue"],
        method,
        n,
        confidence,
        r["statistic"],
        metric=spec.name,
        estimate_a=float(ta.mean()),
        estimate_b=float(tb.mean()),
        test=f"t test, Satterthwaite df {r['df']:.1f}",
        n_boot=b,
        note=note,
        target=TARGET,
        n_seeds=(sa, sb),
        paired_seeds=bool(paired_seeds),
        df=r["df"],
        se=r["se"],
        seeds_only=seeds_only,
        components=r["components"],
    )
