"""Shared searches for the tests of skperf/model_selection/ (fitted once per module)."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.model_selection import (
    GridSearchCV,
    RandomizedSearchCV,
    StratifiedKFold,
)
from sklearn.tree import DecisionTreeClassifier

from skperf.model_selection import OutOfBootstrap

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
X_BC, Y_BC = load_breast_cancer(return_X_y=True)
DEPTHS = [1, 2, 3, 4, 8]


def _split_matrix(cv_results, metric="score"):
    n = sum(k.startswith("split") and k.endswith(f"_test_{metric}") for k in cv_results)
    return np.column_stack([cv_results[f"split{i}_test_{metric}"] for i in range(n)])


@pytest.fixture(scope="module")
def tree_search():
    """Depths 2-8 tie on iris, depth 1 is clearly worse (20 OOB splits)."""
    return GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": DEPTHS},
        cv=OutOfBootstrap(n_splits=20, random_state=0),
    ).fit(X_IRIS, Y_IRIS)


@pytest.fixture(scope="module")
def multi_search():
    return GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3], "criterion": ["gini", "entropy"]},
        scoring=["accuracy", "neg_log_loss"],
        refit="accuracy",
        cv=StratifiedKFold(4, shuffle=True, random_state=0),
    ).fit(X_IRIS, Y_IRIS)


_BC_SEARCHES = {}


def _bc_search(cv, search="grid"):
    """Breast cancer, depths 1-8: some candidates significantly worse (cached)."""
    key = (repr(cv), search)
    if key not in _BC_SEARCHES:
        _BC_SEARCHES[key] = _fit_bc_search(cv, search)
    return _BC_SEARCHES[key]


def _fit_bc_search(cv, search):
    est = DecisionTreeClassifier(random_state=0)
    grid = {"max_depth": [1, 2, 3, 4, 6, 8]}
    if search == "grid":
        return GridSearchCV(est, grid, cv=cv).fit(X_BC, Y_BC)
    return RandomizedSearchCV(
        est, {"max_depth": list(range(1, 11))}, n_iter=6, cv=cv, random_state=0
    ).fit(X_BC, Y_BC)
