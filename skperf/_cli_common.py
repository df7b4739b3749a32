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


# ----------------------------------------------------------------------
# scores produced anywhere (check, summarize)
def _read_scores_csv(path):
    """The CSV of ``check`` / ``summarize``, its rows named 1, 2, ... (data rows).

    Both subcommands read scores with this function and hand the table to
    :func:`skperf.from_frame`, so their errors count rows the same way: data
    row 1 is the first row below the header.
    """
    import pandas as pd

    frame = _read_csv(path, what="scores")
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return frame


def _add_runs_options(parser, *, by_help):
    """``--by``, ``--repeat-by`` and the direction flags (check, summarize)."""
    parser.add_argument("--by", metavar="COLUMN", default=None, help=by_help)
    parser.add_argument(
        "--repeat-by",
        metavar="COLUMN",
        default=None,
        help="column naming the repeat when the rows are the folds of repeated "
        "K-fold runs: the folds of each repeat are averaged into one run",
    )
    direction = parser.add_mutually_exclusive_group()
    direction.add_argument(
        "--greater-is-better",
        dest="greater_is_better",
        action="store_true",
        default=None,
        help="higher scores are better (default, unless the score column is "
        "named as a loss: log_loss, mse, loss, *_error ...)",
    )
    direction.add_argument(
        "--lower-is-better",
        dest="greater_is_better",
        action="store_false",
        help="lower scores are better (a loss or an error)",
    )


def _direction(args, column):
    """``(greater_is_better, note)``: the flag, else lower for a loss name.

    ``note`` says when the direction was read from the name (``None``
    otherwise).
    """
    from ._distribution import _is_loss_name

    if args.greater_is_better is not None:
        return bool(args.greater_is_better), None
    if _is_loss_name(column):
        return False, (
            f"{column!r} is named as a loss: lower is better (pass "
            "--greater-is-better to override)"
        )
    return True, None


def _flags_text(message):
    """A library error rephrased with the command-line flags."""
    return (
        str(message)
        .replace("`", "")
        .replace("greater_is_better=False", "--lower-is-better")
        .replace("greater_is_better=True", "--greater-is-better")
        .replace("repeat_by=", "--repeat-by ")
        .replace("pass by=", "pass --by ")
    )


def _quiet_broken_pipe():
    """After ``BrokenPipeError`` on stdout (``skperf ... | head``): no traceback.

    Points stdout at ``os.devnull`` so that the interpreter's final flush
    does not fail again (the recipe of the Python documentation, "Note on
    SIGPIPE"), and returns 141, the status of a program ended by SIGPIPE.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a descriptor
        pass
    return 141


# ----------------------------------------------------------------------
# data checks for ``skperf report --data`` (called from skperf._cli)
def _check_classification_target(y):
    """Refuse ``--task classification`` on a continuous-looking target.

    A numeric target with fractional values, or with more than 20 distinct
    values and on average fewer than 5 rows per value (e.g. the diabetes
    progression score: 214 values in 442 rows), is an amount, not a set of
    classes: classifying it scores about 1 / (number of values) and takes
    minutes. Raised before any fit, with the hint ``--task regression``.

    Parameters
    ----------
    y : pandas.Series
        The target column.

    Raises
    ------
    _CLIError
        With the number of distinct values and rows.
    """
    import numpy as np
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    if not is_numeric_dtype(y) or is_bool_dtype(y):
        return
    values = y.dropna().to_numpy(dtype=float)
    n, k = values.size, int(np.unique(values).size)
    fractional = np.flatnonzero(values % 1 != 0)
    if fractional.size:
        what = f"fractional values such as {values[fractional[0]]:g}"
    elif k > 20 and k > n / 5:
        what = f"{k} distinct values in {n} rows (fewer than 5 rows per class)"
    else:
        return
    raise _CLIError(
        f"--task classification on target {y.name!r} with {what}: it looks like "
        "an amount, not classes; use --task regression (or bin the target into "
        "classes first)"
    )


#: column names of row identifiers
_ID_NAMES = frozenset({"id", "index", "idx", "key", "uuid", "guid", "row", "row_id"})


def _drop_id_columns(frame, *, target=None):
    """Drop columns that identify rows (one value per row) and say so.

    A column whose values are all distinct is an identifier, not a feature:
    integer ids of a class-sorted export predict the class (accuracy 0.997
    where the features give 0.923), and a text id becomes one one-hot column
    per row. Dropped, when every row has a distinct value: a column named
    as an id (``id``, ``ID``, ``index``, ``uuid``, ``*_id`` ...), a text
    column, and an integer column whose sorted values are evenly spaced
    (``0, 1, 2 ...`` or ``1001, 1002 ...``, in any row order). A numeric
    column that is none of these (a measurement) is kept even when all its
    values differ.

    Parameters
    ----------
    frame : pandas.DataFrame
        The data, target included.
    target : str or None, default=None
        The target column (never dropped).

    Returns
    -------
    frame : pandas.DataFrame
        Without the id columns.
    note : str or None
        ``"dropped column 'id': a distinct value in each of the 569 rows (an
        identifier, not a feature; ...)"``, or ``None`` when nothing was
        dropped.
    """
    import numpy as np
    from pandas.api.types import is_bool_dtype, is_integer_dtype, is_numeric_dtype

    n = len(frame)
    if n < 3:
        return frame, None
    ids = []
    for column in frame.columns:
        if column == target:
            continue
        col = frame[column]
        if col.isna().any() or col.nunique() != n or is_bool_dtype(col):
            continue
        name = str(column).strip().lower()
        if name in _ID_NAMES or name.endswith(("_id", " id", "_key", "uuid")):
            ids.append(column)  # named as an id, a distinct value per row
        elif is_integer_dtype(col):
            values = np.sort(col.to_numpy(dtype=np.int64))
            if np.unique(np.diff(values)).size == 1:
                ids.append(column)  # 0, 1, 2 ... (or 1001, 1002 ...) in any order
        elif not is_numeric_dtype(col):
            ids.append(column)  # a distinct text in every row
    if not ids:
        return frame, None
    shown = ", ".join(repr(str(c)) for c in ids)
    note = (
        f"dropped column{'s' if len(ids) > 1 else ''} {shown}: a distinct value in "
        f"each of the {n} rows (an identifier, not a feature; it would let the "
        "models memorize row order, or become one one-hot column per row)"
    )
    return frame.drop(columns=ids), note
