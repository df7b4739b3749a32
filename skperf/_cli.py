"""The ``skperf`` command line: ``skperf report`` (and ``skperf --version``).

``skperf report`` compares models on shared seeds and writes an HTML report.
Models given with ``--model NAME=dotted.path.Estimator(key=value, ...)`` are
resolved with :func:`importlib.import_module` and :func:`getattr` only; their
keyword values are read with :func:`ast.literal_eval`. Nothing given on the
command line is ever evaluated as code.

Other subcommands register in :func:`_build_parser` (``check`` and
``summarize`` live in their own modules) and share the helpers of
:mod:`skperf._cli_common`: :class:`_CLIError` (a usage error shown as one
line, exit status 2), :func:`_one_line`, :func:`_read_csv`,
:func:`_check_column`, :func:`_check_out` and the summary table.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import math
import os
import re
import sys
import textwrap

from ._cli_check import add_parser as _add_check_parser
from ._cli_common import (
    _add_report_options,
    _check_classification_target,
    _check_column,
    _check_out,
    _check_random_state,
    _check_report_options,
    _CLIError,
    _drop_id_columns,
    _first_line,
    _one_line,
    _print_error,
    _print_summary,
    _read_csv,
    _wrapped,
    _write_html,
)
from ._cli_summarize import add_parser as _add_summarize_parser

__all__ = ["main"]

PROG = "skperf report"

DEFAULT_N_REPEATS = 35  # the Noether size for gamma = 0.75 at 95 % (App. C.3)
#: new data (default): 10-fold x 3 repeats = 30 fits per model, about the time
#: of today's 35 out-of-bootstrap fits (each fit trains on 0.9 n distinct rows)
DEFAULT_N_REPEATS_NEW_DATA = 3
DEFAULT_FOLDS = 10
_DECIDE_ON = {"new-data": "new data", "this-dataset": "this dataset"}

_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")

#: a numeric target with more distinct values than this is read as regression
#: even when every value is a whole number (prices, counts, ages)
_MAX_CLASSES = 20

#: modules whose estimators depend on the scale of the features: the default
#: preprocessing standardizes numeric columns for them
_SCALE_SENSITIVE = (
    "sklearn.linear_model",
    "sklearn.svm",
    "sklearn.neighbors",
    "sklearn.neural_network",
    "sklearn.gaussian_process",
    "sklearn.kernel_ridge",
)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block), exit status 2."""

    def error(self, message):
        line = _one_line(f"{self.prog}: error: {message} (see {self.prog} --help)")
        self.exit(2, line + "\n")


# ----------------------------------------------------------------------
# parser
def _build_parser():
    from ._version import __version__

    parser = _Parser(
        prog="skperf",
        description="skperf: the distribution of a model's score, with honest statistics.",
    )
    parser.add_argument("--version", action="version", version=f"skperf {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    _add_report_parser(sub)
    _add_check_parser(sub)
    _add_summarize_parser(sub)
    return parser


def _add_report_parser(sub):
    rep = sub.add_parser(
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
            with more than {_MAX_CLASSES} distinct values, or with fractions, is
            regression). Every model gets the preprocessing the data needs:
            missing values imputed (median; most frequent for text), text columns
            one-hot encoded, numeric columns standardized for linear, SVM,
            neighbours and neural-network models (--no-preprocess: none).

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
            f"with fractions or more than {_MAX_CLASSES} distinct values, else "
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
        "--folds",
        type=int,
        default=None,
        help=(
            f"folds per repeat for --decide-on new-data (default: {DEFAULT_FOLDS}; "
            "each repeat reshuffles them)"
        ),
    )
    rep.add_argument(
        "--random-state",
        type=int,
        default=None,
        help="seed entropy, an integer >= 0 (default: drawn and printed, to reproduce)",
    )
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
    rep.set_defaults(_run=_run_report, _prog=PROG)
    return rep


# ----------------------------------------------------------------------
# checks of report options (the shared ones are in _cli_common)
def _check_n_jobs(n_jobs, option="--n-jobs"):
    if n_jobs == 0:
        raise _CLIError(
            f"{option} must be a positive number of jobs, or negative to count back "
            "from all cores (-1: all); got 0"
        )


# ----------------------------------------------------------------------
# data
def _load_data(path, target, drop):
    import numpy as np

    if target is None:
        raise _CLIError("--target COLUMN is required with --data")
    frame = _read_csv(path)
    source = os.path.basename(path)
    _check_column(frame, target, "--target", source)
    if frame[target].isna().any():
        raise _CLIError(
            f"target column {target!r} has {int(frame[target].isna().sum())} missing "
            "value(s); drop those rows first"
        )
    notes = []
    drop = list(dict.fromkeys(drop or []))
    for column in drop:
        _check_column(frame, column, "--drop", source)
        if column == target:
            raise _CLIError(f"--drop {column!r} is the --target column")
    for column in frame.columns:
        if (
            column == target
            or column in drop
            or not re.match(r"^Unnamed: \d+$", column)
        ):
            continue
        values = frame[column].to_numpy()
        if np.issubdtype(values.dtype, np.integer) and (
            np.array_equal(values, np.arange(len(frame)))
            or np.array_equal(values, np.arange(1, len(frame) + 1))
        ):
            drop.append(column)
            notes.append(
                f"dropped column {column!r}: an unnamed row index (0, 1, 2, ...) "
                "saved with the data, not a feature"
            )
        else:
            notes.append(
                f"column {column!r} has no name in the header; it is used as a "
                f"feature (--drop {column!r} to leave it out)"
            )
    kept, note = _drop_id_columns(frame.drop(columns=drop), target=target)
    if note is not None:
        notes.append(note)
    X = kept.drop(columns=[target])
    if X.shape[1] == 0:
        raise _CLIError(
            f"{source} has no feature columns besides the target {target!r}"
        )
    return X, frame[target], f"{source} (target {target!r})", notes


def _is_numeric(column):
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return is_numeric_dtype(column) or is_bool_dtype(column)


def _is_bool(column):
    from pandas.api.types import is_bool_dtype

    return is_bool_dtype(column)


def _task(y, task):
    """``(regression, description)`` of the target for ``--task``."""
    from sklearn.utils.multiclass import type_of_target

    kind = type_of_target(y)
    numeric = _is_numeric(y) and not _is_bool(y)
    n_values = int(y.nunique(dropna=True))
    if task == "regression":
        if not numeric:
            example = y.iloc[0]
            raise _CLIError(
                f"--task regression needs a numeric target; {y.name!r} has values "
                f"such as {example!r}"
            )
        return (
            True,
            f"regression target ({n_values} distinct values; --task regression)",
        )
    if task == "classification":
        _check_classification_target(y)  # fractional values, or an amount
        if n_values < 2:
            raise _CLIError(
                f"target {y.name!r} has a single value; nothing to classify"
            )
        return (
            False,
            f"classification target ({n_values} classes; --task classification)",
        )
    if kind.startswith("continuous"):
        return True, "regression target (numbers with fractions; auto)"
    if numeric and n_values > _MAX_CLASSES:
        return True, (
            f"regression target ({n_values} distinct whole numbers > {_MAX_CLASSES}; "
            "auto)"
        )
    if n_values < 2:
        raise _CLIError(f"target {y.name!r} has a single value; nothing to compare")
    hint = (
        f"; auto: at most {_MAX_CLASSES} values are classes, --task regression if "
        "they are ordered amounts"
        if numeric and n_values > 2
        else "; auto"
    )
    return False, f"classification target ({n_values} classes{hint})"


# ----------------------------------------------------------------------
# models
def _default_models(regression):
    from sklearn.ensemble import (
        GradientBoostingClassifier,
        GradientBoostingRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )
    from sklearn.linear_model import LogisticRegression, Ridge

    # sizes chosen so the default run stays around a minute on 2 cores; the
    # linear models get a StandardScaler from the default preprocessing
    if regression:
        return {
            "ridge": Ridge(),
            "random_forest": RandomForestRegressor(n_estimators=50),
            "gradient_boosting": GradientBoostingRegressor(n_estimators=50),
        }
    return {
        "logistic_regression": LogisticRegression(max_iter=1000),
        "random_forest": RandomForestClassifier(n_estimators=50),
        "gradient_boosting": GradientBoostingClassifier(n_estimators=50),
    }


def _dotted(node):
    """``a.b.C`` from an ``ast`` Name/Attribute chain, or ``None``."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _import_class(path, where):
    if path is None or not _DOTTED.match(path):
        raise _CLIError(
            f"{where}: {path!r} is not a dotted path like "
            "sklearn.ensemble.RandomForestClassifier"
        )
    module_name, _, attr = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise _CLIError(
            f"{where}: unknown model path {path!r} (cannot import module "
            f"{module_name!r}: {_first_line(exc)})"
        ) from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise _CLIError(
            f"{where}: unknown model path {path!r} (module {module_name!r} "
            f"has no attribute {attr!r})"
        )
    if not inspect.isclass(cls) or not hasattr(cls, "fit"):
        raise _CLIError(f"{where}: {path!r} is not an estimator class with fit")
    return cls


def _build(node, where, text):
    """An estimator from a parsed ``dotted.Class`` or ``dotted.Class(k=v, ...)``."""
    if isinstance(node, ast.Call):
        path = _dotted(node.func)
        cls = _import_class(path, where)
        if node.args:
            raise _CLIError(
                f"{where}: {path}(...) takes keyword arguments only, "
                "e.g. max_depth=3; got a positional one"
            )
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise _CLIError(f"{where}: ** is not supported; name each argument")
            kwargs[kw.arg] = _value(kw.value, f"{where}: {kw.arg}", text)
    else:
        path = _dotted(node)
        if path is None:
            path = ast.get_source_segment(text, node) or text
        cls = _import_class(path, where)
        kwargs = {}
    try:
        est = cls(**kwargs)
    except Exception as exc:  # any constructor failure becomes one readable line
        how = "with these arguments" if kwargs else "without arguments"
        raise _CLIError(
            f"{where}: {path}() cannot be created {how}: {_first_line(exc)}"
        ) from None
    validate = getattr(est, "_validate_params", None)
    if callable(validate) and hasattr(
        est, "_parameter_constraints"
    ):  # scikit-learn checks parameter values in fit; do it now
        try:
            validate()
        except (TypeError, ValueError) as exc:
            raise _CLIError(f"{where}: {_first_line(exc)}") from None
    return est


def _value(node, where, text):
    """A keyword value: a Python literal, or a nested ``dotted.Class(...)``."""
    if isinstance(node, ast.Call):
        return _build(node, where, text)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        shown = ast.get_source_segment(text, node) or "?"
        raise _CLIError(
            f"{where}={shown} is not a Python literal (quote text: "
            f"{where.rpartition(': ')[2]}='{shown}'; numbers, True, None, "
            "tuples, lists and dicts work)"
        ) from None


def _resolve_model(spec):
    """``NAME=dotted.Class[(k=v, ...) | :k=v,...]`` -> (name, instance).

    Parsed with :mod:`ast`; classes come from import and getattr, values from
    :func:`ast.literal_eval`; nothing is evaluated.
    """
    name, sep, text = spec.partition("=")
    name, text = name.strip(), text.strip()
    if not sep or not name or not text:
        raise _CLIError(
            f"--model must look like NAME=dotted.path.Estimator; got {spec!r}"
        )
    where = f"--model {name}"
    head = text.split("(", 1)[0]
    if ":" in head:  # dotted.Class:key=value,key=value
        path, _, kwargs = text.partition(":")
        text = f"{path.strip()}({kwargs})"
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise _CLIError(
            f"{where}: cannot read {text!r}; write NAME=dotted.Class or "
            "NAME=dotted.Class(key=value, ...)"
        ) from None
    return name, _build(node, where, text)


def _parse_models(specs):
    models = {}
    for spec in specs:
        name, est = _resolve_model(spec)
        if name in models:
            raise _CLIError(f"--model name {name!r} given twice")
        models[name] = est
    return models


def _check_models_fit_task(models, regression, task_text):
    """A classifier on a regression target (or the reverse) fails here, not in fit."""
    from .report._metrics import _estimator_type

    want, other = (
        ("regressor", "classifier") if regression else ("classifier", "regressor")
    )
    for name, est in models.items():
        if _estimator_type(est) == other:
            flip = "classification" if regression else "regression"
            raise _CLIError(
                f"--model {name}: {type(est).__name__} is a {other}, but the data "
                f"has a {task_text.split(' (')[0]}; use a {want} or --task {flip}"
            )


def _scale_sensitive(est):
    module = type(est).__module__
    return any(module == m or module.startswith(m + ".") for m in _SCALE_SENSITIVE)


def _preprocess(models, X):
    """Put the preprocessing the data needs before each model.

    Text columns: one-hot encoded (categories unseen in training ignored);
    missing values: imputed (median; most frequent for text); numeric columns
    standardized for scale-sensitive models. Models that need nothing stay as
    given.
    """
    from sklearn.compose import make_column_transformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    categorical = [c for c in X.columns if not _is_numeric(X[c])]
    numeric = [c for c in X.columns if c not in set(categorical)]
    num_missing = bool(X[numeric].isna().any().any()) if numeric else False
    cat_missing = bool(X[categorical].isna().any().any()) if categorical else False
    out = {}
    for name, est in models.items():
        num_steps = [SimpleImputer(strategy="median")] if num_missing else []
        if _scale_sensitive(est):
            num_steps.append(StandardScaler())
        if not categorical:
            out[name] = make_pipeline(*num_steps, est) if num_steps else est
            continue
        onehot = OneHotEncoder(handle_unknown="ignore", sparse_output=False)
        cat = (
            make_pipeline(SimpleImputer(strategy="most_frequent"), onehot)
            if cat_missing
            else onehot
        )
        parts = [(cat, categorical)]
        if numeric:
            num = (
                "passthrough"
                if not num_steps
                else num_steps[0]
                if len(num_steps) == 1
                else make_pipeline(*num_steps)
            )
            parts.append((num, numeric))
        out[name] = make_pipeline(make_column_transformer(*parts), est)
    return out


def _missing_text(X):
    counts = X.isna().sum()
    counts = counts[counts > 0]
    if counts.empty:
        return None
    cols = ", ".join(map(str, counts.index[:5])) + (", ..." if len(counts) > 5 else "")
    return f"{int(counts.sum())} missing value(s) in {len(counts)} column(s) ({cols})"


def _check_features(X, y, models):
    """With --no-preprocess: fail early, naming the problem, when a model
    cannot take missing values or non-numeric columns."""
    import numpy as np
    from sklearn.base import clone

    non_numeric = [str(c) for c in X.columns if not _is_numeric(X[c])]
    missing = _missing_text(X)
    if not non_numeric and missing is None:
        return
    rng = np.random.default_rng(0)
    rows = rng.permutation(len(X))[: min(len(X), 200)]
    Xs, ys = X.iloc[rows], y.iloc[rows]
    for name, est in models.items():
        try:
            clone(est).fit(Xs, ys)
        except (ValueError, TypeError) as exc:
            first = _first_line(exc)
            who = f"model {name!r} ({type(est).__name__})"
            if missing and re.search(r"\bNaN\b|missing", first):
                raise _CLIError(
                    f"{who} cannot take missing values: the data has {missing}; "
                    "drop --no-preprocess to impute them"
                ) from None
            shown = ", ".join(non_numeric[:5]) + (
                " ..." if len(non_numeric) > 5 else ""
            )
            raise _CLIError(
                f"{who} cannot take the non-numeric feature column(s) {shown} "
                f"({first}); drop --no-preprocess to one-hot encode them"
            ) from None


# ----------------------------------------------------------------------
def _check_args(args):
    """Every check that needs no data, before anything is loaded or fitted."""
    _check_report_options(args)
    target = _DECIDE_ON[args.decide_on]
    if args.n_repeats is None:
        args.n_repeats = (
            DEFAULT_N_REPEATS_NEW_DATA if target == "new data" else DEFAULT_N_REPEATS
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
    if args.scoring is not None:
        from sklearn.metrics import get_scorer_names

        if args.scoring not in get_scorer_names():
            raise _CLIError(
                f"unknown --scoring {args.scoring!r}; valid names are listed by "
                "sklearn.metrics.get_scorer_names()"
            )
    if args.data is None:
        for option, value in [("--target", args.target), ("--drop", args.drop)]:
            if value is not None:
                raise _CLIError(f"{option} needs --data CSV")
        if args.task != "auto":
            raise _CLIError(
                "--task needs --data CSV (the default data is classification)"
            )
    _check_out(args.out)


def _run_report(args):
    from ._seeding import _root_entropy
    from .report._format import _varied_text
    from .report._metrics import _shared_default_score
    from .report._model_selection import _sources_applied

    _check_args(args)
    correction = None if args.correction == "none" else args.correction
    models = _parse_models(args.model) if args.model else None
    requirement = _parse_require(args.require)

    if args.data is None:
        from sklearn.datasets import load_breast_cancer

        X, y = load_breast_cancer(return_X_y=True, as_frame=True)
        source, notes = "breast cancer (shipped with scikit-learn)", []
    else:
        X, y, source, notes = _load_data(args.data, args.target, args.drop)
    regression, task_text = _task(y, args.task)

    scoring = args.scoring
    if models is None:
        models = _default_models(regression)
    if scoring is None:
        # name the metric the report is about: the models' own score
        metric, conflict = _shared_default_score(models)
        if conflict:
            raise _CLIError(
                f"the models' own scores are different metrics: {conflict}; "
                "pass --scoring"
            )
        scoring = metric
    _check_models_fit_task(models, regression, task_text)
    missing = _missing_text(X)
    if args.no_preprocess:
        _check_features(X, y, models)
    else:
        models = _preprocess(models, X)
    applied, skipped = _sources_applied(models, "all", y)

    entropy = _root_entropy(args.random_state)
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
    target = _DECIDE_ON[args.decide_on]
    design = (
        f"n_repeats={args.n_repeats} x {args.folds}-fold per model (shuffled anew "
        "per repeat)"
        if target == "new data"
        else f"n_repeats={args.n_repeats} per model, one out-of-bootstrap split per "
        "repeat"
    )
    print(
        _wrapped(
            f"{design}, seeds shared by all models; varied: "
            + _varied_text({"vary": applied, "not_varied": skipped})
        )
    )
    print(
        _wrapped(
            f"decisions on {target}; scoring={scoring or 'each estimator score'}, "
            f"n_jobs={args.n_jobs}, confidence={args.confidence:g}, "
            + (f"gamma={args.gamma:g}, " if target == "this dataset" else "")
            + f"correction={correction}"
        )
    )
    print(f"random_state={entropy} (pass --random-state {entropy} to reproduce)")
    sys.stdout.flush()

    from .report import compare_models

    try:
        report = compare_models(
            models,
            X,
            y,
            scoring=scoring,
            cv=args.folds if target == "new data" else None,
            target=target,
            n_repeats=args.n_repeats,
            random_state=entropy,
            n_jobs=args.n_jobs,
            gamma=args.gamma,
            confidence=args.confidence,
            correction=correction,
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
    n_min = min(d.n for d in report.distributions.values())
    if target == "this dataset" and report.n_models > 1 and n_min < report.noether_n:
        print(
            _wrapped(
                f"note: n = {n_min} per model is below the Noether sample size "
                f"{report.noether_n} for gamma = {report.gamma:g}; use --n-repeats "
                f"{report.noether_n} or more for reliable decisions"
            )
        )
    if report.requirements:
        from .report._format import _requirement_lines

        print("\n  ".join(_requirement_lines(report)))
    if args.curves:
        _print_curves(report)
    print(f"wrote {args.out}")
    return 0


#: the new-data summary's columns (of the report's summary table), by header start
_NEW_DATA_COLUMNS = ("model", "new data:", "best - model", "p adj.", "tied with best")


def _print_new_data_summary(report):
    """The headline sentence and a one-glance table (decisions on new data).

    The report's own cells (one source); the run-to-run mean over repeats is
    the one run-to-run column kept, labelled as such.
    """
    from .report._format import (
        _conclusion,
        _markdown_table,
        _metric_name,
        _summary_table,
    )

    header, rows = _summary_table(report, quantiles=())
    keep = [i for i, h in enumerate(header) if h.startswith(_NEW_DATA_COLUMNS)]
    mean = next(i for i, h in enumerate(header) if h.startswith("mean ["))
    ci = header[mean][len("mean ") :]  # "[95% CI]"
    metric = _metric_name(report)
    short = {  # the headline says "on new data": shorter headers, one glance
        "new data:": f"{metric}, new data {ci}",
        "best - model": f"best - model {ci}",
    }
    names = [
        next((v for k, v in short.items() if header[i].startswith(k)), header[i])
        for i in keep
    ] + [f"run-to-run mean, this dataset {ci}"]
    print()
    print(_wrapped(_conclusion(report).split(" Mean over repeats")[0]))
    print()
    print(_markdown_table(names, [[r[i] for i in keep] + [r[mean]] for r in rows]))


def _print_curves(report):
    """One line per model: median ROC AUC and AP, or why there are no curves."""
    import numpy as np

    from .report._curves import _NO_CURVES

    roc, pr = report.curves.get("roc", {}), report.curves.get("pr", {})
    for name in roc:
        print(
            _wrapped(
                f"curves: {name}: ROC AUC median {np.median(roc[name].area):.3f}, "
                f"average precision median {np.median(pr[name].area):.3f} over "
                f"{roc[name].n} repeats (bands in the report)"
            )
        )
    for note in report.notes:
        if _NO_CURVES in note:
            print(_wrapped(f"note: {note}"))


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


def main(argv=None):
    """Run the ``skperf`` command line.

    Parameters
    ----------
    argv : list of str or None, default=None
        Arguments without the program name (``None``: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 on success, 2 on a usage error (reported as one line
        ``skperf report: error: ...`` on stderr, before any model is fitted
        when the error is in the arguments or the data).
    """
    args = _build_parser().parse_args(argv)
    if args.command in ("check", "summarize"):
        return args.func(args)
    try:
        return args._run(args)
    except _CLIError as exc:
        return _print_error(getattr(args, "_prog", "skperf"), exc)
