"""Helpers shared by the ``skperf`` subcommands (report, check, summarize).

A bottom module: the subcommand modules import it, it imports none of them.
Usage errors are raised as :class:`_CLIError` and shown by :func:`_print_error`
as one line ``<prog>: error: ...`` of at most :data:`MAX_LINE` characters on
stderr (exit status :data:`EXIT_USAGE`, no traceback).
"""

from __future__ import annotations

import os
import sys
import textwrap

#: longest error line printed on stderr
MAX_LINE = 200

#: exit status for a usage error (as argparse)
EXIT_USAGE = 2

#: width of the wrapped lines printed on stdout
WIDTH = 100


class _CLIError(Exception):
    """A usage error, shown as one line ``<prog>: error: ...`` (exit status 2)."""


def _one_line(text, limit=MAX_LINE):
    """``text`` on one line (whitespace collapsed), cut to ``limit`` characters."""
    text = " ".join(str(text).split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def _first_line(exc):
    """The first line of an exception's message (its type name when empty)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _print_error(prog, message):
    """Print ``<prog>: error: <message>`` as one line on stderr; return 2."""
    print(_one_line(f"{prog}: error: {message}"), file=sys.stderr)
    return EXIT_USAGE


def _wrapped(text, indent=""):
    return textwrap.fill(
        text,
        width=WIDTH,
        initial_indent=indent,
        subsequent_indent=indent + "    ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def _add_report_options(parser):
    """``--out``, ``--confidence``, ``--gamma``, ``--correction`` (report, summarize)."""
    parser.add_argument(
        "--out", default="report.html", help="HTML file to write (default: report.html)"
    )
    parser.add_argument(
        "--confidence",
        type=float,
        default=0.95,
        help="confidence level (default: 0.95)",
    )
    parser.add_argument(
        "--gamma",
        type=float,
        default=0.75,
        help="meaningful probability of outperforming (default: 0.75)",
    )
    parser.add_argument(
        "--correction",
        default="holm",
        choices=["holm", "bonferroni", "fdr_bh", "none"],
        help="multiple-comparison correction (default: holm)",
    )


def _check_report_options(args):
    """One-line errors for bad ``--confidence`` or ``--gamma``."""
    from .stats._validation import _check_confidence

    try:
        _check_confidence(args.confidence, name="--confidence")
    except (TypeError, ValueError) as exc:
        raise _CLIError(str(exc).replace("`", "")) from None
    if not 0.5 < args.gamma < 1:
        raise _CLIError(
            "--gamma must be in (0.5, 1) (a probability of outperforming that counts "
            f"as meaningful, e.g. 0.75); got {args.gamma:g}"
        )


def _check_random_state(random_state, option="--random-state"):
    if random_state is not None and random_state < 0:
        raise _CLIError(f"{option} must be an integer >= 0; got {random_state}")


def _check_out(path, option="--out"):
    """Fail before any work when ``path`` cannot be written."""
    if os.path.isdir(path):
        raise _CLIError(f"{option} {path}: is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        shown = os.path.dirname(path) or folder
        # the folder once (not the path too): a long path stays within the line
        raise _CLIError(
            f"{option}: folder {shown!r} does not exist "
            f"(to write {os.path.basename(path)!r})"
        )
    if not os.access(folder, os.W_OK):
        raise _CLIError(f"{option} {path}: folder is not writable")


def _read_csv(path, what="data"):
    """A CSV file as a DataFrame; a missing or unreadable file is one line.

    ``what`` names the file in the error (``"data file not found: ..."``).
    """
    import pandas as pd

    if not os.path.isfile(path):
        raise _CLIError(f"{what} file not found: {path}")
    try:
        return pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise _CLIError(f"cannot read {path} as CSV: {_first_line(exc)}") from None


def _columns_hint(columns, wanted=None, shown=4):
    """``"did you mean 'x'? it has 14 columns: a, b, c, d, ..."`` (short)."""
    import difflib

    names = [str(c) for c in columns]

    def short(name):
        return name if len(name) <= 20 else name[:19] + "…"

    text = ""
    if wanted is not None:
        close = difflib.get_close_matches(str(wanted), names, n=1, cutoff=0.6)
        lower = {n.lower(): n for n in names}
        if str(wanted).lower() in lower:
            close = [lower[str(wanted).lower()]]
        if close:
            text = f"did you mean {close[0]!r}? "
    text += f"it has {len(names)} column{'s' if len(names) != 1 else ''}: "
    text += ", ".join(short(n) for n in names[:shown])
    return text + (", ..." if len(names) > shown else "")


def _check_column(frame, column, option, source):
    """Fail in one line naming a few columns when ``column`` is not in ``frame``."""
    if column not in frame.columns:
        raise _CLIError(
            f"{option} {column!r} is not a column of {source}; "
            + _columns_hint(frame.columns, column)
        )


def _write_html(report, path):
    """Write the report's HTML page; a failure is one line."""
    try:
        report.to_html(path)
    except OSError as exc:
        raise _CLIError(f"cannot write {path}: {exc.strerror or exc}") from None


def _summary(report):
    """The per-model summary of a ModelSelectionReport as a markdown table.

    The report's own summary table (one source for the cells), without the
    sd, the decision read from the model's side and the raw p-value.
    """
    from .report._format import _markdown_table, _summary_table

    header, rows = _summary_table(report, quantiles=())
    keep = [
        i
        for i, h in enumerate(header)
        if h not in ("sd", "vs best (CI of P, uncorrected)", "p")
    ]
    return _markdown_table(
        [header[i] for i in keep], [[row[i] for i in keep] for row in rows]
    )


def _print_summary(report):
    """Print the summary table and the best model (as ``skperf report`` does)."""
    print()
    print(_summary(report))
    print()
    tied = [n for n in report.tied_with_best if n != report.best]
    print(
        _wrapped(
            f"best: {report.best}"
            + (f"; not significantly worse: {', '.join(tied)}" if tied else "")
        )
    )
