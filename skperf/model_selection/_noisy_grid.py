"""Noisy grid search: the grid's bounds perturbed per fit (Bouthillier et al., App. E.2).

Grid search has no random parameter, yet the choice of the grid (its bounds
and its step) is arbitrary and makes the outcome vary. A noisy grid search
draws the bounds of every numeric dimension around the given ones, from its
own ``random_state``, so that re-running it with different seeds measures the
variance that the choice of grid induces.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import GridSearchCV, ParameterGrid
from sklearn.utils import check_random_state

from ..utils._sklearn_compat import ParamInterval, StrOptions

__all__ = ["NoisyGridSearchCV"]

_SCALES = ("auto", "linear", "log", "none")


def _is_numeric_list(values):
    return (
        len(values) >= 2
        and all(
            isinstance(v, Real) and not isinstance(v, bool | np.bool_) for v in values
        )
        and all(np.isfinite(float(v)) for v in values)
        and len({float(v) for v in values}) == len(values)
    )


def _evenly_spaced(v):
    d = np.diff(np.sort(v))
    return np.allclose(d, d.mean(), rtol=1e-6, atol=0)


def _resolve_scale(values, scale):
    """ "linear", "log" or "none" for one list of grid values."""
    if scale == "none" or not _is_numeric_list(values):
        return "none"
    v = np.asarray(values, dtype=float)
    if scale == "log" and np.any(v <= 0):
        raise ValueError(
            f"scale='log' needs positive grid values; got {list(values)!r}."
        )
    if scale != "auto":
        return scale
    positive = np.all(v > 0)
    if positive and v.size == 2:
        return "log" if v.max() / v.min() >= 10 else "linear"
    if positive and not _evenly_spaced(v) and _evenly_spaced(np.log(v)):
        return "log"
    return "linear"


def _perturb_values(values, scale, perturbation, rng):
    """Perturbed copy of one dimension's grid values (App. E.2).

    Both bounds move independently by U(-p * step, p * step) in the working
    scale, where step is the mean spacing (b - a) / (n - 1); every value is
    mapped affinely from [a, b] to the new bounds, so an evenly spaced grid
    stays evenly spaced with the same number of values.
    """
    v = np.asarray(values, dtype=float)
    w = np.log(v) if scale == "log" else v
    lo, hi = w.min(), w.max()
    step = (hi - lo) / (v.size - 1)
    new_lo, new_hi = (
        bound + rng.uniform(-perturbation * step, perturbation * step)
        for bound in (lo, hi)
    )
    w_new = new_lo + (w - lo) * (new_hi - new_lo) / (hi - lo)
    out = np.exp(w_new) if scale == "log" else w_new
    if scale == "linear":
        # keep the sign domain of the given values (e.g. alpha >= 0)
        if np.all(v >= 0):
            out = np.maximum(out, 0.0)
        elif np.all(v <= 0):
            out = np.minimum(out, 0.0)
    if all(isinstance(x, Integral) for x in values):
        if np.all(v >= 1):
            out = np.maximum(out, 1.0)  # counts and depths: positive stays >= 1
        ints = [int(x) for x in np.round(out)]
        return list(dict.fromkeys(ints))  # rounding may merge values: drop repeats
    return [float(x) for x in out]


def _perturb_grid(param_grid, perturbation, scale, rng):
    """Perturbed grid with the structure of ``param_grid`` (dict or list of dicts)."""
    grids = [param_grid] if hasattr(param_grid, "items") else list(param_grid)
    out = []
    for grid in grids:
        new = {}
        for name in sorted(grid):  # sorted: the draws do not depend on dict order
            values = list(grid[name])
            user_scale = scale.get(name, "auto") if isinstance(scale, dict) else scale
            if user_scale not in _SCALES:
                raise ValueError(
                    f"`scale` for {name!r} must be one of {_SCALES}; got {user_scale!r}."
                )
            s = _resolve_scale(values, user_scale)
            new[name] = (
                values if s == "none" else _perturb_values(values, s, perturbation, rng)
            )
        out.append({name: new[name] for name in grid})
    return out[0] if hasattr(param_grid, "items") else out


class NoisyGridSearchCV(GridSearchCV):
    """Grid search over a grid whose numeric bounds are perturbed per fit.

    Every numeric dimension of ``param_grid`` (a list of at least two
    distinct numbers) gets new bounds drawn around its smallest and largest
    value; the values in between are moved with them. Other dimensions
    (strings, estimators, ``None``, single values) are searched as given.
    The draw comes from ``random_state``, so a
    :class:`~skperf.RepeatedEvaluator` varying ``"search"`` gives each repeat
    a different grid and measures the variance that the choice of grid
    induces.

    Parameters
    ----------
    estimator : estimator object
        As in :class:`~sklearn.model_selection.GridSearchCV`.
    param_grid : dict or list of dicts
        The grid around which grids are drawn.
    perturbation : float, default=0.5
        Half-width of the uniform perturbation of each bound, as a fraction
        of the grid's step: each bound moves by ``U(-perturbation * step,
        perturbation * step)``. ``0.5`` is Bouthillier et al.'s choice (half
        a step) and the largest allowed: up to 0.5 the perturbed values keep
        their order; ``0`` gives the plain grid.
    scale : {"auto", "linear", "log", "none"} or dict, default="auto"
        Scale in which a dimension is perturbed, or a dict mapping parameter
        names to a scale (missing names use ``"auto"``). ``"none"`` leaves a
        dimension unperturbed. ``"auto"`` uses ``"log"`` for positive values
        evenly spaced in log scale (e.g. ``[0.01, 0.1, 1, 10]``; with two
        values, when their ratio is at least 10) and ``"linear"`` otherwise.
    random_state : int, RandomState instance or None, default=None
        Seed of the perturbation, drawn anew at every ``fit``.
    scoring : str, callable, list, tuple, dict or None, default=None
        As in :class:`~sklearn.model_selection.GridSearchCV`.
    n_jobs : int or None, default=None
        As in :class:`~sklearn.model_selection.GridSearchCV`.
    refit : bool, str or callable, default=True
        As in :class:`~sklearn.model_selection.GridSearchCV` (e.g.
        :func:`~skperf.model_selection.quantile_refit`).
    cv : int, cross-validation generator, iterable or None, default=None
        As in :class:`~sklearn.model_selection.GridSearchCV`.
    verbose : int, default=0
        As in :class:`~sklearn.model_selection.GridSearchCV`.
    pre_dispatch : int or str, default="2*n_jobs"
        As in :class:`~sklearn.model_selection.GridSearchCV`.
    error_score : "raise" or float, default=np.nan
        As in :class:`~sklearn.model_selection.GridSearchCV`.
    return_train_score : bool, default=False
        As in :class:`~sklearn.model_selection.GridSearchCV`.

    Attributes
    ----------
    param_grid_ : dict or list of dicts
        The perturbed grid searched by the last ``fit`` (same structure as
        ``param_grid``).
    cv_results_, best_estimator_, best_score_, best_params_, best_index_, ...
        As in :class:`~sklearn.model_selection.GridSearchCV`.

    See Also
    --------
    sklearn.model_selection.GridSearchCV : The deterministic grid search.
    sklearn.model_selection.RandomizedSearchCV : Random search; to cover the
        same space as the noisy grid, widen its ranges by ``perturbation``
        steps on each side (App. E.3).

    Notes
    -----
    With ``a`` and ``b`` the smallest and largest value of a dimension with
    ``n`` values and ``step = (b - a) / (n - 1)`` (in the working scale:
    ``log`` values for the log scale), the noisy grid draws

    ``a' ~ U(a - p step, a + p step)``, ``b' ~ U(b - p step, b + p step)``

    independently and maps every value ``x`` to ``a' + (x - a) (b' - a') /
    (b - a)``: an evenly spaced grid becomes ``linspace(a', b', n)``
    (``logspace`` in log scale), as in App. E.2. Each value moves by at most
    ``p step`` and, since the map is linear in ``a'`` and ``b'``, its
    expectation is the original value: in expectation the noisy grid covers
    the given grid. Integer dimensions are rounded to integers (values that
    round to the same integer are merged; positive integers stay at least 1);
    in linear scale a dimension whose values are all non-negative
    (non-positive) stays so, by clipping at 0.
    A dimension with values that must stay in a bounded range (e.g. a
    fraction in ``(0, 1]``) should be given ``scale="none"`` or a grid
    whose perturbed bounds stay valid.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 2.2 (variance induced by hyperparameter optimization)
    and App. E.1-E.2 (grid and noisy grid search).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import NoisyGridSearchCV
    >>> X, y = load_iris(return_X_y=True)
    >>> search = NoisyGridSearchCV(
    ...     DecisionTreeClassifier(random_state=0),
    ...     {"ccp_alpha": [0.001, 0.01, 0.1], "max_depth": [2, 5, 8]},
    ...     random_state=1,
    ... ).fit(X, y)
    >>> [round(a, 5) for a in search.param_grid_["ccp_alpha"]]
    [0.00083, 0.01171, 0.16608]
    >>> search.param_grid_["max_depth"]
    [1, 4, 7]
    """

    _parameter_constraints: dict = {
        **GridSearchCV._parameter_constraints,
        "perturbation": [ParamInterval(Real, 0, 0.5, closed="both")],
        "scale": [StrOptions(set(_SCALES)), dict],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        perturbation=0.5,
        scale="auto",
        random_state=None,
        scoring=None,
        n_jobs=None,
        refit=True,
        cv=None,
        verbose=0,
        pre_dispatch="2*n_jobs",
        error_score=np.nan,
        return_train_score=False,
    ):
        super().__init__(
            estimator=estimator,
            param_grid=param_grid,
            scoring=scoring,
            n_jobs=n_jobs,
            refit=refit,
            cv=cv,
            verbose=verbose,
            pre_dispatch=pre_dispatch,
            error_score=error_score,
            return_train_score=return_train_score,
        )
        self.perturbation = perturbation
        self.scale = scale
        self.random_state = random_state

    def _run_search(self, evaluate_candidates):
        """Search the perturbed grid (drawn from ``random_state``)."""
        rng = check_random_state(self.random_state)
        self.param_grid_ = _perturb_grid(
            self.param_grid, self.perturbation, self.scale, rng
        )
        evaluate_candidates(ParameterGrid(self.param_grid_))
