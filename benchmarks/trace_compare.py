"""Functions and files of skperf on the path of ``fit().distribution_.compare()``.

Issue 16 ("One vocabulary"): the end-to-end path

``RepeatedEvaluator(...).fit(X, y).distribution_.compare(other)``

should touch as few of skperf's functions and files as it needs. This script
fits two evaluators (``LogisticRegression`` with ``C=1`` and ``C=0.1`` in a
standardising pipeline, 5 repeats, ``random_state=0``, every other parameter
at its default: ``memory=None``, ``return_predictions=False``,
``progress=False``), compares their distributions, and counts, with
:func:`sys.setprofile`, the distinct named skperf functions that run (a
function is ``(file, name)``; comprehensions, lambdas and module bodies are
not counted) and the files they sit in. The path is run once before it is
traced, so lazy imports and first-call caches do not count.

Counts over time (breast cancer data): 86 functions in 14 files when the
issue was filed, 95 in 15 before the fitting engine moved to
``skperf/model_selection/_engine.py``, 73 in 13 after it (the cache, the kept predictions
and the progress bar are no longer entered when not asked for). The bound is
kept by ``tests/test_layout.py::test_compare_path_stays_short``.

Run: ``python benchmarks/trace_compare.py`` (``-v`` lists every function with
its number of calls).
"""

import collections
import os
import sys

# code objects that are not named functions
_ANONYMOUS = {
    "<listcomp>",
    "<genexpr>",
    "<dictcomp>",
    "<setcomp>",
    "<lambda>",
    "<module>",
}


def trace(X, y, *, n_repeats=5):
    """Run the path on ``X, y`` and return ``{(file, function): calls}``.

    ``file`` is relative to the ``skperf`` package folder.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    import skperf

    root = os.path.dirname(skperf.__file__)

    def run():
        a, b = (
            skperf.RepeatedEvaluator(
                make_pipeline(StandardScaler(), LogisticRegression(C=c)),
                n_repeats=n_repeats,
                random_state=0,
            )
            .fit(X, y)
            .distribution_
            for c in (1.0, 0.1)
        )
        return a.compare(b)

    run()  # imports and caches outside the trace
    seen = collections.Counter()

    def profile(frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(root) and code.co_name not in _ANONYMOUS:
                seen[(os.path.relpath(code.co_filename, root), code.co_name)] += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return dict(seen)


def summary(seen):
    """``(n_functions, n_files, {file: n_functions})``."""
    files = collections.Counter(f for f, _ in seen)
    return len(seen), len(files), dict(files)


def main(argv):
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    print_table(trace(X, y), verbose="-v" in argv)


def print_table(seen, verbose=False):
    """Print the counts of ``seen``: per file, and per function if ``verbose``."""
    n_functions, n_files, files = summary(seen)
    print(f"{n_functions} named functions in {n_files} files")
    for name, k in sorted(files.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{k:4d} {name}")
    if verbose:
        for (f, fn), k in sorted(seen.items()):
            print(f"{f} {fn} {k}")


if __name__ == "__main__":
    main(sys.argv[1:])
