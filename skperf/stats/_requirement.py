"""Requirements on the score distribution (Lehmann & Paromau, Sec. 5).

"The score is at least ``threshold`` with probability at least
``probability``" is a statement about the quantile at level
``q = 1 - probability`` (``q = probability`` for losses, "at most"). It is
decided by one-sided exact bounds: Clopper-Pearson bounds on the count of
runs meeting the threshold, which are dual to order-statistic bounds of the
quantile (Wilks' tolerance limits; Sec. 3.2.1, eq. 8).

Every computation is written in terms of ``j = n - K``, the number of runs
*not* meeting the threshold, and the binomial distribution ``Bin(n, q)`` of
that number when the quantile sits exactly at the threshold; the verdict,
the order-statistic bound and the planning functions all read the same
binomial tail, so they agree exactly, also with ties at the threshold.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._validation import _check_confidence, _check_method, _check_sample

#: Largest n the planners search; beyond it they raise.
_N_MAX = 10_000_000

__all__ = [
    "Requirement",
    "requirement",
    "requirement_n_needed",
    "requirement_power",
    "requirement_sample_size",
]

_METHODS = frozenset({"auto", "exact"})

#: A score within this many units of floating-point rounding (ulps, relative
#: to the larger magnitude) of the threshold counts as meeting it.
_THRESHOLD_ULPS = 4


def _meets(x, threshold, greater_is_better=True):
    """Boolean mask of the scores that meet ``threshold``, up to a few ulps.

    ``x >= threshold`` (``<=`` for losses) with a tolerance of
    :data:`_THRESHOLD_ULPS` units in the last place of the larger magnitude,
    as :func:`numpy.isclose` with ``rtol = 4 * eps`` and ``atol = 0``: the
    mean of the folds ``[0.85, 0.95]`` is ``0.8999999999999999`` in floating
    point, which meets the threshold 0.9 exactly as the true mean does. A
    genuinely lower score differs by far more than rounding.
    """
    x = np.asarray(x, dtype=float)
    tol = _THRESHOLD_ULPS * np.finfo(float).eps * np.maximum(np.abs(x), abs(threshold))
    if greater_is_better:
        return x >= threshold - tol
    return x <= threshold + tol


_VERDICT_NAMES = np.array(["met", "not met", "inconclusive"], dtype=object)


def _check_threshold(threshold):
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
        raise TypeError(f"`threshold` must be a real number; got {threshold!r}.")
    if not math.isfinite(float(threshold)):
        raise ValueError(f"`threshold` must be finite; got {threshold!r}.")
    return float(threshold)


def _requirement_kwargs(requirement, confidence):
    """Keyword arguments of a ``requirement(...)`` call from its short forms.

    ``requirement`` is a threshold, a ``(threshold, probability)`` tuple or a
    dict of keywords; ``confidence`` is used unless the dict sets it.
    """
    if isinstance(requirement, dict):
        kw = dict(requirement)
    elif isinstance(requirement, tuple | list):
        if not 1 <= len(requirement) <= 2:
            raise ValueError(
                "`requirement` as a sequence must be (threshold,) or "
                f"(threshold, probability); got {len(requirement)} values: "
                f"{tuple(requirement)!r}. Use a dict for other keywords."
            )
        kw = dict(zip(("threshold", "probability"), requirement, strict=False))
    else:
        kw = {"threshold": requirement}
    kw.setdefault("confidence", confidence)
    return kw


def _j_met(n, q, confidence):
    """Largest j with P(Bin(n, q) <= j) <= 1 - confidence (-1 if none).

    "met" iff the number of runs not meeting the threshold is at most this.
    """
    n = np.asarray(n, dtype=np.int64)
    alpha = 1 - confidence
    m0 = stats.binom.ppf(alpha, n, q).astype(np.int64)
    best = np.full(n.shape, -1, dtype=np.int64)
    # ppf is the smallest m with cdf(m) >= alpha: j* is m0 - 1 or m0; the
    # window absorbs floating-point noise in ppf
    for d in range(-3, 4):
        j = m0 + d
        ok = (j >= 0) & (j <= n) & (stats.binom.cdf(j, n, q) <= alpha)
        best = np.where(ok & (j > best), j, best)
    return best


def _l_not_met(n, q, confidence):
    """Smallest j with P(Bin(n, q) >= j) <= 1 - confidence (n + 1 if none).

    "not met" iff the number of runs not meeting the threshold is at least
    this.
    """
    n = np.asarray(n, dtype=np.int64)
    alpha = 1 - confidence
    m0 = stats.binom.isf(alpha, n, q).astype(np.int64)
    best = n + 1
    for d in range(-3, 5):
        j = m0 + d
        ok = (j >= 0) & (j <= n) & (stats.binom.sf(j - 1, n, q) <= alpha)
        best = np.where(ok & (j < best), j, best)
    return best


def _verdict_codes(j, n, q, confidence):
    """0 met, 1 not met, 2 inconclusive, from j runs not meeting out of n."""
    j = np.asarray(j)
    met = j <= _j_met(n, q, confidence)
    not_met = j >= _l_not_met(n, q, confidence)
    return np.where(met, 0, np.where(not_met, 1, 2))


def _n_needed(probability, confidence):
    """Smallest n with probability**n <= 1 - confidence."""
    alpha = 1 - confidence
    n = max(1, math.ceil(math.log(alpha) / math.log(probability)))
    while stats.binom.cdf(0, n, 1 - probability) > alpha:
        n += 1
    while n > 1 and stats.binom.cdf(0, n - 1, 1 - probability) <= alpha:
        n -= 1
    return n


def requirement_n_needed(probability=0.9, *, confidence=0.95):
    """Smallest number of runs at which a requirement can be verified at all.

    Parameters
    ----------
    probability : float, default=0.9
        Required probability of meeting the threshold, in (0, 1).
    confidence : float, default=0.95
        Confidence level in (0, 1).

    Returns
    -------
    int
        Smallest ``n`` with ``1 - probability**n >= confidence``: below it
        even ``n`` runs that all meet the threshold leave the verdict
        inconclusive.

    Notes
    -----
    This is Wilks' sample size for a one-sided distribution-free tolerance
    limit (the smallest order statistic as lower bound of the
    ``1 - probability`` quantile), the one-sided counterpart of eq. 9.

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 3.2.1 (eqs. 8-9) and
    Sec. 5; S. S. Wilks (1941), "Determination of sample sizes for setting
    tolerance limits", Ann. Math. Statist. 12.

    Examples
    --------
    >>> from skperf.stats import requirement_n_needed
    >>> requirement_n_needed(0.9), requirement_n_needed(0.95, confidence=0.95)
    (29, 59)
    """
    probability = _check_confidence(probability, name="probability")
    confidence = _check_confidence(confidence)
    return _n_needed(probability, confidence)


def requirement_power(n, share, *, probability=0.9, confidence=0.95):
    """Probability of the verdict "met" at ``n`` runs when the true share is ``share``.

    Parameters
    ----------
    n : int or array-like of int
        Number of runs (at least 1).
    share : float or array-like of float
        True probability that one run meets the threshold, in [0, 1].
    probability : float, default=0.9
        Required probability.
    confidence : float, default=0.95
        Confidence level.

    Returns
    -------
    float or ndarray
        Exact binomial probability of ``"met"``. For ``share < probability``
        this is the rate of a wrong ``"met"``, at most ``1 - confidence``.

    Examples
    --------
    >>> from skperf.stats import requirement_power
    >>> print(round(requirement_power(60, 0.97, probability=0.9), 3))
    0.459
    >>> print(round(requirement_power(60, 0.9, probability=0.9), 3))
    0.014
    """
    probability = _check_confidence(probability, name="probability")
    confidence = _check_confidence(confidence)
    n = np.asarray(n)
    if n.dtype.kind not in "iu" or np.any(n < 1):
        raise ValueError(f"`n` must be an int >= 1 (or an array of them); got {n!r}.")
    share = np.asarray(share, dtype=float)
    if np.any(~((share >= 0) & (share <= 1))):
        raise ValueError(f"`share` must be in [0, 1]; got {share!r}.")
    j = _j_met(n, 1 - probability, confidence)
    out = np.where(j >= 0, stats.binom.cdf(j, n, 1 - share), 0.0)
    return float(out) if out.ndim == 0 else out


def _requirement_iv(x, threshold, probability, confidence, method, greater_is_better):
    x = _check_sample(x, min_n=2)
    if x.ndim != 1:
        raise ValueError(f"`x` must be 1-D; got shape {x.shape}.")
    threshold = _check_threshold(threshold)
    probability = _check_confidence(probability, name="probability")
    confidence = _check_confidence(confidence)
    method = _check_method(method, _METHODS)
    if not isinstance(greater_is_better, bool | np.bool_):
        raise TypeError(
            f"`greater_is_better` must be a bool; got {greater_is_better!r}."
        )
    return x, threshold, probability, confidence, bool(greater_is_better)


def requirement(
    x,
    threshold,
    *,
    probability=0.9,
    confidence=0.95,
    method="auto",
    greater_is_better=True,
):
    """Decide whether "score >= ``threshold`` with probability >= ``probability``" holds.

    Parameters
    ----------
    x : array-like of shape (n_samples,)
        Scores of independent runs (at least 2).
    threshold : float
        The score a run should reach.
    probability : float, default=0.9
        Required probability of reaching it, in (0, 1).
    confidence : float, default=0.95
        Confidence level of the one-sided bounds, in (0, 1).
    method : {"auto", "exact"}, default="auto"
        ``"exact"`` (and ``"auto"``): Clopper-Pearson bounds on the count of
        runs meeting the threshold. No sharper method is offered: a test
        that is not exact can say "met" too often just below
        ``probability``.
    greater_is_better : bool, default=True
        ``False`` for losses: the statement is then "score at most
        ``threshold``".

    Returns
    -------
    Requirement
        The verdict, the deciding order-statistic bound of the quantile at
        level ``q``, the share of runs meeting the threshold and its
        bounds, and ``n_needed``.

    Notes
    -----
    Let ``K`` of ``n`` runs meet the threshold (score ``>= threshold``;
    ``<=`` for losses) and ``pi`` be the true probability of meeting it.
    The verdict is

    - ``"met"`` when the one-sided Clopper-Pearson lower bound of ``pi``
      is at least ``probability``, i.e. ``P(Bin(n, probability) >= K) <=
      1 - confidence``;
    - ``"not met"`` when the one-sided upper bound is below
      ``probability``, i.e. ``P(Bin(n, probability) <= K) <= 1 -
      confidence``;
    - ``"inconclusive"`` otherwise.

    A score within 4 units of floating-point rounding of the threshold
    (``numpy.isclose`` with ``rtol = 4 * eps``, ``atol = 0``) meets it: the
    mean of the folds ``[0.85, 0.95]`` is ``0.8999999999999999`` and meets
    the threshold 0.9, as the exact mean does.

    Each of "met" and "not met" is wrong with probability at most ``1 -
    confidence``, for every distribution of the scores (continuous or not)
    and every ``n``. The same decision, stated for the quantile: "met" iff
    the order statistic ``X_(k)`` is at least the threshold, where
    ``X_(k)`` is the exact one-sided lower confidence bound of the
    ``q = 1 - probability`` quantile (``P(Bin(n, q) >= k) >= confidence``,
    eq. 8); ``bound`` reports it. ``"met"`` needs at least ``n_needed``
    runs (29 at 0.9 / 0.95): below that even a perfect record is
    inconclusive.

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 3.2.1 (eq. 8) and
    Sec. 5 ("the accuracy drops below 90 % with probability at most 10 %");
    C. J. Clopper & E. S. Pearson (1934), Biometrika 26; S. S. Wilks (1941),
    Ann. Math. Statist. 12.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import requirement
    >>> acc = np.random.default_rng(0).normal(0.93, 0.01, size=60)
    >>> r = requirement(acc, 0.9, probability=0.9)
    >>> print(r.verdict, r.n_meeting, f"{r.bound:.4f}", f"{r.share_low:.3f}")
    met 60 0.9171 0.951
    >>> r = requirement(acc[:20], 0.9, probability=0.9)
    >>> print(r.verdict, r.n, r.n_needed)
    inconclusive 20 29
    """
    x, threshold, probability, confidence, gib = _requirement_iv(
        x, threshold, probability, confidence, method, greater_is_better
    )
    n = x.size
    xp = x if gib else -x
    q = 1 - probability  # level of the quantile of xp the statement is about
    meeting = int(np.count_nonzero(_meets(x, threshold, gib)))
    j = n - meeting
    j_met = int(_j_met(n, q, confidence))
    l_not = int(_l_not_met(n, q, confidence))
    code = 0 if j <= j_met else (1 if j >= l_not else 2)
    # order-statistic bounds of the q-quantile of xp (1-based k = j_met + 1)
    need = [i for i in (j_met + 1, l_not) if 1 <= i <= n]
    part = np.partition(xp, [i - 1 for i in need]) if need else xp
    low = part[j_met] if j_met + 1 >= 1 else -np.inf
    high = part[l_not - 1] if l_not <= n else np.inf
    bound = high if code == 1 else low
    if not gib:
        bound = -bound
    alpha = 1 - confidence
    share_low = stats.beta.ppf(alpha, meeting, n - meeting + 1) if meeting else 0.0
    share_high = (
        stats.beta.ppf(confidence, meeting + 1, n - meeting) if meeting < n else 1.0
    )
    return Requirement(
        verdict=str(_VERDICT_NAMES[code]),
        threshold=threshold,
        probability=probability,
        q=q if gib else probability,
        bound=bound,
        estimate=meeting / n,
        confidence=confidence,
        method="exact",
        n=n,
        n_needed=_n_needed(probability, confidence),
        n_meeting=meeting,
        share_low=share_low,
        share_high=share_high,
        greater_is_better=gib,
    )


def requirement_sample_size(share, *, probability=0.9, confidence=0.95, power=0.8):
    """Compute the runs needed for the verdict "met" with probability ``power``.

    Parameters
    ----------
    share : float
        Planning value of the true probability that a run meets the
        threshold (e.g. the share in a pilot run), in (``probability``, 1].
    probability : float, default=0.9
        Required probability of the requirement.
    confidence : float, default=0.95
        Confidence level of the verdict.
    power : float, default=0.8
        Wanted probability of the verdict "met", in (0, 1).

    Returns
    -------
    int
        The smallest ``n`` from which on (checked up to twice the first
        ``n`` reaching ``power``) the exact probability of "met" is at
        least ``power``. The power of an exact binomial decision is a
        sawtooth in ``n``; this ``n`` does not sit on a tooth. Never below
        ``n_needed`` (:func:`requirement_n_needed`).

    Raises
    ------
    ValueError
        When ``share <= probability``: then "met" comes at most at rate
        ``1 - confidence``, whatever ``n``.

    References
    ----------
    Lehmann & Paromau, "Beyond Point Estimates", Sec. 5.

    Examples
    --------
    >>> from skperf.stats import requirement_sample_size
    >>> requirement_sample_size(1.0)
    29
    >>> requirement_sample_size(0.97, power=0.8)
    89
    """
    probability = _check_confidence(probability, name="probability")
    confidence = _check_confidence(confidence)
    power = _check_confidence(power, name="power")
    if isinstance(share, bool) or not isinstance(share, numbers.Real):
        raise TypeError(f"`share` must be a float in (probability, 1]; got {share!r}.")
    share = float(share)
    if not (probability < share <= 1):
        raise ValueError(
            f"`share` must be in (probability, 1] = ({probability:g}, 1]; got "
            f"{share!r}. At a share at or below `probability` the verdict 'met' "
            f"comes at most at rate {1 - confidence:.3g} for any n."
        )
    n0 = _n_needed(probability, confidence)
    q = 1 - probability

    def power_at(ns):
        j = _j_met(ns, q, confidence)
        return np.where(j >= 0, stats.binom.cdf(j, ns, 1 - share), 0.0)

    lo = n0
    first = None
    while first is None:
        ns = np.arange(lo, 2 * lo + 100)
        ok = power_at(ns) >= power
        if ok.any():
            first = int(ns[np.argmax(ok)])
        lo = 2 * lo + 100
        if lo > _N_MAX:
            raise ValueError(f"more than {_N_MAX} runs needed at share {share:g}.")
    ns = np.arange(first, 2 * first + 1)
    ok = power_at(ns) >= power
    bad = np.flatnonzero(~ok)
    return int(ns[bad[-1] + 1]) if bad.size else first


#: Verdicts of :class:`Requirement`.
VERDICTS = ("met", "not met", "inconclusive")


@dataclass(frozen=True)
class Requirement:
    """Verdict on "score at least ``threshold`` with probability at least ``probability``".

    Built by :func:`skperf.stats.requirement` and
    :meth:`PerformanceDistribution.requirement`. For losses
    (``greater_is_better=False``) the statement is "score at most
    ``threshold``".

    Parameters
    ----------
    verdict : {"met", "not met", "inconclusive"}
        ``"met"``: the one-sided lower confidence bound of the share of runs
        meeting the threshold is at least ``probability``; ``"not met"``:
        its upper confidence bound is below ``probability``; otherwise
        ``"inconclusive"``.
    threshold : float
        The score every run should reach.
    probability : float
        Required probability of reaching it.
    q : float
        The quantile level the statement is about: ``1 - probability``
        (``probability`` for losses).
    bound : float
        The one-sided confidence bound of the ``q``-quantile of the scores
        that decided (an order statistic; may be infinite when ``n`` is too
        small): the lower bound (upper for losses) for ``"met"`` and
        ``"inconclusive"``, the opposite bound for ``"not met"``.
    estimate : float
        Share of runs meeting the threshold.
    confidence : float
        Confidence level of the one-sided bounds.
    method : str
        ``"exact"``: Clopper-Pearson bounds on the count of runs meeting the
        threshold (dual to order-statistic bounds of the quantile).
    n : int
        Number of runs.
    n_needed : int
        Smallest ``n`` at which ``"met"`` is possible at all (every run
        meeting the threshold): ``1 - probability**n >= confidence``.
    n_meeting : int
        Number of runs meeting the threshold.
    share_low, share_high : float
        One-sided Clopper-Pearson bounds (each at ``confidence``) of the
        share of runs meeting the threshold.
    greater_is_better : bool, default=True
        Direction of the score.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.stats import requirement
    >>> r = requirement(np.linspace(0.91, 0.95, 40), 0.9, probability=0.9)
    >>> r.verdict, r.n_needed
    ('met', 29)
    """

    verdict: str
    threshold: float
    probability: float
    q: float
    bound: float
    estimate: float
    confidence: float
    method: str
    n: int
    n_needed: int
    n_meeting: int
    share_low: float
    share_high: float
    greater_is_better: bool = True

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(
                f"`verdict` must be one of {VERDICTS}; got {self.verdict!r}."
            )
        for name in (
            "threshold",
            "probability",
            "q",
            "bound",
            "estimate",
            "confidence",
            "share_low",
            "share_high",
        ):
            object.__setattr__(self, name, float(getattr(self, name)))
        for name in ("n", "n_needed", "n_meeting"):
            object.__setattr__(self, name, int(getattr(self, name)))
        object.__setattr__(self, "greater_is_better", bool(self.greater_is_better))

    @property
    def met(self):
        """Whether the verdict is ``"met"``."""
        return self.verdict == "met"

    @property
    def exit_code(self):
        """Exit status of ``skperf check``: 0 met, 1 not met, 3 inconclusive."""
        return {"met": 0, "not met": 1, "inconclusive": 3}[self.verdict]

    def to_dict(self):
        """Return the fields as a plain dict (for logs and CI artifacts).

        Returns
        -------
        dict
            Field name to value, plus ``target`` (``"this dataset"``: the
            statement is about the distribution of the score over repeated
            runs on these data) and ``met``.

        Examples
        --------
        >>> import numpy as np
        >>> from skperf.stats import requirement
        >>> r = requirement(np.linspace(0.91, 0.95, 40), 0.9, probability=0.9)
        >>> d = r.to_dict()
        >>> d["verdict"], d["n_meeting"], d["target"]
        ('met', 40, 'this dataset')
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["met"] = self.met
        out["target"] = "this dataset"
        return out

    def to_json(self, path=None):
        """The fields of :meth:`to_dict` as JSON (strict: non-finite numbers as null).

        Parameters
        ----------
        path : str, path-like or None, default=None
            File to write; ``None`` returns the text.

        Returns
        -------
        str or None
            The JSON text when ``path`` is None.

        Examples
        --------
        >>> import json
        >>> import numpy as np
        >>> from skperf.stats import requirement
        >>> r = requirement(np.linspace(0.91, 0.95, 10), 0.9, probability=0.9)
        >>> d = json.loads(r.to_json())
        >>> d["verdict"], d["bound"]
        ('inconclusive', None)
        """
        import json

        data = {
            k: (None if isinstance(v, float) and not math.isfinite(v) else v)
            for k, v in self.to_dict().items()
        }
        text = json.dumps(data, allow_nan=False)
        if path is None:
            return text
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        return None

    def power(self, n=None, share=None):
        """Probability of the verdict "met" at ``n`` runs if the true share is ``share``.

        Parameters
        ----------
        n : int or None, default=None
            Number of runs (default: this result's ``n``).
        share : float or None, default=None
            True share of runs meeting the threshold (default: the observed
            ``estimate``).

        Returns
        -------
        float
            Exact binomial probability of ``"met"``.
        """

        return requirement_power(
            self.n if n is None else n,
            self.estimate if share is None else share,
            probability=self.probability,
            confidence=self.confidence,
        )

    def repeats_needed(self, power=0.8, share=None):
        """Plan the runs needed for the verdict ``"met"`` with probability ``power``.

        Parameters
        ----------
        power : float, default=0.8
            Wanted probability of the verdict ``"met"``.
        share : float or None, default=None
            Planning value of the true share of runs meeting the threshold
            (default: the observed ``estimate``, e.g. of a pilot run).

        Returns
        -------
        int
            See :func:`skperf.stats.requirement_sample_size`.
        """

        return requirement_sample_size(
            self.estimate if share is None else share,
            probability=self.probability,
            confidence=self.confidence,
            power=power,
        )

    def __str__(self):
        op = ">=" if self.greater_is_better else "<="
        side = "lower" if self.greater_is_better else "upper"
        if self.verdict == "not met":
            side = "upper" if self.greater_is_better else "lower"
        stmt = f"P(score {op} {self.threshold:g}) >= {self.probability:g}"
        text = (
            f"{self.verdict}: {stmt}; {self.n_meeting}/{self.n} runs meet it "
            f"(share {self.estimate:.3f}, {self.confidence:.0%} bounds "
            f"[{self.share_low:.3f}, {self.share_high:.3f}]); {self.confidence:.0%} "
            f"{side} bound of the {self.q:g}-quantile {self.bound:.4g}; n = {self.n}"
        )
        if self.n < self.n_needed:
            text += f" (n >= {self.n_needed} needed for 'met' to be possible)"
        return text

    def __repr__(self):
        return (
            f"Requirement(verdict={self.verdict!r}, threshold={self.threshold:.4g}, "
            f"probability={self.probability:g}, q={self.q:g}, bound={self.bound:.4g}, "
            f"estimate={self.estimate:.4g}, confidence={self.confidence:g}, "
            f"method={self.method!r}, n={self.n}, n_needed={self.n_needed})"
        )
