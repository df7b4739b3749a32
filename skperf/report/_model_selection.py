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
import warnings
from collections.abc import Mapping

import numpy as np

from .._distribution import PerformanceDistribution, _check_requirement
from ..metrics._registry import _bound_text, _is_root_mean, _metric_bounds
from ..model_selection._seeding import _root_entropy
from ..stats._multiple import _check_correction, _pairwise_family, _tied_with_best
from ..stats._outperform import _check_gamma, noether_sample_size
from ..stats._results import Interval, _deprecated_alias, _is_borderline
from ..stats._validation import (
    _check_confidence,
    _check_n_boot,
    _check_target,
    _check_test_train_ratio,
)
from ._format import _side_text
from ._metrics import _check_one_scale
from ._notes import Note, Notes, warning_code

__all__ = ["ModelSelectionReport"]

# Mixed into the root entropy to derive the bootstrap seeds of the report, so
# they never coincide with the evaluation seeds (children of the bare root).
_BOOT_TAG = 0x736B7065  # "skpe"

_VARY_ALL = ("split", "init", "search")


@dataclasses.dataclass(frozen=True)
class _Run:
    """The fits behind a report built by :func:`compare_models` (private).

    The report is constructed once from it and nothing is set on the report
    after its constructor returns (issue 27, item 4). ``headline(name,
    notes)`` returns the model's headline interval on new data (None: the
    report's own corrected t) and adds its notes to ``notes``; it is asked
    only for the models the report gives an interval. ``open_pairs`` holds ``(a, b,
    state)`` for the pairs a sequential race left undecided; ``notes``
    (e.g. models left out, curves missing) are added after the report's own;
    ``checked``, the decision settings as :func:`_check_report_args` returned
    them before the fits (not validated twice).
    """

    evaluators: dict
    fits: dict
    max_fits: int
    stopped: str = "fixed"
    stop_reason: str | None = None
    open_pairs: tuple = ()
    headline: object = None
    notes: tuple = ()
    curves: dict = dataclasses.field(default_factory=dict)
    curves_missing: dict = dataclasses.field(default_factory=dict)
    checked: dict | None = None  # the settings compare_models validated


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


def _check_report_args(*, gamma, confidence, correction, n_boot, target, requirement):
    """The report's decision settings, validated (one place for the report
    and :func:`compare_models`, which checks them before any fit). Returns
    them as a dict, ``requirement`` as the keyword arguments of
    :meth:`PerformanceDistribution.requirement` (or None)."""
    confidence = _check_confidence(confidence)
    return {
        "gamma": _check_gamma(gamma),
        "confidence": confidence,
        "correction": _check_correction(correction),
        "n_boot": _check_n_boot(n_boot),
        "target": _check_target(target),
        "requirement": _check_requirement(requirement, confidence),
    }


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
                "raced_out",
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
        _add_note(notes, f"{names[a]} vs {names[b]}", body, "missing_splits")


def _add_note(notes, where, body, code):
    """Add ``"where: body"`` with ``code``; a body already noted gains
    ``where`` in its list (one note naming every model it applies to)."""
    notes.add(where, body, code=code)


def _record(caught, notes, where):
    """Add the messages of caught warnings to ``notes`` (deduplicated), each
    coded by its category (``SmallSampleWarning`` -> ``"small_sample"``)."""
    for w in caught:
        _add_note(
            notes,
            where,
            f"{w.category.__name__}: {w.message}",
            warning_code(w.category),
        )


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
    _run : _Run or None, default=None
        Private (set by :func:`compare_models`): the fits behind the report,
        their headline intervals, curves and notes.

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
        shown in the report. Each note is a ``str`` (its text, as shown)
        that also carries ``note.code``, a stable snake-case name to test or
        filter on instead of the wording, and ``note.where``, the models or
        pairs (``"a vs b"``) it names (a tuple, empty when about the whole
        report); ``notes.codes()`` lists the codes in order and
        ``notes.by_code(code)`` the notes of one code. The codes: a caught
        warning's category without its ``Warning`` suffix (``"small_sample"``,
        ``"ties"``, ``"dependent_observations"``, ``"fit_failed"`` ...;
        built-in categories keep it: ``"runtime_warning"``);
        ``"groups_averaged"``, ``"one_run"``, ``"repeated_splits"``,
        ``"below_noether"``, ``"clipped"``, ``"root_mean_reading"`` (an
        RMSE on new data); after failed fits
        ``"incomplete"``, ``"missing_splits"``, ``"best_skips_incomplete"``,
        ``"all_incomplete"``, ``"best_beaten"``, ``"no_unbeaten_best"``,
        ``"left_out"``; from :func:`compare_models` ``"new_data_design"``,
        ``"borderline_pair"``, ``"sequential_design"``, ``"race_open_pair"``,
        ``"raced_out"``, ``"generalization_ci_fallback"``,
        ``"nested_cv_not_run"``, ``"known_gap"``, ``"no_curves"``; from
        :func:`~skperf.model_selection.search_report` ``"folds_as_runs"``.
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
    evaluators : dict of str to RepeatedEvaluator or None
        From :func:`compare_models`: the fitted evaluator of each model (its
        ``results_`` holds one row per fit). None otherwise.
    fits, max_fits, stopped : dict of str to int, int, str
        From :func:`compare_models`: the fits each model spent, the most per
        model, and why the fitting stopped (``"fixed"`` for a fixed design;
        ``"decided"``, ``"futile"``, ``"precise"`` or ``"budget"`` for the
        sequential race). None on a report built from distributions.
    stop_reason : str or None
        From :func:`compare_models`' sequential design: what the last look
        found (e.g. ``"2 of 3 pairs decided, 1 futile ..."``). None
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
        _run=None,
    ):
        self.raw_distributions = _check_distributions(distributions)
        # models a sequential race stopped fitting (name -> fits): their
        # missing splits were never run, not failed
        self._raced_out = dict(_raced_out or {})
        checked = (
            dict(_run.checked)
            if _run is not None and _run.checked is not None
            else _check_report_args(
                gamma=gamma,
                confidence=confidence,
                correction=correction,
                n_boot=n_boot,
                target=target,
                requirement=requirement,
            )
        )
        requirement_kw = checked.pop("requirement")
        vars(self).update(checked)  # gamma, confidence, correction, n_boot, target
        self.test_train_ratio = _check_ratio(test_train_ratio, target)
        split_scores = (
            _split_matrix(self.raw_distributions, _split_design)
            if target == "new data"
            else None
        )
        self.notes = Notes()
        if split_scores is not None and split_scores.shape[1] < max(
            d.n for d in self.raw_distributions.values()
        ):
            self.notes.append(
                Note(
                    f"new data: the "
                    f"{max(d.n for d in self.raw_distributions.values())} scores "
                    f"per model come from {split_scores.shape[1]} distinct "
                    "train/test splits (the same split fitted with other seeds): "
                    "the tests use one score per split, averaged over its fits.",
                    "repeated_splits",
                )
            )
        self._one_run = set()  # models of one K-fold run: no run-to-run columns
        self.distributions = self._independent(self.raw_distributions)
        self.random_state_ = _root_entropy(random_state)
        self.settings = dict(settings or {})
        self.evaluators = None if _run is None else _run.evaluators
        self.fits = None if _run is None else dict(_run.fits)
        self.max_fits = None if _run is None else _run.max_fits
        self.stopped = None if _run is None else _run.stopped
        self.stop_reason = None if _run is None else _run.stop_reason
        self.curves = {} if _run is None else dict(_run.curves)
        self.curves_missing = {} if _run is None else dict(_run.curves_missing)
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
        # the run-to-run comparisons decide only target="this dataset"; a
        # new-data report computes them on first use (``comparisons``)
        self._comparisons = None if split_scores is not None else self._compare_all()
        headline_notes = []
        if split_scores is None:
            self._select()
        else:
            headline_notes = self._select_new_data(split_scores, _run)
        self.requirement = requirement
        self.requirements = _requirements(self.distributions, requirement_kw)
        for name, r in self.requirements.items():
            if r.verdict == "inconclusive" and r.n < r.n_needed:
                grouped = r.n < self.raw_distributions[name].n
                self.notes.add(
                    name,
                    f"requirement: {r.n} runs, at least {r.n_needed} needed to pass"
                    + (
                        " (a run is one repeat: the scores of a K-fold repeat are "
                        "averaged into one)"
                        if grouped
                        else ""
                    )
                    + (
                        f"; pass n_repeats={r.n_needed} or more."
                        if _run is not None
                        else "; evaluate more runs."
                    ),
                    code="requirement_needs_runs",
                )
        # one-sided level of the decision: each bound at (1 - confidence) / 2
        self.noether_n = noether_sample_size(self.gamma, confidence=self.confidence)
        n_min = min(d.n for d in self.distributions.values())
        if (
            self.target == "this dataset"
            and self.n_models > 1
            and n_min < self.noether_n
        ):
            self.notes.append(
                Note(
                    f"n = {n_min} scores per model is below the Noether sample "
                    f"size {self.noether_n} for gamma = {self.gamma:g} at "
                    f"confidence {self.confidence:g} (Bouthillier et al., App. "
                    "C.3): a meaningful difference may be missed (the "
                    "comparisons lack power).",
                    "below_noether",
                )
            )
        if self.target == "new data":
            self._note_borderline_pairs()
            if _is_root_mean(self.metric) and self.n_models > 1:
                self.notes.append(
                    Note(
                        "RMSE: each model's new-data interval is for the root of "
                        "its expected squared error (read on the fold MSEs, its "
                        "ends their roots); the differences and the pair tests "
                        "are on the fold RMSEs (their mean is slightly smaller), "
                        "so a difference need not equal the difference of two "
                        "interval estimates.",
                        "root_mean_reading",
                    )
                )
        if _run is not None:
            self._note_run(_run, headline_notes)

    def _note_borderline_pairs(self):
        """Name the pairs whose adjusted p is within a factor of 2 of the level
        (issue 29, item 18): a re-run with another random_state can flip them;
        more fits settle a borderline call only if it stays borderline."""
        alpha = 1 - self.confidence
        for row in self.pairwise().itertuples():
            if _is_borderline(row.pvalue_adjusted, alpha):
                self.notes.append(
                    Note(
                        f"{row.model_a} vs {row.model_b}: borderline (adjusted p = "
                        f"{row.pvalue_adjusted:.3g}, within a factor of 2 of "
                        f"{alpha:g}): another random_state can flip this call; more "
                        "fits (a larger n_repeats or max_fits) make it "
                        "reproducible, and if it stays borderline only more data "
                        "settles it.",
                        "borderline_pair",
                        f"{row.model_a} vs {row.model_b}",
                    )
                )

    def _note_run(self, run, headline_notes):
        """The notes of the fits behind the report (:func:`compare_models`)."""
        if run.stopped != "fixed":
            fits = run.fits
            spent = (
                str(next(iter(fits.values())))
                if len(set(fits.values())) == 1
                else ", ".join(f"{name} {n}" for name, n in fits.items())
            )
            self.notes.append(
                Note(
                    f"sequential design: {spent} of at most {run.max_fits} fits "
                    f"per model, stopped: {run.stopped} ({run.stop_reason}).",
                    "sequential_design",
                )
            )
        if self.family is not None and self.n_models > 1:
            self._note_race_disagreements(run.open_pairs)
            self.notes.append(
                Note(
                    "new data: every pair of models is tested with the corrected "
                    "resampled paired t (Nadeau & Bengio 2003) at n_test / n_train "
                    f"= {self.settings.get('test_train_ratio', self.test_train_ratio)}"
                    f"; the {self.n_models * (self.n_models - 1) // 2} pairs form one "
                    f"family corrected by {self.correction or 'no correction'}.",
                    "new_data_design",
                )
            )
        for note in (*headline_notes, *run.notes):
            self.notes.append(note)

    def _note_race_disagreements(self, open_pairs):
        """Name the pairs the race did not decide but the report's fixed-design
        test on the fits at the stop calls significant (through the API 18 of
        3200 datasets, always this way round; benchmarks/sequential_api_study.py):
        read them as borderline, more fits settle them."""
        for a, b, state in open_pairs:
            i, j = self.names.index(a), self.names.index(b)
            k = self.family.pair(i, j)
            decision = self._family_decision(a, b)
            if decision not in ("better", "worse"):
                continue
            self.notes.append(
                Note(
                    f"{a} vs {b}: the sequential race stopped this pair as "
                    f"{state} (its boundary not crossed), while the fixed-design "
                    f"test on the fits at the stop says {decision} (adjusted p = "
                    f"{self.family.pvalue_adjusted[k]:.3g}): a borderline call; "
                    "more fits (n_repeats=10, a fixed design) settle it.",
                    "race_open_pair",
                    f"{a} vs {b}",
                )
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

    @classmethod
    def from_search(
        cls,
        search,
        *,
        target="new data",
        gamma=0.75,
        confidence=0.95,
        correction="holm",
        scoring=None,
        test_train_ratio=None,
        n_boot="auto",
        random_state=None,
    ):
        """The report of the candidates of a fitted hyperparameter search.

        Parameters
        ----------
        search : fitted GridSearchCV or RandomizedSearchCV
            The search (see :func:`skperf.model_selection.search_distributions`).
        target : {"new data", "this dataset"}, default="new data"
            What the report's decisions are about (see
            :func:`skperf.model_selection.candidates_tied_with_best`).
        gamma : float, default=0.75
            Threshold of a meaningful P(A > B) (Bouthillier et al., App. C.6).
        confidence : float, default=0.95
            Confidence level of the intervals; the tests run at level
            ``1 - confidence``.
        correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
            Multiple-comparison correction over all pairs of candidates.
        scoring : str or None, default=None
            Metric of a multi-metric search (default: the ``refit`` metric).
        test_train_ratio : float or None, default=None
            ``n_test / n_train`` of the search's splits for ``target="new
            data"``; ``None`` reads it from ``search.cv`` (see
            :func:`skperf.model_selection.candidates_tied_with_best`).
        n_boot : int or "auto", default="auto"
            Bootstrap resamples where a run-to-run interval needs them.
        random_state : int, numpy.random.Generator or None, default=None
            Root of the report's bootstrap seeds; ``None`` draws fresh
            entropy, recorded in the report's ``random_state_``.

        Returns
        -------
        ModelSelectionReport
            One model per candidate (in candidate order, paired by split);
            ``settings`` records the search, its ``cv``, the metric and the
            number of splits. ``tied_with_best`` is the set of candidates
            with ``tied_with_best`` in
            :func:`~skperf.model_selection.candidates_tied_with_best` with
            the same ``target``: both take that decision with one function
            on the same p-values.

        Warns
        -----
        DependentObservationsWarning
            ``target="this dataset"``, when the search's ``cv`` is one K-fold
            run: its folds are compared as if independent (the report would
            otherwise average them into a single score per candidate).
        FitFailedWarning
            When a candidate failed; it is left out of the report.

        Notes
        -----
        :func:`skperf.model_selection.search_report` is this method. For
        ``RepeatedKFold`` the run-to-run statistics average the folds of
        each repeat; the new-data tests use every split. References: Nadeau
        & Bengio (2003), Sec. 4; Bouthillier et al., Sec. 4.1, Sec. 5 and
        App. C.2, C.5, C.6.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from skperf import ModelSelectionReport
        >>> X, y = load_iris(return_X_y=True)
        >>> cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
        >>> search = GridSearchCV(
        ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 8]},
        ...     cv=cv,
        ... ).fit(X, y)
        >>> report = ModelSelectionReport.from_search(search, random_state=0)
        >>> report.best, report.tied_with_best
        ('max_depth=8', ['max_depth=2', 'max_depth=3', 'max_depth=8'])
        """
        from ..model_selection._tied import _search_report_inputs

        target = _check_target(target)
        dists, ratio, settings, one_run = _search_report_inputs(
            search,
            target=target,
            scoring=scoring,
            test_train_ratio=test_train_ratio,
            what="from_search",
        )
        report = cls(
            dists,
            target=target,
            test_train_ratio=ratio,
            gamma=gamma,
            confidence=confidence,
            correction=correction,
            n_boot=n_boot,
            random_state=random_state,
            settings=settings,
        )
        if one_run and target == "new data":
            report.notes.append(
                Note(
                    f"One K-fold run ({settings['n_splits']} folds): the run-to-run "
                    "columns treat its folds as independent runs; the new-data "
                    "tests account for their dependence (corrected t).",
                    "folds_as_runs",
                )
            )
        return report

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
                    "one_run",
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
                    + (
                        "for the run-to-run columns (the new-data tests use "
                        "every split)."
                        if self.target == "new data"
                        else "before computing intervals and comparisons."
                    ),
                    "groups_averaged",
                )
            out[name] = dist
        return out

    def _seed_sequence(self):
        return np.random.SeedSequence([self.random_state_, _BOOT_TAG])

    @property
    def comparisons(self):
        """Run-to-run (this dataset) comparisons of every ordered pair.

        ``comparisons[a, b]`` is ``distributions[a].compare(distributions[b])``
        (see the class's Attributes). With ``target="new data"`` they decide
        nothing and are computed on first use; their warnings are then
        raised, not noted.
        """
        if self._comparisons is None:
            self._comparisons = self._compare_all(record=False)
        return self._comparisons

    def _compare_all(self, record=True):
        """``(a, b) -> Comparison``; warnings go to the report's notes, or
        with ``record=False`` to the caller."""
        names = self.names
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
        # one seed per unordered pair: (a, b) and (b, a) share their resamples
        boot_seeds = self._seed_sequence().generate_state(max(len(pairs), 1))
        comparisons = {}
        for (a, b), seed in zip(pairs, boot_seeds, strict=False):
            da, db = self.distributions[a], self.distributions[b]
            with warnings.catch_warnings(record=record) as caught:
                if record:
                    warnings.simplefilter("always")
                comparisons[a, b] = da.compare(
                    db,
                    gamma=self.gamma,
                    confidence=self.confidence,
                    n_boot=self.n_boot,
                    random_state=int(seed),
                )
            if record:
                _record(caught, self.notes, f"{a} vs {b}")
            comparisons[b, a] = _mirror(comparisons[a, b])
        return comparisons

    def _select(self):
        names = self.names
        pvalue = np.array(
            [
                [self.comparisons[a, b].pvalue if a != b else np.nan for b in names]
                for a in names
            ]
        )
        prob = [
            self.comparisons[self.best, n].estimate if n != self.best else np.nan
            for n in names
        ]
        self._tied(pvalue=pvalue, prob_better=prob)

    def _tied(self, **inputs):
        """The p-values against the best and ``tied_with_best`` (one rule)."""
        best = self.names.index(self.best)
        p, adjusted, tied = _tied_with_best(
            best, confidence=self.confidence, correction=self.correction, **inputs
        )
        others = [(i, n) for i, n in enumerate(self.names) if i != best]
        self.pvalues = {n: float(p[i]) for i, n in others}
        self.pvalues_adjusted = {n: float(adjusted[i]) for i, n in others}
        self.tied_with_best = [n for n, t in zip(self.names, tied, strict=True) if t]

    def _select_new_data(self, split_scores, run=None):
        """One family of corrected paired t tests over all pairs (new data).

        Returns the notes of the headline intervals ``run`` gave.
        """
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
        self._tied(family=self.family, k=k)
        self._split_scores = split_scores
        headline = None if run is None else run.headline
        notes = Notes()
        for name, row in zip(self.names, split_scores, strict=True):
            if name in self.incomplete:
                continue  # failed fits: no interval on new data (a note says so)
            ci = None if headline is None else headline(name, notes)
            self.generalization[name] = (
                _corrected_t_interval(
                    row, self.test_train_ratio, self.confidence, self.metric
                )
                if ci is None
                else ci
            )
        return notes

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
                code="incomplete",
            )
        complete = [n for n in self.ranking if n not in self.incomplete]
        if self.best not in self.incomplete:
            return
        if not complete:
            self.notes.append(
                Note(
                    "new data: every model has failed fits: the best is the best "
                    "mean over the splits where it fitted, and has no interval on "
                    "new data; fix the failures and rerun.",
                    "all_incomplete",
                )
            )
            return
        old, self.best = self.best, complete[0]
        self.ranking = [self.best] + [n for n in self.ranking if n != self.best]
        self.notes.append(
            Note(
                f"new data: {old} has the best mean over the splits where it "
                f"fitted, but its fits failed on {self.incomplete[old]} of {J} "
                f"splits; {self.best}, the first in the ranking without failed "
                "fits, is the best.",
                "best_skips_incomplete",
                (old, self.best),
            )
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
                Note(
                    f"new data: every model, {self.best} (the best mean) "
                    "included, is significantly worse than another on the splits "
                    "they share (their pairs were tested on different splits "
                    "after failed fits): no model can be called the best; rerun "
                    "without the failing fits.",
                    "no_unbeaten_best",
                )
            )
            return
        old, self.best = self.best, free[0]
        self.ranking = [self.best] + [n for n in self.ranking if n != self.best]
        self.notes.append(
            Note(
                f"new data: {old} has the best mean over its own splits, but is "
                f"significantly worse than another model on the splits they "
                f"share (failed fits left the pairs on different splits); "
                f"{self.best}, the first in the ranking that no model is "
                "significantly better than, is the best.",
                "best_beaten",
                (old, self.best),
            )
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
        On new data (each algorithm trained on as many rows as these fits, from
        the same population), choose a: score 0.814 [0.771, 0.857] (95% CI,
        corrected-t); every other model is significantly worse (one pair, level
        0.05).
        """
        from ._format import _conclusion

        return _conclusion(self, table=False)

    def summary_table(self, *, quantiles=None):
        """The per-model table of the report, each cell as shown there.

        The table of :meth:`to_markdown` and :meth:`to_html`: the same
        headers, the same text in every cell (an interval reads
        ``"0.814 [0.771, 0.857]"``); :meth:`to_frame` holds the numbers.

        Parameters
        ----------
        quantiles : sequence of float or None, default=None
            Run-to-run quantile levels of the quantile columns (``()``:
            none). ``None``: (0.1, 0.5, 0.9) with ``target="this dataset"``,
            none with ``"new data"``, whose decisions do not read them.

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

        header, rows = _summary_table(self, self._levels(quantiles))
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

    def to_frame(self, *, quantiles=None):
        """One row per model, best first.

        Parameters
        ----------
        quantiles : sequence of float or None, default=None
            Run-to-run quantile levels to report, each with its confidence
            interval (``quantile_ci(method="auto")``) and the method used
            (``()``: none). ``None``: (0.1, 0.5, 0.9) with ``target="this
            dataset"``, none with ``"new data"``, whose decisions do not read
            them.

        Returns
        -------
        pandas.DataFrame
            Indexed by model name in ranking order, with columns ``rank``;
            run-to-run statistics on this dataset (over the independent
            repeats of ``distributions``): ``n``, ``mean``, ``mean_low``,
            ``mean_high``, ``mean_method``, ``sd`` (``ddof=1``); for each
            level ``q``: ``q<q>``, ``q<q>_low``, ``q<q>_high``,
            ``q<q>_method``; with ``target="this dataset"`` ``p_best_better``
            (P(best > model) over repeats), ``p_best_better_low``,
            ``p_best_better_high``, ``p_best_better_method`` (``"sign"`` when
            paired, ``"newcombe"`` otherwise; empty for the best model),
            ``mean_difference`` (best minus model); then the decision
            columns of the report's
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
        key = self._levels(quantiles)
        if key not in self._frames:
            self._frames[key] = self._build_frame(key)
        return self._frames[key].copy()

    def _levels(self, quantiles):
        """The quantile levels to show: ``None`` is the target's default,
        (0.1, 0.5, 0.9) for this dataset, none for new data (run-to-run
        quantiles answer another question than the report's)."""
        if quantiles is None:
            return (0.1, 0.5, 0.9) if self.target == "this dataset" else ()
        try:
            return tuple(float(q) for q in np.atleast_1d(quantiles))
        except (TypeError, ValueError):
            raise TypeError(
                "`quantiles` must be None or a sequence of levels in (0, 1), "
                f"e.g. (0.1, 0.5, 0.9); got {quantiles!r}."
            ) from None

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
                # new data: the family's decision columns (below), no P(A > B)
                if self.family is None and name == self.best:
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
                elif self.family is None:
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
                        if k in ("mean", "sd") or k.startswith(("mean_", "q"))
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
        text = Note(
            f"{_bound_text(metric, bounds)}: interval bounds beyond that range were "
            f"clipped to it ({which}); the clipped interval covers the true value "
            "whenever the unclipped one does.",
            "clipped",
            tuple(self._clipped),
        )
        if self._clip_index is None:
            self._clip_index = len(self.notes)
            self.notes.append(text)
        else:
            self.notes[self._clip_index] = text

    # ------------------------------------------------------------------
    def to_markdown(self, *, quantiles=None):
        """The summary table as GitHub-flavoured markdown, with the settings.

        Parameters
        ----------
        quantiles : sequence of float or None, default=None
            Run-to-run quantile levels to show (``()``: none). ``None``:
            (0.1, 0.5, 0.9) with ``target="this dataset"``, none with
            ``"new data"``, whose decisions do not read them.

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
        On new data (each algorithm trained on as many rows as these fits, from the same
        population), choose a: score 0.814 [0.771, 0.857] (95% CI, corrected-t); every other
        model is significantly worse (one pair, level 0.05). The table's run-to-run columns
        """
        from ._format import _markdown_report

        return _markdown_report(self, self._levels(quantiles))

    def to_html(self, path=None, *, quantiles=None, plots=True):
        """One self-contained HTML page: settings, tables and plots.

        CSS and plots (base64 PNG) are embedded; the page loads nothing from
        the network and opens in any browser.

        Parameters
        ----------
        path : str or path-like or None, default=None
            Where to write the page (UTF-8); ``None`` only returns it.
        quantiles : sequence of float or None, default=None
            Run-to-run quantile levels to show (``()``: none). ``None``:
            (0.1, 0.5, 0.9) with ``target="this dataset"``, none with
            ``"new data"``, whose decisions do not read them.
        plots : bool, default=True
            Embed plots (needs matplotlib; without it the page says so).

        Returns
        -------
        str
            The HTML document.
        """
        from ._html import _html_report

        html = _html_report(self, self._levels(quantiles), full=True, plots=plots)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(html)
        return html

    def _repr_html_(self):
        from ._html import _html_report

        return _html_report(self, self._levels(None), full=False, plots=False)

    def plot(self, axes=None, *, quantiles=None):
        """Per-model scores, and the matrix of the report's pair decisions.

        The left panel: each model's run-to-run scores and mean (with
        quantile intervals where asked for) and, for new data, its interval.
        The right: mean differences on new data marked where the family is
        significant, or P(A > B) for ``target="this dataset"``.

        Parameters
        ----------
        axes : sequence of two matplotlib Axes or None, default=None
            Where to draw; ``None`` creates a new figure.
        quantiles : sequence of float or None, default=None
            Run-to-run quantile levels drawn with their confidence intervals
            (``()``: none). ``None``: (0.1, 0.5, 0.9) with ``target="this
            dataset"``, none with ``"new data"``, whose decisions do not read
            them.

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

        return _plot_report(self, axes=axes, quantiles=self._levels(quantiles))

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
            "notes": [str(n) for n in self.notes],
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
            f"confidence={self.confidence:g}, correction={self.correction!r}"
            + self._run_repr()
            + ")"
        )

    def _run_repr(self):
        """``", fits=..., max_fits=..., stopped=..."`` of a sequential run."""
        if self.stopped in (None, "fixed"):
            return ""
        return (
            f", fits={self.fits!r}, max_fits={self.max_fits}, stopped={self.stopped!r}"
        )

    def __str__(self):
        return self.to_markdown()


def _corrected_t_interval(scores, test_train_ratio, confidence, metric):
    """The corrected resampled t interval for the mean score on new data.

    An RMSE is read on its fold MSEs and the ends are their roots, as
    :func:`~skperf.generalization_ci` reads it (one reading of one question).
    """
    from ..model_selection._generalization import _signed_root
    from ..stats._multiple import _paired_t

    scores = np.asarray(scores, dtype=float)
    scores = scores[np.isfinite(scores)]
    root = _is_root_mean(metric)
    est, low, high, _ = _paired_t(
        np.sign(scores) * scores**2 if root else scores, test_train_ratio, confidence
    )
    if root:
        est, low, high = (_signed_root(v) for v in (est, low, high))
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
