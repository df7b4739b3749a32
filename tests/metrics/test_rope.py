"""One check of ``rope`` against the metric's range (issue 29, item 8)."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.naive_bayes import GaussianNB

from skperf import compare_generalization
from skperf.metrics._registry import _check_rope_for, _metric_range
from skperf.report import BenchmarkReport
from skperf.stats._validation import _check_rope

ACCURACY_MSG = (
    "rope=1 is the whole range of accuracy [0, 1]; a region of practical "
    "equivalence is a small difference such as 0.01 (did you mean rope=0.01, "
    "i.e. 1 %?)."
)


class TestRange:
    @pytest.mark.parametrize(
        ("metric", "expected"),
        [
            ("accuracy", (0.0, 1.0)),
            ("accuracy_score", (0.0, 1.0)),
            ("balanced_accuracy", (0.0, 1.0)),
            ("roc_auc", (0.0, 1.0)),
            ("roc_auc_ovr_weighted", (0.0, 1.0)),
            ("f1_macro", (0.0, 1.0)),
            ("precision_weighted", (0.0, 1.0)),
            ("average_precision", (0.0, 1.0)),
            ("matthews_corrcoef", (-1.0, 1.0)),
            ("neg_brier_score", (-1.0, 0.0)),
            ("r2", None),
            ("neg_log_loss", None),
            ("neg_mean_squared_error", None),
            ("my_score", None),
            (len, None),
        ],
    )
    def test_metric_range(self, metric, expected):
        assert _metric_range(metric) == expected

    @pytest.mark.parametrize(
        ("rope", "metric", "msg"),
        [
            (1, "accuracy", ACCURACY_MSG),
            (
                1.5,
                "roc_auc",
                (
                    "rope=1.5 is wider than the whole range of roc_auc [0, 1]; a "
                    "region of practical equivalence is a small difference such as "
                    "0.01 (did you mean rope=0.015, i.e. 1.5 %?)."
                ),
            ),
            (
                2,
                "matthews_corrcoef",
                (
                    "rope=2 is the whole range of matthews_corrcoef [-1, 1]; a "
                    "region of practical equivalence is a small difference such "
                    "as 0.02."
                ),
            ),
        ],
    )
    def test_whole_range_refused(self, rope, metric, msg):
        with pytest.raises(ValueError, match=re.escape(msg)):
            _check_rope_for(rope, metric)

    @pytest.mark.parametrize(
        ("rope", "metric"),
        [
            (0.01, "accuracy"),
            (0.99, "accuracy"),
            (None, "accuracy"),
            (1, "r2"),
            (5.0, "neg_mean_squared_error"),
            (1, None),
            (1, "acc"),
        ],
    )
    def test_accepted(self, rope, metric):
        assert _check_rope_for(rope, metric) == (0.0 if rope is None else rope)

    def test_stats_validator(self):
        assert _check_rope(1.0) == 1.0  # no metric: no range to check
        with pytest.raises(ValueError, match=re.escape(ACCURACY_MSG)):
            _check_rope(1, metric="accuracy", metric_range=(0, 1))
        with pytest.raises(TypeError, match="got True"):
            _check_rope(True)
        with pytest.raises(ValueError, match="got inf"):
            _check_rope(np.inf)


class TestEntryPoints:
    def test_compare_generalization_before_any_fit(self):
        X, y = make_classification(60, random_state=0)

        class Exploding(DummyClassifier):
            def fit(self, X, y):  # pragma: no cover - never reached
                raise AssertionError("fitted")

        for scoring in (None, "accuracy"):
            with pytest.raises(ValueError, match=re.escape(ACCURACY_MSG)):
                compare_generalization(
                    GaussianNB(), Exploding(), X, y, scoring=scoring, rope=1
                )
        with pytest.raises(ValueError, match="whole range of roc_auc"):
            compare_generalization(
                GaussianNB(),
                Exploding(),
                X,
                y,
                scoring="roc_auc",
                rope=1,
                method="bayesian",
            )

    def test_benchmark_report(self):
        rng = np.random.default_rng(0)
        frame = pd.DataFrame(
            [
                (f"d{d}", m, 0.8 + 0.01 * d + rng.normal(0, 0.01))
                for d in range(8)
                for m in "ab"
            ],
            columns=["dataset", "model", "accuracy"],
        )
        report = BenchmarkReport.from_frame(
            frame, score="accuracy", by="model", dataset="dataset", random_state=0
        )
        with pytest.raises(ValueError, match=re.escape(ACCURACY_MSG)):
            report.bayesian_signed_rank(rope=1)
        ok = report.bayesian_signed_rank(rope=0.01, n_samples=2000)
        assert ok["rope"].tolist() == [0.01]
