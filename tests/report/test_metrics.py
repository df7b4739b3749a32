import math

import pytest
from sklearn.cluster import KMeans
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skperf.metrics._registry import _metric_bounds
from skperf.report._metrics import _shared_default_score


@pytest.mark.parametrize(
    ("metric", "bounds"),
    [
        ("accuracy", (0.0, 1.0)),
        ("balanced_accuracy", (0.0, 1.0)),
        ("roc_auc_ovr_weighted", (0.0, 1.0)),
        ("f1_macro", (0.0, 1.0)),
        ("precision", (0.0, 1.0)),
        ("recall_weighted", (0.0, 1.0)),
        ("average_precision", (0.0, 1.0)),
        ("r2", (-math.inf, 1.0)),
        ("d2_absolute_error_score", (-math.inf, 1.0)),
        ("matthews_corrcoef", (-1.0, 1.0)),
        ("neg_log_loss", (-math.inf, 0.0)),
        ("neg_mean_squared_error", (-math.inf, 0.0)),
        ("max_error", None),
        ("score", None),
        (None, None),
    ],
)
def test_metric_bounds(metric, bounds):
    assert _metric_bounds(metric) == bounds


def test_shared_default_score():
    assert _shared_default_score(
        {"a": LogisticRegression(), "b": DecisionTreeClassifier()}
    ) == ("accuracy", None)
    assert _shared_default_score(
        {"a": LinearRegression(), "b": make_pipeline(StandardScaler(), Ridge())}
    ) == ("r2", None)
    # a search is scored like the estimator it tunes
    grid = GridSearchCV(Ridge(), {"alpha": [1.0]})
    assert _shared_default_score({"g": grid, "l": LinearRegression()}) == ("r2", None)
    metric, conflict = _shared_default_score(
        {"km": KMeans(), "lr": LogisticRegression()}
    )
    assert metric is None
    assert conflict == (
        "clusterer score (KMeans.score) for 'km' vs accuracy "
        "(LogisticRegression.score) for 'lr'"
    )
