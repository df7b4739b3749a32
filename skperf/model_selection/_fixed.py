"""Fixed hyperparameter optimization (Bouthillier et al.'s FixedHOptEst).

:func:`fixed_search` runs a search once and freezes its choice
(Bouthillier et al., Sec. 3.2.2).
"""

from __future__ import annotations

from sklearn.base import clone

__all__ = ["fixed_search"]


def fixed_search(search, X, y=None, **fit_params):
    """Run a search once and return its estimator with the chosen hyperparameters.

    Parameters
    ----------
    search : GridSearchCV, RandomizedSearchCV or similar
        An unfitted (or fitted: it is refitted) search with ``estimator``
        and, after ``fit``, ``best_params_``. It is fitted in place, so its
        ``cv_results_`` stay available.
    X : array-like of shape (n_samples, n_features)
        Data the search sees.
    y : array-like of shape (n_samples,), default=None
        Targets.
    **fit_params : dict
        Passed to ``search.fit``.

    Returns
    -------
    estimator : estimator
        ``clone(search.estimator).set_params(**search.best_params_)``,
        unfitted; wrap it in :class:`~skperf.RepeatedEvaluator` to vary
        splits and initializations with the hyperparameters held fixed.

    Notes
    -----
    This is Bouthillier et al.'s biased estimator FixedHOptEst (Sec. 3.2.2):
    one hyperparameter optimization, then only the other sources varied.
    It costs one search instead of one per repeat, but

    * the variance induced by hyperparameter optimization (which is as large
      as that of weight initialization, Sec. 2.2) is left out, and the
      repeats, all conditioned on one search, are correlated: more repeats
      do not shrink the error of the mean as ``1 / n`` (their eq. 7-8);
    * when the search saw the rows later used as test sets (as it does here
      when ``X`` is the data given to the evaluator), the chosen
      hyperparameters are tuned to those rows and the scores are
      optimistic.

    The unbiased alternative (IdealEst, Sec. 3.2.1) re-runs the search in
    every repeat: pass the search itself to ``RepeatedEvaluator`` with
    ``"search"`` in ``vary``. Hold out data for ``fixed_search`` when you
    can.

    References
    ----------
    Bouthillier et al., "Accounting for Variance in Machine Learning
    Benchmarks", Sec. 3.2 (ideal vs biased estimators).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import fixed_search
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]})
    >>> est = fixed_search(search, X, y)
    >>> est.get_params()["max_depth"], hasattr(est, "tree_")
    (3, False)
    """
    if not (hasattr(search, "fit") and hasattr(search, "estimator")):
        raise TypeError(
            "`search` must be a hyperparameter search with `estimator` and `fit` "
            f"(GridSearchCV, RandomizedSearchCV ...); got {type(search).__name__}."
        )
    search.fit(X, y, **fit_params)
    if not hasattr(search, "best_params_"):
        raise ValueError(
            "The fitted search has no best_params_ (a multi-metric search with "
            "refit=False); set `refit` to a scorer name or a callable."
        )
    return clone(search.estimator).set_params(**search.best_params_)
