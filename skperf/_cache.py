"""Cache of fit outcomes: ``RepeatedEvaluator(memory=...)``.

Every fit's outcome (scores, times, error, and predictions when kept) is
stored with joblib's store backend (the storage of :class:`joblib.Memory`)
under a :func:`joblib.hash` (sha1) key of everything that determines it:

- the skperf version and the source of the per-fit code;
- the estimator's parameters (``joblib.hash(clone(estimator))``);
- the data (``X``, ``y`` and the fit parameters), hashed ONCE per ``fit``
  call, not per fit;
- the scorers, whether ``error_score="raise"``, ``return_train_score``
  and ``return_predictions``;
- the fit's seed parameters (the ints given to every ``random_state``) and
  its split (the fingerprint of its train and test indices that the
  evaluator computes once per split, ``results_["split_id"]``).

A fit whose key is in the store is loaded in the calling process and never
dispatched; the others run as usual, and each worker stores its fit's
outcome as soon as that fit finishes (the store writes atomically), so an
interrupted run keeps every finished fit. The cache assumes an estimator is
deterministic given its seeds and data.
"""

from __future__ import annotations

import functools
import inspect
import os

import joblib
from sklearn.base import clone

__all__ = ["check_memory", "fit_keys"]

# folder of the fit outcomes inside the joblib store
_FOLDER = "skperf_fits"


def check_memory(memory):
    """A :class:`joblib.Memory` with a store, or ``None`` (no caching).

    Parameters
    ----------
    memory : None, str, os.PathLike or joblib.Memory
        ``None`` (or a Memory with ``location=None``) disables caching; a
        folder path becomes ``joblib.Memory(path, verbose=0)``.

    Returns
    -------
    joblib.Memory or None
    """
    if memory is None:
        return None
    if isinstance(memory, str | os.PathLike):
        memory = joblib.Memory(os.fspath(memory), verbose=0)
    if not isinstance(memory, joblib.Memory):
        raise TypeError(
            "`memory` must be None, a folder path or a joblib.Memory; got "
            f"{type(memory).__name__}."
        )
    if memory.store_backend is None:
        return None
    return memory


def _hash(obj):
    # sha1: hardware-accelerated on current CPUs, ~2.5x faster than md5 on
    # large arrays (benchmarks/bench_cache.py)
    return joblib.hash(obj, hash_name="sha1")


def data_key(X, y, params):
    """Hash of the data of one ``fit`` call (computed once per call)."""
    return _hash((X, y, params))


@functools.cache
def _code_key(funcs):
    """Hash of the code that computes one fit's outcome (``funcs``: a tuple).

    The skperf version alone does not change between development commits;
    a change to how a fit is fitted, scored or predicted must not load
    outcomes computed by the old code.
    """
    try:
        return _hash([inspect.getsource(f) for f in funcs])
    except (OSError, TypeError):  # no source (e.g. a frozen install)
        return _hash([f.__code__.co_code for f in funcs])


def _job_key(job, data, code):
    """Hash of everything of one evaluator that does not change per fit."""
    from . import __version__

    ev = job.ev
    parts = {"estimator": clone(ev.estimator), "scoring": job.scorer}
    for what, obj in parts.items():
        try:
            parts[what] = _hash(obj)
        except Exception as exc:  # PicklingError: a lambda or a local function
            raise TypeError(
                f"memory: the {what} must be picklable to be part of the cache key "
                f"(joblib.hash); {type(exc).__name__}: {str(exc)[:150]}. Define "
                "functions at module level (not as lambdas or inside a function), "
                "or use memory=None."
            ) from None
    return _hash(
        (
            __version__,
            _code_key(code),
            parts["estimator"],
            parts["scoring"],
            data,
            # a number or NaN is filled in when collecting, not in the stored
            # outcome; only "raise" changes what a fit does
            isinstance(ev.error_score, str),
            bool(ev.return_train_score),
            bool(getattr(ev, "return_predictions", False)),
        )
    )


def fit_keys(jobs, tasks, data, code):
    """One key per task (``None`` for tasks of an evaluator without memory).

    ``code`` is the tuple of functions that compute a fit's outcome (passed
    by the evaluator, so this module does not import it): their source is
    part of every key.
    """
    job_keys = [
        _job_key(job, data, code)
        if check_memory(getattr(job.ev, "memory", None))
        else None
        for job in jobs
    ]
    keys = []
    for j, r, f, sp, _, _ in tasks:
        if job_keys[j] is None:
            keys.append(None)
            continue
        # the split by its fingerprint, computed once per split by the job
        split_id = jobs[j].split_ids[r][f]
        keys.append(_hash((job_keys[j], sorted(sp.items()), split_id)))
    return keys


def _call_id(key):
    return [_FOLDER, key]


def lookup(jobs, tasks, keys):
    """``{task index: (memory, key)}`` to store, and ``{task index: outcome}`` loaded."""
    stores, loaded = {}, {}
    memories = [check_memory(getattr(job.ev, "memory", None)) for job in jobs]
    for i, (task, key) in enumerate(zip(tasks, keys, strict=True)):
        if key is None:
            continue
        memory = memories[task[0]]
        backend = memory.store_backend
        if backend.contains_item(_call_id(key)):
            try:
                out = backend.load_item(_call_id(key), verbose=0)
            except Exception:  # a damaged entry: fit anew and overwrite
                pass
            else:
                loaded[i] = {**out, "cached": True}
                continue
        stores[i] = (memory, key)
    return stores, loaded


def store(where, out):
    """Store the outcome of one fit (in the worker, as soon as it finishes)."""
    out = {**out, "cached": False}
    if where is not None:
        memory, key = where
        memory.store_backend.dump_item(_call_id(key), out, verbose=0)
    return out
