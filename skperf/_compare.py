"""compare(): probability of outperforming between two performance distributions.

Implements :meth:`PerformanceDistribution.compare`: P(self > other) with an
interval valid at small n (exact sign interval when paired, Newcombe's score
interval when unpaired) or Bouthillier et al.'s percentile bootstrap, the
significant / meaningful decision (Bouthillier et al. 2021, Sec. 4.1, App.
C.5-C.6), the difference of means with its t interval and a test.

Imports run downward only (``_distribution -> _compare -> stats``): this
module takes any object with the attributes of a
:class:`~skperf.PerformanceDistribution` and never imports it.
"""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
from scipy import sparse
from scipy.sparse import csgraph

from .exceptions import (
    DependentObservationsWarning,
    SmallSampleWarning,
    _external_stacklevel,
)
from .stats._mean import _t_bounds
from .stats._outperform import (
    _check_gamma,
    _exact_interval,
    _prob_outperform_ci_groups,
    _resolve_method,
    noether_sample_size,
    outperform_decision,
    prob_outperform_ci,
)
from .stats._rank_tests import (  # noqa: F401 (re-exported for skperf.model_selection)
    _mann_whitney_u,
    _rank_test,
    _signed_rank_pmf,
    _welch_bounds,
    _wilcoxon_pvalue,
)
from .stats._results import Comparison, Interval
from .stats._validation import (
    _check_confidence,
    _check_method,
    _check_n_boot,
    _check_rng,
    _check_sample,
    _resolve_n_boot,
)

__all__ = ["compare"]

_ATTRIBUTES = ("scores", "seeds", "groups", "metric", "greater_is_better", "name", "n")


def _check_distribution(x, name):
    """``x`` if it has the attributes of a PerformanceDistribution."""
    missing = [attr for attr in _ATTRIBUTES if not hasattr(x, attr)]
    if missing:
        raise TypeError(
            f"`{name}` must be a PerformanceDistribution (missing "
            f"{', '.join(missing)}); got {type(x).__name__}. Wrap arrays of scores "
            "in PerformanceDistribution(...) or call PerformanceDistribution.compare."
        )
    return x


def _check_scores(scores, name):
    """1-D finite float scores, at least 2 (the duck-typed input is not validated)."""
    x = _check_sample(scores, min_n=2, name=f"{name}.scores")
    if x.ndim != 1:
        raise ValueError(f"`{name}.scores` must be 1-D; got shape {x.shape}.")
    return x


def _seed_mismatch(a, b):
    """Why the seeds of ``a`` and ``b`` do not pair them ('' if they do)."""
    sa, sb = a.seeds, b.seeds
    if sa is None or sb is None:
        return "" if sa is sb else "only one of the distributions carries seeds"
    if set(sa) != set(sb):
        return f"seed sources differ: {sorted(sa)} vs {sorted(sb)}"
    for key in sorted(sa):
        if not np.array_equal(sa[key], sb[key]):
            where = np.flatnonzero(np.asarray(sa[key]) != np.asarray(sb[key]))
            return (
                f"seeds[{key!r}] differ at {where.size} position(s), first at index "
                f"{int(where[0])}"
            )
    return ""


def _resolve_paired(a, b, paired):
    if isinstance(paired, str):
        if paired != "auto":
            raise ValueError(f"`paired` must be 'auto', True or False; got {paired!r}.")
        return a.n == b.n and a.seeds is not None and not _seed_mismatch(a, b)
    if not isinstance(paired, bool | np.bool_):
        raise TypeError(f"`paired` must be 'auto', True or False; got {paired!r}.")
    if not paired:
        return False
    if a.n != b.n:
        raise ValueError(
            f"paired=True needs the same number of scores; got n = {a.n} and "
            f"n = {b.n}. Use paired=False (or 'auto')."
        )
    if a.seeds is not None and b.seeds is not None:
        why = _seed_mismatch(a, b)
        if why:
            raise ValueError(
                f"paired=True but the seeds do not match ({why}); pair scores "
                "produced with the same seeds, or use paired=False."
            )
    return True


def _compare_iv(a, b, gamma, confidence, paired, method, n_boot, random_state):
    a = _check_distribution(a, "a")
    b = _check_distribution(b, "b")
    x, y = _check_scores(a.scores, "a"), _check_scores(b.scores, "b")
    if a.metric is not None and b.metric is not None and a.metric != b.metric:
        raise ValueError(
            f"Cannot compare different metrics: {a.metric!r} and {b.metric!r}."
        )
    if a.greater_is_better != b.greater_is_better:
        raise ValueError(
            "Cannot compare a score with a loss: greater_is_better is "
            f"{a.greater_is_better} for the first distribution and "
            f"{b.greater_is_better} for the second."
        )
    gamma = _check_gamma(gamma)
    confidence = _check_confidence(confidence)
    paired = _resolve_paired(a, b, paired)
    _check_method(method, ("auto", "bootstrap", "brunner-munzel", "newcombe", "sign"))
    grouping = _grouping(a, b, paired)
    if grouping is not None:
        if method not in ("auto", "bootstrap"):
            raise ValueError(
                f"method={method!r} treats every score as independent, but "
                f"{grouping[4]} of dependent scores (e.g. the folds of one "
                "repeat). Use method='auto' or 'bootstrap' (resamples whole "
                "groups), or compare a.aggregate() with b.aggregate()."
            )
        method = "bootstrap"
    method = _resolve_method(method, paired)
    if method == "bootstrap":
        n_boot = _resolve_n_boot(confidence, n_boot)
    else:
        _check_n_boot(n_boot)  # validated; exact methods do not resample
        n_boot = None
    # exact methods draw nothing (and skip drawing OS entropy for None)
    rng = None
    if method == "bootstrap" or random_state is not None:
        rng = _check_rng(random_state)
    return a, b, x, y, gamma, confidence, paired, method, grouping, n_boot, rng


def _count(k, noun):
    """``"1 group"`` / ``"3 groups"``."""
    return f"{k} {noun}" if k == 1 else f"{k} {noun}s"


def _labels(groups):
    """Group labels ``0 .. G - 1`` of dependent scores, or ``None``."""
    if groups is None:
        return None
    labels = np.unique(groups, return_inverse=True)[1].ravel()
    return labels if labels.max() + 1 < labels.size else None


def _pair_labels(labels_a, labels_b):
    """Clusters of pairs: pairs sharing a group of ``a`` or of ``b`` join.

    Usually both sides carry the same groups (the repeats); otherwise the
    connected components of the bipartite graph group -> pair -> group.
    """
    if labels_b is None or np.array_equal(labels_a, labels_b):
        return labels_a
    if labels_a is None:
        return labels_b
    n_a = labels_a.max() + 1
    graph = sparse.coo_matrix(
        (np.ones(labels_a.size), (labels_a, n_a + labels_b)),
        shape=(n_a + labels_b.max() + 1,) * 2,
    )
    return csgraph.connected_components(graph, directed=False)[1][labels_a]


def _grouping(a, b, paired):
    """Resampling units when ``groups`` marks dependent scores, and a warning.

    Returns ``None`` when every score is independent, else ``(groups_a,
    groups_b, n_units, text, sides)``: labels of the units to resample
    (``None``: single scores), the smaller number of independent units of a
    side (for the Noether note), the sentence that the warning and ``note``
    carry and the description of the groups of each side.
    """
    la, lb = _labels(a.groups), _labels(b.groups)
    if la is None and lb is None:
        return None
    sides = [
        f"{name} has {d.n} scores in {_count(lab.max() + 1, 'group')}"
        for name, d, lab in ((a.name or "self", a, la), (b.name or "other", b, lb))
        if lab is not None
    ]
    what = " and ".join(sides) + " of dependent scores (e.g. the folds of one repeat)"
    if paired:
        la = _pair_labels(la, lb)
        lb = None
        units = [la.max() + 1]
        n_units = units[0]
    else:
        units = [lab.max() + 1 for lab in (la, lb) if lab is not None]
        n_units = min(
            d.n if lab is None else lab.max() + 1 for d, lab in ((a, la), (b, lb))
        )
    if min(units) < 2:
        # one group cannot be resampled: single scores, interval too narrow
        la = None if la is not None and la.max() < 1 else la
        lb = None if lb is not None and lb.max() < 1 else lb
        how = (
            "a side with a single group cannot be resampled by group, so its "
            "single scores are resampled and the interval of P(A > B) is too narrow"
        )
    else:
        how = (
            f"the bootstrap of P(A > B) resamples whole groups "
            f"({', '.join(map(str, units))} of them)"
        )
    text = (
        f"{what}: {how}; the p-value and the interval of the mean difference "
        "assume independent scores and are too optimistic (for those, compare "
        "dist.aggregate(), one score per group)"
    )
    return la, lb, int(n_units), text, " and ".join(sides)


def _mean_difference(x, y, paired, confidence):
    if paired:
        d = x - y
        if np.ptp(d) == 0:
            est = low = high = d[0]
        else:
            est, low, high = _t_bounds(d, confidence)
        method = "paired-t"
    else:
        est, low, high = _welch_bounds(x, y, confidence)
        method = "welch"
    return Interval(
        estimate=est,
        low=low,
        high=high,
        confidence=confidence,
        method=method,
        n=min(x.size, y.size),
        note="difference of means, first minus second",
    )


@functools.lru_cache(maxsize=16)
def _smallest_significant_n(paired, confidence):
    """Smallest n (pairs, or scores per model) at which "significant" is possible."""
    alpha = 1 - confidence
    if paired:  # all n pairs won: sign-test p = 2^(1 - n)
        return max(1, math.floor(math.log2(2 / alpha)) + 1)
    for n in range(2, 200):  # one sample beats the other completely
        _, low, *_ = _exact_interval(
            np.arange(n, 2.0 * n), np.arange(float(n)), False, confidence
        )
        if low > 0.5:
            return n
    return None  # pragma: no cover


def _notes(res, n_min, unit, grouping, paired, confidence):
    """The ``note`` of a comparison: what the user must know about it."""
    notes = []
    alpha = 1 - confidence
    if res["method"] in ("sign", "brunner-munzel", "newcombe"):
        n_sig = _smallest_significant_n(paired, confidence)
        n_here = res["n_self"] if paired else min(res["n_self"], res["n_other"])
        if n_here < n_sig:
            what = "pairs" if paired else "scores per model"
            notes.append(
                f"no difference can be significant with n = {n_here} {what} at "
                f"confidence = {confidence:g} (at least {n_sig} needed)"
            )
    if n_min < res["noether_n"]:
        notes.append(
            f"n = {n_min}{unit} is below the Noether sample size "
            f"{res['noether_n']} for gamma = {res['gamma']:g} at confidence = "
            f"{confidence:g}: the comparison may lack power"
        )
    significant = res["decision"] != "no significant difference"
    test = {
        "wilcoxon": "Wilcoxon",
        "mannwhitneyu": "Mann-Whitney",
        "sign": "sign",
        "brunnermunzel": "Brunner-Munzel",
    }
    test = test.get(res["test"], res["test"])
    if significant and not res["pvalue"] < alpha:
        notes.append(
            f"the percentile-bootstrap interval excludes 0.5 but the {test} test "
            f"does not reject (p = {res['pvalue']:.3g} >= {alpha:.3g}): with few "
            "scores that interval is too narrow; method='auto' gives an interval "
            "that holds at this n"
        )
    elif not significant and res["pvalue"] < alpha:
        notes.append(
            f"the {test} test rejects (p = {res['pvalue']:.3g} < {alpha:.3g}) "
            "but the interval of P(A > B) still contains 0.5; the decision "
            "follows the interval"
        )
    if grouping is not None:
        notes.append(grouping[3])
    return "; ".join(notes)


def _mean_disagrees(res, greater_is_better):
    """The note when P(A > B) and the mean difference point opposite ways.

    "better" from P(A > B) with the interval of the mean difference entirely
    on the side of B (or "worse" with it on the side of A) is no
    contradiction: P(A > B) counts how often A's score beats B's, the mean
    difference weighs the sizes of the differences, so A can win most runs
    by little while losing a few by much (issue 18, item 10).
    """
    decision = res["decision"]
    if decision == "no significant difference":
        return ""
    md = res["mean_difference"]
    a, b = res["names"]
    sign = 1.0 if greater_is_better else -1.0
    low, high = sorted((sign * md.low, sign * md.high))
    better = decision.startswith("better")
    if not ((better and high < 0) or (not better and low > 0)):
        return ""
    winner, loser = (a, b) if better else (b, a)
    pct = f"{res['confidence']:.0%}"
    return (
        f"{winner} beats {loser} in most runs (P({a} > {b}) = "
        f"{res['estimate']:.3f}) but the mean difference {a} - {b} = "
        f"{md.estimate:.4g} [{pct} CI {md.low:.4g}, {md.high:.4g}] favours {loser}: "
        "the two answer different questions (P(A > B): how often one model "
        "beats the other; the mean: by how much on average), here "
        f"{loser} wins fewer runs by larger margins; decide by the one that "
        "matches the question (e.g. the mean for an expected total)"
    )
    md = res["mean_difference"]
    a, b = res["names"]
    sign = 1.0 if res["greater_is_better"] else -1.0
    low, high = sorted((sign * md.low, sign * md.high))
    better = decision.startswith("better")
    if (better and high < 0) or (not better and low > 0):
        winner, loser = (a, b) if better else (b, a)
        pct = f"{res['confidence']:.0%}"
        return (
            f"P({a} > {b}) says {winner} is {'better' if better else 'worse'}... "
            if False
            else f"{winner} beats {loser} in most runs (P({a} > {b}) = "
            f"{res['estimate']:.3f}), but the mean difference {a} - {b} = "
            f"{md.estimate:.4g} [{pct} CI {md.low:.4g}, {md.high:.4g}] favours "
            f"{loser}: the two answer different questions (P(A > B): how often A "
            "wins; the mean: by how much on average), so {loser} loses more "
            "often but by larger margins when it wins... "
        )
    return ""


def compare(
    a,
    b,
    *,
    gamma=0.75,
    confidence=0.95,
    paired="auto",
    method="auto",
    n_boot="auto",
    random_state=None,
):
    """Compare two performance distributions by the probability of outperforming.

    Parameters
    ----------
    a, b : PerformanceDistribution
        Scores of the two models (``a`` is "self"); any object with the
        attributes ``scores``, ``seeds``, ``groups``, ``metric``,
        ``greater_is_better``, ``name`` and ``n``.
    gamma : float, default=0.75
        Smallest P(a > b) considered a meaningful improvement, in (0.5, 1).
    confidence : float, default=0.95
        Confidence level of the intervals.
    paired : "auto" or bool, default="auto"
        ``"auto"`` pairs the scores when both distributions carry identical
        ``seeds`` (same sources, equal arrays); ``True`` requires equal
        lengths and, when both carry seeds, equal seeds; ``False`` compares
        every score of ``a`` with every score of ``b``.
    method : {"auto", "sign", "newcombe", "bootstrap"}, default="auto"
        Interval of P(a > b); see Notes. ``"auto"`` is ``"sign"`` when
        paired, ``"newcombe"`` when unpaired and ``"bootstrap"`` (resampling
        whole groups) when ``groups`` marks dependent scores.
    n_boot : int or "auto", default="auto"
        Bootstrap resamples (``method="bootstrap"`` and the bootstrap over
        groups); ``"auto"`` is the smallest count with 10 resamples in each
        tail (399 at 95 %).
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the bootstrap.

    Returns
    -------
    Comparison
        P(a > b) with its interval (``method``), the decision, the
        difference of means (paired t or Welch interval), the p-value of
        the Wilcoxon signed-rank test (paired) or the Mann-Whitney test
        (unpaired; exact without ties) and the Noether sample size for
        ``gamma``.

    Raises
    ------
    ValueError
        For scores that are not finite, not 1-D or fewer than 2, different
        metrics, a score compared with a loss, ``paired=True``
        with unequal lengths or mismatching seeds, ``gamma`` outside
        (0.5, 1), ``method="sign"`` unpaired or ``"newcombe"`` paired, or
        an exact method with dependent scores.

    Warns
    -----
    DependentObservationsWarning
        When ``groups`` of either distribution marks dependent scores (the
        folds of one K-fold repeat); see Notes.
    SmallSampleWarning
        When an explicit ``n_boot`` leaves fewer than 10 resamples in a tail.

    Notes
    -----
    With ``greater_is_better=False`` (losses) "better" means lower scores.
    The decision (Bouthillier et al., App. C.6, mirrored for the other
    side) is ``"better"`` (significant and meaningful) when the lower bound
    of P(a > b) exceeds 0.5 and the upper bound reaches ``gamma``
    (``low > 0.5`` and ``high >= gamma``); ``"better, not meaningful"``
    when ``low > 0.5`` and ``high < gamma``; ``"no significant
    difference"`` when the interval contains 0.5; ``"worse, not
    meaningful"`` (``high < 0.5`` and ``low > 1 - gamma``) and ``"worse"``
    (``high < 0.5`` and ``low <= 1 - gamma``) the same with P(b > a) =
    1 - P(a > b). "Significant" is a one-sided test at level ``(1 -
    confidence) / 2`` on either side, so ``noether_n`` is Noether's sample
    size at that level with power 0.95 (App. C.3): 35 for ``gamma =
    0.75`` at ``confidence = 0.95``, the paper's 29 at 0.90. With fewer
    scores ``note`` says so.

    P(a > b) and the difference of means answer different questions (how
    often ``a`` beats ``b``; by how much on average): ``a`` can win most
    runs by small margins and lose a few by large ones, so the decision can
    be ``"better"`` while the interval of the mean difference lies entirely
    on ``b``'s side. ``note`` then says so, with both numbers (Bouthillier
    et al., Sec. 4.1, on why P(A > B) is the criterion here).

    Methods (false-"significant" rates and coverage measured in
    ``tests/stats/test_outperform.py`` and tabulated in the user guide):

    ``"sign"`` (paired)
        Counts the pairs ``a`` wins (``W``), ties (``T``) and loses
        (``L``). The bound on the side of 0.5 is the Clopper-Pearson bound
        of the share of wins among the ``W + L`` untied pairs, rescaled by
        their share ``(W + L) / n``; this interval excludes 0.5 exactly
        when the exact two-sided sign test (ties dropped) rejects, so two
        identical models are called significantly different with
        probability at most ``1 - confidence`` at every n and for any rate
        of ties (given the untied pairs, wins are Bin(W + L, 1/2)). The far
        bound is at least the Clopper-Pearson bound of ``W + T/2`` of ``n``
        (ties split half/half), which keeps the coverage of P(a > b) at or
        above ``confidence`` (exact enumeration, n = 2..50, any tie rate).
        A clean sweep of ``n < 30`` pairs never gives a zero-width interval
        (10 of 10: [0.692, 1] at 95 %). The reported test stays Wilcoxon's
        signed-rank test (``test="wilcoxon"``, whose p-values
        :func:`~skperf.compare_models` corrects); when it does not reject,
        the interval is extended to 0.5, so a significant decision always
        has ``pvalue < 1 - confidence``, and ``note`` says so.
    ``"newcombe"`` (unpaired)
        The score interval of Newcombe (2006, method 5): the values ``t``
        with ``|P - t| - 1 / (2 n m) <= z se(t)``, ``se`` the Hanley-McNeil
        standard error with n* = (n + m) / 2; at ``t = 0.5`` this is the
        Mann-Whitney test. The interval is joined with 0.5 when the
        Mann-Whitney test (``test="mannwhitneyu"``; exact without ties,
        normal approximation with tie and continuity correction otherwise)
        does not reject, so a significant decision always has p below ``1 -
        confidence``, and without ties the false-significant rate is at
        most the exact test's (<= ``1 - confidence``, exact enumeration for
        n = m = 2..50).
    ``"bootstrap"``
        Bouthillier et al.'s percentile bootstrap (App. C.5), resampling
        pairs (paired) or each sample (unpaired); ``n_boot`` resamples.
        Paired, P(a > b) is a share of wins, so the interval is discrete
        and too narrow at small n: identical models are called
        significantly different with probability 0.109, 0.118, 0.115 and
        0.136 at n = 10, 15, 20 and 29 pairs for ``confidence = 0.90``
        (0.077 at n = 15 for 0.95), and 10 wins of 10 give the interval
        [1, 1]. ``test`` is Wilcoxon's signed-rank test (paired) or the
        Mann-Whitney test; when the interval excludes 0.5 but that test
        does not reject, ``note`` says so.

    Dependent scores: distributions from a K-fold
    :class:`~skperf.RepeatedEvaluator` hold one score per fold, with
    ``groups`` the repeat of each score (and the fold in ``seeds``, so that
    fold ``k`` of repeat ``i`` pairs with fold ``k`` of repeat ``i``). The
    folds of a repeat share their training data, so they are not
    independent: ``method="auto"`` then uses the bootstrap resampling whole
    groups (a cluster bootstrap, groups of pairs when paired), ``note``
    and the Noether check count groups, and a
    ``DependentObservationsWarning`` says that the rank test and the
    mean-difference interval still treat the scores as independent
    (compare ``a.aggregate()`` with ``b.aggregate()`` for those, which
    also gives the exact methods). With a single group (one K-fold run)
    nothing can be resampled by group and the interval is too narrow.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 4.1, App. C.2, C.3, C.5, C.6. R. G. Newcombe,
    "Confidence intervals for an effect size measure based on the
    Mann-Whitney statistic. Part 2: asymptotic methods and evaluation",
    Statistics in Medicine 25 (2006).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf import PerformanceDistribution
    >>> from skperf._compare import compare
    >>> rng = np.random.default_rng(0)
    >>> seeds = {"split": np.arange(30)}
    >>> base = rng.normal(0.80, 0.02, size=30)  # shared split effect
    >>> a = PerformanceDistribution(base + rng.normal(0.015, 0.01, size=30),
    ...                             name="A", seeds=seeds)
    >>> b = PerformanceDistribution(base + rng.normal(0.0, 0.01, size=30),
    ...                             name="B", seeds=seeds)
    >>> res = compare(a, b)
    >>> res.decision, res.paired, res.method, res.test
    ('better', True, 'sign', 'wilcoxon')
    >>> print(f"{res.estimate:.3f} [{res.low:.3f}, {res.high:.3f}]")
    0.867 [0.693, 0.962]
    """
    a, b, x, y, gamma, confidence, paired, method, grouping, n_boot, rng = _compare_iv(
        a, b, gamma, confidence, paired, method, n_boot, random_state
    )
    if grouping is not None:
        warnings.warn(
            grouping[3][0].upper() + grouping[3][1:] + ".",
            DependentObservationsWarning,
            stacklevel=_external_stacklevel(),
        )
    extra_note = ""
    if method == "bootstrap":
        groups_a = groups_b = None
        if grouping is not None:
            groups_a, groups_b = grouping[0], grouping[1]
        kwargs = {
            "paired": paired,
            "confidence": confidence,
            "n_boot": n_boot,
            "random_state": rng,
            "greater_is_better": a.greater_is_better,
        }
        if groups_a is None and groups_b is None:
            with warnings.catch_warnings():
                # a too small n_boot was reported once, by _compare_iv
                warnings.simplefilter("ignore", SmallSampleWarning)
                r = prob_outperform_ci(x, y, method="bootstrap", **kwargs)
                est, low, high = r.estimate, r.low, r.high
            method_name = "bootstrap"
        else:
            est, low, high = _prob_outperform_ci_groups(
                x, y, groups_a=groups_a, groups_b=groups_b, **kwargs
            )
            method_name = "cluster-bootstrap"
        pvalue, test, statistic = _rank_test(x, y, paired)
    else:
        sign = 1.0 if a.greater_is_better else -1.0
        *found, w = _exact_interval(sign * x, sign * y, paired, confidence, method)
        est, low, high, pvalue = (float(v) for v in found)
        test = "brunnermunzel" if method == "brunner-munzel" else "mannwhitneyu"
        # the named test's statistic of (x, y), as scipy reports it: Brunner-
        # Munzel's W (the flip of both samples, a loss, flips its sign), or
        # Mann-Whitney's U; paired, Wilcoxon's (below)
        statistic = (
            None if paired else _mann_whitney_u(x, y) if w is None else sign * float(w)
        )
        if paired:
            # report the Wilcoxon signed-rank test (its p-values feed the
            # corrections of compare_models); the sign interval is joined
            # with 0.5 when it does not reject, so "significant" needs both
            sign_rejects = low > 0.5 or high < 0.5
            pvalue, test, statistic = _rank_test(x, y, paired)
            if sign_rejects and not pvalue < 1 - confidence:
                low, high = min(low, 0.5), max(high, 0.5)
                extra_note = (
                    "the sign interval excludes 0.5 but the Wilcoxon test does "
                    f"not reject (p = {pvalue:.3g} >= {1 - confidence:.3g}): the "
                    "interval is extended to 0.5, so that the decision agrees "
                    "with the p-value (the signed-rank test also weighs the "
                    "sizes of the differences)"
                )
        method_name = method
    decision = outperform_decision(low, high, gamma=gamma)
    noether_n = noether_sample_size(gamma, confidence=confidence)
    n_min, unit = min(a.n, b.n), ""
    if grouping is not None:  # the groups are the independent observations
        n_min, unit = grouping[2], " groups"
    res = {
        "estimate": est,
        "low": low,
        "high": high,
        "confidence": confidence,
        "gamma": gamma,
        "decision": decision,
        "paired": paired,
        "n_self": a.n,
        "n_other": b.n,
        "mean_difference": _mean_difference(x, y, paired, confidence),
        "pvalue": pvalue,
        "statistic": statistic,
        "test": test,
        "noether_n": noether_n,
        "n_boot": n_boot,
        "names": (a.name or "self", b.name or "other"),
        "metric": a.metric if a.metric is not None else b.metric,
        "method": method_name,
    }
    res["note"] = _notes(res, n_min, unit, grouping, paired, confidence)
    for extra in (extra_note, _mean_disagrees(res, a.greater_is_better)):
        if extra:
            res["note"] = f"{res['note']}; {extra}" if res["note"] else extra
    return Comparison(**res)
