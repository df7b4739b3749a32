"""Group-sequential stopping rules for rounds of K-fold CV (pure NumPy/SciPy).

A design of ``R`` rounds (one round = one repetition of K-fold CV, every model
fitted on the same splits) is looked at after each round. This module holds
the statistics that decide, after round ``r``, whether to stop:

- :func:`spending`: Lan & DeMets (1983) alpha-spending functions of
  O'Brien-Fleming and Pocock type (two-sided).
- :func:`spending_bounds`: the two-sided group-sequential boundaries those
  functions give at arbitrary information fractions, by the recursive
  numerical integration of Armitage, McPherson & Rowe (1969) in the form of
  Jennison & Turnbull (2000, ch. 19).
- :func:`constant_bounds`: Pocock's (1977) and O'Brien & Fleming's (1979)
  original boundaries for equally spaced looks (checked against Jennison &
  Turnbull's Tables 2.1 and 2.3).
- :func:`information_fractions`: the information of the corrected resampled
  t (Nadeau & Bengio 2003) after ``r`` of ``R`` rounds,
  ``I_r = 1 / (1/(r K) + n_test/n_train)`` over ``I_R``.
- :func:`compare_look`: one look at a paired comparison: ``"decided"``,
  ``"futile"``, ``"continue"`` or (at the last look) ``"budget"``.
- :func:`interval_look`: one look at a single model's interval:
  ``"precise"``, ``"continue"`` or ``"budget"``.

Reading a z boundary for a t statistic
--------------------------------------
The boundaries are computed for normal statistics with independent
increments. The corrected t of the looks is turned into a decision through
its *nominal per-look level*: the z boundary ``c_k`` of look ``k`` is a
two-sided level ``p_k = 2 (1 - Phi(c_k))`` and the look rejects when the
corrected t's own p-value (t law, the design's degrees of freedom) is at most
``p_k``. This is a heuristic (the corrected t is neither normal nor exactly
t, and its increments are not independent); ``benchmarks/sequential_study.py``
measures the resulting error rate over datasets (docs/validity.rst).

References
----------
Pocock, S. J. (1977). Group sequential methods in the design and analysis of
clinical trials. Biometrika 64(2), 191-199.
O'Brien, P. C. & Fleming, T. R. (1979). A multiple testing procedure for
clinical trials. Biometrics 35(3), 549-556.
Lan, K. K. G. & DeMets, D. L. (1983). Discrete sequential boundaries for
clinical trials. Biometrika 70(3), 659-663 (the alpha-spending function and
its O'Brien-Fleming and Pocock types).
Armitage, P., McPherson, C. K. & Rowe, B. C. (1969). Repeated significance
tests on accumulating data. JRSS A 132(2), 235-244.
Jennison, C. & Turnbull, B. W. (2000). Group Sequential Methods with
Applications to Clinical Trials. Chapman & Hall (ch. 2: Tables 2.1 and 2.3;
ch. 7: error spending; ch. 9: repeated confidence intervals; ch. 10:
conditional power; ch. 19: numerical computation).
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error.
Machine Learning 52, 239-281 (Sec. 5, corrected resampled t).
Bouckaert, R. R. (2003). Choosing between two learning algorithms based on
calibrated tests. ICML 2003 (the calibrated K - 1 degrees of freedom of
repeated K-fold CV).
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from ._generalization import corrected_se
from ._paired_tests import _check_ratio
from ._paired_tests import _label as _paired_label
from ._results import _fmt, _freeze, _ResultMixin
from ._validation import _check_confidence

__all__ = [
    "SPENDING",
    "CompareLook",
    "IntervalLook",
    "compare_look",
    "constant_bounds",
    "crossing_probability",
    "default_looks",
    "detectable_difference",
    "information_fractions",
    "interval_look",
    "spending",
    "spending_bounds",
]

#: Spending-function families of :func:`spending`.
SPENDING = ("obrien-fleming", "pocock")

#: Grid size parameter of the numerical integration (Jennison & Turnbull's
#: ``r``; about ``12 r`` grid points per look). 32 gives boundaries to ~1e-6.
_GRID_R = 32


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def _check_kind(kind):
    if kind not in SPENDING:
        raise ValueError(f"`spending` must be one of {SPENDING}; got {kind!r}.")
    return kind


def _check_fractions(fractions):
    try:
        t = np.asarray(fractions, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"`fractions` must be an array of numbers in (0, 1]; got {fractions!r}."
        ) from None
    if t.ndim != 1 or t.size < 1:
        raise ValueError(
            f"`fractions` must be a non-empty 1-D array; got shape {t.shape}."
        )
    if not (np.all(np.isfinite(t)) and t[0] > 0 and t[-1] <= 1 + 1e-12):
        raise ValueError(f"`fractions` must lie in (0, 1]; got {t.tolist()}.")
    if np.any(np.diff(t) <= 0):
        raise ValueError(f"`fractions` must be strictly increasing; got {t.tolist()}.")
    return np.minimum(t, 1.0)


def _check_int(value, name, low=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an int >= {low}; got {value!r}.")
    if value < low:
        raise ValueError(f"`{name}` must be an int >= {low}; got {value!r}.")
    return int(value)


def _check_unit(value, name, *, allow_none=True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a float in (0, 1) or None; got {value!r}.")
    v = float(value)
    if not 0 < v < 1:
        raise ValueError(f"`{name}` must be in (0, 1) or None; got {value!r}.")
    return v


def _check_nonneg(value, name):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be None or a number >= 0; got {value!r}.")
    v = float(value)
    if not (math.isfinite(v) and v >= 0):
        raise ValueError(
            f"`{name}` must be None or a finite number >= 0; got {value!r}."
        )
    return v


# ---------------------------------------------------------------------------
# Spending functions and boundaries
# ---------------------------------------------------------------------------


def spending(t, *, kind="obrien-fleming", confidence=0.95):
    """Two-sided type I error spent up to information fraction ``t``.

    Lan & DeMets' (1983) functions, total ``alpha = 1 - confidence``:

    - ``"obrien-fleming"``: each side spends
      ``2 - 2 Phi(z_{1 - alpha/4} / sqrt(t))`` of its ``alpha / 2``
      (spends almost nothing early, boundaries close to O'Brien & Fleming's;
      the convention of R's ldbounds and gsDesign's ``sfLDOF``, whose
      two-sided 5 % boundaries for five equally spaced looks are 4.877,
      3.357, 2.680, 2.290, 2.031);
    - ``"pocock"``: ``alpha(t) = alpha ln(1 + (e - 1) t)`` (spends early,
      boundaries close to Pocock's constant ones).

    Parameters
    ----------
    t : float or array-like
        Information fractions in [0, 1].
    kind : {"obrien-fleming", "pocock"}, default="obrien-fleming"
        Spending-function family.
    confidence : float, default=0.95
        ``1 - alpha``: the type I error spent by ``t = 1``.

    Returns
    -------
    float or ndarray
        Cumulative two-sided type I error ``alpha(t)`` (0 at 0, alpha at 1).

    References
    ----------
    Lan & DeMets (1983), Biometrika 70, Sec. 3; Jennison & Turnbull (2000),
    Sec. 7.2.1.

    Examples
    --------
    >>> from skperf.stats._sequential import spending
    >>> print(f"{spending(0.5):.5f} {spending(0.5, kind='pocock'):.5f}")
    0.00305 0.03101
    """
    kind = _check_kind(kind)
    alpha = 1 - _check_confidence(confidence)
    t = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
    if kind == "pocock":
        out = alpha * np.log1p((math.e - 1) * t)
    else:
        z = stats.norm.isf(alpha / 4)  # per side: alpha / 2 in 2 - 2 Phi(z / sqrt t)
        with np.errstate(divide="ignore"):
            out = np.where(
                t > 0, 4 * stats.norm.sf(z / np.sqrt(np.maximum(t, 1e-300))), 0.0
            )
    return _freeze(out)


def _grid(lo, hi, mean, r=_GRID_R):
    """Simpson grid (points, weights) on ``[lo, hi]`` (J & T, Sec. 19.2.1)."""
    i = np.arange(1, 6 * r)
    x = np.where(
        i <= r - 1,
        mean - 3 - 4 * np.log(r / np.maximum(i, 1)),
        np.where(
            i <= 5 * r,
            mean - 3 + 3 * (i - r) / (2 * r),
            mean + 3 + 4 * np.log(r / np.maximum(6 * r - i, 1)),
        ),
    )
    x = np.unique(np.concatenate([[lo], x[(x > lo) & (x < hi)], [hi]]))
    z = np.empty(2 * x.size - 1)
    z[0::2] = x
    z[1::2] = (x[:-1] + x[1:]) / 2
    d = np.diff(x)
    w = np.zeros(z.size)
    w[0::2][:-1] += d / 6
    w[0::2][1:] += d / 6
    w[1::2] = 4 * d / 6
    return z, w


def _exit_prob(h, z_prev, info_prev, info, c, drift=0.0):
    """P(continue to look k - 1, then |Z_k| >= c) (upper, lower) from the
    sub-density ``h`` of Z_{k-1} on its grid ``z_prev``."""
    delta = info - info_prev
    sd = math.sqrt(delta)
    base = z_prev * math.sqrt(info_prev) + drift * delta
    upper = np.sum(h * stats.norm.sf((c * math.sqrt(info) - base) / sd))
    lower = np.sum(h * stats.norm.cdf((-c * math.sqrt(info) - base) / sd))
    return upper, lower


def _next_density(h, z_prev, info_prev, info, c, drift=0.0):
    """Sub-density of Z_k on its grid within (-c, c) (J & T, Sec. 19.2.2)."""
    delta = info - info_prev
    sd = math.sqrt(delta)
    z, w = _grid(-c, c, drift * math.sqrt(info))
    arg = (
        z[:, None] * math.sqrt(info)
        - z_prev[None, :] * math.sqrt(info_prev)
        - drift * delta
    ) / sd
    dens = w * (math.sqrt(info) / sd) * (stats.norm.pdf(arg) @ h)
    return z, dens


def _crossing_probs(bounds, info, drift=0.0):
    """Exit probabilities (upper, lower) per look for two-sided bounds ``+-c_k``
    on Z_k with ``E Z_k = drift sqrt(I_k)`` and ``corr(Z_j, Z_k) =
    sqrt(I_j / I_k)`` (canonical joint distribution, J & T Sec. 3.1)."""
    up, low = [], []
    h = z = None
    for k, (c, i_k) in enumerate(zip(bounds, info, strict=True)):
        if k == 0:
            m = drift * math.sqrt(i_k)
            up.append(stats.norm.sf(c - m))
            low.append(stats.norm.cdf(-c - m))
            if len(bounds) > 1:
                z, w = _grid(-c, c, m)
                h = w * stats.norm.pdf(z - m)
            continue
        u, lo = _exit_prob(h, z, info[k - 1], i_k, c, drift)
        up.append(u)
        low.append(lo)
        if k < len(bounds) - 1:
            z, h = _next_density(h, z, info[k - 1], i_k, c, drift)
    return np.array(up), np.array(low)


@functools.lru_cache(maxsize=512)
def _spending_bounds(fractions, kind, confidence, final):
    t = np.array(fractions)
    cum = np.array(spending(t, kind=kind, confidence=confidence), dtype=float)
    if final:
        cum[-1] = 1 - confidence
    inc = np.diff(np.r_[0.0, cum])
    bounds = []
    h = z = None
    for k, (t_k, a_k) in enumerate(zip(t, inc, strict=True)):
        if a_k <= 1e-15:
            c = np.inf
        elif k == 0:
            c = stats.norm.isf(a_k / 2)
        else:

            def excess(c, k=k, t_k=t_k, a_k=a_k, h=h, z=z):
                u, lo = _exit_prob(h, z, t[k - 1], t_k, c)
                return u + lo - a_k

            if excess(0.0) < 0:  # more to spend than the continuation holds
                c = 0.0
            else:
                c = optimize.brentq(excess, 0.0, 40.0, xtol=1e-10)
        bounds.append(c)
        if k < len(t) - 1:
            cc = min(c, 40.0)
            if k == 0:
                z, w = _grid(-cc, cc, 0.0)
                h = w * stats.norm.pdf(z)
            else:
                z, h = _next_density(h, z, t[k - 1], t_k, cc)
    return tuple(bounds)


def spending_bounds(fractions, *, kind="obrien-fleming", confidence=0.95, final=None):
    """Two-sided z boundaries at the given looks from a spending function.

    Look ``k`` at information fraction ``t_k`` rejects "no difference" when
    ``|Z_k| >= c_k``; ``c_k`` spends ``alpha(t_k) - alpha(t_{k-1})`` of the
    type I error (:func:`spending`) given that no earlier look rejected
    (Lan & DeMets 1983). The crossing probabilities are computed by the
    recursive numerical integration of Armitage, McPherson & Rowe (1969)
    (Jennison & Turnbull 2000, ch. 19: Simpson's rule on their grid).

    Parameters
    ----------
    fractions : array-like of shape (n_looks,)
        Information fractions of the looks so far, strictly increasing in
        (0, 1].
    kind : {"obrien-fleming", "pocock"}, default="obrien-fleming"
        Spending-function family.
    confidence : float, default=0.95
        ``1 - alpha``: the total two-sided type I error is ``alpha``.
    final : bool or None, default=None
        Spend all that is left of ``alpha`` at the last look (a final look
        before ``t = 1``, e.g. when the budget ends early). ``None``: only
        when the last fraction is 1.

    Returns
    -------
    ndarray of shape (n_looks,)
        z boundaries (``inf`` where nothing is spent).

    References
    ----------
    Lan & DeMets (1983), Biometrika 70; Jennison & Turnbull (2000), ch. 7
    and 19; Armitage, McPherson & Rowe (1969), JRSS A 132.

    Examples
    --------
    >>> from skperf.stats._sequential import spending_bounds
    >>> spending_bounds([0.2, 0.4, 0.6, 0.8, 1.0]).round(3)
    array([4.877, 3.357, 2.68 , 2.29 , 2.031])
    """
    t = _check_fractions(fractions)
    kind = _check_kind(kind)
    confidence = _check_confidence(confidence)
    if final is None:
        final = bool(t[-1] >= 1.0)
    key = tuple(np.round(t, 12).tolist())
    return np.array(_spending_bounds(key, kind, confidence, bool(final)))


def constant_bounds(n_looks, *, kind="pocock", confidence=0.95):
    """Pocock's or O'Brien & Fleming's boundaries for equally spaced looks.

    Pocock (1977): the same ``c`` at every look; O'Brien & Fleming (1979):
    ``c_k = C sqrt(K / k)``; the constant is such that the two-sided type I
    error over the ``K`` looks is ``alpha``.

    Parameters
    ----------
    n_looks : int
        Number ``K`` of equally spaced looks.
    kind : {"pocock", "obrien-fleming"}, default="pocock"
        Boundary family.
    confidence : float, default=0.95
        ``1 - alpha``.

    Returns
    -------
    ndarray of shape (n_looks,)
        z boundaries.

    References
    ----------
    Pocock (1977), Biometrika 64; O'Brien & Fleming (1979), Biometrics 35;
    Jennison & Turnbull (2000), Tables 2.1 (``C_P``) and 2.3 (``C_B``).

    Examples
    --------
    >>> from skperf.stats._sequential import constant_bounds
    >>> print(constant_bounds(5).round(3)[0])
    2.413
    >>> constant_bounds(5, kind="obrien-fleming").round(3)
    array([4.562, 3.226, 2.634, 2.281, 2.04 ])
    """
    K = _check_int(n_looks, "n_looks")
    kind = _check_kind(kind)
    alpha = 1 - _check_confidence(confidence)
    info = np.arange(1, K + 1) / K
    shape = np.ones(K) if kind == "pocock" else np.sqrt(K / np.arange(1, K + 1))

    def excess(C):
        u, lo = _crossing_probs(C * shape, info)
        return u.sum() + lo.sum() - alpha

    C = optimize.brentq(excess, stats.norm.isf(alpha / 2) * 0.5, 10.0, xtol=1e-10)
    return C * shape


def crossing_probability(bounds, fractions, *, drift=0.0):
    """Probability that ``|Z_k| >= c_k`` at some look (the level, or power).

    Parameters
    ----------
    bounds : array-like of shape (n_looks,)
        Two-sided z boundaries.
    fractions : array-like of shape (n_looks,)
        Information fractions of the looks.
    drift : float, default=0.0
        ``E Z_k = drift sqrt(t_k)`` (``drift``: the mean of ``Z`` at ``t = 1``).

    Returns
    -------
    float

    Examples
    --------
    >>> from skperf.stats._sequential import crossing_probability, spending_bounds
    >>> t = [0.2, 0.4, 0.6, 0.8, 1.0]
    >>> print(f"{crossing_probability(spending_bounds(t), t):.4f}")
    0.0500
    """
    t = _check_fractions(fractions)
    c = np.asarray(bounds, dtype=float)
    if c.shape != t.shape:
        raise ValueError(
            f"`bounds` and `fractions` must have the same shape; got {c.shape} "
            f"and {t.shape}."
        )
    up, low = _crossing_probs(np.minimum(c, 40.0), t, float(drift))
    return float(up.sum() + low.sum())


# ---------------------------------------------------------------------------
# The corrected t over rounds
# ---------------------------------------------------------------------------


def _information(r, n_splits, ratio):
    return 1.0 / (1.0 / (np.asarray(r, dtype=float) * n_splits) + ratio)


def information_fractions(max_rounds, *, n_splits, test_train_ratio):
    """Information of the corrected t after each of ``R`` rounds, over the last.

    With ``J = r K`` fold scores after ``r`` rounds of ``K``-fold CV, the
    corrected resampled t (Nadeau & Bengio 2003) has variance
    ``(1/J + n_test/n_train) sigma^2``, so its information is
    ``I_r = 1 / (1/(r K) + n_test/n_train)``: it is bounded by
    ``n_train/n_test`` whatever the number of rounds (the rounds reuse the same
    rows). For 10-fold CV the first round holds 57 % of the information of
    ten.

    Parameters
    ----------
    max_rounds : int
        Planned maximum number ``R`` of rounds.
    n_splits : int
        ``K`` of K-fold CV (splits per round).
    test_train_ratio : float
        ``n_test / n_train`` of the splits (``1 / (K - 1)`` for K-fold).

    Returns
    -------
    ndarray of shape (max_rounds,)
        ``I_r / I_R`` for ``r = 1..R``.

    References
    ----------
    Nadeau & Bengio (2003), Machine Learning 52, Sec. 5.

    Examples
    --------
    >>> from skperf.stats._sequential import information_fractions
    >>> information_fractions(5, n_splits=10, test_train_ratio=1 / 9).round(3)
    array([0.621, 0.814, 0.908, 0.963, 1.   ])
    """
    R = _check_int(max_rounds, "max_rounds")
    K = _check_int(n_splits, "n_splits", low=2)
    ratio = _check_ratio(test_train_ratio)
    info = _information(np.arange(1, R + 1), K, ratio)
    return info / info[-1]


def default_looks(max_rounds):
    """Efficacy looks of the default comparison rule: rounds 2 and ``R``.

    Chosen by ``benchmarks/sequential_study.py`` (docs/validity.rst; 1000
    datasets per cell, futility checked after every round): a boundary at
    every round of 10 x 10-fold CV lost up to 0.054 of the fixed design's
    power (each early look, read at ``r K - 1`` degrees of freedom, spends
    type I error that buys little power); looks at rounds 1, 3 and 10 lost
    up to 0.027, at rounds 2 and 10 up to 0.018 (median 20 fits where the
    difference was real, mean 30 % of the fixed design's fits).

    Parameters
    ----------
    max_rounds : int
        Planned maximum number of rounds ``R``.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> from skperf.stats._sequential import default_looks
    >>> default_looks(10), default_looks(2), default_looks(1)
    ((2, 10), (2,), (1,))
    """
    R = _check_int(max_rounds, "max_rounds")
    return tuple(sorted({min(2, R), R}))


def _resolve_df(df, rounds, n_splits):
    if isinstance(df, str):
        if df == "rk-1":
            return rounds * n_splits - 1
        if df == "k-1":
            return n_splits - 1
        raise ValueError(
            f"`df` must be 'rk-1', 'k-1' or a positive number; got {df!r}."
        )
    if isinstance(df, bool) or not isinstance(df, numbers.Real) or not df > 0:
        raise ValueError(
            f"`df` must be 'rk-1', 'k-1' or a positive number; got {df!r}."
        )
    return float(df)


def _check_rounds(values, name):
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"`{name}` must be an array of numbers; got {values!r}."
        ) from None
    if x.ndim != 2 or x.shape[1] < 2:
        raise ValueError(
            f"`{name}` must have shape (rounds, K) with K >= 2 folds per round; got "
            f"shape {x.shape}."
        )
    if not np.all(np.isfinite(x)):
        raise ValueError(f"`{name}` must be finite; got non-finite values.")
    return x


def _mean_var(x):
    """Mean and sample variance of all the fold scores so far (exactly 0 when
    they are all equal), as :func:`skperf.stats._generalization.corrected_moments`."""
    mean = float(np.mean(x))
    var = float(np.var(x, ddof=1)) if np.ptp(x) > 0 else 0.0
    return mean, var


def _two_sided_p(t, df):
    if not np.isfinite(t):
        return 0.0
    return float(2 * stats.t.sf(abs(t), df))


def _z_of_t(t, df):
    """The normal quantile with the same one-sided tail as ``|t|`` (t law)."""
    if not np.isfinite(t):
        return np.inf
    return float(stats.norm.isf(stats.t.sf(abs(t), df)))


def detectable_difference(se, *, df, confidence=0.95, power=0.8):
    """Smallest difference a two-sided t test detects with the given power.

    The test rejects at level ``1 - confidence`` when ``|d| / se`` exceeds
    the t quantile ``q`` (``df`` degrees of freedom); for a true difference
    ``delta`` the statistic follows a noncentral t with noncentrality
    ``delta / se``, and the result is the ``delta`` at which
    ``P(|T| >= q) = power``.

    Parameters
    ----------
    se : float
        Standard error of the difference at the design considered (e.g. the
        corrected t's ``sqrt((1/J + n_test/n_train) s^2)`` at the remaining
        budget).
    df : float
        Degrees of freedom of the test.
    confidence : float, default=0.95
        ``1 - level`` of the two-sided test (for a sequential design: one
        minus the nominal level of its last look).
    power : float, default=0.8
        Required power.

    Returns
    -------
    float
        The detectable difference, in the units of ``se`` (0 when
        ``se == 0``).

    Examples
    --------
    >>> from skperf.stats._sequential import detectable_difference
    >>> print(f"{detectable_difference(0.01, df=99):.4f}")
    0.0283
    """
    confidence = _check_confidence(confidence)
    power = _check_confidence(power, name="power")
    se = _check_nonneg(se, "se")
    if isinstance(df, bool) or not isinstance(df, numbers.Real) or not df > 0:
        raise ValueError(f"`df` must be a positive number; got {df!r}.")
    if se == 0:
        return 0.0
    q = stats.t.isf((1 - confidence) / 2, df)

    def pw(lam):
        return stats.nct.sf(q, df, lam) + stats.nct.cdf(-q, df, lam) - power

    if pw(0.0) >= 0:
        return 0.0
    hi = q + stats.norm.isf(1 - power) + 1
    while pw(hi) < 0:
        hi *= 2
    return float(se * optimize.brentq(pw, 0.0, hi, xtol=1e-10))


def fits_for_difference(
    *,
    difference,
    sd,
    n_splits=10,
    test_train_ratio=None,
    confidence=0.95,
    power=0.8,
    max_rounds=100,
):
    """Count the fits per model a repeated K-fold design needs to detect a difference.

    The planning side of :func:`detectable_difference`: the smallest number
    of rounds ``r`` (repetitions of ``n_splits``-fold CV) at which the
    corrected paired t (Nadeau & Bengio 2003, Sec. 5; ``r K - 1`` degrees of
    freedom) detects a true difference ``difference`` with probability
    ``power``, when the fold differences have standard deviation ``sd``
    (estimate it from a pilot run, e.g. one round). The corrected standard
    error ``sd sqrt(1/(r K) + n_test/n_train)`` cannot fall below
    ``sd sqrt(n_test/n_train)`` however many rounds run, so some differences
    cannot be detected on this dataset at all: the result is then None (more
    data, not more fits, is what would detect them).

    Parameters
    ----------
    difference : float
        The difference to detect (metric units, > 0).
    sd : float
        Standard deviation of the per-fold score differences (>= 0).
    n_splits : int, default=10
        Folds per round, K.
    test_train_ratio : float or None, default=None
        ``n_test / n_train``; None: ``1 / (K - 1)`` (K-fold).
    confidence : float, default=0.95
        ``1 -`` the level of the two-sided test.
    power : float, default=0.8
        Required power.
    max_rounds : int, default=100
        The search stops here (None past it).

    Returns
    -------
    int or None
        Fits per model (``r K``), or None when no number of rounds up to
        ``max_rounds`` detects ``difference``.

    Examples
    --------
    >>> from skperf.stats import fits_for_difference
    >>> fits_for_difference(difference=0.03, sd=0.02)   # fold differences' sd
    10
    >>> fits_for_difference(difference=0.02, sd=0.02)
    80
    >>> fits_for_difference(difference=0.015, sd=0.02) is None  # below n's floor
    True
    """
    K = _check_int(n_splits, "n_splits", low=2)
    ratio = 1 / (K - 1) if test_train_ratio is None else _check_ratio(test_train_ratio)
    if (
        isinstance(difference, bool)
        or not isinstance(difference, numbers.Real)
        or (not difference > 0)
    ):
        raise ValueError(f"`difference` must be a positive number; got {difference!r}.")
    sd = _check_nonneg(sd, "sd")
    R = _check_int(max_rounds, "max_rounds")
    for r in range(1, R + 1):
        se = float(corrected_se(sd**2, r * K, ratio))
        dd = detectable_difference(se, df=r * K - 1, confidence=confidence, power=power)
        if dd <= difference:
            return r * K
    return None


# ---------------------------------------------------------------------------
# One look
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CompareLook(_ResultMixin):
    """The state of a paired comparison after one round.

    Parameters
    ----------
    state : str
        ``"decided"`` (the corrected t crossed the boundary), ``"futile"``
        (see :func:`compare_look`), ``"continue"``, or ``"budget"`` (the last
        look, not decided).
    decision : str
        ``"better"``/``"worse"`` (A relative to B; ``", not meaningful"``
        when ``|estimate| <= rope``), ``"practically equivalent"`` or ``"no
        significant difference"``: :func:`~skperf.stats._paired_tests.paired_decision`'s words.
    reason : str
        One sentence on why this state.
    rounds, max_rounds : int
        Rounds done and the planned maximum.
    estimate : float
        Mean of the per-split differences ``A - B``.
    se : float
        Corrected standard error ``sqrt((1/(r K) + n_test/n_train) s^2)``.
    statistic : float
        Corrected t.
    df : float
        Degrees of freedom of this look's t.
    pvalue : float
        Two-sided p-value of this look's t as if it were the only look.
    level : float
        Nominal two-sided level of this look (the spending boundary): the
        look rejects when ``pvalue <= level``.
    low, high : float
        Repeated confidence interval (Jennison & Turnbull ch. 9): ``estimate
        +/- t_{df}(1 - level/2) se``; it excludes 0 exactly when decided.
    fraction : float
        Information fraction of this look.
    conditional_power : float
        Probability, were the difference the current estimate, that the last
        look rejects (NaN at the last look).
    detectable_difference : float
        Smallest difference detectable with 80 % power by the full design
        (the last look's level, the current spread).
    confidence : float
        Overall ``1 - alpha`` held over the looks.
    """

    state: str
    decision: str
    reason: str
    rounds: int
    max_rounds: int
    estimate: float
    se: float
    statistic: float
    df: float
    pvalue: float
    level: float
    low: float
    high: float
    fraction: float
    conditional_power: float
    detectable_difference: float
    confidence: float

    def __repr__(self):
        return (
            f"CompareLook(state={self.state!r}, decision={self.decision!r}, "
            f"rounds={self.rounds}/{self.max_rounds}, estimate={_fmt(self.estimate)}, "
            f"low={_fmt(self.low)}, high={_fmt(self.high)}, "
            f"pvalue={_fmt(self.pvalue)}, level={_fmt(self.level)}, "
            f"conditional_power={_fmt(self.conditional_power)}, "
            f"detectable_difference={_fmt(self.detectable_difference)})"
        )


def _look_plan(rounds, max_rounds, n_splits, ratio, kind, confidence, final, looks):
    """Fractions of the looks so far, this look's z bound and the final one."""
    t_all = information_fractions(max_rounds, n_splits=n_splits, test_train_ratio=ratio)
    if looks is None:  # a look after every round, past and future
        done = np.arange(1, rounds + 1)
        future = np.arange(rounds + 1, max_rounds + 1)
    else:  # the efficacy schedule given (and always the last round)
        done = np.unique([int(v) for v in looks if int(v) < rounds] + [rounds])
        future = np.unique(
            [int(v) for v in looks if rounds < int(v) <= max_rounds] + [max_rounds]
        )
        future = future[future > rounds]
    t = t_all[done - 1]
    c = spending_bounds(t, kind=kind, confidence=confidence, final=final)[-1]
    planned = np.unique(np.r_[done, future]).astype(int)
    c_final = spending_bounds(t_all[planned - 1], kind=kind, confidence=confidence)[-1]
    return float(t[-1]), float(c), float(c_final)


#: State codes of :func:`_compare_core` (index into this tuple).
_STATES = ("continue", "decided", "futile", "budget")


def _compare_core(
    mean, var, r, K, R, ratio, kind, confidence, df, rope, futility, final, looks
):
    """The look of :func:`compare_look` on arrays of means and variances
    (validated arguments; a batch of datasets at the same round). ``looks``:
    the efficacy schedule (None: every round); a round outside it only
    checks futility, its interval read at the final look's level."""
    mean = np.asarray(mean, dtype=float)
    var = np.asarray(var, dtype=float)
    last = bool(final) or r == R
    efficacy = looks is None or last or r in {int(v) for v in looks}
    if efficacy:
        t_r, c, c_final = _look_plan(r, R, K, ratio, kind, confidence, last, looks)
    else:
        _, _, c_final = _look_plan(R, R, K, ratio, kind, confidence, True, looks)
        t_r = float(information_fractions(R, n_splits=K, test_train_ratio=ratio)[r - 1])
        c = c_final
    dfr = _resolve_df(df, r, K)
    se = corrected_se(var, r * K, ratio)
    pos = se > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        tstat = np.where(pos, mean / np.where(pos, se, 1.0), np.sign(mean) * np.inf)
    tstat = np.where(~pos & (mean == 0), 0.0, tstat)
    tail = stats.t.sf(np.abs(tstat), dfr)
    p = 2 * tail
    level = float(2 * stats.norm.sf(c))
    q = float(stats.t.isf(level / 2, dfr)) if level > 0 else np.inf
    half = np.where(pos, q * se, 0.0)
    low, high = mean - half, mean + half
    level_final = level if last else float(2 * stats.norm.sf(c_final))
    if last:
        cp = np.full(mean.shape, np.nan)
    else:
        z = stats.norm.isf(tail)
        cp = stats.norm.cdf((z / math.sqrt(t_r) - c_final) / math.sqrt(1 - t_r))
    significant = (p <= level) & (level > 0) & efficacy
    equivalent = (rope > 0) & (low >= -rope) & (high <= rope)
    futile = ~last & (equivalent | ((futility is not None) & (cp < (futility or 0))))
    state = np.where(significant, 1, np.where(futile, 2, 3 if last else 0))
    return {
        "state": state,
        "significant": significant,
        "equivalent": equivalent,
        "pvalue": p,
        "statistic": tstat,
        "se": se,
        "low": low,
        "high": high,
        "conditional_power": cp,
        "level": level,
        "level_final": level_final,
        "df": float(dfr),
        "fraction": t_r,
    }


def compare_look(
    differences,
    *,
    test_train_ratio,
    max_rounds,
    confidence=0.95,
    spending="obrien-fleming",
    df="rk-1",
    rope=None,
    futility=0.1,
    power=0.8,
    final=False,
    looks="auto",
):
    """One look at a paired comparison over rounds of K-fold CV.

    After ``r`` rounds the corrected paired t (Nadeau & Bengio 2003) of the
    ``r K`` differences is compared with the group-sequential boundary of
    this look (:func:`spending_bounds` at the information fractions of
    :func:`information_fractions`), read through its nominal per-look level
    (module docstring). The run:

    - is **decided** when the t's p-value is at most the look's level: A is
      better (or worse) at the overall level ``1 - confidence`` held over
      all looks;
    - is **futile** (before the last look) when the repeated confidence
      interval lies within ``[-rope, rope]`` ("practically equivalent"), or
      when the conditional power under the current estimate is below
      ``futility``: were the true difference what the rounds so far
      estimate, the full design would reject with probability below
      ``futility`` (Jennison & Turnbull 2000, Sec. 10.2; non-binding:
      stopping for futility never raises the type I error);
    - else **continues**, or at the last look (``rounds == max_rounds`` or
      ``final``) stops with state ``"budget"``.

    Parameters
    ----------
    differences : array-like of shape (rounds, K)
        Per-split differences ``score_A - score_B``, one row per round (all
        rounds so far), one column per fold.
    test_train_ratio : float
        ``n_test / n_train`` of the splits (``1 / (K - 1)`` for K-fold).
    max_rounds : int
        Planned maximum number of rounds ``R`` (``max_fits / K``).
    confidence : float, default=0.95
        ``1 - alpha``: the two-sided type I error held over all looks.
    spending : {"obrien-fleming", "pocock"}, default="obrien-fleming"
        Lan-DeMets spending-function family.
    df : "rk-1", "k-1" or float, default="rk-1"
        Degrees of freedom of each look's t: ``r K - 1`` (Nadeau & Bengio,
        the fixed design's), ``K - 1`` (Bouckaert 2003's calibrated) or a
        number.
    rope : float or None, default=None
        Region of practical equivalence (metric units): an interval within
        ``[-rope, rope]`` stops as futile, a significant difference within
        it is "not meaningful".
    futility : float or None, default=0.1
        Conditional-power threshold for stopping as futile; None never stops
        for low conditional power.
    power : float, default=0.8
        Power of :attr:`CompareLook.detectable_difference`.
    final : bool, default=False
        This is the last look whatever ``max_rounds`` (the budget ended):
        it spends all the type I error left.
    looks : "auto", sequence of int or None, default="auto"
        Efficacy schedule: the rounds at which the boundary is tested
        (``"auto"``: :func:`default_looks`, rounds 2 and R;
        None: after every round; the last round always is). Other rounds only
        check futility (non-binding, so it costs no type I error) and read
        their interval at the last look's level. Lan-DeMets spending holds
        the level for any schedule fixed before the data are seen.

    Returns
    -------
    CompareLook

    References
    ----------
    Lan & DeMets (1983); O'Brien & Fleming (1979); Pocock (1977); Jennison
    & Turnbull (2000), ch. 7, 9, 10; Nadeau & Bengio (2003), Sec. 5;
    Bouckaert (2003).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._sequential import compare_look
    >>> rng = np.random.default_rng(0)
    >>> d = 0.04 + 0.015 * rng.standard_normal((2, 10))
    >>> compare_look(d[:1], test_train_ratio=1 / 9, max_rounds=10).state
    'continue'
    >>> look = compare_look(d, test_train_ratio=1 / 9, max_rounds=10)
    >>> look.state, look.decision, round(look.level, 4)
    ('decided', 'better', 0.0195)
    >>> d0 = np.array([[0.01, -0.02, 0.0, 0.02, -0.01, 0.0, 0.01, -0.01, 0.02, -0.02]])
    >>> compare_look(d0, test_train_ratio=1 / 9, max_rounds=10).state
    'futile'
    """
    x = _check_rounds(differences, "differences")
    r, K = x.shape
    R = _check_int(max_rounds, "max_rounds")
    if r > R:
        raise ValueError(f"`differences` holds {r} rounds, more than `max_rounds`={R}.")
    ratio = _check_ratio(test_train_ratio)
    confidence = _check_confidence(confidence)
    kind = _check_kind(spending)
    rope = _check_nonneg(rope, "rope") or 0.0
    futility = _check_unit(futility, "futility")
    power = _check_confidence(power, name="power")
    if isinstance(looks, str):
        if looks != "auto":
            raise ValueError(
                f"`looks` must be 'auto', None or a sequence of rounds; got {looks!r}."
            )
        looks = default_looks(R)
    elif looks is not None:
        looks = [_check_int(v, "looks") for v in looks]
    mean, var = _mean_var(x)
    o = _compare_core(
        mean,
        var,
        r,
        K,
        R,
        ratio,
        kind,
        confidence,
        df,
        rope,
        futility,
        bool(final),
        looks,
    )
    state = _STATES[int(o["state"])]
    p, level, cp = float(o["pvalue"]), o["level"], float(o["conditional_power"])
    dd = detectable_difference(
        float(corrected_se(var, R * K, ratio)),
        df=_resolve_df(df, R, K),
        confidence=1 - o["level_final"],
        power=power,
    )
    sign = int(np.sign(mean)) if bool(o["significant"]) else 0
    decision = _paired_label(sign, mean, rope, bool(o["equivalent"]))
    if state == "decided":
        reason = f"p = {p:.3g} <= this look's level {level:.3g} (round {r} of {R})"
    elif state == "futile" and o["equivalent"]:
        reason = f"the interval lies within +-rope = {rope:g}"
    elif state == "futile":
        reason = (
            f"conditional power {cp:.3g} < {futility:g}: at the current estimate "
            f"the full {R} rounds would not decide"
        )
    elif state == "budget":
        reason = f"the last look (round {r} of {R}) did not decide"
    else:
        reason = f"undecided after round {r} of {R}"
    return CompareLook(
        state,
        decision,
        reason,
        r,
        R,
        mean,
        float(o["se"]),
        float(o["statistic"]),
        o["df"],
        p,
        level,
        float(o["low"]),
        float(o["high"]),
        o["fraction"],
        cp,
        dd,
        confidence,
    )


@dataclass(frozen=True, eq=False)
class IntervalLook(_ResultMixin):
    """The state of a single model's interval after one round.

    Parameters
    ----------
    state : str
        ``"precise"`` (half-width at most ``precision``, or more rounds
        cannot narrow it materially), ``"continue"``, or ``"budget"`` (the
        last round).
    reason : str
        One sentence on why this state.
    rounds, max_rounds : int
        Rounds done and the planned maximum.
    estimate, low, high, se : float
        The corrected t interval (Nadeau & Bengio 2003) of the ``r K``
        scores with ``df`` degrees of freedom.
    df : float
        Degrees of freedom of the t quantile.
    half_width : float
        ``(high - low) / 2``.
    projected_half_width : float
        Half-width expected at ``max_rounds`` with the current spread.
    confidence : float
        Confidence level.
    """

    state: str
    reason: str
    rounds: int
    max_rounds: int
    estimate: float
    low: float
    high: float
    se: float
    df: float
    half_width: float
    projected_half_width: float
    confidence: float

    def __repr__(self):
        return (
            f"IntervalLook(state={self.state!r}, rounds={self.rounds}/"
            f"{self.max_rounds}, estimate={_fmt(self.estimate)}, low={_fmt(self.low)}, "
            f"high={_fmt(self.high)}, half_width={_fmt(self.half_width)}, "
            f"projected_half_width={_fmt(self.projected_half_width)})"
        )


def interval_look(
    scores,
    *,
    test_train_ratio,
    max_rounds,
    confidence=0.95,
    precision=None,
    df="k-1",
    narrowing=0.9,
    min_rounds=1,
    final=False,
):
    """One look at a single model's corrected t interval over rounds.

    Stops (``"precise"``) when the half-width is at most ``precision``, or
    when the rounds left cannot narrow it materially: the half-width
    projected at ``max_rounds`` with the current spread,
    ``t_{df_R} s sqrt(1/(R K) + n_test/n_train)``, is at least
    ``narrowing`` times the current one. The width is bounded by
    ``n_test/n_train`` (and, through ``df``, by ``K``), not by the number
    of rounds (Nadeau & Bengio 2003; Bouckaert 2003): with ``df="k-1"``,
    10-fold CV and ``narrowing=0.9`` the rule stops after 3 rounds whatever
    the data (the projected narrowing from round 3 to 10 is 8.5 %).

    Parameters
    ----------
    scores : array-like of shape (rounds, K)
        Fold scores, one row per round so far.
    test_train_ratio : float
        ``n_test / n_train`` (``1 / (K - 1)`` for K-fold).
    max_rounds : int
        Planned maximum number of rounds.
    confidence : float, default=0.95
        Confidence level.
    precision : float or None, default=None
        Target half-width in metric units.
    df : "k-1", "rk-1" or float, default="k-1"
        Degrees of freedom: ``K - 1`` (Bouckaert's calibrated reading, that
        of ``generalization_ci(method="auto")``), ``r K - 1`` or a number.
    narrowing : float or None, default=0.9
        Stop when the projected half-width is at least this share of the
        current one; None: only ``precision`` and the budget stop.
    min_rounds : int, default=1
        Never stop as precise before this many rounds.
    final : bool, default=False
        This is the last round (the budget ended).

    Returns
    -------
    IntervalLook

    References
    ----------
    Nadeau & Bengio (2003), Sec. 5; Bouckaert (2003).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats._sequential import interval_look
    >>> s = np.random.default_rng(0).normal(0.9, 0.03, size=(3, 10))
    >>> [interval_look(s[:r], test_train_ratio=1 / 9, max_rounds=10).state
    ...  for r in (1, 2, 3)]
    ['continue', 'continue', 'precise']
    """
    x = _check_rounds(scores, "scores")
    r, K = x.shape
    R = _check_int(max_rounds, "max_rounds")
    if r > R:
        raise ValueError(f"`scores` holds {r} rounds, more than `max_rounds`={R}.")
    ratio = _check_ratio(test_train_ratio)
    confidence = _check_confidence(confidence)
    precision = _check_nonneg(precision, "precision")
    narrowing = _check_unit(narrowing, "narrowing")
    min_rounds = _check_int(min_rounds, "min_rounds")
    mean, var = _mean_var(x)
    dfr, dfR = _resolve_df(df, r, K), _resolve_df(df, R, K)
    se = float(corrected_se(var, r * K, ratio))
    half = float(stats.t.isf((1 - confidence) / 2, dfr)) * se
    proj = float(stats.t.isf((1 - confidence) / 2, dfR)) * float(
        corrected_se(var, R * K, ratio)
    )
    last = bool(final) or r == R
    if precision is not None and half <= precision and r >= min_rounds:
        state, reason = "precise", f"half-width {half:.3g} <= precision {precision:g}"
    elif (
        narrowing is not None
        and r >= min_rounds
        and not last
        and (half == 0 or proj >= narrowing * half)
    ):
        state = "precise"
        reason = (
            f"{R} rounds would narrow the half-width only to {proj:.3g} (from "
            f"{half:.3g}): the width is bounded by n_test/n_train, not the rounds"
        )
        if precision is not None:  # asked for, and out of reach of more rounds
            reason = f"precision {precision:g} out of reach: {reason}"
    elif last:
        state, reason = "budget", f"the last round ({r} of {R})"
    else:
        state, reason = "continue", f"round {r} of {R}"
    return IntervalLook(
        state,
        reason,
        r,
        R,
        mean,
        mean - half,
        mean + half,
        se,
        dfr,
        half,
        proj,
        confidence,
    )
