"""Label metrics refuse scores, every entry point refuses NaN / inf (issue 9, item 2)."""

import re

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.linear_model import LogisticRegression

from skperf.metrics import compare_predictions, metric_ci, score_ci


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 100_000)
    proba = np.clip(0.5 * y + 0.5 * rng.random(y.size), 0, 1)
    return y, proba


class TestContinuousForLabelMetrics:
    @pytest.mark.parametrize(
        "metric",
        ["accuracy", "error_rate", "recall", "precision", "f1", "matthews_corrcoef"],
    )
    def test_probabilities_rejected(self, big, metric):
        y, proba = big
        # old: accuracy 0.000 [0, 0.00004] -- every probability "wrong"
        with pytest.raises(
            ValueError,
            match=re.escape(f"`metric={metric!r}` compares class labels, but `y_pred`"),
        ):
            metric_ci(y, proba, metric=metric)

    def test_compare_predictions_names_the_argument(self, big):
        y, proba = big
        labels = (proba > 0.5).astype(int)
        # old: McNemar p = 1e-129
        with pytest.raises(ValueError, match=r"but `y_pred_a` holds continuous"):
            compare_predictions(y, proba, labels)
        with pytest.raises(ValueError, match=r"but `y_pred_b` holds continuous"):
            compare_predictions(y, labels, proba)

    def test_sklearn_scorer_names_surface_sklearn_error(self, big):
        y, proba = big
        with pytest.raises(
            ValueError,
            match=r"`metric='f1_macro'` rejects the test-set predictions: "
            r"Classification metrics can't handle",
        ):
            metric_ci(y[:200], proba[:200], metric="f1_macro")

    @pytest.mark.parametrize("metric", ["accuracy", "f1", "roc_auc", "log_loss"])
    def test_continuous_y_true_rejected(self, metric):
        rng = np.random.default_rng(0)
        y = rng.normal(size=20)
        pred = (rng.random(20) > 0.5).astype(int)
        with pytest.raises(
            ValueError,
            match=re.escape(f"`metric={metric!r}` needs class labels in `y_true`"),
        ):
            metric_ci(y, pred, metric=metric)

    def test_integral_floats_are_labels(self):
        y = np.array([0, 1, 1, 0, 1])
        ci = metric_ci(y, y.astype(float), method="wilson")
        assert ci.estimate == 1.0


class TestNonFinite:
    def test_nan_label_is_not_a_wrong_prediction(self):
        y = np.array([0, 1, 1, 0, 1, 1], dtype=float)
        pred = y.copy()
        pred[2] = np.nan
        # old: accuracy 5/6, the NaN counted as an error
        with pytest.raises(
            ValueError,
            match=re.escape("`y_pred` must be finite; found 1 NaN, None or infinite"),
        ):
            metric_ci(y, pred)

    @pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
    @pytest.mark.parametrize("metric", ["accuracy", "mae", "roc_auc", "log_loss"])
    def test_y_true(self, metric, bad):
        y = np.array([0, 1, 1, 0, 1, 0], dtype=float)
        pred = np.array([0.1, 0.9, 0.8, 0.3, 0.6, 0.2])
        if metric == "accuracy":
            pred = (pred > 0.5).astype(int)
        y[1] = bad
        with pytest.raises(ValueError, match=re.escape("`y_true` must be finite")):
            metric_ci(y, pred, metric=metric)

    def test_object_none(self):
        with pytest.raises(ValueError, match=re.escape("`y_pred` must be finite")):
            metric_ci(["a", "b", "a"], np.array(["a", None, "a"], dtype=object))

    def test_y_score_named(self):
        y = np.array([0, 1, 1, 0])
        with pytest.raises(ValueError, match=re.escape("`y_score` must be finite")):
            metric_ci(y, y, y_score=[0.1, np.inf, 0.7, 0.2], metric="roc_auc")

    def test_score_ci(self):
        X = np.array([[0.0], [1.0], [2.0], [3.0]])
        model = LogisticRegression().fit(X, [0, 0, 1, 1])
        with pytest.raises(ValueError, match=re.escape("`y_true` must be finite")):
            score_ci(model, X, np.array([0, np.nan, 1, 1]))

    def test_compare_predictions_nan(self):
        y = np.array([0, 1, 1, 0, 1])
        with pytest.raises(ValueError, match=re.escape("`y_pred_b` must be finite")):
            compare_predictions(y, y, np.array([0, 1, np.nan, 0, 1]))


def test_nan_groups():
    with pytest.raises(ValueError, match=re.escape("`groups` must be finite")):
        metric_ci([0, 1, 1, 0], [0, 1, 0, 0], groups=[1.0, np.nan, 2.0, 2.0])


class TestLabelsAndScoresTogether:
    def test_y_score(self):
        rng = np.random.default_rng(1)
        y = rng.integers(0, 2, 300)
        proba = np.clip(0.35 * y + 0.65 * rng.random(300), 0, 1)
        labels = (proba > 0.5).astype(int)
        df = metric_ci(
            y,
            labels,
            y_score=proba,
            metric=["accuracy", "f1", "roc_auc", "log_loss"],
            random_state=0,
        )
        assert df["estimate"].tolist() == pytest.approx(
            [
                skm.accuracy_score(y, labels),
                skm.f1_score(y, labels),
                skm.roc_auc_score(y, proba),
                skm.log_loss(y, proba),
            ]
        )
        assert df["method"].tolist() == [
            "wilson",
            "wilson",
            "delong-logit",
            "studentized",
        ]

    def test_y_pred_none_for_score_metrics(self):
        y = np.array([0, 1, 1, 0, 1, 0])
        s = np.array([0.1, 0.9, 0.4, 0.3, 0.6, 0.5])
        ci = metric_ci(y, None, y_score=s, metric="roc_auc")
        assert ci.estimate == pytest.approx(skm.roc_auc_score(y, s))
        with pytest.raises(
            ValueError, match=re.escape("`metric='accuracy'` needs predicted labels")
        ):
            metric_ci(y, None, y_score=s, metric=["roc_auc", "accuracy"])

    def test_length_of_y_score(self):
        with pytest.raises(
            ValueError, match=re.escape("`y_true` and `y_score` must have the same")
        ):
            metric_ci([0, 1, 1], [0, 1, 1], y_score=[0.1, 0.2], metric="roc_auc")

    def test_y_score_that_no_metric_reads(self):
        # a y_score given only to label metrics was silently ignored (even
        # with the wrong length); it is refused
        y, labels = [0, 1, 1, 0], [0, 1, 0, 0]
        for metric in ("accuracy", ["accuracy", "f1"]):
            with pytest.raises(ValueError, match=re.escape("no metric in")):
                metric_ci(y, labels, y_score=[0.2, 0.9, 0.4], metric=metric)


def test_paired_bootstrap_of_one_row_refused():
    with pytest.raises(ValueError, match="at least 2 rows"):
        compare_predictions([1.0], [2.0], [3.0], metric="mae")


@pytest.mark.parametrize("method", ["delong", "paired-bootstrap"])
def test_compare_auc_single_class_refused(method):
    y = np.ones(8, int)
    s = np.linspace(0, 1, 8)
    with pytest.raises(ValueError, match=re.escape("needs both classes in `y_true`")):
        compare_predictions(y, s, s[::-1], metric="roc_auc", method=method)
    with pytest.raises(ValueError, match=re.escape("needs both classes in `y_true`")):
        metric_ci(y, None, y_score=s, metric="roc_auc")


class TestIssue29:
    """Items 9, 14 and 16 of issue 29 (metric_ci's input checks)."""

    @pytest.fixture
    def data(self):
        rng = np.random.default_rng(0)
        y = rng.integers(0, 2, 100)
        p = np.clip(0.3 + 0.4 * y + 0.3 * rng.random(100), 0, 1)
        return y, p

    def test_item14_brier_takes_binary_predict_proba(self, data):
        y, p = data
        proba = np.column_stack([1 - p, p])
        # old: "operands could not be broadcast together with shapes (100,2) (100,)"
        ci = metric_ci(y, proba, metric="brier_score_loss", random_state=0)
        ref = metric_ci(y, p, metric="brier_score_loss", random_state=0)
        assert ci.estimate == pytest.approx(skm.brier_score_loss(y, p), rel=1e-12)
        assert (ci.low, ci.high) == (ref.low, ref.high)

    def test_item14_brier_positive_column_follows_pos_label(self, data):
        y, p = data
        proba = np.column_stack([1 - p, p])
        ci = metric_ci(y, proba, metric="brier_score_loss", pos_label=0, random_state=0)
        assert ci.estimate == pytest.approx(
            skm.brier_score_loss(y, 1 - p, pos_label=0), rel=1e-12
        )

    def test_item14_brier_multiclass_columns_refused(self):
        y = np.array([0, 1, 2, 0, 1, 2])
        proba = np.full((6, 3), 1 / 3)
        with pytest.raises(ValueError, match=re.escape("has 3 probability columns")):
            metric_ci(y, proba, metric="brier_score_loss")

    @pytest.mark.parametrize(
        ("metric", "text"),
        [
            ("roc_auc", "ROC AUC needs scores, e.g. `model.predict_proba(X)[:, 1]`"),
            ("log_loss", "log loss needs predicted probabilities"),
            ("brier_score_loss", "the Brier score needs predicted probabilities"),
        ],
    )
    def test_item9_float_labels_warn(self, data, metric, text):
        y, p = data
        labels = (p > 0.5).astype(float)
        # old: ROC AUC 0.81 (the balanced accuracy) without a word
        with pytest.warns(UserWarning, match=re.escape(text)) as rec:
            metric_ci(y, labels, metric=metric)
        assert "`y_pred` holds only 0 and 1: these look like predicted labels" in str(
            rec[0].message
        )

    def test_item9_probabilities_do_not_warn(self, data):
        y, p = data
        metric_ci(y, p, metric="roc_auc")  # filterwarnings=error: no warning

    @pytest.mark.parametrize(
        ("metric", "text"),
        [
            ("log_loss", "`metric='log_loss'` reads probabilities, but `y_pred` holds"),
            ("log_loss", "log loss is 36 times the error rate"),
            ("brier_score_loss", "the Brier score equals the error rate"),
            ("roc_auc", "ROC AUC equals the balanced accuracy"),
        ],
    )
    def test_item16_own_message_per_metric(self, data, metric, text):
        y, p = data
        labels = (p > 0.5).astype(int)
        with pytest.raises(ValueError, match=re.escape(text)):
            metric_ci(y, labels, metric=metric)

    def test_item16_log_loss_does_not_speak_of_roc_auc(self, data):
        y, p = data
        with pytest.raises(ValueError, match="reads probabilities") as exc:
            metric_ci(y, (p > 0.5).astype(int), metric="log_loss")
        assert "ROC AUC" not in str(exc.value)
