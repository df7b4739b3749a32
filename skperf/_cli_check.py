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

from ._cli_common import (
    EXIT_USAGE,
    _add_runs_options,
    _check_column,
    _CLIError,
    _direction,
    _flags_text,
    _print_error,
    _quiet_broken_pipe,
    _read_scores_csv,
)

__all__ = ["add_parser", "run"]

PROG = "skperf check"


def _one_line_error(message):
    """Print the usage error as one line and exit with status 2."""
    _print_error(PROG, message)
    sys.exit(EXIT_USAGE)


def add_parser(subparsers):
    """Register ``check`` on the ``skperf`` sub-command parsers.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``parser.add_subparsers()``.

    Returns
    -------
    argparse.ArgumentParser
        The ``check`` parser; its ``func`` default runs the command.
    """
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
    p.error = _one_line_error  # every usage error is one line, exit 2
    p.add_argument("scores", metavar="SCORES.csv", help="CSV file, one row per run")
    p.add_argument(
        "--score", required=True, metavar="COLUMN", help="column holding the score"
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
    _add_runs_options(
        p,
        by_help="model column; with several models, name one with --model "
        "(default: a column named 'model' when --model is given)",
    )
    p.add_argument(
        "--model",
        metavar="NAME",
        default=None,
        help="the model to judge (a value of the --by column)",
    )
    p.set_defaults(func=run)
    return p


def _model_rows(frame, by, model, path):
    """The rows of the one model to judge (all rows when there is one model)."""
    from ._frame import MODEL_COLUMNS, _find

    if model is not None and by is None:
        by = _find(frame, MODEL_COLUMNS, ())
        if by is None:
            raise _CLIError(
                f"--model {model!r} needs --by COLUMN (the column naming the model "
                f"of each run in {path})"
            )
    if by is None:
        other = _find(frame, MODEL_COLUMNS, ())
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


def _runs(args):
    """The PerformanceDistribution of the one model, by the rules of summarize."""
    from ._frame import from_frame

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


def _check_level(value, flag):
    if not 0 < value < 1:
        hint = f" (did you mean {value / 100:g}?)" if 1 < value < 100 else ""
        raise _CLIError(f"{flag} must be in (0, 1); got {value:g}{hint}")


def _format(r, column):
    op = "<=" if not r.greater_is_better else ">="
    side = {True: "lower", False: "upper"}[r.greater_is_better]
    if r.verdict == "not met":
        side = "upper" if r.greater_is_better else "lower"
    line = (
        f"{r.verdict.upper()}: P({column} {op} {r.threshold:g}) >= {r.probability:g} "
        f"at {r.confidence:g} confidence; {r.n_meeting}/{r.n} runs meet it; "
        f"{side} bound of the {r.q:g}-quantile {r.bound:.6g}; n = {r.n}"
    )
    if r.verdict == "inconclusive" and r.n < r.n_needed:
        line += f" (at least {r.n_needed} runs needed to pass)"
    return line


def run(args):
    """Run ``skperf check`` on parsed arguments.

    Parameters
    ----------
    args : argparse.Namespace
        From the parser of :func:`add_parser`.

    Returns
    -------
    int
        0 met, 1 not met, 3 inconclusive, 2 usage error (141 when stdout is
        closed early, e.g. by ``| head``).
    """
    try:
        if not math.isfinite(args.threshold):
            raise _CLIError(f"--threshold must be finite; got {args.threshold}")
        _check_level(args.probability, "--probability")
        _check_level(args.confidence, "--confidence")
        dist = _runs(args)
        res = dist.requirement(
            args.threshold, probability=args.probability, confidence=args.confidence
        )
    except (_CLIError, ValueError, TypeError) as exc:
        _one_line_error(_flags_text(exc))
    label = args.score if args.model is None else f"{args.score} of {args.model}"
    line = _format(res, label)
    if args.repeat_by is not None:
        line += f" (runs: one per {args.repeat_by}, its folds averaged)"
    try:
        print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        return _quiet_broken_pipe()
    return res.exit_code
