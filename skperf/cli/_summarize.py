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
    _check_fold_options,
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
    _check_fold_options(args)
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
        fold=getattr(args, "fold_by", None),
        n_train=getattr(args, "n_train", None),
        n_test=getattr(args, "n_test", None),
    )


def _model_selection(frame, args, greater, entropy):
    """The ModelSelectionReport of the runs: target "this dataset", or with
    ``--fold-by`` "new data" (the fold scores' corrected resampled t)."""
    from ..model_selection._folds import design_of, fold_ci
    from ..report import ModelSelectionReport

    dists = _distributions(frame, args, greater)
    design = design_of(next(iter(dists.values())))
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
    if design is not None:
        settings.update(
            fold_by=args.fold_by,
            n_train=design.n_train,
            n_test=design.n_test,
            design=design.text(),
        )
    report = ModelSelectionReport(
        dists,
        target="this dataset" if design is None else "new data",
        test_train_ratio=None if design is None else design.test_train_ratio,
        gamma=args.gamma,
        confidence=args.confidence,
        correction=_correction(args),
        random_state=entropy,
        settings=settings,
    )
    if design is not None:
        # each model's interval as generalization_ci(method="auto") reads
        # repeated K-fold (K - 1 degrees of freedom), as compare_models shows
        for name, dist in dists.items():
            report.generalization[name] = fold_ci(dist, confidence=args.confidence)
        report.notes.append(
            f"new data: fold scores you brought ({design.text()}); every pair of "
            "models is tested with the corrected resampled paired t (Nadeau & "
            f"Bengio 2003, n_test / n_train = {design.test_train_ratio:.4g}), the "
            f"{report.n_models * (report.n_models - 1) // 2} pair(s) one family "
            f"corrected by {report.correction or 'no correction'}; each model's "
            "interval is the corrected t read with K - 1 degrees of freedom, as "
            "generalization_ci(method='auto') reads repeated K-fold."
        )
    return report


def _print_model_selection(report, args, n_rows):
    runs = sum(d.n for d in report.raw_distributions.values())
    if getattr(args, "fold_by", None) is not None:
        print(
            f"scores: {args.scores}: {report.n_models} model(s), fold scores of "
            f"{report.settings['design']}; target: new data"
        )
        _print_summary(report)
        if report.n_models > 1:
            print()
            print(_pairwise_text(report))
        return
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


def _pairwise_text(report):
    """One line per pair of the new-data family (estimate, interval, p, decision)."""
    lines = []
    pct = f"{report.confidence:.0%}"
    for row in report.pairwise().itertuples(index=False):
        lines.append(
            f"{row.model_a} - {row.model_b}: {row.estimate:.4g} [{pct} CI "
            f"{row.low:.4g}, {row.high:.4g}], p = {row.pvalue:.3g} (adjusted "
            f"{row.pvalue_adjusted:.3g}): {row.decision} ({row.target})"
        )
    return "\n".join(lines)


def _benchmark(frame, args, greater, entropy):
    """The BenchmarkReport over ``--dataset`` (:meth:`BenchmarkReport.from_frame`).

    With ``--repeat-by`` the folds of each repeat are first averaged within
    each dataset (:func:`skperf.from_frame` per dataset), one row per repeat.
    """
    from ..report import BenchmarkReport

    fold = {}
    if getattr(args, "fold_by", None) is not None:
        fold = {
            "fold": args.fold_by,
            "repeat": args.repeat_by,
            "n_train": args.n_train,
            "n_test": args.n_test,
        }
    elif args.repeat_by is not None:
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
        **fold,
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
