"""SeedSequence tree: a child per repeat, a grandchild per source.

Every seed that an evaluation uses is drawn here, in the calling process,
before any work is dispatched: results are then the same for any ``n_jobs``
and any joblib backend (see the comment in
``sklearn/inspection/_permutation_importance.py``). Child ``i`` of a
:class:`numpy.random.SeedSequence` depends only on the root entropy and
``i``, so more repeats extend the sequence and two evaluations with the same
``random_state`` are paired (Bouthillier et al., App. C.2).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

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
    >>> from skperf._seeding import spawn_seeds
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
