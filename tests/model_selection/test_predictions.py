"""RepeatedEvaluator(return_predictions=True): kept predictions and what they give."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, balanced_accuracy_score, roc_auc_score
from sklearn.model_selection import KFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from skperf import RepeatedEvaluator
from skperf.metrics import metric_ci


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True)


def _logreg():
    return make_pipeline(StandardScaler(), LogisticRegression())


def _fit(est, X, y, **kw):
    kw = {"cv": 3, "n_repeats": 4, "random_state": 0, "refit": False, **kw}
    return RepeatedEvaluator(est, return_predictions=True, **kw).fit(X, y)


SCORERS = ["accuracy", "roc_auc", "neg_log_loss", "f1", "balanced_accuracy"]


@pytest.mark.parametrize(
    ("est", "scorers"),
    [
        (_logreg(), SCORERS),  # predict_proba and decision_function: both kept
        (DecisionTreeClassifier(max_depth=3), SCORERS),  # predict_proba only
        (LinearSVC(), ["accuracy", "roc_auc", "f1"]),  # decision_function only
    ],
)
def test_predictions_reproduce_scores_exactly(cancer, est, scorers):
    X, y = cancer
    ev = _fit(est, X, y, scoring=scorers)
    assert len(ev.predictions_) == len(ev.results_) == 12
    for name in scorers:
        replayed = np.asarray(ev.score_distribution(scoring=name))
        assert np.array_equal(replayed, ev.results_[f"test_{name}"].to_numpy()), name
    d = ev.score_distribution(scoring="roc_auc")
    assert d.metric == "roc_auc"
    for k in ev.distribution_.seeds:
        assert np.array_equal(d.seeds[k], ev.distribution_.seeds[k])
    assert np.array_equal(d.groups, ev.distribution_.groups)


def test_columns_dtypes_and_default_score(cancer):
    X, y = cancer
    ev = _fit(_logreg(), X, y)
    p = ev.predictions_
    assert list(p.columns) == [
        "repeat",
        "fold",
        "test_index",
        "y_pred",
        "y_score",
        "y_decision",
    ]
    assert p["test_index"].iloc[0].dtype == np.int32
    assert p["y_score"].iloc[0].dtype == np.float64
    assert p["y_score"].iloc[0].shape == (len(p["test_index"].iloc[0]), 2)
    assert p["y_decision"].iloc[0].ndim == 1
    # scoring=None replays the estimator's score (accuracy)
    assert np.array_equal(
        np.asarray(ev.score_distribution(scoring=None)),
        ev.results_["test_score"].to_numpy(),
    )
    # a metric that was never computed, checked by hand on fit 5
    i = 5
    test = p["test_index"].iloc[i]
    bal = np.asarray(ev.score_distribution(scoring="balanced_accuracy"))[i]
    assert bal == balanced_accuracy_score(y[test], p["y_pred"].iloc[i])
    assert not hasattr(
        RepeatedEvaluator(
            _logreg(), n_repeats=2, cv=2, refit=False, random_state=0
        ).fit(X, y),
        "predictions_",
    )


def test_regression(cancer):
    X, y = make_regression(n_samples=120, n_features=4, noise=5.0, random_state=0)
    ev = _fit(Ridge(), X, y, scoring=["r2", "neg_mean_absolute_error"])
    assert ev.predictions_["y_score"].isna().all()
    for name in ("r2", "neg_mean_absolute_error"):
        assert np.array_equal(
            np.asarray(ev.score_distribution(scoring=name)),
            ev.results_[f"test_{name}"].to_numpy(),
        )
    assert np.array_equal(
        np.asarray(ev.score_distribution(scoring=None)),
        ev.results_["test_r2"].to_numpy(),
    )


def test_oof_predictions_match_cross_val_predict(cancer):
    X, y = cancer
    est = _logreg()
    ev = _fit(est, X, y, cv=KFold(5, shuffle=True, random_state=0), vary=["split"])
    oof = ev.oof_predictions()
    assert oof.shape == (4, len(y))
    seeds = ev.results_.groupby("repeat")["split_seed"].first().to_numpy()
    for r, seed in enumerate(seeds):
        ref = cross_val_predict(
            est, X, y, cv=KFold(5, shuffle=True, random_state=int(seed))
        )
        assert np.array_equal(oof[r], ref)
    proba = ev.oof_predictions(kind="y_score")
    assert proba.shape == (4, len(y), 2)
    ref = cross_val_predict(
        est,
        X,
        y,
        cv=KFold(5, shuffle=True, random_state=int(seeds[1])),
        method="predict_proba",
    )
    np.testing.assert_array_equal(proba[1], ref)


def test_oof_refuses_out_of_bootstrap(cancer):
    X, y = cancer
    ev = _fit(_logreg(), X, y, cv=None)
    with pytest.raises(ValueError, match=r"partition the data.*cv=None.*do not"):
        ev.oof_predictions()
    with pytest.raises(ValueError, match="'y_pred', 'y_score' or 'y_decision'"):
        ev.oof_predictions(kind="proba")


def test_repeat_metric_ci(cancer):
    X, y = cancer
    ev = _fit(_logreg(), X, y, cv=5)
    table = ev.repeat_metric_ci("accuracy")
    assert list(table.index) == [0, 1, 2, 3]
    oof = ev.oof_predictions()
    for r in range(4):
        ci = metric_ci(y, oof[r], metric="accuracy")
        assert table.loc[r, "estimate"] == pytest.approx(accuracy_score(y, oof[r]))
        assert table.loc[r, "low"] == pytest.approx(ci.low)
        assert table.loc[r, "high"] == pytest.approx(ci.high)
        assert table.loc[r, "n"] == len(y)
    auc = ev.repeat_metric_ci("roc_auc", kind="y_decision")
    assert auc.loc[0, "estimate"] == pytest.approx(
        roc_auc_score(y, ev.oof_predictions(kind="y_decision")[0])
    )
    assert (auc["method"] == "delong-logit").all()  # the auto method for AUC


def test_multiclass_and_errors(cancer):
    X, y = load_iris(return_X_y=True)
    ev = _fit(DecisionTreeClassifier(), X, y, scoring=["accuracy", "roc_auc_ovr"])
    assert np.array_equal(
        np.asarray(ev.score_distribution(scoring="roc_auc_ovr")),
        ev.results_["test_roc_auc_ovr"].to_numpy(),
    )
    plain = RepeatedEvaluator(
        DecisionTreeClassifier(), n_repeats=2, cv=2, refit=False
    ).fit(X, y)
    with pytest.raises(ValueError, match="return_predictions=True"):
        plain.score_distribution(scoring="accuracy")
    with pytest.raises(TypeError, match="scorer name"):
        ev.score_distribution(scoring=3)


@pytest.mark.parametrize("error_score", [np.nan, 0.0])
def test_score_distribution_with_failed_fits_matches_distribution(error_score):
    # a failed fit scores error_score in every metric: kept when numeric, out
    # when NaN, exactly as in distribution_ (whose seeds it reuses)
    from sklearn.exceptions import FitFailedWarning

    from skperf.utils._testing import FailingClassifier

    X, y = load_iris(return_X_y=True)
    with pytest.warns(FitFailedWarning):
        ev = _fit(
            FailingClassifier(fail=3), X, y, n_repeats=12, error_score=error_score
        )
    failed = ev.results_["error"].notna().to_numpy()
    assert 0 < failed.sum() < 36
    d = ev.score_distribution(scoring="accuracy")
    assert (
        d.n == ev.distribution_.n == (12 * 3 if error_score == 0 else (~failed).sum())
    )
    np.testing.assert_array_equal(d.scores, ev.distribution_.scores)
    np.testing.assert_array_equal(d.seeds["init"], ev.distribution_.seeds["init"])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_score_distribution_of_a_fit_whose_other_scorer_failed():
    # roc_auc is NaN on a one-class test set: under error_score=-1 the fit keeps
    # its real accuracy in distributions_["accuracy"], and so in the replay
    from sklearn.dummy import DummyClassifier
    from sklearn.exceptions import FitFailedWarning

    rng = np.random.RandomState(0)
    X, y = rng.randn(20, 2), np.r_[np.ones(2, int), np.zeros(18, int)]
    with pytest.warns(FitFailedWarning):
        ev = _fit(
            DummyClassifier(strategy="prior"),
            X,
            y,
            cv=None,
            n_repeats=10,
            scoring=["roc_auc", "accuracy"],
            error_score=-1.0,
        )
    failed = ev.results_["error"].notna().to_numpy()
    assert 0 < failed.sum() < 9
    nan_auc = ev.results_["error"].str.contains("roc_auc=nan").to_numpy()
    assert nan_auc.sum() >= 2
    acc = ev.results_["test_accuracy"].to_numpy()
    assert (acc[nan_auc] >= 0).all()  # real accuracies, not error_score
    assert (acc[failed & ~nan_auc] == -1).all()  # the scorer raised: no predictions
    d = ev.score_distribution(scoring="accuracy")
    np.testing.assert_array_equal(d.scores, ev.distributions_["accuracy"].scores)
    np.testing.assert_array_equal(d.scores, acc)
    auc = ev.score_distribution(scoring="roc_auc")
    np.testing.assert_array_equal(auc.scores, ev.distribution_.scores)
    assert (auc.scores[failed] == -1).all()


def test_repeat_metric_ci_reads_scores_for_score_metrics(cancer):
    # issue 17 item 4: the default read the labels (AUC = balanced accuracy)
    X, y = cancer
    ev = _fit(_logreg(), X, y, cv=5)
    auc = ev.repeat_metric_ci("roc_auc")
    proba = ev.oof_predictions(kind="y_score")[0][:, 1]
    assert auc.loc[0, "estimate"] == pytest.approx(roc_auc_score(y, proba))
    labels = ev.oof_predictions()[0]
    assert auc.loc[0, "estimate"] != pytest.approx(roc_auc_score(y, labels))
    with pytest.raises(ValueError, match="holds predicted labels"):
        ev.repeat_metric_ci("roc_auc", kind="y_pred")
