"""Out-of-bootstrap cross-validators (Bouthillier et al. 2021, App. B).

A training set is drawn *with replacement* from the data (duplicates are
kept: that is the bootstrap); the test set is made of the rows that were never
drawn (out-of-bag), optionally subsampled without replacement. The stratified
variant draws within each class (Bouthillier et al., App. D.1); the group
variant draws whole groups.
"""

from __future__ import annotations

import numbers
from math import ceil, floor

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import check_random_state
from sklearn.utils.validation import column_or_1d

from ..utils._sklearn_compat import GroupsConsumerMixin, _num_samples

__all__ = ["GroupOutOfBootstrap", "OutOfBootstrap", "StratifiedOutOfBootstrap"]

# Number of fresh draws tried for one split before giving up: a draw is
# rejected when its out-of-bag set is empty, too small for ``test_size`` or
# (stratified) holds a single class.
_MAX_ATTEMPTS = 100


def _check_size(value, name, owner):
    """Hand-written check (of a size that is not None) in scikit-learn's format."""
    ok = False
    if isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_):
        ok = value >= 1
    elif isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_):
        ok = 0.0 < value < 1.0
    if not ok:
        raise ValueError(
            f"The '{name}' parameter of {owner} must be None, an int in the range "
            f"[1, inf) or a float in the range (0.0, 1.0). Got {value!r} instead."
        )


def _check_labels(values, name, n, owner):
    """1-D labels (``y`` or ``groups``), one per sample, required."""
    if values is None:
        raise ValueError(f"{owner}.split requires `{name}`; got None.")
    values = column_or_1d(np.asarray(values), warn=False)
    if values.shape[0] != n:
        raise ValueError(
            f"`{name}` must have one label per sample ({n}); got {values.shape[0]}."
        )
    return values


def _draw_units(n_units, n_train, n_test, rng):
    """Bootstrap draw of units (rows or groups) and its out-of-bag units.

    Returns ``(drawn, out_of_bag)``, or ``None`` when the out-of-bag set is
    empty or smaller than ``n_test`` (then the caller redraws).
    """
    drawn = rng.randint(0, n_units, size=n_train)
    out = np.flatnonzero(np.bincount(drawn, minlength=n_units) == 0)
    if out.size == 0 or (n_test is not None and out.size < n_test):
        return None
    if n_test is not None:
        out = rng.choice(out, size=n_test, replace=False)
    return drawn, out


def _resolve(value, n, *, round_up):
    """Absolute count from an int or a fraction of ``n`` (``value`` not None)."""
    if isinstance(value, numbers.Integral):
        return int(value)
    count = ceil(value * n) if round_up else floor(value * n)
    return max(int(count), 1)


def _ranges(starts, lengths):
    """Concatenation of ``arange(s, s + l)`` for all pairs, without a Python loop."""
    total = int(lengths.sum())
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return offsets + np.arange(total)


def _allocate(total, counts):
    """Split ``total`` proportionally to ``counts`` (largest remainders)."""
    share = total * counts / counts.sum()
    out = np.floor(share).astype(np.intp)
    rest = int(total - out.sum())
    if rest > 0:
        # ties broken by class order: deterministic, independent of the RNG
        order = np.argsort(-(share - out), kind="stable")
        out[order[:rest]] += 1
    return out


class OutOfBootstrap(BaseCrossValidator):
    """Out-of-bootstrap cross-validator.

    Each split draws a training set of ``train_size`` rows *with
    replacement* (duplicates are kept: the training indices may repeat) and
    uses the rows never drawn (out-of-bag) as test set, optionally subsampled
    without replacement to ``test_size`` rows. Test and training rows never
    overlap. Unlike K-fold, the splits are independent draws, so any number
    of them can be generated.

    Parameters
    ----------
    n_splits : int, default=10
        Number of splits (independent bootstrap draws).
    train_size : int, float or None, default=None
        Number of training draws (with replacement). An int is an absolute
        count, a float in (0, 1) a fraction of ``n_samples`` (rounded down,
        at least 1). ``None`` draws ``n_samples`` rows, the classical
        bootstrap.
    test_size : int, float or None, default=None
        Size of the test set, sampled without replacement from the
        out-of-bag rows. An int is an absolute count, a float in (0, 1) a
        fraction of ``n_samples`` (rounded up). ``None`` uses all out-of-bag
        rows (on average a fraction ``(1 - 1/n)^n ≈ 0.368`` of the data when
        ``train_size=None``).
    random_state : int, RandomState instance or None, default=None
        Controls the draws. An int gives the same splits at every call of
        :meth:`split`; ``None`` gives fresh splits.

    Notes
    -----
    The procedure of Bouthillier et al. (2021), App. B, after Hothorn et
    al. (2005): the training set is a bootstrap replicate of the data and the
    test set is its complement, so the spread of the test scores over splits
    measures the variance due to data sampling. A draw whose out-of-bag set
    is empty, or smaller than ``test_size``, is redrawn (at most 100 times
    per split; then a ``ValueError`` says that the data are too small).

    With an int ``random_state`` and ``n_splits=1`` the single split depends
    only on the seed and ``n_samples``.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", MLSys 2021, App. B. Raschka, "Machine Learning Q and AI",
    ch. 25 (out-of-bag bootstrap).

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.model_selection import OutOfBootstrap
    >>> X = np.arange(10).reshape(-1, 1)
    >>> cv = OutOfBootstrap(n_splits=2, random_state=0)
    >>> for train, test in cv.split(X):
    ...     print(np.sort(train), test)
    [0 2 3 3 3 4 5 5 7 9] [1 6 8]
    [1 1 6 6 7 7 7 8 8 8] [0 2 3 4 5 9]
    """

    def __init__(
        self, n_splits=10, *, train_size=None, test_size=None, random_state=None
    ):
        self.n_splits = n_splits
        self.train_size = train_size
        self.test_size = test_size
        self.random_state = random_state
        self._validate_params()

    def _validate_params(self):
        owner = type(self).__name__
        n_splits = self.n_splits
        if (
            not isinstance(n_splits, numbers.Integral)
            or isinstance(n_splits, bool | np.bool_)
            or n_splits < 1
        ):
            raise ValueError(
                f"The 'n_splits' parameter of {owner} must be an int in the range "
                f"[1, inf). Got {n_splits!r} instead."
            )
        for name in ("train_size", "test_size"):
            if getattr(self, name) is not None:
                _check_size(getattr(self, name), name, owner)

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of splits.

        Parameters
        ----------
        X, y, groups : object
            Ignored, present for API compatibility.

        Returns
        -------
        n_splits : int
            The ``n_splits`` parameter.
        """
        return int(self.n_splits)

    def _splits_per_seed(self, seeds, X, y=None, groups=None):
        """``{seed: list of splits}``: ``list(split(...))`` with each int seed.

        The same splits as ``random_state=seed`` (``RandomState(seed)`` and
        ``RandomState().seed(seed)`` give the same stream), but the data are
        checked once and ONE ``RandomState`` is reseeded: building a
        ``RandomState`` costs ~0.1 ms, more than drawing a split of a few
        hundred rows (``benchmarks/bench_evaluator.py``). Used by the
        evaluator, which draws one split set per repeat.
        """
        self._validate_params()
        state = self._prepare(X, y, groups)
        rng = np.random.RandomState()
        out = {}
        for seed in seeds:
            seed = int(seed)
            if seed in out:
                continue
            rng.seed(seed)
            splits = []
            for _ in range(self.n_splits):
                for _attempt in range(_MAX_ATTEMPTS):
                    drawn = self._draw(state, rng)
                    if drawn is not None:
                        splits.append(drawn)
                        break
                else:
                    raise ValueError(self._failure_message(state))
            out[seed] = splits
        return out

    def split(self, X, y=None, groups=None):
        """Generate indices to split data into training and test set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Data; only its length is used.
        y : array-like of shape (n_samples,), default=None
            Target (required by the stratified variant only).
        groups : array-like of shape (n_samples,), default=None
            Group labels (required by the group variant only).

        Yields
        ------
        train : ndarray
            Training indices, drawn with replacement (may repeat).
        test : ndarray
            Sorted out-of-bag test indices, disjoint from ``train``.
        """
        self._validate_params()
        rng = check_random_state(self.random_state)
        state = self._prepare(X, y, groups)
        for _ in range(self.n_splits):
            for _attempt in range(_MAX_ATTEMPTS):
                out = self._draw(state, rng)
                if out is not None:
                    yield out
                    break
            else:
                raise ValueError(self._failure_message(state))

    # -- plain bootstrap -------------------------------------------------
    def _sizes(self, n, unit="n_samples"):
        n_train, n_test = n, None  # default: n draws, every out-of-bag row
        if self.train_size is not None:
            n_train = _resolve(self.train_size, n, round_up=False)
        if self.test_size is not None:
            n_test = _resolve(self.test_size, n, round_up=True)
        if n_test is not None and n_test >= n:
            raise ValueError(
                f"test_size={self.test_size!r} gives {n_test} test rows, but the test "
                f"set must leave room for training: it must be smaller than "
                f"{unit}={n}."
            )
        return n_train, n_test

    def _prepare(self, X, y, groups):
        n = _num_samples(X)
        if n < 2:
            raise ValueError(
                f"{type(self).__name__} needs at least 2 samples; got n_samples={n}."
            )
        n_train, n_test = self._sizes(n)
        return {"n": n, "n_train": n_train, "n_test": n_test}

    def _draw(self, state, rng):
        out = _draw_units(state["n"], state["n_train"], state["n_test"], rng)
        if out is None:
            return None
        train, oob = out
        return train, np.sort(oob)

    def _failure_message(self, state):
        need = (
            "a non-empty"
            if state["n_test"] is None
            else f"{state['n_test']} rows in the"
        )
        return (
            f"n_samples={state['n']} is too small for {type(self).__name__} with "
            f"train_size={self.train_size!r}, test_size={self.test_size!r}: "
            f"{_MAX_ATTEMPTS} bootstrap draws in a row left no {need} "
            "out-of-bag test set. Use more samples or a smaller train_size/test_size."
        )


class StratifiedOutOfBootstrap(OutOfBootstrap):
    """Stratified out-of-bootstrap cross-validator.

    As :class:`OutOfBootstrap`, but the training rows are drawn with
    replacement *within each class*, so every training set keeps the class
    counts of the data (or, with ``train_size``, counts proportional to
    them). The test set holds the out-of-bag rows; with ``test_size`` it is
    subsampled without replacement within each class, again proportionally
    to the class counts.

    Parameters
    ----------
    n_splits : int, default=10
        Number of splits.
    train_size : int, float or None, default=None
        Total number of training draws, shared out proportionally to the
        class counts (largest remainders, at least one draw per class). A
        float in (0, 1) is a fraction of ``n_samples``. ``None`` draws each
        class as often as it occurs.
    test_size : int, float or None, default=None
        Total test size, shared out proportionally to the class counts and
        sampled without replacement from each class's out-of-bag rows.
        ``None`` uses all out-of-bag rows.
    random_state : int, RandomState instance or None, default=None
        Controls the draws; an int gives the same splits at every call.

    Notes
    -----
    The stratified bootstrap of Bouthillier et al. (2021), App. D.1. A draw
    whose test set is empty, holds a single class, or is too small for the
    per-class test sizes is redrawn (at most 100 times per split, then a
    ``ValueError`` is raised). Every class needs at least 2 members.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", MLSys 2021, App. B and App. D.1.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.model_selection import StratifiedOutOfBootstrap
    >>> X = np.zeros((8, 1))
    >>> y = np.array([0, 0, 0, 0, 0, 0, 1, 1])
    >>> cv = StratifiedOutOfBootstrap(n_splits=3, random_state=0)
    >>> for train, test in cv.split(X, y):
    ...     print(np.bincount(y[train]), np.bincount(y[test], minlength=2))
    [6 2] [3 1]
    [6 2] [2 1]
    [6 2] [2 1]
    """

    def split(self, X, y=None, groups=None):
        """Generate indices to split data into training and test set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Data; only its length is used.
        y : array-like of shape (n_samples,)
            Class labels used for stratification.
        groups : object
            Ignored.

        Yields
        ------
        train : ndarray
            Training indices, drawn with replacement within each class.
        test : ndarray
            Sorted out-of-bag test indices, disjoint from ``train``.
        """
        yield from super().split(X, y, groups)

    def _prepare(self, X, y, groups):
        owner = type(self).__name__
        n = _num_samples(X)
        y = _check_labels(y, "y", n, owner)
        classes, y_idx, counts = np.unique(y, return_inverse=True, return_counts=True)
        if classes.size < 2:
            raise ValueError(
                f"{owner} needs at least 2 classes in `y`; got {classes.size}."
            )
        if counts.min() < 2:
            raise ValueError(
                f"{owner} needs at least 2 members in every class so that a class "
                f"can appear in both training and test sets; the least populated "
                f"class, {classes[np.argmin(counts)].item()!r}, has {counts.min()}."
            )
        n_train, n_test = self._sizes(n)
        k = classes.size
        if self.train_size is None:
            train_k = counts.copy()
        else:
            if n_train < k:
                raise ValueError(
                    f"train_size={self.train_size!r} gives {n_train} training draws, "
                    f"fewer than the number of classes ({k})."
                )
            train_k = _allocate(n_train - k, counts) + 1
        test_k = None if n_test is None else _allocate(n_test, counts)
        if test_k is not None and np.count_nonzero(test_k) < 2:
            raise ValueError(
                f"test_size={self.test_size!r} gives {n_test} test rows, shared "
                f"out as {test_k.tolist()} over the classes: a stratified test set "
                "needs at least 2 classes. Use a larger test_size."
            )
        order = np.argsort(y_idx, kind="stable")
        starts = np.r_[0, np.cumsum(counts)[:-1]]
        return {
            "n": n,
            "n_test": n_test,
            "y_idx": y_idx,
            "counts": counts,
            "order": order,
            "starts": starts,
            "train_k": train_k,
            "test_k": test_k,
            "train_class": np.repeat(np.arange(k), train_k),
            "k": k,
        }

    def _draw(self, state, rng):
        cls = state["train_class"]
        counts, starts, order = state["counts"], state["starts"], state["order"]
        offsets = np.floor(rng.random_sample(cls.size) * counts[cls]).astype(np.intp)
        train = order[starts[cls] + offsets]
        rng.shuffle(train)  # classes interleaved, as for order-sensitive learners
        oob = np.flatnonzero(np.bincount(train, minlength=state["n"]) == 0)
        oob_class = state["y_idx"][oob]
        oob_counts = np.bincount(oob_class, minlength=state["k"])
        test_k = state["test_k"]
        if test_k is None:
            if np.count_nonzero(oob_counts) < 2:
                return None
            return train, oob
        if np.any(oob_counts < test_k) or np.count_nonzero(test_k) < 2:
            return None
        # per-class sampling without replacement: random keys, sort within
        # class, keep the first test_k[c] of each class
        perm = np.lexsort((rng.random_sample(oob.size), oob_class))
        oob, oob_class = oob[perm], oob_class[perm]
        first = np.r_[0, np.cumsum(oob_counts)[:-1]]
        rank = np.arange(oob.size) - first[oob_class]
        return train, np.sort(oob[rank < test_k[oob_class]])

    def _failure_message(self, state):
        return (
            f"n_samples={state['n']} (class counts {state['counts'].tolist()}) is too "
            f"small for {type(self).__name__} with train_size={self.train_size!r}, "
            f"test_size={self.test_size!r}: {_MAX_ATTEMPTS} bootstrap draws in a row "
            "gave an out-of-bag test set that was empty, held a single class or was "
            "smaller than the per-class test sizes. Use more samples or a smaller "
            "train_size/test_size."
        )


class GroupOutOfBootstrap(GroupsConsumerMixin, OutOfBootstrap):
    """Group out-of-bootstrap cross-validator.

    Whole groups are drawn with replacement: the training set holds every
    row of each drawn group, repeated as often as the group was drawn; the
    test set holds the rows of the groups never drawn, so no group is in
    both sets.

    Parameters
    ----------
    n_splits : int, default=10
        Number of splits.
    train_size : int, float or None, default=None
        Number of *groups* drawn with replacement; a float in (0, 1) is a
        fraction of the number of groups. ``None`` draws as many groups as
        there are.
    test_size : int, float or None, default=None
        Number of *groups* in the test set, sampled without replacement from
        the out-of-bag groups; a float in (0, 1) is a fraction of the number
        of groups. ``None`` uses all out-of-bag groups.
    random_state : int, RandomState instance or None, default=None
        Controls the draws; an int gives the same splits at every call.

    Notes
    -----
    The cluster bootstrap applied to out-of-bootstrap splits (Bouthillier et
    al. 2021, App. B): with dependent rows (patients, sessions ...) the
    groups, not the rows, are the independent units. Sizes count groups, not
    rows. Needs at least 2 groups; a draw with no out-of-bag group is
    redrawn (at most 100 times per split).

    Like scikit-learn's group splitters, it requests ``groups`` for metadata
    routing, so ``cross_validate(..., params={"groups": g})`` and
    ``GridSearchCV(cv=GroupOutOfBootstrap()).fit(X, y, groups=g)`` work with
    ``sklearn.set_config(enable_metadata_routing=True)``.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", MLSys 2021, App. B.

    Examples
    --------
    >>> import numpy as np
    >>> from skperf.model_selection import GroupOutOfBootstrap
    >>> X = np.zeros((8, 1))
    >>> groups = np.array([0, 0, 1, 1, 2, 2, 3, 3])
    >>> cv = GroupOutOfBootstrap(n_splits=2, random_state=0)
    >>> for train, test in cv.split(X, groups=groups):
    ...     print(groups[train], groups[test])
    [0 0 3 3 1 1 0 0] [2 2]
    [3 3 3 3 3 3 3 3] [0 0 1 1 2 2]
    """

    def split(self, X, y=None, groups=None):
        """Generate indices to split data into training and test set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Data; only its length is used.
        y : object
            Ignored.
        groups : array-like of shape (n_samples,)
            Group labels; rows of one group always land on the same side.

        Yields
        ------
        train : ndarray
            Training indices (all rows of the drawn groups, with repeats).
        test : ndarray
            Sorted indices of the rows of out-of-bag groups.
        """
        yield from super().split(X, y, groups)

    def _prepare(self, X, y, groups):
        owner = type(self).__name__
        n = _num_samples(X)
        groups = _check_labels(groups, "groups", n, owner)
        _, g_idx, sizes = np.unique(groups, return_inverse=True, return_counts=True)
        n_groups = sizes.size
        if n_groups < 2:
            raise ValueError(f"{owner} needs at least 2 groups; got {n_groups}.")
        n_train, n_test = self._sizes(n_groups, unit="n_groups")
        return {
            "n": n,
            "n_groups": n_groups,
            "n_train": n_train,
            "n_test": n_test,
            "g_idx": g_idx,
            "sizes": sizes,
            "order": np.argsort(g_idx, kind="stable"),
            "starts": np.r_[0, np.cumsum(sizes)[:-1]],
        }

    def _draw(self, state, rng):
        n_groups = state["n_groups"]
        out = _draw_units(n_groups, state["n_train"], state["n_test"], rng)
        if out is None:
            return None
        drawn, out_groups = out
        train = state["order"][_ranges(state["starts"][drawn], state["sizes"][drawn])]
        is_test = np.zeros(n_groups, dtype=bool)
        is_test[out_groups] = True
        return train, np.flatnonzero(is_test[state["g_idx"]])

    def _failure_message(self, state):
        return (
            f"n_groups={state['n_groups']} is too small for {type(self).__name__} "
            f"with train_size={self.train_size!r}, test_size={self.test_size!r}: "
            f"{_MAX_ATTEMPTS} bootstrap draws of groups in a row left no out-of-bag "
            "group for the test set. Use more groups or a smaller train_size/test_size."
        )
