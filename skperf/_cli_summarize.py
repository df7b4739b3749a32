"""`skperf summarize`: the model-selection report from a CSV of scores.

The scores may come from anywhere (e.g. seeded deep-learning runs): one row
per run with a model column, a pairing column (the seed) and a score column.
Bad input gives one line ``skperf summarize: error: ...`` (at most 200
characters) on stderr and exit status 2.
"""

from __future__ import annotations

import os

from ._cli_common import (
    _add_report_options,
    _add_runs_options,
    _check_out,
    _check_random_state,
    _check_report_options,
    _CLIError,
    _direction,
    _first_line,
    _flags_text,
    _print_error,
    _print_summary,
    _quiet_broken_pipe,
    _read_scores_csv,
    _write_html,
)

__all__ = ["add_parser", "run"]

PROG = "skperf summarize"


def add_parser(sub):
    """Register the ``summarize`` sub-command on an argparse sub-parsers object."""
    p = sub.add_parser(
        "summarize",
        prog=PROG,
        help="the model-selection report from a CSV of scores produced anywhere",
        description=(
            "Read a CSV with one row per run (model, seed, score ...), build one "
            "score distribution per model (paired across models by --pair-by), "
            "compare them with the probability of outperforming, and write the "
            "same self-contained HTML report as `skperf report`."
        ),
    )
    p.add_argument("scores", metavar="SCORES.csv", help="CSV file with a header row")
    p.add_argument("--score", required=True, metavar="COLUMN", help="score column")
    _add_runs_options(p, by_help="model column (default: one model)")
    p.add_argument(
        "--pair-by",
        metavar="COLUMN",
        default=None,
        help="column pairing runs across models, e.g. the seed (each model needs "
        "each value once)",
    )
    p.add_argument(
        "--dataset",
        metavar="COLUMN",
        default=None,
        help="column naming the dataset of each run: a benchmark report over "
        "datasets (needs --by)",
    )
    _add_report_options(p)
    p.add_argument(
        "--random-state",
        type=int,
        default=None,
        help="seed of the bootstrap (default: drawn and printed)",
    )
    p.set_defaults(func=run)
    return p


def run(args):
    """Run ``skperf summarize`` on parsed arguments; return the exit status."""
    try:
        return _run(args)
    except _CLIError as exc:
        return _print_error(PROG, exc)
    except BrokenPipeError:  # `skperf summarize ... | head`
        return _quiet_broken_pipe()


def _run(args):
    from ._seeding import _root_entropy
    from .report import ModelSelectionReport

    _check_report_options(args)
    _check_random_state(args.random_state)
    _check_out(args.out)  # before any work, as skperf report
    frame = _read_scores_csv(args.scores)
    greater, direction_note = _direction(args, args.score)
    args.greater_is_better = greater  # a bool from here on (also for --dataset)
    n_rows = len(frame)
    if args.repeat_by is not None:
        from ._frame import _per_repeat_frame

        try:
            frame = _per_repeat_frame(
                frame,
                score=args.score,
                by=args.by,
                repeat_by=args.repeat_by,
                pair_by=args.pair_by,
                within=args.dataset,
            )
        except (TypeError, ValueError) as exc:
            raise _CLIError(
                f"{os.path.basename(args.scores)}: {_flags_text(_first_line(exc))}"
            ) from None
    correction = None if args.correction == "none" else args.correction
    entropy = _root_entropy(args.random_state)
    if args.dataset is not None:  # many datasets (issue 19)
        from .report._benchmark import _from_cli

        try:
            report, lines = _from_cli(frame, args, entropy)
        except (TypeError, ValueError) as exc:
            raise _CLIError(
                f"{args.scores}: {_first_line(exc).replace('`', '')}"
            ) from None
        _write_html(report, args.out)
        print("\n".join(lines))
        print(f"random_state={entropy} (pass --random-state {entropy} to reproduce)")
        print(f"wrote {args.out}")
        return 0
    settings = {
        "scores": os.path.basename(args.scores),
        "runs": len(frame),
        "score": args.score,
        "by": args.by,
        "pair_by": args.pair_by,
        "greater_is_better": greater,
        "random_state": entropy,
    }
    try:
        report = ModelSelectionReport.from_frame(
            frame,
            score=args.score,
            by=args.by,
            pair_by=args.pair_by,
            greater_is_better=greater,
            settings=settings,
            gamma=args.gamma,
            confidence=args.confidence,
            correction=correction,
            random_state=entropy,
        )
    except (TypeError, ValueError) as exc:
        raise _CLIError(
            f"{os.path.basename(args.scores)}: {_flags_text(_first_line(exc))}"
        ) from None
    _write_html(report, args.out)
    if direction_note:
        print(direction_note)
    if args.repeat_by is not None:
        print(
            f"runs: {len(frame)} repeats ({n_rows} fold rows averaged per "
            f"{args.repeat_by})"
        )
    print(
        f"scores: {args.scores}: {report.n_models} model(s), "
        f"{sum(d.n for d in report.raw_distributions.values())} runs; "
        f"paired by {args.pair_by}"
        if args.pair_by
        else f"scores: {args.scores}: {report.n_models} model(s) (unpaired)"
    )
    _print_summary(report)
    print(f"random_state={entropy} (pass --random-state {entropy} to reproduce)")
    print(f"wrote {args.out}")
    return 0
