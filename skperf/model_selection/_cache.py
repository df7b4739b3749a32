"""Cache of fit outcomes: ``RepeatedEvaluator(memory=...)``.

Every fit's outcome (scores, times, error, and predictions when kept) is
stored with joblib's store backend (the storage of :class:`joblib.Memory`)
under a :func:`joblib.hash` (sha1) key of everything that determines it:

- the skperf version and the source of the per-fit code;
- the estimator's parameters (``joblib.hash(clone(estimator))``, which
  includes its metadata requests, ``set_fit_request``);
- the CODE of every user-defined class in the estimator (the estimator, the
  steps and sub-estimators found by ``get_params(deep=True)``, and each
  class of their MRO that is not from scikit-learn, skperf, numpy, scipy,
  pandas or joblib), of user functions among their parameters (e.g.
  ``FunctionTransformer(func=...)``) and of the scorers' metric functions:
  ``inspect.getsource`` where the source is available, else the bytecode
  and constants of the class's methods (functions defined in a notebook or
  ``python -c``). Editing a custom estimator or scorer therefore fits anew.
  Code the class calls (helpers defined elsewhere) is not part of the key;
  an object with neither source nor bytecode warns that changes to it are
  not detected;
- the metadata-routing switch (``sklearn.get_config()
  ["enable_metadata_routing"]``);
- the data (``X``, ``y`` and the fit parameters), hashed ONCE per ``fit``
  call, not per fit;
- the scorers, whether ``error_score="raise"``, ``return_train_score``
  and ``return_predictions``;
- the fit's seed parameters (the ints given to every ``random_state``) and
  its split (the fingerprint of its train and test indices that the
  evaluator computes once per split, ``results_["split_id"]``);
- the ``seeder`` (its code, and the object where it pickles) and the fit's
  init seed, whenever the init seed can reach the fit other than through
  seed parameters (a seeder, a deep-learning framework, or code outside
  scikit-learn that may draw from a global generator, which skperf seeds
  per fit: :mod:`skperf.model_selection._seeding`).

A fit whose key is in the store is loaded in the calling process and never
dispatched; the others run as usual, and each worker stores its fit's
outcome as soon as that fit finishes (the store writes atomically), so an
interrupted run keeps every finished fit. The cache assumes an estimator is
deterministic given its seeds and data; when its fits show that it is not
(:func:`skperf.model_selection._reproducible.check_run`: different scores under the same seeds),
its fits are removed again (:func:`forget`) and a warning says so.
"""

from __future__ import annotations

import functools
import inspect
import os
import warnings

import joblib
from sklearn import get_config
from sklearn.base import clone

from ..utils._warnings import _external_stacklevel

__all__ = ["check_memory", "fit_keys", "warn_never_reused"]

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


def warn_never_reused(memory, random_state, *, reproduce=None):
    """UserWarning when ``memory`` caches fits that no rerun can load.

    With ``random_state=None`` every run draws fresh splits and seeds, so the
    cache keys never repeat. ``reproduce`` names where the seed of a run can
    be read back, when the result records it. Validates ``memory``
    (:func:`check_memory`).
    """
    if random_state is not None or check_memory(memory) is None:
        return
    hint = f" (e.g. {reproduce})" if reproduce else ""
    warnings.warn(
        "memory= is set but random_state=None draws fresh splits on every run, "
        f"so no cached fit is ever reused; set random_state to an int{hint} to "
        "rerun from the cache.",
        UserWarning,
        stacklevel=_external_stacklevel(),
    )


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


# classes and functions from these packages are keyed by the skperf and
# package versions (joblib.hash pickles them by reference)
_LIBRARIES = ("sklearn", "skperf", "numpy", "scipy", "pandas", "joblib", "builtins")


def _is_user_code(obj):
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] not in _LIBRARIES


def _source_of(obj):
    """Source text of a class or function, else its bytecode (see module doc)."""
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        pass
    funcs = [obj] if hasattr(obj, "__code__") else []
    if isinstance(obj, type):
        for _name, member in sorted(vars(obj).items()):
            member = getattr(member, "__func__", member)  # static/classmethods
            if hasattr(member, "__code__"):
                funcs.append(member)
    if not funcs:
        return None
    return [
        (f.__qualname__, f.__code__.co_code, repr(f.__code__.co_consts)) for f in funcs
    ]


def _user_code(objects):
    """``{qualified name: source}`` of the user-defined code in ``objects``."""
    found = {}
    seen = set()
    for obj in objects:
        targets = []
        if isinstance(obj, type) or inspect.isfunction(obj) or inspect.ismethod(obj):
            targets.append(getattr(obj, "__func__", obj))
        else:
            targets.extend(type(obj).__mro__)
        for t in targets:
            if id(t) in seen or not _is_user_code(t):
                continue
            seen.add(id(t))
            name = f"{t.__module__}.{getattr(t, '__qualname__', repr(t))}"
            src = _source_of(t)
            if src is None:
                warnings.warn(
                    f"memory: {name} has no source or bytecode to key the cache "
                    "on; a change to its code is not detected (clear the cache "
                    "after editing it).",
                    UserWarning,
                    stacklevel=_external_stacklevel(),
                )
            found[name] = src
    return found


def _estimator_objects(estimator):
    """The estimator, its sub-estimators and the callables among its parameters."""
    objs = [estimator]
    if hasattr(estimator, "get_params"):
        for value in estimator.get_params(deep=True).values():
            if hasattr(value, "get_params") or callable(value):
                objs.append(value)
    return objs


def _scorer_objects(scorer):
    """The scorer objects and their metric functions (callables included)."""
    objs = []
    stack = [scorer]
    while stack:
        sc = stack.pop()
        objs.append(sc)
        inner = getattr(sc, "scorer", None)  # the evaluator's _Single wrapper
        if inner is not None:
            stack.append(inner)
        for sub in (getattr(sc, "_scorers", None) or {}).values():
            stack.append(sub)  # _MultimetricScorer
        func = getattr(sc, "_score_func", None)
        if func is not None:
            objs.append(func)
    return objs


def _job_key(job, data, code):
    """Hash of everything of one evaluator that does not change per fit."""
    from .._version import __version__

    spec = job.spec
    parts = {"estimator": clone(spec.estimator), "scoring": job.scorer}
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
            isinstance(spec.error_score, str),
            bool(spec.return_train_score),
            bool(spec.return_predictions),
            # edited user code fits anew (issue 18, item 4)
            _hash(_user_code(_estimator_objects(spec.estimator))),
            _hash(_user_code(_scorer_objects(job.scorer))),
            # toggling routing changes which metadata reach fit and score
            bool(get_config().get("enable_metadata_routing", False)),
            _seeding_key(getattr(job, "seeding", None)),
        )
    )


def _seeding_key(seeding):
    """Hash of the worker-side seeding: the frameworks seeded and the seeder
    (its code, so an edited seeder fits anew, and the object itself where it
    pickles: a ``functools.partial``'s arguments)."""
    if seeding is None or (seeding.seeder is None and not seeding.frameworks):
        return None
    seeder = seeding.seeder
    try:
        obj = _hash(seeder)
    except Exception:  # a lambda or a local function: its code only
        obj = None
    target = getattr(seeder, "func", seeder)  # a functools.partial: its function
    code = None if seeder is None else _hash(_user_code([target]))
    return _hash((seeding.frameworks, obj, code, getattr(seeder, "__qualname__", "")))


def fit_keys(jobs, tasks, data, code):
    """One key per task (``None`` for tasks of an evaluator without memory).

    ``jobs`` are the fitting engine's (:mod:`skperf.model_selection._engine`): ``job.memory``
    is the checked memory (:func:`check_memory`) or ``None``. ``code`` is the
    tuple of functions that compute a fit's outcome (passed by the engine, so
    this module does not import it): their source is part of every key.
    """
    job_keys = [
        None if job.memory is None else _job_key(job, data, code) for job in jobs
    ]
    keys = []
    for j, r, f, sp, _, _ in tasks:
        if job_keys[j] is None:
            keys.append(None)
            continue
        # the split by its fingerprint, computed once per split by the job
        split_id = jobs[j].split_ids[r][f]
        seeding = getattr(jobs[j], "seeding", None)
        # the init seed itself where it reaches the fit through the global
        # generators or a seeder (not only through seed parameters)
        init = int(jobs[j].seeds["init"][r]) if seeding and seeding.keyed else None
        keys.append(_hash((job_keys[j], sorted(sp.items()), split_id, init)))
    return keys


def _call_id(key):
    return [_FOLDER, key]


def lookup(jobs, tasks, keys):
    """``{task index: (memory, key)}`` to store, and ``{task index: outcome}`` loaded."""
    stores, loaded = {}, {}
    for i, (task, key) in enumerate(zip(tasks, keys, strict=True)):
        if key is None:
            continue
        memory = jobs[task[0]].memory
        # kept on the job, so that check_run can forget fits it cannot reproduce
        vars(jobs[task[0]]).setdefault("cache_keys", []).append(key)
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


def forget(job):
    """Remove the cached fits of ``job`` (their outcomes are not reproducible).

    Returns the number of entries removed.
    """
    n = 0
    if job.memory is None:
        return n
    backend = job.memory.store_backend
    for key in getattr(job, "cache_keys", ()):
        if backend.contains_item(_call_id(key)):
            backend.clear_item(_call_id(key))
            n += 1
    return n


def store(where, out):
    """Store the outcome of one fit (in the worker, as soon as it finishes)."""
    out = {**out, "cached": False}
    if where is not None:
        memory, key = where
        memory.store_backend.dump_item(_call_id(key), out, verbose=0)
    return out
