"""compare_models and ModelSelectionReport.

All models are evaluated on one shared seed stream, so their scores are
paired (same splits, same initialization seeds; Bouthillier et al., App. C.2).
Every pair is compared with the probability of outperforming (Sec. 4.1,
App. C.5-C.6); the best model (by mean) is tested against each other model and
those p-values are corrected for multiple comparisons (textbook chapter
"Confidence Intervals for Model Performance", Sec. 4.3).
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from collections.abc import Mapping

import numpy as np

from .._distribution import PerformanceDistribution, _check_requirement
from .._multiple import _check_correction, _worse_than_best
from .._seeding import _root_entropy
from ..stats._outperform import _check_gamma, noether_sample_size
from ..stats._validation import _check_confidence, _check_n_boot
from ._format import _side_text
from ._metrics import _bound_text, _metric_bounds, _shared_default_score

__all__ = ["ModelSelectionReport", "compare_models"]

# Mixed into the root entropy to derive the bootstrap seeds of the report, so
# they never coincide with the evaluation seeds (children of the bare root).
_BOOT_TAG = 0x736B7065  # "skpe"

_VARY_ALL = ("split", "init", "search")


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
    directions = {d.greater_is_better for d in out.values()}
    if len(directions) > 1:
        raise ValueError(
            "All distributions must share `greater_is_better`; got "
            f"{ {n: d.greater_is_better for n, d in out.items()} }."
        )
    metrics = {d.metric for d in out.values()} - {None}
    if len(metrics) > 1:
        raise ValueError(
            f"All distributions must measure the same metric; got {sorted(metrics)}."
        )
    return out


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
    """Distributions, pairwise comparisons and the best models of a benchmark.

    Usually built by :func:`compare_models`; it can also be built from any
    distributions (e.g. seeded deep-learning runs), paired when they carry
    identical ``seeds``.

    Parameters
    ----------
    distributions : dict of str to PerformanceDistribution
        One distribution per model, in the order to use for ties. All must
        share ``greater_is_better`` (and ``metric`` when set).
    gamma : float, default=0.75
        Threshold of a meaningful probability of outperforming
        (Bouthillier et al., App. C.6).
    confidence : float, default=0.95
        Confidence level of every interval; ``1 - confidence`` is the level
        at which corrected p-values are called significant.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction of the p-values of the best model
        against each other model (see Notes).
    n_boot : int, default=2000
        Bootstrap resamples of each comparison.
    random_state : int, numpy.random.Generator or None, default=None
        Root of the bootstrap seeds of the comparisons and quantile intervals;
        ``None`` draws fresh entropy, recorded in ``random_state_``.
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

    Attributes
    ----------
    distributions : dict of str to PerformanceDistribution
        One per model, named by its key, with independent scores: where
        ``groups`` marks dependent scores (the folds of one K-fold repeat),
        the mean per group (``dist.aggregate()``), one score per repeat. All
        statistics use these.
    raw_distributions : dict of str to PerformanceDistribution
        The distributions as given (renamed to their keys).
    names : list of str
        Model names in the given order.
    ranking : list of str
        Model names by mean score, best first (stable: ties keep the given
        order).
    best : str
        Model with the best mean in the metric's direction; ties go to the
        first in the given order.
    comparisons : dict of (str, str) to Comparison
        ``comparisons[a, b]`` is ``distributions[a].compare(distributions[b])``
        for every ordered pair ``a != b``; the pair later in the given order
        is the mirror image of the earlier one (``P(b > a) = 1 - P(a > b)``,
        the interval and decision mirrored, same p-value).
    p_values : dict of str to float
        For every model except ``best``: the p-value of
        ``comparisons[best, model]`` (Wilcoxon signed-rank when paired,
        Mann-Whitney U otherwise; two-sided).
    p_adjusted : dict of str to float
        Those p-values after ``correction``.
    tied_with_best : list of str
        ``best`` and every model not significantly worse than it after the
        correction, in the given order.
    noether_n : int
        Noether sample size for ``gamma`` at alpha = beta = 0.05
        (Bouthillier et al., App. C.3): scores per model needed to detect
        P(A > B) >= ``gamma`` reliably (29 for gamma = 0.75).
    notes : list of str
        Warnings raised while computing the statistics (ties, small samples,
        dependent observations ...) and a note when the models have fewer
        than ``noether_n`` scores, shown in the report.
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

    Notes
    -----
    Which p-values are corrected: the family is the ``m = k - 1`` tests of the
    best model against each other model (``comparisons[best, model].p_value``).
    A model is *significantly worse than the best* when its corrected p-value
    is below ``1 - confidence`` and ``P(best > model) > 0.5``; all other models
    are in ``tied_with_best``. Pairwise comparisons among the other models are
    reported but not part of the family and not corrected.

    The ``decision`` of each comparison is the per-comparison rule of
    Bouthillier et al., App. C.6 (percentile-bootstrap CI of P(A > B) against
    0.5 and ``gamma``), not corrected; near the boundary it can disagree with
    the corrected p-value. The recommendation (Sec. 5) is to report the best
    model together with all models within the significance bounds, which is
    ``tied_with_best``. The best model's mean is optimistically biased
    (winner's curse, textbook chapter Sec. 4.3); re-evaluate it on fresh data
    before trusting its number.

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
    >>> report = ModelSelectionReport(dists, random_state=0)
    >>> report.best, report.tied_with_best
    ('b', ['b'])
    >>> round(report.comparisons["b", "a"].estimate, 3)
    0.933
    """

    def __init__(
        self,
        distributions,
        *,
        gamma=0.75,
        confidence=0.95,
        correction="holm",
        n_boot=2000,
        random_state=None,
        settings=None,
        requirement=None,
    ):
        self.raw_distributions = _check_distributions(distributions)
        requirement_kw = _check_requirement(requirement, confidence)
        self.notes = _Notes()
        self.distributions = self._independent(self.raw_distributions)
        self.gamma = _check_gamma(gamma)
        self.confidence = _check_confidence(confidence)
        self.correction = _check_correction(correction)
        self.n_boot = _check_n_boot(n_boot)
        self.random_state_ = _root_entropy(random_state)
        self.settings = dict(settings or {})
        self.evaluators = None
        self.curves = {}
        self._frames = {}
        self._clipped = {}
        self._clip_index = None

        self.names = list(self.distributions)
        first = self.distributions[self.names[0]]
        self.metric = first.metric
        self.greater_is_better = first.greater_is_better
        sign = 1.0 if self.greater_is_better else -1.0
        means = np.array([sign * self.distributions[n].mean() for n in self.names])
        order = np.argsort(-means, kind="stable")  # ties keep the given order
        self.ranking = [self.names[i] for i in order]
        self.best = self.ranking[0]
        self._compare_all()
        self._select()
        self.requirement = requirement
        self.requirements = _requirements(self.distributions, requirement_kw)
        # one-sided level of the decision: each bound at (1 - confidence) / 2
        self.noether_n = noether_sample_size(
            self.gamma, alpha=(1 - self.confidence) / 2
        )
        n_min = min(d.n for d in self.distributions.values())
        if self.n_models > 1 and n_min < self.noether_n:
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
            Passed to :class:`ModelSelectionReport` (``gamma``,
            ``confidence``, ``correction``, ``n_boot``, ``random_state``).

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
        return cls(dists, settings=settings, **kwargs)

    def _independent(self, distributions):
        """One score per group (repeat) where ``groups`` marks dependent scores."""
        out = {}
        for name, dist in distributions.items():
            if dist.groups is not None and np.unique(dist.groups).size < dist.n:
                dist = dist.aggregate("mean")
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
        raw = np.array([self.comparisons[self.best, n].p_value for n in others])
        est = np.array([self.comparisons[self.best, n].estimate for n in others])
        adjusted, worse = _worse_than_best(
            raw, est, confidence=self.confidence, correction=self.correction
        )
        self.p_values = dict(zip(others, raw.tolist(), strict=True))
        self.p_adjusted = dict(zip(others, adjusted.tolist(), strict=True))
        worse = {n for n, w in zip(others, worse, strict=True) if w}
        self.tied_with_best = [n for n in self.names if n not in worse]

    # ------------------------------------------------------------------
    @property
    def n_models(self):
        """Number of models."""
        return len(self.names)

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

    def to_frame(self, quantiles=(0.1, 0.5, 0.9)):
        """One row per model, best first.

        Parameters
        ----------
        quantiles : sequence of float, default=(0.1, 0.5, 0.9)
            Quantile levels to report, each with its confidence interval
            (``quantile_ci(method="auto")``) and the method used.

        Returns
        -------
        pandas.DataFrame
            Indexed by model name in ranking order, with columns ``rank``,
            ``n``, ``mean``, ``mean_low``, ``mean_high``, ``mean_method``,
            ``sd`` (``ddof=1``); for each level ``q``: ``q<q>``,
            ``q<q>_low``, ``q<q>_high``, ``q<q>_method``; then
            ``p_best_better`` (P(best > model)), ``p_best_better_low``,
            ``p_best_better_high``, ``p_best_better_method`` (``"sign"``
            when paired, ``"newcombe"`` otherwise; empty for the best
            model), ``decision`` (of ``comparisons[best,
            model]``, ``"best"`` for the best model), ``mean_difference``
            (best minus model), ``p_value``, ``p_adjusted``, ``vs_best``
            (that decision read from the model's side, e.g. ``"worse than
            best (significant, meaningful)"``) and ``tied_with_best``.
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
                        p_value=np.nan,
                        p_adjusted=np.nan,
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
                        p_value=self.p_values[name],
                        p_adjusted=self.p_adjusted[name],
                    )
            _record(caught, self.notes, name)
            self._clip(row, ["mean"] + [f"q{level:g}" for level in q])
            row["vs_best"] = (
                "best"
                if name == self.best
                else _side_text(self.comparisons[name, self.best].decision, "best")
            )
            row["tied_with_best"] = name in self.tied_with_best
            if self.requirements:
                row["requirement"] = self.requirements[name].verdict
                row["requirement_bound"] = self.requirements[name].bound
            rows.append(row)
        self._clip_note()
        return pd.DataFrame(rows).set_index("model")

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
    def to_markdown(self, quantiles=(0.1, 0.5, 0.9)):
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
        ...     random_state=0)
        >>> for line in report.to_markdown().splitlines()[2:4]:
        ...     print(line)
        Best mean: a (ties go to the first model in the given order). Every other model is
        significantly worse than a after holm correction at level 0.05.
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

    def plot_curves(self, kind="roc", ax=None):
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

    def __repr__(self):
        return (
            f"ModelSelectionReport(n_models={self.n_models}, best={self.best!r}, "
            f"tied_with_best={self.tied_with_best!r}, confidence={self.confidence:g}, "
            f"gamma={self.gamma:g}, correction={self.correction!r})"
        )

    def __str__(self):
        return self.to_markdown()


def _requirements(distributions, kw):
    """Verdict of the requirement ``kw`` per model (empty dict without one)."""
    if kw is None:
        return {}
    return {name: d.requirement(**kw) for name, d in distributions.items()}


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
    from .._vary import _plan

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
    n_repeats=10,
    vary="all",
    random_state=None,
    n_jobs=None,
    gamma=0.75,
    confidence=0.95,
    correction="holm",
    progress=False,
    n_boot=2000,
    requirement=None,
    memory=None,
    return_predictions=False,
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
    cv : int, cross-validation generator, iterable or None, default=None
        Splitter of each repeat; ``None`` is one out-of-bootstrap split per
        repeat (see :class:`~skperf.RepeatedEvaluator`).
    n_repeats : int, default=10
        Repeats per model.
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
    progress : bool, default=False
        Show one progress bar over all fits.
    n_boot : int, default=2000
        Bootstrap resamples of each comparison.
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

    Returns
    -------
    ModelSelectionReport
        With ``evaluators`` (the fitted :class:`~skperf.RepeatedEvaluator`
        per model, ``results_`` holding one row per fit).

    Raises
    ------
    ValueError
        With ``scoring=None``, when the models' own scores are different
        metrics (e.g. ``"accuracy (LogisticRegression.score) for 'a' vs r2
        (LinearRegression.score) for 'b'"``), before anything is fitted.

    Notes
    -----
    Every model gets the same ``random_state`` (``None`` resolved once to one
    drawn entropy), hence the same split, initialization and search seeds per
    repeat: the distributions are paired and compared with paired tests
    (Bouthillier et al., App. C.2) when the fits used identical train/test
    indices (``seeds["split_id"]``; an int ``cv`` is chosen from ``y`` alone,
    so every model gets the same folds). The best model is the one with the best
    mean; the p-values of the best against each other model are corrected
    (see :class:`ModelSelectionReport`, Notes).

    References
    ----------
    Bouthillier et al. (2021), Sec. 4.1, Sec. 5 and App. C.2-C.6; textbook
    chapter "Confidence Intervals for Model Performance", Sec. 4.1-4.4.

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
    >>> report = compare_models(models, X, y, n_repeats=10, random_state=0)
    >>> report.best, report.tied_with_best
    ('logreg', ['logreg', 'tree'])
    >>> {name: round(p, 4) for name, p in report.p_adjusted.items()}
    {'tree': 0.5781, 'dummy': 0.0039}
    """
    from .._evaluator import RepeatedEvaluator, _fit_evaluators

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
        )
        for name, est in estimators.items()
    }
    _fit_evaluators(evaluators, X, y, groups=groups, n_jobs=n_jobs, progress=progress)
    applied, skipped = _sources_applied(estimators, vary, y)
    distributions = {name: ev.distribution_ for name, ev in evaluators.items()}

    import sklearn

    from .. import __version__
    from ..utils._sklearn_compat import _num_samples

    settings = {
        "models": {name: repr(est) for name, est in estimators.items()},
        "vary": applied,
        "not_varied": skipped,
        "n_repeats": n_repeats,
        "cv": _describe(cv)
        + (
            f" (one {'group ' if groups is not None else ''}out-of-bootstrap "
            "split per repeat)"
            if cv is None
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
    report = ModelSelectionReport(
        distributions,
        gamma=gamma,
        confidence=confidence,
        correction=correction,
        n_boot=n_boot,
        random_state=entropy,
        settings=settings,
        requirement=requirement,
    )
    report.evaluators = evaluators
    if return_predictions:
        _add_curves(report, evaluators)
    return report


def _add_curves(report, evaluators):
    """Set ``report.curves`` from the kept predictions; note models without."""
    from ._curves import _NO_CURVES, _model_curves

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        curves, missing = _model_curves(evaluators)
    _record(caught, report.notes, "curves")
    report.curves = {kind: c for kind, c in curves.items() if c}
    for name, reason in missing:
        report.notes.add(name, f"{_NO_CURVES}: {reason.rstrip('.')}.")
