"""After the fits: what the seeds reached, in words (:func:`check_run`).

Say when an estimator's init is NOT reached by the seeds (its scores differ
where the seeds and the split are the same), and only then. The check costs
no fit: every fit records which seeded global generators it drew from
(:func:`skperf.model_selection._seeding._globals_used`), and an evaluation that holds the
split (``vary=["init"]``, or fixed splits) has fits to compare. An estimator
of code outside scikit-learn with no seed parameter, no seeder and no known
framework is "unknown" before its fits (:func:`skperf.model_selection._trainers.init_kind`):
it is called deterministic only when its fits on the same split gave
identical scores, reproducible when it drew from a generator skperf seeds,
and NOT reproducible when its scores differ with nothing seeded reaching it.
Not detected without fits to compare: an "unknown" estimator that draws
from a generator skperf does not seed (fresh OS entropy, a private
generator) under ``vary="all"`` with random splits (the verdict is then
``"unchecked"``).
"""

from __future__ import annotations

import warnings

from ..exceptions import NotReproducibleWarning, NoVariationWarning
from ..utils._naming import _estimator_name
from ..utils._warnings import _external_stacklevel
from . import _cache
from ._vary import _no_variation

__all__ = ["check_run"]


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
