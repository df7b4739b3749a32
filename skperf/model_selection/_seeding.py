"""SeedSequence tree: a child per repeat, a grandchild per source.

Every seed that an evaluation uses is drawn here, in the calling process,
before any work is dispatched: results are then the same for any ``n_jobs``
and any joblib backend (see the comment in
``sklearn/inspection/_permutation_importance.py``). Child ``i`` of a
:class:`numpy.random.SeedSequence` depends only on the root entropy and
``i``, so more repeats extend the sequence and two evaluations with the same
``random_state`` are paired (Bouthillier et al., App. C.2).

The worker side of the init seed is here too: :func:`_apply_seeds` runs in
the worker right before each fit and seeds the GLOBAL generators a trainer
may draw from (numpy's legacy ``np.random``, Python's ``random``, and torch /
TensorFlow when the estimator uses them or they are loaded) with the fit's
init seed, then calls the user's ``seeder(estimator, seed)``. Decision: the
global generators are seeded by default, with no seeder, for every
estimator holding code outside scikit-learn (a user's class, a third-party
or deep-learning estimator) or given a seeder. It costs about 0.1 ms a fit
(seeding, and reading back which generators the fit drew from: measured
0.12 ms on a loaded 2-core machine), and makes an estimator that draws
from ``np.random.*`` (or a torch net) reproducible from ``random_state`` and
identical for any ``n_jobs`` and joblib backend, so that the cache replays
what a fresh run gives. scikit-learn's own estimators draw only from their
``random_state``, which skperf sets: they are left as they are (no cost). The calling process keeps its own generator states: fits that run
in it (``n_jobs=1``) restore them afterwards (:func:`_kept_global_state`).
Under the *threading* backend fits share one process's global generators,
and a trainer drawing from them is not reproducible there.
"""

from __future__ import annotations

import contextlib
import random
import sys
import threading
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from ._trainers import LOADED_AS, seed_framework

__all__ = ["SOURCES", "spawn_seeds"]

SOURCES = ("split", "init", "search")

# Number of 32-bit words drawn from a RandomState/Generator to build the root
# entropy: 128 bits, the size SeedSequence itself draws from the OS.
_N_WORDS = 4


def _root_entropy(random_state):
    """Root entropy (a non-negative Python int) for ``random_state``.

    ``None`` draws fresh OS entropy; an int is used as is; a
    :class:`numpy.random.RandomState` or :class:`numpy.random.Generator`
    gives 128 bits drawn from it (this advances it, as any use of a
    random-state instance does).
    """
    if random_state is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(random_state, Integral | np.integer) and not isinstance(
        random_state, bool
    ):
        if random_state < 0:
            raise ValueError(
                f"`random_state` must be a non-negative int, a RandomState, a "
                f"Generator or None; got {random_state!r}."
            )
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        words = random_state.randint(0, 2**32, size=_N_WORDS, dtype=np.uint64)
    elif isinstance(random_state, np.random.Generator):
        words = random_state.integers(0, 2**32, size=_N_WORDS, dtype=np.uint64)
    else:
        raise TypeError(
            "`random_state` must be None, a non-negative int, a "
            "numpy.random.RandomState or a numpy.random.Generator; got "
            f"{type(random_state).__name__}."
        )
    return sum(int(w) << (32 * k) for k, w in enumerate(words))


def spawn_seeds(random_state, n_repeats):
    """Entropy to record as ``random_state_``, and one seed per (source, repeat).

    Parameters
    ----------
    random_state : int, numpy.random.RandomState, numpy.random.Generator or None
        Root of the seed tree. ``None`` draws fresh entropy from the OS; a
        ``RandomState`` or ``Generator`` gives 128 bits of entropy drawn
        from it.
    n_repeats : int
        Number of repeats.

    Returns
    -------
    entropy : int
        The root entropy; ``spawn_seeds(entropy, n_repeats)`` reproduces
        the seeds.
    seeds : dict of str to ndarray of shape (n_repeats,)
        For each source in ``("split", "init", "search")``, one ``uint32``
        seed per repeat: repeat ``i`` uses child ``i`` of the root
        ``SeedSequence`` and its grandchild ``j`` for source ``j``.

    Notes
    -----
    Seed ``i`` depends only on the entropy and ``i``: repeats ``0..9`` get
    the same seeds whether ``n_repeats`` is 10 or 25, and two evaluations
    with the same ``random_state`` use the same seeds (Bouthillier et al.,
    App. C.1-C.2).

    Examples
    --------
    >>> from skperf.model_selection._seeding import spawn_seeds
    >>> entropy, seeds = spawn_seeds(0, 3)
    >>> entropy
    0
    >>> sorted(seeds)
    ['init', 'search', 'split']
    >>> bool((spawn_seeds(0, 5)[1]["split"][:3] == seeds["split"]).all())
    True
    """
    entropy = _root_entropy(random_state)
    root = np.random.SeedSequence(entropy)
    grand = [child.spawn(len(SOURCES)) for child in root.spawn(int(n_repeats))]
    seeds = {
        src: np.array([g[j].generate_state(1)[0] for g in grand], dtype=np.uint32)
        for j, src in enumerate(SOURCES)
    }
    return entropy, seeds


def _hold(seeds, varied):
    """Seeds with every source not in ``varied`` held at its repeat-0 seed."""
    return {
        src: s.copy() if src in varied else np.full_like(s, s[0])
        for src, s in seeds.items()
    }


def _derive_ints(seed, n):
    """``n`` distinct-stream plain int seeds derived from one ``seed``.

    Used to give each ``random_state`` parameter inside an estimator its own
    int (as ``sklearn.ensemble._base._set_random_states`` does), all
    determined by the per-repeat init seed.
    """
    if n == 0:
        return []
    return [int(v) for v in np.random.SeedSequence(int(seed)).generate_state(n)]


# ---------------------------------------------------------------------------
# the worker side: global generators and the user's seeder
@dataclass(frozen=True)
class _Seeding:
    """What the worker does with a fit's init seed, besides seed parameters.

    Built once per evaluation in the calling process
    (``_Seeding(seeder, plan.frameworks, plan.keyed)``, ``plan`` from
    :func:`skperf.model_selection._vary._plan`) and sent with every fit.

    seeder : callable or None
        The user's ``seeder(estimator, seed)``.
    frameworks : tuple of str
        Frameworks found in the estimator (``"torch"``, ``"tensorflow"``),
        whose global generators are seeded (imported if need be).
    keyed : bool
        Whether the init seed can reach a fit other than through seed
        parameters (a seeder, a framework, or code outside scikit-learn that
        may draw from a global generator): the cache key then holds it.
    """

    seeder: object = None
    frameworks: tuple = ()
    keyed: bool = False


# per thread: the init seed just given to the global generators (and torch's
# state after it), for _globals_used
_LOCAL = threading.local()


def _global_states():
    """The state of every global generator that is loaded."""
    states = {"numpy": np.random.get_state(), "random": random.getstate()}  # noqa: NPY002
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "get_rng_state"):
        states["torch"] = torch.get_rng_state()
    return states


def _apply_seeds(estimator, init_seed, seeding):
    """Worker side, right before a fit: seed the global generators with the
    fit's init seed, then call the user's seeder.

    Only for an evaluation whose init seed can reach a fit other than
    through seed parameters (``seeding.keyed``: a seeder, or code outside
    scikit-learn); an estimator made of scikit-learn code alone is seeded
    through its parameters and left as it is (no cost).

    Parameters
    ----------
    estimator : estimator
        The configured clone about to be fitted (its seed parameters are
        already set, :func:`skperf.model_selection._vary._configure`).
    init_seed : int or None
        The fit's init seed (``results_["init_seed"]``); ``None``: nothing.
    seeding : _Seeding or None
        ``None``: nothing.

    Returns
    -------
    estimator
        ``estimator``, or what the seeder returned when that is an
        estimator (a seeder may return ``estimator.set_params(...)``).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.dummy import DummyClassifier
    >>> from skperf.model_selection._seeding import _Seeding, _apply_seeds, _kept_global_state
    >>> seen = []
    >>> seeding = _Seeding(seeder=lambda est, seed: seen.append(seed), keyed=True)
    >>> with _kept_global_state():
    ...     est = _apply_seeds(DummyClassifier(), 7, seeding)
    ...     draw = np.random.rand()
    >>> seen, draw == np.random.RandomState(7).rand()
    ([7], True)
    """
    if init_seed is None or seeding is None or not seeding.keyed:
        return estimator
    seed = int(init_seed)
    np.random.seed(seed)  # noqa: NPY002 (the global generator, on purpose)
    random.seed(seed)
    loaded = {n for n, mods in LOADED_AS.items() if any(m in sys.modules for m in mods)}
    for name in sorted(set(seeding.frameworks) | loaded):
        seed_framework(name, seed)
    if seeding.seeder is not None:
        out = seeding.seeder(estimator, seed)
        if out is not None and hasattr(out, "fit"):
            estimator = out
    torch = sys.modules.get("torch")
    after = torch.get_rng_state() if hasattr(torch, "get_rng_state") else None
    _LOCAL.seeded = (seed, after)
    return estimator


def _globals_used():
    """The global generators that the fit since :func:`_apply_seeds` drew from
    (a tuple of names; empty when none did or nothing was seeded).

    Right after ``np.random.seed(s)`` numpy's Mersenne Twister holds
    ``key[0] = s`` at position 624, and Python's ``random`` holds
    ``0x80000000`` first at position 624: any draw moves the position or,
    after a multiple of 624 words, rewrites the key.
    """
    seeded = getattr(_LOCAL, "seeded", None)
    if seeded is None:
        return ()
    _LOCAL.seeded = None
    seed, torch_after = seeded
    used = []
    st = np.random.get_state()  # noqa: NPY002
    if st[2] != 624 or st[3] != 0 or int(st[1][0]) != seed:
        used.append("numpy")
    rs = random.getstate()[1:]
    if rs[0][-1] != 624 or rs[0][0] != 0x80000000 or rs[1] is not None:
        used.append("random")
    torch = sys.modules.get("torch")
    if torch_after is not None and not bool(
        (torch.get_rng_state() == torch_after).all()
    ):
        used.append("torch")
    return tuple(used)


@contextlib.contextmanager
def _kept_global_state():
    """Restore the caller's global generator states on exit.

    Fits run in the calling process under ``n_jobs=1`` (and the refit of
    ``estimator_``): the user's ``np.random``, ``random`` and torch states
    are the same after an evaluation as before it.
    """
    saved = _global_states()
    try:
        yield
    finally:
        np.random.set_state(saved["numpy"])  # noqa: NPY002
        random.setstate(saved["random"])
        torch = sys.modules.get("torch")
        if "torch" in saved and torch is not None:
            torch.set_rng_state(saved["torch"])
