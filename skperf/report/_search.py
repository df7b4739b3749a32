"""``skperf.model_selection.search_report``: the report of a search's candidates.

The public name of :meth:`ModelSelectionReport.from_search
<skperf.ModelSelectionReport.from_search>` in :mod:`skperf.model_selection`,
kept where the search tools are. It lives here, above the report class,
because the search tools sit below the reports: ``skperf.model_selection``
loads it on first use (its module ``__getattr__``), and no module of
``skperf.model_selection`` imports :mod:`skperf.report`.
"""

from __future__ import annotations

from ._model_selection import ModelSelectionReport

__all__ = ["search_report"]


def search_report(
    search,
    *,
    target="new data",
    gamma=0.75,
    confidence=0.95,
    correction="holm",
    scoring=None,
    test_train_ratio=None,
    n_boot="auto",
    random_state=None,
):
    """A :class:`~skperf.ModelSelectionReport` of the candidates of a search.

    The same as :meth:`ModelSelectionReport.from_search
    <skperf.ModelSelectionReport.from_search>`, which documents the report.

    Parameters
    ----------
    search : fitted GridSearchCV or RandomizedSearchCV
        The search (see :func:`search_distributions`).
    target : {"new data", "this dataset"}, default="new data"
        What the report's decisions are about (see
        :func:`candidates_tied_with_best`).
    gamma : float, default=0.75
        Threshold of a meaningful P(A > B) (Bouthillier et al., App. C.6).
    confidence : float, default=0.95
        Confidence level of the intervals; the tests run at level
        ``1 - confidence``.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Multiple-comparison correction over all pairs of candidates.
    scoring : str or None, default=None
        Metric of a multi-metric search (default: the ``refit`` metric).
    test_train_ratio : float or None, default=None
        ``n_test / n_train`` of the search's splits for ``target="new
        data"``; ``None`` reads it from ``search.cv`` (see
        :func:`candidates_tied_with_best`).
    n_boot : int or "auto", default="auto"
        Bootstrap resamples where a run-to-run interval needs them.
    random_state : int, numpy.random.Generator or None, default=None
        Root of the report's bootstrap seeds; ``None`` draws fresh entropy,
        recorded in the report's ``random_state_``.

    Returns
    -------
    ModelSelectionReport
        ``ModelSelectionReport.from_search(search, ...)`` with the same
        arguments; ``report.tied_with_best`` are the candidates with
        ``tied_with_best`` in :func:`candidates_tied_with_best` for the same
        ``target`` (one decision, the same p-values).

    Warns
    -----
    DependentObservationsWarning
        ``target="this dataset"``, when the search's ``cv`` is one K-fold
        run: its folds are compared as if independent.
    FitFailedWarning
        When a candidate failed; it is left out of the report.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skperf.model_selection import search_report
    >>> X, y = load_iris(return_X_y=True)
    >>> cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4, 8]},
    ...     cv=cv,
    ... ).fit(X, y)
    >>> report = search_report(search, random_state=0)
    >>> report.best, report.tied_with_best
    ('max_depth=8', ['max_depth=2', 'max_depth=3', 'max_depth=4', 'max_depth=8'])
    """
    return ModelSelectionReport.from_search(
        search,
        target=target,
        gamma=gamma,
        confidence=confidence,
        correction=correction,
        scoring=scoring,
        test_train_ratio=test_train_ratio,
        n_boot=n_boot,
        random_state=random_state,
    )
