"""One joblib ``Parallel`` call for any backend: :func:`run`.

Both fitting engines dispatch their fits here. Results come back as fits
finish (``return_as="generator_unordered"``, or ``"generator"`` in task
order) where the active joblib backend can; a backend that cannot (ray's:
``supports_return_generator = False``) runs the same calls with
``return_as="list"``, which changes when results arrive, never what they are
(every seed is drawn before dispatch, and every result carries its task).
The caller's global generator states (numpy, random, torch) are restored
after the call, since under ``n_jobs=1`` the fits run, and seed the global
generators, in the calling process (:mod:`skperf.model_selection._seeding`).
"""

from __future__ import annotations

from sklearn.utils.parallel import Parallel

from ._seeding import _kept_global_state

__all__ = ["run"]


def run(calls, n_jobs=None, *, verbose=0, ordered=False):
    """Run the ``delayed`` ``calls``; yield their results.

    Parameters
    ----------
    calls : iterable of delayed calls
        The tasks.
    n_jobs : int or None, default=None
        Number of joblib workers (``None``: 1, or the active
        ``joblib.parallel_config``).
    verbose : int, default=0
        Verbosity of ``Parallel``.
    ordered : bool, default=False
        Yield results in task order; else as they finish (each result must
        then identify its task). A backend without generator returns yields
        them in task order, once all have finished.

    Yields
    ------
    result
        The return value of each call.

    Examples
    --------
    >>> from sklearn.utils.parallel import delayed
    >>> from skperf.model_selection._parallel import run
    >>> list(run((delayed(abs)(-i) for i in range(3)), ordered=True))
    [0, 1, 2]
    """
    return_as = "generator" if ordered else "generator_unordered"
    try:
        parallel = Parallel(n_jobs=n_jobs, verbose=verbose, return_as=return_as)
    except ValueError as exc:
        # joblib: "Backend ... does not support return_as=generator..."
        if "return_as" not in str(exc):
            raise
        parallel = Parallel(n_jobs=n_jobs, verbose=verbose, return_as="list")
    with _kept_global_state():
        yield from parallel(calls)
