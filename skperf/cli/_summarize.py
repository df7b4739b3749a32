"""`skperf summarize`: the model-selection report from a CSV of scores.

The scores may come from anywhere (e.g. seeded deep-learning runs): one row
per run with a model column, a pairing column (the seed) and a score column.
Bad input gives one line ``skperf summarize: error: ...`` (at most 200
characters) on stderr and exit status 2.
"""

from __future__ import annotations

import os

from ._common import (
    _add_random_state,
    _add_report_options,
    _add_runs_options,
    _check_column,
    _check_out,
    _check_random_state,
    _check_report_options,
    _CLIError,
    _correction,
    _direction,
    _entropy,
    _first_line,
    _flags_text,
    _print_summary,
    _read_scores_csv,
    _reproduce_line,
    _write_html,
)

__all__ = ["add_parser", "run"]

PROG = "skperf summarize"


def add_parser(subparsers):
    """Register ``summarize`` on the ``skperf`` subcommands (see :mod:`skperf.cli`)."""
    p = subparsers.add_parser(
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
    _add_random_state(p, "seed of the bootstrap")
    return p


def run(args):
    """Run ``skperf summarize``; return 0 (usage errors: see :mod:`skperf.cli`)."""
    _check_report_options(args)
    _check_random_state(args.random_state)
    if args.dataset is not None and args.by is None:
        raise _CLIError("--dataset needs --by, the column naming the model of each run")
    _check_out(args.out)  # before any work, as skperf report
    frame = _read_scores_csv(args.scores)
    greater, direction_note = _direction(args, args.score)
    entropy = _entropy(args.random_state)
    try:
        if args.dataset is not None:  # many datasets (issue 19)
            report = _benchmark(frame, args, greater, entropy)
        else:
            report = _model_selection(frame, args, greater, entropy)
    except (TypeError, ValueError) as exc:
        raise _CLIError(
            f"{os.path.basename(args.scores)}: {_flags_text(_first_line(exc))}"
        ) from None
    _write_html(report, args.out)
    if direction_note:
        print(direction_note)
    if args.dataset is not None:
        _print_benchmark(report, args)
    else:
        _print_model_selection(report, args, len(frame))
    print(_reproduce_line(entropy))
    print(f"wrote {args.out}")
    return 0


def _distributions(frame, args, greater):
    """One distribution per model (:func:`skperf.from_frame`)."""
    from .._frame import from_frame

    return from_frame(
        frame,
        score=args.score,
        by=args.by,
        pair_by=args.pair_by,
        greater_is_better=greater,
        repeat_by=args.repeat_by,
    )


def _model_selection(frame, args, greater, entropy):
    """The ModelSelectionReport of the runs (target "this dataset")."""
    from ..report import ModelSelectionReport

    dists = _distributions(frame, args, greater)
    settings = {
        "scores": os.path.basename(args.scores),
        "runs": sum(d.n for d in dists.values()),
        "score": args.score,
        "by": args.by,
        "pair_by": args.pair_by,
        "greater_is_better": greater,
        "random_state": entropy,
    }
    if args.repeat_by is not None:
        settings["repeat_by"] = args.repeat_by
    return ModelSelectionReport(
        dists,
        target="this dataset",
        gamma=args.gamma,
        confidence=args.confidence,
        correction=_correction(args),
        random_state=entropy,
        settings=settings,
    )


def _print_model_selection(report, args, n_rows):
    runs = sum(d.n for d in report.raw_distributions.values())
    if args.repeat_by is not None:
        print(
            f"runs: {runs} repeats ({n_rows} fold rows averaged per {args.repeat_by})"
        )
    print(
        f"scores: {args.scores}: {report.n_models} model(s), {runs} runs; "
        f"paired by {args.pair_by}"
        if args.pair_by
        else f"scores: {args.scores}: {report.n_models} model(s) (unpaired)"
    )
    _print_summary(report)


def _benchmark(frame, args, greater, entropy):
    """The BenchmarkReport over ``--dataset`` (:meth:`BenchmarkReport.from_frame`).

    With ``--repeat-by`` the folds of each repeat are first averaged within
    each dataset (:func:`skperf.from_frame` per dataset), one row per repeat.
    """
    from ..report import BenchmarkReport

    if args.repeat_by is not None:
        frame = _per_repeat_rows(frame, args, greater)
    report = BenchmarkReport.from_frame(
        frame,
        score=args.score,
        by=args.by,
        dataset=args.dataset,
        pair_by=args.pair_by,
        greater_is_better=greater,
        confidence=args.confidence,
        random_state=entropy,
    )
    report.settings["scores"] = str(args.scores)
    return report


def _per_repeat_rows(frame, args, greater):
    """One row per (dataset, model, repeat): the mean of the repeat's folds."""
    import pandas as pd

    _check_columns_exist(frame, args)
    parts = []
    for name, rows in frame.groupby(args.dataset, sort=False):
        for model, dist in _distributions(rows, args, greater).items():
            part = {args.dataset: name, args.by: model, args.score: dist.scores}
            if args.pair_by is not None:
                part[args.pair_by] = dist.seeds["pair"]
            parts.append(pd.DataFrame(part))
    return pd.concat(parts, ignore_index=True)


def _check_columns_exist(frame, args):
    for option, column in [
        ("--dataset", args.dataset),
        ("--repeat-by", args.repeat_by),
    ]:
        _check_column(frame, column, option, os.path.basename(args.scores))


def _print_benchmark(report, args):
    """The scores read and the benchmark's markdown (:meth:`to_markdown`)."""
    runs = int(report.n_runs.to_numpy().sum())
    print(
        f"scores: {args.scores}: {report.n_models} models on {report.n_datasets} "
        f"datasets, {runs} runs; "
        + (f"paired by {args.pair_by}" if args.pair_by else "unpaired")
    )
    print()
    print(report.to_markdown())
