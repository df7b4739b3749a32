"""Simultaneous confidence band for the whole quantile function.

The band inverts a confidence band ``F_n(x) -+ epsilon`` for the
distribution function: the exact one-sample Kolmogorov-Smirnov band
(``epsilon`` from the exact distribution of ``D_n``,
:data:`scipy.stats.kstwo`) or the Dvoretzky-Kiefer-Wolfowitz-Massart
band (``epsilon = sqrt(log(2 / alpha) / (2 n))``, valid for every ``n``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from ._results import _ResultMixin
from ._validation import _check_confidence, _check_method, _check_q, _check_sample

__all__ = ["QuantileBand", "quantile_band"]

_METHODS = frozenset({"auto", "ks", "dkw"})

# index tolerance: a level within this of a multiple of 1/n is moved to the
# conservative side (a smaller lower index, a larger upper index)
_TOL = 1e-9


def _epsilon(n, confidence, method):
    alpha = 1 - confidence
    if method == "dkw":
        return math.sqrt(math.log(2 / alpha) / (2 * n))
    eps = float(stats.kstwo.ppf(confidence, n))
    # never below the level: nudge up if the inverse fell short numerically
    while stats.kstwo.cdf(eps, n) < confidence:
        eps = math.nextafter(eps, 1.0) if eps < 1 else 1.0
    return eps


def _band_at(xs, u, eps):
    """Band of the quantile function at levels ``u`` (1-D) from sorted ``xs`` (..., n).

    Lower: ``Q(u) >= X_(ceil(n (u - eps)))`` (``-inf`` when ``u <= eps``);
    upper: ``Q(u) <= X_(ceil(n (u + eps)))`` (``inf`` when ``u + eps > 1``).
    """
    n = xs.shape[-1]
    i_lo = np.ceil(n * (u - eps) - _TOL).astype(np.int64)
    i_hi = np.ceil(n * (u + eps) + _TOL).astype(np.int64)
    i_hi = np.maximum(i_hi, 1)
    low = xs[..., np.clip(i_lo, 1, n) - 1]
    high = xs[..., np.clip(i_hi, 1, n) - 1]
    low = np.where(i_lo >= 1, low, -np.inf)
    high = np.where(i_hi <= n, high, np.inf)
    return low, high


def quantile_band(x, *, confidence=0.95, method="auto", q=None):
    """Distribution-free confidence band for the whole quantile function.

    Parameters
    ----------
    x : array-like of shape (n_samples,)
        Independent scores (at least 2).
    confidence : float, default=0.95
        Simultaneous confidence level in (0, 1).
    method : {"auto", "ks", "dkw"}, default="auto"
        ``"ks"`` (and ``"auto"``): exact one-sample Kolmogorov-Smirnov band;
        ``"dkw"``: Dvoretzky-Kiefer-Wolfowitz with Massart's constant, a
        closed form that is slightly wider.
    q : array-like of float or None, default=None
        Levels at which to tabulate the band (default: 0.001, ..., 0.999).
        :meth:`QuantileBand.at` reads it exactly at any level.

    Returns
    -------
    QuantileBand
        ``low``/``high`` at ``q``; ``epsilon`` is the half-width in
        probability.

    Notes
    -----
    With probability at least ``confidence``, ``|F_n(x) - F(x)| <=
    epsilon`` for every ``x``; then ``F_n^{-1}(u - epsilon) <= Q(u) <=
    F_n^{-1}(u + epsilon)`` for every level ``u`` at once (``F_n^{-1}`` is
    the sample quantile Q̂ of eq. 5). This holds for any distribution
    (conservative with ties). A band is the right statement when many
    levels, or the whole curve, are read off the same sample (e.g.
    reading tail quantiles off a plot); for one level chosen in advance the
    pointwise interval of :func:`quantile_ci` is shorter. The KS band is
    widest in relative terms in the tails: at ``u <= epsilon`` there is no
    lower bound (``-inf``).

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 5 (simultaneous
    statements); A. N. Kolmogorov (1933); P. Massart (1990), "The tight
    constant in the Dvoretzky-Kiefer-Wolfowitz inequality", Ann. Probab.
    18; R. Simard & P. L'Ecuyer (2011), J. Stat. Softw. 39 (exact D_n).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import quantile_band
    >>> x = np.random.default_rng(0).normal(0.9, 0.02, size=50)
    >>> band = quantile_band(x)
    >>> print(round(band.epsilon, 4), band.method)
    0.1884 ks
    >>> low, high = band.at(0.5)
    >>> print(f"[{low:.3f}, {high:.3f}]")
    [0.894, 0.911]
    """
    x = _check_sample(x, min_n=2)
    if x.ndim != 1:
        raise ValueError(f"`x` must be 1-D; got shape {x.shape}.")
    confidence = _check_confidence(confidence)
    method = _check_method(method, _METHODS)
    method = "ks" if method == "auto" else method
    grid = np.arange(1, 1000) / 1000 if q is None else np.atleast_1d(_check_q(q))
    xs = np.sort(x)
    eps = _epsilon(xs.size, confidence, method)
    low, high = _band_at(xs, grid, eps)
    return QuantileBand(
        q=grid,
        low=low,
        high=high,
        confidence=confidence,
        method=method,
        n=xs.size,
        epsilon=eps,
        sorted_scores=xs,
    )


def _pyplot(what):
    """``matplotlib.pyplot``, imported lazily; ``what`` names the caller.

    Raises ImportError ``"<what> needs matplotlib: pip install matplotlib."``
    when it is not installed (the one place skperf imports pyplot for a plot
    method).
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the env
        raise ImportError(f"{what} needs matplotlib: pip install matplotlib.") from exc
    return plt


def _plot_band(band, ax, orientation, **kwargs):
    """Draw a band as a filled step region (matplotlib imported lazily)."""
    if orientation not in ("ecdf", "quantile"):
        raise ValueError(
            f"`orientation` must be 'ecdf' or 'quantile'; got {orientation!r}."
        )
    plt = _pyplot("QuantileBand.plot")
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    xs, eps, n = band.sorted_scores, band.epsilon, band.n
    kwargs.setdefault("alpha", 0.25)
    kwargs.setdefault("label", f"{band.confidence:.0%} band ({band.method})")
    # the band for F: F_n(x) -+ eps, clipped to [0, 1], a step function
    # that changes at the observations
    f = np.arange(n + 1) / n
    x_edges = np.r_[xs[0] - 0.05 * (xs[-1] - xs[0] or 1), xs]
    lo_f, hi_f = np.clip(f - eps, 0, 1), np.clip(f + eps, 0, 1)
    if orientation == "ecdf":
        ax.fill_between(x_edges, lo_f, hi_f, step="post", **kwargs)
        ax.set_ylabel("F(score)")
        ax.set_xlabel("score")
    else:
        finite = np.isfinite(band.low) & np.isfinite(band.high)
        lo = np.where(np.isfinite(band.low), band.low, xs[0])
        hi = np.where(np.isfinite(band.high), band.high, xs[-1])
        ax.fill_between(band.q, lo, hi, step="post", **kwargs)
        if not finite.all():
            ax.text(
                0.01,
                0.98,
                "unbounded where the band leaves the data range",
                transform=ax.transAxes,
                va="top",
                fontsize="small",
            )
        ax.set_xlabel("level u")
        ax.set_ylabel("Q(u)")
    return ax


@dataclass(frozen=True, eq=False)
class QuantileBand(_ResultMixin):
    """A confidence band holding for the whole quantile function at once.

    Built by :func:`skperf.stats.quantile_band` and
    :meth:`PerformanceDistribution.quantile_band`. With probability at least
    ``confidence``, ``low(u) <= Q(u) <= high(u)`` for *every* level ``u`` in
    (0, 1) simultaneously.

    Parameters
    ----------
    q : ndarray
        Levels at which the band is tabulated.
    low, high : ndarray
        Band at ``q`` (``-inf``/``inf`` where the sample says nothing).
    confidence : float
        Simultaneous confidence level.
    method : str
        ``"ks"`` (exact Kolmogorov-Smirnov) or ``"dkw"``
        (Dvoretzky-Kiefer-Wolfowitz-Massart).
    n : int
        Sample size.
    epsilon : float
        Half-width of the band for the distribution function:
        ``|F_n(x) - F(x)| <= epsilon`` for all ``x``.
    sorted_scores : ndarray
        The sorted sample (read-only), from which :meth:`at` reads the band
        at any level.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import quantile_band
    >>> band = quantile_band(np.random.default_rng(0).normal(size=100))
    >>> print(band.method, round(band.epsilon, 4))
    ks 0.134
    >>> low, high = band.at([0.25, 0.5, 0.75])
    >>> print(np.round(low, 2), np.round(high, 2))
    [-1.18 -0.32  0.36] [-0.29  0.36  1.37]
    """

    q: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence: float
    method: str
    n: int
    epsilon: float
    sorted_scores: np.ndarray = field(repr=False)

    def __post_init__(self):
        for name in ("q", "low", "high", "sorted_scores"):
            arr = np.array(getattr(self, name), dtype=float)
            arr.flags.writeable = False
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "confidence", float(self.confidence))
        object.__setattr__(self, "epsilon", float(self.epsilon))
        object.__setattr__(self, "n", int(self.n))

    def at(self, q):
        """The band at levels ``q``.

        Parameters
        ----------
        q : float or array-like of float
            Levels in (0, 1).

        Returns
        -------
        low, high : float or ndarray
            Bounds of the quantile function at ``q`` (floats for scalar
            ``q``).
        """
        from ._validation import _check_q

        u = _check_q(q)
        low, high = _band_at(self.sorted_scores, np.atleast_1d(u), self.epsilon)
        if u.ndim == 0:
            return float(low[0]), float(high[0])
        return low, high

    def to_frame(self):
        """Return one row per tabulated level: ``q``, ``low``, ``high``.

        Returns
        -------
        pandas.DataFrame
            Columns ``q``, ``low``, ``high``.
        """
        import pandas as pd

        return pd.DataFrame({"q": self.q, "low": self.low, "high": self.high})

    def to_dict(self):
        """Return the fields as a plain dict (arrays as lists).

        Returns
        -------
        dict
            Field name to value (without the sorted scores).
        """
        out = super().to_dict()
        out.pop("sorted_scores")
        return out

    def plot(self, ax=None, *, orientation="ecdf", **kwargs):
        """Draw the band (needs matplotlib).

        Parameters
        ----------
        ax : matplotlib.axes.Axes or None, default=None
            Axes to draw into (a new figure when ``None``).
        orientation : {"ecdf", "quantile"}, default="ecdf"
            ``"ecdf"``: scores on the x axis, levels on the y axis (to lay
            over :meth:`PerformanceDistribution.plot`); ``"quantile"``:
            levels on the x axis.
        **kwargs
            Passed to ``ax.fill_between`` (e.g. ``color``, ``alpha``).

        Returns
        -------
        matplotlib.axes.Axes
            The axes drawn into.
        """

        return _plot_band(self, ax, orientation, **kwargs)

    def __repr__(self):
        return (
            f"QuantileBand(confidence={self.confidence:g}, method={self.method!r}, "
            f"n={self.n}, epsilon={self.epsilon:.4g}, levels={self.q.size})"
        )
