"""What the ``skperf`` subcommands share: errors, output, options, data.

A bottom module: the subcommand modules import it, it imports none of them.
Usage errors are raised as :class:`_CLIError`; :func:`skperf.cli.main` shows
them as one line ``<prog>: error: ...`` on stderr, the whole message, never
cut (exit status :data:`EXIT_USAGE`, no traceback).

Like the rest of :mod:`skperf.cli`, this module uses only the public API of
skperf (``tests/cli/test_layout.py``): what a report computed is read from
the report.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap

#: longest argparse error line printed on stderr (skperf's own errors are
#: printed whole: a cut message loses what it says to do, issue 29 item 16)
MAX_LINE = 200

#: exit status for a usage error (as argparse)
EXIT_USAGE = 2

#: exit status after stdout was closed early (``skperf ... | head``): SIGPIPE
EXIT_BROKEN_PIPE = 141

#: width of the wrapped lines printed on stdout
WIDTH = 100

#: a numeric target with more distinct values than this is read as regression
#: even when every value is a whole number (prices, counts, ages)
MAX_CLASSES = 20


class _CLIError(Exception):
    """A usage error, shown as one line ``<prog>: error: ...`` (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block), exit status 2."""

    def error(self, message):
        line = _one_line(f"{self.prog}: error: {message} (see {self.prog} --help)")
        self.exit(EXIT_USAGE, line + "\n")


# ----------------------------------------------------------------------
# output
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
    """Print ``<prog>: error: <message>`` as one line on stderr; return 2.

    The whole message, never cut: what it says to do is at its end.
    """
    print(_one_line(f"{prog}: error: {message}", limit=None), file=sys.stderr)
    return EXIT_USAGE


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
    return EXIT_BROKEN_PIPE


def _wrapped(text, indent=""):
    return textwrap.fill(
        text,
        width=WIDTH,
        initial_indent=indent,
        subsequent_indent=indent + "    ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def _markdown_table(table):
    """A table of str cells as GitHub-flavoured markdown, its index first.

    ``table`` is a :class:`pandas.DataFrame` such as
    :meth:`skperf.ModelSelectionReport.summary_table`.
    """
    table = table.reset_index()
    cells = [list(table.columns), *table.to_numpy().tolist()]
    cells = [[str(c).replace("|", "\\|").replace("\n", " ") for c in r] for r in cells]
    widths = [max(len(r[j]) for r in cells) for j in range(len(cells[0]))]
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"
        for r in cells
    ]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def _summary(report):
    """The per-model table of a ModelSelectionReport as a markdown table.

    The report's own cells (:meth:`~skperf.ModelSelectionReport.summary_table`),
    without the sd, the decision read from the model's side and the raw
    p-value.
    """
    table = report.summary_table(quantiles=())
    drop = ["sd", "vs best (CI of P, uncorrected)", "p"]
    return _markdown_table(table.drop(columns=[c for c in drop if c in table]))


def _print_summary(report):
    """Print the summary table and the best model (report, summarize)."""
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


def _verdict_line(r, label, more_runs=None):
    """One line for a :class:`skperf.Requirement` verdict (check, report);
    ``more_runs``: the option that sets the runs (``"--n-repeats"``), named
    when the verdict needs more of them."""
    op = "<=" if not r.greater_is_better else ">="
    side = {True: "lower", False: "upper"}[r.greater_is_better]
    if r.verdict == "not met":
        side = "upper" if r.greater_is_better else "lower"
    line = (
        f"{r.verdict.upper()}: P({label} {op} {r.threshold:g}) >= {r.probability:g} "
        f"at {r.confidence:g} confidence; {r.n_meeting}/{r.n} runs meet it; "
        f"{side} bound of the {r.q:g}-quantile {r.bound:.6g}; n = {r.n}"
    )
    if r.verdict == "inconclusive" and r.n < r.n_needed:
        line += f" (at least {r.n_needed} runs needed to pass)"
        if more_runs:
            line += f"; {more_runs} {r.n_needed} gives enough runs"
    return line


def _reproduce_line(entropy):
    return f"random_state={entropy} (pass --random-state {entropy} to reproduce)"


# ----------------------------------------------------------------------
# options
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


def _add_random_state(parser, what):
    parser.add_argument(
        "--random-state",
        type=int,
        default=None,
        help=f"{what}, an integer >= 0 (default: drawn and printed, to reproduce)",
    )


def _check_probability(value, option):
    """A level in (0, 1): ``--confidence``, ``--probability`` (one rule)."""
    if not 0 < value < 1:
        hint = f" (did you mean {value / 100:g}?)" if 1 < value < 100 else ""
        raise _CLIError(f"{option} must be in (0, 1); got {value:g}{hint}")


def _check_report_options(args):
    """One-line errors for bad ``--confidence`` or ``--gamma``."""
    _check_probability(args.confidence, "--confidence")
    if not 0.5 < args.gamma < 1:
        raise _CLIError(
            "--gamma must be in (0.5, 1) (a probability of outperforming that counts "
            f"as meaningful, e.g. 0.75); got {args.gamma:g}"
        )


def _correction(args):
    return None if args.correction == "none" else args.correction


def _check_random_state(random_state, option="--random-state"):
    if random_state is not None and random_state < 0:
        raise _CLIError(f"{option} must be an integer >= 0; got {random_state}")


def _entropy(random_state):
    """``--random-state``, or fresh entropy drawn to be printed and reused."""
    import numpy as np

    if random_state is not None:
        return int(random_state)
    return int(np.random.SeedSequence().entropy)


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


def _write_html(report, path):
    """Write the report's HTML page; a failure is one line."""
    try:
        report.to_html(path)
    except OSError as exc:
        raise _CLIError(f"cannot write {path}: {exc.strerror or exc}") from None


# ----------------------------------------------------------------------
# CSV files
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
    """The scores CSV of check and summarize: ``SCORES.csv``, ``--score``,
    ``--by``, ``--repeat-by`` and the direction flags."""
    parser.add_argument(
        "scores", metavar="SCORES.csv", help="CSV file with a header row, one run a row"
    )
    parser.add_argument(
        "--score", required=True, metavar="COLUMN", help="column holding the score"
    )
    parser.add_argument("--by", metavar="COLUMN", default=None, help=by_help)
    parser.add_argument(
        "--repeat-by",
        metavar="COLUMN",
        default=None,
        help="column naming the repeat when the rows are the folds of repeated "
        "K-fold runs: the folds of each repeat are averaged into one run",
    )
    parser.add_argument(
        "--fold-by",
        metavar="COLUMN",
        default=None,
        help="column numbering the fold of each row of your own (repeated) K-fold "
        "CV: a fold design, with --repeat-by, --n-train and --n-test; the answers "
        "are then about new data (corrected resampled t on the fold scores)",
    )
    parser.add_argument(
        "--n-train",
        metavar="N",
        type=_size,
        default=None,
        help="with --fold-by: training rows of each split (a positive integer, or "
        "the column holding each split's size)",
    )
    parser.add_argument(
        "--n-test",
        metavar="M",
        type=_size,
        default=None,
        help="with --fold-by: test rows of each split (a positive integer, or the "
        "column holding each split's size)",
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


def _size(text):
    """``--n-train``/``--n-test``: an int when it reads as one, else a column name."""
    try:
        return int(text)
    except ValueError:
        return text


def _check_fold_options(args):
    """One-line errors for a fold design given in part."""
    sizes = [
        o
        for o, v in (("--n-train", args.n_train), ("--n-test", args.n_test))
        if v is not None
    ]
    if args.fold_by is None:
        if sizes:
            raise _CLIError(
                f"{' and '.join(sizes)} describe the splits of a fold design: pass "
                "--fold-by COLUMN (the fold number of each row) with them"
            )
        return
    missing = [o for o in ("--n-train", "--n-test") if o not in sizes]
    if missing:
        raise _CLIError(
            f"--fold-by {args.fold_by} needs the split sizes: pass "
            f"{' and '.join(missing)} (e.g. --n-train 135 --n-test 15 for 10-fold CV "
            "on 150 rows)"
        )
    for option, value in (("--n-train", args.n_train), ("--n-test", args.n_test)):
        if isinstance(value, int) and value < 1:
            raise _CLIError(f"{option} must be a positive integer; got {value}")


def _named_as_loss(column):
    """Whether skperf reads the metric name ``column`` as a loss.

    Asked of the public :class:`skperf.PerformanceDistribution`, so that the
    rule (``log_loss``, ``mse``, ``loss``, ``*_error`` ...; not ``neg_*``) is
    written once: a distribution named after a loss refuses a positive score
    with ``greater_is_better=True`` and takes it with ``False``.
    """
    import warnings

    from .._distribution import PerformanceDistribution

    def accepts(greater_is_better):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                PerformanceDistribution(
                    [0.25, 0.5], metric=column, greater_is_better=greater_is_better
                )
        except ValueError:
            return False
        return True

    return not accepts(True) and accepts(False)


def _direction(args, column):
    """``(greater_is_better, note)``: the flag, else lower for a loss name.

    ``note`` says when the direction was read from the name (``None``
    otherwise).
    """
    if args.greater_is_better is not None:
        return bool(args.greater_is_better), None
    if _named_as_loss(column):
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
        .replace("pass fold=", "pass --fold-by ")
        .replace("`fold` column", "--fold-by column")
        .replace("`repeat` column", "--repeat-by column")
        .replace("`n_train`", "--n-train")
        .replace("`n_test`", "--n-test")
        .replace("pass by=", "pass --by ")
    )


# ----------------------------------------------------------------------
# ``skperf report --data``: the data and its task
def _load_data(path, target, drop):
    """``(X, y, source, notes)`` from ``--data``, ``--target`` and ``--drop``."""
    import numpy as np

    if target is None:
        raise _CLIError("--target COLUMN is required with --data")
    frame = _read_csv(path)
    source = os.path.basename(path)
    _check_column(frame, target, "--target", source)
    if frame[target].isna().any():
        raise _CLIError(
            f"target column {target!r} has {int(frame[target].isna().sum())} missing "
            "value(s); drop those rows first"
        )
    notes = []
    drop = list(dict.fromkeys(drop or []))
    for column in drop:
        _check_column(frame, column, "--drop", source)
        if column == target:
            raise _CLIError(f"--drop {column!r} is the --target column")
    for column in frame.columns:
        if (
            column == target
            or column in drop
            or not re.match(r"^Unnamed: \d+$", column)
        ):
            continue
        values = frame[column].to_numpy()
        if np.issubdtype(values.dtype, np.integer) and (
            np.array_equal(values, np.arange(len(frame)))
            or np.array_equal(values, np.arange(1, len(frame) + 1))
        ):
            drop.append(column)
            notes.append(
                f"dropped column {column!r}: an unnamed row index (0, 1, 2, ...) "
                "saved with the data, not a feature"
            )
        else:
            notes.append(
                f"column {column!r} has no name in the header; it is used as a "
                f"feature (--drop {column!r} to leave it out)"
            )
    kept, note = _drop_id_columns(frame.drop(columns=drop), target=target)
    if note is not None:
        notes.append(note)
    X = kept.drop(columns=[target])
    if X.shape[1] == 0:
        raise _CLIError(
            f"{source} has no feature columns besides the target {target!r}"
        )
    return X, frame[target], f"{source} (target {target!r})", notes


def _is_numeric(column):
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return is_numeric_dtype(column) or is_bool_dtype(column)


def _is_bool(column):
    from pandas.api.types import is_bool_dtype

    return is_bool_dtype(column)


def _task(y, task):
    """``(regression, description)`` of the target for ``--task``."""
    from sklearn.utils.multiclass import type_of_target

    kind = type_of_target(y)
    numeric = _is_numeric(y) and not _is_bool(y)
    n_values = int(y.nunique(dropna=True))
    if task == "regression":
        if not numeric:
            example = y.iloc[0]
            raise _CLIError(
                f"--task regression needs a numeric target; {y.name!r} has values "
                f"such as {example!r}"
            )
        return (
            True,
            f"regression target ({n_values} distinct values; --task regression)",
        )
    if task == "classification":
        _check_classification_target(y)  # fractional values, or an amount
        if n_values < 2:
            raise _CLIError(
                f"target {y.name!r} has a single value; nothing to classify"
            )
        return (
            False,
            f"classification target ({n_values} classes; --task classification)",
        )
    if kind.startswith("continuous"):
        return True, "regression target (numbers with fractions; auto)"
    if numeric and n_values > MAX_CLASSES:
        return True, (
            f"regression target ({n_values} distinct whole numbers > {MAX_CLASSES}; "
            "auto)"
        )
    if n_values < 2:
        raise _CLIError(f"target {y.name!r} has a single value; nothing to compare")
    hint = (
        f"; auto: at most {MAX_CLASSES} values are classes, --task regression if "
        "they are ordered amounts"
        if numeric and n_values > 2
        else "; auto"
    )
    return False, f"classification target ({n_values} classes{hint})"


def _missing_text(X):
    counts = X.isna().sum()
    counts = counts[counts > 0]
    if counts.empty:
        return None
    cols = ", ".join(map(str, counts.index[:5])) + (", ..." if len(counts) > 5 else "")
    return f"{int(counts.sum())} missing value(s) in {len(counts)} column(s) ({cols})"


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
    elif k > MAX_CLASSES and k > n / 5:
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
        present = col.dropna()
        # a few blank cells do not make an id a feature (issue 29, item 9: a
        # class-sorted export with one blank id scored 1.000 [1.000, 1.000])
        if (
            present.nunique() != len(present)
            or len(present) < max(3, n - max(1, n // 20))
            or is_bool_dtype(col)
        ):
            continue
        name = str(column).strip().lower()
        whole = is_integer_dtype(col) or (
            is_numeric_dtype(col)
            and np.all(np.isfinite(present))
            and np.all(present.to_numpy() == np.round(present.to_numpy()))
        )
        if name in _ID_NAMES or name.endswith(("_id", " id", "_key", "uuid")):
            ids.append(column)  # named as an id, a distinct value per row
        elif whole:
            values = np.sort(present.to_numpy(dtype=np.int64))
            steps = np.diff(values)
            step = steps.min() if steps.size else 0
            # 0, 1, 2 ... (or 1001, 1002 ...) in any order, blanks skipped
            if step > 0 and np.all(steps % step == 0):
                if (values[-1] - values[0]) // step + 1 <= n:
                    ids.append(column)
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
