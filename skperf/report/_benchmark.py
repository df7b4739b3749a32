"""benchmark and BenchmarkReport: several models compared over many datasets.

One paired model-selection report per dataset, then, across datasets, the
rank statistics of Demšar (2006) and Benavoli et al. (2016, 2017), and
aggregate scores with intervals from a two-level bootstrap (datasets, then
runs within each dataset; Agarwal et al. 2021 resample runs only).
"""

from __future__ import annotations

import dataclasses
import numbers
import warnings
from collections.abc import Mapping
from html import escape

import numpy as np

from ..model_selection._seeding import _root_entropy
from ..stats import _ranks
from ..stats._validation import _check_confidence, _check_n_boot
from ._html import (
    _heading,
    _image,
    _note,
    _notes_section,
    _page,
    _paragraph,
    _Raw,
    _settings_section,
    _table,
)
from ._metrics import _check_one_scale
from ._notes import Note, Notes

__all__ = ["BenchmarkReport", "benchmark"]

# Targets of the numbers (issue 16/15 vocabulary). Across datasets, an
# interval that resamples datasets is about the population of datasets the
# benchmark's datasets stand for.
_ACROSS = "new datasets"
_RUNS_ONLY = "these datasets"
_RESAMPLE_TEXT = {
    "datasets and runs": "two-level bootstrap: datasets, then runs within each",
    "datasets": "bootstrap of datasets (each keeps its runs)",
    "runs": "stratified bootstrap of runs within each dataset (datasets fixed)",
}
# seed tags of the report's resampling, mixed into the root entropy
_TAGS = {"ranks": 1, "aggregate": 2, "bayes": 3}
_POSTHOC = ("nemenyi", "holm")


def _win(decision):
    """+1, 0 or -1 from a decision text on the side of the first model."""
    d = str(decision)
    if d.startswith("better"):
        return 1
    if d.startswith("worse"):
        return -1
    return 0


@dataclasses.dataclass(frozen=True, eq=False)
class BenchmarkTest:
    """Friedman / Iman-Davenport omnibus test and a post-hoc test of all pairs.

    Returned by :meth:`BenchmarkReport.test`.

    Parameters
    ----------
    statistic, pvalue : float
        Friedman's chi-square (tie-corrected) and its p-value.
    iman_davenport, iman_davenport_pvalue : float
        Iman-Davenport's F and its p-value.
    posthoc : str
        ``"nemenyi"`` (p-values from the studentized range of the mean-rank
        differences, family-wise) or ``"holm"`` (Wilcoxon signed-rank on the
        per-dataset mean scores, Holm-corrected over the family).
    critical_difference : float
        Nemenyi's critical difference of mean ranks at ``confidence`` (given
        with either post-hoc test, for the diagram).
    pvalues : pandas.DataFrame
        Adjusted pairwise p-values (models x models, ones on the diagonal,
        NaN outside a control's family).
    raw_pvalues : pandas.DataFrame
        Unadjusted Wilcoxon p-values (``"holm"``); equal to ``pvalues`` for
        Nemenyi (its p-values are family-wise by construction).
    control : str or None
        With ``"holm"``: the model tested against each other one (family of
        ``k - 1``), or ``None`` for all pairs.
    mean_ranks : dict of str to float
        Mean rank per model (1 is the best).
    cliques : list of list of str
        Groups of models (consecutive in mean rank) of which no two differ
        significantly, as joined in the critical-difference diagram.
    confidence : float
        ``1 - confidence`` is the significance level.
    n_datasets, n_models : int
        Numbers of datasets and models.
    target : str
        ``"new datasets"``: the tests treat the datasets as a sample of
        datasets (each contributes its mean score over runs).

    References
    ----------
    Demšar (2006), Sec. 3.2.2; Benavoli, Corani & Mangili (2016).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from skperf import BenchmarkReport
    >>> rng = np.random.default_rng(0)
    >>> rows = [(d, m, 0.8 + 0.02 * i + rng.normal(0, 0.01))
    ...         for d in range(8) for i, m in enumerate("abc")]
    >>> df = pd.DataFrame(rows, columns=["dataset", "model", "accuracy"])
    >>> report = BenchmarkReport.from_frame(
    ...     df, score="accuracy", by="model", dataset="dataset")
    >>> res = report.test()
    >>> print(f"chi2 = {res.statistic:.2f}, p = {res.pvalue:.4f}, {res.posthoc}")
    chi2 = 14.25, p = 0.0008, nemenyi
    """

    statistic: float
    pvalue: float
    iman_davenport: float
    iman_davenport_pvalue: float
    posthoc: str
    critical_difference: float
    pvalues: object
    raw_pvalues: object
    control: str | None
    mean_ranks: dict
    cliques: list
    confidence: float
    n_datasets: int
    n_models: int
    target: str = _ACROSS

    def to_frame(self):
        """The adjusted pairwise p-values, with the test numbers in ``attrs``.

        Returns
        -------
        pandas.DataFrame
            ``pvalues`` (models x models); ``attrs`` holds the other fields.
        """
        frame = self.pvalues.copy()
        frame.attrs.update(
            {k: v for k, v in self.to_dict().items() if k not in ("pvalues",)}
        )
        return frame

    def to_dict(self):
        """Plain Python values (JSON-serializable).

        Returns
        -------
        dict
            Field name to value (the p-value tables as nested dicts).
        """
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name in ("pvalues", "raw_pvalues"):
                v = {
                    str(i): {str(j): _plain(x) for j, x in row.items()}
                    for i, row in v.to_dict(orient="index").items()
                }
            out[f.name] = v
        return out

    def __eq__(self, other):
        if not isinstance(other, BenchmarkTest):
            return NotImplemented
        try:
            return self.to_dict() == other.to_dict()
        except Exception:  # never raise from ==
            return False

    __hash__ = None

    def __repr__(self):
        cd = f", critical_difference={self.critical_difference:.3f}"
        return (
            f"BenchmarkTest(friedman chi2={self.statistic:.4g}, "
            f"pvalue={self.pvalue:.4g}, iman_davenport_pvalue="
            f"{self.iman_davenport_pvalue:.4g}, posthoc={self.posthoc!r}{cd}, "
            f"n_datasets={self.n_datasets}, n_models={self.n_models}, "
            f"target={self.target!r})"
        )


def _plain(x):
    if isinstance(x, float | np.floating):
        x = float(x)
        return None if np.isnan(x) else x
    if isinstance(x, np.integer):
        return int(x)
    return x


class BenchmarkReport:
    """Several models compared over many datasets.

    Usually built by :func:`benchmark` or :meth:`from_frame`. It holds one
    paired :class:`~skperf.ModelSelectionReport` per dataset and analyses the
    models across datasets: ranks with intervals, the Friedman test with
    Nemenyi or Holm-corrected Wilcoxon post-hoc tests (Demšar 2006), the
    critical-difference diagram, win/tie/loss counts from the per-dataset
    decisions, aggregate scores with intervals, and the Bayesian signed-rank
    test (Benavoli et al. 2017).

    Parameters
    ----------
    reports : dict of str to ModelSelectionReport
        One report per dataset, all with the same models, metric and
        direction.
    confidence : float, default=0.95
        Confidence level of every interval; ``1 - confidence`` is the
        significance level of the tests.
    n_boot : int or "auto", default="auto"
        Resamples of the two-level bootstrap (``"auto"``: 2000).
    random_state : int, numpy.random.Generator or None, default=None
        Root of the bootstrap and posterior-sampling seeds; ``None`` draws
        fresh entropy, recorded in ``random_state_``.
    settings : dict or None, default=None
        How the scores were produced, shown in the report.

    Attributes
    ----------
    reports : dict of str to ModelSelectionReport
        Per dataset (empty when :meth:`from_frame` got one run per model and
        dataset: no per-dataset report is possible then).
    datasets, models : list of str
        In the given order.
    scores : pandas.DataFrame
        Mean score of each model (columns) on each dataset (rows): the
        numbers the rank tests use.
    n_runs : pandas.DataFrame
        Runs of each model on each dataset.
    paired : bool
        Whether the runs are paired across models on every dataset (shared
        seeds): the bootstrap then draws the same runs for every model.
    decision_target : str
        Target of the per-dataset decisions behind :meth:`win_tie_loss`:
        ``"new data"`` when the reports carry a generalization comparison
        (``ModelSelectionReport.pairwise``), ``"this dataset"`` for the
        run-to-run comparison (scores of unknown split design).
    notes : list of str
        What the user must know (unpaired datasets, one run per dataset ...).
        Each note is a ``str`` that also carries a stable ``note.code``
        (``"unpaired_runs"``, ``"single_run"``, ``"fold_scores"``) and
        ``note.where`` (the datasets it names); ``notes.codes()`` lists the
        codes and ``notes.by_code(code)`` the notes of one code.
    random_state_ : int

    Notes
    -----
    **Targets.** A dataset contributes the mean of its runs ("this dataset").
    The rank tests, mean-rank intervals and aggregate intervals treat the
    datasets as a sample from a population of datasets and their target is
    ``"new datasets"``: with ``resample="runs"`` the datasets are held fixed
    and the target is ``"these datasets"``. Per-dataset decisions name their
    own target (``decision_target``).

    **Two-level bootstrap.** Each resample draws the datasets with
    replacement, then within each drawn dataset its runs with replacement
    (the same runs for every model when paired), recomputes each dataset's
    mean score, the ranks, and the statistic. Percentile intervals for the
    mean ranks, expanded percentile intervals (Hesterberg 2015) for the
    aggregates; P(best mean rank) is the share of resamples in which a model
    has the lowest mean rank (ties split). Measured coverage: the "Many
    datasets" section of the validity page (``benchmarks/benchmark_coverage.py``).

    References
    ----------
    Demšar (2006), "Statistical comparisons of classifiers over multiple data
    sets", JMLR 7, Sec. 3.2; Benavoli, Corani & Mangili (2016), JMLR 17;
    Benavoli, Corani, Demšar & Zaffalon (2017), JMLR 18, Sec. 5; Agarwal et
    al. (2021), NeurIPS, Sec. 4.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from skperf import BenchmarkReport
    >>> rng = np.random.default_rng(0)
    >>> rows = [
    ...     (f"d{d}", m, seed, 0.8 + 0.02 * d + shift + rng.normal(0, 0.01))
    ...     for d in range(8)
    ...     for m, shift in [("a", 0.0), ("b", 0.02), ("c", 0.01)]
    ...     for seed in range(5)
    ... ]
    >>> df = pd.DataFrame(rows, columns=["dataset", "model", "seed", "acc"])
    >>> rep = BenchmarkReport.from_frame(
    ...     df, score="acc", by="model", dataset="dataset", pair_by="seed",
    ...     random_state=0)
    >>> rep.ranks()["mean_rank"].round(3).to_dict()
    {'b': 1.125, 'c': 2.0, 'a': 2.875}
    >>> round(rep.test().pvalue, 5)
    0.00219
    """

    def __init__(
        self,
        reports,
        *,
        confidence=0.95,
        n_boot="auto",
        random_state=None,
        settings=None,
    ):
        if not isinstance(reports, Mapping) or len(reports) == 0:
            raise TypeError(
                "`reports` must be a non-empty dict of dataset name to "
                f"ModelSelectionReport; got {type(reports).__name__}."
            )
        from ._model_selection import ModelSelectionReport

        for name, rep in reports.items():
            if not isinstance(rep, ModelSelectionReport):
                raise TypeError(
                    f"`reports[{name!r}]` must be a ModelSelectionReport; got "
                    f"{type(rep).__name__}."
                )
        first = next(iter(reports.values()))
        runs = {
            str(d): {m: rep.distributions[m].scores for m in rep.names}
            for d, rep in reports.items()
        }
        _check_one_scale(reports, "reports")
        paired = {str(d): _report_paired(rep) for d, rep in reports.items()}
        decisions, target = {}, "this dataset"
        for d, rep in reports.items():
            decisions[str(d)], target = _report_decisions(rep)
        self._setup(
            runs,
            paired=paired,
            decisions=decisions,
            decision_target=target,
            greater_is_better=first.greater_is_better,
            metric=first.metric,
            confidence=confidence,
            n_boot=n_boot,
            random_state=random_state,
            settings=settings,
        )
        self.reports = {str(d): rep for d, rep in reports.items()}

    # ------------------------------------------------------------------
    def _setup(
        self,
        runs,
        *,
        paired,
        decisions,
        decision_target,
        greater_is_better,
        metric,
        confidence,
        n_boot,
        random_state,
        settings,
    ):
        import pandas as pd

        self.confidence = _check_confidence(confidence)
        self.n_boot = _check_n_boot(n_boot, auto=_ranks._N_BOOT_AUTO)
        self.random_state_ = _root_entropy(random_state)
        self.settings = dict(settings or {})
        self.greater_is_better = bool(greater_is_better)
        self.metric = metric
        self.notes = Notes()
        self.reports = {}
        self.datasets = list(runs)
        models = list(next(iter(runs.values())))
        for d, per in runs.items():
            missing = [m for m in models if m not in per]
            extra = [m for m in per if m not in models]
            if missing or extra:
                which = missing or extra
                where = d if missing else self.datasets[0]
                raise ValueError(
                    f"model {which[0]!r} is missing on dataset {where!r} "
                    f"({len(which)} model(s) in all); every model needs scores on "
                    "every dataset (drop the model or the dataset first)."
                )
        if len(models) < 2:
            raise ValueError(
                f"A benchmark needs at least 2 models; got {len(models)} ({models})."
            )
        if len(self.datasets) < 2:
            raise ValueError(
                "A benchmark needs at least 2 datasets; got "
                f"{len(self.datasets)} ({self.datasets}). For one dataset use "
                "ModelSelectionReport."
            )
        self.models = models
        D, K = len(self.datasets), len(models)
        n = np.array([[len(runs[d][m]) for m in models] for d in self.datasets])
        R = int(n.max())
        arr = np.full((D, R, K), np.nan)
        for i, d in enumerate(self.datasets):
            for j, m in enumerate(models):
                arr[i, : n[i, j], j] = np.asarray(runs[d][m], dtype=float)
        if not np.isfinite(arr[~np.isnan(arr)]).all():
            raise ValueError("scores must be finite; skperf never drops values.")
        self._sign = 1.0 if self.greater_is_better else -1.0
        self._runs = arr  # original units, NaN padded
        self._n_runs = n
        unpaired = [d for d in self.datasets if not paired[d]]
        self.paired = not unpaired
        if unpaired and n.max() > 1:
            self.notes.append(
                Note(
                    f"runs are not paired across models on {len(unpaired)} "
                    f"dataset(s) ({', '.join(unpaired[:5])}"
                    f"{' ...' if len(unpaired) > 5 else ''}): the bootstrap draws "
                    "each model's runs independently on every dataset.",
                    "unpaired_runs",
                    tuple(unpaired),
                )
            )
        means = np.nanmean(arr, axis=1)
        self.scores = pd.DataFrame(means, index=self.datasets, columns=models)
        self.scores.index.name = "dataset"
        self.n_runs = pd.DataFrame(n, index=self.datasets, columns=models)
        self._decisions = decisions
        self.decision_target = decision_target
        self._cache = {}

    @classmethod
    def from_frame(
        cls,
        frame,
        *,
        score,
        by,
        dataset,
        pair_by=None,
        greater_is_better=True,
        confidence=0.95,
        n_boot="auto",
        random_state=None,
        fold=None,
        repeat=None,
        n_train=None,
        n_test=None,
    ):
        """The benchmark from a long table of scores produced anywhere.

        Parameters
        ----------
        frame : pandas.DataFrame
            One row per run: dataset, model, score (and a pairing key).
        score : str
            Column of the scores.
        by : str
            Column naming the model.
        dataset : str
            Column naming the dataset.
        pair_by : str or None, default=None
            Column pairing runs across models within a dataset (e.g. the
            seed): each model needs each key exactly once on a dataset, and
            the same keys (a duplicate key is an error). Without it, every
            row is one run and runs are not paired (two rows with equal
            values are two runs).
        greater_is_better : bool, default=True
            Direction of the score. A score named as a loss (``log_loss``,
            ``mse``, ``*_error`` ...: the rule of
            :class:`~skperf.PerformanceDistribution`) with positive values
            needs ``greater_is_better=False``; scores outside a named
            metric's range are refused.
        confidence : float, default=0.95
            Confidence level.
        n_boot : int or "auto", default="auto"
            Resamples of the two-level bootstrap.
        random_state : int, numpy.random.Generator or None, default=None
            Root of the resampling seeds.
        fold, repeat, n_train, n_test : str, str, int or str, int or str, \
default=None
            A fold design on every dataset (see :func:`skperf.from_frame`):
            the fold and repeat columns of your own repeated K-fold runs and
            the split sizes (ints, or columns holding each split's sizes, as
            datasets differ in size). The per-dataset decisions are then
            about new data (the corrected resampled paired t of
            :func:`~skperf.compare_generalization` on each dataset's
            splits), and the runs of the ranks are the per-repeat means.

        Returns
        -------
        BenchmarkReport
            The per-dataset decisions (:meth:`win_tie_loss`) are the
            run-to-run comparisons of :meth:`PerformanceDistribution.compare
            <skperf.PerformanceDistribution.compare>`, target ``"this
            dataset"``: without ``fold`` the split design of the scores is
            unknown, so no decision about new data is possible; with
            ``fold`` they are about new data. With exactly one run per
            model and dataset (a classic table of results), there are no
            per-dataset reports, win/tie/loss compares the scores as they are,
            and the bootstrap resamples datasets only.

        Raises
        ------
        ValueError
            A missing column, non-numeric or missing scores, a model missing on
            a dataset (this includes a dataset with one model), a model with
            one run on a dataset where others have several, a duplicate or
            missing ``pair_by`` key within a dataset, fewer than 2 models or
            datasets, a loss name with ``greater_is_better=True``, two model
            names that read the same (``1`` and ``"1"``), and with ``fold``
            the errors of :func:`skperf.from_frame`'s fold design.

        Examples
        --------
        >>> import pandas as pd
        >>> from skperf import BenchmarkReport
        >>> df = pd.DataFrame({
        ...     "dataset": ["iris"] * 2 + ["wine"] * 2 + ["digits"] * 2,
        ...     "model": ["svc", "tree"] * 3,
        ...     "accuracy": [0.97, 0.95, 0.98, 0.91, 0.99, 0.85],
        ... })
        >>> rep = BenchmarkReport.from_frame(
        ...     df, score="accuracy", by="model", dataset="dataset", random_state=0)
        >>> rep.win_tie_loss()[["model_a", "model_b", "wins", "ties", "losses"]]
          model_a model_b  wins  ties  losses
        0     svc    tree     3     0       0
        """
        import pandas as pd

        from .._distribution import _check_metric_scores
        from .._frame import _column, _model_names, _numeric_scores, _one_repeat, _show
        from ._model_selection import ModelSelectionReport

        if not isinstance(frame, pd.DataFrame):
            raise TypeError(
                f"`frame` must be a pandas DataFrame; got {type(frame).__name__}."
            )
        if len(frame) == 0:
            raise ValueError("`frame` has no rows.")
        for name, what in ((by, "by"), (dataset, "dataset")):
            col = _column(frame, name, what)
            if col.isna().any():
                raise ValueError(
                    f"`{what}` column {name!r} has {int(col.isna().sum())} missing "
                    "value(s); drop those rows first."
                )
        if len({score, by, dataset} | ({pair_by} if pair_by else set())) < (
            4 if pair_by else 3
        ):
            raise ValueError(
                "`score`, `by`, `dataset` and `pair_by` must name different columns; "
                f"got score={score!r}, by={by!r}, dataset={dataset!r}, "
                f"pair_by={pair_by!r}."
            )
        values = _numeric_scores(_column(frame, score, "score"), score)
        if pair_by is not None:
            _column(frame, pair_by, "pair_by")
        if not isinstance(greater_is_better, bool | np.bool_):
            raise TypeError(
                f"`greater_is_better` must be True or False; got {greater_is_better!r}."
            )
        _check_metric_scores(values, score, bool(greater_is_better))
        confidence = _check_confidence(confidence)
        _check_n_boot(n_boot)
        entropy = _root_entropy(random_state)
        repeat = _one_repeat(repeat, None)
        if fold is not None:
            return cls._from_folds(
                frame,
                score=score,
                by=by,
                dataset=dataset,
                pair_by=pair_by,
                greater_is_better=bool(greater_is_better),
                confidence=confidence,
                n_boot=n_boot,
                entropy=entropy,
                fold=fold,
                repeat=repeat,
                n_train=n_train,
                n_test=n_test,
            )
        if repeat is not None or n_train is not None or n_test is not None:
            raise ValueError(
                "`repeat`, `n_train` and `n_test` describe a fold design; pass "
                "fold=<the column numbering the folds> with them."
            )
        work = pd.DataFrame(
            {
                "dataset": frame[dataset].astype(str).to_numpy(),
                "model": _model_names(frame[by], by),
                "score": values,
            }
        )
        if pair_by is not None:
            work["pair"] = frame[pair_by].to_numpy()
        models = list(dict.fromkeys(work["model"]))
        datasets = list(dict.fromkeys(work["dataset"]))
        counts = work.groupby(["dataset", "model"], sort=False).size()
        for d in datasets:
            for m in models:
                if (d, m) not in counts.index:
                    have = sorted(set(work.loc[work["dataset"] == d, "model"]))
                    raise ValueError(
                        f"model {m!r} has no runs on dataset {d!r} (it has "
                        f"{len(have)} model(s): {', '.join(have[:5])}); every model "
                        "needs scores on every dataset: drop the model or the "
                        "dataset first."
                    )
        single = bool((counts == 1).all())
        if not single and (counts == 1).any():
            (d, m) = counts[counts == 1].index[0]
            raise ValueError(
                f"model {m!r} has 1 run on dataset {d!r} while other cells have "
                "several; a per-dataset comparison needs at least 2 runs per model "
                "(or give exactly one run for every model and dataset)."
            )
        settings = {
            "score": score,
            "by": by,
            "dataset": dataset,
            "pair_by": pair_by,
            "greater_is_better": bool(greater_is_better),
            "runs": len(frame),
            "random_state": entropy,
        }
        self = cls.__new__(cls)
        runs, paired, decisions, reports = {}, {}, {}, {}
        for d in datasets:
            sub = work[work["dataset"] == d]
            if single:  # one run each: nothing to pair
                runs[d] = {
                    m: sub.loc[sub["model"] == m, "score"].to_numpy() for m in models
                }
                paired[d] = True
                continue
            sub = sub.set_index(np.arange(len(sub)))
            try:
                rep = ModelSelectionReport.from_frame(
                    sub,
                    score="score",
                    by="model",
                    pair_by="pair" if pair_by is not None else None,
                    greater_is_better=bool(greater_is_better),
                    confidence=confidence,
                    random_state=entropy,
                    settings={**settings, "dataset": d},
                )
            except ValueError as exc:
                msg = (
                    str(exc)
                    .replace("pair=", f"{pair_by}=")
                    .replace("each pair ", f"each {pair_by} ")
                )
                raise ValueError(f"dataset {_show(d)}: {msg}") from None
            reports[d] = rep
            runs[d] = {m: rep.distributions[m].scores for m in models}
            paired[d] = _report_paired(rep)
            decisions[d] = _comparison_decisions(rep)
        self._setup(
            runs,
            paired=paired,
            decisions=decisions
            if not single
            else _raw_decisions(runs, greater_is_better),
            decision_target="this dataset",
            greater_is_better=bool(greater_is_better),
            metric=score,
            confidence=confidence,
            n_boot=n_boot,
            random_state=entropy,
            settings=settings,
        )
        self.reports = reports
        if single:
            self.notes.append(
                Note(
                    "one run per model and dataset: there is no per-dataset test "
                    "(a win or loss is any difference of the scores; a tie, equal "
                    "scores) and the bootstrap resamples datasets only.",
                    "single_run",
                )
            )
        return self

    @classmethod
    def _from_folds(
        cls,
        frame,
        *,
        score,
        by,
        dataset,
        pair_by,
        greater_is_better,
        confidence,
        n_boot,
        entropy,
        fold,
        repeat,
        n_train,
        n_test,
    ):
        """:meth:`from_frame` with a fold design: new-data decisions per dataset."""
        from .._frame import _show, from_frame
        from ..model_selection._folds import design_of, fold_ci
        from ._model_selection import ModelSelectionReport

        settings = {
            "score": score,
            "by": by,
            "dataset": dataset,
            "fold": fold,
            "repeat": repeat,
            "greater_is_better": greater_is_better,
            "runs": len(frame),
            "random_state": entropy,
        }
        keys = frame[dataset].astype(str).to_numpy()
        runs, paired, decisions, reports = {}, {}, {}, {}
        for d in dict.fromkeys(keys):
            sub = frame[keys == d]
            try:
                dists = from_frame(
                    sub,
                    score=score,
                    by=by,
                    pair_by=pair_by,
                    greater_is_better=greater_is_better,
                    fold=fold,
                    repeat=repeat,
                    n_train=n_train,
                    n_test=n_test,
                )
                design = design_of(next(iter(dists.values())))
                rep = ModelSelectionReport(
                    dists,
                    target="new data",
                    test_train_ratio=design.test_train_ratio,
                    confidence=confidence,
                    random_state=entropy,
                    settings={**settings, "dataset": d, "design": design.text()},
                )
            except ValueError as exc:
                raise ValueError(f"dataset {_show(d)}: {exc}") from None
            for name, dist in dists.items():
                rep.generalization[name] = fold_ci(dist, confidence=confidence)
            reports[d] = rep
            runs[d] = {m: rep.distributions[m].scores for m in rep.names}
            paired[d] = True
            decisions[d], _ = _report_decisions(rep)
        self = cls.__new__(cls)
        self._setup(
            runs,
            paired=paired,
            decisions=decisions,
            decision_target="new data",
            greater_is_better=greater_is_better,
            metric=score,
            confidence=confidence,
            n_boot=n_boot,
            random_state=entropy,
            settings=settings,
        )
        self.reports = reports
        self.notes.append(
            Note(
                "fold scores you brought: on each dataset every pair of models is "
                "tested on new data with the corrected resampled paired t over "
                "its splits (Nadeau & Bengio 2003); the ranks and their bootstrap "
                "use one score per repeat (the mean of its folds).",
                "fold_scores",
            )
        )
        return self

    # ------------------------------------------------------------------
    @property
    def n_datasets(self):
        """Number of datasets."""
        return len(self.datasets)

    @property
    def n_models(self):
        """Number of models."""
        return len(self.models)

    def _seed(self, what, *extra):
        return np.random.SeedSequence(
            [self.random_state_, 0x62656E63, _TAGS[what], *extra]
        )

    def _oriented(self):
        return self._sign * self._runs

    def _check_resample(self, resample):
        if resample not in _ranks.RESAMPLE:
            raise ValueError(
                f"`resample` must be one of {list(_ranks.RESAMPLE)}; got {resample!r}."
            )
        if self._n_runs.max() == 1:  # one run each: only datasets to resample
            if resample == "runs":
                raise ValueError(
                    "resample='runs' needs several runs per model and dataset; this "
                    "benchmark has one run each (resample the datasets instead)."
                )
            return "datasets"
        return resample

    def _bootstrap(self, statistic, what, resample, key):
        cache_key = (what, resample, key)
        if cache_key not in self._cache:
            self._cache[cache_key] = _ranks.two_level_bootstrap(
                self._oriented(),
                self._n_runs,
                statistic,
                resample=resample,
                paired=self.paired,
                n_boot=self.n_boot,
                random_state=self._seed(what, _ranks.RESAMPLE.index(resample)),
            )
        return self._cache[cache_key]

    # ------------------------------------------------------------------
    def ranks(self, *, resample="datasets and runs"):
        """Mean rank of each model with an interval, and P(best mean rank).

        Parameters
        ----------
        resample : {"datasets and runs", "datasets", "runs"}, default="datasets and runs"
            What the bootstrap resamples (see :class:`BenchmarkReport`, Notes).
            ``"runs"`` holds the datasets fixed: the interval is then about
            these datasets only (target ``"these datasets"``).

        Returns
        -------
        pandas.DataFrame
            Index ``model`` (best mean rank first); columns ``mean_rank``
            (1 is the best; ties average), ``low``, ``high`` (percentile
            interval at ``confidence``), ``p_best`` (share of resamples in
            which the model has the lowest mean rank), ``confidence``,
            ``resample`` and ``target``.
        """
        import pandas as pd

        resample = self._check_resample(resample)
        point = _ranks.mean_ranks(
            self.scores.to_numpy(), greater_is_better=self.greater_is_better
        )
        reps = self._bootstrap(_ranks._mean_rank_stat, "ranks", resample, None)
        low, high = _ranks.percentile_interval(reps, self.confidence)
        frame = pd.DataFrame(
            {
                "mean_rank": point,
                "low": low,
                "high": high,
                "p_best": _ranks.p_best(reps),
                "confidence": self.confidence,
                "resample": _RESAMPLE_TEXT[resample],
                "target": _RUNS_ONLY if resample == "runs" else _ACROSS,
            },
            index=pd.Index(self.models, name="model"),
        )
        return frame.sort_values("mean_rank", kind="stable")

    def test(self, *, posthoc="nemenyi", control=None):
        """Friedman (and Iman-Davenport) test, then a post-hoc test of the pairs.

        Parameters
        ----------
        posthoc : {"nemenyi", "holm"}, default="nemenyi"
            ``"nemenyi"``: all pairs by their mean-rank difference against
            the critical difference (Demšar 2006, Sec. 3.2.2). ``"holm"``:
            Wilcoxon signed-rank test of each pair on the per-dataset mean
            scores, Holm-corrected; recommended over mean-rank post-hoc tests,
            whose outcome depends on the other models in the comparison
            (Benavoli, Corani & Mangili 2016).
        control : str or None, default=None
            With ``"holm"``: test only this model against each other one
            (a smaller family, more power).

        Returns
        -------
        BenchmarkTest
            With ``statistic``, ``pvalue``, ``critical_difference`` and the
            pairwise ``pvalues`` (a DataFrame; ``to_frame()`` gives it with
            the test numbers in ``attrs``).
        """
        import pandas as pd

        if posthoc not in _POSTHOC:
            raise ValueError(
                f"`posthoc` must be one of {list(_POSTHOC)}; got {posthoc!r}."
            )
        if control is not None:
            if posthoc != "holm":
                raise ValueError(
                    "`control` is only used with posthoc='holm' (Nemenyi tests all "
                    f"pairs); got control={control!r} with posthoc={posthoc!r}."
                )
            if control not in self.models:
                raise ValueError(
                    f"`control` must be one of the models {self.models}; got {control!r}."
                )
        x = self.scores.to_numpy()
        fr = _ranks.friedman(x, greater_is_better=self.greater_is_better)
        r = _ranks.mean_ranks(x, greater_is_better=self.greater_is_better)
        n, k = x.shape
        cd = _ranks.nemenyi_critical_difference(k, n, confidence=self.confidence)
        alpha = 1.0 - self.confidence
        if posthoc == "nemenyi":
            adj = raw = _ranks.nemenyi_pvalues(r, n)
            different = np.abs(r[:, None] - r[None, :]) >= cd
        else:
            c = None if control is None else self.models.index(control)
            raw, adj = _ranks.wilcoxon_holm(self._sign * x, control=c)
            different = np.nan_to_num(adj, nan=1.0) < alpha
        groups = _ranks.cliques(r, different) if control is None else []

        def frame(p):
            return pd.DataFrame(p, index=self.models, columns=self.models)

        return BenchmarkTest(
            statistic=fr.statistic,
            pvalue=fr.pvalue,
            iman_davenport=fr.iman_davenport,
            iman_davenport_pvalue=fr.iman_davenport_pvalue,
            posthoc=posthoc,
            critical_difference=float(cd),
            pvalues=frame(adj),
            raw_pvalues=frame(raw),
            control=control,
            mean_ranks=dict(zip(self.models, r.tolist(), strict=True)),
            cliques=[[self.models[i] for i in g] for g in groups],
            confidence=self.confidence,
            n_datasets=int(n),
            n_models=int(k),
        )

    def win_tie_loss(self):
        """Wins, ties and losses of every pair of models over the datasets.

        A tie is "no significant difference on that dataset" from the
        per-dataset decision (``decision_target`` names its target:
        ``"new data"`` from the report's generalization comparison,
        ``"this dataset"`` from the run-to-run comparison). "better, not
        meaningful" counts as a win (significant but below the meaningful
        threshold); "practically equivalent" as a tie. Ties are what rank
        tests count as wins.

        Returns
        -------
        pandas.DataFrame
            One row per pair ``model_a`` < ``model_b`` (given order):
            ``wins`` (datasets where A is better), ``ties``, ``losses``,
            ``n_datasets``, ``target``.
        """
        import pandas as pd

        rows = []
        for i, a in enumerate(self.models):
            for b in self.models[i + 1 :]:
                w = np.array([self._decisions[d][a, b] for d in self.datasets])
                rows.append(
                    {
                        "model_a": a,
                        "model_b": b,
                        "wins": int((w > 0).sum()),
                        "ties": int((w == 0).sum()),
                        "losses": int((w < 0).sum()),
                        "n_datasets": self.n_datasets,
                        "target": self.decision_target,
                    }
                )
        return pd.DataFrame(rows)

    def aggregate(self, metric="mean", *, threshold=None, resample="datasets and runs"):
        """Aggregate score of each model across datasets, with an interval.

        Parameters
        ----------
        metric : {"mean", "median", "iqm", "optimality_gap"}, default="mean"
            ``"mean"``: mean over datasets of each dataset's mean score;
            ``"median"``: median of those; ``"iqm"``: interquartile mean of
            all runs of all datasets pooled (the middle 50 %);
            ``"optimality_gap"``: how far the runs fall short of
            ``threshold`` on average (lower is better). Rliable's aggregates
            (Agarwal et al. 2021, Sec. 4). Averaging scores across datasets
            mixes their scales (Demšar 2006, Sec. 3.2.1): read them with the
            ranks.
        threshold : float or None, default=None
            Target score of ``"optimality_gap"`` (default 1 when greater is
            better, 0 for a loss).
        resample : {"datasets and runs", "datasets", "runs"}, default="datasets and runs"
            The interval's bootstrap: by default datasets, then runs within
            each (a stratified two-level bootstrap: the interval is about new
            datasets), read at the expanded percentile levels of Hesterberg
            (2015, Sec. 6), as the plain percentile interval is too short with
            few datasets. ``"runs"`` is rliable's stratified bootstrap
            (datasets fixed: an interval about these datasets only; plain
            percentile).

        Returns
        -------
        pandas.DataFrame
            Index ``model``; columns ``estimate``, ``low``, ``high``,
            ``metric``, ``confidence``, ``resample``, ``target``.
        """
        import pandas as pd

        if metric not in _ranks.AGGREGATES:
            raise ValueError(
                f"`metric` must be one of {list(_ranks.AGGREGATES)}; got {metric!r}."
            )
        if threshold is None:
            threshold = 1.0 if self.greater_is_better else 0.0
        elif metric != "optimality_gap":
            raise ValueError(
                f"`threshold` is only used with metric='optimality_gap'; got "
                f"threshold={threshold!r} with metric={metric!r}."
            )
        elif not isinstance(threshold, numbers.Real) or not np.isfinite(threshold):
            raise ValueError(f"`threshold` must be a finite number; got {threshold!r}.")
        resample = self._check_resample(resample)
        thr = self._sign * float(threshold)

        def stat(s):
            return _ranks.aggregate(s, metric, threshold=thr)

        point = stat(self._oriented()[None])[0]
        reps = self._bootstrap(stat, "aggregate", resample, (metric, thr))
        if resample == "runs":
            low, high = _ranks.percentile_interval(reps, self.confidence)
        else:  # datasets are the units: the percentile interval is too short
            low, high = _ranks.expanded_percentile_interval(
                reps, self.confidence, self.n_datasets
            )
        if metric != "optimality_gap" and self._sign < 0:
            point, low, high = -point, -high, -low
        return pd.DataFrame(
            {
                "estimate": point,
                "low": low,
                "high": high,
                "metric": metric,
                "confidence": self.confidence,
                "resample": _RESAMPLE_TEXT[resample],
                "target": _RUNS_ONLY if resample == "runs" else _ACROSS,
            },
            index=pd.Index(self.models, name="model"),
        )

    def bayesian_signed_rank(
        self, model_a=None, model_b=None, *, rope=0.0, prior=0.5, n_samples=50000
    ):
        """Bayesian signed-rank test across datasets (Benavoli et al. 2017).

        On the per-dataset mean scores: P(A better), P(practically
        equivalent: the difference inside ``[-rope, rope]``), P(B better).

        Parameters
        ----------
        model_a, model_b : str or None, default=None
            One pair; ``None`` for every pair.
        rope : float, default=0.0
            Half-width of the region of practical equivalence in the metric's
            units (e.g. 0.01 for 1 % accuracy; Benavoli et al. use 0.01).
        prior : float, default=0.5
            Strength of the Dirichlet process prior (pseudo-observation at 0).
        n_samples : int, default=50000
            Posterior samples.

        Returns
        -------
        pandas.DataFrame
            One row per pair: ``model_a``, ``model_b``, ``p_better`` (A
            better), ``p_rope``, ``p_worse`` (B better), ``decision`` (the
            side whose probability exceeds ``confidence``, else
            ``"inconclusive"``), ``rope``, ``target`` (``"new datasets"``).
        """
        import pandas as pd

        from ..metrics._registry import _check_rope_for

        rope = _check_rope_for(rope, self.metric)
        if (model_a is None) != (model_b is None):
            raise ValueError(
                "Give both `model_a` and `model_b`, or neither (every pair); got "
                f"model_a={model_a!r}, model_b={model_b!r}."
            )
        for name, m in (("model_a", model_a), ("model_b", model_b)):
            if m is not None and m not in self.models:
                raise ValueError(f"`{name}` must be one of {self.models}; got {m!r}.")
        if model_a is not None and model_a == model_b:
            raise ValueError(f"`model_a` and `model_b` are the same model {model_a!r}.")
        if model_a is None:
            pairs = [
                (a, b) for i, a in enumerate(self.models) for b in self.models[i + 1 :]
            ]
        else:
            pairs = [(model_a, model_b)]
        rows = []
        for a, b in pairs:
            ia, ib = self.models.index(a), self.models.index(b)
            diff = self._sign * (self.scores[a].to_numpy() - self.scores[b].to_numpy())
            pb, pr, pw = _ranks.bayesian_signed_rank(
                diff,
                rope=rope,
                prior=prior,
                n_samples=n_samples,
                random_state=self._seed("bayes", min(ia, ib), max(ia, ib)),
            )
            if pb > self.confidence:
                decision = "better"
            elif pw > self.confidence:
                decision = "worse"
            elif pr > self.confidence:
                decision = "practically equivalent"
            else:
                decision = "inconclusive"
            rows.append(
                {
                    "model_a": a,
                    "model_b": b,
                    "p_better": pb,
                    "p_rope": pr,
                    "p_worse": pw,
                    "decision": decision,
                    "rope": float(rope),
                    "target": _ACROSS,
                }
            )
        return pd.DataFrame(rows)

    # ------------------------------------------------------------------
    def plot_cd(self, ax=None, *, posthoc="nemenyi", intervals=True):
        """Draw the critical-difference diagram (Demšar 2006, Fig. 1).

        Models on the rank axis (1 is the best); thick bars join models that
        do not differ significantly (``posthoc``: Nemenyi's CD, or
        Holm-corrected Wilcoxon); with ``intervals`` each model's row shows
        its two-level bootstrap interval of the mean rank.

        Parameters
        ----------
        ax : matplotlib Axes or None, default=None
            Where to draw.
        posthoc : {"nemenyi", "holm"}, default="nemenyi"
            Which test forms the cliques.
        intervals : bool, default=True
            Shade the mean-rank intervals.

        Returns
        -------
        matplotlib.axes.Axes
            The axes drawn on.
        """
        from ._cd_plot import _plot_cd
        from ._plot import _require_matplotlib

        _require_matplotlib()
        res = self.test(posthoc=posthoc)
        r = np.array([res.mean_ranks[m] for m in self.models])
        low = high = None
        if intervals:
            rk = self.ranks().reindex(self.models)
            low, high = rk["low"].to_numpy(), rk["high"].to_numpy()
        idx = {m: i for i, m in enumerate(self.models)}
        title = (
            f"Friedman p = {res.pvalue:.3g}; "
            + (
                f"Nemenyi CD = {res.critical_difference:.2f}"
                if posthoc == "nemenyi"
                else "Holm-corrected Wilcoxon"
            )
            + f" at {1 - self.confidence:.2g} ({self.n_datasets} datasets)"
        )
        return _plot_cd(
            self.models,
            r,
            critical_difference=res.critical_difference
            if posthoc == "nemenyi"
            else None,
            cliques=[[idx[m] for m in g] for g in res.cliques],
            low=low,
            high=high,
            ax=ax,
            title=title,
        )

    # ------------------------------------------------------------------
    def to_frame(self):
        """One row per dataset and model: mean score, spread, runs, rank.

        Returns
        -------
        pandas.DataFrame
            Columns ``dataset``, ``model``, ``mean``, ``std`` (over runs;
            NaN for one run), ``n_runs``, ``rank`` (within the dataset, 1 is
            the best), ``target`` (``"this dataset"``: the mean over runs).
        """
        import pandas as pd

        ranks = _ranks.rank_models(
            self.scores.to_numpy(), greater_is_better=self.greater_is_better
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            sd = np.nanstd(self._runs, axis=1, ddof=1)
        sd = np.where(self._n_runs > 1, sd, np.nan)
        rows = []
        for i, d in enumerate(self.datasets):
            for j, m in enumerate(self.models):
                rows.append(
                    {
                        "dataset": d,
                        "model": m,
                        "mean": float(self.scores.iat[i, j]),
                        "std": float(sd[i, j]),
                        "n_runs": int(self._n_runs[i, j]),
                        "rank": float(ranks[i, j]),
                        "target": "this dataset",
                    }
                )
        return pd.DataFrame(rows)

    def to_dict(self):
        """Everything the report shows, as plain Python values (JSON-ready).

        Returns
        -------
        dict
            Datasets, models, per-dataset scores and runs, ranks, both tests,
            win/tie/loss, aggregates, the Bayesian signed-rank test (rope 0),
            notes and settings; every number with its target.
        """

        def records(frame, index=True):
            f = frame.reset_index() if index else frame
            return [{k: _plain(v) for k, v in r.items()} for r in f.to_dict("records")]

        test = self.test()
        return {
            "datasets": list(self.datasets),
            "models": list(self.models),
            "metric": self.metric,
            "greater_is_better": self.greater_is_better,
            "confidence": self.confidence,
            "n_boot": self.n_boot,
            "random_state": self.random_state_,
            "paired": self.paired,
            "scores": {
                d: {m: float(self.scores.at[d, m]) for m in self.models}
                for d in self.datasets
            },
            "n_runs": {
                d: {m: int(self.n_runs.at[d, m]) for m in self.models}
                for d in self.datasets
            },
            "ranks": records(self.ranks()),
            "test": test.to_dict(),
            "holm": self.test(posthoc="holm").to_dict(),
            "win_tie_loss": records(self.win_tie_loss(), index=False),
            "decision_target": self.decision_target,
            "aggregate": {
                m: records(self.aggregate(m)) for m in ("mean", "median", "iqm")
            },
            "bayesian_signed_rank": records(self.bayesian_signed_rank(), index=False),
            "notes": [str(n) for n in self.notes],
            "settings": {k: _plain(v) for k, v in self.settings.items()},
        }

    def to_markdown(self, *, fmt=".3f"):
        """A paper-ready markdown table: scores per dataset, ranks, significance.

        Rows are datasets, columns models: the mean score with its rank in
        parentheses, the best of each dataset in bold, and ``*`` where the
        model is significantly worse than that best model on that dataset
        (per-dataset decision; its target is named below the table). The last
        rows give the mean rank with its interval and P(best mean rank);
        below: the Friedman and Iman-Davenport tests, Nemenyi's critical
        difference and the groups of models not significantly different.

        Parameters
        ----------
        fmt : str, default=".3f"
            Format of the scores.

        Returns
        -------
        str
            The markdown text.
        """
        from ._format import _markdown_table

        ranks = _ranks.rank_models(
            self.scores.to_numpy(), greater_is_better=self.greater_is_better
        )
        rk = self.ranks().reindex(self.models)
        test = self.test(posthoc="nemenyi")
        holm = self.test(posthoc="holm")
        tested = int(self._n_runs.max()) > 1  # per-dataset decisions are tests
        rows = []
        for i, d in enumerate(self.datasets):
            best = self.models[int(np.argmin(ranks[i]))]
            cells = [d]
            for j, m in enumerate(self.models):
                text = f"{self.scores.iat[i, j]:{fmt}} ({ranks[i, j]:g})"
                if ranks[i, j] == ranks[i].min():
                    text = f"**{text}**"
                elif tested and m != best and self._decisions[d][m, best] < 0:
                    text += "*"
                cells.append(text)
            rows.append(cells)
        rows.append(
            ["mean rank"]
            + [
                f"{rk.at[m, 'mean_rank']:.2f} [{rk.at[m, 'low']:.2f}, {rk.at[m, 'high']:.2f}]"
                for m in self.models
            ]
        )
        rows.append(
            ["P(best mean rank)"] + [f"{rk.at[m, 'p_best']:.2f}" for m in self.models]
        )
        pct = f"{self.confidence:.0%}"
        lines = [
            f"# Benchmark: {self.n_models} models on {self.n_datasets} datasets",
            "",
            _markdown_table(["dataset", *self.models], rows),
            "",
            (
                f"Scores: mean {self.metric or 'score'} over runs (rank within the dataset; "
                "1 is the best; best in bold). "
                + (
                    f"`*`: significantly worse than the dataset's best model (per-dataset "
                    f"decision, target: {self.decision_target})."
                    if tested
                    else "One run per model and dataset: no per-dataset test, no marks."
                )
            ),
            (
                f"Mean rank [{pct} interval, {_RESAMPLE_TEXT['datasets and runs']}; "
                f"target: {_ACROSS}]; P(best mean rank) from the same resamples."
            ),
            "",
            _test_text(test, holm, self.confidence),
        ]
        if self.notes:
            lines += ["", "Notes:", *[f"- {n}" for n in self.notes]]
        return "\n".join(lines) + "\n"

    def to_html(self, path=None, *, plots=True):
        """A self-contained HTML report (no external files or URLs).

        Sections: the conclusion, the critical-difference diagram (PNG
        embedded as base64), mean ranks with intervals and P(best), the
        tests, win/tie/loss, aggregate scores with intervals, the Bayesian
        signed-rank test, the per-dataset summary, then one section per
        dataset (linked from the summary) with that dataset's model-selection
        table.

        Parameters
        ----------
        path : str, os.PathLike or None, default=None
            Where to write; ``None`` returns the text only.
        plots : bool, default=True
            Embed the critical-difference diagram (needs matplotlib).

        Returns
        -------
        str
            The HTML document.
        """
        text = _html(self, plots=plots)
        if path is not None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        return text

    def _repr_html_(self):
        return _html(self, plots=False, full=False)

    def __repr__(self):
        return (
            f"BenchmarkReport({self.n_models} models on {self.n_datasets} datasets, "
            f"metric={self.metric!r}, confidence={self.confidence:g}, "
            f"decisions: target={self.decision_target!r}; across datasets: "
            f"target={_ACROSS!r})"
        )


def _test_text(test, holm, confidence):
    lvl = f"{1 - confidence:.2g}"
    groups = "; ".join("{" + ", ".join(g) + "}" for g in test.cliques) or "none"
    hgroups = "; ".join("{" + ", ".join(g) + "}" for g in holm.cliques) or "none"
    return (
        f"Friedman chi2 = {test.statistic:.3f}, p = {test.pvalue:.3g}; "
        f"Iman-Davenport F = {test.iman_davenport:.3f}, p = "
        f"{test.iman_davenport_pvalue:.3g} ({test.n_datasets} datasets, "
        f"{test.n_models} models). Nemenyi critical difference at {lvl}: "
        f"{test.critical_difference:.3f}; not significantly different (Nemenyi): "
        f"{groups}; (Holm-corrected Wilcoxon signed-rank): {hgroups} "
        f"(Demšar 2006; target: {test.target})."
    )


def _report_paired(rep):
    """Whether the report's (independent) distributions pair all models."""
    from .._compare import _resolve_paired

    dists = [rep.distributions[m] for m in rep.names]
    return all(_resolve_paired(dists[0], d, "auto") for d in dists[1:])


def _comparison_decisions(rep):
    """(a, b) -> +1/0/-1 from the run-to-run comparisons (this dataset)."""
    return {(a, b): _win(c.decision) for (a, b), c in rep.comparisons.items()}


def _report_decisions(rep):
    """Decisions and their target: ``pairwise()`` when the report has one."""
    pairwise = getattr(rep, "pairwise", None)
    if callable(pairwise):
        frame = pairwise()
        out = {}
        targets = set()
        for row in frame.itertuples(index=False):
            w = _win(row.decision)
            out[row.model_a, row.model_b] = w
            out[row.model_b, row.model_a] = -w
            targets.add(getattr(row, "target", "this dataset"))
        names = rep.names
        if (
            all((a, b) in out for a in names for b in names if a != b)
            and len(targets) == 1
        ):
            return out, targets.pop()
    return _comparison_decisions(rep), "this dataset"


def _raw_decisions(runs, greater_is_better):
    sign = 1.0 if greater_is_better else -1.0
    out = {}
    for d, per in runs.items():
        out[d] = {}
        for a, xa in per.items():
            for b, xb in per.items():
                if a != b:
                    out[d][a, b] = int(np.sign(sign * (np.mean(xa) - np.mean(xb))))
    return out


def benchmark(
    estimators,
    datasets,
    *,
    scoring=None,
    n_repeats="auto",
    cv=None,
    random_state=None,
    n_jobs=None,
    memory=None,
    confidence=0.95,
):
    """Compare several models on many datasets.

    One paired :func:`~skperf.compare_models` report per dataset (the same
    seeds for every model, the cache, joblib like every evaluation), then the
    across-dataset analysis of :class:`BenchmarkReport`.

    Parameters
    ----------
    estimators : dict of str to estimator
        Models by name (the order breaks ties).
    datasets : dict of str to tuple (X, y)
        Datasets by name.
    scoring : str, callable or None, default=None
        Scorer (as in :func:`~skperf.compare_models`); one metric for all
        datasets.
    n_repeats : int or "auto", default="auto"
        Repeats per model and dataset (:func:`~skperf.compare_models`'s
        ``"auto"``: 10 repeats of 10-fold CV at the default ``cv``).
    cv : int, cross-validation generator or None, default=None
        Splitter of each repeat (:func:`~skperf.compare_models`'s default
        when ``None``).
    random_state : int, numpy.random.Generator or None, default=None
        Root of every seed; ``None`` draws fresh entropy, recorded in
        ``random_state_``. Every dataset gets the same root, so
        ``compare_models(estimators, X, y, random_state=report.random_state_,
        ...)`` reproduces one dataset's report.
    n_jobs : int or None, default=None
        Parallel jobs of each dataset's fits.
    memory : None, str, os.PathLike or joblib.Memory, default=None
        Cache of the fits: a rerun, or one with more repeats, models or
        datasets, fits only what is missing.
    confidence : float, default=0.95
        Confidence level of every interval and test.

    Returns
    -------
    BenchmarkReport
        With ``reports`` (one :class:`~skperf.ModelSelectionReport` per
        dataset, each with its fitted evaluators).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skperf import benchmark
    >>> data = {f"d{i}": make_classification(n_samples=60, random_state=i)
    ...         for i in range(3)}
    >>> models = {"logreg": LogisticRegression(), "dummy": DummyClassifier()}
    >>> rep = benchmark(models, data, cv=3, n_repeats=2, random_state=0)
    >>> rep.ranks()["mean_rank"].to_dict()
    {'logreg': 1.0, 'dummy': 2.0}
    >>> wtl = rep.win_tie_loss().iloc[0]
    >>> print(wtl["wins"], wtl["ties"], wtl["losses"], wtl["target"])
    3 0 0 new data
    """
    from ._compare_models import compare_models

    if not isinstance(estimators, Mapping) or len(estimators) < 2:
        raise TypeError(
            "`estimators` must be a dict of at least 2 model names to estimators; "
            f"got {type(estimators).__name__}"
            + (f" of {len(estimators)}" if isinstance(estimators, Mapping) else "")
            + "."
        )
    if not isinstance(datasets, Mapping) or len(datasets) < 2:
        raise TypeError(
            "`datasets` must be a dict of at least 2 dataset names to (X, y); got "
            f"{type(datasets).__name__}"
            + (f" of {len(datasets)}" if isinstance(datasets, Mapping) else "")
            + "."
        )
    for name, data in datasets.items():
        if not isinstance(name, str):
            raise TypeError(f"`datasets` keys must be str names; got {name!r}.")
        if not isinstance(data, tuple | list) or len(data) != 2:
            raise TypeError(
                f"`datasets[{name!r}]` must be a tuple (X, y); got "
                f"{type(data).__name__}"
                + (f" of length {len(data)}" if isinstance(data, tuple | list) else "")
                + "."
            )
    confidence = _check_confidence(confidence)
    entropy = _root_entropy(random_state)
    reports = {}
    for name, (X, y) in datasets.items():
        reports[name] = compare_models(
            estimators,
            X,
            y,
            scoring=scoring,
            cv=cv,
            n_repeats=n_repeats,
            random_state=entropy,
            n_jobs=n_jobs,
            memory=memory,
            confidence=confidence,
        )
    from ..utils._sklearn_compat import _num_samples

    first = next(iter(reports.values()))
    settings = {
        "models": {n: repr(e) for n, e in estimators.items()},
        "datasets": {n: f"{_num_samples(X)} rows" for n, (X, _) in datasets.items()},
        "scoring": first.settings.get("scoring"),
        "cv": first.settings.get("cv"),
        "n_repeats": first.settings.get("n_repeats"),
        "random_state": entropy,
    }
    return BenchmarkReport(
        reports, confidence=confidence, random_state=entropy, settings=settings
    )


# ----------------------------------------------------------------------
# HTML (the page skeleton is in _html.py)


def _ci_text(est, low, high, fmt=".3f"):
    return f"{est:{fmt}} [{low:{fmt}}, {high:{fmt}}]"


def _anchor(i):
    return f"dataset-{i}"


def _html(rep, *, plots=True, full=True):
    """The page of a :class:`BenchmarkReport` (``full=False``: the box alone)."""
    pct = f"{rep.confidence:.0%}"
    rk = rep.ranks()
    test = rep.test(posthoc="nemenyi")
    holm = rep.test(posthoc="holm")
    best = rk.index[0]
    body = [
        _paragraph(
            f"Best mean rank: {best} ({rk.at[best, 'mean_rank']:.2f}, {pct} interval "
            f"[{rk.at[best, 'low']:.2f}, {rk.at[best, 'high']:.2f}]; P(best mean rank) "
            f"= {rk.at[best, 'p_best']:.2f}). Friedman test p = {test.pvalue:.3g}, "
            f"Iman-Davenport p = {test.iman_davenport_pvalue:.3g}. Across datasets the "
            f"target is {_ACROSS!r} (the datasets are a sample of datasets); the "
            f"per-dataset decisions are about {rep.decision_target!r}."
        )
    ]
    if plots:
        import matplotlib.pyplot as plt

        from ._plot import _png_base64

        ax = rep.plot_cd()
        png = _png_base64(ax.figure)
        plt.close(ax.figure)
        body += [
            _heading("Critical-difference diagram"),
            _image(png, "critical-difference diagram"),
            _note(
                "Mean ranks on the axis (1 is the best); thick bars join models not "
                "significantly different by Nemenyi's test; shaded: the "
                f"{pct} interval of each mean rank ({_RESAMPLE_TEXT['datasets and runs']})."
            ),
        ]
    body += [
        _heading("Mean ranks"),
        _table(
            ["model", f"mean rank [{pct} interval]", "P(best mean rank)"],
            [
                [m, _ci_text(r.mean_rank, r.low, r.high, ".2f"), f"{r.p_best:.3f}"]
                for m, r in rk.iterrows()
            ],
        ),
        _note(
            f"Intervals and P(best mean rank): {_RESAMPLE_TEXT['datasets and runs']}, "
            f"{rep.n_boot} resamples; target: {_ACROSS}."
        ),
        _heading("Tests"),
        _paragraph(_test_text(test, holm, rep.confidence)),
        _heading(
            "Pairwise p-values: Holm-corrected Wilcoxon signed-rank (upper) and "
            "Nemenyi (lower)",
            level=3,
        ),
        _table(
            ["", *rep.models],
            [
                [a]
                + [
                    "—"
                    if a == b
                    else f"{holm.pvalues.at[a, b]:.3g}"
                    if i < j
                    else f"{test.pvalues.at[a, b]:.3g}"
                    for j, b in enumerate(rep.models)
                ]
                for i, a in enumerate(rep.models)
            ],
        ),
        _heading("Win / tie / loss"),
        _table(
            ["model A", "model B", "wins of A", "ties", "losses of A"],
            [
                [r.model_a, r.model_b, r.wins, r.ties, r.losses]
                for r in rep.win_tie_loss().itertuples()
            ],
        ),
        _note(
            "Per dataset: a win or loss is a significant difference on that dataset, "
            "a tie no significant difference (target of those decisions: "
            f"{rep.decision_target})."
            if int(rep._n_runs.max()) > 1
            else "One run per model and dataset: no per-dataset test; a win or loss "
            "is any difference of the scores, a tie equal scores."
        ),
    ]
    aggs = {m: rep.aggregate(m) for m in ("mean", "median", "iqm")}
    body += [
        _heading("Aggregate scores"),
        _table(
            ["model"] + [f"{m} [{pct} interval]" for m in ("mean", "median", "IQM")],
            [
                [m]
                + [
                    _ci_text(a.at[m, "estimate"], a.at[m, "low"], a.at[m, "high"])
                    for a in aggs.values()
                ]
                for m in rep.models
            ],
        ),
        _note(
            f"Intervals: {_RESAMPLE_TEXT['datasets and runs']} (target: {_ACROSS}). "
            "Averages across datasets mix their scales; read them with the ranks."
        ),
    ]
    bayes = rep.bayesian_signed_rank()
    body += [
        _heading("Bayesian signed-rank test"),
        _table(
            ["model A", "model B", "P(A better)", "P(rope)", "P(B better)", "decision"],
            [
                [
                    r.model_a,
                    r.model_b,
                    f"{r.p_better:.3f}",
                    f"{r.p_rope:.3f}",
                    f"{r.p_worse:.3f}",
                    r.decision,
                ]
                for r in bayes.itertuples()
            ],
        ),
        _note(
            "Benavoli et al. (2017) on the per-dataset mean scores, rope = "
            f"{bayes['rope'].iloc[0]:g} (call bayesian_signed_rank(rope=...) for a "
            "region of practical equivalence); a decision needs a probability above "
            f"{rep.confidence:g}."
        ),
    ]
    ranks = _ranks.rank_models(
        rep.scores.to_numpy(), greater_is_better=rep.greater_is_better
    )
    rows, classes = [], []
    for i, d in enumerate(rep.datasets):
        link = (
            f'<a href="#{_anchor(i)}">{escape(d)}</a>'
            if d in rep.reports
            else escape(d)
        )
        rows.append(
            [_Raw(link)]
            + [
                f"{rep.scores.iat[i, j]:.4g} ({ranks[i, j]:g})"
                for j in range(rep.n_models)
            ]
        )
        classes.append(
            [""]
            + [
                "best" if ranks[i, j] == ranks[i].min() else ""
                for j in range(rep.n_models)
            ]
        )
    body += [
        _heading("Per dataset"),
        _table(["dataset", *rep.models], rows, cell_classes=classes),
        _note("Mean score over runs (rank within the dataset); target: this dataset."),
    ]
    for i, d in enumerate(rep.datasets):
        if d not in rep.reports:
            continue
        r = rep.reports[d]
        frame = (
            r.pairwise()[
                [
                    "model_a",
                    "model_b",
                    "estimate",
                    "low",
                    "high",
                    "pvalue",
                    "decision",
                    "target",
                ]
            ]
            if callable(getattr(r, "pairwise", None))
            else None
        )
        body.append(f'<section id="{_anchor(i)}">{_heading(d, level=3)}')
        stats_rows = [
            [m, f"{dist.mean():.4g}", f"{dist.std():.3g}", dist.n]
            for m, dist in r.distributions.items()
        ]
        body.append(_table(["model", "mean", "sd", "runs"], stats_rows))
        if frame is not None:
            body.append(
                _table(
                    list(frame.columns),
                    [
                        [f"{v:.4g}" if isinstance(v, float) else v for v in row]
                        for row in frame.itertuples(index=False)
                    ],
                )
            )
        body.append("</section>")
    body += _notes_section(rep.notes)
    body += _settings_section(rep.settings.items(), heading="Settings")
    heading = f"Benchmark: {rep.n_models} models on {rep.n_datasets} datasets"
    return _page(
        heading,
        body,
        title=f"skperf benchmark: {rep.n_models} models on {rep.n_datasets} datasets",
        full=full,
    )
