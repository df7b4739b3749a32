"""Trainers outside scikit-learn: deep-learning frameworks and truthful seeding.

Three things, each small:

- :data:`FRAMEWORKS` and :func:`detect`: which deep-learning framework an
  estimator uses, found from the module names of the classes in its tree
  (the estimator, its sub-estimators and class-valued parameters such as
  skorch's ``module=MyModule``, and their MROs). Nothing is imported to find
  out: a class from ``torch.`` or ``skorch.`` can exist only when torch is
  installed, so torch is detected when it is used and never required.
- :func:`seed_framework`: seed one framework's global generators (torch:
  ``torch.manual_seed``, every device; TensorFlow / Keras:
  ``tf.random.set_seed``). numpy's and Python's global generators are
  seeded for every fit by :func:`skperf._seeding._apply_seeds`.
- :func:`check_run`: after the fits, say in words when an estimator's init
  is NOT reached by the seeds (its scores differ where the seeds and the
  split are the same), and only then. The check costs no fit: every fit
  records which seeded global generators it drew from
  (:func:`skperf._seeding._globals_used`), and an evaluation that holds the
  split (``vary=["init"]``, or fixed splits) has fits to compare. An
  estimator of code outside scikit-learn with no seed parameter, no seeder
  and no known framework is "unknown" before its fits: it is called
  deterministic only when its fits on the same split gave identical scores,
  reproducible when it drew from a generator skperf seeds, and NOT
  reproducible when its scores differ with nothing seeded reaching it.
"""

from __future__ import annotations

import inspect
import sys
import warnings

import numpy as np

from .exceptions import NotReproducibleWarning, NoVariationWarning
from .utils._warnings import _external_stacklevel

__all__ = ["FRAMEWORKS", "check_run", "detect", "seed_framework"]

# framework -> module-name prefixes of its classes (and of its sklearn wrappers)
FRAMEWORKS = {
    "torch": ("torch.", "skorch."),
    "tensorflow": ("tensorflow.", "keras.", "tf_keras.", "scikeras."),
}

# classes of these packages are known: seeded through their parameters
_KNOWN = ("sklearn.", "skperf.", "numpy.", "scipy.", "builtins")


def _module(cls):
    return (getattr(cls, "__module__", None) or "") + "."


def _tree(estimator):
    """The estimator, the values of its (deep) parameters, and their classes."""
    objs = [estimator]
    if hasattr(estimator, "get_params") and not isinstance(estimator, type):
        try:
            objs.extend(estimator.get_params(deep=True).values())
        except Exception:  # an unusual get_params: the estimator alone
            pass
    return objs


def _classes(estimator):
    """Every class in the estimator's tree: objects' MROs, class-valued
    parameters (``module=MyModule``) and their MROs, functions' modules."""
    seen = {}
    for obj in _tree(estimator):
        if isinstance(obj, type):
            mro = obj.__mro__
        elif inspect.isfunction(obj) or inspect.ismethod(obj):
            mro = (obj,)
        elif obj is None or isinstance(obj, str | bytes | int | float | bool):
            continue
        elif isinstance(obj, list | tuple | dict | np.ndarray):
            continue
        else:
            mro = type(obj).__mro__
        for cls in mro:
            seen[id(cls)] = cls
    return list(seen.values())


def detect(estimator):
    """Frameworks used by ``estimator`` (a sorted tuple, e.g. ``("torch",)``).

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skperf._trainers import detect
    >>> detect(LogisticRegression())
    ()
    """
    found = set()
    for cls in _classes(estimator):
        mod = _module(cls)
        for name, prefixes in FRAMEWORKS.items():
            if mod.startswith(prefixes):
                found.add(name)
    return tuple(sorted(found))


def _outside_libraries(estimator):
    """Whether the tree holds code outside scikit-learn/skperf/numpy/scipy
    (a user's class or function, or a third-party estimator)."""
    for cls in _classes(estimator):
        mod = _module(cls)
        if mod == "builtins." or mod.startswith(_KNOWN):
            continue
        if mod.startswith(("abc.", "typing.", "collections.", "functools.")):
            continue
        return True
    return False


def seed_framework(name, seed):
    """Seed the global generators of framework ``name`` with ``seed``."""
    if name == "torch":
        import torch

        torch.manual_seed(int(seed))  # CPU and every CUDA device
    elif name == "tensorflow":
        tf = sys.modules.get("tensorflow")
        if tf is None:
            import tensorflow as tf
        tf.random.set_seed(int(seed))


def init_kind(estimator, plan, seeder):
    """How the init seed reaches ``estimator`` (set on ``plan``).

    ``"seeder"`` (the user's seeder), ``"framework"`` (torch, TensorFlow:
    their global generators are seeded), ``"params"`` (a seed parameter it
    uses), ``"unknown"`` (code outside scikit-learn with none of these: told
    after the fits, :func:`check_run`) or ``"none"`` (scikit-learn code that
    uses no seed: deterministic).
    """
    frameworks = detect(estimator)
    if seeder is not None:
        kind = "seeder"
    elif frameworks:
        kind = "framework"
    elif plan.init_random:
        kind = "params"
    elif _outside_libraries(estimator):
        kind = "unknown"
    else:
        kind = "none"
    return kind, frameworks


def seeding(plan, seeder):
    """The :class:`skperf._seeding._Seeding` of an evaluation's fits."""
    from ._seeding import _Seeding

    keyed = plan.init_kind in ("seeder", "framework", "unknown") or (
        plan.init_kind == "params" and plan.outside
    )
    return _Seeding(seeder=seeder, frameworks=plan.frameworks, keyed=keyed)


# ---------------------------------------------------------------------------
# after the fits
_HOW_TO_FIX = (
    "To fix it, pass seeder=, a function seeder(estimator, seed) that skperf "
    "calls in the worker right before each fit with that fit's init seed and "
    "that seeds every generator the estimator draws from (e.g. "
    "torch.manual_seed(seed), or estimator.set_params(...)); or give the "
    "estimator a seed parameter (e.g. a subclass that seeds its generators "
    "from self.seed in fit, or in initialize() for a skorch net)."
)


def _scores_of(out):
    test = out.get("test") or {}
    return tuple(float(v) for _, v in sorted(test.items()))


def _groups(job, keys):
    """Fits (with their scores) grouped by the values of ``keys``."""
    groups = {}
    for r, f, out in job.outputs:
        if out is None or out.get("error") is not None or not out.get("test"):
            continue
        vals = {
            "split": job.split_ids[r][f],
            "init": int(job.seeds["init"][r]),
            "search": int(job.seeds["search"][r]),
        }
        groups.setdefault(tuple(vals[k] for k in keys), []).append(
            (vals["init"], _scores_of(out))
        )
    return groups


def _differing(groups, *, across_init):
    """A pair of differing scores within a group, or ``None``."""
    for fits in groups.values():
        if across_init and len({s for s, _ in fits}) < 2:
            continue
        first = fits[0][1]
        for _, scores in fits[1:]:
            if scores != first:
                return first, scores
    return None


def _comparable(groups):
    """Number of fits in groups holding at least two init seeds."""
    return sum(len(f) for f in groups.values() if len({s for s, _ in f}) >= 2)


def check_run(job):
    """Tell, after the fits of one evaluation, what its seeds reached.

    Sets ``job.init_verdict``: ``"reproducible"``, ``"deterministic"``,
    ``"not seeded"``, ``"unchecked"`` (an "unknown" estimator that drew from
    no seeded generator, with no fits to compare) or ``None`` (seeded
    through its parameters, a seeder or a framework). Warns
    :class:`~skperf.exceptions.NotReproducibleWarning` for ``"not seeded"``
    (and removes the fits from the cache, which cannot replay them
    truthfully), and the deferred ``NoVariationWarning`` of an "unknown"
    estimator found deterministic.
    """
    from ._vary import _no_variation
    from .utils._naming import _estimator_name

    plan = job.plan
    spec = job.spec
    name = _estimator_name(spec.estimator)
    used = sorted(
        {g for _, _, o in job.outputs if o is not None for g in o.get("rng_used", ())}
    )
    verdict, evidence = None, None
    # the same seeds and split must give the same scores, whatever the kind
    same = _differing(_groups(job, ("split", "init", "search")), across_init=False)
    if same is not None:
        verdict = "not seeded"
        evidence = (
            f"fits with the same split and the same seeds gave different scores "
            f"({same[0][0]:.6g} and {same[1][0]:.6g})"
        )
    elif plan.init_kind == "unknown":
        across = _groups(job, ("split", "search"))
        diff = _differing(across, across_init=True)
        if used:
            verdict = "reproducible"
        elif diff is not None:
            verdict = "not seeded"
            evidence = (
                "it has no seed parameter and drew from no generator that skperf "
                "seeds (numpy's and Python's global ones, torch), yet its fits on "
                f"the same split gave different scores ({diff[0][0]:.6g} and "
                f"{diff[1][0]:.6g})"
            )
        elif _comparable(across):
            verdict = "deterministic"
        else:
            verdict = "unchecked"  # no seeded generator used, nothing to compare
    job.init_verdict = verdict
    if verdict == "not seeded":
        cache = ""
        if job.memory is not None:
            from . import _cache

            n = _cache.forget(job)
            cache = (
                f" memory=: its {n} fits were removed from the cache, which "
                "cannot replay them truthfully (a rerun fits them anew)."
            )
        warnings.warn(
            f"{name}: its initialization is not seeded: {evidence}. Its scores "
            "change from run to run under the same random_state and differ "
            "between n_jobs settings and joblib backends, and `vary` cannot hold "
            "or re-seed its init: that noise is in every score, whatever `vary` "
            f"says.{cache} {_HOW_TO_FIX}",
            NotReproducibleWarning,
            stacklevel=_external_stacklevel(),
        )
    deferred = getattr(plan, "deferred", None)
    if (
        verdict in ("deterministic", "unchecked")
        and deferred is not None
        and spec.n_repeats > 1
    ):
        split_random, varied, explicit = deferred
        plan.init_kind = "none"  # now known: the init seed reaches no fit
        n = len({int(s) for s in job.seeds["init"]})
        why = (
            f"and gave identical scores on the same split with {n} init seeds "
            "(deterministic with these settings)"
            if verdict == "deterministic"
            else "and drew from no generator that skperf seeds, so the init seed "
            "does not reach its fits (deterministic, unless it draws from a "
            "generator skperf does not seed: pass seeder= then)"
        )
        msgs = _no_variation(plan, split_random, varied, explicit)
        msgs = [
            m.replace("(with these settings it is deterministic)", why) for m in msgs
        ]
        plan.init_kind = "unknown"
        if msgs:
            warnings.warn(
                f"{type(spec.estimator).__name__}: nothing to vary for "
                + "; ".join(msgs)
                + ".",
                NoVariationWarning,
                stacklevel=_external_stacklevel(),
            )
    return verdict
