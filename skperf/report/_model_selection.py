"""compare_models and ModelSelectionReport.

All models are evaluated on one shared seed stream, so their scores are
paired (same splits, same initialization seeds; Bouthillier et al., App. C.2).

Every decision of a report names its target. With ``target="new data"`` (the
default of :func:`compare_models`) all ``k (k - 1) / 2`` pairs of models are
tested as one family with Nadeau & Bengio's corrected resampled paired t on
their per-split score differences, corrected together (Holm by default); the
headline, ``tied_with_best``, the row and pairwise decisions and the heatmap
marks all read that one family. With ``target="this dataset"`` the decisions
are about the distribution of scores over repeats on this dataset: the best
model (by mean) is tested against each other model with the probability of
outperforming (Sec. 4.1, App. C.5-C.6), its p-values corrected together
with those of every other pair (the best is picked from the same scores;
textbook chapter "Confidence Intervals for Model Performance", Sec. 4.3).
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from collections.abc import Mapping
from numbers import Integral

import numpy as np
from sklearn.model_selection import KFold

from .._distribution import PerformanceDistribution, _as_loss, _check_requirement
from ..metrics._registry import _bound_text, _metric_bounds
from ..model_selection._seeding import _root_entropy
from ..model_selection._vary import NewDataKFold, _default_new_data_cv
from ..stats._multiple import _check_correction, _pairwise_family, _worse_than_best
from ..stats._outperform import _check_gamma, noether_sample_size
from ..stats._results import Interval, _deprecated_alias
from ..stats._validation import (
    _check_budget,
    _check_confidence,
    _check_n_boot,
    _check_target,
    _check_test_train_ratio,
)
from ._format import _side_text
from ._metrics import _check_one_scale, _shared_default_score

__all__ = ["ModelSelectionReport", "compare_models"]

# Mixed into the root entropy to derive the bootstrap seeds of the report, so
# they never coincide with the evaluation seeds (children of the bare root).
_BOOT_TAG = 0x736B7065  # "skpe"

_VARY_ALL = ("split", "init", "search")


#: The targets of a report's decisions (see the "On new data" user guide).
def _check_ratio(test_train_ratio, target):
    if target != "new data":
        if test_train_ratio is not None:
            raise ValueError(
                "`test_train_ratio` is only used with target='new data'; got "
                f"test_train_ratio={test_train_ratio!r} with target={target!r}."
            )
        return None
    if test_train_ratio is None:
        raise ValueError(
            "target='new data' needs the split design: pass `test_train_ratio` "
            "(n_test / n_train of the splits the scores come from; 1 / (K - 1) for "
            "K-fold, e.g. 1/9 for 10-fold), or target='this dataset' for decisions "
            "about the distribution of these scores."
        )
    return _check_test_train_ratio(test_train_ratio)


def _check_distributions(distributions):
    if not isinstance(distributions, Mapping) or len(distributions) == 0:
        raise TypeError(
            "`distributions` must be a non-empty dict of model name to "
            f"PerformanceDistribution; got {type(distributions).__name__}."
        )
    out = {}
    for name, dist in distributions.items():
        if not isinstance(name, str):
            raise TypeError(f"Model names must be str; got {name!r}.")
        if not isinstance(dist, PerformanceDistribution):
            dist = PerformanceDistribution(dist)
        out[name] = dist._renamed(name)
    _check_one_scale(out, "distributions")
    return out


def _one_score_per_split(matrix, split_ids):
    """Average the scores of repeated identical splits (e.g. ``vary=["init"]``).

    The corrected t counts distinct train/test splits; the same split fitted
    with several seeds is one split, its scores averaged over the seeds.
    """
    _, first, inverse = np.unique(split_ids, return_index=True, return_inverse=True)
    if first.size == split_ids.size:
        return matrix
    return np.column_stack(  # a loop over distinct splits, not over resamples
        [matrix[:, inverse == g].mean(axis=1) for g in np.argsort(first)]
    )


def _split_matrix(distributions, design=None):
    """Per-split scores of every model as one ``(k, J)`` array, aligned by split.

    Scores are paired by ``seeds["split_id"]`` (the fingerprint of each fit's
    train/test indices) when every distribution has it, else by position;
    anything else cannot be tested on shared splits and is refused. With
    ``design`` (the split ids of every fit the models were run on, failed
    ones included: :func:`compare_models`), a model missing some of those
    splits (its fit failed there) gets NaN in their columns; each pair is
    then tested on the splits both models have (:func:`_pairwise_family`).
    """
    dists = list(distributions.values())
    names = list(distributions)
    ids = [None if d.seeds is None else d.seeds.get("split_id") for d in dists]
    if all(i is not None for i in ids):
        ref = np.asarray(ids[0])
        rows = []
        for name, d, i in zip(names, dists, ids, strict=True):
            i = np.asarray(i)
            if i.shape == ref.shape and np.array_equal(i, ref):
                rows.append(np.asarray(d.scores, dtype=float))
                continue
            if np.unique(i).size != i.size or not np.array_equal(
                np.sort(i), np.sort(ref)
            ):
                if design is not None:  # failed fits: NaN where a score is missing
                    return _design_matrix(names, dists, ids, design)
                raise ValueError(
                    "target='new data' tests models on shared splits, but "
                    f"{name!r} was scored on other train/test splits than "
                    f"{names[0]!r} (seeds['split_id'] differ): evaluate every model "
                    "with the same cv and random_state, or use target='this dataset'."
                )
            rows.append(
                np.asarray(d.scores, dtype=float)[np.argsort(i)][
                    np.argsort(np.argsort(ref))
                ]
            )
        return _one_score_per_split(np.vstack(rows), ref)
    sizes = {d.n for d in dists}
    if len(sizes) > 1:
        raise ValueError(
            "target='new data' tests models on shared splits (one score per split, "
            "the same splits for every model); got different numbers of scores "
            f"{ {n: d.n for n, d in zip(names, dists, strict=True)} }. Use "
            "target='this dataset' for scores that are not paired by split."
        )
    return np.vstack([np.asarray(d.scores, dtype=float) for d in dists])


def _design_matrix(names, dists, ids, design):
    """``(k, J)`` scores on the ``J`` distinct splits of ``design``, NaN where
    a model has no score (its fit failed there, under ``error_score=np.nan``).

    Columns follow the splits' first appearance in ``design``; a model's
    scores of one split (the same split fitted with several seeds) are
    averaged, as :func:`_one_score_per_split` does. A split id outside the
    design is refused as in :func:`_split_matrix`.
    """
    uniq, first = np.unique(np.asarray(design), return_index=True)
    column = np.empty(uniq.size, dtype=np.intp)
    column[np.argsort(first)] = np.arange(uniq.size)
    matrix = np.full((len(dists), uniq.size), np.nan)
    for row, (name, d, i) in enumerate(zip(names, dists, ids, strict=True)):
        u, inverse = np.unique(np.asarray(i), return_inverse=True)
        pos = np.minimum(np.searchsorted(uniq, u), uniq.size - 1)
        if not np.array_equal(uniq[pos], u):
            raise ValueError(
                "target='new data' tests models on shared splits, but "
                f"{name!r} was scored on train/test splits outside the design "
                "(seeds['split_id'] differ): evaluate every model with the same "
                "cv and random_state, or use target='this dataset'."
            )
        scores = np.asarray(d.scores, dtype=float)
        matrix[row, column[pos]] = np.bincount(inverse, weights=scores) / np.bincount(
            inverse
        )
    return matrix


def _note_missing_splits(notes, names, split_scores, family, raced_out=None):
    """One note per pair tested on fewer than all ``J`` splits: how many were
    dropped, whose score was missing there, and the ``J`` the test used
    (``raced_out``: models a sequential race stopped fitting, whose pairs
    are read on the splits they have, with a note of their own)."""
    J = split_scores.shape[1]
    missing = ~np.isfinite(split_scores)
    raced_out = raced_out or {}
    for i in range(family.a.size):
        a, b, n = int(family.a[i]), int(family.b[i]), int(family.n[i])
        if n == J:
            continue
        if names[a] in raced_out or names[b] in raced_out:
            _add_note(
                notes,
                f"{names[a]} vs {names[b]}",
                f"new data: tested on the {n} splits both models have (the "
                f"corrected t's J = {n}): the sequential race stopped fitting "
                f"{' and '.join(names[m] for m in (a, b) if names[m] in raced_out)} "
                "once its pairs were settled.",
            )
            continue
        whose = " and ".join(
            f"{names[m]} has no score on {int(missing[m].sum())}"
            for m in (a, b)
            if missing[m].any()
        )
        body = (
            f"new data: tested on the {n} of {J} splits where both models have a "
            f"score (the corrected t's J = {n}); {J - n} dropped: {whose} (a failed "
            "fit, left out of its distribution under error_score=np.nan: see the "
            "FitFailedWarning and the evaluator's results_['error'])."
        )
        if n < 2:
            body += (
                " Fewer than 2 shared splits: the pair is not tested (p-value NaN) "
                "and counts as 'no significant difference' for lack of evidence, "
                "not because the data show them equal."
            )
        _add_note(notes, f"{names[a]} vs {names[b]}", body)


_NUMBER = re.compile(r"(\d+(?:\.\d+)?)")


class _Notes(list):
    """The report's notes: a list of str where one message is said once.

    The same warning for several models is one note naming them all
    (``"a, b: SmallSampleWarning: ..."``); when the messages differ only in
    their numbers (``"3 repeated value(s)"``, ``"1 repeated value(s)"``) the
    numbers that differ are listed per model (``"3/1"``) in the order named.
    """

    def __init__(self, *args):
        super().__init__(*args)
        self._groups = {}

    def add(self, where, body):
        key = _NUMBER.sub("#", body)
        if key not in self._groups:
            self._groups[key] = (len(self), [(where, body)])
            self.append(f"{where}: {body}")
            return
        index, entries = self._groups[key]
        if any(w == where for w, _ in entries):
            return
        entries.append((where, body))
        if index < len(self):
            self[index] = _merged_note(entries)


def _merged_note(entries):
    names = ", ".join(w for w, _ in entries)
    parts = [_NUMBER.split(b) for _, b in entries]
    merged, differ = [], False
    for i, piece in enumerate(parts[0]):
        values = [p[i] for p in parts]
        if i % 2 and len(set(values)) > 1:
            merged.append("/".join(values))
            differ = True
        else:
            merged.append(piece)
    text = f"{names}: {''.join(merged)}"
    if differ:
        text += " (x/y: one value per model, in the order named)"
    return text


def _add_note(notes, where, body):
    """Append ``"where: body"``; a body already noted gains ``where`` in its list.

    The same message for several models is one note naming them all
    (``"a, b: SmallSampleWarning: ..."``), not one repeated line per model.
    """
    if isinstance(notes, _Notes):
        notes.add(where, body)
        return
    suffix = f": {body}"
    for i, note in enumerate(notes):
        if note.endswith(suffix):
            prefix = note[: -len(suffix)]
            if where not in prefix.split(", "):
                notes[i] = f"{prefix}, {where}{suffix}"
            return
    notes.append(f"{where}{suffix}")


def _record(caught, notes, where):
    """Add the messages of caught warnings to ``notes`` (deduplicated)."""
    for w in caught:
        _add_note(notes, where, f"{w.category.__name__}: {w.message}")


_MIRROR = {
    "better": "worse",
    "better, not meaningful": "worse, not meaningful",
    "no significant difference": "no significant difference",
    "worse, not meaningful": "better, not meaningful",
    "worse": "better",
}


def _mirror(c):
    """``b.compare(a)`` from ``a.compare(b)``: P(b > a) = 1 - P(a > b).

    Exact because ties count 1/2 in every resample; the interval mirrors,
    the decision swaps sides, the two-sided p-value stays (and the rank test
    with its possible permutation null is not run twice).
    """
    md = c.mean_difference
    mean_difference = dataclasses.replace(
        md, estimate=-md.estimate, low=-md.high, high=-md.low
    )
    return dataclasses.replace(
        c,
        estimate=1.0 - c.estimate,
        low=1.0 - c.high,
        high=1.0 - c.low,
        decision=_MIRROR[c.decision],
        n_self=c.n_other,
        n_other=c.n_self,
        mean_difference=mean_difference,
        names=c.names[::-1],
    )


class ModelSelectionReport:
    """Distributions, pairwise decisions and the best models of a benchmark.

    Usually built by :func:`compare_models`; it can also be built from any
    distributions (e.g. seeded deep-learning runs), paired when they carry
    identical ``seeds``.

    Every decision of the report names its ``target``:

    - ``"new data"``: is algorithm A better than B when trained on about n
      rows from the same population? All ``k (k - 1) / 2`` pairs are tested
      with Nadeau & Bengio's corrected resampled paired t on their per-split
      score differences (``J`` splits, the correction uses
      ``test_train_ratio``), as one family corrected by ``correction``.
    - ``"this dataset"``: how do the models' scores over repeats on this one
      dataset compare? The probability of outperforming P(A > B) of the best
      model against each other model (Bouthillier et al., App. C.5-C.6), the
      rank-test p-values corrected over all ``k (k - 1) / 2`` pairs.

    Parameters
    ----------
    distributions : dict of str to PerformanceDistribution
        One distribution per model, in the order to use for ties. All must
        share ``greater_is_better`` (and ``metric`` when set). With
        ``target="new data"`` one score per split, the same splits for every
        model (paired by ``seeds["split_id"]`` when present, else by position).
    target : {"new data", "this dataset"}, default="new data"
        What the decisions are about (see above).
    test_train_ratio : float or None, default=None
        ``n_test / n_train`` of the splits the scores come from (``1 / (K -
        1)`` for K-fold): the variance correction of the corrected paired t.
        Required with ``target="new data"`` (:func:`compare_models` passes
        the ratio measured on its splits); rejected otherwise.
    gamma : float, default=0.75
        Threshold of a meaningful probability of outperforming
        (Bouthillier et al., App. C.6), for the run-to-run P(A > B).
    confidence : float, default=0.95
        Confidence level of every interval; ``1 - confidence`` is the level
        at which corrected p-values are called significant.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction of the family of tests (see Notes).
    n_boot : int or "auto", default="auto"
        Bootstrap resamples where an interval needs them (the cluster
        bootstrap of P(A > B) for dependent scores); ``"auto"`` chooses them
        from the confidence level.
    random_state : int, numpy.random.Generator or None, default=None
        Root of the bootstrap seeds; ``None`` draws fresh entropy, recorded
        in ``random_state_``.
    settings : dict or None, default=None
        How the scores were produced (what was varied, cv, scoring, seeds ...),
        shown in the report so the run can be reproduced.
    requirement : float, tuple, dict or None, default=None
        A requirement every model is checked against
        (:meth:`PerformanceDistribution.requirement`): a threshold, a
        ``(threshold, probability)`` pair or a dict of keyword arguments
        (``confidence`` defaults to the report's). The verdicts are in
        ``requirements``, in the ``requirement`` column of
        :meth:`to_frame` and in the markdown and HTML reports.
    _split_design : array-like or None, default=None
        Private (set by :func:`compare_models`): the split ids of every fit,
        failed ones included, so that a pair is tested on the splits where
        both models have a score.
    _raced_out : dict or None, default=None
        Private (set by :func:`compare_models`): the models a sequential race
        stopped fitting (name -> fits); their missing splits were not run,
        not failed.

    Attributes
    ----------
    target : str
        ``"new data"`` or ``"this dataset"``.
    distributions : dict of str to PerformanceDistribution
        One per model, named by its key, with independent scores: where
        ``groups`` marks dependent scores (the folds of one K-fold repeat),
        the mean per group (``dist.aggregate()``), one score per repeat. The
        run-to-run statistics (this dataset) use these.
    raw_distributions : dict of str to PerformanceDistribution
        The distributions as given (renamed to their keys): one score per
        split. The new-data statistics use these.
    names : list of str
        Model names in the given order.
    ranking : list of str
        Model names by mean score, best first (stable: ties keep the given
        order).
    best : str
        Model with the best mean in the metric's direction; ties go to the
        first in the given order.
    generalization : dict of str to Interval or GeneralizationCI
        With ``target="new data"``: each model's interval for its expected
        score on new data (the evaluator's ``generalization_ci()`` when
        :func:`compare_models` has one, else the corrected resampled t on
        the per-split scores); empty otherwise. A model with failed fits
        has none (see :attr:`incomplete`).
    incomplete : dict of str to int
        With ``target="new data"``: the models whose fits failed on some
        splits, with the number of splits without a score. Such a model is
        compared with each other model on the splits both have, gets no
        interval on new data and is not chosen as the best while a model
        without failed fits is there (each with a note); empty otherwise.
    family : object or None
        With ``target="new data"``: the tests of all pairs (read them with
        :meth:`pairwise`); ``None`` otherwise.
    comparisons : dict of (str, str) to Comparison
        Run-to-run (this dataset): ``comparisons[a, b]`` is
        ``distributions[a].compare(distributions[b])`` for every ordered pair
        ``a != b``; the pair later in the given order is the mirror image of
        the earlier one (``P(b > a) = 1 - P(a > b)``, same p-value).
    pvalues : dict of str to float
        For every model except ``best``: the two-sided p-value of the test of
        ``best`` against it in the report's family (corrected paired t for
        new data; Wilcoxon signed-rank when paired, Mann-Whitney U otherwise,
        for this dataset). ``p_values`` is a deprecated alias.
    pvalues_adjusted : dict of str to float
        Those p-values after ``correction`` within the family.
        ``p_adjusted`` is a deprecated alias.
    tied_with_best : list of str
        ``best`` and every model not significantly worse than it in the
        family, in the given order.
    noether_n : int
        Noether sample size for ``gamma`` (Bouthillier et al., App. C.3) with
        each one-sided bound at ``(1 - confidence) / 2`` and power 0.95:
        repeats per model needed to detect P(A > B) >= ``gamma`` reliably
        (35 for gamma = 0.75 at confidence 0.95). Used by the run-to-run
        decisions (``target="this dataset"``).
    notes : list of str
        Warnings raised while computing the statistics (ties, small samples,
        dependent observations ...), the split design of the new-data tests,
        shown in the report.
    random_state_ : int
        Entropy of the bootstrap seeds.
    requirements : dict of str to Requirement
        Verdict of ``requirement`` per model (empty without one).
    curves : dict of str to dict of str to CurveBand
        ``curves[kind][model]``, ``kind`` ``"roc"`` or ``"pr"``: the model's
        ROC or precision-recall curves across repeats with their pointwise
        band (:func:`~skperf.report.roc_curves`,
        :func:`~skperf.report.pr_curves`), set by
        ``compare_models(return_predictions=True)`` for binary classifiers
        with scores; empty otherwise. Drawn by :meth:`plot_curves`.
    curves_missing : dict of str to str
        With ``return_predictions=True``: each model that has no curves and
        why (e.g. ``"target has 3 classes"``); also in ``notes``. Empty
        otherwise.

    Notes
    -----
    *New data* (the default of :func:`compare_models`). Every pair of models
    is tested on its ``J`` per-split score differences with the corrected
    resampled paired t (Nadeau & Bengio 2003, Sec. 4; variance ``(1 / J +
    n_test / n_train) s^2``), and the ``k (k - 1) / 2`` p-values are
    corrected together. Because the family holds every pair, Holm's
    correction controls the family-wise error strongly whatever model is
    picked as the best from the same scores (a family of "best against the
    others" does not: issue 18, item 3). A pair is significant when its
    adjusted p-value is below ``1 - confidence``; a model is tied with the
    best unless its pair with the best is significant. The headline,
    ``tied_with_best``, the ``decision`` column, :meth:`pairwise` and the
    heatmap marks are all read from that one family. The per-pair intervals
    of the mean difference are unadjusted.

    *This dataset*. The family is the rank tests of all ``k (k - 1) / 2``
    pairs (``comparisons[a, b].pvalue``): the best is picked from the same
    scores, so the ``k - 1`` tests of the best alone are liberal (some model
    called worse in 14.7 % of benchmarks of 10 equal models at level 5 %;
    all pairs: 2.9 %, issue 29 item 11). A model
    is significantly worse than the best when its corrected p-value is below
    ``1 - confidence`` and ``P(best > model) > 0.5``. The ``decision`` of each
    comparison is the per-comparison rule of Bouthillier et al., App. C.6
    (an exact sign interval of P(A > B) when paired, Newcombe's otherwise,
    against 0.5 and ``gamma``), not corrected.

    The best model's mean is optimistically biased (winner's curse,
    textbook chapter Sec. 4.3); re-evaluate it on fresh data before trusting
    its number.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf import ModelSelectionReport, PerformanceDistribution
    >>> rng = np.random.default_rng(0)
    >>> seeds = {"split": np.arange(30)}
    >>> base = rng.normal(0.9, 0.02, 30)
    >>> dists = {
    ...     name: PerformanceDistribution(base + shift + rng.normal(0, 0.005, 30),
    ...                                   metric="accuracy", seeds=seeds)
    ...     for name, shift in [("a", 0.0), ("b", 0.01), ("c", -0.001)]
    ... }

    Scores of 30 random 90/10 splits (n_test / n_train = 1/9), on new data:

    >>> report = ModelSelectionReport(dists, test_train_ratio=1 / 9, random_state=0)
    >>> report.best, report.tied_with_best
    ('b', ['b'])

    The same scores read as runs on this dataset:

    >>> report = ModelSelectionReport(dists, target="this dataset", random_state=0)
    >>> round(report.comparisons["b", "a"].estimate, 3)
    0.933
    """

    def __init__(
        self,
        distributions,
        *,
        target="new data",
        test_train_ratio=None,
        gamma=0.75,
        confidence=0.95,
        correction="holm",
        n_boot="auto",
        random_state=None,
        settings=None,
        requirement=None,
        _split_design=None,
        _raced_out=None,
    ):
        self.raw_distributions = _check_distributions(distributions)
        # models a sequential race stopped fitting (name -> fits): their
        # missing splits were never run, not failed
        self._raced_out = dict(_raced_out or {})
        requirement_kw = _check_requirement(requirement, confidence)
        self.gamma = _check_gamma(gamma)
        self.confidence = _check_confidence(confidence)
        self.correction = _check_correction(correction)
        self.n_boot = _check_n_boot(n_boot)
        self.target = _check_target(target)
        self.test_train_ratio = _check_ratio(test_train_ratio, target)
        split_scores = (
            _split_matrix(self.raw_distributions, _split_design)
            if target == "new data"
            else None
        )
        self.notes = _Notes()
        if split_scores is not None and split_scores.shape[1] < max(
            d.n for d in self.raw_distributions.values()
        ):
            self.notes.append(
                f"new data: the {max(d.n for d in self.raw_distributions.values())} "
                f"scores per model come from {split_scores.shape[1]} distinct "
                "train/test splits (the same split fitted with other seeds): the "
                "tests use one score per split, averaged over its fits."
            )
        self._one_run = set()  # models of one K-fold run: no run-to-run columns
        self.distributions = self._independent(self.raw_distributions)
        self.random_state_ = _root_entropy(random_state)
        self.settings = dict(settings or {})
        self.evaluators = None
        self.curves = {}
        self.curves_missing = {}
        self.generalization = {}
        self.family = None
        self._frames = {}
        self._clipped = {}
        self._clip_index = None

        self.names = list(self.distributions)
        first = self.distributions[self.names[0]]
        self.metric = first.metric
        self.greater_is_better = first.greater_is_better
        sign = 1.0 if self.greater_is_better else -1.0
        if split_scores is None:
            means = np.array([self.distributions[n].mean() for n in self.names])
        else:
            with np.errstate(invalid="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                means = np.nanmean(split_scores, axis=1)
        means = np.nan_to_num(sign * means, nan=-np.inf)
        order = np.argsort(-means, kind="stable")  # ties keep the given order
        self.ranking = [self.names[i] for i in order]
        self.best = self.ranking[0]
        self.incomplete = {}
        if split_scores is not None:
            self._incomplete_not_best(split_scores)
        self._compare_all()
        if split_scores is None:
            self._select()
        else:
            self._select_new_data(split_scores)
        self.requirement = requirement
        self.requirements = _requirements(self.distributions, requirement_kw)
        # one-sided level of the decision: each bound at (1 - confidence) / 2
        self.noether_n = noether_sample_size(self.gamma, confidence=self.confidence)
        n_min = min(d.n for d in self.distributions.values())
        if (
            self.target == "this dataset"
            and self.n_models > 1
            and n_min < self.noether_n
        ):
            self.notes.append(
                f"n = {n_min} scores per model is below the Noether sample size "
                f"{self.noether_n} for gamma = {self.gamma:g} at confidence "
                f"{self.confidence:g} (Bouthillier et al., App. C.3): a meaningful "
                "difference may be missed (the comparisons lack power)."
            )

    # ------------------------------------------------------------------
    @classmethod
    def from_frame(
        cls,
        frame,
        *,
        score,
        by=None,
        pair_by=None,
        greater_is_better=True,
        settings=None,
        **kwargs,
    ):
        """The report from a long table of scores, one row per run.

        Parameters
        ----------
        frame : pandas.DataFrame
            One row per run (e.g. one seeded training run of any model).
        score : str
            Column of the scores.
        by : str or None, default=None
            Column naming the model of each run.
        pair_by : str or None, default=None
            Column pairing runs across models (e.g. the seed); see
            :func:`skperf.from_frame`.
        greater_is_better : bool, default=True
            Direction of the score.
        settings : dict or None, default=None
            Shown in the report; by default the columns used.
        **kwargs : dict
            Passed to :class:`ModelSelectionReport` (``target``,
            ``test_train_ratio``, ``gamma``, ``confidence``, ``correction``,
            ``n_boot``, ``random_state``). ``target`` defaults to ``"this
            dataset"`` here: scores produced anywhere (e.g. seeded training
            runs on one test set) carry no split design from which to decide
            about new data; pass ``target="new data"`` with
            ``test_train_ratio`` when each row is one train/test split, the
            same splits for every model.

        Returns
        -------
        ModelSelectionReport
            The report of the models in ``by``.

        Examples
        --------
        >>> import pandas as pd
        >>> from skperf import ModelSelectionReport
        >>> df = pd.DataFrame({"model": ["a"] * 3 + ["b"] * 3,
        ...                    "seed": [0, 1, 2] * 2,
        ...                    "acc": [0.90, 0.92, 0.91, 0.80, 0.83, 0.81]})
        >>> report = ModelSelectionReport.from_frame(
        ...     df, score="acc", by="model", pair_by="seed", random_state=0)
        >>> report.best
        'a'
        """
        from .._frame import from_frame

        dists = from_frame(
            frame,
            score=score,
            by=by,
            pair_by=pair_by,
            greater_is_better=greater_is_better,
        )
        if settings is None:
            settings = {
                "score": score,
                "by": by,
                "pair_by": pair_by,
                "greater_is_better": greater_is_better,
                "runs": len(frame),
            }
        kwargs.setdefault("target", "this dataset")
        return cls(dists, settings=settings, **kwargs)

    def _independent(self, distributions):
        """One score per group (repeat) where ``groups`` marks dependent scores."""
        out = {}
        for name, dist in distributions.items():
            if (
                self.target == "new data"
                and dist.groups is not None
                and np.unique(dist.groups).size == 1
            ):
                # one K-fold run: no run-to-run distribution (one run); the
                # folds are kept for the new-data tests, which account for
                # their dependence, and the run-to-run columns left empty
                self._one_run.add(name)
                _add_note(
                    self.notes,
                    name,
                    f"one repeat of {dist.n} folds is one run: there is no run-to-run "
                    "(this dataset) distribution, so its columns are left empty "
                    "(n = 1 run; use n_repeats >= 2 for them); the new-data tests "
                    "use the folds and account for their dependence (corrected t).",
                )
                dist = PerformanceDistribution(
                    dist.scores,
                    metric=dist.metric,
                    greater_is_better=dist.greater_is_better,
                    name=name,
                    seeds=dist.seeds,
                )
            elif dist.groups is not None and np.unique(dist.groups).size < dist.n:
                dist = dist.aggregate(func="mean")
                _add_note(
                    self.notes,
                    name,
                    "the scores of each group (e.g. the folds of one repeat) "
                    f"were averaged into one independent score per group (n = {dist.n}) "
                    "before computing intervals and comparisons.",
                )
            out[name] = dist
        return out

    def _seed_sequence(self):
        return np.random.SeedSequence([self.random_state_, _BOOT_TAG])

    def _compare_all(self):
        names = self.names
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
        # one seed per unordered pair: (a, b) and (b, a) share their resamples
        boot_seeds = self._seed_sequence().generate_state(max(len(pairs), 1))
        self.comparisons = {}
        for (a, b), seed in zip(pairs, boot_seeds, strict=False):
            da, db = self.distributions[a], self.distributions[b]
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self.comparisons[a, b] = da.compare(
                    db,
                    gamma=self.gamma,
                    confidence=self.confidence,
                    n_boot=self.n_boot,
                    random_state=int(seed),
                )
            _record(caught, self.notes, f"{a} vs {b}")
            self.comparisons[b, a] = _mirror(self.comparisons[a, b])

    def _select(self):
        others = [n for n in self.names if n != self.best]
        raw = np.array([self.comparisons[self.best, n].pvalue for n in others])
        est = np.array([self.comparisons[self.best, n].estimate for n in others])
        # every other pair joins the family: the best is picked from these scores
        rest = [
            self.comparisons[a, b].pvalue
            for i, a in enumerate(others)
            for b in others[i + 1 :]
        ]
        adjusted, worse = _worse_than_best(
            raw, est, rest, confidence=self.confidence, correction=self.correction
        )
        self.pvalues = dict(zip(others, raw.tolist(), strict=True))
        self.pvalues_adjusted = dict(zip(others, adjusted.tolist(), strict=True))
        worse = {n for n, w in zip(others, worse, strict=True) if w}
        self.tied_with_best = [n for n in self.names if n not in worse]

    def _select_new_data(self, split_scores):
        """One family of corrected paired t tests over all pairs (new data)."""
        self.family = _pairwise_family(
            split_scores,
            test_train_ratio=self.test_train_ratio,
            confidence=self.confidence,
            correction=self.correction,
            greater_is_better=self.greater_is_better,
        )
        k = self.n_models
        if not np.isfinite(split_scores).all():
            _note_missing_splits(
                self.notes, self.names, split_scores, self.family, self._raced_out
            )
            self._unbeaten_best(k)
        best = self.names.index(self.best)
        others = [n for n in self.names if n != self.best]
        pairs = [self.family.pair(best, self.names.index(n)) for n in others]
        self.pvalues = {
            n: float(self.family.pvalue[i]) for n, i in zip(others, pairs, strict=True)
        }
        self.pvalues_adjusted = {
            n: float(self.family.pvalue_adjusted[i])
            for n, i in zip(others, pairs, strict=True)
        }
        worse = self.family.worse_than(best, k)
        self.tied_with_best = [n for i, n in enumerate(self.names) if not worse[i]]
        self._split_scores = split_scores
        self.generalization = {  # none for a model with failed fits
            name: _corrected_t_interval(
                row, self.test_train_ratio, self.confidence, self.metric
            )
            for name, row in zip(self.names, split_scores, strict=True)
            if name not in self.incomplete
        }

    def _incomplete_not_best(self, split_scores):
        """Models with failed fits are flagged and not chosen as the best.

        A model whose fit failed on some splits has no score there; its mean
        over the splits where it fitted is not the algorithm's expected
        score on new data (it describes the algorithm only where it fits),
        so it gets no interval on new data, is compared with each model on
        the splits both have, and is not the best while a model without
        failed fits is there (issue 29, item 5); each with a note.
        """
        J = split_scores.shape[1]
        missing = (~np.isfinite(split_scores)).sum(axis=1)
        self.incomplete = {
            n: int(m)
            for n, m in zip(self.names, missing, strict=True)
            if m and n not in self._raced_out
        }
        for name, m in self.incomplete.items():
            self.notes.add(
                name,
                f"new data: incomplete: {m} of {J} splits have no score (failed "
                "fits), so no interval on new data (a mean over the fits that "
                "succeeded describes the algorithm only where it fits); compared "
                "with each model on the splits both have; not chosen as the best "
                "while a model without failed fits is there.",
            )
        complete = [n for n in self.ranking if n not in self.incomplete]
        if self.best not in self.incomplete:
            return
        if not complete:
            self.notes.append(
                "new data: every model has failed fits: the best is the best mean "
                "over the splits where it fitted, and has no interval on new data; "
                "fix the failures and rerun."
            )
            return
        old, self.best = self.best, complete[0]
        self.ranking = [self.best] + [n for n in self.ranking if n != self.best]
        self.notes.append(
            f"new data: {old} has the best mean over the splits where it fitted, "
            f"but its fits failed on {self.incomplete[old]} of {J} splits; "
            f"{self.best}, the first in the ranking without failed fits, is the "
            "best."
        )

    def _unbeaten_best(self, k):
        """Keep ``best`` a model no other model is significantly better than.

        With every score present the best mean never loses a pair. When pairs
        are tested on different splits (failed fits) it can: the best is then
        the first model in the ranking that no pair finds significantly worse,
        moved to the head of the ranking, with a note.
        """
        beaten = np.any([self.family.worse_than(j, k) for j in range(k)], axis=0)
        if not beaten[self.names.index(self.best)]:
            return
        free = [n for n in self.ranking if not beaten[self.names.index(n)]]
        if any(n not in self.incomplete for n in free):
            free = [n for n in free if n not in self.incomplete]
        if not free:
            self.notes.append(
                f"new data: every model, {self.best} (the best mean) included, is "
                "significantly worse than another on the splits they share (their "
                "pairs were tested on different splits after failed fits): no "
                "model can be called the best; rerun without the failing fits."
            )
            return
        old, self.best = self.best, free[0]
        self.ranking = [self.best] + [n for n in self.ranking if n != self.best]
        self.notes.append(
            f"new data: {old} has the best mean over its own splits, but is "
            f"significantly worse than another model on the splits they share "
            f"(failed fits left the pairs on different splits); {self.best}, the "
            "first in the ranking that no model is significantly better than, is "
            "the best."
        )

    def pairwise(self):
        """Every pair of models with its test and decision, one row per pair.

        Returns
        -------
        pandas.DataFrame
            One row per unordered pair, ``model_a`` ranked above ``model_b``
            (ranking order), with columns ``model_a``, ``model_b``,
            ``estimate`` (mean score of A minus B, in the metric's units),
            ``low``, ``high`` (its per-pair, unadjusted interval at
            ``confidence``; with ``target="new data"`` also
            ``low_adjusted``, ``high_adjusted``: the interval at the pair's
            adjusted level ``1 - (1 - confidence) pvalue / pvalue_adjusted``,
            which excludes 0 exactly when ``decision`` is significant),
            ``pvalue`` (two-sided), ``pvalue_adjusted``
            (after ``correction``), ``decision`` (from A's side:
            ``"better"``, ``"worse"``, ``"no significant difference"``, and
            for this dataset also ``"better, not meaningful"`` ...),
            ``target``, ``method`` and ``n`` (paired observations).

            With ``target="new data"`` the rows are the family of
            corrected paired t tests behind every decision of the report
            (``decision`` is significant exactly when ``pvalue_adjusted <
            1 - confidence``). With ``target="this dataset"`` ``estimate``
            is the mean difference over repeats, ``pvalue`` the rank test of
            :meth:`PerformanceDistribution.compare`, ``decision`` its
            uncorrected App. C.6 decision on P(A > B); ``pvalue_adjusted``
            is set for the pairs with the best model (the corrected family)
            and NaN for the others.

        Examples
        --------
        >>> from skperf import ModelSelectionReport, PerformanceDistribution
        >>> report = ModelSelectionReport(
        ...     {"a": PerformanceDistribution([0.80, 0.82, 0.85, 0.79, 0.81]),
        ...      "b": PerformanceDistribution([0.70, 0.72, 0.74, 0.69, 0.73])},
        ...     test_train_ratio=1 / 4, random_state=0)
        >>> row = report.pairwise().iloc[0]
        >>> print(row["model_a"], row["model_b"], f"{row['estimate']:.3f}", row["decision"])
        a b 0.098 better
        """
        import pandas as pd

        rank = {n: i for i, n in enumerate(self.ranking)}
        rows = []
        if self.family is not None:
            f = self.family
            for i in range(f.a.size):
                a, b = self.names[f.a[i]], self.names[f.b[i]]
                flip = rank[a] > rank[b]
                est, low, high = f.estimate[i], f.low[i], f.high[i]
                low_adj, high_adj = f.low_adjusted[i], f.high_adjusted[i]
                decision = str(f.decision[i])
                if flip:
                    a, b = b, a
                    est, low, high = -est, -high, -low
                    low_adj, high_adj = -high_adj, -low_adj
                    decision = {"better": "worse", "worse": "better"}.get(
                        decision, decision
                    )
                rows.append(
                    {
                        "model_a": a,
                        "model_b": b,
                        "estimate": float(est),
                        "low": float(low),
                        "high": float(high),
                        "low_adjusted": float(low_adj),
                        "high_adjusted": float(high_adj),
                        "pvalue": float(f.pvalue[i]),
                        "pvalue_adjusted": float(f.pvalue_adjusted[i]),
                        "decision": decision,
                        "target": self.target,
                        "method": "corrected-t",
                        "n": int(f.n[i]),
                    }
                )
        else:
            names = self.ranking
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    c = self.comparisons[a, b]
                    md = c.mean_difference
                    adj = (
                        self.pvalues_adjusted[b]
                        if a == self.best
                        else self.pvalues_adjusted[a]
                        if b == self.best
                        else np.nan
                    )
                    rows.append(
                        {
                            "model_a": a,
                            "model_b": b,
                            "estimate": float(md.estimate),
                            "low": float(md.low),
                            "high": float(md.high),
                            "pvalue": float(c.pvalue),
                            "pvalue_adjusted": float(adj),
                            "decision": c.decision,
                            "target": self.target,
                            "method": c.test,
                            "n": int(min(c.n_self, c.n_other)),
                        }
                    )
        order = sorted(
            range(len(rows)),
            key=lambda i: (rank[rows[i]["model_a"]], rank[rows[i]["model_b"]]),
        )
        columns = [
            "model_a",
            "model_b",
            "estimate",
            "low",
            "high",
            "pvalue",
            "pvalue_adjusted",
            "decision",
            "target",
            "method",
            "n",
        ]
        return pd.DataFrame([rows[i] for i in order], columns=columns)

    # ------------------------------------------------------------------
    p_values = _deprecated_alias("pvalues", "p_values")
    p_adjusted = _deprecated_alias("pvalues_adjusted", "p_adjusted")

    @property
    def n_models(self):
        """Number of models."""
        return len(self.names)

    @property
    def conclusion(self):
        """The report's answer in one paragraph (str, read-only).

        Which model to choose and which models are not significantly worse
        than it, naming the target (with ``target="new data"``: the best
        model's interval for new data and the correction over all pairs).
        The first paragraph of :meth:`to_markdown`, :meth:`to_html` and
        ``to_dict()["headline"]``, without their last sentence on how to
        read the table's run-to-run columns.

        Examples
        --------
        >>> from skperf import ModelSelectionReport, PerformanceDistribution
        >>> report = ModelSelectionReport(
        ...     {"a": PerformanceDistribution([0.80, 0.82, 0.85, 0.79, 0.81]),
        ...      "b": PerformanceDistribution([0.70, 0.72, 0.74, 0.69, 0.73])},
        ...     test_train_ratio=1 / 4, random_state=0)
        >>> import textwrap
        >>> print(textwrap.fill(report.conclusion, 72))
        On new data (each algorithm trained on as many rows from the same
        population), choose a: score 0.814 [0.771, 0.857] (95% CI, corrected-t);
        every other model is significantly worse (one pair, level 0.05).
        """
        from ._format import _conclusion

        return _conclusion(self, table=False)

    def summary_table(self, *, quantiles=(0.1, 0.5, 0.9)):
        """The per-model table of the report, each cell as shown there.

        The table of :meth:`to_markdown` and :meth:`to_html`: the same
        headers, the same text in every cell (an interval reads
        ``"0.814 [0.771, 0.857]"``); :meth:`to_frame` holds the numbers.

        Parameters
        ----------
        quantiles : sequence of float, default=(0.1, 0.5, 0.9)
            Quantile levels of the run-to-run quantile columns (``()``: none).

        Returns
        -------
        pandas.DataFrame
            One row per model, best first as in :meth:`to_frame` (index
            ``"model"``), one column per header of the report's table, str
            cells.

        Examples
        --------
        >>> from skperf import ModelSelectionReport, PerformanceDistribution
        >>> report = ModelSelectionReport(
        ...     {"a": PerformanceDistribution([0.80, 0.82, 0.85, 0.79, 0.81]),
        ...      "b": PerformanceDistribution([0.70, 0.72, 0.74, 0.69, 0.73])},
        ...     test_train_ratio=1 / 4, random_state=0)
        >>> table = report.summary_table(quantiles=())
        >>> table.columns[:3].tolist()
        ['new data: score [95% CI]', 'best - model, new data [95% CI, holm-adjusted]', 'p adj. (holm, 1 pairs)']
        >>> table.loc["b", "new data: score [95% CI]"]
        '0.716 [0.677, 0.755]'
        """
        import pandas as pd

        from ._format import _summary_table

        header, rows = _summary_table(self, quantiles)
        table = pd.DataFrame(
            [row[1:] for row in rows],
            index=pd.Index([row[0] for row in rows], name=header[0]),
            columns=header[1:],
        )
        # column header -> key (e.g. "new_data", "pvalue_adjusted"), so that
        # programs select columns by key, not by their prose
        keys = getattr(header, "keys", None)
        if keys is not None:
            table.attrs["keys"] = dict(zip(header[1:], keys[1:], strict=True))
        return table

    def prob_matrix(self):
        """P(row > column) for every pair of models, in ranking order.

        Returns
        -------
        pandas.DataFrame
            Square frame indexed by model name (ranking order), NaN on the
            diagonal.
        """
        import pandas as pd

        names = self.ranking
        mat = np.full((len(names), len(names)), np.nan)
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if a != b:
                    mat[i, j] = self.comparisons[a, b].estimate
        return pd.DataFrame(
            mat, index=pd.Index(names, name="P(row > column)"), columns=names
        )

    def to_frame(self, *, quantiles=(0.1, 0.5, 0.9)):
        """One row per model, best first.

        Parameters
        ----------
        quantiles : sequence of float, default=(0.1, 0.5, 0.9)
            Quantile levels to report, each with its confidence interval
            (``quantile_ci(method="auto")``) and the method used.

        Returns
        -------
        pandas.DataFrame
            Indexed by model name in ranking order, with columns ``rank``;
            run-to-run statistics on this dataset (over the independent
            repeats of ``distributions``): ``n``, ``mean``, ``mean_low``,
            ``mean_high``, ``mean_method``, ``sd`` (``ddof=1``); for each
            level ``q``: ``q<q>``, ``q<q>_low``, ``q<q>_high``,
            ``q<q>_method``; ``p_best_better`` (P(best > model) over
            repeats), ``p_best_better_low``, ``p_best_better_high``,
            ``p_best_better_method`` (``"sign"`` when paired, ``"newcombe"``
            otherwise; empty for the best model), ``mean_difference`` (best
            minus model); then the decision columns of the report's
            ``target``: ``decision`` (from the best's side, ``"best"`` for
            the best model), ``pvalue``, ``pvalue_adjusted``, ``vs_best`` (the
            decision read from the model's side, e.g. ``"worse than best
            (significant)"``), ``tied_with_best`` and ``target``.

            With ``target="new data"`` the decision columns come from the
            family of all pairs (corrected paired t), and the row also has
            ``new_data``, ``new_data_low``, ``new_data_high``,
            ``new_data_method`` (the model's interval for its expected score
            on new data, :attr:`generalization`; NaN for a model with
            failed fits), ``n_splits``, ``failed_splits`` (splits without a
            score: failed fits), and
            ``difference``, ``difference_low``, ``difference_high`` (best
            minus model on new data; its interval at the pair's
            ``correction``-adjusted level, so it excludes 0 exactly when the
            decision is significant: ``pairwise()``'s ``low_adjusted``). With
            ``target="this dataset"`` ``decision`` is that of
            ``comparisons[best, model]`` (App. C.6, uncorrected) and the
            p-values are the rank tests of the best against each model.

            Interval bounds beyond the metric's range (accuracy in [0, 1],
            R² at most 1, ...) are clipped to it, with a note.
        """
        key = tuple(float(q) for q in np.atleast_1d(quantiles))
        if key not in self._frames:
            self._frames[key] = self._build_frame(key)
        return self._frames[key].copy()

    def _build_frame(self, quantiles):
        import pandas as pd

        q = np.asarray(quantiles, dtype=float)
        seeds = self._seed_sequence().spawn(1)[0].generate_state(self.n_models)
        rows = []
        for rank, name in enumerate(self.ranking, start=1):
            dist = self.distributions[name]
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                mean = dist.mean_ci(confidence=self.confidence)
                row = {
                    "model": name,
                    "rank": rank,
                    "n": dist.n,
                    "mean": float(dist.mean()),
                    "mean_low": mean.low,
                    "mean_high": mean.high,
                    "mean_method": mean.method,
                    "sd": float(dist.std(ddof=1)),
                }
                if q.size:
                    seed = int(seeds[self.names.index(name)])
                    qci = dist.quantile_ci(
                        q, confidence=self.confidence, random_state=seed
                    )
                    methods = np.broadcast_to(
                        np.asarray(qci.method, dtype=object), q.shape
                    )
                    for i, level in enumerate(q):
                        col = f"q{level:g}"
                        row[col] = float(np.atleast_1d(qci.estimate)[i])
                        row[f"{col}_low"] = float(np.atleast_1d(qci.low)[i])
                        row[f"{col}_high"] = float(np.atleast_1d(qci.high)[i])
                        row[f"{col}_method"] = str(methods[i])
                if name == self.best:
                    row.update(
                        p_best_better=np.nan,
                        p_best_better_low=np.nan,
                        p_best_better_high=np.nan,
                        p_best_better_method="",
                        decision="best",
                        mean_difference=0.0,
                        pvalue=np.nan,
                        pvalue_adjusted=np.nan,
                    )
                else:
                    c = self.comparisons[self.best, name]
                    row.update(
                        p_best_better=c.estimate,
                        p_best_better_low=c.low,
                        p_best_better_high=c.high,
                        p_best_better_method=c.method,
                        decision=c.decision,
                        mean_difference=c.mean_difference.estimate,
                        pvalue=self.pvalues[name],
                        pvalue_adjusted=self.pvalues_adjusted[name],
                    )
            _record(caught, self.notes, name)
            if name in self._one_run:  # one run: no run-to-run statistics
                row.update(
                    {
                        k: (np.nan if isinstance(v, float) else "")
                        for k, v in row.items()
                        if k in ("mean", "sd") or k.startswith(("mean_", "q", "p_best"))
                    },
                    n=1,
                )
            clip = ["mean"] + [f"q{level:g}" for level in q]
            if self.family is not None:
                self._new_data_columns(row, name)
                clip.insert(0, "new_data")
            self._clip(row, clip)
            if name == self.best:
                row["vs_best"] = "best"
            elif self.family is not None:
                row["vs_best"] = _side_text(
                    self._family_decision(name, self.best), "best", self.target
                )
            else:
                row["vs_best"] = _side_text(
                    self.comparisons[name, self.best].decision, "best"
                )
            row["tied_with_best"] = name in self.tied_with_best
            row["target"] = self.target
            if self.requirements:
                row["requirement"] = self.requirements[name].verdict
                row["requirement_bound"] = self.requirements[name].bound
            rows.append(row)
        self._clip_note()
        return pd.DataFrame(rows).set_index("model")

    def _family_decision(self, a, b):
        """The family's decision of model ``a`` against model ``b`` (a's side)."""
        i, j = self.names.index(a), self.names.index(b)
        decision = str(self.family.decision[self.family.pair(i, j)])
        if i > j:  # the family stores each pair once, the first model's side
            decision = {"better": "worse", "worse": "better"}.get(decision, decision)
        return decision

    def _new_data_columns(self, row, name):
        """The new-data columns of ``name``'s row (the family's decisions)."""
        ci = self.generalization.get(name)  # None: failed fits (incomplete)
        row.update(
            new_data=np.nan if ci is None else float(ci.estimate),
            new_data_low=np.nan if ci is None else float(ci.low),
            new_data_high=np.nan if ci is None else float(ci.high),
            new_data_method="" if ci is None else str(ci.method),
            n_splits=int(np.isfinite(self._split_scores[self.names.index(name)]).sum()),
            failed_splits=int(self.incomplete.get(name, 0)),
        )
        if name == self.best:
            row.update(
                difference=0.0,
                difference_low=np.nan,
                difference_high=np.nan,
                decision="best",
                pvalue=np.nan,
                pvalue_adjusted=np.nan,
            )
            return
        f = self.family
        i, j = self.names.index(self.best), self.names.index(name)
        k = f.pair(i, j)
        sign = 1.0 if i < j else -1.0  # best minus model
        # at the family's adjusted level: excludes 0 exactly when significant
        low, high = sorted((sign * f.low_adjusted[k], sign * f.high_adjusted[k]))
        row.update(
            difference=float(sign * f.estimate[k]),
            difference_low=float(low),
            difference_high=float(high),
            decision=self._family_decision(self.best, name),
            pvalue=float(f.pvalue[k]),
            pvalue_adjusted=float(f.pvalue_adjusted[k]),
        )

    def _bounds(self):
        """``(metric, (low, high))`` when the metric has a known range, else None."""
        for metric in (self.metric, self.settings.get("default_metric")):
            bounds = _metric_bounds(metric)
            if bounds is not None:
                return metric, bounds
        return None

    def _clip(self, row, cols):
        """Clip interval bounds to the metric's range, remembering which."""
        known = self._bounds()
        if known is None:
            return
        low, high = known[1]
        for col in cols:
            for side in ("low", "high"):
                key = f"{col}_{side}"
                value = row[key]
                clipped = min(max(value, low), high)
                if not np.isnan(value) and clipped != value:
                    row[key] = clipped
                    self._clipped.setdefault(row["model"], set()).add(col)

    def _clip_note(self):
        if not self._clipped:
            return
        metric, bounds = self._bounds()
        which = "; ".join(
            f"{name}: {', '.join(sorted(cols))}" for name, cols in self._clipped.items()
        )
        text = (
            f"{_bound_text(metric, bounds)}: interval bounds beyond that range were "
            f"clipped to it ({which}); the clipped interval covers the true value "
            "whenever the unclipped one does."
        )
        if self._clip_index is None:
            self._clip_index = len(self.notes)
            self.notes.append(text)
        else:
            self.notes[self._clip_index] = text

    # ------------------------------------------------------------------
    def to_markdown(self, *, quantiles=(0.1, 0.5, 0.9)):
        """The summary table as GitHub-flavoured markdown, with the settings.

        Parameters
        ----------
        quantiles : sequence of float, default=(0.1, 0.5, 0.9)
            Quantile levels to show.

        Returns
        -------
        str
            The conclusion, the per-model table, the interval methods, the
            definitions, the settings table and any notes.

        Examples
        --------
        >>> from skperf import ModelSelectionReport, PerformanceDistribution
        >>> report = ModelSelectionReport(
        ...     {"a": PerformanceDistribution([0.80, 0.82, 0.85, 0.79, 0.81]),
        ...      "b": PerformanceDistribution([0.70, 0.72, 0.74, 0.69, 0.73])},
        ...     test_train_ratio=1 / 4, random_state=0)
        >>> for line in report.to_markdown().splitlines()[2:5]:
        ...     print(line)
        On new data (each algorithm trained on as many rows from the same population), choose a:
        score 0.814 [0.771, 0.857] (95% CI, corrected-t); every other model is significantly
        worse (one pair, level 0.05). Mean over repeats, quantiles and P(best > model) in the
        """
        from ._format import _markdown_report

        return _markdown_report(self, quantiles)

    def to_html(self, path=None, *, quantiles=(0.1, 0.5, 0.9), plots=True):
        """One self-contained HTML page: settings, tables and plots.

        CSS and plots (base64 PNG) are embedded; the page loads nothing from
        the network and opens in any browser.

        Parameters
        ----------
        path : str or path-like or None, default=None
            Where to write the page (UTF-8); ``None`` only returns it.
        quantiles : sequence of float, default=(0.1, 0.5, 0.9)
            Quantile levels to show.
        plots : bool, default=True
            Embed plots (needs matplotlib; without it the page says so).

        Returns
        -------
        str
            The HTML document.
        """
        from ._html import _html_report

        html = _html_report(self, quantiles, full=True, plots=plots)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(html)
        return html

    def _repr_html_(self):
        from ._html import _html_report

        return _html_report(self, (0.1, 0.5, 0.9), full=False, plots=False)

    def plot(self, axes=None, *, quantiles=(0.1, 0.5, 0.9)):
        """Per-model scores with quantile intervals, and the P(A > B) matrix.

        Parameters
        ----------
        axes : sequence of two matplotlib Axes or None, default=None
            Where to draw; ``None`` creates a new figure.
        quantiles : sequence of float, default=(0.1, 0.5, 0.9)
            Quantile levels drawn with their confidence intervals.

        Returns
        -------
        matplotlib.figure.Figure
            The figure holding the two axes.

        Raises
        ------
        ImportError
            If matplotlib is not installed (``pip install matplotlib``).
        """
        from ._plot import _plot_report

        return _plot_report(self, axes=axes, quantiles=quantiles)

    def plot_curves(self, *, kind="roc", ax=None):
        """One curve band per model: ROC or precision-recall across repeats.

        Each model's median curve with its pointwise band (by default the
        10 % and 90 % pointwise quantiles of the per-repeat curves; see
        :class:`~skperf.report.CurveBand`), all on one axes.

        Parameters
        ----------
        kind : {"roc", "pr"}, default="roc"
            ROC or precision-recall curves.
        ax : matplotlib Axes or None, default=None
            Axes to draw on (new figure when None).

        Returns
        -------
        ax : matplotlib Axes
            The axes drawn on: per model the center line (labelled with the
            model's median ROC AUC or average precision) and its band.

        Raises
        ------
        ValueError
            If the report holds no curves (build it with
            ``compare_models(..., return_predictions=True)`` on a binary
            target) or ``kind`` is not ``"roc"`` or ``"pr"``.
        ImportError
            If matplotlib is not installed (``pip install matplotlib``).
        """
        from ._plot import _plot_curves

        return _plot_curves(self, kind=kind, ax=ax)

    def to_dict(self):
        """The report's numbers as plain Python objects (JSON-serializable).

        Returns
        -------
        dict
            ``target``, ``best``, ``ranking``, ``tied_with_best``,
            ``confidence``, ``correction``, ``gamma``, ``test_train_ratio``,
            ``headline`` (the report's first paragraph), ``models`` (the rows
            of :meth:`to_frame` at the default quantiles, by model),
            ``pairwise`` (the rows of :meth:`pairwise`), ``generalization``
            (per model, the new-data interval's fields), ``requirements``
            (verdict per model), ``settings`` and ``notes``.

        Examples
        --------
        >>> from skperf import ModelSelectionReport, PerformanceDistribution
        >>> report = ModelSelectionReport(
        ...     {"a": PerformanceDistribution([0.80, 0.82, 0.85, 0.79, 0.81]),
        ...      "b": PerformanceDistribution([0.70, 0.72, 0.74, 0.69, 0.73])},
        ...     test_train_ratio=1 / 4, random_state=0)
        >>> d = report.to_dict()
        >>> d["target"], d["best"], d["tied_with_best"]
        ('new data', 'a', ['a'])
        """
        from ._format import _conclusion

        frame = self.to_frame()
        models = {
            name: {k: _plain(v) for k, v in row.items()}
            for name, row in frame.to_dict(orient="index").items()
        }
        pairs = [
            {k: _plain(v) for k, v in row.items()}
            for row in self.pairwise().to_dict(orient="records")
        ]
        generalization = {
            name: {
                k: _plain(getattr(ci, k, None))
                for k in ("estimate", "low", "high", "confidence", "method", "n")
            }
            for name, ci in self.generalization.items()
        }
        return {
            "target": self.target,
            "metric": self.metric,
            "greater_is_better": self.greater_is_better,
            "best": self.best,
            "ranking": list(self.ranking),
            "tied_with_best": list(self.tied_with_best),
            "confidence": self.confidence,
            "correction": self.correction,
            "gamma": self.gamma,
            "test_train_ratio": self.test_train_ratio,
            "headline": _conclusion(self),
            "models": models,
            "pairwise": pairs,
            "generalization": generalization,
            "requirements": {n: r.verdict for n, r in self.requirements.items()},
            "settings": {k: _plain(v) for k, v in self.settings.items()},
            "notes": list(self.notes),
        }

    def to_json(self, path=None):
        """:meth:`to_dict` as JSON text (NaN written as ``null``).

        Parameters
        ----------
        path : str or path-like or None, default=None
            Where to write the JSON (UTF-8); ``None`` only returns it.

        Returns
        -------
        str
            The JSON document.
        """
        import json

        text = json.dumps(self.to_dict(), allow_nan=False)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def __repr__(self):
        return (
            f"ModelSelectionReport(target={self.target!r}, n_models={self.n_models}, "
            f"best={self.best!r}, tied_with_best={self.tied_with_best!r}, "
            f"confidence={self.confidence:g}, correction={self.correction!r})"
        )

    def __str__(self):
        return self.to_markdown()


def _corrected_t_interval(scores, test_train_ratio, confidence, metric):
    """The corrected resampled t interval for the mean score on new data."""
    from ..stats._multiple import _paired_t

    scores = np.asarray(scores, dtype=float)
    scores = scores[np.isfinite(scores)]
    est, low, high, _ = _paired_t(scores, test_train_ratio, confidence)
    return Interval(
        float(est),
        float(low),
        float(high),
        confidence=confidence,
        method="corrected-t",
        n=int(scores.size),
        note=(
            f"new data: expected {metric or 'score'} of the algorithm trained on "
            "about n rows (Nadeau & Bengio's corrected resampled t over "
            f"{scores.size} splits, n_test / n_train = {test_train_ratio:.3g})"
        ),
    )


def _requirements(distributions, kw):
    """Verdict of the requirement ``kw`` per model (empty dict without one)."""
    if kw is None:
        return {}
    return {name: d.requirement(**kw) for name, d in distributions.items()}


def _plain(value):
    """A JSON-ready value: numpy scalars unwrapped, NaN as None."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _describe(obj):
    return "None" if obj is None else repr(obj)


def _vary_list(vary):
    if isinstance(vary, str):
        return list(_VARY_ALL) if vary == "all" else [vary]
    return [v for v in _VARY_ALL if v in set(vary)]


def _sources_applied(estimators, vary, y):
    """The requested sources some model has, and why the others are left out.

    ``"search"`` applies when a model contains a hyperparameter search (or an
    inner ``cv``), ``"init"`` when a model uses a ``random_state``; the split
    source always applies. Returns ``(applied, skipped)`` with ``skipped`` a
    dict source -> reason.
    """
    from ..model_selection._vary import _plan

    requested = _vary_list(vary)
    plans = []
    for est in estimators.values():
        try:
            plans.append(_plan(est, y, shuffle_int_cv=True))
        except Exception:  # unusual estimator: say what was requested
            return requested, {}
    has = {
        "split": True,
        "init": any(p.init_random for p in plans),
        "search": any(p.search_prefixes or p.search_cv for p in plans),
    }
    reasons = {
        "init": "no model uses a random_state",
        "search": "no model contains a hyperparameter search",
    }
    applied = [v for v in requested if has[v]]
    skipped = {v: reasons[v] for v in requested if not has[v]}
    return applied, skipped


def compare_models(
    estimators,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    cv=None,
    n_repeats="auto",
    vary="all",
    random_state=None,
    n_jobs=None,
    gamma=0.75,
    confidence=0.95,
    correction="holm",
    target="new data",
    progress=False,
    n_boot="auto",
    requirement=None,
    memory=None,
    return_predictions=False,
    params=None,
    seeder=None,
    max_fits=None,
    precision=None,
    time_budget=None,
):
    """Evaluate several models on shared seeds and compare them.

    Parameters
    ----------
    estimators : dict of str to estimator
        Models to compare, by name. The order breaks ties for the best model.
    X : array-like of shape (n_samples, n_features)
        Data.
    y : array-like of shape (n_samples,) or None, default=None
        Target.
    groups : array-like of shape (n_samples,) or None, default=None
        Group labels. With ``cv=None`` whole groups are drawn
        (``GroupOutOfBootstrap``); a splitter that ignores groups warns
        (:class:`~skperf.exceptions.GroupsIgnoredWarning`).
    scoring : str, callable or None, default=None
        Scorer (as in :func:`sklearn.model_selection.cross_val_score`);
        ``None`` uses each estimator's ``score``, which must measure one
        metric for all models (accuracy for classifiers, R² for regressors):
        a classifier and a regressor together need an explicit ``scoring``.
        One metric per report: a list or dict of several scorers is refused
        (call ``compare_models`` once per metric; with ``memory=`` the fits
        are reused).
    cv : int, cross-validation generator, iterable or None, default=None
        Splitter of each repeat. ``None`` (or an int K, for K folds): with
        ``target="new data"`` a shuffled 10-fold, not stratified (random splits, as the corrected t
        was derived for: stratified folds made it under-cover; for a
        classifier every test fold holds every class; ``GroupKFold`` with
        ``groups``) re-drawn in every repeat, i.e. 10 x ``n_repeats`` fits per
        model (repeated 10-fold, the design of Bouckaert & Frank's corrected
        repeated CV); with ``target="this dataset"`` one out-of-bootstrap
        split per repeat (see :class:`~skperf.RepeatedEvaluator`).
    n_repeats : int or "auto", default="auto"
        Repeats per model (each repeat runs every fold of ``cv``).
        ``"auto"``: with ``target="new data"``, enough repeats of ``cv`` for
        about 100 fits per model (10 x 10-fold by default; 20 x 5-fold), the
        design of :func:`~skperf.generalization_ci`'s ``"auto"`` (Bouckaert
        & Frank's corrected repeated CV), whose interval coverage and
        false-"significant" rate the coverage study over datasets measured
        (see Notes); 1 when the splits are the same in every repeat (an
        iterable of splits, a splitter that does not shuffle, or ``vary``
        without ``"split"``): more repeats would refit the same splits,
        which the comparison averages per split. With ``target="this
        dataset"``, 10. Fewer repeats are faster and less powerful: on 400
        datasets of two equally good algorithms 3 x 10-fold said
        "significant" on 0.040 and detected a real difference on 0.2125 of
        400, 10 x 10-fold on 0.0575 and 0.2625; the headline interval (read
        with K - 1 degrees of freedom) is wider with fewer repeats.
    vary : "all" or subset of {"split", "init", "search"}, default="all"
        Sources of variation re-seeded at each repeat.
    random_state : int, numpy.random.RandomState, numpy.random.Generator or None, default=None
        Root of the one seed stream all models share. ``None`` draws fresh
        entropy, recorded in the report (``settings["random_state"]``).
    n_jobs : int or None, default=None
        Parallel jobs; all fits of all models run in one pool.
    gamma : float, default=0.75
        Threshold of a meaningful probability of outperforming.
    confidence : float, default=0.95
        Confidence level of every interval and ``1 - confidence`` as the
        significance level of the corrected p-values.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction (see :class:`ModelSelectionReport`).
    target : {"new data", "this dataset"}, default="new data"
        What every decision of the report is about. ``"new data"``: is an
        algorithm better than another when trained on about n rows from
        the same population? All pairs are tested with the corrected
        resampled paired t on the per-split score differences, with the
        ratio n_test / n_train measured on the splits, as one family
        corrected by ``correction``. ``"this dataset"``: the run-to-run
        decisions on this dataset (P(A > B) over repeats, the best against
        each other model).
    progress : bool, default=False
        Show one progress bar over all fits.
    n_boot : int or "auto", default="auto"
        Bootstrap resamples of a comparison that needs them; ``"auto"``
        chooses them from the confidence level.
    requirement : float, tuple, dict or None, default=None
        A requirement every model is checked against
        (:meth:`PerformanceDistribution.requirement`): a threshold, a
        ``(threshold, probability)`` pair or a dict of keyword arguments
        (``confidence`` defaults to the report's). The verdicts are in
        the report's ``requirements``, in the ``requirement`` column of
        :meth:`to_frame` and in the markdown and HTML reports.
    memory : None, str, os.PathLike or joblib.Memory, default=None
        Cache of the fits (see :class:`~skperf.RepeatedEvaluator`): a rerun,
        or one with more repeats or more models, fits only what is missing.
    return_predictions : bool, default=False
        Every model's evaluator keeps its test predictions (``predictions_``),
        and the report keeps, per model, the ROC and precision-recall curves
        across repeats with their pointwise band (``curves``, drawn by
        :meth:`ModelSelectionReport.plot_curves` and in the HTML report).
        Curves need a binary target and a model with ``predict_proba`` or
        ``decision_function``; for any other model the report has no curves
        and a note says why.
    params : dict or None, default=None
        Metadata routed to the fits and scorers as
        :func:`sklearn.model_selection.cross_validate` routes ``params``
        (e.g. ``sample_weight``; passed to every model's
        :meth:`RepeatedEvaluator.fit`).
    seeder : callable or None, default=None
        ``seeder(estimator, seed)`` called in the worker right before each
        fit of every model with that fit's init seed (see
        :class:`~skperf.RepeatedEvaluator`); torch and skorch nets are
        seeded without it.
    max_fits : int or None, default=None
        The most fits per model. With ``n_repeats="auto"``, ``target="new
        data"`` and the default ``cv`` the design is sequential: rounds of
        K-fold CV (at most ``max_fits``, default 10 x 10-fold), stopped once
        every pair of models is decided or futile (a group-sequential
        corrected paired t per pair with O'Brien-Fleming spending, at the
        Bonferroni share of the pairs, so the family-wise error over looks
        and pairs is held). A race: a model decided worse than another, or
        whose pairs are all settled, stops being fitted (its open pairs are
        read on the rounds it has). The report says ``stopped``,
        ``max_fits`` and ``fits`` (the fits each model spent). With a fixed
        design it must not be smaller than the design.
    precision : float or None, default=None
        Sequential design: also stop once every model's interval has at
        most this half-width (metric units).
    time_budget : float or None, default=None
        Sequential design: seconds after which no new round starts
        (``stopped="budget"``).

    Returns
    -------
    ModelSelectionReport
        With ``evaluators`` (the fitted :class:`~skperf.RepeatedEvaluator`
        per model, ``results_`` holding one row per fit), ``fits`` (dict:
        model -> fits spent), ``max_fits`` and ``stopped``.

    Raises
    ------
    ValueError
        With ``scoring=None``, when the models' own scores are different
        metrics (e.g. ``"accuracy (LogisticRegression.score) for 'a' vs r2
        (LinearRegression.score) for 'b'"``), with several scorers, or with
        an unknown ``target``: before anything is fitted.

    Warns
    -----
    sklearn.exceptions.FitFailedWarning
        When fits fail (``RepeatedEvaluator``'s ``error_score=np.nan``):
        every other fit is kept, and with ``target="new data"`` each pair of
        models is tested on the splits where both have a score (the
        corrected t's ``J`` is their number, ``pairwise()["n"]``), with a
        note saying how many splits each pair lost and whose score was
        missing. Such a model is marked incomplete (``report.incomplete``):
        it gets no interval on new data (the mean over the fits that
        succeeded describes the algorithm only where it fits) and is not
        chosen as the best while a model without failed fits is there, each
        with a note. A model with fewer than 2 successful fits is left out of
        the comparison, with a note (its evaluator, in ``evaluators``, keeps
        ``results_["error"]``); when no model is left its error is raised.

    Notes
    -----
    Every model gets the same ``random_state`` (``None`` resolved once to one
    drawn entropy), hence the same split, initialization and search seeds per
    repeat: the scores are paired (Bouthillier et al., App. C.2) when the fits
    used identical train/test indices (``seeds["split_id"]``; an int ``cv`` is
    chosen from ``y`` alone, so every model gets the same folds). The best
    model is the one with the best mean.

    With ``target="new data"`` the corrected paired t (Nadeau & Bengio 2003)
    uses the ratio ``n_test / n_train`` measured on the splits: ``1 / (K -
    1)`` for K-fold, which is what the correction was derived for (random
    train/test splits, of which a repeated K-fold is a special case).
    Other designs (out-of-bootstrap, whose training sets repeat rows) get
    the measured ratio and a note saying the correction is approximate
    there. Why repeated 10-fold by default: the correction's term ``n_test /
    n_train`` dominates the variance (``1/J + 1/9`` for 10-fold against
    ``1/J + 1/4`` for 5-fold), so ten folds give narrower intervals and more
    power per fit than five, and train on 90 % of the rows (the question is
    about n rows). Cost: ``10 * n_repeats`` fits per model (100 at the
    default), against ``n_repeats`` (10) with ``target="this dataset"``.

    Why 10 repeats: over datasets drawn from a population (Validity page,
    "New data"; 400 datasets of 200 rows), the paired test on 10 x 10-fold
    called two equally good algorithms different on 0.0575 (s.e. 0.012;
    3 x 10-fold: 0.040) and detected a real difference on 0.2625 (0.2125);
    each model's headline interval, the corrected t on the same fits read
    with K - 1 = 9 degrees of freedom (Bouckaert 2003), held in 125 of the
    study's 128 cells (read with J - 1 = 99, in 109).

    References
    ----------
    Nadeau & Bengio (2003), "Inference for the generalization error",
    Machine Learning 52, Sec. 4 (corrected resampled t); Bouckaert & Frank
    (2004), "Evaluating the replicability of significance tests for
    comparing learning algorithms" (corrected repeated 10-fold CV); Holm
    (1979); Bouthillier et al. (2021), Sec. 4.1, Sec. 5 and App. C.2-C.6;
    textbook chapter "Confidence Intervals for Model Performance", Sec.
    4.1-4.4.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf import compare_models
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> models = {
    ...     "logreg": LogisticRegression(),
    ...     "tree": DecisionTreeClassifier(max_depth=3),
    ...     "dummy": DummyClassifier(),
    ... }
    >>> report = compare_models(models, X, y, n_repeats=3, random_state=0)
    >>> report.best, report.tied_with_best
    ('logreg', ['logreg', 'tree'])
    >>> {name: round(p, 3) for name, p in report.pvalues_adjusted.items()}
    {'tree': 0.593, 'dummy': 0.0}
    """
    from ..model_selection._evaluator import RepeatedEvaluator, _fit_evaluators

    if not isinstance(estimators, Mapping) or len(estimators) == 0:
        raise TypeError(
            "`estimators` must be a non-empty dict of model name to estimator; "
            f"got {type(estimators).__name__}."
        )
    for name, est in estimators.items():
        if not isinstance(name, str):
            raise TypeError(f"`estimators` keys must be str model names; got {name!r}.")
        if not hasattr(est, "fit"):
            raise TypeError(
                f"`estimators[{name!r}]` must be an estimator with `fit`; got {est!r}."
            )
    scoring = _single_scoring(scoring)
    target = _check_target(target)
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(
            "`params` must be a dict of metadata to route to the fits and scorers "
            f"(as in cross_validate), or None; got {type(params).__name__}."
        )
    default_metric = None
    if scoring is None:
        default_metric, conflict = _shared_default_score(estimators)
        if conflict:
            raise ValueError(
                "With `scoring=None` each model is scored by its own `score` "
                f"method, and these measure different metrics: {conflict}. Pass "
                "`scoring=` a metric all the models support (e.g. "
                "scoring='accuracy' for classifiers, 'r2' for regressors)."
            )
    # validate before the (expensive) fits
    gamma = _check_gamma(gamma)
    confidence = _check_confidence(confidence)
    correction = _check_correction(correction)
    n_boot = _check_n_boot(n_boot)
    _check_requirement(requirement, confidence)
    entropy = _root_entropy(random_state)
    given_cv = cv
    # the design for new data: None or a number of folds (random K-fold, not
    # stratified; every other cv is used as given)
    defaulted = target == "new data" and (
        cv is None or (isinstance(cv, Integral) and not isinstance(cv, bool))
    )
    if defaulted:
        from sklearn.base import is_classifier

        classifier = any(is_classifier(e) for e in estimators.values())
        cv = _default_new_data_cv(X, y, groups, classifier=classifier, k=cv)
    sequential = (
        n_repeats == "auto"
        and target == "new data"
        and defaulted
        and not _fixed_splits(cv, vary)
    )
    max_fits, precision, time_budget = _check_budget(max_fits, precision, time_budget)
    if (precision is not None or time_budget is not None) and not sequential:
        raise ValueError(
            "`precision` and `time_budget` stop the sequential design, which is "
            "n_repeats='auto' with target='new data' and the default cv; got "
            f"n_repeats={n_repeats!r}, target={target!r}, cv={given_cv!r}."
        )
    n_repeats = _resolve_n_repeats(n_repeats, target, cv, X, y, groups, vary)
    if max_fits is not None:
        per_repeat = cv.get_n_splits() if hasattr(cv, "get_n_splits") else 1
        if sequential:
            n_repeats = max(1, min(n_repeats, max_fits // max(per_repeat, 1)))
        elif n_repeats * per_repeat > max_fits:
            raise ValueError(
                f"`max_fits`={max_fits} is smaller than the fixed design's "
                f"{n_repeats * per_repeat} fits per model (n_repeats={n_repeats})."
            )

    evaluators = {
        name: RepeatedEvaluator(
            est,
            scoring=scoring,
            cv=cv,
            n_repeats=n_repeats,
            vary=vary,
            random_state=entropy,
            n_jobs=n_jobs,
            refit=False,
            memory=memory,
            return_predictions=return_predictions,
            seeder=seeder,
        )
        for name, est in estimators.items()
    }
    lost = {}  # models whose fits all failed: left out, with a note
    routed = _routed_groups(evaluators, params)
    race = None
    if sequential and len(routed) == 1 and len(evaluators) > 1:
        race = _RaceStopping(confidence, precision)
    for group, (fit_params, score_params) in routed:
        try:
            _fit_evaluators(
                group,
                X,
                y,
                groups=groups,
                n_jobs=n_jobs,
                progress=progress,
                _score_params=score_params,
                _look=race,
                _time_budget=time_budget if race is not None else None,
                **fit_params,
            )
        except Exception:
            failed = _models_without_scores(group)
            if not failed or len(lost) + len(failed) == len(evaluators):
                raise
            lost.update(failed)
    _warn_left_out(lost)
    fitted = {name: ev for name, ev in evaluators.items() if name not in lost}
    applied, skipped = _sources_applied(estimators, vary, y)
    # a negated loss (neg_root_mean_squared_error) is reported as the loss
    # itself, lower is better: RMSE 56.2 rather than -56.2 (same decisions)
    distributions = {name: _as_loss(ev.distribution_) for name, ev in fitted.items()}

    import sklearn

    from .._version import __version__
    from ..utils._sklearn_compat import _num_samples

    settings = {
        "models": {name: repr(est) for name, est in estimators.items()},
        "vary": applied,
        "not_varied": skipped,
        "n_repeats": n_repeats,
        "cv": _describe(given_cv)
        + (
            f" (one {'group ' if groups is not None else ''}out-of-bootstrap "
            "split per repeat)"
            if cv is None
            else f" ({cv.n_splits}-fold, not stratified, every test fold holding "
            "every class; shuffled anew in every repeat)"
            if defaulted and isinstance(cv, NewDataKFold)
            else f" ({cv.n_splits}-fold, shuffled anew in every repeat)"
            if defaulted and type(cv) is KFold
            else f" ({_describe(cv)}, shuffled anew in every repeat)"
            if defaulted
            else ""
        ),
        "scoring": _describe(scoring)
        + (
            f" (each estimator's score: {default_metric})"
            if default_metric
            else " (each estimator's score)"
            if scoring is None
            else ""
        ),
        "default_metric": default_metric,
        "random_state": entropy,
        "n_samples": _num_samples(X),
        "skperf": __version__,
        "scikit-learn": sklearn.__version__,
    }
    ratio, design = (None, None)
    if target == "new data":
        ratio, design = _measured_ratio(fitted, _num_samples(X))
        settings["test_train_ratio"] = design
    report = ModelSelectionReport(
        distributions,
        target=target,
        test_train_ratio=ratio,
        gamma=gamma,
        confidence=confidence,
        correction=correction,
        n_boot=n_boot,
        random_state=entropy,
        settings=settings,
        requirement=requirement,
        _split_design=_shared_design(fitted),
        _raced_out={
            name: len(ev.results_)
            for name, ev in fitted.items()
            if getattr(ev, "stopped_", None) == "settled"
        },
    )
    report.evaluators = evaluators
    first = next(iter(fitted.values()))
    report.max_fits = len(first.results_)  # a fixed design: every fit
    report.fits = {name: len(ev.results_) for name, ev in fitted.items()}
    report.stopped = "fixed"
    if race is not None:
        report.max_fits = n_repeats * cv.get_n_splits()
        report.stopped = race.reason(
            next(
                (ev.stopped_ for ev in fitted.values() if ev.stopped_ != "settled"),
                first.stopped_,
            )
        )
        report.stop_reason = race.why()
        report.notes.append(
            f"sequential design: {_fits_text(report.fits)} of at most "
            f"{report.max_fits} fits per model, stopped: {report.stopped} "
            f"({race.why()})."
        )
        _note_race_disagreements(report, race, fitted)
    for name, reason in lost.items():
        report.notes.add(name, f"{reason}: {_LEFT_OUT}")
    if target == "new data":
        _note_borderline_pairs(report)
    if target == "new data":
        refits = {
            "estimators": estimators,
            "X": X,
            "y": y,
            "groups": groups,
            "scoring": scoring,
            "random_state": entropy,
            "n_jobs": n_jobs,
            "memory": memory,
            "seeder": seeder,
        }
        _evaluator_intervals(report, fitted, design, refits)
    if return_predictions:
        _add_curves(report, fitted)
    return report


_LEFT_OUT = (
    "left out of the comparison (no score, interval or decision for it; see its "
    "evaluator's results_['error'] in report.evaluators)."
)


def _models_without_scores(evaluators):
    """``{name: reason}`` for the models whose fits all (or all but one) failed.

    Empty when anything else stopped the fits (an error to re-raise).
    """
    out = {}
    for name, ev in evaluators.items():
        if hasattr(ev, "distribution_"):
            continue
        results = getattr(ev, "results_", None)
        if results is None or "error" not in results:
            return {}
        errors = results["error"]
        n_fail = int(errors.notna().sum())
        if len(errors) - n_fail >= 2:  # a distribution was possible: another error
            return {}
        out[name] = (
            f"{n_fail} of {len(errors)} fits failed (at least 2 scores are needed; "
            f"first error: {errors.dropna().iloc[0]})"
        )
    return out


def _warn_left_out(lost):
    """A FitFailedWarning per model left out of the comparison."""
    if not lost:
        return
    from sklearn.exceptions import FitFailedWarning

    from ..utils._warnings import _external_stacklevel

    for name, reason in lost.items():
        warnings.warn(
            f"{name}: {reason}: {_LEFT_OUT}",
            FitFailedWarning,
            stacklevel=_external_stacklevel(),
        )


def _shared_design(evaluators):
    """The split ids of every fit (failed ones included) when all models ran
    on the same splits, else None: what the report pairs their scores on.

    A race's model that stopped early holds the first rounds of the others'
    splits (a prefix); the longest run is the design.
    """
    if not all("split_id" in ev.results_ for ev in evaluators.values()):
        return None
    ids = [ev.results_["split_id"].to_numpy() for ev in evaluators.values()]
    longest = max(ids, key=len)
    if all(np.array_equal(i, longest[: i.size]) for i in ids):
        return longest
    return None


def _routed_groups(evaluators, params):
    """``[(evaluators, (fit_params, score_params)), ...]``: the fits to run.

    Without metadata routing every model gets ``params`` in its ``fit`` (one
    pool for all fits). With routing enabled each model's metadata is routed
    as :func:`~sklearn.model_selection.cross_validate` routes it (to the
    estimator's ``fit`` and to the scorers, as they request it; unrequested
    metadata raises ``UnsetMetadataPassedError`` before any fit); models
    with the same routing share one pool.
    """
    from sklearn.utils.metadata_routing import _routing_enabled, process_routing

    params = dict(params or {})
    if not params or not _routing_enabled():
        return [(evaluators, (params, None))]
    groups = {}
    for name, ev in evaluators.items():
        routed = process_routing(ev, "fit", **params)
        fit_params, score_params = dict(routed.estimator.fit), dict(routed.scorer.score)
        key = (tuple(sorted(fit_params)), tuple(sorted(score_params)))
        groups.setdefault(key, ({}, (fit_params, score_params)))[0][name] = ev
    return list(groups.values())


def _single_scoring(scoring):
    """One scorer; a sequence or dict of several is refused (issue 17, item 8)."""
    if isinstance(scoring, (list, tuple, set, frozenset, Mapping)):
        names = list(scoring)
        if len(names) == 1:
            return scoring[names[0]] if isinstance(scoring, Mapping) else names[0]
        raise ValueError(
            f"compare_models compares models on one metric; got scoring={scoring!r} "
            f"({len(names)} scorers). Call compare_models once per metric, e.g. "
            f"scoring={names[0]!r} (pass memory= to reuse the fits)."
            if names
            else "`scoring` must name one metric; got an empty "
            f"{type(scoring).__name__}."
        )
    from ..metrics._registry import _check_scorer_names

    return _check_scorer_names(scoring)  # before any fit, a short message


#: Fits per model that n_repeats="auto" aims at for target "new data": the
#: 10 x 10-fold design of generalization_ci's auto (docs/validity.rst, "New
#: data"), whose headline interval and paired tests the coverage study
#: measured.
_AUTO_FITS = 100


def _resolve_n_repeats(n_repeats, target, cv, X, y, groups, vary="all"):
    """``n_repeats``, with ``"auto"`` made concrete (see compare_models)."""
    if isinstance(n_repeats, str):
        if n_repeats != "auto":
            raise ValueError(
                f'`n_repeats` must be a positive int or "auto"; got {n_repeats!r}.'
            )
        if target != "new data":
            return 10
        if _fixed_splits(cv, vary):
            # every repeat would refit the same splits (the report averages
            # them per split): the corrected t's J is the number of splits
            return 1
        from sklearn.model_selection import check_cv

        try:
            splits = check_cv(cv).get_n_splits(X, y, groups)
        except (TypeError, ValueError):  # an iterable of splits, or unknown
            splits = 1
        return max(1, -(-_AUTO_FITS // max(int(splits), 1)))
    return n_repeats


def _fixed_splits(cv, vary):
    """Whether every repeat gets the same splits: an iterable of splits, a
    splitter that does not shuffle, or ``vary`` without ``"split"``."""
    from ..model_selection._vary import _check_vary, _is_random_splitter

    if "split" not in _check_vary(vary)[0]:
        return True
    if cv is None or isinstance(cv, Integral):
        return False  # out-of-bootstrap, or a K-fold shuffled in every repeat
    return not (hasattr(cv, "split") and _is_random_splitter(cv))


def _measured_ratio(evaluators, n_samples):
    """``(n_test / n_train, design text)`` measured on the fits' splits."""
    results = next(iter(evaluators.values())).results_
    n_train = results["n_train"].to_numpy(dtype=float)
    n_test = results["n_test"].to_numpy(dtype=float)
    ratio = float(n_test.mean() / n_train.mean())
    per_repeat = results.groupby("repeat")["n_test"].sum().to_numpy()
    kfold = bool(
        np.all(n_train + n_test == n_samples) and np.all(per_repeat == n_samples)
    )
    if kfold:
        k = int(results.groupby("repeat").size().max())
        text = (
            f"{ratio:.4g} (measured: mean n_test {n_test.mean():.4g} / mean "
            f"n_train {n_train.mean():.4g}; {k}-fold, 1/(K-1) = {1 / (k - 1):.4g})"
        )
    else:
        text = (
            f"{ratio:.4g} (measured: mean n_test {n_test.mean():.4g} / mean "
            f"n_train {n_train.mean():.4g}; the splits are not K-fold, so the "
            "corrected t is an approximation for this design)"
        )
    return ratio, text


def _as_loss_name(metric):
    """``"root_mean_squared_error"`` for ``"neg_root_mean_squared_error"``."""
    if isinstance(metric, str) and metric.startswith("neg_"):
        return metric[len("neg_") :]
    return metric


def _evaluator_intervals(report, evaluators, design, refits=None):
    """Headline intervals from ``generalization_ci()`` where the evaluator has it.

    Falls back to the corrected resampled t of the report (and notes the
    split design the new-data tests used). Where ``generalization_ci(method=
    "auto")`` would run nested CV (a per-row scorer below n = 100), the
    interval is nested CV on 45 more fits per model (``refits``: what those
    fits need), not the corrected t on the evaluator's fits, which
    under-covered there.
    """
    from ..model_selection._generalization import _evaluator_metric, _known_gap

    report.notes.append(
        "new data: every pair of models is tested with the corrected resampled "
        f"paired t (Nadeau & Bengio 2003) at n_test / n_train = {design}; the "
        f"{report.n_models * (report.n_models - 1) // 2} pairs form one family "
        f"corrected by {report.correction or 'no correction'}."
    )
    for name, ev in evaluators.items():
        method = getattr(ev, "generalization_ci", None)
        if method is None or name in report.incomplete:  # failed fits: a note
            continue
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                ci = method(confidence=report.confidence)
        except (ValueError, TypeError, NotImplementedError) as exc:
            why = str(exc).removeprefix("generalization_ci: ").rstrip(".")
            report.notes.add(name, f"generalization_ci: {why}; corrected-t used.")
            continue
        _record(caught, report.notes, name)
        ci = _nested_where_auto_would(ci, ev, name, report, refits)
        metric = _evaluator_metric(ev)[0]
        gap = _known_gap(ev.estimator, metric, ci.n_fits, ci.method, ci.n)
        if gap:
            report.notes.add(name, gap.removeprefix(" Known gap: "))
        if ci.metric != report.metric and report.metric == _as_loss_name(ci.metric):
            # the report shows the loss itself: the interval in its units
            ci = dataclasses.replace(  # + 0.0: no negative zero
                ci,
                estimate=-ci.estimate + 0.0,
                low=-ci.high + 0.0,
                high=-ci.low + 0.0,
                metric=report.metric,
            )
        report.generalization[name] = ci


def _nested_where_auto_would(ci, ev, name, report, refits):
    """``ci``, or nested CV where ``generalization_ci``'s auto would run it."""
    from ..model_selection._generalization import _evaluator_gate, generalization_ci

    if refits is None or refits["groups"] is not None:
        return ci  # nested CV assumes independent rows
    if not isinstance(refits["scoring"], str):
        return ci
    found, nested = _evaluator_gate(ev)
    if not nested:
        return ci
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = generalization_ci(
                refits["estimators"][name],
                refits["X"],
                refits["y"],
                scoring=refits["scoring"],
                method="nested-cv",
                confidence=report.confidence,
                random_state=refits["random_state"],
                n_jobs=refits["n_jobs"],
                memory=refits["memory"],
                seeder=refits.get("seeder"),
            )
    except ValueError as exc:  # e.g. too few rows for nested CV's folds
        why = str(exc).rstrip(".")
        report.notes.add(
            name, f"nested CV not run ({why}); the corrected t on the fits kept."
        )
        return ci
    _record(caught, report.notes, name)
    return dataclasses.replace(
        res,
        note=f"From the {ev.results_.shape[0]} fits of the comparison:{found} So "
        f"nested CV on {res.n_fits} more fits: " + res.note,
    )


def _add_curves(report, evaluators):
    """Set ``report.curves`` from the kept predictions; note models without."""
    from ._curves import _NO_CURVES, _model_curves

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        curves, missing = _model_curves(evaluators)
    _record(caught, report.notes, "curves")
    report.curves = {kind: c for kind, c in curves.items() if c}
    report.curves_missing = {name: reason.rstrip(".") for name, reason in missing}
    for name, reason in missing:
        report.notes.add(name, f"{_NO_CURVES}: {reason.rstrip('.')}.")


class _RaceStopping:
    """``look`` of the engine for ``compare_models``' sequential default: a race.

    After each round of K-fold CV every open pair of models is looked at
    with :func:`skperf.stats._sequential.compare_look` (the group-sequential
    corrected paired t of ``compare_generalization``'s default: O'Brien-
    Fleming spending, efficacy looks at round 2 and the last, non-binding
    futility), each at the Bonferroni share ``(1 - confidence) / m`` of the
    ``m`` pairs, so the family-wise error over looks and pairs is held. A
    pair is settled at its first decided or futile look (the group-
    sequential test's first crossing; futility never raises the error).

    The race (F-race in spirit, Birattari et al. 2002, with each pair's
    error held as above): a model stops being fitted once it is decided
    worse than another model, or once every pair it belongs to is settled;
    its pairs still open are then read on the rounds it has. ``active``
    holds the models still fitted (read by :func:`skperf.model_selection._engine._run_rounds`).
    The run stops when no model is left, or with ``precision`` once every
    model's interval is that narrow (a model is kept until its own interval
    is). The report's decisions are then read from the fits (Holm over the
    pairs, each on the splits both models have).
    """

    def __init__(self, confidence, precision=None):
        self.confidence = confidence
        self.precision = precision
        self.looks = {}
        self.out = {}  # model index -> round it was decided worse
        self.active = None
        self.specs = []

    def __call__(self, jobs, rounds, final):
        from ..stats._sequential import compare_look, interval_look

        self.specs = [j.spec for j in jobs]  # the evaluators, by index
        ok = [i for i, j in enumerate(jobs) if not j.results["error"].notna().any()]
        if len(ok) < 2:
            self.active = None  # failures: run the full design (the report says so)
            return None
        name = jobs[ok[0]].names[0]
        scores = {i: jobs[i].results[f"test_{name}"].to_numpy(float) for i in ok}
        res = jobs[ok[0]].results
        ratio = float(res["n_test"].mean() / res["n_train"].mean())
        R = jobs[ok[0]].spec.n_repeats
        K = int(res["repeat"].value_counts().iloc[0])  # folds per round
        m = len(ok) * (len(ok) - 1) // 2
        level = 1 - (1 - self.confidence) / m
        running = set(range(len(jobs))) if self.active is None else set(self.active)
        for a, b in _pairs(ok):
            prev = self.looks.get((a, b))
            if prev is not None and prev.state != "continue":
                continue  # settled at its first crossing
            if not {a, b} <= running:
                continue  # one of them is out of the race: read on its rounds
            look = compare_look(
                (scores[a] - scores[b]).reshape(rounds, -1),
                test_train_ratio=ratio,
                max_rounds=R,
                confidence=level,
                final=final,
            )
            self.looks[a, b] = look
            if look.state == "decided" and look.decision in ("better", "worse"):
                loser = b if look.decision == "better" else a
                self.out.setdefault(loser, rounds)
        open_ = [p for p, lk in self.looks.items() if self._open(p, lk)]
        needed = {i for p in open_ for i in p}
        if self.precision is not None:
            halves = {
                i: interval_look(
                    x.reshape(-1, K),
                    test_train_ratio=ratio,
                    max_rounds=R,
                    confidence=self.confidence,
                    narrowing=None,
                ).half_width
                for i, x in scores.items()
            }
            if max(halves.values()) <= self.precision:
                return "precise"
            needed |= {i for i, h in halves.items() if h > self.precision}
        failed = set(range(len(jobs))) - set(ok)  # fitted on, the report says why
        self.active = sorted((needed & running) | failed)
        if not needed:
            states = [lk.state for lk in self.looks.values()]
            return "decided" if "decided" in states else "futile"
        return None

    def _open(self, pair, look):
        return look.state == "continue" and not (set(pair) & set(self.out))

    def state(self, rounds, stop):
        """The progress bar's words after a look: the pairs settled so far."""
        if not self.looks:
            return None
        n = len(self.looks)
        settled = sum(not self._open(p, lk) for p, lk in self.looks.items())
        out = f", {len(self.out)} model(s) out" if self.out else ""
        where = "" if stop is None else f"; {stop} after {rounds} round(s)"
        return f"{settled} of {n} pairs settled{out}{where}"

    def reason(self, stopped):
        return "budget" if stopped in ("max_fits", "budget") else stopped

    def why(self):
        states = [lk.state for lk in self.looks.values()]
        n = len(states)
        raced = sum(
            bool(set(p) & set(self.out)) and lk.state == "continue"
            for p, lk in self.looks.items()
        )
        return (
            f"{states.count('decided')} of {n} pairs decided, "
            f"{states.count('futile')} futile"
            + (f", {raced} left open by a model out of the race" if raced else "")
            + " (group-sequential corrected paired t per pair, Bonferroni over "
            "the pairs)"
        )


def _fits_text(fits):
    """``"30"`` when every model spent the same fits, else ``"a 30, b 20"``."""
    if len(set(fits.values())) == 1:
        return str(next(iter(fits.values())))
    return ", ".join(f"{name} {n}" for name, n in fits.items())


def _pairs(items):
    return [(a, b) for k, a in enumerate(items) for b in items[k + 1 :]]


def _note_race_disagreements(report, race, fitted):
    """Name the pairs the race did not decide but the report's fixed-design
    test on the fits at the stop calls significant (through the API 18 of
    3200 datasets, always this way round; benchmarks/sequential_api_study.py):
    read them as borderline, more fits settle them."""
    if not race.looks or report.target != "new data":
        return
    name_of = {id(ev): name for name, ev in fitted.items()}
    names = [name_of.get(id(spec)) for spec in race.specs]
    pairs = report.pairwise()
    for (a, b), look in race.looks.items():
        if look.state == "decided" or None in (names[a], names[b]):
            continue
        row = pairs[
            ((pairs["model_a"] == names[a]) & (pairs["model_b"] == names[b]))
            | ((pairs["model_a"] == names[b]) & (pairs["model_b"] == names[a]))
        ]
        if len(row) and row["decision"].iloc[0] in ("better", "worse"):
            report.notes.append(
                f"{names[a]} vs {names[b]}: the sequential race stopped this pair "
                f"as {look.state} (its boundary not crossed), while the fixed-design "
                f"test on the fits at the stop says {row['decision'].iloc[0]} "
                f"(adjusted p = {row['pvalue_adjusted'].iloc[0]:.3g}): a borderline "
                "call; more fits (n_repeats=10, a fixed design) settle it."
            )


def _note_borderline_pairs(report):
    """Name the pairs whose adjusted p is within a factor of 2 of the level
    (issue 29, item 18): a re-run with another random_state can flip them;
    more fits settle a borderline call only if it stays borderline."""
    from ..stats._results import _is_borderline

    alpha = 1 - report.confidence
    pairs = report.pairwise()
    for row in pairs.itertuples():
        if _is_borderline(row.pvalue_adjusted, alpha):
            report.notes.append(
                f"{row.model_a} vs {row.model_b}: borderline (adjusted p = "
                f"{row.pvalue_adjusted:.3g}, within a factor of 2 of {alpha:g}): "
                "another random_state can flip this call; more fits (a larger "
                "n_repeats or max_fits) make it reproducible, and if it stays "
                "borderline only more data settles it."
            )
