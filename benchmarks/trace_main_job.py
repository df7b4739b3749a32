"""Functions, files and file switches of skperf on the main job's path.

Issue 27 ("One engine"): the main job, ``skperf report`` on breast cancer
with the default models, passed through 295 functions in 33 files with 401
switches between files, and computed the seed plan twice. This script runs
the main job's CLI in-process (``skperf report --random-state 0``, writing
the HTML to a temporary folder; once before tracing so that lazy imports and
first-call caches do not count) and counts, with :func:`sys.setprofile`:

* **functions**: distinct named skperf functions entered (``(file, name)``;
  comprehensions, lambdas and module bodies are not counted);
* **files**: the files they sit in;
* **switches**: distinct caller -> callee edges between skperf functions in
  different files (the hand-offs a reader follows across files);
* **seed plans**: calls of ``spawn_seeds`` (the seed plan of a design).

Only skperf frames count; the fits themselves are scikit-learn's.

The issue's 295 functions and 401 switches were counted another way; this
script on the commit the issue was filed on (c60f3cb) counts 272 functions
in 30 files, 183 switches and 3 seed plans (recorded at the end of
``results/trace_main_job.txt``).

Run: ``python benchmarks/trace_main_job.py [-v]`` (about a minute).
"""

from __future__ import annotations

import collections
import contextlib
import io
import os
import sys
import tempfile
import warnings

_ANONYMOUS = {
    "<listcomp>",
    "<genexpr>",
    "<dictcomp>",
    "<setcomp>",
    "<lambda>",
    "<module>",
}


def _job(out):
    from skperf.cli import main

    with (
        warnings.catch_warnings(),
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
    ):
        warnings.simplefilter("ignore")
        main(["report", "--random-state", "0", "--n-jobs", "1", "--out", out])


def trace():
    """``(functions Counter, edges set)`` of one main job."""
    import skperf

    root = os.path.dirname(skperf.__file__)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.html")
        _job(out)
        seen = collections.Counter()
        edges = set()

        def named(code):
            return code.co_filename.startswith(root) and code.co_name not in _ANONYMOUS

        def profile(frame, event, arg):
            if event != "call" or not named(frame.f_code):
                return
            key = (
                os.path.relpath(frame.f_code.co_filename, root),
                frame.f_code.co_name,
            )
            seen[key] += 1
            caller = frame.f_back
            while caller is not None and not named(caller.f_code):
                caller = caller.f_back  # through comprehensions and sklearn
            if caller is not None:
                src = (
                    os.path.relpath(caller.f_code.co_filename, root),
                    caller.f_code.co_name,
                )
                if src[0] != key[0]:
                    edges.add((src, key))

        sys.setprofile(profile)
        try:
            _job(out)
        finally:
            sys.setprofile(None)
    return seen, edges


def main(argv):
    from trace_compare import print_table

    seen, edges = trace()
    plans = sum(k for (f, fn), k in seen.items() if fn == "spawn_seeds")
    print(f"{len(edges)} switches between files; seed plans computed: {plans}")
    print_table(seen, verbose="-v" in argv)


if __name__ == "__main__":
    main(sys.argv[1:])
