"""A short message with the close match for an unknown scorer name (issue 29, 16)."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier

import skperf
from skperf.cli import main
from skperf.metrics._registry import _check_scorer_names, _unknown_scorer_message
from skperf.model_selection import bootstrap_632_score

LOG_LOSS = (
    "`scoring`='log_loss' is not a scikit-learn scorer name. Did you mean "
    "'neg_log_loss' or 'd2_log_loss_score'? (Scorers are greater-is-better, so a "
    "loss is named 'neg_<loss>'; every name: sklearn.metrics.get_scorer_names().)"
)


class Exploding(DummyClassifier):
    def fit(self, X, y):  # pragma: no cover - the name is checked first
        raise AssertionError("fitted")


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


class TestMessage:
    def test_log_loss(self):
        assert _unknown_scorer_message("log_loss") == LOG_LOSS
        assert len(LOG_LOSS) < 250  # was scikit-learn's list: 1,383 characters

    @pytest.mark.parametrize(
        ("name", "guess"),
        [
            ("mean_squared_error", "'neg_mean_squared_error'"),
            ("acuracy", "'accuracy'"),
            ("roc-auc", "'roc_auc'"),
            ("f1-macro", "'f1_macro'"),
        ],
    )
    def test_close_match_first(self, name, guess):
        assert f"Did you mean {guess}" in _unknown_scorer_message(name)

    def test_no_match(self):
        msg = _unknown_scorer_message("zzz")
        assert "Did you mean" not in msg
        assert msg.startswith("`scoring`='zzz' is not a scikit-learn scorer name. (")

    @pytest.mark.parametrize(
        "scoring",
        ["accuracy", None, ["accuracy", "f1_macro"], {"a": "accuracy"}, len],
    )
    def test_valid_pass(self, scoring):
        assert _check_scorer_names(scoring) is scoring

    @pytest.mark.parametrize(
        "scoring", [["accuracy", "log_loss"], {"a": "accuracy", "b": "log_loss"}]
    )
    def test_in_lists_and_dicts(self, scoring):
        with pytest.raises(ValueError, match=re.escape(LOG_LOSS)):
            _check_scorer_names(scoring)


class TestEveryEntryPoint:
    """Every place a scoring string is resolved gives the same short message."""

    @pytest.mark.parametrize(
        "call",
        [
            lambda X, y: skperf.RepeatedEvaluator(Exploding(), scoring="log_loss").fit(
                X, y
            ),
            lambda X, y: skperf.repeated_cross_val_score(
                Exploding(), X, y, scoring="log_loss"
            ),
            lambda X, y: skperf.generalization_ci(
                Exploding(), X, y, scoring="log_loss"
            ),
            lambda X, y: skperf.compare_models(
                {"a": Exploding(), "b": Exploding()}, X, y, scoring="log_loss"
            ),
            lambda X, y: skperf.compare_generalization(
                Exploding(), Exploding(), X, y, scoring="log_loss"
            ),
            lambda X, y: bootstrap_632_score(Exploding(), X, y, scoring="log_loss"),
        ],
        ids=[
            "RepeatedEvaluator",
            "repeated_cross_val_score",
            "generalization_ci",
            "compare_models",
            "compare_generalization",
            "bootstrap_632_score",
        ],
    )
    def test_short_message_before_any_fit(self, iris, call):
        with pytest.raises(ValueError, match=re.escape(LOG_LOSS)) as info:
            call(*iris)
        assert len(str(info.value)) < 250


def test_cli_check_shows_the_whole_message(tmp_path, capsys):
    # the fold message is 295 characters: it was cut at 200, mid-sentence
    acc = np.random.default_rng(0).normal(0.93, 0.01, size=60)
    path = tmp_path / "folds.csv"
    pd.DataFrame(
        {
            "seed": np.r_[np.arange(30), np.arange(30)],
            "fold": np.repeat([0, 1], 30),
            "accuracy": acc,
        }
    ).to_csv(path, index=False)
    code = main(["check", str(path), "--score", "accuracy", "--threshold", "0.9"])
    err = capsys.readouterr().err
    assert code == 2
    (line,) = err.strip().splitlines()
    assert len(line) > 200
    assert "…" not in line
    assert line.endswith(
        "(folds share their training data: they are not independent runs), or "
        "drop the column if every row is an independent run."
    )
