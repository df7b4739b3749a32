"""Is algorithm A better than B on new data? :func:`compare_generalization`.

The sklearn-facing layer over ``skperf/stats/_paired_tests.py``: it builds
the design of shared train/test splits, fits both estimators on every split
through :class:`~skperf.RepeatedEvaluator` (one joblib call, ``memory=``
caching), takes the paired per-split (or per-row) score differences and
returns a :class:`GeneralizationComparison` whose target is named.

``method="auto"`` is decided by ONE constant, :data:`_AUTO_POLICY`, so that
the null/power study can update it in one place.
"""

from __future__ import annotations

import dataclasses
import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.utils import indexable

from ..exceptions import NoVariationWarning
from ..metrics._per_row import DECOMPOSABLE, _row_scores
from ..metrics._registry import _check_rope_for, _check_scorer_names
from ..stats._generalization import corrected_moments
from ..stats._paired_tests import (
    _decision_borderline,
    bayesian_correlated_t,
    combined_5x2cv_f,
    corrected_paired_t,
    detectable_difference_5x2cv_f,
    paired_decision,
)
from ..stats._results import _borderline_note, _fmt, _ResultMixin
from ..stats._sequential import compare_look, default_looks
from ..stats._sequential import detectable_difference as seq_detectable
from ..stats._validation import _check_budget, _check_confidence
from ._cache import warn_never_reused
from ._engine import raise_failed
from ._generalization import (
    _fill_nested,
    _fold_labels,
    _nested_fits,
    _nested_splits,
)
from ._vary import _new_data_kfold

__all__ = ["GeneralizationComparison", "compare_generalization"]

TARGET = "new data"
METHODS = ("auto", "corrected-t", "5x2cv-f", "nested-cv", "bayesian")


# ---------------------------------------------------------------------------
# method="auto": the policy (one place; the null/power study updates it).
#
# Issue 15 (n = 200, 120 datasets of two equally good algorithms): the
# corrected paired t on repeated 10-fold said "significant" on 1.7 %, the
# 5x2cv F on 5.0 %, the Bayesian correlated t (P > 0.95) on 7.5 %. Our own
# study through this function (tests/model_selection/test_compare_generalization.py, slow:
# nearest centroid on two disjoint feature halves, n = 200, a fresh dataset
# each time, 200 datasets; MC s.e. 0.015 at 5 %) measured "significant" on
#   equal halves:   corrected-t 0.025, bayesian 0.055, 5x2cv-f 0.045,
#                   nested-cv 0.03 (100 datasets)
#   unequal halves: corrected-t 0.640, bayesian 0.755, 5x2cv-f 0.580,
#                   nested-cv 0.48 (first 100 datasets, where corrected-t
#                   had 0.69 and 5x2cv-f 0.59)
# so corrected-t holds its level and beats the 5x2cv F's power; the Bayesian
# test's P > 0.95 is a one-sided 5 % test per side (twice the false calls).
# The coverage study over populations (benchmarks/generalization_study.py,
# n = 200, 400 datasets per arm; logistic regression on two disjoint feature
# blocks) measured the corrected t (J - 1 df) on 3, 5 and 10 x 10-fold at
# 0.0325, 0.0425 and 0.0475 "significant" on equal algorithms, detecting
# 0.2175, 0.250 and 0.2725 of the real differences (null --repeats); through
# compare_models 3 x 10: 0.040 / 0.2125, 10 x 10: 0.0575 / 0.2625. At a
# matched 5 % error rate the corrected t detects more than the 5x2cv F (0.29
# vs 0.165), which itself said "significant" on 13 % of equal pairs there.
# So: 10 x 10-fold (Bouckaert & Frank 2004's corrected repeated CV, the
# design of generalization_ci's auto and of compare_models).
_AUTO_POLICY = {
    "method": "corrected-t",
    "n_splits": 10,  # K-fold, repeated
    "max_fits": 100,  # per model, n_fits="auto": 10 x 10-fold (<= 100 per model)
}
_DEFAULT_FITS = {"corrected-t": 100, "bayesian": 30, "5x2cv-f": 10, "nested-cv": 45}
_NESTED_K = 5  # nested CV: 5 outer folds; 15 fits per repetition (pairs of folds)


@dataclass(frozen=True, eq=False)
class GeneralizationComparison(_ResultMixin):
    """Difference of two algorithms' scores on new data, with its test.

    Is algorithm A better than algorithm B on new data? Returned by :func:`compare_generalization`. Numbers are differences
    ``score(A) - score(B)`` in the scorer's units (greater is better, as for
    every scikit-learn scorer): positive means A is better.

    Parameters
    ----------
    estimate : float
        Estimated difference of the expected scores on new data.
    low, high : float
        Confidence interval for it (credible interval for ``"bayesian"``;
        NaN for ``"5x2cv-f"`` when its F test rejects every constant
        difference).
    pvalue : float or None
        Two-sided p-value of "no difference" (None for ``"bayesian"``).
    decision : str
        ``"better"``, ``"worse"``, ``"no significant difference"``, and
        with ``rope``: ``"practically equivalent"``, ``"better, not
        meaningful"``, ``"worse, not meaningful"`` (A relative to B); see
        :func:`skperf.stats._paired_tests.paired_decision`.
    method : str
        ``"corrected-t"``, ``"5x2cv-f"``, ``"nested-cv"`` or ``"bayesian"``
        (the one ``"auto"`` chose).
    confidence : float
        Confidence level (posterior probability threshold for
        ``"bayesian"``).
    rope : float or None
        Half-width of the region of practical equivalence, metric units.
    n : int
        Number of rows.
    n_fits : int
        Fits per model (both models are fitted on the same splits, so
        ``2 * n_fits`` fits in all; cached fits included).
    p_better, p_rope, p_worse : float or None, default=None
        Posterior ``P(A - B > rope)``, ``P(|A - B| <= rope)``,
        ``P(A - B < -rope)`` (``"bayesian"`` only).
    statistic : float or None, default=None
        The t, F or z statistic of the test.
    metric : str, default=""
        The scorer compared.
    target : str, default="new data"
        The expected score of each algorithm trained on about ``n`` rows
        of the same population (the note gives the training size of the
        design).
    note : str, default=""
        The design, the training size and anything the user must know.
    random_state : int or None, default=None
        The root seed actually used (drawn when ``random_state=None``):
        passing it again reproduces the splits and every fit.
    borderline : bool or None, default=None
        Whether the decision is borderline: ``pvalue`` (for ``"bayesian"``
        ``1 -`` the largest posterior probability) within a factor of 2 of
        ``1 - confidence`` either way (0.025 to 0.10 at 95 %), so a re-run
        with another ``random_state`` can flip it; ``note`` then says so
        and what settles it (more fits). None: computed.
    max_fits : int or None, default=None
        The most fits per model the design could spend.
    stopped : str, default="fixed"
        Why the fitting stopped: ``"fixed"`` (a fixed design), ``"decided"``
        (the sequential boundary was crossed), ``"futile"`` (no difference
        the budget can detect is left to find, or the interval lies within
        ``rope``) or ``"budget"`` (``max_fits`` or ``time_budget`` spent).
    detectable_difference : float or None, default=None
        The smallest difference (metric units) the design detects with
        80 % power at its maximum budget (from the spread of the fits so
        far; :func:`skperf.stats._sequential.detectable_difference`; for
        ``"5x2cv-f"`` the F test's own, exact under its model:
        :func:`skperf.stats._paired_tests.detectable_difference_5x2cv_f`).

    Examples
    --------
    >>> from skperf import GeneralizationComparison
    >>> GeneralizationComparison(0.02, 0.005, 0.035, 0.01, "better",
    ...                          "corrected-t", 0.95, None, 200, 100)
    GeneralizationComparison(target='new data', decision='better', estimate=0.02, low=0.005, high=0.035, pvalue=0.01, method='corrected-t', confidence=0.95, n=200, n_fits=100)
    """

    estimate: float
    low: float
    high: float
    pvalue: float | None
    decision: str
    method: str
    confidence: float
    rope: float | None
    n: int
    n_fits: int
    p_better: float | None = None
    p_rope: float | None = None
    p_worse: float | None = None
    statistic: float | None = None
    metric: str = ""
    target: str = TARGET
    note: str = ""
    random_state: int | None = None
    borderline: bool | None = None
    max_fits: int | None = None
    stopped: str = "fixed"
    detectable_difference: float | None = None

    def __post_init__(self):
        for name in (
            "estimate",
            "low",
            "high",
            "pvalue",
            "rope",
            "p_better",
            "p_rope",
            "p_worse",
            "statistic",
        ):
            v = getattr(self, name)
            if v is not None:
                object.__setattr__(self, name, float(v))
        object.__setattr__(self, "confidence", float(self.confidence))
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "n_fits", int(self.n_fits))
        if self.borderline is None:
            flag, what, value = _decision_borderline(self)
            if flag:
                extra = _borderline_note(
                    value,
                    1 - self.confidence,
                    what=what,
                    settle=f"more fits (n_fits above {self.n_fits}) make it "
                    "reproducible; if it stays borderline, only more data settles it",
                )
                object.__setattr__(self, "note", f"{self.note} {extra}.".strip())
            object.__setattr__(self, "borderline", bool(flag))

    def __repr__(self):
        parts = [
            f"target={self.target!r}",
            f"decision={self.decision!r}",
            f"estimate={_fmt(self.estimate)}",
            f"low={_fmt(self.low)}",
            f"high={_fmt(self.high)}",
        ]
        if self.pvalue is not None:
            parts.append(f"pvalue={_fmt(self.pvalue)}")
        parts += [f"method={self.method!r}", f"confidence={self.confidence:g}"]
        if self.rope is not None:
            parts.append(f"rope={self.rope:g}")
        if self.p_better is not None:
            parts += [
                f"p_better={_fmt(self.p_better)}",
                f"p_rope={_fmt(self.p_rope)}",
                f"p_worse={_fmt(self.p_worse)}",
            ]
        parts += [f"n={self.n}", f"n_fits={self.n_fits}"]
        if self.metric:
            parts.append(f"metric={self.metric!r}")
        return f"GeneralizationComparison({', '.join(parts)})"


# ---------------------------------------------------------------------------
# validation (all before any fit)
def _check_method(method):
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"`method` must be one of {list(METHODS)}; got {method!r}.")
    return _AUTO_POLICY["method"] if method == "auto" else method


def _check_scoring(scoring, estimator_a, estimator_b):
    """The one scorer both models are scored with, and its name."""
    if scoring is None:
        if is_classifier(estimator_a) and is_classifier(estimator_b):
            return "accuracy", "accuracy"
        if is_regressor(estimator_a) and is_regressor(estimator_b):
            return "r2", "r2"
        raise TypeError(
            "`scoring=None` needs two classifiers (accuracy) or two regressors "
            "(r2); got a "
            f"{type(estimator_a).__name__} and a {type(estimator_b).__name__}. "
            "Pass one scorer name or callable as `scoring`."
        )
    if isinstance(scoring, str):
        return _check_scorer_names(scoring), scoring
    if callable(scoring):
        name = getattr(getattr(scoring, "_score_func", None), "__name__", None)
        return scoring, str(name or getattr(scoring, "__name__", "score"))
    raise TypeError(
        "`scoring` must be None, one scikit-learn scorer name or a callable "
        f"scorer(estimator, X, y) (one scorer: the comparison tests one "
        f"metric); got {scoring!r}."
    )


def _check_n_fits(n_fits, method):
    if isinstance(n_fits, str) and n_fits == "auto":
        return _DEFAULT_FITS[method]
    if (
        isinstance(n_fits, bool)
        or not isinstance(n_fits, numbers.Integral)
        or n_fits < 1
    ):
        raise ValueError(
            f"`n_fits` must be 'auto' or a positive int (fits per model); got "
            f"{n_fits!r}."
        )
    n_fits = int(n_fits)
    need = {"corrected-t": 10, "bayesian": 10, "nested-cv": _nested_fits(_NESTED_K)}
    if method == "5x2cv-f" and n_fits != 10:
        raise ValueError(
            f"method='5x2cv-f' makes exactly 10 fits per model (5 x 2-fold); got "
            f"n_fits={n_fits}. Use n_fits='auto' or 10."
        )
    if method in need and n_fits < need[method]:
        raise ValueError(
            f"method={method!r} needs n_fits >= {need[method]} per model (one "
            f"repetition of its design); got n_fits={n_fits}."
        )
    return n_fits


def _random_int(random_state):
    """One non-negative int root seed shared by both models (so they pair)."""
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2**63))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(2**31 - 1))
    if random_state is None:
        return int(np.random.SeedSequence().entropy)
    if (
        isinstance(random_state, bool)
        or not isinstance(random_state, numbers.Integral)
        or random_state < 0
    ):
        raise ValueError(
            "`random_state` must be None, a non-negative int, a "
            f"numpy.random.RandomState or Generator; got {random_state!r}."
        )
    return int(random_state)


# ---------------------------------------------------------------------------
def compare_generalization(
    estimator_a,
    estimator_b,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    method="auto",
    confidence=0.95,
    rope=None,
    n_fits="auto",
    random_state=None,
    n_jobs=None,
    memory=None,
    params=None,
    seeder=None,
    max_fits=None,
    precision=None,
    time_budget=None,
):
    """Test whether algorithm A is better than algorithm B on new data.

    Both estimators are fitted on the *same* train/test splits (and the
    same seeds), and the paired differences ``score(A) - score(B)`` are
    tested with a method whose variance accounts for the overlap of the
    training sets, so the decision is about the two *algorithms* trained on
    about ``n`` rows from the same population (target ``"new data"``), not
    about the spread of scores over re-splits of this one dataset.

    Parameters
    ----------
    estimator_a, estimator_b : estimator object
        The two learning algorithms (pipelines, searches ... anything with
        ``fit``). Unfitted; each fit starts from a clone.
    X : array-like of shape (n_samples, n_features)
        Data.
    y : array-like of shape (n_samples,), default=None
        Target.
    groups : array-like of shape (n_samples,), default=None
        Group labels: whole groups go to the training or the test side
        (``GroupKFold(shuffle=True)``). Supported by ``"corrected-t"``,
        ``"bayesian"`` and ``"5x2cv-f"``.
    scoring : str, callable or None, default=None
        One scorer (greater is better). None: ``"accuracy"`` for two
        classifiers, ``"r2"`` for two regressors. ``"nested-cv"`` needs a
        decomposable one: ``"accuracy"``, ``"neg_brier_score"``,
        ``"neg_log_loss"``, ``"neg_mean_absolute_error"``,
        ``"neg_mean_squared_error"``.
    method : {"auto", "corrected-t", "5x2cv-f", "nested-cv", "bayesian"}, \
default="auto"
        - ``"corrected-t"``: repeated K-fold (10 x 10 by default), Nadeau &
          Bengio's corrected resampled paired t (df = rK - 1).
        - ``"5x2cv-f"``: 5 x 2-fold, Alpaydin's combined F test (each model
          trains on n/2 rows).
        - ``"nested-cv"``: Bates, Hastie & Tibshirani's nested CV on the
          per-row score differences (5 outer folds, 3 repetitions by
          default), with their bias correction; decomposable scorers.
        - ``"bayesian"``: Corani & Benavoli's correlated Bayesian t-test on
          the repeated 10-fold differences; the decision follows the
          posterior it reports: ``"better"`` when ``P(A - B > rope) >
          confidence``, ``"worse"`` when ``P(A - B < -rope) > confidence``,
          ``"practically equivalent"`` when ``P(|A - B| <= rope) >
          confidence``, otherwise undecided (``"no significant
          difference"``).
        - ``"auto"``: the policy in ``_AUTO_POLICY``: ``"corrected-t"`` on
          repeated 10-fold, the default test with the lowest false
          "significant" rate on equally good algorithms (issue 15).
    confidence : float, default=0.95
        Confidence level of the interval; the test is at ``1 - confidence``.
    rope : float or None, default=None
        Region of practical equivalence ``[-rope, rope]`` in the metric's
        units (e.g. 0.01 accuracy), smaller than the metric's range
        (``rope=1`` on accuracy is refused). Adds the decisions
        ``"practically equivalent"`` and (frequentist methods) ``"better,
        not meaningful"`` / ``"worse, not meaningful"`` (significant, but
        the estimate is inside the rope).
    n_fits : "auto" or int, default="auto"
        Fits per model. ``"auto"``: 100 for ``"corrected-t"`` (10 x
        10-fold), 30 for ``"bayesian"`` (3 x 10-fold), 45 for
        ``"nested-cv"`` (3 x 15), 10 for ``"5x2cv-f"`` (its only design). An int sets the number of
        repetitions to ``n_fits // fits_per_repetition``.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the splits and the estimators' seeds; the same value gives
        the same splits (and, with ``memory``, a rerun that refits nothing).
    n_jobs : int or None, default=None
        Number of joblib jobs for the fits.
    memory : None, str, os.PathLike or joblib.Memory, default=None
        Cache of every fit (see :class:`~skperf.RepeatedEvaluator`): a rerun
        with the same arguments loads every fit instead of refitting.
    params : dict or None, default=None
        Fit parameters routed to both estimators' ``fit`` (indexed by row).
    seeder : callable or None, default=None
        ``seeder(estimator, seed)`` called in the worker right before each
        fit of either model with that fit's init seed (see
        :class:`~skperf.RepeatedEvaluator`); torch and skorch nets are
        seeded without it.
    max_fits : int or None, default=None
        The most fits per model. With ``method="auto"`` and
        ``n_fits="auto"`` (the default) the design is sequential: rounds of
        10-fold CV, at most ``max_fits`` (default 100) per model, stopped as
        soon as the answer is known: ``"decided"`` (the O'Brien-Fleming
        boundary of the group-sequential corrected paired t is crossed at
        round 2 or the last), ``"futile"`` (the interval lies within
        ``rope``, or the full budget would detect the current difference
        with probability below 0.1) or ``"budget"``. The type I error is
        held over the looks (Lan & DeMets 1983; measured on the study's
        datasets, docs/sequential_tables.inc).
    precision : float or None, default=None
        Sequential design: also stop once the interval's half-width is at
        most this (metric units).
    time_budget : float or None, default=None
        Sequential design: seconds after which no new round starts.

    Returns
    -------
    GeneralizationComparison
        ``estimate``, ``low``, ``high`` (A - B), ``pvalue``, ``decision``,
        ``method``, ``target="new data"`` and a ``note`` naming the design.

    Raises
    ------
    ValueError, TypeError
        For an invalid argument, before any fit.

    See Also
    --------
    skperf.generalization_ci : An interval for one algorithm's score.
    skperf.compare_models : Many models, with a multiple-comparison correction.

    Notes
    -----
    Re-splitting one dataset many times and testing the scores as if they
    were independent (a plain paired t or Wilcoxon over repeats) answers a
    different question, and says "significant" for equally good algorithms
    on up to half of all datasets (issue 15). The corrected paired t
    inflates the variance by ``1 + J n_test/n_train`` for the shared
    training rows; the 5x2cv F test uses nearly disjoint training sets;
    nested CV estimates the variance of the CV estimate directly. Each
    method's target is the difference of expected scores of the algorithms
    trained on the training size of its design (0.9 n for 10-fold, n/2 for
    5x2cv, bias-corrected to n for nested CV).

    References
    ----------
    Nadeau & Bengio (2003), Machine Learning 52, Sec. 5; Bouckaert & Frank
    (2004), PAKDD, Sec. 3-4; Alpaydin (1999), Neural Computation 11(8),
    eq. 3; Bates, Hastie & Tibshirani (2024), JASA 119, Sec. 4 (Algorithm
    1); Corani & Benavoli (2015), Machine Learning 100, Sec. 3.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from skperf import compare_generalization
    >>> X, y = load_iris(return_X_y=True)
    >>> res = compare_generalization(KNeighborsClassifier(), DummyClassifier(),
    ...                              X, y, n_fits=20, random_state=0)
    >>> res.decision, res.method, res.target
    ('better', 'corrected-t', 'new data')
    >>> print(f"{res.estimate:.3f} [{res.low:.3f}, {res.high:.3f}]")
    0.733 [0.654, 0.813]
    """
    # ---- validate everything before any fit
    for name, est in (("estimator_a", estimator_a), ("estimator_b", estimator_b)):
        if not hasattr(est, "fit"):
            raise TypeError(f"`{name}` must be an estimator with fit; got {est!r}.")
    auto = isinstance(method, str) and method == "auto"
    method = _check_method(method)
    confidence = _check_confidence(confidence)
    scorer, metric = _check_scoring(scoring, estimator_a, estimator_b)
    rope_value = None if rope is None else _check_rope_for(rope, metric)
    if method == "nested-cv" and metric not in DECOMPOSABLE:
        raise ValueError(
            "method='nested-cv' needs per-row scores, so a decomposable scorer "
            f"({', '.join(DECOMPOSABLE)}); got scoring={metric!r}. Use "
            "method='corrected-t' or 'bayesian' for it."
        )
    if method == "nested-cv" and groups is not None:
        raise ValueError(
            "method='nested-cv' assumes independent rows; with `groups` use "
            "method='corrected-t' (repeated GroupKFold)."
        )
    sequential = auto and n_fits == "auto"
    max_fits, precision, time_budget = _check_budget(
        max_fits, precision, time_budget, min_fits=_AUTO_POLICY["n_splits"]
    )
    if (precision is not None or time_budget is not None) and not sequential:
        raise ValueError(
            "`precision` and `time_budget` stop the sequential design, which is "
            f"method='auto' with n_fits='auto'; got method={method!r}, "
            f"n_fits={n_fits!r}."
        )
    fits = _check_n_fits(n_fits, method)
    if sequential and max_fits is not None:
        fits = min(fits, max_fits - max_fits % _AUTO_POLICY["n_splits"])
    elif max_fits is not None and max_fits < fits:
        raise ValueError(
            f"`max_fits`={max_fits} is smaller than the fixed design's {fits} fits "
            f"per model (n_fits={n_fits!r}, method={method!r})."
        )
    if params is not None and not isinstance(params, dict):
        raise TypeError(f"`params` must be None or a dict; got {params!r}.")
    seed = _random_int(random_state)
    warn_never_reused(
        memory, random_state, reproduce="the random_state of the result to reproduce"
    )
    X, y, groups = indexable(X, y, groups)
    n = X.shape[0] if hasattr(X, "shape") else len(X)
    n_units = n if groups is None else len(np.unique(np.asarray(groups)))
    K = {"5x2cv-f": 2, "nested-cv": _NESTED_K}.get(method, _AUTO_POLICY["n_splits"])
    min_units = 2 * K if method != "nested-cv" else 5 * K
    if n_units < min_units:
        unit = "rows" if groups is None else "groups"
        label = f"'auto' ({method}, {K}-fold)" if auto else f"{method!r} ({K}-fold)"
        raise ValueError(
            f"method={label} needs at least {min_units} {unit}; got {n_units}."
        )
    kw = {"scorer": scorer, "n_jobs": n_jobs, "memory": memory, "params": params}
    if sequential:
        kw["stopping"] = _CompareStopping(confidence, rope_value, precision)
        kw["time_budget"] = time_budget
    kw["seeder"] = seeder  # reaches every RepeatedEvaluator (_evaluator)
    if method == "nested-cv":
        return _nested(
            estimator_a,
            estimator_b,
            X,
            y,
            n,
            fits,
            seed,
            confidence,
            rope_value,
            metric,
            **kw,
        )
    return _resampled(
        estimator_a,
        estimator_b,
        X,
        y,
        groups,
        n,
        method,
        K,
        fits,
        seed,
        confidence,
        rope_value,
        metric,
        auto,
        **kw,
    )


# ---------------------------------------------------------------------------
# running the fits: every fit of both models in ONE Parallel call
def _fit(evaluators, X, y, groups, n_jobs, params, stopping=None, time_budget=None):
    """Fit every evaluator in one engine call; every fit runs, then any
    failure is reported once: how many of how many, per model, and the first
    (the rule of :func:`skperf.model_selection._engine.raise_failed`)."""
    from sklearn.exceptions import FitFailedWarning

    from ._evaluator import _fit_evaluators

    with warnings.catch_warnings():
        # given splits repeated once are the design, not a missing variation
        warnings.simplefilter("ignore", NoVariationWarning)
        # failures are reported below, with the model and the count
        warnings.simplefilter("ignore", FitFailedWarning)
        try:
            _fit_evaluators(
                evaluators,
                X,
                y,
                groups=groups,
                n_jobs=n_jobs,
                _look=stopping,
                _time_budget=time_budget,
                **(params or {}),
            )
        except Exception as exc:
            if not all(hasattr(ev, "results_") for ev in evaluators.values()):
                raise  # not a failed fit: invalid input found before fitting
            error = exc
        else:
            error = None
    outcomes = []
    for key, ev in evaluators.items():
        res = ev.results_
        model = "A" if key.startswith("a") else "B"
        for r, f, e in zip(res["repeat"], res["fold"], res["error"], strict=True):
            where = f"model {model}, repeat {r}, split {f}"
            failed = isinstance(e, str)  # None (or NaN in a frame): fitted
            outcomes.append({"error": f"({where}) {e}" if failed else None})
    raise_failed(outcomes, what="the comparison needs every fit")
    if error is not None:  # pragma: no cover - a failure outside the fits
        raise error
    return evaluators


def _evaluator(
    estimator, cv, n_repeats, seed, scorer, memory, predictions=False, seeder=None
):
    from ._evaluator import RepeatedEvaluator

    return RepeatedEvaluator(
        estimator,
        scoring=scorer,
        cv=cv,
        n_repeats=n_repeats,
        random_state=seed,
        refit=False,
        error_score=np.nan,
        memory=memory,
        return_predictions=predictions,
        seeder=seeder,
    )


def _test_scores(ev):
    col = next(c for c in ev.results_.columns if c.startswith("test_"))
    return ev.results_[col].to_numpy(dtype=float)


class _CompareStopping:
    """``look`` of :func:`skperf.model_selection._engine.fit_all` for the sequential paired
    comparison (:func:`skperf.stats._sequential.compare_look` on the fold
    differences so far): the default of ``compare_generalization``.

    The rule, chosen by measurement (``benchmarks/sequential_study.py``,
    1000 datasets per cell, docs/sequential_tables.inc): Lan-DeMets
    O'Brien-Fleming spending with efficacy looks at round 2 and the last,
    a non-binding futility stop when the conditional power is below 0.1.
    Equal algorithms: "significant" on 0.023-0.044 (fixed 10 x 10:
    0.027-0.046); real differences: detected within 0.018 of the fixed
    design; mean fits 30 % of the fixed design's.
    """

    def __init__(self, confidence, rope, precision=None):
        self.confidence = confidence
        self.rope = rope
        self.precision = precision
        self.last = None

    def __call__(self, jobs, rounds, final):
        job_a, job_b = jobs
        if job_a.results["error"].notna().any() or job_b.results["error"].notna().any():
            return "failed"  # _fit reports it
        name = job_a.names[0]
        d = job_a.results[f"test_{name}"].to_numpy(float) - job_b.results[
            f"test_{name}"
        ].to_numpy(float)
        res = job_a.results
        ratio = float(res["n_test"].mean() / res["n_train"].mean())
        self.last = compare_look(
            d.reshape(rounds, -1),
            test_train_ratio=ratio,
            max_rounds=job_a.spec.n_repeats,
            confidence=self.confidence,
            rope=self.rope,
            final=final,
        )
        if self.last.state != "continue":
            return self.last.state
        if self.precision is not None and (self.last.high - self.last.low) / 2 <= (
            self.precision
        ):
            return "precise"
        return None

    def state(self, rounds, stop):
        """The progress bar's words after a look: who is ahead, and whether
        the comparison is decided (issue 26, item 5)."""
        look = self.last
        if look is None:
            return None
        ahead = "tied"
        if look.estimate != 0:
            ahead = "A ahead" if look.estimate > 0 else "B ahead"
        if stop is None:
            return f"{ahead}, undecided (p = {look.pvalue:.2g})"
        return f"{ahead}, {stop} after {rounds} round(s)"


#: The study's measured false-"significant" rates of the 5x2cv F test and the
#: design it recommends instead at small budgets (benchmarks/sequential_study.py,
#: docs/sequential_tables.inc, 1000 datasets per cell: equal logistic
#: regressions, accuracy and log loss, n = 200 and 1000).
_SMALL_BUDGET = {
    "5x2cv-f": (
        " In the coverage study the 5x2cv F test said 'significant' on 11.0 % of "
        "equal algorithms at n = 200 (accuracy; 3.0-5.5 % elsewhere). At 10 fits "
        "per model the recommended design is the corrected t on 1 x 10-fold "
        "(method='corrected-t', n_fits=10: 0.8-1.1 % there, detecting a "
        "difference of about 0.22 in accuracy at n = 200 and 0.10 at n = 1000 "
        "with 80 % power)."
    ),
    "bayesian": (
        " At {fits} fits per model the study recommends the corrected t "
        "(method='corrected-t', n_fits={fits}): it held its level on equal "
        "algorithms at 10 and 20 fits (0.8-2.4 % 'significant')."
    ),
}


def _budget_note(method, fits):
    """A small budget's recommended design, when the method chosen is not it."""
    if method == "5x2cv-f":
        return _SMALL_BUDGET["5x2cv-f"]
    if method == "bayesian" and fits <= 20:
        return _SMALL_BUDGET["bayesian"].format(fits=fits)
    return ""


def _check_paired(ev_a, ev_b):
    """Both models were fitted on identical splits, in the same order."""
    ids_a = ev_a.results_["split_id"].to_numpy()
    ids_b = ev_b.results_["split_id"].to_numpy()
    if not np.array_equal(ids_a, ids_b):  # pragma: no cover - a bug if reached
        raise RuntimeError("compare_generalization: the two models' splits differ.")


def _result(res, decision, method, confidence, rope, n, n_fits, metric, note, seed):
    bayes = method == "bayesian"
    return GeneralizationComparison(
        estimate=res.estimate,
        low=res.low,
        high=res.high,
        pvalue=None if bayes else res.pvalue,
        decision=decision,
        method=method,
        confidence=confidence,
        rope=rope,
        n=n,
        n_fits=n_fits,
        p_better=res.p_better if bayes else None,
        p_rope=res.p_rope if bayes else None,
        p_worse=res.p_worse if bayes else None,
        statistic=res.statistic,
        metric=metric,
        note=note,
        random_state=seed,
    )


def _target_note(train_rows, n):
    return (
        f"Target: the difference of the expected scores on new data of the two "
        f"algorithms trained on {train_rows:g} of n = {n} rows (A minus B; "
        "positive: A better)."
    )


def _resampled(
    estimator_a,
    estimator_b,
    X,
    y,
    groups,
    n,
    method,
    K,
    fits,
    seed,
    confidence,
    rope,
    metric,
    auto,
    *,
    scorer,
    n_jobs,
    memory,
    params,
    stopping=None,
    time_budget=None,
    seeder=None,
):
    """corrected-t, bayesian, 5x2cv-f: per-split differences on repeated K-fold.

    With ``stopping`` (``method="auto"``, ``n_fits="auto"``) the repeats run
    one round at a time and stop when :class:`_CompareStopping` says so."""
    R = 5 if method == "5x2cv-f" else fits // K
    # random K-fold splits, as the tests were derived for, as compare_models
    classifier = is_classifier(estimator_a) or is_classifier(estimator_b)
    cv = _new_data_kfold(K, groups, classifier)
    evs = {
        "a": _evaluator(estimator_a, cv, R, seed, scorer, memory, seeder=seeder),
        "b": _evaluator(estimator_b, cv, R, seed, scorer, memory, seeder=seeder),
    }
    _fit(evs, X, y, groups, n_jobs, params, stopping, time_budget)
    _check_paired(evs["a"], evs["b"])
    d = _test_scores(evs["a"]) - _test_scores(evs["b"])
    results = evs["a"].results_
    n_train, n_test = results["n_train"].mean(), results["n_test"].mean()
    ratio = n_test / n_train
    R_run = int(results["repeat"].nunique())
    stopped, detectable = "fixed", None
    if stopping is not None:
        look = stopping.last
        stopped = "budget" if evs["a"].stopped_ == "max_fits" else evs["a"].stopped_
        stopped = (
            look.state if stopped == "budget" and look.state != "continue" else stopped
        )
        res = look
        decision = look.decision
        detectable = look.detectable_difference
        design = (
            f"{R_run} of at most {R} rounds of {K}-fold CV ({len(d)} of at most "
            f"{R * K} fits per model), stopped: {stopped} ({look.reason.rstrip('.')}); "
            "group-sequential corrected resampled paired t (Nadeau & Bengio 2003; "
            "Lan-DeMets O'Brien-Fleming spending, efficacy looks at rounds "
            f"{', '.join(map(str, default_looks(R)))}, non-binding futility; "
            f"the interval is the repeated confidence interval at level "
            f"{look.level:.3g}), df = {len(d) - 1}"
        )
    elif method == "5x2cv-f":
        res = combined_5x2cv_f(d.reshape(5, 2), confidence=confidence)
        decision = paired_decision(res, rope=rope)
        detectable = detectable_difference_5x2cv_f(
            d.reshape(5, 2), confidence=confidence
        )
        design = "5 x 2-fold CV, Alpaydin's combined 5x2cv F test (F(10, 5))"
    elif method == "bayesian":
        res = bayesian_correlated_t(
            d, test_train_ratio=ratio, rope=rope or 0.0, confidence=confidence
        )
        decision = paired_decision(res)
        design = (
            f"{R} x {K}-fold CV, correlated Bayesian t-test (Corani & Benavoli "
            f"2015, rho = {n_test / (n_train + n_test):.3g}); decision from "
            f"the posterior: 'better' when P(A - B > rope) > {confidence:g}, "
            f"'worse' when P(A - B < -rope) > {confidence:g}, 'practically "
            f"equivalent' when P(|A - B| <= rope) > {confidence:g}, otherwise "
            "undecided ('no significant difference')"
        )
    else:
        res = corrected_paired_t(d, test_train_ratio=ratio, confidence=confidence)
        decision = paired_decision(res, rope=rope)
        design = (
            f"{R} x {K}-fold CV, corrected resampled paired t (Nadeau & Bengio "
            f"2003), df = {R * K - 1}"
        )
    if groups is not None:
        design += "; whole groups held out (GroupKFold)"
    if auto:
        design = "method='auto' chose: " + design
    if detectable is None:
        _, se = corrected_moments(d, ratio)
        detectable = seq_detectable(float(se), df=len(d) - 1, confidence=confidence)
    note = f"{design}. {_target_note(round(n_train), n)}"
    note += _budget_note(method, len(d))
    if detectable is not None and np.isfinite(detectable):
        note += (
            f" With these fits a difference of {detectable:.3g} would be detected "
            "with 80 % power."
        )
    out = _result(
        res, decision, method, confidence, rope, n, len(d), metric, note, seed
    )
    return dataclasses.replace(
        out,
        max_fits=R * K,
        stopped=stopped,
        detectable_difference=detectable,
        borderline=out.borderline,
    )


# ---------------------------------------------------------------------------
# nested CV on per-row differences
def _per_row(ev, metric, y):
    """Per fit: (test rows, per-row scores), checked against the scorer."""
    pred, meta = ev.predictions_, ev._pred_meta["meta"]
    scores = _test_scores(ev)
    out = []
    for i in range(len(pred)):
        test = np.asarray(pred["test_index"].iloc[i], dtype=np.int64)
        fit = {
            "y_pred": pred["y_pred"].iloc[i],
            "y_score": pred["y_score"].iloc[i],
            "score_is_proba": meta[i][2],
        }
        rows = _row_scores(metric, y[test], fit, np.asarray(meta[i][0]))
        if not np.isclose(rows.mean(), scores[i], rtol=1e-7, atol=1e-10):
            raise ValueError(
                f"scoring={metric!r}: the mean of the per-row scores "
                f"({rows.mean()!r}) differs from the scorer's value ({scores[i]!r}); "
                "method='nested-cv' cannot be used with this scorer."
            )
        out.append((test, rows))
    return out


def _nested(
    estimator_a,
    estimator_b,
    X,
    y,
    n,
    fits,
    seed,
    confidence,
    rope,
    metric,
    *,
    scorer,
    n_jobs,
    memory,
    params,
    seeder=None,
):
    from ..stats._generalization import nested_cv_ci

    K = _NESTED_K
    R = fits // _nested_fits(K)
    seeds = [int(c.generate_state(1)[0]) for c in np.random.SeedSequence(seed).spawn(R)]
    y_arr = np.asarray(y)
    folds = np.stack([_fold_labels(y, None, n, K, s) for s in seeds])
    evs = {}
    for r, s in enumerate(seeds):
        splits = _nested_splits(folds[r], K)
        evs[f"a{r}"] = _evaluator(
            estimator_a, splits, 1, s, scorer, memory, True, seeder
        )
        evs[f"b{r}"] = _evaluator(
            estimator_b, splits, 1, s, scorer, memory, True, seeder
        )
    _fit(evs, X, y, None, n_jobs, params)
    inner = np.full((R, K, n), np.nan)
    outer = np.empty((R, n))
    for r in range(R):
        _check_paired(evs[f"a{r}"], evs[f"b{r}"])
        rows_a = _per_row(evs[f"a{r}"], metric, y_arr)
        rows_b = _per_row(evs[f"b{r}"], metric, y_arr)
        diffs = [(t, ra - rb) for (t, ra), (_, rb) in zip(rows_a, rows_b, strict=True)]
        _fill_nested(diffs, folds[r], K, inner[r], outer[r])
    ci = nested_cv_ci(inner, outer, folds, confidence=confidence)
    pvalue = ci.pvalue()
    shim = _Shim(ci.estimate, ci.low, ci.high, pvalue, confidence, "nested-cv")
    decision = paired_decision(shim, rope=rope)
    se = float(ci.se)
    stat = (
        float(ci.estimate) / se
        if se > 0
        else (0.0 if ci.estimate == 0 else np.sign(ci.estimate) * np.inf)
    )
    # the normal reference the interval uses: a z test's detectable difference
    detectable = (
        seq_detectable(se, df=np.inf, confidence=confidence)
        if np.isfinite(se)
        else None
    )
    note = (
        f"{R} x nested {K}-fold CV on per-row score differences (Bates, Hastie & "
        f"Tibshirani 2024, bias-corrected to n rows; normal reference). "
        f"{_target_note(n, n)}"
    )
    if detectable is not None:
        note += (
            f" With these fits a difference of {detectable:.3g} would be "
            "detected with 80 % power."
        )
    return GeneralizationComparison(
        estimate=ci.estimate,
        low=ci.low,
        high=ci.high,
        pvalue=pvalue,
        decision=decision,
        method="nested-cv",
        confidence=confidence,
        rope=rope,
        n=n,
        n_fits=R * _nested_fits(K),
        max_fits=R * _nested_fits(K),
        statistic=stat,
        metric=metric,
        note=note,
        random_state=seed,
        detectable_difference=detectable,
    )


@dataclass(frozen=True)
class _Shim:
    estimate: float
    low: float
    high: float
    pvalue: float
    confidence: float
    method: str
