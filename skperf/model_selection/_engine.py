"""The fitting engine: every fit of one or more evaluations in one ``Parallel`` call.

Contract of :func:`fit_all`: given evaluation specs (an estimator, its
scorers, cv, number of repeats and sources of variation, root seed,
``error_score``, memory), the data and ``n_jobs``, it draws every seed and
split in the calling process, runs every (spec, repeat, fold) fit in ONE
joblib ``Parallel`` call (fits found in a spec's ``memory`` are loaded, not
dispatched) and returns one :class:`_Job` per spec holding its seeds, its
splits, its per-fit outputs and its per-fit results frame (the
``results_`` of :class:`~skperf.RepeatedEvaluator`). A failing fit is recorded
in its row (``error``) under a numeric ``error_score`` and never loses the
other fits; what to do with failures (warn, raise when all fail) and the
distributions are the caller's (:mod:`skperf.model_selection._evaluator`).

The path is *build tasks -> run -> frame*: ``_Job`` builds the tasks of one
spec (Bouthillier et al., App. C.1-C.2: a seed per source and repeat, drawn
before any work is dispatched), ``_run`` runs the tasks of every job, and
``_results_frame`` tabulates them. The cache (:mod:`skperf.model_selection._cache`), the
kept predictions (:mod:`skperf.model_selection._predictions`) and the progress bar are
entered only when asked for (``memory``, ``return_predictions``,
``progress``).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import time
import warnings
from collections import Counter
from numbers import Integral

import numpy as np
from sklearn.metrics import check_scoring
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    StratifiedGroupKFold,
    StratifiedKFold,
    StratifiedShuffleSplit,
)
from sklearn.utils import assert_all_finite
from sklearn.utils.parallel import delayed

from ..exceptions import GroupsIgnoredWarning, NoVariationWarning
from ..metrics._per_row import DECOMPOSABLE, _row_scores
from ..metrics._registry import _check_scorer_names
from ..utils._sklearn_compat import _check_method_params, _safe_split, _scorer_parts
from ..utils._warnings import _external_stacklevel
from . import _cache, _parallel, _predictions, _reproducible
from ._seeding import (
    SOURCES,
    _apply_seeds,
    _globals_used,
    _hold,
    _Seeding,
    spawn_seeds,
)
from ._split import (
    GroupOutOfBootstrap,
    OutOfBootstrap,
    StratifiedOutOfBootstrap,
)
from ._vary import (
    _best_params,
    _check_vary,
    _configure,
    _is_random_splitter,
    _no_variation,
    _plan,
    _seed_params,
    _seed_splitter,
    _shuffled_kfold,
)

__all__ = ["fit_all"]


# ---------------------------------------------------------------------------
# build tasks
def _scorers(estimator, scoring):
    """``(scorer, names, singles)``; ``scorer`` returns a dict name -> value.

    ``singles`` maps each name to its own scorer (``scorer_``). Several
    scorers go through sklearn's multimetric scorer (which caches the
    predictions shared between them).
    """
    if scoring is not None and not callable(scoring):
        _check_scorer_names(scoring)  # a short message for a wrong name
    if isinstance(scoring, list | tuple | dict):
        items = (
            scoring.items()
            if isinstance(scoring, dict)
            else zip(scoring, scoring, strict=True)
        )
        singles = {name: check_scoring(estimator, s) for name, s in items}
        scorer = check_scoring(estimator, scoring)
    else:
        name = scoring if isinstance(scoring, str) else "score"
        singles = {name: check_scoring(estimator, scoring)}
        scorer = _Single(singles[name], name)
    return scorer, list(singles), singles


class _Single:
    """Wrap one scorer so that every scorer returns a dict."""

    def __init__(self, scorer, name):
        self.scorer = scorer
        self.name = name

    def __call__(self, est, X, y, **kwargs):
        return {self.name: self.scorer(est, X, y, **kwargs)}


def _is_iterable_cv(cv):
    """Whether ``cv`` is an iterable of ``(train, test)`` splits (not a splitter)."""
    return cv is not None and not isinstance(cv, Integral) and not hasattr(cv, "split")


# splitters whose test folds keep the class mix fixed
_STRATIFIED = (
    StratifiedKFold,
    RepeatedStratifiedKFold,
    StratifiedShuffleSplit,
    StratifiedGroupKFold,
)


def _outer_cv(cv, estimator, y, groups=None):
    """``(kind, splitter)``: kind is ``"random"``, ``"fixed"`` or ``"iterable"``.

    ``cv=None`` draws whole groups when ``groups`` are given. An int gives a
    shuffled (Stratified)KFold chosen from ``y`` alone, not from the
    estimator, so that every model evaluated on the same ``y`` gets the same
    folds (and can be paired).
    """
    if cv is None:
        if groups is not None:
            return "random", GroupOutOfBootstrap(n_splits=1)
        return "random", OutOfBootstrap(n_splits=1)
    if isinstance(cv, Integral):
        return "random", _shuffled_kfold(cv, True, y)
    if hasattr(cv, "split"):
        return ("random" if _is_random_splitter(cv) else "fixed"), cv
    return "iterable", [(_indices(tr), _indices(te)) for tr, te in cv]


def _indices(split):
    """Row indices of one side of a given split (a boolean mask becomes indices).

    ``n_train``/``n_test``, the split fingerprint and the kept test indices
    all count rows.
    """
    split = np.asarray(split)
    return np.flatnonzero(split) if split.dtype == bool else split


def _sklearn_ignoring_groups():
    from sklearn import model_selection as ms

    names = (
        "KFold",
        "StratifiedKFold",
        "ShuffleSplit",
        "StratifiedShuffleSplit",
        "RepeatedKFold",
        "RepeatedStratifiedKFold",
        "LeaveOneOut",
        "LeavePOut",
        "TimeSeriesSplit",
    )
    return tuple(getattr(ms, n) for n in names if hasattr(ms, n))


def _ignores_groups(splitter):
    """Whether ``splitter`` is known to ignore ``groups`` (exact type)."""
    known = (OutOfBootstrap, StratifiedOutOfBootstrap, *_sklearn_ignoring_groups())
    return type(splitter) in known


def _check_iterable_groups(splits, groups):
    """Warn when fixed ``(train, test)`` splits put a group on both sides.

    Such splits cannot use ``groups``; the ones given are checked instead of
    being silently ignored.
    """
    groups = np.asarray(groups)
    leaky = sum(
        np.intersect1d(groups[train], groups[test]).size > 0 for train, test in splits
    )
    if leaky:
        warnings.warn(
            f"`groups` were given, but {leaky} of the {len(splits)} (train, test) "
            "splits of the iterable `cv` have a group in both the training and the "
            "test set, which makes the scores optimistic. Build the splits with a "
            "group splitter (e.g. GroupKFold), or pass one as cv.",
            GroupsIgnoredWarning,
            stacklevel=_external_stacklevel(),
        )


def _split_id(train, test):
    """64-bit fingerprint of one split (its train and test index arrays).

    Recorded in the distributions' ``seeds["split_id"]``, so that ``compare``
    pairs two scores only when they come from identical train/test indices.
    """
    h = hashlib.blake2b(digest_size=8)
    for idx in (train, test):
        idx = np.ascontiguousarray(idx, dtype=np.int64)
        h.update(np.int64(idx.size).tobytes())
        h.update(idx.tobytes())
    return int(np.frombuffer(h.digest(), dtype="<i8")[0])


# skperf's own splitters, whose splits per seed are drawn in one pass
_OOB_TYPES = (OutOfBootstrap, StratifiedOutOfBootstrap, GroupOutOfBootstrap)


def _check_groups(spec, kind, splitter, groups):
    """``groups`` to pass to the splitter: warn when it ignores them (or leaks).

    A splitter known to ignore groups gets ``None`` (no second warning from
    it); fixed ``(train, test)`` splits are checked for a group on both sides.
    """
    if kind == "iterable":
        _check_iterable_groups(splitter, groups)
        return groups
    if not _ignores_groups(splitter):
        return groups
    what = (
        f"cv={spec.cv!r} (a {type(splitter).__name__})"
        if isinstance(spec.cv, Integral)
        else f"{type(splitter).__name__}"
    )
    warnings.warn(
        f"`groups` were given, but {what} ignores them: rows of one "
        "group can land in both the training and the test set, which "
        "makes the scores optimistic. Use a group splitter, e.g. "
        "cv=None (GroupOutOfBootstrap) or GroupKFold/GroupShuffleSplit.",
        GroupsIgnoredWarning,
        stacklevel=_external_stacklevel(),
    )
    return None


class _Job:
    """The tasks of one spec, then (after ``fit_all``) their outcomes.

    ``spec`` is any object with the parameters of
    :class:`~skperf.RepeatedEvaluator` as attributes (the evaluator itself).
    Built in the calling process: seeds (``random_state_``, ``seeds``), the
    splits of every repeat and their fingerprints (``split_ids``), the seed
    parameters of every repeat, the scorers and ``tasks``, one
    ``(repeat, fold, seed_params, train, test)`` per fit. ``fit_all`` adds
    ``outputs`` (one ``(repeat, fold, outcome)`` per task) and ``results``
    (the per-fit frame).
    """

    def __init__(self, spec, X, y, groups, cv=None, plans=None):
        est = spec.estimator
        cv = spec.cv if cv is None else cv
        if not isinstance(spec.error_score, str) and np.isinf(spec.error_score):
            # it would be kept in the distribution, which takes finite scores
            raise ValueError(
                "`error_score` must be 'raise', NaN or a finite number; got "
                f"{spec.error_score!r}."
            )
        varied, explicit = _check_vary(spec.vary)
        kind, splitter = _outer_cv(cv, est, y, groups)
        # stratified folds: RepeatedEvaluator.generalization_ci says what they do
        self.stratified = isinstance(splitter, _STRATIFIED)
        if groups is not None:
            groups = _check_groups(spec, kind, splitter, groups)
        if kind == "iterable" and "split" in explicit:
            raise ValueError(
                "`vary` includes 'split' but `cv` is a fixed iterable of (train, "
                "test) splits, which cannot be re-seeded; pass a splitter (e.g. "
                "cv=None for out-of-bootstrap splits) or leave 'split' out of vary."
            )
        # an int inner cv of a search always becomes a shuffled K-fold, seeded
        # by the search source (varied or held), so that vary="all" and naming
        # the sources give the same fits, and repeat 0 is the same under any vary
        seeder = getattr(spec, "seeder", None)
        self.plan = _plan(est, y, shuffle_int_cv=True, seeder=seeder)
        # what the worker does with the init seed besides seed parameters
        self.seeding = _Seeding(seeder, self.plan.frameworks, self.plan.keyed)
        msgs = _no_variation(self.plan, kind == "random", varied, explicit)
        if msgs and spec.n_repeats > 1:  # one repeat: no repeats to tell apart
            warnings.warn(
                f"{type(est).__name__}: nothing to vary for " + "; ".join(msgs) + ".",
                NoVariationWarning,
                stacklevel=_external_stacklevel(),
            )
        self.spec = spec
        # the cache module is entered only when the spec has a memory
        self.memory = None if spec.memory is None else _cache.check_memory(spec.memory)
        # one seed plan per (root, repeats): the models of one comparison
        # share it (an int root; a generator or None draws its own)
        key = (spec.random_state, spec.n_repeats)
        shared = plans is not None and isinstance(spec.random_state, Integral)
        if not shared or key not in plans:
            plan = spawn_seeds(spec.random_state, spec.n_repeats)
            if shared:
                plans[key] = plan
        self.random_state_, seeds = plans[key] if shared else plan
        # fixed splits: the split seed is not used, so record it as held
        self.seeds = _hold(seeds, varied if kind == "random" else varied - {"split"})
        self.scorer, self.names, self.singles = _scorers(est, spec.scoring)
        # a decomposable scorer name is scored from one inference pass
        # (_fit_and_score): measured faster than the scorer's own predictions
        # (benchmarks/bench_generalization.py)
        self.per_row = (
            spec.scoring
            if isinstance(spec.scoring, str) and spec.scoring in DECOMPOSABLE
            else None
        )
        self.splits = []  # per repeat: list of (train, test)
        cache = {}
        if kind == "random" and type(splitter) in _OOB_TYPES:
            # one RandomState reseeded per repeat, the data checked once
            cache = splitter._splits_per_seed(self.seeds["split"], X, y, groups)
        for seed in self.seeds["split"].tolist():
            if seed not in cache:
                if kind == "iterable":
                    cache[seed] = splitter
                else:
                    cv = (
                        _seed_splitter(splitter, seed) if kind == "random" else splitter
                    )
                    cache[seed] = list(cv.split(X, y, groups))
            self.splits.append(cache[seed])
        # at least 2 scores are needed for a distribution: say so before fitting
        per_repeat, n_scores = len(self.splits[0]), sum(map(len, self.splits))
        if per_repeat == 0:
            raise ValueError(
                f"`cv`={spec.cv!r} gave no (train, test) split; an iterable cv must "
                "hold at least one (a generator such as kf.split(X) is used up after "
                "one fit)."
            )
        if n_scores < getattr(spec, "min_scores", 2):
            raise ValueError(
                f"`n_repeats`={spec.n_repeats!r} with {per_repeat} split(s) per "
                f"repeat gives {n_scores} score; at least 2 scores "
                "are needed for a distribution. Use n_repeats >= 2."
            )
        ids = {seed: [_split_id(tr, te) for tr, te in sp] for seed, sp in cache.items()}
        self.split_ids = [ids[seed] for seed in self.seeds["split"].tolist()]
        # the seed parameters per repeat; the worker clones and configures
        # (one clone per fit, and no fitted model is kept in the parent)
        self.seed_params = [
            _seed_params(self.plan, init, search)
            for init, search in zip(
                self.seeds["init"], self.seeds["search"], strict=True
            )
        ]
        self.tasks = [
            (r, f, sp, train, test)
            for r, (sp, splits) in enumerate(
                zip(self.seed_params, self.splits, strict=True)
            )
            for f, (train, test) in enumerate(splits)
        ]


def _fit_and_score(
    i,
    store,
    est,
    seed_params,
    X,
    y,
    train,
    test,
    scorer,
    params,
    return_train,
    error_score,
    plan,
    return_predictions=False,
    score_params=None,
    per_row=None,
    init_seed=None,
    seeding=None,
):
    """Fit a configured clone of ``est`` on ``train``, score it on ``test``.

    Runs in the worker; returns ``(i, outcome)``, ``i`` the task's index
    (results arrive as fits finish). With ``store`` (``(memory, key)``), a
    successful outcome is stored in the cache as soon as the fit finishes (a
    failure is not: a rerun fits it again). With ``per_row`` (a decomposable
    scorer name, :data:`skperf.metrics._per_row.DECOMPOSABLE`) and no routed
    scorer metadata, the test score is the mean of the per-row scores of one
    prediction (one inference pass instead of the scorer's own). The global generators are seeded with ``init_seed`` and the user's seeder
    called right before the fit (``seeding``, :func:`skperf.model_selection._seeding._apply_seeds`).
    """
    est = _apply_seeds(_configure(est, seed_params), init_seed, seeding)
    X_train, y_train = _safe_split(est, X, y, train)
    X_test, y_test = _safe_split(est, X, y, test, train)
    fit_params = _check_method_params(X, params=params, indices=train)
    score_test = score_train = {}
    if score_params:  # routed metadata of the scorers (test / train rows)
        score_test = _check_method_params(X, params=score_params, indices=test)
        score_train = _check_method_params(X, params=score_params, indices=train)
    out = {
        "error": None,
        "train": None,
        "score_time": 0.0,
        "best_params": None,
        "n_train": len(train),
        "n_test": len(test),
    }
    start = time.perf_counter()
    try:
        est.fit(X_train, y_train, **fit_params)
        out["fit_time"] = time.perf_counter() - start
        start = time.perf_counter()
        if per_row is not None and not score_test:
            pred = (
                _predictions.predict_test(est, X_test)
                if return_predictions
                else _predictions.predict_for(est, X_test, per_row)
            )
            rows = _row_scores(per_row, y_test, pred, pred["classes"])
            out["test"] = {scorer.name: float(np.mean(rows))}
            if return_predictions:
                out["predictions"] = pred
        else:
            out["test"] = scorer(est, X_test, y_test, **score_test)
            if return_predictions:
                out["predictions"] = _predictions.predict_test(est, X_test)
        out["score_time"] = time.perf_counter() - start
        if return_train:
            out["train"] = scorer(est, X_train, y_train, **score_train)
        if plan.search_prefixes:
            out["best_params"] = _best_params(est, plan)
    except Exception as exc:
        if isinstance(error_score, str):  # "raise"
            raise
        out.setdefault("fit_time", time.perf_counter() - start)
        out["error"] = f"{type(exc).__name__}: {exc}"
        out["exception"] = exc
        out["test"] = None
        out["train"] = None
    else:
        bad = _not_finite(out["test"])
        if bad:
            # e.g. roc_auc on a test set holding one class: a failed fit, kept
            # in results_ with the reason, never a NaN inside the distribution
            msg = (
                "ValueError: the scorer returned a non-finite test score ("
                + ", ".join(f"{k}={v!r}" for k, v in bad.items())
                + f") on a test set of {len(test)} rows"
            )
            if isinstance(error_score, str):  # "raise"
                raise ValueError(msg.partition(": ")[2])
            out["error"] = msg
    out["rng_used"] = (
        _globals_used()
    )  # for skperf.model_selection._reproducible.check_run
    if store is None or out["error"] is not None:
        return i, out
    return i, _cache.store(store, out)


def _not_finite(scores):
    """The entries of a ``{name: score}`` dict that are not finite numbers."""
    bad = {}
    for name, value in scores.items():
        try:
            ok = bool(np.isfinite(float(value)))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            bad[name] = value
    return bad


# ---------------------------------------------------------------------------
# run
def _run(
    jobs,
    X,
    y,
    params,
    n_jobs,
    bar,
    verbose=0,
    data_key=None,
    score_params=None,
    repeats=None,
    active=None,
):
    """Run the tasks of every job in one ``Parallel`` call.

    Sets ``job.outputs`` (in task order); with ``repeats`` (a set of repeat
    indices: one round of a sequential design) only those repeats' tasks
    run, and their outputs are appended to the rounds before. Fits found in
    a job's memory are loaded here and not dispatched (``data_key``: the hash
    of the data, given when some job has a memory); ``bar`` is ``None``
    without progress bar. ``active``: the indices of the jobs to run (a
    race's models still in it; None: all).
    """
    tasks = _interleaved(jobs, repeats, active)
    stores, loaded = {}, {}
    if data_key is not None:
        code = (_fit_and_score, _predictions.predict_test)
        keys = _cache.fit_keys(jobs, tasks, data_key, code)
        stores, loaded = _cache.lookup(jobs, tasks, keys)
    calls = (
        delayed(_fit_and_score)(
            i,
            stores.get(i),
            jobs[j].spec.estimator,
            sp,
            X,
            y,
            train,
            test,
            jobs[j].scorer,
            params,
            jobs[j].spec.return_train_score,
            jobs[j].spec.error_score,
            jobs[j].plan,
            jobs[j].spec.return_predictions,
            score_params,
            jobs[j].per_row,
            int(jobs[j].seeds["init"][r]),
            jobs[j].seeding,
        )
        for i, (j, r, _, sp, train, test) in enumerate(tasks)
        if i not in loaded
    )
    results = [loaded.get(i) for i in range(len(tasks))]
    if bar is not None:
        if repeats is None:
            bar.set_total(len(tasks), planned=Counter(t[0] for t in tasks))
        for i in loaded:  # from the cache: counted, not timed
            bar.update(1, key=tasks[i][0])
    # results arrive as fits finish (any backend: skperf.model_selection._parallel)
    for i, out in _parallel.run(calls, n_jobs, verbose=verbose):
        results[i] = out
        if bar is not None:
            bar.update(
                1,
                key=tasks[i][0],
                seconds=out.get("fit_time", 0.0) + out.get("score_time", 0.0),
            )
    for job in jobs:
        if repeats is None or not hasattr(job, "outputs"):
            job.outputs = []
    for (j, r, f, *_), out in zip(tasks, results, strict=True):
        jobs[j].outputs.append((r, f, out))


def _progress_bar():
    """The progress bar of ``progress=True`` (not built otherwise)."""
    from tqdm.auto import tqdm

    return _ETABar(tqdm, total=None, disable=False)


class _ETABar:
    """A tqdm bar whose remaining time counts the work still to come, per model.

    tqdm's own estimate divides by the time since the bar opened, which
    includes starting the workers and the first fit (with loky, seconds):
    its first estimate was 8-14 minutes for a 22 s job (issue 17, item 18).
    A plain rate of fits undercounts when the models' fits take different
    times: the fast model's fits came first and the bar said "about 10 s
    left" with 74 s left (issue 29, item 17). Here every fit reports its
    model (``key``) and its measured seconds; the remaining time is the
    work left, ``sum`` over the fits to come of their model's mean fit
    time (a model's first fit, which pays the warm-up, is left out of its
    mean once it has others; a model with no finished fit counts as the
    slowest seen), divided by the work done per second of wall clock since
    the first fit finished. The engine interleaves the models' fits, so
    every model's first fits finish early. A sequential design may stop
    before its total, so its bar says "at most about ... left".
    """

    _FORMAT = (
        "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"
    )

    def __init__(self, tqdm, total, disable):
        self._bar = tqdm(
            total=total,
            disable=disable,
            desc="fits",
            unit="fit",
            bar_format=self._FORMAT,
            postfix="starting",
        )
        self._first = None  # time of the first finished (timed) fit
        self.n = 0
        self._planned = {}  # key -> fits planned
        self._done = {}  # key -> fits done (timed or not)
        self._times = {}  # key -> measured seconds of its fits, in finish order
        self._work_after_first = 0.0
        self._at_most = False

    def set_total(self, total, *, planned=None, at_most=False):
        """``total`` fits; ``planned``: ``{key: fits}`` (the models' shares);
        ``at_most``: the total is a maximum (a sequential design)."""
        self._bar.total = total
        if planned is not None:
            self._planned = dict(planned)
        self._at_most = at_most
        self._bar.refresh()

    def _eta(self, now):
        """Seconds left: the work to come over the work done per second."""
        known = {}
        for key, times in self._times.items():
            if times:
                known[key] = float(np.mean(times[1:] if len(times) > 1 else times))
        if not known or now <= self._first:
            return np.inf
        slowest = max(known.values())
        keys = set(self._planned) | set(self._done)
        if keys:
            left = sum(
                max(self._planned.get(k, 0) - self._done.get(k, 0), 0)
                * known.get(k, slowest)
                for k in keys
            )
        else:  # no plan: the mean fit over the fits to come
            n_left = (self._bar.total or self.n) - self.n
            left = n_left * float(np.mean(list(known.values())))
        if left <= 0:
            return 0.0
        speed = self._work_after_first / (now - self._first)  # work s per wall s
        return left / speed if speed > 0 else np.inf

    def update(self, n=1, *, key=None, seconds=None):
        """``n`` fits done; ``key``: their model; ``seconds``: a fit's measured
        time (``None``: not timed, e.g. loaded from the cache)."""
        now = time.perf_counter()
        self.n += n
        self._done[key] = self._done.get(key, 0) + n
        if seconds is not None:
            self._times.setdefault(key, []).append(float(seconds))
            if self._first is None:
                self._first = now
            else:
                self._work_after_first += float(seconds)
        if self._first is None:
            postfix = "starting"
        elif not self._work_after_first:
            postfix = "measuring speed"
        else:
            eta = _fmt_seconds(self._eta(now))
            postfix = f"{'at most ' if self._at_most else ''}about {eta} left"
        if getattr(self, "_state", None):  # a sequential design's state
            postfix = f"{self._state}; {postfix}"
        self._bar.set_postfix_str(postfix, refresh=False)
        self._bar.update(n)

    def state(self, text):
        """The state of a sequential design after a look (e.g. "A ahead,
        undecided after 20 fits"), shown before the remaining time."""
        self._state = text
        self._bar.set_postfix_str(text, refresh=True)

    def drop(self, key, remaining):
        """A race stopped fitting model ``key``: its ``remaining`` fits leave
        the maximum and the time left."""
        self._planned[key] = self._done.get(key, 0)
        self._bar.total = max(self.n, (self._bar.total or 0) - remaining)
        self._bar.refresh()

    def stopped(self, reason):
        """A sequential design stopped: the bar ends at the fits spent."""
        self._end = f"done, {reason}" if reason != "max_fits" else "done"
        self._bar.total = self.n
        self._bar.refresh()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.n:
            self._bar.set_postfix_str(getattr(self, "_end", "done"), refresh=False)
        self._bar.close()
        return False


def _interleaved(jobs, repeats=None, active=None):
    """The tasks ``(j, *task)`` of every job, the jobs' fits interleaved.

    ``repeats``: only those repeats' tasks; ``active``: only those jobs'
    (a race's models still running; None: every job).

    Round-robin over the jobs (model 0's first fit, model 1's first fit,
    ..., model 0's second fit ...), so every model's first fits finish early
    and the progress bar times every model from the start (issue 29, item
    17); each job's own tasks keep their order.
    """
    per_job = [
        [(j, *t) for t in job.tasks if repeats is None or t[0] in repeats]
        if active is None or j in active
        else []
        for j, job in enumerate(jobs)
    ]
    longest = max((len(t) for t in per_job), default=0)
    return [t[i] for i in range(longest) for t in per_job if i < len(t)]


def _fmt_seconds(sec):
    if not np.isfinite(sec):
        return "?"
    sec = round(float(sec))
    return f"{sec // 60}:{sec % 60:02d}" if sec >= 60 else f"{sec} s"


# ---------------------------------------------------------------------------
# checks before any fit
def _scorer_items(scoring):
    """``[(name, scoring)]`` of one or several scorers (names, callables)."""
    if isinstance(scoring, dict):
        return list(scoring.items())
    if isinstance(scoring, list | tuple):
        return [(s if isinstance(s, str) else repr(s), s) for s in scoring]
    return [(scoring if isinstance(scoring, str) else "scoring", scoring)]


def _estimator_name(estimator):
    """``"Ridge"``, ``"Pipeline ending in Ridge"``, ``"GridSearchCV of Ridge"``."""
    outer = type(estimator).__name__
    inner = estimator
    while True:
        steps = getattr(inner, "steps", None)
        base = getattr(inner, "estimator", None)
        if steps:
            inner = steps[-1][1]
        elif base is not None and hasattr(base, "fit") and not isinstance(base, type):
            inner = base
        else:
            break
    name = type(inner).__name__
    if inner is estimator:
        return outer
    link = "ending in" if hasattr(estimator, "steps") else "of"
    return f"{outer} {link} {name}"


# metrics of sklearn.metrics._classification whose ``average`` defaults to
# "binary": name of their averaged scorers' prefix
_BINARY_AVERAGE = {
    "precision_score": "precision",
    "recall_score": "recall",
    "f1_score": "f1",
    "fbeta_score": "f1",
    "jaccard_score": "jaccard",
}


def _binary_average(func, kwargs):
    """The averaged scorers' prefix (``"f1"``) when ``func`` scores the
    positive class only (``average="binary"``, the default), else None."""
    prefix = _BINARY_AVERAGE.get(getattr(func, "__name__", ""))
    if prefix is None:
        return None
    if "average" in kwargs:
        average = kwargs["average"]
    else:
        try:
            average = inspect.signature(func).parameters["average"].default
        except (TypeError, ValueError, KeyError):
            return None
    return prefix if average == "binary" else None


def _check_scorer_kind(estimator, scoring, y):
    """A scorer of the wrong kind fails here, before any fit (issue 17, item 13).

    Checked from the scorer's metric function and response method only (no
    fit): a classification or ranking metric on a regressor or on a
    continuous ``y``; a response method (``predict_proba``,
    ``decision_function``) the estimator does not have; a binary ranking
    metric (``roc_auc``, ``average_precision``) on a ``y`` with more than 2
    classes; a positive-class metric (``precision``, ``recall``, ``f1``,
    ``jaccard``: ``average="binary"``) on a multiclass or multilabel ``y``
    (issue 29, items 2 and 15: one check for every entry point, called by
    :func:`fit_all`). Callables that are not scikit-learn scorers are not
    checked.
    """
    from sklearn.base import is_regressor
    from sklearn.metrics import get_scorer
    from sklearn.utils.multiclass import type_of_target

    if scoring is None:
        return
    kind = None
    if y is not None:
        try:
            kind = type_of_target(y)
        except ValueError:
            kind = None
    for name, sc in _scorer_items(scoring):
        if isinstance(sc, str):
            try:
                sc = get_scorer(sc)
            except ValueError:
                continue  # the parameter validation names unknown scorers
        parts = _scorer_parts(sc)
        if parts is None:
            continue
        func, _, kwargs, response = parts
        module = getattr(func, "__module__", "") or ""
        classif = module.startswith(
            ("sklearn.metrics._classification", "sklearn.metrics._ranking")
        )
        what = _estimator_name(estimator)
        if classif and is_regressor(estimator):
            raise ValueError(
                f"`scoring`={name!r} is a classification metric but {what} is a "
                "regressor (its continuous predictions are never equal to the "
                "labels); use a regression scorer (e.g. 'r2', "
                "'neg_mean_absolute_error')."
            )
        if classif and kind in ("continuous", "continuous-multioutput"):
            raise ValueError(
                f"`scoring`={name!r} is a classification metric but y is "
                "continuous; use a regression scorer (e.g. 'r2') or class labels."
            )
        if not any(hasattr(estimator, m) for m in response):
            raise ValueError(
                f"`scoring`={name!r} needs {' or '.join(response)}, which {what} "
                "does not have; pick a scorer that reads predict (e.g. 'accuracy')."
            )
        average = _binary_average(func, kwargs)
        if average and kind in ("multiclass", "multilabel-indicator"):
            n = np.unique(np.asarray(y)).size
            raise ValueError(
                f"`scoring`={name!r} averages over the positive class only "
                f"(average='binary') but y is {kind}"
                + (f" with {n} classes" if kind == "multiclass" else "")
                + f"; use an averaged scorer, e.g. '{average}_macro' or "
                f"'{average}_weighted' (checked before any fit of {what})."
            )
        binary_only = module.startswith("sklearn.metrics._ranking") and (
            "multi_class" not in kwargs
        )
        binary_only = binary_only and func.__name__ in (
            "roc_auc_score",
            "average_precision_score",
        )
        if binary_only and kind == "multiclass":
            n = np.unique(np.asarray(y)).size
            raise ValueError(
                f"`scoring`={name!r} is binary but y has {n} classes; use "
                "'roc_auc_ovr' (or 'roc_auc_ovo', 'roc_auc_ovr_weighted')."
                if func.__name__ == "roc_auc_score"
                else f"`scoring`={name!r} is binary but y has {n} classes; use "
                "a multiclass scorer (e.g. 'roc_auc_ovr', 'f1_macro')."
            )


# ---------------------------------------------------------------------------
# the per-fit frame
def _results_frame(job):
    """One row per fit of ``job`` (``RepeatedEvaluator.results_``).

    A failed fit keeps its row: its ``error`` text, and ``error_score`` (NaN
    for ``"raise"``) as its scores, as ``cross_val_score`` records them.
    """
    import pandas as pd

    spec, outputs = job.spec, job.outputs
    repeat = np.array([r for r, _, _ in outputs], dtype=np.int64)
    cols = {
        "repeat": repeat,
        "fold": np.array([f for _, f, _ in outputs], dtype=np.int64),
    }
    for src in SOURCES:
        cols[f"{src}_seed"] = job.seeds[src][repeat].astype(np.int64)
    # fingerprint of each fit's train/test indices: pairs only identical splits
    cols["split_id"] = np.array(
        [job.split_ids[r][f] for r, f, _ in outputs], dtype=np.int64
    )
    # split sizes, for the Nadeau-Bengio corrected t (mean_ci "corrected-t")
    for key in ("n_train", "n_test"):
        cols[key] = np.array([o[key] for _, _, o in outputs], dtype=np.int64)
    for key in ("fit_time", "score_time"):
        cols[key] = np.array([o[key] for _, _, o in outputs])
    fill = np.nan if isinstance(spec.error_score, str) else float(spec.error_score)
    for key in ("test", "train") if spec.return_train_score else ("test",):
        for name in job.names:
            values = []
            for _, _, o in outputs:
                v = None if o[key] is None else o[key].get(name)
                failed = v is None or (
                    o["error"] is not None and bool(_not_finite({name: v}))
                )
                values.append(fill if failed else float(v))
            cols[f"{key}_{name}"] = np.array(values, dtype=float)
    cols["error"] = [o["error"] for _, _, o in outputs]
    if job.plan.search_prefixes:
        cols["best_params"] = [o["best_params"] for _, _, o in outputs]
    if job.memory is not None:
        cols["cached"] = np.array([o.get("cached", False) for _, _, o in outputs])
    return pd.DataFrame(cols)


# ---------------------------------------------------------------------------
# the engine
def fit_all(
    specs,
    X,
    y=None,
    *,
    groups=None,
    params=None,
    score_params=None,
    n_jobs=None,
    progress=False,
    look=None,
    time_budget=None,
):
    """Every fit of every spec in ONE ``Parallel`` call (and one progress bar).

    Parameters
    ----------
    specs : list of RepeatedEvaluator
        What to fit: each spec's ``estimator``, ``scoring``, ``cv``,
        ``n_repeats``, ``vary``, ``random_state``, ``error_score``,
        ``return_train_score``, ``return_predictions``, ``memory`` and
        ``verbose`` (any object with these attributes; its parameters are
        not validated here). Specs with the same ``random_state``,
        ``n_repeats``, ``cv`` and ``vary`` get the same splits (paired).
    X, y, groups : indexable (:func:`sklearn.utils.indexable`)
        The data; a numeric ``y`` with NaN or inf raises before any fit.
    params : dict or None, default=None
        Parameters of every fit's ``estimator.fit`` (sample-aligned ones are
        indexed by the training rows).
    score_params : dict or None, default=None
        Routed metadata of the scorers (indexed by the test rows).
    n_jobs : int or None, default=None
        Number of joblib workers.
    progress : bool, default=False
        Show a progress bar that advances as fits finish.
    look : callable or None, default=None
        A sequential design: the repeats run one round at a time and
        ``look(jobs, rounds, last)`` after each round returns the reason to
        stop (``"decided"``, ``"futile"``, ``"precise"``...) or None to go on
        (:func:`_run_rounds`); every job then has ``stopped``. None: one call.
    time_budget : float or None, default=None
        With ``look``: seconds of wall clock after which no new round starts.

    Returns
    -------
    jobs : list of _Job
        One per spec, in order: ``results`` (the per-fit frame),
        ``outputs`` (per fit ``(repeat, fold, outcome)``), ``seeds``,
        ``random_state_``, ``split_ids``, ``scorer``, ``names`` ...

    Notes
    -----
    Under a numeric ``error_score`` a failing fit (it raises, or its scorer
    raises or gives a non-finite score) is a row with its ``error``; the
    other fits are kept. ``error_score="raise"`` re-raises the first error.
    Seeds are drawn before any work is dispatched (Bouthillier et al.,
    App. C.2), so the results do not depend on ``n_jobs``.
    """
    params = {} if params is None else params
    # a numeric y with NaN or inf fails every fit or every score: say so now
    if y is not None and not hasattr(y, "toarray"):
        arr = np.asarray(y)
        if arr.dtype.kind in "fc":
            assert_all_finite(arr, input_name="y")
    for spec in specs:
        _check_scorer_kind(spec.estimator, spec.scoring, y)
        if spec.memory is not None:
            _cache.warn_never_reused(
                spec.memory,
                spec.random_state,
                reproduce="random_state=0, or the random_state_ of the run to resume",
            )
    # an iterable cv (e.g. a generator kf.split(X)) is read once, however many
    # specs share it
    given = {}
    for spec in specs:
        if _is_iterable_cv(spec.cv) and id(spec.cv) not in given:
            given[id(spec.cv)] = list(spec.cv)
    # the bar shows at once (drawing splits and hashing data take time too)
    bar = _progress_bar() if progress else None
    with contextlib.nullcontext() if bar is None else bar:
        plans = {}
        jobs = [
            _Job(spec, X, y, groups, cv=given.get(id(spec.cv)), plans=plans)
            for spec in specs
        ]
        data_key = None
        if any(job.memory is not None for job in jobs):
            # hashed once per call; the routed scorer metadata changes the
            # scores, so it is part of the key
            keyed = (
                params if not score_params else {"fit": params, "score": score_params}
            )
            data_key = _cache.data_key(X, y, keyed)
        verbose = max(spec.verbose for spec in specs)
        args = (X, y, params, n_jobs, bar, verbose, data_key, score_params)
        if look is None:
            _run(jobs, *args)
        else:
            _run_rounds(jobs, args, look, time_budget)
    for job in jobs:
        if job.seeding.keyed:  # code outside scikit-learn, or a seeder
            _reproducible.check_run(job)  # what the seeds reached (no extra fit)
        job.results = _results_frame(job)
    return jobs


def _run_rounds(jobs, args, look, time_budget):
    """Run the jobs' repeats one round (one repeat of every job) at a time.

    After each round the jobs' ``results`` hold the fits so far and
    ``look(jobs, rounds, last)`` says whether to stop (a reason, e.g.
    ``"decided"``) or go on (``None``); no new round starts once
    ``time_budget`` seconds have passed (``"budget"``). The seeds and
    splits are the full design's, drawn before the first round, so a run
    stopped after ``r`` rounds holds the first ``r`` repeats of the fixed
    design, fit for fit (and, with ``memory``, a longer rerun resumes).
    Sets ``job.stopped`` (the reason) on every job. ``args``: the other
    arguments of :func:`_run` (``X`` ... ``score_params``).

    A race: when ``look`` has an ``active`` attribute after a look (the
    indices of the jobs still needed), the other jobs stop being fitted;
    each keeps the rounds it has and gets ``stopped="settled"``, the round
    it stopped in ``job.rounds``.
    """
    bar = args[4]
    total = max(job.spec.n_repeats for job in jobs)
    if bar is not None:  # the full design: a maximum, the design may stop early
        bar.set_total(
            sum(len(job.tasks) for job in jobs),
            planned={j: len(job.tasks) for j, job in enumerate(jobs)},
            at_most=True,
        )
    start = time.perf_counter()
    reason = "max_fits"
    active = set(range(len(jobs)))
    for job in jobs:
        job.rounds = 0
    for r in range(total):
        _run(jobs, *args, repeats={r}, active=active)
        for j in active:
            jobs[j].results = _results_frame(jobs[j])
            jobs[j].rounds = r + 1
        last = r + 1 == total
        budget_out = (
            time_budget is not None and time.perf_counter() - start >= time_budget
        )
        stop = look(jobs, r + 1, last or budget_out)
        state = getattr(look, "state", None)
        if bar is not None and state is not None:
            bar.state(state(r + 1, stop))
        if stop is not None:  # a look cut short by the budget reads as final
            reason = "budget" if budget_out and not last else stop
            break
        if budget_out and not last:
            reason = "budget"
            break
        still = getattr(look, "active", None)
        if still is not None:
            for j in active - set(still):
                if bar is not None:
                    bar.drop(j, len(jobs[j].tasks) - len(jobs[j].outputs))
            active &= set(still)
    if bar is not None:
        bar.stopped(reason)
    for j, job in enumerate(jobs):
        job.stopped = reason if j in active else "settled"


# ---------------------------------------------------------------------------
# designs: fixed splits with one init seed each (generalization_ci's methods)
class _DesignSpec:
    """A spec for :func:`fit_all` of one design (the attributes of a
    :class:`~skperf.RepeatedEvaluator` with ``vary="all"``).

    ``cv`` is the list of (train, test) splits, fitted once (``n_repeats=1``)
    with the estimator's seeds drawn from ``random_state`` (the design's
    seed), or a splitter reshuffled in each of ``n_repeats`` repeats (the
    corrected t's repeated K-fold, as ``compare_models``' default); failed
    fits are recorded (``error_score=NaN``) so that every fit of the design
    runs before it is reported (:func:`raise_failed`).
    """

    vary = "all"
    error_score = np.nan
    return_train_score = False
    verbose = 0
    min_scores = 1  # a holdout is one fit

    def __init__(
        self,
        estimator,
        scoring,
        splits,
        seed,
        memory,
        predictions,
        seeder=None,
        n_repeats=1,
    ):
        self.seeder = seeder
        self.estimator = estimator
        self.scoring = scoring
        self.cv = splits
        self.random_state = seed
        self.memory = memory
        self.return_predictions = predictions
        self.n_repeats = n_repeats


def fit_designs(
    estimator,
    X,
    y,
    designs,
    seeds,
    *,
    scoring,
    predictions,
    n_jobs,
    memory,
    params,
    progress,
    groups=None,
    seeder=None,
):
    """Fit every split of every design through :func:`fit_all` (one call).

    Each design (a list of (train, test) splits) is one spec with its own
    seed for the estimator's seed parameters (drawn before dispatch, so the
    result does not depend on ``n_jobs``). With ``memory`` every successful
    fit is cached: a rerun refits only what failed. Returns, per design, one
    dict per split: ``score``, ``n_train``, ``n_test``, ``test`` and
    (``predictions=True``) ``pred`` as ``_predictions.predict_test``.

    Raises
    ------
    ValueError
        When any fit failed, after every fit ran: how many of how many, and
        the first failure (chained to its exception).
    """
    specs = [
        _DesignSpec(estimator, scoring, splits, seed, memory, predictions, seeder)
        for splits, seed in zip(designs, seeds, strict=True)
    ]
    with warnings.catch_warnings():
        # fixed splits fitted once are the design, not a missing variation
        warnings.simplefilter("ignore", NoVariationWarning)
        jobs = fit_all(
            specs,
            X,
            y,
            groups=groups,
            params=params,
            n_jobs=n_jobs,
            progress=progress,
        )
    out = []
    for job in jobs:
        name = job.names[0]
        out.append(
            [
                {
                    "score": None if o["test"] is None else float(o["test"][name]),
                    "n_train": o["n_train"],
                    "n_test": o["n_test"],
                    "test": np.asarray(task[4]),
                    "pred": o.get("predictions"),
                    "error": o["error"],
                    "exception": o.get("exception"),
                }
                for task, (_, _, o) in zip(job.tasks, job.outputs, strict=True)
            ]
        )
    raise_failed([o for design in out for o in design], memory is not None)
    return out


def raise_failed(outcomes, cached=False, what="the interval needs every fit"):
    """Raise one ValueError naming how many of ``outcomes`` failed (if any).

    The failure rule of every design that needs all its fits (the intervals
    and tests on new data): every fit runs first, then the count and the
    first failure (its type and text; chained to it when it is at hand).
    """
    failed = [o for o in outcomes if o["error"] is not None]
    if not failed:
        return
    first = failed[0]
    kept = (
        " The fits that succeeded are cached (memory=): a rerun refits only the "
        "failed ones."
        if cached
        else ""
    )
    raise ValueError(
        f"{len(failed)} of {len(outcomes)} fits failed; {what} of its design. "
        f"First failure: {first['error']}" + kept
    ) from first.get("exception")
