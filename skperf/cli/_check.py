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
    _check_fold_options,
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
        default=None,
        metavar="P",
        help="required probability of reaching it (default: 0.9; not with "
        "--fold-by, which judges the expected score on new data)",
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


#: columns naming the seed of a run: a key repeated among one model's runs
#: is the same run counted twice (issue 29, item 9)
SEED_COLUMNS = ("seed", "seeds", "random_state", "seed_id", "init_seed", "run_id")


def _check_seed_keys(frame, args, by, path):
    """Refuse one model's runs that repeat a seed (duplicated evidence)."""
    if args.repeat_by is not None or args.fold_by is not None:
        return  # the folds of a repeat share its seed
    lower = {str(c).lower(): c for c in frame.columns if c not in (args.score, by)}
    col = next((lower[n] for n in SEED_COLUMNS if n in lower), None)
    if col is None:
        return
    keys = frame[col]
    dup = keys.duplicated(keep=False) & keys.notna()
    if not dup.any():
        return
    first = keys[dup].iloc[0]
    first = first.item() if hasattr(first, "item") else first
    rows = [str(i) for i in keys.index[dup & (keys == first)][:2]]
    raise _CLIError(
        f"{path}: column {col!r} repeats {col}={first!r} (rows {' and '.join(rows)}; "
        f"{int(keys[dup].nunique())} seed(s) in all): the same run counted twice "
        "would let the gate pass on duplicated evidence; drop the copies"
    )


def _runs(args):
    """The PerformanceDistribution of the one model, by the rules of summarize."""
    from .._frame import from_frame

    frame = _read_scores_csv(args.scores)
    path = os.path.basename(args.scores)
    _check_column(frame, args.score, "--score", path)
    if args.repeat_by is not None:
        _check_column(frame, args.repeat_by, "--repeat-by", path)
    if args.fold_by is not None:
        _check_column(frame, args.fold_by, "--fold-by", path)
    frame, by = _model_rows(frame, args.by, args.model, path)
    greater, _ = _direction(args, args.score)
    try:
        dists = from_frame(
            frame,
            score=args.score,
            by=by,
            repeat_by=args.repeat_by,
            greater_is_better=greater,
            fold=args.fold_by,
            n_train=args.n_train,
            n_test=args.n_test,
        )
    except (TypeError, ValueError) as exc:
        raise _CLIError(f"{os.path.basename(path)}: {_flags_text(exc)}") from None
    _check_seed_keys(frame, args, by, path)  # after the exact copies' error
    (dist,) = dists.values()
    return dist


def _new_data_verdict(dist, args, label):
    """``(line, exit code)``: is the expected score on new data past T?

    The one-sided bounds at ``--confidence`` are those of the two-sided
    interval at ``2 C - 1`` of :func:`skperf.model_selection._folds.fold_ci`.
    """
    from ..model_selection._folds import fold_ci

    ci = fold_ci(dist, confidence=2 * args.confidence - 1)
    t = args.threshold
    greater = dist.greater_is_better
    if (ci.low >= t) if greater else (ci.high <= t):
        verdict, code = "met", 0
    elif (ci.high < t) if greater else (ci.low > t):
        verdict, code = "not met", 1
    else:
        verdict, code = "inconclusive", 3
    op = ">=" if greater else "<="
    line = (
        f"{verdict.upper()}: expected {label} on new data {op} {t:g} at "
        f"{args.confidence:g} confidence; estimate {ci.estimate:.6g}, one-sided "
        f"bounds [{ci.low:.6g}, {ci.high:.6g}] (corrected resampled t over "
        f"{ci.n_fits} fold scores, target: new data)"
    )
    return line, code


def run(args):
    """Run ``skperf check``; return 0 met, 1 not met, 3 inconclusive.

    Usage errors (status 2) are raised as ``_CLIError`` (see :mod:`skperf.cli`).
    """
    try:
        if not math.isfinite(args.threshold):
            raise _CLIError(f"--threshold must be finite; got {args.threshold}")
        _check_fold_options(args)
        if args.fold_by is not None and args.probability is not None:
            raise _CLIError(
                "--probability is about the share of runs reaching the threshold; "
                "with --fold-by check judges the expected score on new data (drop "
                "--probability)"
            )
        probability = 0.9 if args.probability is None else args.probability
        _check_probability(probability, "--probability")
        _check_probability(args.confidence, "--confidence")
        dist = _runs(args)
        label = args.score if args.model is None else f"{args.score} of {args.model}"
        if args.fold_by is not None:
            line, code = _new_data_verdict(dist, args, label)
            print(line)
            sys.stdout.flush()
            return code
        res = dist.requirement(
            args.threshold, probability=probability, confidence=args.confidence
        )
    except (ValueError, TypeError) as exc:
        raise _CLIError(_flags_text(exc)) from None
    line = _verdict_line(res, label)
    if args.repeat_by is not None:
        line += f" (runs: one per {args.repeat_by}, its folds averaged)"
    print(line)
    sys.stdout.flush()
    return res.exit_code
