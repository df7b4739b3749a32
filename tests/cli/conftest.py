"""What the command-line tests share: running ``skperf`` in and out of process."""

import os
import subprocess
import sys

from skperf.cli import main

#: the checkout: a child interpreter imports skperf from here
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_skperf(*args, cwd, warnings=None, timeout=300):
    """``python -m skperf ARGS`` in a fresh interpreter, as a CI step runs it.

    ``warnings`` is the child's ``PYTHONWARNINGS`` (``None``: inherited).
    Returns the :class:`subprocess.CompletedProcess` (text output).
    """
    env = {**os.environ, "MPLBACKEND": "Agg"}
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    if warnings is not None:
        env["PYTHONWARNINGS"] = warnings
    return subprocess.run(
        [sys.executable, "-m", "skperf", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


def call_main(args, capsys):
    """``main(ARGS)`` in process: the code path of the subprocess, no start-up.

    Returns a :class:`subprocess.CompletedProcess` like :func:`run_skperf`
    (argparse's own ``SystemExit`` gives the status too).
    """
    args = [str(a) for a in args]
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out, err)
