"""Test-set intervals: metric_ci, score_ci, compare_predictions.

Every interval here describes the uncertainty that comes from evaluating a
*fixed* model on a finite test set ("Confidence Intervals for Model
Performance", Sec. 1; Rosen; Raschka ch. 25, method 3). It says nothing
about how the score would change if the model were retrained.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..exceptions import (
    SmallSampleWarning,
    UndefinedResamplesWarning,
    _external_stacklevel,
)
from ..stats._auc import delong_paired, roc_auc_ci
from ..stats._bootstrap import (
    _basic_bounds,
    _bca_bounds,
    _percentile_bounds,
)
from ..stats._proportion import (
    _mover_mean_of_proportions,
    mcnemar,
    paired_proportion_difference_ci,
    proportion_ci,
)
from ..stats._results import Interval
from ..stats._validation import (
    _check_confidence,
    _check_method,
    _check_rng,
    _resolve_n_boot,
)
from ._registry import (
    _NEEDS_BOTH_CLASSES,
    _check_lengths,
    _mean_stat,
    _MetricSpec,
    _prepare,
    _Prepared,
    _reads_scores,
    _resolve,
    _undefined_error,
)
from ._resample import _jackknife, _replicates
from ._results import PairedTestResult
from ._seeds import (
    _check_crossed_options,
    _crossed_compare,
    _crossed_metric_ci,
    _seeds_layout,
)

__all__ = ["PairedTestResult", "compare_predictions", "metric_ci", "score_ci"]

_PROPORTION_METHODS = ("wald", "wilson", "clopper-pearson")
_AUC_METHODS = ("delong", "delong-logit", "hanley-mcneil")
_BOOT_METHODS = ("percentile", "basic", "bca", "studentized")
_METHODS = ("auto", *_PROPORTION_METHODS, *_AUC_METHODS, *_BOOT_METHODS, "mover")
#: metrics that are an extreme of the per-row values: a bootstrap over test
#: rows never exceeds the test set's extreme, so its interval cannot hold the
#: population value (issue 17, item 9)
_EXTREME_METRICS = {"max_error", "neg_max_error"}

#: Measured coverage of the ``"auto"`` methods at 95 % where they fall short
#: of it (benchmarks/metric_coverage.py; docs/test_set_intervals.rst).
_SHORTFALL = {
    "studentized": (
        "measured coverage of the studentized bootstrap at 95 % for mean "
        "absolute errors: 0.92 for lognormal absolute errors at n = 30, 0.94 at "
        "n = 100 (not measured for other tails): rare huge losses the test set "
        "has not seen can dominate a mean loss"
    ),
    "delong-logit": (
        "measured coverage of the logit DeLong interval at 95 %: 0.93-0.97 "
        "for AUC 0.6-0.97 with >= 20 rows per class, 0.91 at AUC 0.99 with "
        "30 positives / 300 negatives"
    ),
}
_COMPARE_METHODS = (
    "auto",
    "mcnemar",
    "delong",
    "paired-bootstrap",
    "variance-components",
)

# Coverage at 95 % of the auto method measured for test sets LIKE THE ONE AT
# HAND (benchmarks/metric_coverage.py --part conditional; rows ", n in [...)"
# of docs/metric_coverage.csv): (family, n band, bin) -> coverage. MSE / RMSE
# (studentized) and R^2 (BCa): bins of the sample kurtosis of the errors
# y_true - y_pred (normal, t5 and t3 errors pooled); log loss and Brier score
# (studentized): bins of the estimate (calibrated models, Beta(a, a)
# probabilities with a = 0.25, 0.7, 2 pooled).
_KURTOSIS_BINS = (0.0, 4.0, 8.0, np.inf)
_REG_N_BANDS = (20, 50, 200, np.inf)
_PROBA_N_BANDS = (1, 25, 50, 200, np.inf)
_ESTIMATE_BINS = {
    "log_loss": (0.0, 0.25, 0.45, np.inf),
    "brier_score_loss": (0.0, 0.07, 0.15, np.inf),
}
_MEASURED = {
    ("mse", 0, 0): 0.851,
    ("mse", 0, 1): 0.992,
    ("mse", 0, 2): 1.000,
    ("mse", 1, 0): 0.849,
    ("mse", 1, 1): 0.915,
    ("mse", 1, 2): 0.991,
    ("mse", 2, 0): 0.911,
    ("mse", 2, 1): 0.833,
    ("mse", 2, 2): 0.985,
    ("r2", 0, 0): 0.859,
    ("r2", 0, 1): 0.917,
    ("r2", 0, 2): 0.971,
    ("r2", 1, 0): 0.896,
    ("r2", 1, 1): 0.906,
    ("r2", 1, 2): 0.938,
    ("r2", 2, 0): 0.938,
    ("r2", 2, 1): 0.868,
    ("r2", 2, 2): 0.940,
    ("log_loss", 0, 0): 0.872,
    ("log_loss", 0, 1): 0.949,
    ("log_loss", 0, 2): 0.966,
    ("log_loss", 1, 0): 0.927,
    ("log_loss", 1, 1): 0.953,
    ("log_loss", 1, 2): 0.955,
    ("log_loss", 2, 0): 0.910,
    ("log_loss", 2, 1): 0.955,
    ("log_loss", 2, 2): 0.952,
    ("log_loss", 3, 0): 0.897,
    ("log_loss", 3, 1): 0.957,
    ("log_loss", 3, 2): 0.939,
    ("brier_score_loss", 0, 0): 0.882,
    ("brier_score_loss", 0, 1): 0.950,
    ("brier_score_loss", 0, 2): 0.974,
    ("brier_score_loss", 1, 0): 0.890,
    ("brier_score_loss", 1, 1): 0.968,
    ("brier_score_loss", 1, 2): 0.953,
    ("brier_score_loss", 2, 0): 0.922,
    ("brier_score_loss", 2, 1): 0.964,
    ("brier_score_loss", 2, 2): 0.938,
    ("brier_score_loss", 3, 0): 0.729,
    ("brier_score_loss", 3, 1): 0.968,
    ("brier_score_loss", 3, 2): 0.934,
}
#: below this measured coverage the interval warns (SmallSampleWarning)
_WARN_BELOW = 0.93
_FAMILY = {
    "mean_squared_error": "mse",
    "neg_mean_squared_error": "mse",
    "root_mean_squared_error": "mse",
    "neg_root_mean_squared_error": "mse",
    "r2": "r2",
    "log_loss": "log_loss",
    "neg_log_loss": "log_loss",
    "brier_score_loss": "brier_score_loss",
    "neg_brier_score": "brier_score_loss",
}


def _band(value, edges):
    return int(np.searchsorted(edges, value, side="right") - 1)


def _measured_coverage(p, estimate):
    """``(coverage, description)`` measured for test sets like this one, or None."""
    family = _FAMILY.get(p.spec.name)
    if family is None:
        return None
    n = p.y_true.size
    if family in ("mse", "r2"):
        e = np.asarray(p.y_true, float) - np.asarray(p.y_pred, float)
        sd = e.std()
        kurt = float(np.mean((e - e.mean()) ** 4) / sd**4) if sd > 0 else 3.0
        nb, kb = _band(n, _REG_N_BANDS), _band(kurt, _KURTOSIS_BINS)
        if nb < 0:
            return (
                np.nan,
                (
                    f"n = {n}: coverage not measured below n = 20 (0.85-0.86 at "
                    "n = 30 for light-looking samples of heavy-tailed errors); "
                    "expect less than the level"
                ),
            )
        lo, hi = _KURTOSIS_BINS[kb], _KURTOSIS_BINS[kb + 1]
        what = (
            f"errors with sample kurtosis {kurt:.1f} (bin [{lo:g}, {hi:g}); "
            f"normal 3, heavier tails more), n in [{_REG_N_BANDS[nb]:g}, "
            f"{_REG_N_BANDS[nb + 1]:g})"
        )
        key = (family, nb, kb)
    else:
        value = abs(float(estimate))
        edges = _ESTIMATE_BINS[family]
        nb, eb = _band(n, _PROBA_N_BANDS), _band(value, edges)
        what = (
            f"calibrated models with {family} in [{edges[eb]:g}, {edges[eb + 1]:g}), "
            f"n in [{_PROBA_N_BANDS[nb]:g}, {_PROBA_N_BANDS[nb + 1]:g})"
        )
        key = (family, nb, eb)
    cov = _MEASURED.get(key)
    if cov is None:
        return None
    return cov, what


def _auto_method(spec):
    """The method ``"auto"`` picks for ``spec`` without groups."""
    return _choose_method(spec, "auto", None)


def _coverage_note(p, estimate=None, method="studentized"):
    """The measured coverage for the case at hand (issue 18, items 5-6)."""
    found = _measured_coverage(p, estimate if estimate is not None else np.nan)
    if found is None:
        if method == "studentized":
            return _SHORTFALL["studentized"]
        return ""
    cov, what = found
    if not np.isfinite(cov):
        return what
    return (
        f"measured coverage of this method at 95 %: {cov:.2f} for {what} "
        "(benchmarks/metric_coverage.py)"
    )


_NOTE = (
    "uncertainty from the finite test set (the model is held fixed); "
    "not the variation from retraining on other training data"
)


def _check_stratify(stratify):
    if isinstance(stratify, str) and stratify == "auto":
        return "auto"
    if isinstance(stratify, bool | np.bool_):
        return bool(stratify)
    raise ValueError(f"`stratify` must be True, False or 'auto'; got {stratify!r}.")


def _choose_method(spec, method, groups, weighted=False):
    """Resolve ``"auto"`` and check that ``method`` fits ``spec``."""
    method = _check_method(method, _METHODS)
    if weighted and method not in ("auto", "percentile", "basic", "bca"):
        raise ValueError(
            f"`method={method!r}` does not take `sample_weight`; with weights use a "
            "bootstrap method ('percentile', 'basic' or 'bca', the default), which "
            "recomputes the weighted metric on every resample of the rows."
        )
    if spec.name in _EXTREME_METRICS and (method in _BOOT_METHODS or method == "auto"):
        raise ValueError(
            f"`metric={spec.name!r}` is the largest error of the test set: a "
            "bootstrap over test rows never exceeds it, so no bootstrap interval "
            "can hold the population's maximum error; report the value without an "
            "interval, or take an interval of a quantile of the absolute errors."
        )
    if method == "mover" and spec.name != "balanced_accuracy":
        raise ValueError(
            f"`method='mover'` applies to metric='balanced_accuracy' only; got "
            f"`metric={spec.name!r}`."
        )
    if method == "auto":
        if groups is not None or weighted:
            return "bca"
        if spec.name == "balanced_accuracy":
            return "mover"
        if spec.proportion is not None:
            return "wilson"
        if spec.kind == "auc":
            return "delong-logit"
        if spec.mean_loss:
            return "studentized"
        return "bca"
    if method in _PROPORTION_METHODS and spec.proportion is None:
        raise ValueError(
            f"`method={method!r}` applies to proportion metrics (accuracy, "
            "error_rate, recall, specificity, precision, npv, and f1 / jaccard "
            f"through TP of TP + FP + FN); `metric={spec.name!r}` is not one. "
            "Use 'percentile', 'basic' or 'bca'."
        )
    if method == "studentized" and not spec.mean_loss:
        raise ValueError(
            "`method='studentized'` applies to means of per-row losses (mae, "
            "mse, rmse, mape, log_loss, brier_score_loss and their neg_ "
            f"forms); `metric={spec.name!r}` is not one. Use 'percentile', "
            "'basic' or 'bca'."
        )
    if method in _AUC_METHODS and spec.kind != "auc":
        raise ValueError(
            f"`method={method!r}` applies to metric='roc_auc' only; got "
            f"`metric={spec.name!r}`. Use 'percentile', 'basic' or 'bca'."
        )
    if groups is not None and method not in ("percentile", "basic", "bca"):
        raise ValueError(
            f"`method={method!r}` assumes independent rows; with `groups` use a "
            "bootstrap method ('percentile', 'basic' or 'bca'), which resamples "
            "whole groups."
        )
    return method


def _check_groups(groups, n):
    if groups is None:
        return None
    groups = np.asarray(groups)
    if groups.dtype.kind in "fc" and not np.all(np.isfinite(groups)):
        raise ValueError(
            "`groups` must be finite; found NaN or infinite group labels. Give "
            "every row the label of its group (e.g. a patient id)."
        )
    if groups.ndim != 1 or groups.shape[0] != n:
        raise ValueError(
            f"`groups` must be 1-D with one entry per row ({n}); got shape {groups.shape}."
        )
    if np.unique(groups).size < 2:
        raise ValueError("`groups` must contain at least 2 distinct groups.")
    return groups


def _strata(preps, stratify, groups, y_true):
    """Class labels to stratify on, or None."""
    needs = any(p.spec.name in _NEEDS_BOTH_CLASSES for p in preps)
    if stratify == "auto":
        stratify = needs and groups is None
    if not stratify:
        return None
    if groups is not None:
        raise ValueError(
            "`stratify=True` cannot be combined with `groups`: whole groups are "
            "resampled, so class counts cannot be kept."
        )
    if any(p.spec.target == "regression" for p in preps):
        raise ValueError(
            "`stratify=True` needs class labels; the metric is a regression metric."
        )
    return np.asarray(y_true)


def _n_boot_of(confidence, n_boot, methods):
    """``n_boot`` for ``methods``: more resamples for "auto" with a bootstrap-t."""
    if isinstance(n_boot, str) and n_boot == "auto" and "studentized" in methods:
        # the bootstrap-t reads quantiles of a heavy-tailed t*: 25 resamples
        # beyond each bound (999 at 95 %) instead of 10 (Efron & Tibshirani
        # 1993, ch. 12, recommend about 1000 for bootstrap-t intervals)
        return max(math.ceil(round(50 / (1 - confidence), 9)) - 1, 99)
    return _resolve_n_boot(confidence, n_boot)


def _balanced_accuracy_mover(prep, confidence):
    """Balanced accuracy: MOVER of the per-class continuity-corrected Wilson intervals."""
    y_true, y_pred = prep.y_true, prep.y_pred
    classes, n = np.unique(y_true, return_counts=True)
    if classes.size < 2:
        raise ValueError(
            "`metric='balanced_accuracy'` needs rows of at least 2 classes in "
            f"`y_true` (the mean of the per-class recalls); got only {classes.tolist()}."
        )
    k = np.array([np.sum(y_pred[y_true == c] == c) for c in classes], dtype=float)
    est, low, high = _mover_mean_of_proportions(k, n, confidence, "wilson-cc")
    recalls = ", ".join(
        f"{c!r}: {int(a)}/{int(b)}"
        for c, a, b in zip(classes.tolist(), k, n, strict=True)
    )
    note = (
        f"{_NOTE}; MOVER (Zou & Donner 2008) of each class's continuity-corrected "
        f"Wilson interval for its recall (recalls {recalls}); measured coverage at "
        "95 %: 0.97-1.00 with 5 % positives at n = 20, 50 and 200 "
        "(tests/metrics/test_issue17_18.py)"
    )
    return Interval(est, low, high, confidence, "mover", int(n.sum()), note=note)


def _analytic(prep, method, confidence):
    """Wilson/Wald/Clopper-Pearson, MOVER or DeLong/Hanley-McNeil interval."""
    spec = prep.spec
    if method == "mover":
        return _balanced_accuracy_mover(prep, confidence)
    if method in _AUC_METHODS:
        ci = roc_auc_ci(
            prep.positive.astype(int), prep.y_pred, confidence=confidence, method=method
        )
        n_pos = int(prep.positive.sum())
        note = f"{_NOTE}; {n_pos} positives and {prep.positive.size - n_pos} negatives"
        if method == "delong-logit":
            note += "; " + _SHORTFALL[method]
        return Interval(
            ci.estimate, ci.low, ci.high, confidence, method, ci.n, note=note
        )
    k, n = spec.proportion(prep.y_true, prep.y_pred, prep.pos)
    if n == 0:
        raise ValueError(
            f"`metric={spec.name!r}` is undefined on this test set: its denominator "
            f"({spec.description.replace('proportion of the ', '')}) is empty."
        )
    ci = proportion_ci(int(k), int(n), confidence=confidence, method=method)
    note = f"{_NOTE}; n = {int(n)} is the {spec.description.replace('proportion of the ', 'number of ')}"
    if spec.description == "proportion of all rows":
        note = _NOTE
    est, low, high = ci.estimate, ci.low, ci.high
    if spec.proportion_map is not None:
        # F1 = 2 J / (1 + J) is increasing in the Jaccard index J = TP / n
        est, low, high = (float(spec.proportion_map(v)) for v in (est, low, high))
        note += "; interval for TP / (TP + FP + FN) mapped by 2 J / (1 + J)"
    return Interval(est, low, high, confidence, method, int(n), note=note)


_MEAN_SPEC = _MetricSpec("mean", "sums", "any", stat=_mean_stat)


def _mean_companions(p):
    """Prepared means of the per-row loss and of its square (same rows)."""
    loss = p.F[:, 0]
    return [
        _Prepared(_MEAN_SPEC, p.y_true, p.y_pred, p.pos, F=f[:, None])
        for f in (loss, loss * loss)
    ]


def _studentized_bounds(p, boot_mean, boot_sq, confidence):
    """Studentized (bootstrap-t) interval of a mean loss, on the metric's scale.

    ``t* = (mean* - mean) / se*`` with ``se*`` the standard error of the
    resample's own rows; bounds ``mean - t*_(1 - alpha/2) se`` and
    ``mean - t*_(alpha/2) se`` (Efron & Tibshirani 1993, ch. 12; DiCiccio &
    Efron 1996), clipped to the range of the mean loss and mapped through
    the metric's transform (square root for RMSE, sign for ``neg_``).
    Unlike the percentile and BCa intervals it is not confined to the range
    of the resampled means, which is what it needs when the test set has
    not seen the heavy tail of the losses.
    """
    spec = p.spec
    loss = p.F[:, 0]
    n = loss.size
    mean = float(loss.mean())
    se = float(loss.std(ddof=1)) / np.sqrt(n) if n > 1 else 0.0
    # equal losses can differ in the last bits (-log(0.9) vs -log(1 - 0.1)):
    # a spread at rounding level is no spread (it gave only NaN t*)
    if se <= 1e-9 * max(abs(mean), 1e-300):
        se = 0.0
    hi_mean = spec.range[1] if spec.sign > 0 else -spec.range[0]
    fallback = []
    if se > 0:
        var_b = np.maximum(boot_sq - boot_mean**2, 0.0) * n / (n - 1)
        se_b = np.sqrt(var_b / n)
        with np.errstate(invalid="ignore", divide="ignore"):
            t = (boot_mean - mean) / se_b
        # a resample of identical rows has se* = 0: t* = +/-inf (kept as a
        # huge finite value so that quantiles stay defined), 0 / 0 dropped;
        # a quantile at that value leaves the bound unbounded, not 1e12 * se
        big = 1e12
        t = np.nan_to_num(t[~np.isnan(t)], posinf=big, neginf=-big)
        alpha = 1 - confidence
        if t.size == 0:
            q_lo = q_hi = 0.0
        else:
            q_lo, q_hi = np.quantile(t, [alpha / 2, 1 - alpha / 2])
        low = mean - q_hi * se
        high = mean - q_lo * se
        # an unbounded side (resamples without spread: t* = -inf) takes the
        # percentile bound of the resampled means, so that the interval is
        # finite where the metric is (issue 18, item 5); the note says so
        # and the measured coverage covers this combination
        finite = boot_mean[np.isfinite(boot_mean)]
        if q_hi >= big:
            low = float(np.quantile(finite, alpha / 2))
            fallback.append("lower")
        if q_lo <= -big:
            high = float(np.quantile(finite, 1 - alpha / 2))
            fallback.append("upper")
    else:
        low = high = mean
    # the interval holds its own estimate (t* quantiles of one sign, or the
    # percentile fallback, could leave it outside)
    low, high = min(low, mean), max(high, mean)
    low, high = float(np.clip(low, 0.0, hi_mean)), float(np.clip(high, 0.0, hi_mean))
    if spec.post is not None:
        low, high = float(spec.post(low)), float(spec.post(high))
    if spec.sign < 0:
        low, high = -high, -low
    return low, high, fallback


def _bootstrap_many(preps, methods, confidence, n_boot, strata, groups, rng):
    """Bootstrap intervals of several metrics from shared resamples."""
    estimates = [p.estimate() for p in preps]
    for p, est in zip(preps, estimates, strict=True):
        if not np.isfinite(est):
            raise _undefined_error(p.spec)
    extra = {}
    all_preps = list(preps)
    for j, (p, method) in enumerate(zip(preps, methods, strict=True)):
        if method == "studentized":
            extra[j] = len(all_preps)
            all_preps.extend(_mean_companions(p))
    boot = _replicates(all_preps, n_boot, rng, strata=strata, groups=groups)
    out = []
    n = preps[0].y_true.size
    for j, (p, method, est) in enumerate(zip(preps, methods, estimates, strict=True)):
        b = boot[:, j]
        n_undef = int(np.isnan(b).sum())
        if n_undef == n_boot:
            raise ValueError(
                f"`metric={p.spec.name!r}` is undefined on all {n_boot} resamples."
            )
        if n_undef:
            warnings.warn(
                f"`metric={p.spec.name!r}` was undefined on {n_undef} of {n_boot} "
                "resamples (e.g. no positive predictions or a missing class); they "
                "are excluded from the interval and counted in `n_undefined`."
                + (
                    "" if strata is not None else " `stratify=True` keeps class counts."
                ),
                UndefinedResamplesWarning,
                stacklevel=_external_stacklevel(),
            )
        if method == "percentile":
            low, high = _percentile_bounds(b, confidence)
        elif method == "basic":
            low, high = _basic_bounds(b, est, confidence)
        elif method == "studentized":
            c = extra[j]
            low, high, fallback = _studentized_bounds(
                p, boot[:, c], boot[:, c + 1], confidence
            )
        else:
            jack = _jackknife(p, rng, groups=groups)
            low, high = _bca_bounds(b, np.asarray(est), jack, confidence)
        # no bound outside the metric's range (the basic interval can leave it)
        low, high = np.clip([low, high], *p.spec.range)
        note = _NOTE
        measured = None
        if groups is None and strata is None and method == _auto_method(p.spec):
            measured = _measured_coverage(p, est)
        if method == "studentized":
            note += "; studentized (bootstrap-t) interval; " + _coverage_note(p, est)
            if fallback:
                note += (
                    f"; the {' and '.join(fallback)} bound from the percentile "
                    "bootstrap (resamples without spread left the studentized "
                    "one unbounded)"
                )
        elif measured is not None:
            note += "; " + _coverage_note(p, est, method)
        if measured is not None and not measured[0] >= _WARN_BELOW:
            warnings.warn(
                f"`metric={p.spec.name!r}`: the {method} interval covered only "
                f"{measured[0]:.2f} at 95 % in simulations of {measured[1]} "
                "(benchmarks/metric_coverage.py); read it as narrower than its "
                "level says."
                if np.isfinite(measured[0])
                else f"`metric={p.spec.name!r}`: {measured[1]}.",
                SmallSampleWarning,
                stacklevel=_external_stacklevel(),
            )
        tol = 1e-12 * max(1.0, abs(float(est)))
        if not (low - tol <= est <= high + tol):
            msg = (
                f"the {method} bootstrap interval [{float(low):.4g}, {float(high):.4g}] "
                f"of `metric={p.spec.name!r}` does not contain its own estimate "
                f"{float(est):.4g}: the resampled values do not center on it (e.g. "
                "a callable whose value depends on the row count or order, or an "
                "extreme statistic); the interval is not reliable"
            )
            warnings.warn(msg, UserWarning, stacklevel=_external_stacklevel())
            note += "; WARNING: " + msg
        if groups is not None:
            note += f"; resampled {np.unique(groups).size} whole groups"
        elif strata is not None:
            note += "; resamples keep the class counts (stratified)"
        if n_undef:
            note += f"; {n_undef} resamples undefined and excluded"
        out.append(
            Interval(
                est,
                float(low),
                float(high),
                confidence,
                method,
                n,
                n_boot=n_boot,
                n_undefined=n_undef,
                note=note,
            )
        )
    return out


def metric_ci(
    y_true,
    y_pred,
    *,
    metric="accuracy",
    confidence=0.95,
    method="auto",
    n_boot="auto",
    stratify="auto",
    groups=None,
    random_state=None,
    pos_label=None,
    y_score=None,
    sample_weight=None,
):
    """Confidence interval for a metric of fixed predictions on one test set.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels or targets.
    y_pred : array-like of shape (n_samples,), (n_samples, n_classes), (n_seeds, n_samples) or (n_seeds, n_samples, n_classes)
        Predictions: labels, scores (ROC AUC), probabilities (log loss,
        Brier score; the ``(n_samples, 2)`` ``predict_proba`` array of a
        binary problem is read at the positive class's column) or
        regression values, as the metric expects. **Seeds x test rows**:
        one row per training seed, the same test rows in the same order,
        gives an interval over both the seeds and the test rows (see
        Notes). The shape decides, against ``n = len(y_true)``: a 2-D
        ``(a, b)`` array is ``(n_samples, n_classes)`` when ``a == n`` and
        ``(n_seeds, n_samples)`` when ``b == n`` and ``a != n``; ``(n, n)``
        is seeds x rows for label and regression metrics and ambiguous
        (``ValueError``) for metrics that read probability columns: pass
        those as ``(n_seeds, n_samples, n_classes)``.
    metric : str, callable or list, default="accuracy"
        A metric name (``"accuracy"``, ``"error_rate"``, ``"recall"`` /
        ``"sensitivity"``, ``"specificity"``, ``"precision"``, ``"npv"``,
        ``"f1"``, ``"balanced_accuracy"``, ``"matthews_corrcoef"``,
        ``"roc_auc"``, ``"log_loss"``, ``"brier_score_loss"``,
        ``"mean_absolute_error"``, ``"mean_squared_error"``, ``"r2"``, ...),
        any scikit-learn scorer name (``"f1_macro"``, ``"neg_log_loss"``;
        the value carries the scorer's sign), another
        ``sklearn.metrics`` function name, or a callable
        ``metric(y_true, y_pred) -> float``. A list computes all of them
        from the same resamples and returns a DataFrame.
    confidence : float, default=0.95
        Confidence level in (0, 1).
    method : str, default="auto"
        ``"wald"``, ``"wilson"``, ``"clopper-pearson"`` (proportion metrics:
        accuracy, error rate, recall, specificity, precision, npv, and F1 /
        Jaccard through ``TP / (TP + FP + FN)``); ``"delong-logit"``,
        ``"delong"``, ``"hanley-mcneil"`` (ROC AUC); ``"studentized"``
        (bootstrap-t, means of per-row losses); ``"mover"`` (balanced
        accuracy: the per-class continuity-corrected Wilson intervals
        combined by MOVER); ``"percentile"``, ``"basic"``, ``"bca"``
        (bootstrap over test rows, any metric). ``"auto"``: Wilson for
        proportions and F1 / Jaccard, MOVER for balanced accuracy, logit
        DeLong for ROC AUC, studentized for mean losses, BCa otherwise (and
        BCa over groups when ``groups`` or ``sample_weight`` is given); see
        Notes.
    n_boot : int or "auto", default="auto"
        Bootstrap resamples. ``"auto"``: the smallest ``B >= 51`` with at
        least 10 resamples beyond each bound (399 at 95 %, 1999 at 99 %);
        25 beyond each bound for the studentized interval (999 at 95 %).
        An explicit value that leaves fewer warns (``SmallSampleWarning``)
        and is used as given; the confidence level is never changed.
    stratify : bool or "auto", default="auto"
        Bootstrap methods only. ``True``: resample within each class of
        ``y_true`` so class counts are kept. ``False``: resample rows
        freely. ``"auto"``: ``True`` when a metric needs both classes (ROC
        AUC, so that no resample lacks a class) and no ``groups`` are
        given, ``False`` otherwise.

        .. note:: The default is ``"auto"``, not ``False``: with ``False``
           as the default, a ROC AUC interval on a test set with few
           positives would lose every resample without a positive (counted
           in ``n_undefined``), and keeping class counts by default for ROC
           AUC is what the interval should do. For every other metric
           ``"auto"`` behaves as ``False``.
    groups : array-like of shape (n_samples,), default=None
        Group labels of dependent rows (e.g. several rows per patient);
        whole groups are resampled (clustered bootstrap).
    random_state : int, Generator or None, default=None
        Seed of the bootstrap.
    pos_label : label, default=None
        Positive class of binary metrics; ``None`` means 1 (for labels
        {0, 1} or {-1, 1}).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes), default=None
        Scores or probabilities for the score metrics (ROC AUC, log loss,
        Brier score, scorer names that use ``predict_proba`` or
        ``decision_function``), so that one call can take labels and scores
        together: ``metric_ci(y, labels, y_score=proba, metric=["accuracy",
        "roc_auc"])``. Label and regression metrics always read ``y_pred``;
        score metrics read ``y_score`` when given, else ``y_pred``.
        ``y_pred`` may be ``None`` when every metric reads ``y_score``.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights, as scikit-learn's metrics take them: the estimate is the
        weighted metric, and the interval is a bootstrap over rows (each
        resampled row keeps its weight; ``"auto"`` is BCa); the analytic
        methods (Wilson, MOVER, DeLong, studentized) refuse weights.

    Returns
    -------
    Interval, CrossedInterval or pandas.DataFrame
        ``Interval(estimate, low, high, confidence, method, n, n_boot,
        n_undefined, note)``; the estimate is the metric on the original
        rows (never a bootstrap mean). For proportion methods ``n`` is the
        metric's denominator (e.g. actual positives for recall). For seeds
        x test rows predictions a :class:`CrossedInterval`. For a list of
        metrics, a DataFrame with columns ``metric, estimate, low, high,
        method, n, n_boot, n_undefined``.

    Raises
    ------
    ValueError
        When ``y_true``, ``y_pred`` or ``y_score`` hold NaN, None or
        infinite values, or a label metric (accuracy, recall, F1, ...)
        receives continuous values (probabilities or scores) -- the error
        names the argument and what it should hold; or when ``y_score`` is
        given but no metric reads it.

    Warns
    -----
    UndefinedResamplesWarning
        When the metric is undefined on some resamples (counted in
        ``n_undefined`` and excluded, never dropped silently).
    SmallSampleWarning
        When an explicit ``n_boot`` is too small for ``confidence``.

    Notes
    -----
    ``method="auto"`` picks, per metric family, the method whose coverage
    was measured to hold (``benchmarks/metric_coverage.py``, table in the
    user guide "Intervals on a single test set"):

    - proportions (accuracy, recall, precision, ...): Wilson;
    - F1 and Jaccard: Wilson for ``J = TP / (TP + FP + FN)``, which is
      binomial given the number of rows positive in ``y_true`` or
      ``y_pred``, mapped to ``F1 = 2 J / (1 + J)`` (BCa covered 0.91 at
      F1 = 0.95, n = 50; Wilson 0.96);
    - balanced accuracy (binary or multiclass): ``"mover"`` (Zou & Donner
      2008) of each class's continuity-corrected Wilson interval for its
      recall (Newcombe 1998); covered 0.97-1.00 with 5 % positives at
      n = 20, 50 and 200, where BCa covered 0.45-0.56 and was [1, 1] in
      43-48 % of 20-row test sets;
    - ROC AUC: ``"delong-logit"`` (DeLong's Wald interval covered 0.83 at
      AUC 0.97 with 25 / 25 classes; the logit interval 0.97);
    - means of per-row losses (MAE, MSE, RMSE, MAPE, log loss, Brier):
      ``"studentized"`` bootstrap-t (BCa covered 0.86 for squared t5
      errors at n = 30, the studentized interval 0.91);
    - anything else, and every metric with ``groups``: BCa.

    Where the chosen method is known to fall short of the level, the
    returned ``note`` states the measured coverage: for MSE, RMSE and R^2
    the one measured for test sets whose errors have a similar sample
    kurtosis and size, for log loss and Brier score the one measured for
    calibrated models with a similar estimate and size, with a
    ``SmallSampleWarning`` below 0.93 (user guide "Coverage of the case at
    hand"). Score metrics (ROC AUC, average precision, log loss, Brier)
    refuse predicted labels; ``max_error`` refuses the bootstrap (no
    resample exceeds the test set's largest error); a bootstrap interval
    that misses its own estimate warns.

    **Seeds x test rows** (``y_pred`` of shape ``(n_seeds, n_samples)``):
    one split, a model trained with each seed, all scored on the same test
    rows. The estimate is the metric averaged over seeds; the interval
    (``method="variance-components"``, the only one besides ``"auto"``)
    covers the expected metric on *new test data* of a model trained on
    *this training set*, over training seeds (its ``target``). Its variance
    is split by a two-way crossed random-effects ANOVA into the seed part
    (seed effects and seed-by-row interaction) and the shared test-row part,
    with a t quantile on Satterthwaite's df (:mod:`skperf.stats._crossed`);
    metrics that are not a mean of per-row values (ROC AUC, F1, R^2, RMSE,
    callables) take the row part from a bootstrap of the test rows shared
    by all seeds (``"variance-components-bootstrap"``, at least 999
    resamples). The result also holds ``seeds_only``, the t interval over
    the seeds alone (rows held fixed), and ``width_ratio``; the note says how
    much narrower the seeds-only interval is. ``groups`` and
    ``sample_weight`` are not supported there. Measured coverage at 95 %:
    0.93-0.97 with 5-30 seeds on 50-1000 rows for normal and 0/1 losses;
    0.92-0.93 at accuracy 0.96 on 50 rows and 0.89-0.905 for lognormal
    losses on 50 rows (user guide "Seeds x test rows").

    The interval describes the uncertainty from the finite test set for a
    fixed model, not the variation from retraining. All methods assume
    independent rows unless ``groups`` is given. Confusion-matrix metrics
    are resampled through multinomial counts of the confusion cells, which
    is exact and independent of the test-set size.

    References
    ----------
    "Confidence Intervals for Model Performance", Sec. 2 (proportions),
    3.2-3.4 (AUC, bootstrap, stratified and clustered bootstrap); Rosen,
    "automatic bootstrap" (number of resamples, many metrics at once,
    grouped resampling); Raschka, ch. 25, method 3. Pepe (2003), Sec. 5.2
    (logit-transformed AUC interval); Efron & Tibshirani (1993), ch. 12
    (bootstrap-t).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.metrics import metric_ci
    >>> y_true = np.ones(50, dtype=int)
    >>> y_pred = np.r_[np.ones(45, dtype=int), np.zeros(5, dtype=int)]
    >>> ci = metric_ci(y_true, y_pred, metric="accuracy", method="wilson")
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
    0.900 [0.786, 0.957]
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> pred = np.where(rng.random(200) < 0.8, y, 1 - y)
    >>> ci = metric_ci(y, pred, metric="f1", random_state=0)
    >>> print(ci.method, ci.n, f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
    wilson 129 0.748 [0.676, 0.808]

    Labels and scores in one call (``y_score`` feeds the score metrics):

    >>> proba = np.clip(0.3 + 0.4 * y + 0.3 * rng.random(200), 0, 1)
    >>> df = metric_ci(y, pred, y_score=proba, metric=["accuracy", "roc_auc"])
    >>> print(df[["metric", "method"]].to_string(index=False))
      metric       method
    accuracy       wilson
     roc_auc delong-logit
    """
    confidence = _check_confidence(confidence)
    stratify = _check_stratify(stratify)
    rng = _check_rng(random_state)
    if isinstance(metric, list | tuple):
        return _metric_ci_frame(
            y_true,
            (y_pred, y_score),
            metric,
            confidence,
            method,
            n_boot,
            stratify,
            groups,
            rng,
            pos_label,
            sample_weight,
        )
    return _intervals(
        y_true,
        (y_pred, y_score),
        [_resolve(metric)],
        confidence,
        method,
        n_boot,
        stratify,
        groups,
        rng,
        pos_label,
        sample_weight=sample_weight,
    )[0]


def _check_y_score_read(specs, y_score):
    """ValueError when ``y_score`` is given but no metric reads it."""
    if y_score is None or any(_reads_scores(s) for s in specs):
        return
    names = [s.name for s in specs]
    raise ValueError(
        f"`y_score` is given but no metric in {names} reads it (label and "
        "regression metrics read `y_pred`); add a score metric such as "
        "'roc_auc', 'log_loss' or 'brier_score_loss', or drop `y_score`."
    )


def _input_for(spec, y_pred, y_score):
    """The predictions ``spec`` reads (``y_score`` for score metrics) and their name."""
    if _reads_scores(spec) and y_score is not None:
        return y_score, "y_score"
    if y_pred is None:
        if y_score is None:
            raise ValueError("`y_pred` is None; pass predictions (or `y_score=`).")
        raise ValueError(
            f"`metric={spec.name!r}` needs predicted labels or values in `y_pred`; "
            "`y_pred` is None (`y_score` is read only by score metrics such as "
            "'roc_auc', 'log_loss' or 'brier_score_loss')."
        )
    return y_pred, "y_pred"


def _metric_ci_frame(
    y_true,
    inputs,
    metrics,
    confidence,
    method,
    n_boot,
    stratify,
    groups,
    rng,
    pos_label,
    sample_weight=None,
):
    """Several metrics from shared resamples, as a DataFrame."""
    import pandas as pd

    if len(metrics) == 0:
        raise ValueError("`metric` is an empty list; give at least one metric.")
    specs = [_resolve(m) for m in metrics]
    results = _intervals(
        y_true,
        inputs,
        specs,
        confidence,
        method,
        n_boot,
        stratify,
        groups,
        rng,
        pos_label,
        sample_weight=sample_weight,
    )
    return pd.DataFrame(
        {
            "metric": [s.name for s in specs],
            "estimate": [r.estimate for r in results],
            "low": [r.low for r in results],
            "high": [r.high for r in results],
            "method": [r.method for r in results],
            "n": [r.n for r in results],
            "n_boot": pd.array([r.n_boot for r in results], dtype="Int64"),
            "n_undefined": [r.n_undefined for r in results],
        }
    )


def _intervals(
    y_true,
    inputs,
    specs,
    confidence,
    method,
    n_boot,
    stratify,
    groups,
    rng,
    pos_label,
    sample_weight=None,
):
    """Intervals of ``specs``, bootstrap ones from shared resamples."""
    _check_y_score_read(specs, inputs[1])
    picked = [_input_for(s, *inputs) for s in specs]
    seeds = _seeds_inputs(y_true, specs, picked)
    if seeds is not None:
        _check_crossed_options(method, groups, sample_weight)
        return [
            _crossed_metric_ci(
                s,
                np.asarray(y_true),
                arr,
                name,
                confidence,
                n_boot,
                _strata([_SpecOnly(s)], stratify, None, y_true),
                rng,
                pos_label,
            )
            for s, arr, (_, name) in zip(specs, seeds, picked, strict=True)
        ]
    for pred, name in picked:
        _check_lengths(y_true, pred, names=(name,))
    groups = _check_groups(groups, len(y_true))
    weighted = sample_weight is not None
    methods = [_choose_method(s, method, groups, weighted) for s in specs]
    preps = [
        _prepare(s, y_true, pred, pos_label, pred_name=name, weights=sample_weight)
        for s, (pred, name) in zip(specs, picked, strict=True)
    ]
    results = [None] * len(preps)
    boot_idx = [i for i, m in enumerate(methods) if m in _BOOT_METHODS]
    for i, m in enumerate(methods):
        if m not in _BOOT_METHODS:
            results[i] = _analytic(preps[i], m, confidence)
    if boot_idx:
        n_boot = _n_boot_of(confidence, n_boot, [methods[i] for i in boot_idx])
        bp = [preps[i] for i in boot_idx]
        strata = _strata(bp, stratify, groups, bp[0].y_true)
        res = _bootstrap_many(
            bp,
            [methods[i] for i in boot_idx],
            confidence,
            n_boot,
            strata,
            groups,
            rng,
        )
        for i, r in zip(boot_idx, res, strict=True):
            results[i] = r
    return results


class _SpecOnly:
    """A stand-in with ``.spec`` for :func:`_strata`."""

    def __init__(self, spec):
        self.spec = spec


def _seeds_inputs(y_true, specs, picked):
    """Per spec the ``(n_seeds, n_rows[, k])`` predictions, or None if all are 1-D."""
    y = np.asarray(y_true)
    if y.ndim != 1:
        raise ValueError(f"`y_true` must be 1-D; got shape {y.shape}.")
    arrays = [
        _seeds_layout(s, pred, y.size, name)
        for s, (pred, name) in zip(specs, picked, strict=True)
    ]
    if all(a is None for a in arrays):
        return None
    if any(a is None for a in arrays):
        raise ValueError(
            "`y_pred` and `y_score` must both be seeds x rows (n_seeds, n_rows) or "
            "both hold one model's predictions; got one of each."
        )
    return arrays


def _predictions(estimator, X, spec):
    """Predictions with the scorer's response method, and the positive label."""
    for response in spec.response:
        if hasattr(estimator, response):
            pred = getattr(estimator, response)(X)
            break
    else:
        raise ValueError(
            f"`metric={spec.name!r}` needs one of {list(spec.response)} but "
            f"{type(estimator).__name__} has none of them."
        )
    pos_label = None
    classes = getattr(estimator, "classes_", None)
    if response != "predict" and classes is not None and len(classes) == 2:
        pos_label = classes[1]
        if response == "predict_proba" and np.ndim(pred) == 2:
            pred = pred[:, 1]
    return pred, pos_label


def score_ci(
    estimator,
    X,
    y,
    *,
    scoring=None,
    confidence=0.95,
    method="auto",
    n_boot="auto",
    stratify="auto",
    groups=None,
    random_state=None,
    pos_label=None,
    sample_weight=None,
):
    """Confidence interval for a fitted estimator's score on a test set.

    Predictions are computed once, with the scorer's response method
    (``predict``, ``predict_proba`` or ``decision_function``); the
    interval is then :func:`metric_ci` on those predictions.

    Parameters
    ----------
    estimator : fitted estimator
        The model to evaluate (not refitted).
    X : array-like of shape (n_samples, n_features)
        Test features.
    y : array-like of shape (n_samples,)
        Test targets.
    scoring : str, scorer or None, default=None
        A metric or scorer name as in :func:`metric_ci`, or a scikit-learn
        scorer object. ``None``: accuracy for classifiers, R^2 for
        regressors.
    confidence : float, default=0.95
        Confidence level in (0, 1).
    method : str, default="auto"
        Interval method, as in :func:`metric_ci`.
    n_boot : int or "auto", default="auto"
        Bootstrap resamples (bootstrap methods only), as in :func:`metric_ci`.
    stratify : bool or "auto", default="auto"
        Resample within classes, as in :func:`metric_ci`.
    groups : array-like of shape (n_samples,), default=None
        Groups of dependent rows, resampled whole.
    random_state : int, Generator or None, default=None
        Seed of the bootstrap.
    pos_label : label, default=None
        Positive class of binary metrics. For probability and score
        metrics of a binary classifier it defaults to
        ``estimator.classes_[1]``.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights, as in :func:`metric_ci`.

    Returns
    -------
    Interval
        The metric of the fitted model on ``(X, y)`` and its interval.

    Notes
    -----
    Describes the uncertainty from the finite test set for this fitted
    model only, not from retraining.

    References
    ----------
    "Confidence Intervals for Model Performance", Sec. 1-3; Raschka,
    ch. 25, method 3 (bootstrapping test-set predictions).

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import train_test_split
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skperf.metrics import score_ci
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
    >>> ci = score_ci(model, X_te, y_te, scoring="roc_auc")
    >>> print(ci.method, f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
    delong-logit 0.991 [0.964, 0.998]
    """
    from sklearn.base import is_classifier, is_regressor

    if scoring is None:
        if is_classifier(estimator):
            scoring = "accuracy"
        elif is_regressor(estimator):
            scoring = "r2"
        else:
            raise ValueError(
                "`scoring=None` needs a classifier or regressor; pass `scoring=` "
                f"for {type(estimator).__name__}."
            )
    spec = _resolve(scoring)
    y_pred, default_pos = _predictions(estimator, X, spec)
    if pos_label is None:
        pos_label = default_pos
    return metric_ci(
        y,
        y_pred,
        metric=scoring,
        confidence=confidence,
        method=method,
        n_boot=n_boot,
        stratify=stratify,
        groups=groups,
        random_state=random_state,
        pos_label=pos_label,
        sample_weight=sample_weight,
    )


def _check_paired_seeds(paired_seeds):
    if not isinstance(paired_seeds, bool | np.bool_):
        raise TypeError(f"`paired_seeds` must be True or False; got {paired_seeds!r}.")
    return bool(paired_seeds)


def _boot_pvalue(d):
    """Two-sided bootstrap p-value of "difference = 0" (add-one corrected)."""
    d = d[np.isfinite(d)]
    b = d.size
    lo = (np.sum(d <= 0) + 1) / (b + 1)
    hi = (np.sum(d >= 0) + 1) / (b + 1)
    return float(min(1.0, 2 * min(lo, hi)))


def compare_predictions(
    y_true,
    y_pred_a,
    y_pred_b,
    *,
    metric="accuracy",
    method="auto",
    confidence=0.95,
    n_boot="auto",
    stratify="auto",
    groups=None,
    random_state=None,
    pos_label=None,
    sample_weight=None,
    paired_seeds=False,
):
    """Paired comparison of two models' predictions on the same test rows.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels or targets.
    y_pred_a, y_pred_b : array-like of shape (n_samples,) or (n_seeds, n_samples)
        Predictions of models a and b on the same rows. Seeds x test rows:
        one row per training seed (the counts of a and b may differ), the
        same test rows in the same order; the shapes are read as in
        :func:`metric_ci`. The result is then a seeds x rows comparison
        (``method="variance-components"``; Notes).
    metric : str or callable, default="accuracy"
        As in :func:`metric_ci`.
    method : {"auto", "mcnemar", "delong", "paired-bootstrap"}, default="auto"
        ``"mcnemar"`` (accuracy, error rate): McNemar's test on the
        discordant rows (exact binomial when fewer than 25, chi-square with
        continuity correction otherwise) and the Bonett-Price adjusted Wald
        interval for the paired difference. ``"delong"`` (ROC AUC): DeLong's
        test for two correlated AUCs. ``"paired-bootstrap"`` (any metric):
        percentile interval of the difference, both models evaluated on the
        same resampled rows. ``"auto"`` picks the first that applies
        (paired bootstrap over groups when ``groups`` is given).
    confidence : float, default=0.95
        Confidence level of the interval on the difference.
    n_boot : int or "auto", default="auto"
        Resamples of the paired bootstrap, as in :func:`metric_ci`.
    stratify : bool or "auto", default="auto"
        Resample within classes (paired bootstrap), as in :func:`metric_ci`.
    groups : array-like of shape (n_samples,), default=None
        Groups of dependent rows; the paired bootstrap resamples whole
        groups (the other methods refuse ``groups``).
    random_state : int, Generator or None, default=None
        Seed of the paired bootstrap.
    pos_label : label, default=None
        Positive class of binary metrics, as in :func:`metric_ci`.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights: both models' metrics are weighted and ``"auto"`` is the
        paired bootstrap (McNemar and DeLong refuse weights).
    paired_seeds : bool, default=False
        Seeds x test rows only: seed ``s`` of model a and of model b share
        their randomness (the same init seed and data order), so the
        per-seed differences are analysed; ``False`` treats the two models'
        seeds as independent. Test rows are always paired.

    Returns
    -------
    PairedTestResult or CrossedPairedTestResult
        Difference ``a - b``, its interval, the ``pvalue``, the
        ``statistic`` and both models' values (a
        :class:`CrossedPairedTestResult` for seeds x test rows predictions).

    Notes
    -----
    Compare models through the interval on the difference, not by the
    overlap of two marginal intervals (Sec. 4.1): the paired analysis uses
    the correlation of both models' errors on the same rows.

    With seeds x test rows predictions the result is a
    ``CrossedPairedTestResult``: the difference of the seed-averaged
    metrics, a t interval and test (Satterthwaite df) whose variance holds
    both models' seed parts and the shared test-row part of the
    difference, its ``target`` (new test data, the models trained on this
    training set, over training seeds) and ``seeds_only``, the interval
    with the test rows held fixed.

    References
    ----------
    "Confidence Intervals for Model Performance", Sec. 3.3 (paired DeLong),
    4.1-4.2 (McNemar, paired bootstrap).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.metrics import compare_predictions
    >>> y = np.r_[np.zeros(100, int), np.ones(100, int)]
    >>> a = y.copy(); a[:10] = 1              # model a: 10 errors
    >>> b = y.copy(); b[:10] = 1; b[-20:] = 0  # model b: 30 errors
    >>> res = compare_predictions(y, a, b)
    >>> print(res.method, res.test, f"{res.estimate:.3f} [{res.low:.3f}, {res.high:.3f}]")
    mcnemar exact binomial 0.100 [0.056, 0.142]
    >>> print(f"p = {res.pvalue:.2e}")
    p = 1.91e-06
    """
    confidence = _check_confidence(confidence)
    stratify = _check_stratify(stratify)
    method = _check_method(method, _COMPARE_METHODS)
    spec = _resolve(metric)
    seeds = _seeds_inputs(
        y_true, [spec, spec], [(y_pred_a, "y_pred_a"), (y_pred_b, "y_pred_b")]
    )
    if seeds is not None:
        _check_crossed_options(method, groups, sample_weight, "compare_predictions")
        return _crossed_compare(
            spec,
            np.asarray(y_true),
            *seeds,
            confidence,
            n_boot,
            _strata([_SpecOnly(spec)], stratify, None, y_true),
            _check_rng(random_state),
            pos_label,
            _check_paired_seeds(paired_seeds),
        )
    for value, what in (
        (paired_seeds, "`paired_seeds=True`"),
        (method == "variance-components", "`method='variance-components'`"),
    ):
        if value:
            raise ValueError(
                f"{what} applies to seeds x rows predictions of shape "
                "(n_seeds, n_rows); `y_pred_a` and `y_pred_b` hold one model each."
            )
    _check_lengths(y_true, y_pred_a, y_pred_b, names=("y_pred_a", "y_pred_b"))
    groups = _check_groups(groups, len(y_true))
    if sample_weight is not None and method in ("mcnemar", "delong"):
        raise ValueError(
            f"`method={method!r}` does not take `sample_weight`; use "
            "'paired-bootstrap' (the default with weights)."
        )
    if method == "auto":
        if groups is not None or sample_weight is not None:
            method = "paired-bootstrap"
        elif spec.name in ("accuracy", "error_rate"):
            method = "mcnemar"
        elif spec.kind == "auc":
            method = "delong"
        else:
            method = "paired-bootstrap"
    if method == "mcnemar" and spec.name not in ("accuracy", "error_rate"):
        raise ValueError(
            f"`method='mcnemar'` compares accuracy or error_rate; got `metric={spec.name!r}`. "
            "Use 'paired-bootstrap'."
        )
    if method == "delong" and spec.kind != "auc":
        raise ValueError(
            f"`method='delong'` compares ROC AUCs; got `metric={spec.name!r}`. "
            "Use 'paired-bootstrap'."
        )
    if groups is not None and method != "paired-bootstrap":
        raise ValueError(
            f"`method={method!r}` assumes independent rows; with `groups` use "
            "'paired-bootstrap', which resamples whole groups."
        )
    pa = _prepare(
        spec, y_true, y_pred_a, pos_label, pred_name="y_pred_a", weights=sample_weight
    )
    pb = _prepare(
        spec, y_true, y_pred_b, pos_label, pred_name="y_pred_b", weights=sample_weight
    )
    n = pa.y_true.size
    if method == "mcnemar":
        ca = pa.y_true == pa.y_pred
        cb = pb.y_true == pb.y_pred
        b, c = int(np.sum(ca & ~cb)), int(np.sum(~ca & cb))
        if spec.name == "error_rate":
            b, c = c, b
        test = mcnemar(b, c)
        ci = paired_proportion_difference_ci(b, c, n, confidence=confidence)
        label = (
            "exact binomial"
            if test.test == "exact"
            else "chi-square, continuity corrected"
        )
        return PairedTestResult(
            ci.estimate,
            ci.low,
            ci.high,
            test.pvalue,
            "mcnemar",
            n,
            confidence,
            test.statistic,
            metric=spec.name,
            estimate_a=pa.estimate(),
            estimate_b=pb.estimate(),
            test=label,
            note=f"{_NOTE}; {b} rows favour a, {c} favour b; interval: Bonett-Price adjusted Wald",
        )
    if method == "delong":
        res = delong_paired(
            pa.positive.astype(int), pa.y_pred, pb.y_pred, confidence=confidence
        )
        return PairedTestResult(
            res.estimate,
            res.low,
            res.high,
            res.pvalue,
            "delong",
            n,
            confidence,
            res.statistic,
            metric=spec.name,
            estimate_a=res.auc_a,
            estimate_b=res.auc_b,
            test="DeLong z test for two correlated AUCs",
            note=_NOTE,
        )
    rng = _check_rng(random_state)
    n_boot = _resolve_n_boot(confidence, n_boot)
    strata = _strata([pa], stratify, groups, pa.y_true)
    est_a, est_b = pa.estimate(), pb.estimate()
    if not (np.isfinite(est_a) and np.isfinite(est_b)):
        raise _undefined_error(spec)
    boot = _replicates([pa, pb], n_boot, rng, strata=strata, groups=groups)
    d = boot[:, 0] - boot[:, 1]
    n_undef = int(np.isnan(d).sum())
    if n_undef == n_boot:
        raise ValueError(
            f"`metric={spec.name!r}` is undefined on all {n_boot} resamples."
        )
    if n_undef:
        warnings.warn(
            f"`metric={spec.name!r}` was undefined on {n_undef} of {n_boot} resamples "
            "for at least one model; they are excluded and counted in `n_undefined`.",
            UndefinedResamplesWarning,
            stacklevel=_external_stacklevel(),
        )
    low, high = _percentile_bounds(d, confidence)
    est = est_a - est_b
    sd = float(np.nanstd(d, ddof=1))
    stat = est / sd if sd > 0 else (0.0 if est == 0 else np.copysign(np.inf, est))
    return PairedTestResult(
        est,
        float(low),
        float(high),
        _boot_pvalue(d),
        "paired-bootstrap",
        n,
        confidence,
        stat,
        metric=spec.name,
        estimate_a=est_a,
        estimate_b=est_b,
        test="percentile interval of the paired difference",
        n_boot=n_boot,
        n_undefined=n_undef,
        note=_NOTE,
    )
