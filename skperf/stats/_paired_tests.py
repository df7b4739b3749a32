"""Paired tests of two learning algorithms on new data (pure NumPy/SciPy).

The statistics behind :func:`skperf.compare_generalization`, as functions of
the per-split score differences ``d_j = score_A(split j) - score_B(split j)``
of two algorithms fitted on the *same* train/test splits. Their target is
``"new data"``: the difference of the expected scores of the two algorithms
trained on about ``n_train`` rows of the same population (not the spread of
the differences over re-splits of this one dataset, which is far narrower).

- :func:`corrected_paired_t`: Nadeau & Bengio (2003) corrected resampled t,
  as recommended for repeated K-fold by Bouckaert & Frank (2004).
- :func:`combined_5x2cv_f`: Alpaydin's (1999) combined 5x2cv F test.
- :func:`bayesian_correlated_t`: Corani & Benavoli's (2015) correlated
  Bayesian t-test, with a region of practical equivalence (rope).
- :func:`paired_decision`: the one rule mapping any of these results (and a
  rope) to the decision strings of :func:`skperf.compare_generalization`.

Every function takes the differences on the last axis; leading axes are a
batch (one test per slice).

References
----------
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error.
Machine Learning 52, 239-281 (Sec. 5, corrected resampled t).
Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of
significance tests for comparing learning algorithms. PAKDD 2004, LNCS 3056,
3-12 (Sec. 3-4: the corrected t on r x K-fold, df = rK - 1).
Alpaydin, E. (1999). Combined 5 x 2 cv F test for comparing supervised
classification learning algorithms. Neural Computation 11(8), 1885-1892
(eq. 3).
Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing
cross-validated algorithms on multiple data sets. Machine Learning 100,
285-304 (Sec. 3, the correlated Bayesian t-test, eq. 8-9).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._generalization import corrected_moments
from ._results import _fmt, _freeze, _is_borderline, _ResultMixin
from ._validation import _check_confidence, _check_rope, _check_sample

__all__ = [
    "DECISIONS",
    "PairedDifferenceTest",
    "bayesian_correlated_t",
    "combined_5x2cv_f",
    "corrected_paired_t",
    "detectable_difference_5x2cv_f",
    "paired_decision",
]

#: Every decision string :func:`paired_decision` can return.
DECISIONS = (
    "better",
    "worse",
    "no significant difference",
    "practically equivalent",
    "better, not meaningful",
    "worse, not meaningful",
)


@dataclass(frozen=True, eq=False)
class PairedDifferenceTest(_ResultMixin):
    """A paired test of ``A - B`` over resampled train/test splits.

    Scalar fields are Python floats; with batch input (leading axes) the
    numeric fields are read-only arrays of the batch shape.

    Parameters
    ----------
    estimate : float
        Mean of the per-split differences ``A - B``.
    low, high : float
        Confidence interval (credible interval for ``"bayesian"``) for the
        difference of expected scores on new data. NaN for ``"5x2cv-f"`` when
        the F test rejects every constant difference (see
        :func:`combined_5x2cv_f`).
    pvalue : float or None
        Two-sided p-value of "no difference" (None for ``"bayesian"``).
    statistic : float
        t statistic (``"corrected-t"``), F statistic (``"5x2cv-f"``), or the
        posterior mean over its scale (``"bayesian"``).
    df : float
        Degrees of freedom of the reference t (denominator df of the F).
    n : int
        Number of per-split differences.
    confidence : float
        Confidence level of the interval.
    method : str
        ``"corrected-t"``, ``"5x2cv-f"`` or ``"bayesian"``.
    rope : float or None, default=None
        Half-width of the region of practical equivalence the posterior
        probabilities use (``"bayesian"``).
    p_better, p_rope, p_worse : float or None, default=None
        Posterior ``P(A - B > rope)``, ``P(|A - B| <= rope)``,
        ``P(A - B < -rope)`` (``"bayesian"`` only).
    target : str, default="new data"
        What the interval and test are about.
    borderline : bool or ndarray of bool or None, default=None
        Whether the decision is borderline (:func:`_decision_borderline`):
        ``pvalue`` within a factor of 2 of ``1 - confidence`` either way, or
        for ``"bayesian"`` the largest posterior probability's complement
        ``1 - max(p_better, p_worse, p_rope)`` so. None: computed.

    Examples
    --------
    >>> from skperf.stats._paired_tests import corrected_paired_t
    >>> corrected_paired_t([0.02, 0.01, 0.03, 0.0], test_train_ratio=1 / 3)
    PairedDifferenceTest(target='new data', method='corrected-t', estimate=0.015, low=-0.01638, high=0.04638, pvalue=0.2255, statistic=1.521, df=3, n=4, confidence=0.95)
    """

    estimate: float
    low: float
    high: float
    pvalue: float | None
    statistic: float
    df: float
    n: int
    confidence: float
    method: str
    rope: float | None = None
    p_better: float | None = None
    p_rope: float | None = None
    p_worse: float | None = None
    target: str = "new data"
    borderline: bool | None = None

    def __post_init__(self):
        for name in (
            "estimate",
            "low",
            "high",
            "pvalue",
            "statistic",
            "p_better",
            "p_rope",
            "p_worse",
        ):
            object.__setattr__(self, name, _freeze(getattr(self, name)))
        object.__setattr__(self, "df", float(self.df))
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "confidence", float(self.confidence))
        if self.rope is not None:
            object.__setattr__(self, "rope", float(self.rope))
        if self.borderline is None:
            borderline = _decision_borderline(self)[0]
            object.__setattr__(self, "borderline", _freeze(borderline, dtype=bool))

    def __repr__(self):
        parts = [
            f"target={self.target!r}",
            f"method={self.method!r}",
            f"estimate={_fmt(self.estimate)}",
            f"low={_fmt(self.low)}",
            f"high={_fmt(self.high)}",
        ]
        if self.pvalue is not None:
            parts.append(f"pvalue={_fmt(self.pvalue)}")
        parts += [
            f"statistic={_fmt(self.statistic)}",
            f"df={self.df:g}",
            f"n={self.n}",
            f"confidence={self.confidence:g}",
        ]
        if self.p_better is not None:
            parts += [
                f"rope={self.rope:g}",
                f"p_better={_fmt(self.p_better)}",
                f"p_rope={_fmt(self.p_rope)}",
                f"p_worse={_fmt(self.p_worse)}",
            ]
        return f"PairedDifferenceTest({', '.join(parts)})"


def _check_ratio(test_train_ratio):
    if isinstance(test_train_ratio, bool) or not isinstance(
        test_train_ratio, numbers.Real
    ):
        raise TypeError(
            "`test_train_ratio` must be a positive float (n_test / n_train, e.g. "
            f"1 / (K - 1) for K-fold); got {test_train_ratio!r}."
        )
    r = float(test_train_ratio)
    if not (np.isfinite(r) and r > 0):
        raise ValueError(
            "`test_train_ratio` must be a positive finite float (n_test / n_train, "
            f"e.g. 1 / (K - 1) for K-fold); got {test_train_ratio!r}."
        )
    return r


def _decision_borderline(result):
    """``(borderline, what, value)`` of a paired test's decision.

    Frequentist: the two-sided ``pvalue`` within a factor of 2 of ``alpha
    = 1 - confidence`` either way (``0.025 <= p < 0.10`` at 95 %).
    ``"bayesian"``: the same rule on ``1 - P`` with ``P`` the largest of
    ``p_better``, ``p_worse`` and (rope > 0) ``p_rope``, the probability
    the decision reads. Either way, a decision another seed can flip.
    """
    alpha = 1 - float(result.confidence)
    if getattr(result, "method", None) == "bayesian" and result.p_better is not None:
        probs = [np.asarray(result.p_better), np.asarray(result.p_worse)]
        if result.rope:
            probs.append(np.asarray(result.p_rope))
        top = np.max(np.stack(np.broadcast_arrays(*probs)), axis=0)
        value = 1 - top
        what = "1 - max(p_better, p_worse, p_rope)"
    else:
        value = result.pvalue
        what = "p"
    if value is None:
        return False, what, None
    return _is_borderline(value, alpha), what, value


def _t_test(mean, se, df, confidence):
    """Interval, two-sided p and t with exact handling of ``se == 0``."""
    q = stats.t.ppf(0.5 + confidence / 2, df)
    pos = se > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(pos, mean / np.where(pos, se, 1.0), np.sign(mean) * np.inf)
    t = np.where(~pos & (mean == 0), 0.0, t)
    p = np.where(pos, 2 * stats.t.sf(np.abs(t), df), np.where(mean == 0, 1.0, 0.0))
    return mean - q * se, mean + q * se, p, t


def corrected_paired_t(differences, *, test_train_ratio, confidence=0.95):
    """Corrected resampled paired t-test of two algorithms (Nadeau & Bengio).

    Over ``J`` paired per-split differences ``d`` (score of A minus score of
    B on the same train/test split),
    ``t = mean(d) / sqrt((1/J + n_test/n_train) * var(d))`` with
    ``df = J - 1``. The term ``n_test/n_train`` corrects the variance for the
    overlap of the training sets of different splits; without it, the
    ordinary paired t over re-splits calls a tie "significant" far too often.

    Parameters
    ----------
    differences : array-like of shape (..., J)
        Per-split differences ``score_A - score_B`` (last axis); leading
        axes are a batch.
    test_train_ratio : float
        ``n_test / n_train`` of the splits: ``1 / (K - 1)`` for (repeated)
        K-fold, e.g. ``1/9`` for 10-fold.
    confidence : float, default=0.95
        Confidence level of the interval (and ``1 - confidence`` the level of
        the test).

    Returns
    -------
    PairedDifferenceTest
        ``method="corrected-t"``, two-sided ``pvalue``, ``statistic`` (t),
        ``df = J - 1``. When all differences are equal the variance is 0:
        the interval has zero width at the mean and ``pvalue`` is 0 (mean not
        0) or 1 (mean 0).

    Raises
    ------
    ValueError
        If ``J < 2``, a difference is not finite, or an argument is out of
        range.

    Notes
    -----
    For ``r`` repetitions of K-fold, ``J = rK`` and ``test_train_ratio =
    1/(K-1)``: Bouckaert & Frank (2004) found this "corrected repeated
    K-fold" test (10 x 10) the most replicable of the tests they studied,
    with a type I error close to nominal. Its target is the difference of
    expected scores on new data of the two algorithms trained on
    ``n_train`` rows.

    References
    ----------
    Nadeau & Bengio (2003), Machine Learning 52, Sec. 5 (corrected
    resampled t); Bouckaert & Frank (2004), PAKDD, Sec. 3 (r x K-fold,
    df = rK - 1).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._paired_tests import corrected_paired_t
    >>> d = np.array([0.02, 0.01, 0.03, 0.0, 0.02, 0.01, 0.04, 0.01, 0.02, 0.03])
    >>> res = corrected_paired_t(d, test_train_ratio=1 / 9)
    >>> print(f"{res.estimate:.3f} [{res.low:.4f}, {res.high:.4f}] p={res.pvalue:.4f}")
    0.019 [0.0066, 0.0314] p=0.0072
    """
    d = _check_sample(differences, min_n=2, name="differences")
    ratio = _check_ratio(test_train_ratio)
    confidence = _check_confidence(confidence)
    J = d.shape[-1]
    mean, se = corrected_moments(d, ratio)
    low, high, p, t = _t_test(mean, se, J - 1, confidence)
    return PairedDifferenceTest(
        mean, low, high, p, t, J - 1, J, confidence, "corrected-t"
    )


def combined_5x2cv_f(differences, *, confidence=0.95):
    """Alpaydin's combined 5x2cv F test of two algorithms.

    Five repetitions of 2-fold cross-validation give differences ``p_ij``
    (repetition ``i``, fold ``j``). With ``s_i^2 = sum_j (p_ij - pbar_i)^2``,
    ``F = sum_ij p_ij^2 / (2 sum_i s_i^2)`` follows approximately an
    ``F(10, 5)`` law under the null of equal expected scores.

    Parameters
    ----------
    differences : array-like of shape (..., 5, 2)
        Differences ``score_A - score_B`` on the two folds of each of the five
        repetitions (last two axes); leading axes are a batch.
    confidence : float, default=0.95
        Confidence level of the interval (``1 - confidence`` the level of the
        test).

    Returns
    -------
    PairedDifferenceTest
        ``method="5x2cv-f"``, ``estimate`` the mean of the ten differences,
        ``statistic`` F, ``df = 5`` (the denominator df; the numerator df is
        10), ``n = 10``. ``low``/``high`` invert the F test: the constant
        shifts ``delta`` for which ``F(p - delta)`` is not rejected, i.e.
        ``pbar +/- sqrt((2 F_crit S - SS) / 10)`` with ``S = sum_i s_i^2``
        and ``SS = sum_ij (p_ij - pbar)^2``. The interval contains 0 exactly
        when ``pvalue >= 1 - confidence``; it is empty (NaN) when the test
        rejects every constant difference (the repetitions disagree far more
        than the folds within them).

    Notes
    -----
    The F test is non-directional; :func:`paired_decision` takes the sign
    of a significant difference from ``estimate``. Each model trains on
    ``n/2`` rows, so the target is the difference of expected scores on new
    data of the algorithms trained on half the data. Alpaydin (1999) shows
    a type I error below nominal and more power than Dietterich's 5x2cv t.
    When all ``s_i^2`` are 0, ``F`` is infinite (``pvalue = 0``) unless all
    differences are 0 (``F = 0``, ``pvalue = 1``).

    References
    ----------
    Alpaydin (1999), Neural Computation 11(8), eq. (3); Dietterich (1998),
    Neural Computation 10(7), Sec. 3.5 (the 5x2cv design).

    Examples
    --------
    >>> from skperf.stats._paired_tests import combined_5x2cv_f
    >>> d = [[0.02, 0.04], [0.01, 0.03], [0.03, 0.05], [0.0, 0.02], [0.02, 0.0]]
    >>> res = combined_5x2cv_f(d)
    >>> print(f"F={res.statistic:.3f} p={res.pvalue:.4f} [{res.low:.4f}, {res.high:.4f}]")
    F=3.600 p=0.0850 [-0.0047, 0.0487]
    """
    try:
        d = np.asarray(differences, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"`differences` must be an array of numbers; got {differences!r}."
        ) from None
    if d.ndim < 2 or d.shape[-2:] != (5, 2):
        raise ValueError(
            "`differences` must have shape (..., 5, 2): 5 repetitions of 2-fold "
            f"cross-validation on the last two axes; got shape {d.shape}."
        )
    d = _check_sample(d.reshape(*d.shape[:-2], 10), min_n=10, name="differences")
    d = d.reshape(*d.shape[:-1], 5, 2)
    confidence = _check_confidence(confidence)
    s2 = np.sum((d - d.mean(axis=-1, keepdims=True)) ** 2, axis=-1)  # (..., 5)
    S = np.sum(s2, axis=-1)
    num = np.sum(d**2, axis=(-2, -1))
    pos = S > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        F = np.where(pos, num / (2 * np.where(pos, S, 1.0)), np.inf)
    F = np.where(~pos & (num == 0), 0.0, F)
    p = np.where(pos, stats.f.sf(F, 10, 5), np.where(num == 0, 1.0, 0.0))
    mean = np.mean(d, axis=(-2, -1))
    ss = np.sum((d - mean[..., None, None]) ** 2, axis=(-2, -1))
    f_crit = stats.f.ppf(confidence, 10, 5)
    rad2 = (2 * f_crit * S - ss) / 10
    with np.errstate(invalid="ignore"):
        half = np.where(rad2 >= 0, np.sqrt(np.maximum(rad2, 0.0)), np.nan)
    return PairedDifferenceTest(
        mean, mean - half, mean + half, p, F, 5, 10, confidence, "5x2cv-f"
    )


def detectable_difference_5x2cv_f(differences, *, confidence=0.95, power=0.8):
    """Smallest difference Alpaydin's combined 5x2cv F test detects with ``power``.

    Under the test's own model (Alpaydin 1999, Sec. 2: the ten differences
    ``p_ij`` independent normal with mean ``delta`` and variance
    ``sigma^2``), ``sum_ij p_ij^2 = 2 sum_i pbar_i^2 + S`` with ``S =
    sum_i s_i^2``, and the repetition means ``pbar_i`` are independent of
    ``S``: ``F = 1/2 + F'/2`` exactly, ``F'`` a noncentral ``F(5, 5)`` with
    noncentrality ``lambda = 10 delta^2 / sigma^2``. (Under the null this
    is why the test's level sits below nominal: 0.0175 at 0.05.) The result
    is ``sigma_hat sqrt(lambda / 10)`` with ``lambda`` the noncentrality at
    which ``P(F' > 2 F_crit - 1) = power`` (:data:`scipy.stats.ncf`;
    ``F_crit`` the test's ``F(10, 5)`` quantile) and ``sigma_hat^2 = S /
    5``, the test's own variance estimate.

    Parameters
    ----------
    differences : array-like of shape (5, 2)
        Differences ``score_A - score_B``, as :func:`combined_5x2cv_f`.
    confidence : float, default=0.95
        ``1 - level`` of the test.
    power : float, default=0.8
        Required power.

    Returns
    -------
    float
        The detectable difference in the metric's units (0 when the folds
        of every repetition agree, ``sum_i s_i^2 = 0``).

    Examples
    --------
    >>> from skperf.stats._paired_tests import detectable_difference_5x2cv_f
    >>> d = [[0.02, 0.04], [0.01, 0.03], [0.03, 0.05], [0.0, 0.02], [0.02, 0.0]]
    >>> print(f"{detectable_difference_5x2cv_f(d):.4f}")
    0.0349
    """
    from scipy import optimize

    d = np.asarray(differences, dtype=float)
    if d.shape != (5, 2):
        raise ValueError(
            "`differences` must have shape (5, 2): 5 repetitions of 2-fold "
            f"cross-validation; got shape {d.shape}."
        )
    _check_sample(d.ravel(), min_n=10, name="differences")
    confidence = _check_confidence(confidence)
    power = _check_confidence(power, name="power")
    S = float(np.sum((d - d.mean(axis=-1, keepdims=True)) ** 2))
    if S == 0:
        return 0.0
    # F > F_crit exactly when F' = 2 F - 1 > 2 F_crit - 1
    f_prime = 2 * stats.f.ppf(confidence, 10, 5) - 1

    def short(lam):  # power at noncentrality lam, minus the required power
        return stats.ncf.sf(f_prime, 5, 5, lam) - power

    if short(0.0) >= 0:  # power at most the test's level under the null
        return 0.0
    hi = 10.0
    while short(hi) < 0:
        hi *= 2
    lam = optimize.brentq(short, 0.0, hi, xtol=1e-10)
    return float(np.sqrt(S / 5 * lam / 10))


def bayesian_correlated_t(differences, *, test_train_ratio, rope=0.0, confidence=0.95):
    """Corani & Benavoli's correlated Bayesian t-test of two algorithms.

    With a non-informative prior, the posterior of the expected difference
    ``A - B`` on new data is a Student t with ``df = J - 1``, location
    ``mean(d)`` and scale ``sqrt((1/J + rho/(1 - rho)) var(d))``, where
    ``rho = n_test / (n_train + n_test)`` is the correlation between the
    differences of two splits (``rho/(1 - rho) = n_test/n_train``, so the
    scale equals the standard error of :func:`corrected_paired_t`).

    Parameters
    ----------
    differences : array-like of shape (..., J)
        Per-split differences ``score_A - score_B`` (last axis).
    test_train_ratio : float
        ``n_test / n_train`` of the splits (``1 / (K - 1)`` for K-fold).
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in the metric's
        units: differences within ``[-rope, rope]`` count as equivalent.
    confidence : float, default=0.95
        Probability of the equal-tailed credible interval ``low``/``high``.

    Returns
    -------
    PairedDifferenceTest
        ``method="bayesian"``; ``p_better = P(A - B > rope)``,
        ``p_rope = P(|A - B| <= rope)``, ``p_worse = P(A - B < -rope)``
        under the posterior; ``pvalue`` is None; ``statistic`` is the
        posterior location over its scale. With zero variance the posterior
        is a point mass at the mean.

    Notes
    -----
    The decision (:func:`paired_decision`) reads these three probabilities
    and nothing else: ``"better"`` when ``P(A - B > rope) > confidence``,
    ``"worse"`` when ``P(A - B < -rope) > confidence``, ``"practically
    equivalent"`` when ``P(|A - B| <= rope) > confidence`` (rope > 0),
    otherwise undecided (``"no significant difference"``).

    The posterior probabilities equal one-sided p-values of the corrected
    t (``p_worse = pvalue / 2`` for a positive t and ``rope = 0``), so a
    decision ``p_better > 0.95`` is a one-sided test at 5 % per side; the
    credible interval ``low``/``high`` is two-sided (2.5 % per tail), so a
    "better" with ``0.95 < p_better <= 0.975`` sits beside an interval that
    reaches past ``rope``; such a call is ``borderline``.

    References
    ----------
    Corani & Benavoli (2015), Machine Learning 100, Sec. 3 (eq. 8-9: the
    correlated Bayesian t-test; ``rho = n_test / n``); Benavoli, Corani,
    Demsar & Zaffalon (2017), JMLR 18(77), Sec. 4 (the rope).

    Examples
    --------
    >>> from skperf.stats._paired_tests import bayesian_correlated_t
    >>> d = [0.02, 0.01, 0.03, 0.0, 0.02, 0.01, 0.04, 0.01, 0.02, 0.03]
    >>> res = bayesian_correlated_t(d, test_train_ratio=1 / 9, rope=0.01)
    >>> print(f"{res.p_worse:.4f} {res.p_rope:.4f} {res.p_better:.4f}")
    0.0003 0.0679 0.9319
    """
    d = _check_sample(differences, min_n=2, name="differences")
    ratio = _check_ratio(test_train_ratio)
    rope = _check_rope(rope)
    confidence = _check_confidence(confidence)
    J = d.shape[-1]
    mean, scale = corrected_moments(d, ratio)
    low, high, _, t = _t_test(mean, scale, J - 1, confidence)
    pos = scale > 0
    sc = np.where(pos, scale, 1.0)
    law = stats.t(J - 1)
    p_better = np.where(pos, law.sf((rope - mean) / sc), (mean > rope) * 1.0)
    p_worse = np.where(pos, law.cdf((-rope - mean) / sc), (mean < -rope) * 1.0)
    inside = law.cdf((rope - mean) / sc) - law.cdf((-rope - mean) / sc)
    p_rope = np.where(pos, np.maximum(inside, 0.0), (abs(mean) <= rope) * 1.0)
    return PairedDifferenceTest(
        mean,
        low,
        high,
        None,
        t,
        J - 1,
        J,
        confidence,
        "bayesian",
        rope=rope,
        p_better=p_better,
        p_rope=p_rope,
        p_worse=p_worse,
    )


def _label(sign, estimate, rope, equivalent):
    """Decision string from a significant sign (-1, 0, +1) and the rope."""
    if sign != 0:
        word = "better" if sign > 0 else "worse"
        if rope > 0 and abs(estimate) <= rope:
            return f"{word}, not meaningful"
        return word
    if rope > 0 and equivalent:
        return "practically equivalent"
    return "no significant difference"


def paired_decision(result, *, rope=None):
    """The decision string of a paired test, with an optional rope.

    One rule for every method of :func:`skperf.compare_generalization`:

    - frequentist (``"corrected-t"``, ``"5x2cv-f"``, ``"nested-cv"`` ...):
      the difference is *significant* when ``pvalue < 1 - confidence``
      (for the t methods: the interval excludes 0), in the direction of
      ``estimate``; it is *meaningful* when ``|estimate| > rope``; a
      difference that is not significant is *practically equivalent* when
      the whole interval lies within ``[-rope, rope]`` (two one-sided tests
      at ``1 - confidence``);
    - ``"bayesian"``: the decision follows the posterior probabilities the
      result holds, and only them: ``"better"`` when ``p_better = P(A - B >
      rope) > confidence``, ``"worse"`` when ``p_worse = P(A - B < -rope) >
      confidence``, ``"practically equivalent"`` when ``p_rope = P(|A - B|
      <= rope) > confidence`` (rope > 0), otherwise undecided: ``"no
      significant difference"`` (never ``"..., not meaningful"``: a
      difference not shown to exceed the rope is not called better).

    Parameters
    ----------
    result : PairedDifferenceTest or object
        Anything with ``estimate``, ``low``, ``high``, ``confidence``,
        ``method`` and ``pvalue`` (or, for ``method="bayesian"``, a
        :class:`PairedDifferenceTest` from :func:`bayesian_correlated_t`).
        Scalar results only.
    rope : float or None, default=None
        Half-width of the region of practical equivalence in the metric's
        units; None (or 0) gives only ``"better"``, ``"worse"`` and
        ``"no significant difference"``. For ``"bayesian"`` the default is
        the rope the posterior probabilities were computed with.

    Returns
    -------
    str
        One of :data:`DECISIONS`: ``"better"``, ``"worse"``, ``"no
        significant difference"``, ``"practically equivalent"``, ``"better,
        not meaningful"``, ``"worse, not meaningful"`` (A relative to B).

    References
    ----------
    Benavoli, Corani, Demsar & Zaffalon (2017), JMLR 18(77), Sec. 4 (rope
    decisions at posterior probability 0.95); Bouthillier et al. (2021),
    Sec. 4.1 (significant vs meaningful).

    Examples
    --------
    >>> from skperf.stats._paired_tests import corrected_paired_t, paired_decision
    >>> d = [0.02, 0.01, 0.03, 0.0, 0.02, 0.01, 0.04, 0.01, 0.02, 0.03]
    >>> res = corrected_paired_t(d, test_train_ratio=1 / 9)
    >>> paired_decision(res), paired_decision(res, rope=0.05)
    ('better', 'better, not meaningful')
    """
    estimate = float(result.estimate)
    confidence = float(result.confidence)
    if result.method == "bayesian":
        r = result.rope
        if rope is not None and _check_rope(rope) != r:
            raise ValueError(
                f"`rope`={rope!r} differs from the rope={r!r} the posterior "
                "probabilities were computed with; call bayesian_correlated_t "
                "with this rope."
            )
        if result.p_better > confidence:
            return "better"
        if result.p_worse > confidence:
            return "worse"
        if r and result.p_rope > confidence:
            return "practically equivalent"
        return "no significant difference"
    r = _check_rope(rope)
    significant = result.pvalue < 1 - confidence
    sign = int(np.sign(estimate)) if significant else 0
    low, high = float(result.low), float(result.high)
    equivalent = bool(-r <= low and high <= r)
    return _label(sign, estimate, r, equivalent)
