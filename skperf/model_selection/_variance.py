"""variance_sources: vary one source of variation at a time.

Bouthillier et al. (Sec. 2.2, Fig. 1) measure how much each source of
variation (data split, initialization, hyperparameter optimization) moves a
model's score by re-seeding one source while holding the others fixed.
:func:`variance_sources` does that with :class:`~skperf.RepeatedEvaluator`
(``vary=[source]``), plus one evaluation varying every source together, all
paired by the same ``random_state``.
"""

from __future__ import annotations

import functools
import warnings
from numbers import Integral

import numpy as np
from scipy import stats as _sps

from ..exceptions import NoVariationWarning
from ..stats._band import _pyplot
from ..stats._simultaneous import simultaneous_quantile_ci
from ..stats._validation import _check_confidence
from ._engine import _is_iterable_cv, _outer_cv
from ._evaluator import RepeatedEvaluator, _fit_evaluators
from ._seeding import SOURCES, spawn_seeds
from ._vary import _no_variation, _plan

__all__ = ["plot_variance_sources", "variance_sources"]

_COLUMNS = [
    "n",
    "mean",
    "mean_low",
    "mean_high",
    "std",
    "std_low",
    "std_high",
    "idr",
    "idr_low",
    "idr_high",
    "note",
]


def _idr(x, axis=-1):
    """Interdecile range q90 - q10 (numpy's default "linear" quantiles)."""
    q10, q90 = np.quantile(x, [0.1, 0.9], axis=axis)
    return q90 - q10


def _bonett_sd(x, confidence):
    """Bonett's (2006) interval for the standard deviation of non-normal scores.

    ``exp(ln(c s^2) -+ z c sqrt((g4 - (n - 3) / n) / (n - 1)))`` for the
    variance, ``c = n / (n - z)``, ``g4`` the kurtosis estimate about a
    trimmed mean (trim ``1 / (2 sqrt(n - 4))``); the square roots for the
    sd. Unlike the chi-square interval it does not assume normal scores.
    Needs n >= 5; ``x`` of shape (..., n) gives arrays of the batch shape.
    """
    x = np.asarray(x, dtype=float)
    n = x.shape[-1]
    z = _sps.norm.ppf(0.5 + confidence / 2)
    s2 = x.var(axis=-1, ddof=1)
    m = _sps.trim_mean(x, 1 / (2 * np.sqrt(n - 4)), axis=-1)
    ss = np.sum((x - x.mean(axis=-1, keepdims=True)) ** 2, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        g4 = n * np.sum((x - m[..., None]) ** 4, axis=-1) / ss**2
    c = n / (n - z)
    se = c * np.sqrt(np.maximum(np.nan_to_num(g4) - (n - 3) / n, 0.0) / (n - 1))
    low, high = np.sqrt(c * s2 * np.exp(-z * se)), np.sqrt(c * s2 * np.exp(z * se))
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


#: Measured coverage of the sd interval on heavy-tailed (t3) scores at
#: n = 10-100 (95 %, 20000 seeded samples per n): no interval for the sd
#: holds when the fourth moment is infinite.
_SD_T3_COVERAGE = "0.77-0.86"
#: Sample kurtosis (about the mean, not excess) above which the row says so.
_HEAVY_KURTOSIS = 6.0


_UNSEEDED = (
    "init not seeded: the estimator's scores differ under the same seeds, so "
    "its init noise is in every row (it cannot be held) and no row is "
    "reproducible; pass seeder= (see NotReproducibleWarning)"
)


def _row(scores, confidence):
    """n, mean, std, interdecile range and their intervals for one source."""
    n = scores.size
    alpha = 1 - confidence
    mean, sd = scores.mean(), scores.std(ddof=1)
    half = _sps.t.ppf(1 - alpha / 2, n - 1) * sd / np.sqrt(n)
    notes = []
    if n >= 5:
        std_low, std_high = _bonett_sd(scores, confidence)
        dev = scores - mean
        m2 = np.mean(dev**2)
        kurt = np.mean(dev**4) / m2**2 if m2 > 0 else 3.0
        if kurt > _HEAVY_KURTOSIS:
            notes.append(
                f"heavy-tailed scores (kurtosis {kurt:.1f}): the sd interval "
                f"covered only {_SD_T3_COVERAGE} on t3 scores at n = 10-100"
            )
    else:
        std_low = std_high = np.nan
        notes.append(f"no sd interval below 5 scores (n = {n})")
    # distribution-free: if the simultaneous exact intervals for q10 and q90
    # both cover, q90 - q10 lies in [low90 - high10, high90 - low10]
    try:
        ci = simultaneous_quantile_ci(scores, [0.1, 0.9], confidence=confidence)
    except ValueError:
        idr_low = idr_high = np.nan
        need = _idr_min_n(confidence)
        notes.append(
            f"no interdecile-range interval below n = {need} at confidence = "
            f"{confidence:g} (distribution-free; the percentile bootstrap "
            "covered 0.62-0.76 at n = 10)"
        )
    else:
        idr_low = max(0.0, float(ci.low[1] - ci.high[0]))
        idr_high = float(ci.high[1] - ci.low[0])
    return [
        n,
        mean,
        mean - half,
        mean + half,
        sd,
        std_low,
        std_high,
        float(_idr(scores)),
        idr_low,
        idr_high,
        "; ".join(notes),
    ]


@functools.lru_cache(maxsize=8)
def _idr_min_n(confidence):
    """Smallest n with simultaneous exact intervals for q = 0.1 and 0.9."""
    for n in range(2, 10_000):
        try:
            simultaneous_quantile_ci(
                np.arange(float(n)), [0.1, 0.9], confidence=confidence
            )
        except ValueError:
            continue
        return n
    return None  # pragma: no cover


def _check_sources(sources):
    if isinstance(sources, str):
        sources = (sources,)
    try:
        sources = tuple(sources)
    except TypeError:
        raise TypeError(
            f"`sources` must be a subset of {SOURCES}; got {sources!r}."
        ) from None
    bad = [s for s in sources if s not in SOURCES]
    if bad or not sources or len(set(sources)) != len(sources):
        raise ValueError(
            f"`sources` must be a non-empty subset of {SOURCES} without repeats; "
            f"got {sources!r}."
        )
    return sources


def variance_sources(
    estimator,
    X,
    y=None,
    *,
    sources=("split", "init", "search"),
    n_repeats=10,
    scoring=None,
    cv=None,
    random_state=None,
    n_jobs=None,
    groups=None,
    confidence=0.95,
    memory=None,
    seeder=None,
):
    """How much each source of variation moves the score.

    For every source in ``sources``, ``n_repeats`` evaluations re-seed that
    source alone (the others held at fixed seeds); a last evaluation,
    ``"all"``, re-seeds all of them together. All evaluations share
    ``random_state`` and so the same seeds: the rows are paired.

    Parameters
    ----------
    estimator : estimator object
        The estimator, pipeline or hyperparameter search to evaluate.
    X : array-like of shape (n_samples, n_features)
        Data.
    y : array-like of shape (n_samples,), default=None
        Target.
    sources : tuple of {"split", "init", "search"}, default=("split", "init", "search")
        Sources varied one at a time. A source without randomness for this
        estimator (``"init"`` for a deterministic model, ``"search"`` for an
        estimator that is not a search) is not evaluated: its row has
        ``n = 0`` and a ``note`` saying why.
    n_repeats : int, default=10
        Number of repeats per source.
    scoring : str, callable or None, default=None
        A single scorer (as in :class:`~skperf.RepeatedEvaluator`).
    cv : int, cross-validation generator or None, default=None
        Outer splitter; ``None`` is one out-of-bootstrap split per repeat,
        so the scores are independent draws.
    random_state : int, RandomState instance, Generator or None, default=None
        Root of the seed tree shared by every row. ``None`` draws fresh
        entropy, recorded in ``frame.attrs["random_state"]``.
    n_jobs : int or None, default=None
        Number of jobs; all fits of all rows run in one joblib call.
    groups : array-like of shape (n_samples,), default=None
        Group labels for the outer splitter; with ``cv=None`` whole groups
        are drawn (``GroupOutOfBootstrap``), as in
        :class:`~skperf.RepeatedEvaluator`.
    confidence : float, default=0.95
        Confidence level of the intervals.
    memory : None, str, os.PathLike or joblib.Memory, default=None
        Cache of the fits (see :class:`~skperf.RepeatedEvaluator`).
    seeder : callable or None, default=None
        ``seeder(estimator, seed)`` called in the worker right before each
        fit with that fit's init seed (see :class:`~skperf.RepeatedEvaluator`):
        it makes the ``"init"`` row of a trainer on a global generator
        measurable; torch and skorch nets are seeded without it.

    Returns
    -------
    pandas.DataFrame
        Indexed by source (the requested ones, then ``"all"``), with columns
        ``n``, ``mean``, ``mean_low``, ``mean_high``, ``std``,
        ``std_low``, ``std_high``, ``idr`` (interdecile range ``q90 -
        q10``), ``idr_low``, ``idr_high`` and ``note``.
        ``frame.attrs["distributions"]`` holds the
        :class:`~skperf.PerformanceDistribution` of every evaluated row
        (for :func:`plot_variance_sources`) and
        ``frame.attrs["random_state"]`` the root entropy used.

    Notes
    -----
    *Target*: every interval is about the distribution of scores over
    repeats on this dataset ("this dataset").

    Intervals: the mean by Student's t; the standard deviation (``ddof=1``)
    by Bonett's (2006) interval, which adjusts for the kurtosis of the
    scores instead of assuming them normal (the chi-square interval covered
    0.62-0.76 on heavy-tailed scores at 10 repeats). Measured coverage at
    95 % (20000 seeded samples per n, n = 10-100): normal 0.941-0.960,
    t5 0.905-0.937, skewed Beta(2, 8) 0.933-0.954; on t3 scores (infinite
    fourth moment, where no interval for the sd holds) 0.77-0.86, and the
    row's ``note`` says so when the sample kurtosis exceeds 6. The
    interdecile range ``q90 - q10`` (numpy ``"linear"`` quantiles) gets a
    distribution-free interval ``[low_90 - high_10, high_90 - low_10]``
    from simultaneous exact intervals for the two quantiles
    (:func:`skperf.stats.simultaneous_quantile_ci`), which covers with
    probability at least ``confidence`` for any continuous distribution;
    it needs n >= 35 at 95 % (29 at 90 %). Below that the bounds are NaN
    and the ``note`` says so (the percentile bootstrap used before covered
    0.62-0.76 at 10 repeats).

    The ``"init"`` row of an estimator whose init skperf cannot see before
    fitting it (code outside scikit-learn with no seed parameter and no
    ``seeder``) is evaluated, and read from its fits: identical scores on
    the same split make it deterministic (the row says so); scores that
    differ although no seed reaches it mean its init is not seeded: every
    row then holds that noise, none is reproducible, and each row's
    ``note`` says so (with a ``NotReproducibleWarning``).

    With a K-fold ``cv`` the folds of one repeat are dependent: the scores
    are first averaged per repeat (``dist.aggregate()``), so each row
    describes the spread of the per-repeat mean.

    The ``"all"`` row is ``RepeatedEvaluator(vary="all")``: it varies every
    source that has randomness for this estimator (also those not listed in
    ``sources``), with the seeds each single-source row uses for its source. The variances of the
    sources do not add up to that of ``"all"`` (the sources interact;
    Bouthillier et al., Sec. 2.2).

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 2.2 and Fig. 1 (sources of variation), App. B
    (out-of-bootstrap splits), App. G (normality).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf import variance_sources
    >>> X, y = load_iris(return_X_y=True)
    >>> frame = variance_sources(
    ...     DecisionTreeClassifier(), X, y, n_repeats=10, random_state=0,
    ... )
    >>> frame[["n", "mean", "std"]].round(3)
             n   mean    std
    split   10  0.928  0.038
    init    10  0.945  0.006
    search   0    NaN    NaN
    all     10  0.921  0.041
    >>> frame.loc["search", "note"]
    'not evaluated: the estimator is not a hyperparameter search'
    """
    import pandas as pd

    sources = _check_sources(sources)
    confidence = _check_confidence(confidence)
    if (
        not isinstance(n_repeats, Integral)
        or isinstance(n_repeats, bool)
        or n_repeats < 2
    ):
        raise ValueError(f"`n_repeats` must be an int >= 2; got {n_repeats!r}.")
    entropy, _ = spawn_seeds(random_state, 1)  # one root shared by every row

    if _is_iterable_cv(cv):  # e.g. a generator: read once, used by every row
        cv = list(cv)
    kind, _ = _outer_cv(cv, estimator, y)
    plan = _plan(estimator, y, shuffle_int_cv=True, seeder=seeder)
    missing = {}  # source -> why it has no randomness for this estimator
    for src in SOURCES:
        msgs = _no_variation(plan, kind == "random", {src}, {src})
        if msgs:
            missing[src] = "not evaluated: " + msgs[0].split(": ", 1)[1]
    notes = {src: missing[src] for src in sources if src in missing}
    evaluators = {
        src: RepeatedEvaluator(
            estimator,
            scoring=scoring,
            cv=cv,
            n_repeats=n_repeats,
            vary=[src],
            random_state=entropy,
            refit=False,
            memory=memory,
            seeder=seeder,
        )
        for src in sources
        if src not in notes
    }
    # vary="all" varies every source with randomness: the same fits as naming
    # them (an int inner cv of a search is shuffled either way)
    evaluators["all"] = RepeatedEvaluator(
        estimator,
        scoring=scoring,
        cv=cv,
        n_repeats=n_repeats,
        vary="all",
        random_state=entropy,
        refit=False,
        memory=memory,
        seeder=seeder,
    )
    with warnings.catch_warnings():
        # the init row's note says it (an estimator found deterministic by
        # its fits, skperf.model_selection._reproducible.check_run)
        warnings.filterwarnings(
            "ignore",
            message=".*identical scores on the same split",
            category=NoVariationWarning,
        )
        _fit_evaluators(evaluators, X, y, groups=groups, n_jobs=n_jobs)
    verdicts = {
        src: getattr(ev, "_init_verdict", None) for src, ev in evaluators.items()
    }
    unseeded = "not seeded" in verdicts.values()
    if verdicts.get("init") == "deterministic":
        notes["init"] = (
            "not evaluated: the estimator has no seed parameter and gave identical "
            f"scores on the same split with {n_repeats} init seeds (deterministic)"
        )

    rows, dists = {}, {}
    for src in (*sources, "all"):
        if src in notes:
            rows[src] = [0, *([np.nan] * 9), notes[src]]
            continue
        dist = evaluators[src].distribution_.aggregate()
        dist.name = src
        dists[src] = dist
        rows[src] = _row(dist.scores, confidence)
        if unseeded:  # its init noise is in every row, and no row reproduces
            rows[src][-1] = "; ".join(filter(None, [_UNSEEDED, rows[src][-1]]))
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=_COLUMNS)
    frame["n"] = frame["n"].astype(int)
    frame.attrs["distributions"] = dists
    frame.attrs["random_state"] = entropy
    frame.attrs["confidence"] = confidence
    return frame


def plot_variance_sources(result, ax=None):
    """Plot the spread of the scores per source of variation.

    In the style of Bouthillier et al., Fig. 1: one row per source, the
    scores as points, the interval mean +- one standard deviation as a thick
    bar, the interdecile range (q10 to q90) as a thin dark line with end
    caps, the standard deviation written at the right, and a legend.

    Parameters
    ----------
    result : pandas.DataFrame or dict of str to PerformanceDistribution
        The frame returned by :func:`variance_sources` (its
        ``attrs["distributions"]``) or a mapping of source name to scores.
    ax : matplotlib.axes.Axes or None, default=None
        Axes to draw on; a new figure when ``None``.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 2.2 and Fig. 1.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skperf import PerformanceDistribution
    >>> from skperf.model_selection._variance import plot_variance_sources
    >>> ax = plot_variance_sources({
    ...     "split": PerformanceDistribution([0.90, 0.93, 0.95, 0.92]),
    ...     "init": PerformanceDistribution([0.93, 0.93, 0.94, 0.93]),
    ... })
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['split', 'init']
    """
    plt = _pyplot("plot_variance_sources")
    dists = result.attrs.get("distributions") if hasattr(result, "attrs") else result
    if not dists or not hasattr(dists, "items"):
        raise ValueError(
            "`result` must be the frame returned by variance_sources or a non-empty "
            "dict of source name to scores."
        )
    new_figure = ax is None
    if new_figure:
        _, ax = plt.subplots(figsize=(7, 0.65 * len(dists) + 1.6))
    from matplotlib.lines import Line2D

    rng = np.random.default_rng(0)  # jitter only
    names = list(dists)
    metric = None
    for i, name in enumerate(names):
        y = len(names) - 1 - i
        x = np.asarray(dists[name], dtype=float)
        metric = metric or getattr(dists[name], "metric", None)
        color = f"C{i}"
        ax.scatter(
            x, y + 0.1 + rng.uniform(-0.12, 0.12, x.size), s=12, alpha=0.5, color=color
        )
        m, s = x.mean(), x.std(ddof=1)
        q10, q90 = np.quantile(x, [0.1, 0.9])
        yb = y - 0.25
        # mean +- sd as a thick bar; the interdecile range on top of it as a
        # thin dark line with end caps, so that both stay visible
        ax.hlines(yb, m - s, m + s, color=color, lw=6, alpha=0.8, zorder=2)
        ax.hlines(yb, q10, q90, color="0.15", lw=1.2, zorder=3)
        ax.vlines([q10, q90], yb - 0.1, yb + 0.1, color="0.15", lw=1.2, zorder=3)
        ax.plot([m], [yb], "o", color="white", mec="0.15", ms=5, zorder=4)
        ax.annotate(
            f"sd {s:.3g}",
            xy=(1.01, yb),
            xycoords=("axes fraction", "data"),
            va="center",
            fontsize="small",
        )
    ax.set_yticks(range(len(names) - 1, -1, -1), names)
    ax.set_ylim(-0.6, len(names) - 0.45)
    ax.set_xlabel(metric or "score")
    ax.set_title("Score spread per source of variation")
    handles = [
        Line2D([], [], ls="", marker="o", ms=4, color="0.5", alpha=0.6, label="scores"),
        Line2D([], [], color="0.5", lw=6, label="mean \u00b1 1 sd"),
        Line2D([], [], color="0.15", lw=1.2, label="q10 to q90"),
    ]
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.2),
        ncol=3,
        frameon=False,
        fontsize="small",
    )
    if new_figure:
        ax.figure.tight_layout()
    return ax
