"""``skperf report``: compare models on shared seeds, write an HTML report.

Evaluates the models with :func:`skperf.compare_models` (paired: every model
gets the same seeds) and prints what the returned
:class:`~skperf.ModelSelectionReport` says (its :attr:`conclusion`, its
:meth:`summary_table`, its settings, requirements and curves), reading every
fact the evaluation computed from the report itself. The data and models
come from :mod:`._common` (``--data``) and :mod:`._models` (``--model``).
"""

from __future__ import annotations

import argparse
import math
import sys
import textwrap

from ._common import (
    MAX_CLASSES,
    _add_random_state,
    _add_report_options,
    _check_out,
    _check_random_state,
    _check_report_options,
    _CLIError,
    _correction,
    _entropy,
    _first_line,
    _load_data,
    _markdown_table,
    _missing_text,
    _one_line,
    _print_summary,
    _reproduce_line,
    _task,
    _verdict_line,
    _wrapped,
    _write_html,
)
from ._models import (
    _check_features,
    _check_models_fit_task,
    _default_models,
    _default_scoring,
    _parse_models,
    _preprocess,
)

__all__ = ["add_parser", "run"]

PROG = "skperf report"

DEFAULT_N_REPEATS = 35  # the Noether size for gamma = 0.75 at 95 % (App. C.3)
#: new data (default): 10-fold x 10 repeats = 100 fits per model, the design of
#: generalization_ci's auto (each fit trains on 0.9 n distinct rows)
DEFAULT_N_REPEATS_NEW_DATA = 10
DEFAULT_FOLDS = 10
_DECIDE_ON = {"new-data": "new data", "this-dataset": "this dataset"}


# ----------------------------------------------------------------------
# parser
def add_parser(subparsers):
    """Register ``report`` on the ``skperf`` subcommands (see :mod:`skperf.cli`)."""
    rep = subparsers.add_parser(
        "report",
        prog=PROG,
        help="compare models on shared seeds and write a self-contained HTML report",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.dedent(
            f"""\
            Evaluate models over repeated seeded splits (paired: all models share
            the seeds), decide which model to choose on new data, and write a
            self-contained HTML report with plots.

            Decisions (--decide-on): new-data (default) answers "which algorithm
            is better when trained on about n rows from this population?" from a
            repeated {DEFAULT_FOLDS}-fold CV (corrected resampled paired t over
            all pairs of models, one multiple-comparison family); this-dataset
            gives the run-to-run decisions on this dataset (probability of
            outperforming over {DEFAULT_N_REPEATS} out-of-bootstrap repeats).

            Without --data: the breast cancer data shipped with scikit-learn and
            three default models. With --data CSV --target COLUMN: your data; the
            task is classification or regression (--task; auto: a numeric target
            with more than {MAX_CLASSES} distinct values, or with fractions, is
            regression). Every model gets the same preprocessing, what the data
            and the models need: missing values imputed (median; most frequent
            for text), text columns one-hot encoded, numeric columns standardized
            when any model is a linear, SVM, neighbours or neural-network model
            (also inside a search or pipeline; trees are unaffected by it);
            --no-preprocess: none.

            examples:
              skperf report
              skperf report --curves --out report.html
              skperf report --data data.csv --target label --drop id \\
                --model "rf=sklearn.ensemble.RandomForestClassifier(max_depth=3)" \\
                --model lr=sklearn.linear_model.LogisticRegression:C=0.5 \\
                --scoring roc_auc --random-state 0 --out report.html
            """
        ),
    )
    rep.add_argument("--data", metavar="CSV", help="CSV file with a header row")
    rep.add_argument("--target", metavar="COLUMN", help="target column of --data")
    rep.add_argument(
        "--drop",
        metavar="COLUMN",
        action="append",
        default=None,
        help=(
            "a column of --data not to use as a feature, e.g. an id (repeatable); "
            "an unnamed row-index column ('Unnamed: 0' = 0, 1, 2, ...) is dropped "
            "automatically"
        ),
    )
    rep.add_argument(
        "--task",
        choices=["auto", "classification", "regression"],
        default="auto",
        help=(
            "what the target is (default: auto: regression for a numeric target "
            f"with fractions or more than {MAX_CLASSES} distinct values, else "
            "classification; an ordinal target with few values needs "
            "--task regression)"
        ),
    )
    rep.add_argument(
        "--model",
        metavar="NAME=dotted.Class",
        action="append",
        default=None,
        help=(
            "a model to compare (repeatable): NAME=dotted.path.Class, with keyword "
            'arguments as "rf=sklearn.ensemble.RandomForestClassifier(n_estimators=50, '
            'max_depth=3)" or rf=sklearn.ensemble.RandomForestClassifier:max_depth=3 '
            "(values are Python literals: quote strings; nothing is evaluated)"
        ),
    )
    rep.add_argument(
        "--no-preprocess",
        action="store_true",
        help="give the models the columns as they are (no imputing, encoding, scaling)",
    )
    rep.add_argument(
        "--scoring",
        default=None,
        help=(
            "scikit-learn scorer name (default: accuracy for classification, r2 for "
            "regression: the models' own score)"
        ),
    )
    rep.add_argument(
        "--decide-on",
        choices=list(_DECIDE_ON),
        default="new-data",
        help=(
            "what the decisions are about: new-data (the algorithms on new data "
            "from the same population; default) or this-dataset (run-to-run)"
        ),
    )
    rep.add_argument(
        "--n-repeats",
        type=int,
        default=None,
        help=(
            f"repeats per model (default: {DEFAULT_N_REPEATS_NEW_DATA} repeats of "
            f"--folds folds for new-data, {DEFAULT_N_REPEATS} out-of-bootstrap "
            "splits for this-dataset)"
        ),
    )
    rep.add_argument(
        "--max-fits",
        type=int,
        default=None,
        help=(
            "new-data: the most fits per model of the sequential design (default: "
            f"{DEFAULT_N_REPEATS_NEW_DATA} repeats of --folds folds); it stops "
            "earlier once every pair of models is decided or cannot be"
        ),
    )
    rep.add_argument(
        "--time-budget",
        type=float,
        default=None,
        help="new-data: seconds after which no new round of fits starts",
    )
    rep.add_argument(
        "--folds",
        type=int,
        default=None,
        help=(
            f"folds per repeat for --decide-on new-data (default: {DEFAULT_FOLDS}; "
            "each repeat reshuffles them)"
        ),
    )
    _add_random_state(rep, "seed entropy")
    rep.add_argument(
        "--n-jobs",
        type=int,
        default=-1,
        help="parallel jobs (default: -1, all cores; -2: all but one)",
    )
    _add_report_options(rep)
    rep.add_argument(
        "--require",
        metavar="T@P",
        default=None,
        help=(
            "requirement 'score >= T with probability >= P' (<= T for losses), "
            "e.g. 0.9@0.9 (T alone: P = 0.9); the report gives its verdict per model"
        ),
    )
    rep.add_argument(
        "--curves",
        action="store_true",
        help=(
            "keep every fit's test predictions and add each model's ROC and "
            "precision-recall curves across repeats to the report (median and "
            "pointwise 10%%-90%% band of the per-repeat curves); binary "
            "classification with predict_proba or decision_function only, else "
            "a note says why"
        ),
    )
    return rep


# ----------------------------------------------------------------------
# checks of report options (the shared ones are in _common)
def _check_n_jobs(n_jobs, option="--n-jobs"):
    if n_jobs == 0:
        raise _CLIError(
            f"{option} must be a positive number of jobs, or negative to count back "
            "from all cores (-1: all); got 0"
        )


# ----------------------------------------------------------------------
def _check_args(args):
    """Every check that needs no data, before anything is loaded or fitted."""
    _check_report_options(args)
    target = _DECIDE_ON[args.decide_on]
    # new data: sequential by default (rounds of --folds-fold CV, at most
    # --max-fits per model, stopped when every pair is settled); an explicit
    # --n-repeats keeps a fixed design
    args.sequential = args.n_repeats is None and target == "new data"
    if args.n_repeats is None:
        args.n_repeats = (
            DEFAULT_N_REPEATS_NEW_DATA if target == "new data" else DEFAULT_N_REPEATS
        )
    if args.max_fits is not None and args.max_fits < 1:
        raise _CLIError(
            f"--max-fits must be a positive number of fits; got {args.max_fits}"
        )
    if args.time_budget is not None and not args.time_budget > 0:
        raise _CLIError(
            f"--time-budget must be a positive number of seconds; got {args.time_budget}"
        )
    if (args.max_fits is not None or args.time_budget is not None) and not (
        args.sequential
    ):
        raise _CLIError(
            "--max-fits and --time-budget bound the sequential design of "
            "--decide-on new-data; leave out --n-repeats (a fixed design)"
        )
    if args.n_repeats < (1 if target == "new data" else 2):
        raise _CLIError(
            f"--n-repeats must be at least {1 if target == 'new data' else 2}; got "
            f"{args.n_repeats}"
        )
    if args.folds is not None and target != "new data":
        raise _CLIError(
            "--folds is for --decide-on new-data (this-dataset draws one "
            "out-of-bootstrap split per repeat)"
        )
    if target == "new data":
        args.folds = DEFAULT_FOLDS if args.folds is None else args.folds
        if args.folds < 2:
            raise _CLIError(f"--folds must be at least 2; got {args.folds}")
    _check_n_jobs(args.n_jobs)
    _check_random_state(args.random_state)
    if args.data is None:
        for option, value in [("--target", args.target), ("--drop", args.drop)]:
            if value is not None:
                raise _CLIError(f"{option} needs --data CSV")
        if args.task != "auto":
            raise _CLIError(
                "--task needs --data CSV (the default data is classification)"
            )
    _check_out(args.out)


# ----------------------------------------------------------------------
def run(args):
    """Run ``skperf report``; return 0 (usage errors: see :mod:`skperf.cli`)."""
    _check_args(args)
    models = _parse_models(args.model) if args.model else None
    requirement = _parse_require(args.require)

    if args.data is None:
        from sklearn.datasets import load_breast_cancer

        X, y = load_breast_cancer(return_X_y=True, as_frame=True)
        source, notes = "breast cancer (shipped with scikit-learn)", []
    else:
        X, y, source, notes = _load_data(args.data, args.target, args.drop)
    regression, task_text = _task(y, args.task)
    if models is None:
        models = _default_models(regression)
    _check_models_fit_task(models, regression, task_text)
    # name the metric the report is about: the models' own score
    scoring = args.scoring or _default_scoring(models, regression)
    missing = _missing_text(X)
    if args.no_preprocess:
        _check_features(X, y, models)
        notes = [*notes, "preprocessing: none (--no-preprocess): the models as given"]
    else:
        models, preprocessing = _preprocess(models, X)
        if preprocessing:
            notes = [*notes, f"preprocessing, {preprocessing}"]
    entropy = _entropy(args.random_state)
    target = _DECIDE_ON[args.decide_on]
    _print_plan(args, source, X, task_text, notes, missing, models, scoring, target)
    print(_reproduce_line(entropy))
    sys.stdout.flush()

    from .. import report as skperf_report  # looked up at call time

    try:
        report = skperf_report.compare_models(
            models,
            X,
            y,
            scoring=scoring,
            cv=args.folds if target == "new data" else None,
            target=target,
            n_repeats="auto" if args.sequential else args.n_repeats,
            random_state=entropy,
            n_jobs=args.n_jobs,
            max_fits=args.max_fits,
            time_budget=args.time_budget,
            gamma=args.gamma,
            confidence=args.confidence,
            correction=_correction(args),
            progress=True,
            requirement=requirement,
            return_predictions=args.curves,
        )
    except (TypeError, ValueError) as exc:
        raise _CLIError(f"evaluation failed: {_first_line(exc)}") from None
    _write_html(report, args.out)
    if target == "new data":
        _print_new_data_summary(report)
    else:
        _print_summary(report)
    print(_wrapped(f"varied per repeat: {_varied_text(report.settings)}"))
    if getattr(report, "stopped", "fixed") != "fixed":
        spent = ", ".join(f"{name} {n}" for name, n in report.fits.items())
        print(
            _wrapped(
                f"fits: {spent} of at most {report.max_fits} per model; stopped: "
                f"{report.stopped}"
                + (
                    f" ({report.stop_reason})"
                    if getattr(report, "stop_reason", None)
                    else ""
                )
            )
        )
    n_min = min(d.n for d in report.distributions.values())
    if target == "this dataset" and report.n_models > 1 and n_min < report.noether_n:
        print(
            _wrapped(
                f"note: n = {n_min} per model is below the Noether sample size "
                f"{report.noether_n} for gamma = {report.gamma:g}; use --n-repeats "
                f"{report.noether_n} or more for reliable decisions"
            )
        )
    for name, verdict in report.requirements.items():
        line = _verdict_line(verdict, _metric_name(report), "--n-repeats")
        print(_wrapped(f"requirement: {name}: {line}"))
    if args.curves:
        _print_curves(report)
    print(f"wrote {args.out}")
    return 0


def _print_plan(args, source, X, task_text, notes, missing, models, scoring, target):
    """What is about to be evaluated, before the fits start."""
    print(
        _wrapped(
            f"data: {source}: {X.shape[0]} samples, {X.shape[1]} features, {task_text}"
        )
    )
    for note in notes:
        print(_wrapped(f"note: {note}"))
    if missing:
        how = "as given (--no-preprocess)" if args.no_preprocess else "imputed"
        print(_wrapped(f"missing values: {missing}, {how}"))
    print("models:")
    for name, est in models.items():
        print(_wrapped(f"{name} = {_one_line(repr(est), limit=None)}", indent="  "))
    design = (
        f"up to {args.n_repeats} repeats x {args.folds}-fold per model in rounds, "
        "stopping once every pair is decided or cannot be (shuffled anew per "
        "repeat, not stratified)"
        if getattr(args, "sequential", False)
        else f"n_repeats={args.n_repeats} x {args.folds}-fold per model (shuffled anew "
        "per repeat, not stratified)"
        if target == "new data"
        else f"n_repeats={args.n_repeats} per model, one out-of-bootstrap split per "
        "repeat"
    )
    print(_wrapped(f"{design}, seeds shared by all models"))
    print(
        _wrapped(
            f"decisions on {target}; scoring={scoring or 'each estimator score'}, "
            f"n_jobs={args.n_jobs}, confidence={args.confidence:g}, "
            + (f"gamma={args.gamma:g}, " if target == "this dataset" else "")
            + f"correction={_correction(args)}"
        )
    )


def _metric_name(report):
    """The report's metric: the scorer's name, or the one the models' ``score`` measures."""
    return report.metric or report.settings.get("default_metric") or "score"


def _varied_text(settings):
    """``"split, init (not search: no model contains a hyperparameter search)"``.

    From the settings :func:`skperf.compare_models` recorded: the sources it
    re-seeded per repeat and why it left the others out.
    """
    text = ", ".join(settings["vary"]) or "nothing"
    skipped = settings.get("not_varied") or {}
    if skipped:
        text += " (" + "; ".join(f"not {k}: {v}" for k, v in skipped.items()) + ")"
    return text


#: the new-data summary's columns (of the report's summary table), by key
_NEW_DATA_COLUMNS = ("new_data", "difference", "pvalue_adjusted", "tied_with_best")


def _print_new_data_summary(report):
    """The report's conclusion and a one-glance table (decisions on new data).

    The report's own cells (one source); the run-to-run mean over repeats is
    the one run-to-run column kept, labelled as such.
    """
    table = report.summary_table(quantiles=())
    column = {key: c for c, key in table.attrs["keys"].items()}
    keep = [column[key] for key in _NEW_DATA_COLUMNS if key in column]
    mean = column["mean"]
    ci = f"[{report.confidence:.0%} CI]"
    metric = _metric_name(report)
    names = {c: c for c in keep}
    # the conclusion says "on new data": shorter headers, one glance; the
    # difference keeps its own label ("[95% CI, holm-adjusted]")
    names[column["new_data"]] = f"{metric}, new data {ci}"
    diff = column.get("difference")  # none with one model
    if diff is not None:
        names[diff] = "best - model " + diff[diff.index("[") :]
    names[mean] = f"run-to-run mean, this dataset {ci}"
    print()
    print(_wrapped(report.conclusion))
    print()
    print(_markdown_table(table[[*keep, mean]].rename(columns=names)))
    print()


def _print_curves(report):
    """One line per model: median ROC AUC and AP, or why there are no curves."""
    import numpy as np

    roc, pr = report.curves.get("roc", {}), report.curves.get("pr", {})
    for name in roc:
        print(
            _wrapped(
                f"curves: {name}: ROC AUC median {np.median(roc[name].area):.3f}, "
                f"average precision median {np.median(pr[name].area):.3f} over "
                f"{roc[name].n} repeats (bands in the report)"
            )
        )
    for name, why in report.curves_missing.items():
        print(_wrapped(f"curves: {name}: none ({why})"))


def _parse_require(text):
    """``"T@P"`` -> (threshold, probability), or None."""
    if text is None:
        return None
    t, sep, p = text.partition("@")
    try:
        threshold, probability = float(t), float(p) if sep else 0.9
    except ValueError:
        raise _CLIError(
            f"--require must look like THRESHOLD@PROBABILITY, e.g. 0.9@0.9; got {text!r}"
        ) from None
    if not math.isfinite(threshold):
        raise _CLIError(f"--require: the threshold must be finite; got {t}")
    if not 0 < probability < 1:
        raise _CLIError(f"--require: the probability must be in (0, 1); got {p}")
    return threshold, probability
