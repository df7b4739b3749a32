"""`skperf check`: a release gate on a requirement for the score distribution.

``skperf check SCORES.csv --score COLUMN --threshold T [--probability P]
[--confidence C] [--by COLUMN --model NAME] [--repeat-by COLUMN]
[--greater-is-better | --lower-is-better]`` prints the verdict of
:meth:`PerformanceDistribution.requirement` for ONE model in one line and
exits with

- 0 when the requirement is met,
- 1 when it is not met,
- 3 when the runs cannot decide (inconclusive; e.g. too few runs),
- 2 on a usage error (one line on stderr, no traceback).

The CSV is read by the rules of ``skperf summarize`` (both go through
:func:`skperf.from_frame`): a CSV holding several models (a ``model``-like
column with more than one value) is refused unless one is named
(``--by``/``--model``); rows that repeat an earlier row exactly are refused;
fold rows (a ``fold`` column) need ``--repeat-by`` (the folds of a repeat
are averaged into one run); a score column named as a loss (``log_loss``,
``mse``, ``loss`` ...) is lower-is-better unless ``--greater-is-better``;
scores outside a named metric's range (accuracy in percent) are refused.
"""

from __future__ import annotations

import math
import os
import sys

from ._common import (
    _add_runs_options,
    _check_column,
    _check_probability,
    _CLIError,
    _direction,
    _flags_text,
    _read_scores_csv,
    _verdict_line,
)

__all__ = ["add_parser", "run"]

PROG = "skperf check"


def add_parser(subparsers):
    """Register ``check`` on the ``skperf`` subcommands (see :mod:`skperf.cli`)."""
    p = subparsers.add_parser(
        "check",
        prog=PROG,
        help="release gate: is 'score >= T with probability >= P' met? (exit 0/1/3)",
        description=(
            "Decide whether the runs in SCORES.csv show that the score reaches "
            "THRESHOLD with probability at least PROBABILITY (at most THRESHOLD "
            "with --lower-is-better), by exact one-sided Clopper-Pearson bounds on "
            "the share of runs meeting it. Exit status: 0 met, 1 not met, 3 "
            "inconclusive, 2 usage error."
        ),
    )
    _add_runs_options(
        p,
        by_help="model column; with several models, name one with --model "
        "(default: a column named 'model' when --model is given)",
    )
    p.add_argument(
        "--threshold", required=True, type=float, metavar="T", help="score to reach"
    )
    p.add_argument(
        "--probability",
        type=float,
        default=0.9,
        metavar="P",
        help="required probability of reaching it (default: 0.9)",
    )
    p.add_argument(
        "--confidence",
        type=float,
        default=0.95,
        metavar="C",
        help="confidence level of the verdict (default: 0.95)",
    )
    p.add_argument(
        "--model",
        metavar="NAME",
        default=None,
        help="the model to judge (a value of the --by column)",
    )
    return p


def _model_rows(frame, by, model, path):
    """The rows of the one model to judge (all rows when there is one model)."""
    if model is not None and by is None:
        by = _model_column(frame)
        if by is None:
            raise _CLIError(
                f"--model {model!r} needs --by COLUMN (the column naming the model "
                f"of each run in {path})"
            )
    if by is None:
        other = _model_column(frame)
        if other is not None and frame[other].nunique() > 1:
            found = list(dict.fromkeys(frame[other].astype(str)))
            shown = ", ".join(map(repr, found[:4])) + (
                ", ..." if len(found) > 4 else ""
            )
            raise _CLIError(
                f"{path} holds {len(found)} models in column {other!r} ({shown}); "
                f"check judges one: name it with --by {other} --model NAME"
            )
        return frame, None
    _check_column(frame, by, "--by", path)
    names = frame[by].astype(str)
    found = list(dict.fromkeys(names))
    if model is None:
        if len(found) > 1:
            shown = ", ".join(map(repr, found[:4])) + (
                ", ..." if len(found) > 4 else ""
            )
            raise _CLIError(
                f"{path} holds {len(found)} models in column {by!r} ({shown}); "
                "check judges one: name it with --model NAME"
            )
        return frame, by
    rows = frame[names == str(model)]
    if rows.empty:
        shown = ", ".join(map(repr, found[:6])) + (", ..." if len(found) > 6 else "")
        raise _CLIError(f"--model {model!r} is not in column {by!r}; it has {shown}")
    return rows, by


def _model_column(frame):
    """The column named like ``model`` (as :func:`skperf.from_frame` reads it)."""
    from .._frame import MODEL_COLUMNS

    lower = {str(c).lower(): c for c in frame.columns}
    return next((lower[n] for n in MODEL_COLUMNS if n in lower), None)


def _runs(args):
    """The PerformanceDistribution of the one model, by the rules of summarize."""
    from .._frame import from_frame

    frame = _read_scores_csv(args.scores)
    path = os.path.basename(args.scores)
    _check_column(frame, args.score, "--score", path)
    if args.repeat_by is not None:
        _check_column(frame, args.repeat_by, "--repeat-by", path)
    frame, by = _model_rows(frame, args.by, args.model, path)
    greater, _ = _direction(args, args.score)
    try:
        dists = from_frame(
            frame,
            score=args.score,
            by=by,
            repeat_by=args.repeat_by,
            greater_is_better=greater,
        )
    except (TypeError, ValueError) as exc:
        raise _CLIError(f"{os.path.basename(path)}: {_flags_text(exc)}") from None
    (dist,) = dists.values()
    return dist


def run(args):
    """Run ``skperf check``; return 0 met, 1 not met, 3 inconclusive.

    Usage errors (status 2) are raised as ``_CLIError`` (see :mod:`skperf.cli`).
    """
    try:
        if not math.isfinite(args.threshold):
            raise _CLIError(f"--threshold must be finite; got {args.threshold}")
        _check_probability(args.probability, "--probability")
        _check_probability(args.confidence, "--confidence")
        dist = _runs(args)
        res = dist.requirement(
            args.threshold, probability=args.probability, confidence=args.confidence
        )
    except (ValueError, TypeError) as exc:
        raise _CLIError(_flags_text(exc)) from None
    label = args.score if args.model is None else f"{args.score} of {args.model}"
    line = _verdict_line(res, label)
    if args.repeat_by is not None:
        line += f" (runs: one per {args.repeat_by}, its folds averaged)"
    print(line)
    sys.stdout.flush()
    return res.exit_code
