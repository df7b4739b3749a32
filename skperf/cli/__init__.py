"""The ``skperf`` command line: ``skperf report``, ``check`` and ``summarize``.

Each subcommand is a module with one contract:

- ``PROG``: its name as shown in messages (``"skperf report"``);
- ``add_parser(subparsers)``: registers its options on the ``skperf``
  parser and returns its :class:`argparse.ArgumentParser`;
- ``run(args) -> int``: runs it on the parsed arguments and returns the exit
  status; a usage error is raised as ``_common._CLIError`` and shown by
  :func:`main` as one line ``<prog>: error: ...`` (exit status 2).

A new subcommand is a new module of this package listed in
:data:`SUBCOMMANDS`. The subcommands use only the public API of skperf
(:func:`skperf.compare_models`, :class:`skperf.ModelSelectionReport`,
:func:`skperf.from_frame` ...): a fact the evaluation computed is read from
the report it returned (``tests/cli/test_layout.py`` checks the imports).
"""

from __future__ import annotations

from . import _check, _report, _summarize
from ._common import _CLIError, _Parser, _print_error, _quiet_broken_pipe

__all__ = ["main"]

#: the subcommand modules, in the order ``skperf --help`` lists them
SUBCOMMANDS = (_report, _check, _summarize)


def _build_parser():
    from .._version import __version__

    parser = _Parser(
        prog="skperf",
        description="skperf: the distribution of a model's score, with honest statistics.",
    )
    parser.add_argument("--version", action="version", version=f"skperf {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in SUBCOMMANDS:
        module.add_parser(sub).set_defaults(_subcommand=module)
    return parser


def main(argv=None):
    """Run the ``skperf`` command line.

    Parameters
    ----------
    argv : list of str or None, default=None
        Arguments without the program name (``None``: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status of the subcommand (``skperf check``: 0 met, 1 not met,
        3 inconclusive); 2 on a usage error, reported as one line
        ``<prog>: error: ...`` on stderr (an error in the arguments or the
        data before any model is fitted); 141 when stdout is closed early
        (``skperf ... | head``).

    Raises
    ------
    SystemExit
        From argparse: ``--help``, ``--version`` (status 0) and malformed
        arguments (status 2, one line on stderr).
    """
    args = _build_parser().parse_args(argv)
    command = args._subcommand
    try:
        return command.run(args)
    except _CLIError as exc:
        return _print_error(command.PROG, exc)
    except BrokenPipeError:  # `skperf ... | head`
        return _quiet_broken_pipe()
