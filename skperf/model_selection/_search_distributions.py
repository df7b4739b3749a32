"""Per-candidate score distributions from a fitted hyperparameter search.

A fitted :class:`~sklearn.model_selection.GridSearchCV` or
:class:`~sklearn.model_selection.RandomizedSearchCV` scores every candidate on
the same splits. :func:`search_distributions` turns those per-split scores
into one :class:`~skperf.PerformanceDistribution` per candidate (paired
across candidates).
"""

from __future__ import annotations

import re
import warnings

import numpy as np
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import (
    GroupShuffleSplit,
    ShuffleSplit,
    StratifiedShuffleSplit,
)

from .._distribution import PerformanceDistribution
from ..utils._warnings import _external_stacklevel
from ._split import GroupOutOfBootstrap, OutOfBootstrap, StratifiedOutOfBootstrap

__all__ = ["search_distributions"]

# Splitters whose splits are independent draws given the data: their scores
# are i.i.d. and every interval applies (Bouthillier et al., App. B).
_INDEPENDENT_SPLITTERS = (
    OutOfBootstrap,
    StratifiedOutOfBootstrap,
    GroupOutOfBootstrap,
    ShuffleSplit,
    StratifiedShuffleSplit,
    GroupShuffleSplit,
)

_SPLIT_RE = re.compile(r"^split(\d+)_test_(.+)$")


def _metric_names(cv_results):
    """Scorer names present in ``cv_results`` (``["score"]`` when single)."""
    names = sorted(
        k[len("mean_test_") :] for k in cv_results if k.startswith("mean_test_")
    )
    if not names:
        raise ValueError(
            "`cv_results` has no 'mean_test_<metric>' column; is it the "
            "cv_results_ of a fitted GridSearchCV or RandomizedSearchCV?"
        )
    return names


def _resolve_metric(cv_results, scoring, default=None, what="search"):
    """Key of the metric in ``cv_results`` (``"score"`` for single-metric)."""
    names = _metric_names(cv_results)
    if names == ["score"]:
        # single-metric: sklearn stores it as "score" whatever the scorer
        if scoring is not None and not isinstance(scoring, str):
            raise TypeError(f"`scoring` must be a str or None; got {scoring!r}.")
        return "score"
    if scoring is None:
        scoring = default
    if scoring is None:
        raise ValueError(
            f"The {what} is multi-metric (scorers {names}); pass `scoring` to "
            "choose which metric to use, e.g. scoring="
            f"{names[0]!r}."
        )
    if scoring not in names:
        raise ValueError(f"`scoring` must be one of {names}; got {scoring!r}.")
    return scoring


def _split_scores(cv_results, metric):
    """Per-split test scores, shape (n_candidates, n_splits)."""
    idx = sorted(
        int(m.group(1))
        for k in cv_results
        if (m := _SPLIT_RE.match(k)) and m.group(2) == metric
    )
    if not idx:
        raise ValueError(f"`cv_results` has no 'split<i>_test_{metric}' columns.")
    return np.column_stack(
        [np.asarray(cv_results[f"split{i}_test_{metric}"], dtype=float) for i in idx]
    )


def _plain(value):
    """numpy scalars as Python scalars, so reprs read ``0.1`` not ``np.float64(0.1)``."""
    return value.item() if isinstance(value, np.generic) else value


def _params_key(params):
    """Readable, stable key for one candidate: ``"C=0.1, penalty='l2'"``."""
    return ", ".join(f"{k}={_plain(params[k])!r}" for k in sorted(params))


def _candidate_keys(all_params):
    keys = [_params_key(p) for p in all_params]
    seen = {}
    for k in keys:
        seen[k] = seen.get(k, 0) + 1
    # RandomizedSearchCV may sample the same candidate twice: disambiguate
    return [k if seen[k] == 1 else f"{k} [#{i}]" for i, k in enumerate(keys)]


def _split_groups(cv, n_splits):
    """Group ids marking dependent splits, or None for independent ones."""
    if isinstance(cv, _INDEPENDENT_SPLITTERS):
        return None
    per_repeat = (
        getattr(cv, "cvargs", {}).get("n_splits") if hasattr(cv, "n_repeats") else None
    )
    if per_repeat:
        # RepeatedKFold / RepeatedStratifiedKFold: the folds of one repeat
        # are dependent (they partition the data), repeats are independent
        return np.arange(n_splits) // int(per_repeat)
    # one K-fold run (int cv, KFold, StratifiedKFold, LeaveOneOut, an
    # explicit list of splits ...): all folds dependent
    return np.zeros(n_splits, dtype=int)


def _check_fitted_search(search):
    if not hasattr(search, "cv_results_"):
        raise TypeError(
            "`search` must be a fitted GridSearchCV / RandomizedSearchCV (an "
            f"object with cv_results_); got {type(search).__name__} without "
            "cv_results_. Call search.fit(X, y) first."
        )


def _default_metric(search):
    refit = getattr(search, "refit", None)
    return refit if isinstance(refit, str) else None


def search_distributions(search, *, scoring=None):
    """One score distribution per candidate of a fitted hyperparameter search.

    Parameters
    ----------
    search : fitted GridSearchCV or RandomizedSearchCV
        Any fitted search exposing ``cv_results_`` with per-split test
        scores (``split<i>_test_<metric>``), e.g.
        :class:`~skperf.model_selection.NoisyGridSearchCV`. In a halving
        search, candidates of different iterations were scored with
        different resources: compare only those of one iteration.
    scoring : str or None, default=None
        Metric of a multi-metric search. ``None`` uses the search's
        ``refit`` metric when it is a string, and is the only choice for a
        single-metric search.

    Returns
    -------
    dict of str to PerformanceDistribution
        In candidate order, keyed by a readable parameter string with
        parameter names sorted (``"C=0.1, penalty='l2'"``; a candidate
        sampled twice gets ``" [#<index>]"`` appended). Each distribution
        holds the candidate's ``n_splits_`` test scores, is named by its
        key, and carries ``seeds={"split": arange(n_splits)}``, so that any
        two are compared as paired (they share the splits).

    Warns
    -----
    FitFailedWarning
        When a candidate has a non-finite split score (a failed fit scored
        with ``error_score=np.nan``): that candidate is left out.

    Notes
    -----
    scikit-learn scorers are all "greater is better" (``neg_*`` scorers
    already hold negated losses), so every distribution has
    ``greater_is_better=True`` and ``metric`` is the scorer name.

    Whether the scores are independent depends on the search's ``cv``.
    With :class:`~skperf.model_selection.OutOfBootstrap` (or
    ``ShuffleSplit``) each split is an independent draw and every interval
    of the distribution applies (Bouthillier et al., App. B). The folds of
    one K-fold run partition the data and are dependent: the distributions
    then carry ``groups`` (one group per K-fold repeat; all zeros for a
    plain ``KFold`` or an int ``cv``), so interval methods that assume
    independent scores warn with
    :class:`~skperf.exceptions.DependentObservationsWarning`. Comparisons
    between candidates stay paired by split either way.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 2.2 (variance induced by hyperparameter optimization)
    and App. B (out-of-bootstrap splits).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import OutOfBootstrap, search_distributions
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]},
    ...     cv=OutOfBootstrap(n_splits=5, random_state=0),
    ... ).fit(X, y)
    >>> dists = search_distributions(search)
    >>> list(dists)
    ['max_depth=1', 'max_depth=3']
    >>> print(round(dists["max_depth=3"].mean(), 3), dists["max_depth=3"].n)
    0.946 5
    """
    _check_fitted_search(search)
    cv_results = search.cv_results_
    metric = _resolve_metric(cv_results, scoring, _default_metric(search))
    scores = _split_scores(cv_results, metric)
    n_splits = scores.shape[1]
    keys = _candidate_keys(cv_results["params"])
    if metric != "score":
        name = metric
    else:
        name = (
            search.scoring
            if isinstance(search.scoring, str)
            else (scoring if isinstance(scoring, str) else None)
        )
    groups = _split_groups(search.cv, n_splits)
    split_seeds = np.arange(n_splits)
    out = {}
    failed = []
    for key, row in zip(keys, scores, strict=True):
        if not np.all(np.isfinite(row)):
            failed.append(key)
            continue
        out[key] = PerformanceDistribution(
            row,
            metric=name,
            greater_is_better=True,
            name=key,
            groups=groups,
            seeds={"split": split_seeds},
        )
    if failed:
        warnings.warn(
            f"{len(failed)} candidate(s) have non-finite test scores (failed "
            f"fits) and are left out: {failed}.",
            FitFailedWarning,
            stacklevel=_external_stacklevel(),
        )
    return out
