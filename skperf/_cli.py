"""`skperf report`: compare models on shared seeds and write an HTML report.

Models given with ``--model NAME=dotted.path.Estimator`` are resolved with
:func:`importlib.import_module` and :func:`getattr` only and instantiated
without arguments; nothing given on the command line is ever evaluated as
code.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import re
import sys

__all__ = ["main"]

PROG = "skperf report"

DEFAULT_N_REPEATS = 30

_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")


class _CLIError(Exception):
    """An error shown as one line ``skperf report: error: ...`` (exit code 2)."""


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="skperf",
        description="skperf: the distribution of a model's score, with honest statistics.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    from ._cli_summarize import add_parser  # `skperf summarize`

    add_parser(sub)
    rep = sub.add_parser(
        "report",
        prog=PROG,
        help="compare models on shared seeds and write a self-contained HTML report",
        description=(
            "Evaluate models over repeated seeded splits (paired: all models share "
            "the seeds), compare them with the probability of outperforming, and "
            "write a self-contained HTML report. Without --data: the breast cancer "
            "dataset shipped with scikit-learn and three default models (which "
            "one-hot encode non-numeric columns of --data)."
        ),
    )
    rep.add_argument("--data", metavar="CSV", help="CSV file with a header row")
    rep.add_argument(
        "--target",
        metavar="COLUMN",
        help=(
            "target column of --data (a numeric target with more than "
            f"{_MAX_CLASSES} distinct values is a regression target)"
        ),
    )
    rep.add_argument(
        "--model",
        metavar="NAME=dotted.path.Estimator",
        action="append",
        default=None,
        help=(
            "a model to compare, e.g. rf=sklearn.ensemble.RandomForestClassifier "
            "(instantiated with no arguments; repeatable)"
        ),
    )
    rep.add_argument(
        "--scoring",
        default=None,
        help=(
            "scikit-learn scorer name (default: accuracy, or r2 for a regression "
            "target, with the default models; the estimators' score with --model)"
        ),
    )
    rep.add_argument(
        "--n-repeats",
        type=int,
        default=DEFAULT_N_REPEATS,
        help=f"repeats per model (default: {DEFAULT_N_REPEATS})",
    )
    rep.add_argument(
        "--random-state",
        type=int,
        default=None,
        help="seed entropy (default: drawn and printed, to reproduce)",
    )
    rep.add_argument(
        "--n-jobs", type=int, default=-1, help="parallel jobs (default: -1, all cores)"
    )
    rep.add_argument(
        "--out", default="report.html", help="HTML file to write (default: report.html)"
    )
    rep.add_argument(
        "--confidence",
        type=float,
        default=0.95,
        help="confidence level (default: 0.95)",
    )
    rep.add_argument(
        "--gamma",
        type=float,
        default=0.75,
        help="meaningful probability of outperforming (default: 0.75)",
    )
    rep.add_argument(
        "--correction",
        default="holm",
        choices=["holm", "bonferroni", "fdr_bh", "none"],
        help="multiple-comparison correction (default: holm)",
    )
    return parser


# ----------------------------------------------------------------------
# data and models
def _load_csv(path, target):
    import pandas as pd

    if target is None:
        raise _CLIError("--target COLUMN is required with --data")
    if not os.path.isfile(path):
        raise _CLIError(f"data file not found: {path}")
    try:
        frame = pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise _CLIError(f"cannot read {path} as CSV: {_first_line(exc)}") from None
    if target not in frame.columns:
        cols = ", ".join(map(str, frame.columns[:20]))
        more = " ..." if frame.shape[1] > 20 else ""
        raise _CLIError(
            f"target column {target!r} not found in {path}; columns are: {cols}{more}"
        )
    if frame[target].isna().any():
        raise _CLIError(
            f"target column {target!r} has {int(frame[target].isna().sum())} missing "
            "value(s); drop those rows first"
        )
    X = frame.drop(columns=[target])
    if X.shape[1] == 0:
        raise _CLIError(f"{path} has no feature columns besides the target {target!r}")
    return X, frame[target], f"{os.path.basename(path)} (target {target!r})"


#: a numeric target with more distinct values than this is read as regression
#: even when every value is a whole number (prices, counts, ages)
_MAX_CLASSES = 20


def _is_regression(y):
    from sklearn.utils.multiclass import type_of_target

    if type_of_target(y) in ("continuous", "continuous-multioutput"):
        return True
    return _is_numeric(y) and not _is_bool(y) and y.nunique(dropna=True) > _MAX_CLASSES


def _encode_non_numeric(models, X):
    """Put a one-hot encoder for the non-numeric columns of ``X`` before each model."""
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    categorical = [c for c in X.columns if not _is_numeric(X[c])]
    if not categorical:
        return models
    return {
        name: make_pipeline(
            make_column_transformer(
                (
                    OneHotEncoder(handle_unknown="ignore", sparse_output=False),
                    categorical,
                ),
                remainder="passthrough",
            ),
            est,
        )
        for name, est in models.items()
    }


def _default_models(regression):
    from sklearn.ensemble import (
        GradientBoostingClassifier,
        GradientBoostingRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    # sizes chosen so the default run stays around a minute on 2 cores
    if regression:
        return {
            "ridge": make_pipeline(StandardScaler(), Ridge()),
            "random_forest": RandomForestRegressor(n_estimators=50),
            "gradient_boosting": GradientBoostingRegressor(n_estimators=50),
        }
    return {
        "logistic_regression": make_pipeline(
            StandardScaler(), LogisticRegression(max_iter=1000)
        ),
        "random_forest": RandomForestClassifier(n_estimators=50),
        "gradient_boosting": GradientBoostingClassifier(n_estimators=50),
    }


def _resolve_model(spec):
    """``NAME=dotted.path.Class`` -> (name, instance), by import and getattr only."""
    name, sep, path = spec.partition("=")
    name, path = name.strip(), path.strip()
    if not sep or not name or not path:
        raise _CLIError(
            f"--model must look like NAME=dotted.path.Estimator; got {spec!r}"
        )
    if not _DOTTED.match(path):
        raise _CLIError(
            f"--model {name}: {path!r} is not a dotted path like "
            "sklearn.ensemble.RandomForestClassifier"
        )
    module_name, _, attr = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise _CLIError(
            f"--model {name}: unknown model path {path!r} (cannot import module "
            f"{module_name!r}: {_first_line(exc)})"
        ) from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise _CLIError(
            f"--model {name}: unknown model path {path!r} (module {module_name!r} "
            f"has no attribute {attr!r})"
        )
    if not inspect.isclass(cls) or not hasattr(cls, "fit"):
        raise _CLIError(f"--model {name}: {path!r} is not an estimator class with fit")
    try:
        est = cls()
    except Exception as exc:  # any constructor failure becomes one readable line
        raise _CLIError(
            f"--model {name}: {path}() cannot be created without arguments: "
            f"{_first_line(exc)}"
        ) from None
    return name, est


def _parse_models(specs):
    models = {}
    for spec in specs:
        name, est = _resolve_model(spec)
        if name in models:
            raise _CLIError(f"--model name {name!r} given twice")
        models[name] = est
    return models


def _check_features(X, y, models):
    """Fail early, naming the columns, when a model cannot take non-numeric ones."""
    import numpy as np
    from sklearn.base import clone

    non_numeric = [str(c) for c in X.columns if not _is_numeric(X[c])]
    if not non_numeric:
        return
    rng = np.random.default_rng(0)
    rows = rng.permutation(len(X))[: min(len(X), 200)]
    Xs, ys = X.iloc[rows], y.iloc[rows]
    for name, est in models.items():
        try:
            clone(est).fit(Xs, ys)
        except (ValueError, TypeError) as exc:
            shown = ", ".join(non_numeric[:10]) + (
                " ..." if len(non_numeric) > 10 else ""
            )
            raise _CLIError(
                f"model {name!r} ({type(est).__name__}) cannot take the non-numeric "
                f"feature column(s) {shown} ({_first_line(exc)}); encode them first "
                "or use a model that accepts them (e.g. a pipeline with a OneHotEncoder)"
            ) from None


def _is_numeric(column):
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return is_numeric_dtype(column) or is_bool_dtype(column)


def _is_bool(column):
    from pandas.api.types import is_bool_dtype

    return is_bool_dtype(column)


def _first_line(exc):
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# ----------------------------------------------------------------------
def _summary(report):
    from .report._format import _ci, _markdown_table, _pval, _score_format

    frame = report.to_frame(quantiles=())
    f = _score_format(report)
    pct = f"{report.confidence:.0%}"
    header = [
        "model",
        "n",
        f"mean [{pct} CI]",
        f"P(best > model) [{pct} CI]",
        "p adj.",
        "tied with best",
    ]
    rows = [
        [
            name,
            str(r["n"]),
            _ci(r["mean"], r["mean_low"], r["mean_high"], f),
            _ci(
                r["p_best_better"],
                r["p_best_better_low"],
                r["p_best_better_high"],
                ".3f",
            ),
            _pval(r["p_adjusted"]),
            "yes" if r["tied_with_best"] else "no",
        ]
        for name, r in frame.iterrows()
    ]
    return _markdown_table(header, rows)


def _run(args):
    from ._seeding import _root_entropy
    from .stats._validation import _check_confidence

    correction = None if args.correction == "none" else args.correction
    try:
        _check_confidence(args.confidence, name="--confidence")
    except (TypeError, ValueError) as exc:
        raise _CLIError(str(exc).replace("`", "")) from None
    if not 0.5 < args.gamma < 1:
        raise _CLIError(
            "--gamma must be in (0.5, 1) (a probability of outperforming that counts "
            f"as meaningful, e.g. 0.75); got {args.gamma:g}"
        )
    if args.n_repeats < 2:
        raise _CLIError(f"--n-repeats must be at least 2; got {args.n_repeats}")
    if args.scoring is not None:
        from sklearn.metrics import get_scorer_names

        if args.scoring not in get_scorer_names():
            raise _CLIError(
                f"unknown --scoring {args.scoring!r}; valid names are listed by "
                "sklearn.metrics.get_scorer_names()"
            )
    if args.target is not None and args.data is None:
        raise _CLIError("--target needs --data CSV")

    if args.data is None:
        from sklearn.datasets import load_breast_cancer

        X, y = load_breast_cancer(return_X_y=True, as_frame=True)
        source = "breast cancer (shipped with scikit-learn)"
    else:
        X, y, source = _load_csv(args.data, args.target)
    regression = _is_regression(y)
    if args.model:
        models = _parse_models(args.model)
    else:  # the default models one-hot encode non-numeric columns
        models = _encode_non_numeric(_default_models(regression), X)
    # name the metric the report is about: the default score of scikit-learn
    # classifiers is accuracy and of regressors R^2 (any other model: --scoring)
    scoring = args.scoring
    if scoring is None and not args.model:
        scoring = "r2" if regression else "accuracy"
    _check_features(X, y, models)

    entropy = _root_entropy(args.random_state)
    print(
        f"data: {source}: {X.shape[0]} samples, {X.shape[1]} features, "
        f"{'regression' if regression else 'classification'} target"
    )
    print(
        "models: " + "; ".join(f"{n} = {_one_line(est)}" for n, est in models.items())
    )
    print(
        f"n_repeats={args.n_repeats} per model (one out-of-bootstrap split per repeat; "
        f"split, init and search seeds varied, shared by all models), "
        f"scoring={scoring or 'estimator default'}, n_jobs={args.n_jobs}, "
        f"confidence={args.confidence:g}, gamma={args.gamma:g}, correction={correction}"
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
            n_repeats=args.n_repeats,
            random_state=entropy,
            n_jobs=args.n_jobs,
            gamma=args.gamma,
            confidence=args.confidence,
            correction=correction,
            progress=True,
        )
    except (TypeError, ValueError) as exc:
        raise _CLIError(f"evaluation failed: {_first_line(exc)}") from None
    try:
        report.to_html(args.out)
    except OSError as exc:
        raise _CLIError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    print()
    print(_summary(report))
    print()
    tied = [n for n in report.tied_with_best if n != report.best]
    print(
        f"best: {report.best}"
        + (f"; not significantly worse: {', '.join(tied)}" if tied else "")
    )
    n_min = min(d.n for d in report.distributions.values())
    if report.n_models > 1 and n_min < report.noether_n:
        print(
            f"note: n = {n_min} per model is below the Noether sample size "
            f"{report.noether_n} for gamma = {report.gamma:g}; use --n-repeats "
            f"{report.noether_n} or more for reliable decisions"
        )
    print(f"wrote {args.out}")
    return 0


def main(argv=None):
    """Run the ``skperf`` command line.

    Parameters
    ----------
    argv : list of str or None, default=None
        Arguments without the program name (``None``: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 on success, 2 on an error (reported as one line
        ``skperf report: error: ...`` on stderr).
    """
    args = _build_parser().parse_args(argv)
    if args.command == "summarize":
        from ._cli_summarize import run

        return run(args)
    try:
        return _run(args)
    except _CLIError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2


def _one_line(obj):
    return " ".join(repr(obj).split())
