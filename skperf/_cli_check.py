"""`skperf check`: a release gate on a requirement for the score distribution.

``skperf check SCORES.csv --score COLUMN --threshold T [--probability P]
[--confidence C] [--lower-is-better]`` prints the verdict of
:meth:`PerformanceDistribution.requirement` in one line and exits with

- 0 when the requirement is met,
- 1 when it is not met,
- 3 when the runs cannot decide (inconclusive; e.g. too few runs),
- 2 on a usage error (one line on stderr, no traceback).
"""

from __future__ import annotations

import math
import sys

from ._cli_common import EXIT_USAGE, _CLIError, _print_error, _read_csv

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
    p.add_argument(
        "--lower-is-better",
        action="store_true",
        help="the score is a loss: require score <= T",
    )
    p.set_defaults(func=run)
    return p


def _read_scores(path, column):
    import numpy as np
    import pandas as pd

    frame = _read_csv(path, what="scores")
    if column not in frame.columns:
        cols = ", ".join(map(str, frame.columns[:20]))
        more = " ..." if frame.shape[1] > 20 else ""
        raise _CLIError(
            f"score column {column!r} not found in {path}; columns are: {cols}{more}"
        )
    raw = frame[column]
    values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values)  # missing, text, inf
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise _CLIError(
            f"score column {column!r} has {int(bad.sum())} missing or non-numeric "
            f"value(s), the first in data row {i + 1}: {str(raw.iloc[i])[:30]!r}"
        )
    if len(values) < 2:
        raise _CLIError(
            f"{path} has {len(values)} run(s) in column {column!r}; at least 2 needed"
        )
    return values


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
        0 met, 1 not met, 3 inconclusive, 2 usage error.
    """
    from ._distribution import PerformanceDistribution

    try:
        if not math.isfinite(args.threshold):
            raise _CLIError(f"--threshold must be finite; got {args.threshold}")
        _check_level(args.probability, "--probability")
        _check_level(args.confidence, "--confidence")
        scores = _read_scores(args.scores, args.score)
        dist = PerformanceDistribution(
            scores, metric=args.score, greater_is_better=not args.lower_is_better
        )
        res = dist.requirement(
            args.threshold, probability=args.probability, confidence=args.confidence
        )
    except (_CLIError, ValueError, TypeError) as exc:
        _one_line_error(str(exc).replace("`", ""))
    print(_format(res, args.score))
    return res.exit_code
