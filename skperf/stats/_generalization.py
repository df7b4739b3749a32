"""Intervals for the score on new data from resampled fits (pure NumPy/SciPy).

The formulas behind :func:`skperf.generalization_ci` and the comparisons on
new data, as functions of arrays (scores per split, or per-row losses), so
that a paired comparison passes per-row *differences* of losses to the same
routines. Nothing here fits a model: the sklearn layer
(``skperf/model_selection/_generalization.py``) runs the fits and hands over the numbers.

All functions work on scores or per-row losses alike (every formula is
invariant under ``x -> a - x``), with leading batch axes broadcast:

- :func:`corrected_t_ci`: Nadeau & Bengio (2003), corrected resampled t.
- :func:`conservative_z_ci`: Nadeau & Bengio (2003), conservative Z from
  pairs of disjoint halves.
- :func:`nested_cv_ci`: Bates, Hastie & Tibshirani (2024), Algorithm 1
  (nested CV estimate of the MSE of CV) with their bias correction.
- :func:`wald_cv_ci`: Bayle et al. (2020), CV central-limit interval.
- :func:`holdout_ci`: t interval on the per-row losses of one test set.

Each returns a :class:`CVInterval` (estimate, low, high, se, df); its
:meth:`CVInterval.pvalue` gives the matching two-sided test.

References
----------
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error.
Machine Learning 52, 239-281 (Sec. 5: corrected resampled t and
conservative Z).
Bates, S., Hastie, T. & Tibshirani, R. (2024). Cross-validation: what does
it estimate and how well does it do it? JASA 119(546), 1434-1445 (Sec. 4,
Algorithm 1, and the bias correction of Sec. 4.3).
Bayle, P., Bayle, A., Janson, L. & Mackey, L. (2020). Cross-validation
confidence intervals for test error. NeurIPS 33 (Theorem 1, within-fold
variance estimator).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._results import _fmt, _freeze
from ._validation import _check_confidence

__all__ = [
    "CVInterval",
    "conservative_z_ci",
    "corrected_t_ci",
    "holdout_ci",
    "nested_cv_ci",
    "wald_cv_ci",
]


@dataclass(frozen=True, eq=False)
class CVInterval:
    """``estimate +/- q * se`` with ``q`` from a t (``df``) or normal (``df=inf``).

    Parameters
    ----------
    estimate, low, high : float or ndarray
        Point estimate and interval bounds (in the units of the input).
    se : float or ndarray
        Standard error used for the interval.
    df : float
        Degrees of freedom of the reference t distribution (``inf``: normal).
    confidence : float
        Nominal confidence level.
    method : str
        ``"corrected-t"``, ``"conservative-z"``, ``"nested-cv"``, ``"wald-cv"``
        or ``"holdout"``.
    """

    estimate: float
    low: float
    high: float
    se: float
    df: float
    confidence: float
    method: str

    def __post_init__(self):
        for name in ("estimate", "low", "high", "se"):
            object.__setattr__(self, name, _freeze(getattr(self, name)))
        object.__setattr__(self, "df", float(self.df))
        object.__setattr__(self, "confidence", float(self.confidence))

    def pvalue(self, null=0.0):
        """Two-sided p-value of ``estimate == null`` with the interval's reference law.

        Parameters
        ----------
        null : float, default=0.0
            Value under the null hypothesis (0 for a difference of scores).

        Returns
        -------
        float or ndarray
            ``2 * sf(|estimate - null| / se)`` (1 where ``se == 0`` and the
            estimate equals ``null``, 0 where ``se == 0`` otherwise).
        """
        est, se = np.asarray(self.estimate), np.asarray(self.se)
        diff = np.abs(est - null)
        with np.errstate(divide="ignore", invalid="ignore"):
            stat = np.where(se > 0, diff / np.where(se > 0, se, 1), np.inf)
        stat = np.where((se == 0) & (diff == 0), 0.0, stat)
        law = stats.norm if np.isinf(self.df) else stats.t(self.df)
        return _freeze(2 * law.sf(stat))

    def __repr__(self):
        return (
            f"CVInterval(estimate={_fmt(self.estimate)}, low={_fmt(self.low)}, "
            f"high={_fmt(self.high)}, se={_fmt(self.se)}, df={self.df:g}, "
            f"confidence={self.confidence:g}, method={self.method!r})"
        )


def _interval(est, se, df, confidence, method):
    q = (stats.norm if np.isinf(df) else stats.t(df)).ppf(0.5 + confidence / 2)
    return CVInterval(est, est - q * se, est + q * se, se, df, confidence, method)


def _as_float(x, name, min_ndim=1):
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"`{name}` must be an array of numbers; got {x!r}.") from None
    if arr.ndim < min_ndim:
        raise ValueError(
            f"`{name}` must have at least {min_ndim} dimension(s); got shape "
            f"{arr.shape}."
        )
    return arr


def corrected_moments(x, test_train_ratio):
    """``(mean, se)`` of the corrected resampled t over the last axis of ``x``.

    The ONE definition of Nadeau & Bengio's corrected standard error in
    skperf, ``se = sqrt((1/J + n_test/n_train) * s^2)`` (Sec. 5), used by
    :func:`corrected_t_ci`, :func:`skperf.stats.mean_ci` (``"corrected-t"``)
    and :func:`skperf.stats._paired_tests.corrected_paired_t` (and through it
    the report's pairwise family). When all ``J`` values are equal the
    variance is exactly 0 (no rounding), and the mean is that value.

    Examples
    --------
    >>> from skperf.stats._generalization import corrected_moments
    >>> mean, se = corrected_moments([0.80, 0.84, 0.78, 0.86, 0.82], 1 / 9)
    >>> print(f"{mean:.3f} {se:.4f}")
    0.820 0.0176
    """
    x = np.asarray(x, dtype=float)
    J = x.shape[-1]
    const = np.all(x == x[..., :1], axis=-1)
    mean = np.where(const, x[..., 0], np.mean(x, axis=-1))
    var = np.where(const, 0.0, np.var(x, axis=-1, ddof=1))
    return mean, corrected_se(var, J, test_train_ratio)


def corrected_se(var, J, test_train_ratio):
    """Nadeau & Bengio's corrected standard error from the sample variance
    ``var`` of ``J`` split scores: ``sqrt((1/J + n_test/n_train) * var)``
    (Sec. 5). The formula of :func:`corrected_moments`; the sequential looks
    (:mod:`skperf.stats._sequential`) also use it to project the standard
    error to more rounds."""
    return np.sqrt((1 / J + test_train_ratio) * np.asarray(var, dtype=float))


def corrected_t_ci(scores, *, n_train, n_test, confidence=0.95, df=None):
    """Nadeau & Bengio's corrected resampled t interval over ``J`` splits.

    ``mean +/- t_{df} * sqrt((1/J + n_test/n_train) * s^2)``, where ``s^2``
    is the sample variance of the ``J`` scores (last axis) and ``df = J - 1``
    unless given.

    Parameters
    ----------
    scores : array-like of shape (..., J)
        One score (or loss, or paired difference) per train/test split.
    n_train, n_test : float
        Training and test set sizes of the splits (their means when they
        differ slightly, e.g. K-fold with ``n`` not a multiple of ``K``).
    confidence : float, default=0.95
        Confidence level in (0, 1).
    df : float or None, default=None
        Degrees of freedom of the t quantile. ``None``: ``J - 1``, Nadeau &
        Bengio's. A smaller value is Bouckaert's (2003) calibrated degrees of
        freedom: ``R`` repetitions of ``K``-fold CV reuse the same rows, so
        their ``J = R K`` scores carry about the information of one
        ``K``-fold CV, and ``df = K - 1`` (see Notes).

    Returns
    -------
    CVInterval
        ``df = J - 1`` unless ``df`` is given.

    Notes
    -----
    The interval is for the expected score of the algorithm trained on
    ``n_train`` rows; the term ``n_test / n_train`` is Nadeau & Bengio's
    heuristic for the correlation between splits that share rows (Sec. 5).
    Only the quantile depends on ``df``: ``se`` is the same.

    References
    ----------
    Nadeau & Bengio (2003), Machine Learning 52, Sec. 5 (corrected
    resampled t). Bouckaert, R. R. (2003), "Choosing between two learning
    algorithms based on calibrated tests", ICML 2003 (the effective degrees
    of freedom of tests on reused data are much lower than ``J - 1``; they
    are calibrated empirically).

    Examples
    --------
    >>> from skperf.stats._generalization import corrected_t_ci
    >>> ci = corrected_t_ci([0.80, 0.84, 0.78, 0.86, 0.82], n_train=90, n_test=10)
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
    0.820 [0.771, 0.869]
    """
    x = _as_float(scores, "scores")
    confidence = _check_confidence(confidence)
    J = x.shape[-1]
    if J < 2:
        raise ValueError(f"`scores` must hold at least 2 splits (last axis); got {J}.")
    n_train, n_test = float(n_train), float(n_test)
    if not (n_train > 0 and n_test > 0):
        raise ValueError(
            f"`n_train` and `n_test` must be positive; got {n_train!r}, {n_test!r}."
        )
    if df is None:
        df = J - 1
    elif isinstance(df, bool) or not (
        isinstance(df, int | float | np.integer | np.floating) and 0 < df <= J - 1
    ):
        raise ValueError(
            f"`df` must be None or a number in (0, J - 1 = {J - 1}] (J = {J} "
            f"splits); got {df!r}."
        )
    mean, se = corrected_moments(x, n_test / n_train)
    return _interval(mean, se, float(df), confidence, "corrected-t")


def conservative_z_ci(scores, half_scores, *, confidence=0.95):
    """Nadeau & Bengio's conservative Z interval.

    The estimate is the mean of the ``J`` scores on the full data; the
    variance comes from ``M`` random pairs of disjoint halves of the data,
    each half resampled ``J'`` times with the same test size:
    ``sigma^2 = sum_m (mu_m1 - mu_m2)^2 / (2 M)``, ``mu_mp`` the mean of the
    ``J'`` scores on half ``p`` of pair ``m``. As the halves train on fewer
    rows, the variance (and so the interval) errs on the wide side.

    Parameters
    ----------
    scores : array-like of shape (..., J)
        Scores of ``J`` train/test splits of the full data.
    half_scores : array-like of shape (..., M, 2, J')
        Scores of the resamplings within each half of each pair.
    confidence : float, default=0.95
        Confidence level in (0, 1).

    Returns
    -------
    CVInterval
        ``df = inf`` (normal quantile).

    References
    ----------
    Nadeau & Bengio (2003), Machine Learning 52, Sec. 5 (conservative Z).

    Examples
    --------
    >>> from skperf.stats._generalization import conservative_z_ci
    >>> halves = [[[0.8, 0.7], [0.9, 0.8]], [[0.82, 0.84], [0.8, 0.78]]]
    >>> ci = conservative_z_ci([0.8, 0.84, 0.82], halves)
    >>> print(f"{ci.se:.4f} [{ci.low:.3f}, {ci.high:.3f}]")
    0.0539 [0.714, 0.926]
    """
    x = _as_float(scores, "scores")
    h = _as_float(half_scores, "half_scores", min_ndim=3)
    confidence = _check_confidence(confidence)
    if h.shape[-2] != 2:
        raise ValueError(
            "`half_scores` must have shape (..., M, 2, J'): axis -2 holds the two "
            f"halves of each pair; got shape {h.shape}."
        )
    M = h.shape[-3]
    if M < 1 or h.shape[-1] < 1 or x.shape[-1] < 1:
        raise ValueError(
            f"`scores` and `half_scores` must not be empty; got shapes {x.shape} "
            f"and {h.shape}."
        )
    mu = np.mean(h, axis=-1)  # (..., M, 2)
    var = np.sum((mu[..., 0] - mu[..., 1]) ** 2, axis=-1) / (2 * M)
    return _interval(
        np.mean(x, axis=-1), np.sqrt(var), np.inf, confidence, "conservative-z"
    )


def _check_folds(folds, n, name="folds"):
    f = np.asarray(folds)
    if f.ndim != 2 or f.shape[-1] != n or f.dtype.kind not in "iu":
        raise ValueError(
            f"`{name}` must be an int array of shape (R, n={n}) giving each row's "
            f"fold in each repetition; got shape {f.shape}, dtype {f.dtype}."
        )
    K = int(f.max()) + 1
    counts = np.stack([np.bincount(r, minlength=K) for r in f])
    if f.min() < 0 or np.any(counts < 2):
        raise ValueError(
            f"`{name}` must label folds 0..K-1 with at least 2 rows in every fold of "
            f"every repetition; got fold sizes {counts.tolist()}."
        )
    return f, K


def wald_cv_ci(losses, folds, *, confidence=0.95):
    """Bayle et al.'s cross-validation interval from per-row CV losses.

    ``mean +/- z * sigma_in / sqrt(n)``, where ``sigma_in^2`` is the
    within-fold variance: the mean over folds (and repetitions) of the
    sample variance of the per-row losses of each test fold.

    Parameters
    ----------
    losses : array-like of shape (..., R, n)
        Per-row loss (or score, or paired difference) of each row predicted
        by the model that did not train on it, in each of ``R`` repetitions
        of K-fold CV.
    folds : array-like of int, shape (R, n)
        Fold of each row in each repetition.
    confidence : float, default=0.95
        Confidence level in (0, 1).

    Returns
    -------
    CVInterval
        ``df = inf`` (normal quantile).

    Notes
    -----
    Bayle et al. prove asymptotic coverage of the *CV test error* (the
    average error of the ``K`` fitted fold models) for stable learners;
    as an interval for the expected error of the algorithm it is often
    too narrow (Schulz-Kümpel et al., 2024). With ``R > 1`` the estimate
    averages the repetitions while the standard error stays
    ``sigma_in / sqrt(n)`` (conservative for the repeated mean).

    References
    ----------
    Bayle, Bayle, Janson & Mackey (2020), NeurIPS 33, Theorem 1 and the
    within-fold variance estimator (Sec. 3).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._generalization import wald_cv_ci
    >>> losses = np.array([[0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]])
    >>> folds = np.array([[0, 0, 0, 0, 1, 1, 1, 1]])
    >>> ci = wald_cv_ci(losses, folds)
    >>> print(f"{ci.estimate:.3f} se={ci.se:.4f}")
    0.250 se=0.1768
    """
    x = _as_float(losses, "losses", min_ndim=2)
    confidence = _check_confidence(confidence)
    n = x.shape[-1]
    f, K = _check_folds(folds, n)
    if f.shape[0] != x.shape[-2]:
        raise ValueError(
            f"`folds` has {f.shape[0]} repetitions but `losses` has {x.shape[-2]}."
        )
    onehot = f[..., None] == np.arange(K)  # (R, n, K)
    cnt = onehot.sum(axis=-2)  # (R, K)
    sums = np.einsum("...rn,rnk->...rk", x, onehot)
    sq = np.einsum("...rn,rnk->...rk", x**2, onehot)
    var = (sq - sums**2 / cnt) / (cnt - 1)  # within-fold sample variance
    var = np.maximum(np.mean(var, axis=(-2, -1)), 0.0)
    est = np.mean(x, axis=(-2, -1))
    return _interval(est, np.sqrt(var / n), np.inf, confidence, "wald-cv")


def nested_cv_ci(
    inner, outer, folds, *, confidence=0.95, bias_correction=True, conservative=False
):
    """Bates, Hastie & Tibshirani's nested cross-validation interval.

    Algorithm 1: for each repetition ``r`` and outer fold ``k``, the inner
    K-1 fold CV on the rows outside fold ``k`` gives per-row errors
    ``e_in`` (models trained on ``(K-2)/K n`` rows) and the model trained
    outside fold ``k`` gives ``e_out`` on fold ``k``. With
    ``a = (mean(e_in) - mean(e_out))^2`` and ``b = var(e_out) / |fold k|``,
    ``MSE = (K-1)/K * (mean(a) - mean(b))`` estimates the MSE of the CV
    estimate for ``n`` rows. The standard error ``sqrt(max(MSE, 0))`` is
    kept between ``sd(e_in)/sqrt(n)`` (independent folds) and ``sqrt(K)``
    times that (fully dependent folds), as the authors' code does.

    The centre, with ``bias_correction=True``, is
    ``Err_NCV - (1 + (K-2)/K) (Err_NCV - Err_CV)``: the learning curve
    extrapolated from the inner (``(K-2)/K n``) and outer
    (``(K-1)/K n``) training sizes to ``n`` rows (exact for an error
    ``a + b / n_train``). ``Err_NCV`` is the mean of all inner errors and
    ``Err_CV`` the mean of all outer ones. Without it, ``Err_CV``.

    Parameters
    ----------
    inner : array-like of shape (..., R, K, n)
        ``inner[..., r, k, i]``: loss of row ``i`` in the inner CV of outer
        fold ``k`` (repetition ``r``); NaN (ignored) for the rows of fold
        ``k``.
    outer : array-like of shape (..., R, n)
        ``outer[..., r, i]``: loss of row ``i`` by the model trained outside
        its fold (ordinary K-fold CV).
    folds : array-like of int, shape (R, n)
        Fold of each row in each repetition.
    confidence : float, default=0.95
        Confidence level in (0, 1).
    bias_correction : bool, default=True
        Centre at the bias-corrected estimate for ``n`` rows (see above).
    conservative : bool, default=False
        Use the factors of the authors' ``nestedcv`` R package instead: the
        standard error of a CV on ``n_sub = floor(n (K-1)/K)`` rows
        (``sd(e_in)/sqrt(n_sub)`` for the clip, ``MSE`` not rescaled) and
        the bias factor ``1 + ((K-2)/K)^1.5``. About 10 % wider: an
        interval sized for the inner training size. ``generalization_ci``
        uses it: over the coverage study's cells it held where the default
        was too narrow (99 of 101 cells against 84).

    Returns
    -------
    CVInterval
        ``df = inf`` (normal quantile).

    References
    ----------
    Bates, Hastie & Tibshirani (2024), JASA 119, Sec. 4, Algorithm 1 and
    the bias correction (Sec. 4.3). The ``(K-1)/K`` rescaling of the MSE
    (the authors' recommendation for an interval about ``n`` rows), the
    clip of the standard error and the bias factor ``1 + (K-2)/K`` are
    exactly those of mlr3inferr's ``ci.ncv`` (the R implementation used in
    Schulz-Kümpel et al.'s benchmark); the test suite checks this function
    against a loop-by-loop transcription of it. Versions of the authors'
    ``nestedcv`` R package differ in these factors (e.g. a bias factor
    ``1 + ((K-2)/K)^1.5``, no rescaling and the standard error of a CV on
    ``(K-1)/K n`` rows): ``conservative=True``, about 10 % wider; the coverage
    study over datasets (docs/validity.rst) runs both.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._generalization import nested_cv_ci
    >>> folds = np.array([[0, 0, 1, 1, 2, 2]])
    >>> outer = np.array([[1.0, 0.0, 0.0, 1.0, 1.0, 1.0]])
    >>> inner = np.array([[[np.nan, np.nan, 0, 1, 1, 0],
    ...                    [1, 1, np.nan, np.nan, 1, 1],
    ...                    [0, 0, 1, 0, np.nan, np.nan]]])
    >>> ci = nested_cv_ci(inner, outer, folds)
    >>> print(f"{ci.estimate:.4f} se={ci.se:.4f}")
    0.6944 se=0.2635
    """
    x_in = _as_float(inner, "inner", min_ndim=3)
    x_out = _as_float(outer, "outer", min_ndim=2)
    confidence = _check_confidence(confidence)
    n = x_out.shape[-1]
    f, K = _check_folds(folds, n)
    R = f.shape[0]
    if K < 3:
        raise ValueError(f"nested CV needs at least K = 3 folds; `folds` has {K}.")
    if x_in.shape[-3:] != (R, K, n) or x_out.shape[-2:] != (R, n):
        raise ValueError(
            f"`inner` must have shape (..., R={R}, K={K}, n={n}) and `outer` "
            f"(..., R={R}, n={n}); got {x_in.shape} and {x_out.shape}."
        )
    own = f[:, None, :] == np.arange(K)[None, :, None]  # (R, K, n): row in fold k
    if np.any(np.isnan(x_in) != own) or np.any(np.isnan(x_out)):
        raise ValueError(
            "`inner` must be NaN exactly on the rows of the held-out outer fold "
            "(inner[..., r, k, i] with folds[r, i] == k) and finite elsewhere; "
            "`outer` must be finite."
        )
    cnt_out = own.sum(axis=-1)  # (R, K)
    cnt_in = n - cnt_out
    # outer errors per (r, k)
    out_k = np.where(own, x_out[..., :, None, :], 0.0)  # (..., R, K, n)
    m_out = out_k.sum(axis=-1) / cnt_out
    v_out = (np.sum(out_k**2, axis=-1) - cnt_out * m_out**2) / (cnt_out - 1)
    m_in = np.nansum(x_in, axis=-1) / cnt_in
    a = (m_in - m_out) ** 2
    b = v_out / cnt_out
    if conservative:  # the nestedcv R package's factors
        rescale, n_se, bias_factor = (
            1.0,
            np.floor(n * (K - 1) / K),
            1 + ((K - 2) / K) ** 1.5,
        )
    else:  # mlr3inferr's ci.ncv: an interval for n rows
        rescale, n_se, bias_factor = (K - 1) / K, n, 1 + (K - 2) / K
    mse = rescale * np.mean(a - b, axis=(-2, -1))
    err_ncv = np.nanmean(x_in, axis=(-3, -2, -1))
    err_cv = np.mean(x_out, axis=(-2, -1))
    sd_in = np.nanstd(x_in, axis=(-3, -2, -1), ddof=1)
    se_low = sd_in / np.sqrt(n_se)
    se = np.clip(np.sqrt(np.maximum(mse, 0.0)), se_low, np.sqrt(K) * se_low)
    est = err_ncv - bias_factor * (err_ncv - err_cv) if bias_correction else err_cv
    return _interval(est, se, np.inf, confidence, "nested-cv")


def holdout_ci(losses, *, confidence=0.95):
    """t interval on the per-row losses of one test set.

    ``mean +/- t_{m-1} * s / sqrt(m)`` over the ``m`` test rows: an interval
    for the score of the one fitted model (on the population the test rows
    come from), not for the algorithm retrained on other data.

    Parameters
    ----------
    losses : array-like of shape (..., m)
        Per-row loss (or score) of the fitted model on its test rows.
    confidence : float, default=0.95
        Confidence level in (0, 1).

    Returns
    -------
    CVInterval
        ``df = m - 1``.

    References
    ----------
    "Confidence Intervals for Model Performance", Sec. 2 (normal and t
    intervals on a test set).

    Examples
    --------
    >>> from skperf.stats._generalization import holdout_ci
    >>> ci = holdout_ci([1.0, 2.0, 3.0, 4.0])
    >>> print(f"{ci.estimate:.2f} [{ci.low:.3f}, {ci.high:.3f}]")
    2.50 [0.446, 4.554]
    """
    x = _as_float(losses, "losses")
    confidence = _check_confidence(confidence)
    m = x.shape[-1]
    if m < 2:
        raise ValueError(f"`losses` must hold at least 2 test rows; got {m}.")
    se = np.std(x, axis=-1, ddof=1) / np.sqrt(m)
    return _interval(np.mean(x, axis=-1), se, m - 1, confidence, "holdout")
