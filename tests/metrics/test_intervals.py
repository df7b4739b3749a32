"""Tests for skperf/metrics/_intervals.py: metric_ci, score_ci, compare_predictions."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn import metrics as skm
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from skperf.exceptions import SmallSampleWarning, UndefinedResamplesWarning
from skperf.metrics import PairedTestResult, compare_predictions, metric_ci, score_ci
from skperf.metrics._registry import _prepare, _resolve
from skperf.metrics._resample import _Units, _weighted_auc
from skperf.stats._auc import delong_paired
from skperf.stats._proportion import proportion_ci
from tests._data import shared_data


def _binary(seed, n=200, acc=0.8):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < acc, y, 1 - y)
    return y, pred


@pytest.fixture(scope="module")
def fitted():
    X, y = load_breast_cancer(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
    return model, X_te, y_te


class TestEstimates:
    """The point estimate is the metric on the original rows (equal to sklearn)."""

    @pytest.mark.parametrize(
        ("name", "func"),
        [
            ("accuracy", skm.accuracy_score),
            ("recall", skm.recall_score),
            ("precision", skm.precision_score),
            ("f1", skm.f1_score),
            ("balanced_accuracy", skm.balanced_accuracy_score),
            ("matthews_corrcoef", skm.matthews_corrcoef),
            ("jaccard", skm.jaccard_score),
        ],
    )
    def test_label_metrics(self, name, func):
        y, pred = _binary(0)
        ci = metric_ci(
            y, pred, metric=name, method="percentile", n_boot=399, random_state=0
        )
        assert ci.estimate == pytest.approx(func(y, pred), abs=1e-14)
        assert ci.low <= ci.estimate <= ci.high

    @pytest.mark.parametrize(
        ("name", "func", "kind"),
        [
            ("mean_absolute_error", skm.mean_absolute_error, "reg"),
            ("mean_squared_error", skm.mean_squared_error, "reg"),
            ("root_mean_squared_error", skm.root_mean_squared_error, "reg"),
            ("r2", skm.r2_score, "reg"),
            ("log_loss", skm.log_loss, "proba"),
            ("brier_score_loss", skm.brier_score_loss, "proba"),
            ("roc_auc", skm.roc_auc_score, "proba"),
            ("average_precision", skm.average_precision_score, "proba"),
        ],
    )
    def test_score_metrics(self, name, func, kind):
        rng = np.random.default_rng(1)
        y = rng.integers(0, 2, 150)
        if kind == "reg":
            yt, yp = rng.normal(size=150), rng.normal(size=150)
        else:
            yt, yp = y, np.clip(0.3 * y + 0.7 * rng.random(150), 0, 1)
        ci = metric_ci(
            yt, yp, metric=name, method="percentile", n_boot=399, random_state=0
        )
        assert ci.estimate == pytest.approx(func(yt, yp), rel=1e-12)

    def test_scorer_name_carries_sign(self):
        rng = np.random.default_rng(0)
        yt, yp = rng.normal(size=50), rng.normal(size=50)
        ci = metric_ci(
            yt,
            yp,
            metric="neg_mean_absolute_error",
            method="percentile",
            random_state=0,
        )
        assert ci.estimate == pytest.approx(-skm.mean_absolute_error(yt, yp))
        assert ci.high <= 0

    def test_multiclass_accuracy_and_scorer(self):
        rng = np.random.default_rng(0)
        y = rng.integers(0, 3, 120)
        pred = np.where(rng.random(120) < 0.7, y, rng.integers(0, 3, 120))
        ci = metric_ci(y, pred)
        ref = proportion_ci(int((y == pred).sum()), 120)
        assert (ci.estimate, ci.low, ci.high) == (ref.estimate, ref.low, ref.high)
        ci = metric_ci(
            y,
            pred,
            metric="f1_macro",
            method="percentile",
            confidence=0.9,
            random_state=0,
        )  # n_boot="auto": 199
        assert ci.estimate == pytest.approx(skm.f1_score(y, pred, average="macro"))


class TestAnalytic:
    @pytest.mark.parametrize("method", ["wald", "wilson", "clopper-pearson"])
    def test_proportions_use_their_denominator(self, method):
        y, pred = _binary(2)
        tp = int(((y == 1) & (pred == 1)).sum())
        for name, k, n in (
            ("accuracy", int((y == pred).sum()), y.size),
            ("error_rate", int((y != pred).sum()), y.size),
            ("recall", tp, int(y.sum())),
            ("sensitivity", tp, int(y.sum())),
            ("precision", tp, int(pred.sum())),
            ("specificity", int(((y == 0) & (pred == 0)).sum()), int((y == 0).sum())),
        ):
            ci = metric_ci(y, pred, metric=name, method=method)
            ref = proportion_ci(k, n, method=method)
            assert (ci.estimate, ci.low, ci.high, ci.n) == (
                ref.estimate,
                ref.low,
                ref.high,
                n,
            )
            assert "finite test set" in ci.note

    def test_auto_methods(self):
        y, pred = _binary(3)
        assert metric_ci(y, pred).method == "wilson"
        assert metric_ci(y, pred, metric="f1").method == "wilson"
        assert metric_ci(y, pred, metric="mcc", random_state=0).method == "bca"
        score = y + np.random.default_rng(0).normal(size=y.size)
        ci = metric_ci(y, score, metric="roc_auc")
        assert ci.method == "delong-logit"
        assert ci.n_boot is None
        ci = metric_ci(np.zeros(30), score[:30], metric="mae", random_state=0)
        assert (ci.method, ci.n_boot) == ("studentized", 999)

    def test_delong_on_published_data(self):
        d = pd.read_csv(shared_data("aSAH.csv"))
        ci = metric_ci(
            d["outcome"],
            d["s100b"],
            metric="roc_auc",
            pos_label="Poor",
            method="delong",
        )
        assert (round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)) == (
            0.7314,
            0.6301,
            0.8326,
        )
        assert "41 positives and 72 negatives" in ci.note


class TestBootstrap:
    @pytest.mark.parametrize("method", ["percentile", "bca", "basic"])
    def test_counts_path_agrees_with_scipy(self, method, global_random_seed):
        y, pred = _binary(global_random_seed, n=150)
        correct = (y == pred).astype(float)
        ref = stats.bootstrap(
            (correct,),
            np.mean,
            n_resamples=9999,
            method=method,
            random_state=global_random_seed,
        ).confidence_interval
        ci = metric_ci(
            y, pred, method=method, n_boot=9999, random_state=global_random_seed
        )
        assert ci.low == pytest.approx(ref.low, abs=0.012)
        assert ci.high == pytest.approx(ref.high, abs=0.012)

    @pytest.mark.parametrize("method", ["percentile", "bca"])
    def test_gather_path_agrees_with_scipy(self, method, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        yt, yp = np.zeros(60), rng.exponential(size=60)  # skewed: BCa matters
        ref = stats.bootstrap(
            (yt, yp),
            lambda a, b, axis: np.abs(a - b).mean(axis=axis),
            paired=True,
            n_resamples=9999,
            method=method,
            random_state=global_random_seed,
        ).confidence_interval
        ci = metric_ci(
            yt,
            yp,
            metric="mae",
            method=method,
            n_boot=9999,
            random_state=global_random_seed,
        )
        se = yp.std() / np.sqrt(60)
        assert ci.low == pytest.approx(ref.low, abs=0.1 * se)
        assert ci.high == pytest.approx(ref.high, abs=0.1 * se)

    def test_auc_and_loop_paths_agree_with_scipy(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = np.r_[np.zeros(40, int), np.ones(40, int)]
        s = np.round(y + rng.normal(size=80), 1)

        def auc(y, s, axis=-1):  # vectorized Mann-Whitney AUC with midranks
            r = stats.rankdata(s, axis=axis)
            m = y.sum(axis=axis)
            return ((r * y).sum(axis=axis) - m * (m + 1) / 2) / (
                m * (y.shape[axis] - m)
            )

        ref = stats.bootstrap(
            (y, s),
            auc,
            paired=True,
            n_resamples=9999,
            method="bca",
            random_state=global_random_seed,
        ).confidence_interval
        fast = metric_ci(
            y,
            s,
            metric="roc_auc",
            method="bca",
            n_boot=9999,
            stratify=False,
            random_state=global_random_seed,
        )
        loop = metric_ci(
            y,
            s,
            metric=skm.roc_auc_score,
            method="bca",
            n_boot=499,
            random_state=global_random_seed,
        )
        assert fast.low == pytest.approx(ref.low, abs=0.01)
        assert fast.high == pytest.approx(ref.high, abs=0.01)
        assert loop.low == pytest.approx(ref.low, abs=0.03)
        assert loop.high == pytest.approx(ref.high, abs=0.03)
        # the Mann-Whitney form and sklearn's trapezoid agree to rounding
        assert fast.estimate == pytest.approx(skm.roc_auc_score(y, s), abs=1e-14)
        assert loop.estimate == pytest.approx(skm.roc_auc_score(y, s), abs=1e-14)

    def test_weighted_auc_equals_repeated_rows(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = rng.integers(0, 2, 50).astype(bool)
        s = np.round(rng.normal(size=50), 1)
        W = rng.integers(0, 4, size=(5, 50)).astype(float)
        got = _weighted_auc(y, s, W)
        for w, g in zip(W, got, strict=True):
            rep = np.repeat(np.arange(50), w.astype(int))
            assert g == pytest.approx(skm.roc_auc_score(y[rep], s[rep]), abs=1e-13)

    def test_n_boot_auto_and_warning(self):
        y, pred = _binary(4)
        assert (
            metric_ci(y, pred, metric="matthews_corrcoef", random_state=0).n_boot == 399
        )
        assert (
            metric_ci(
                y, pred, metric="matthews_corrcoef", confidence=0.99, random_state=0
            ).n_boot
            == 1999
        )
        assert (
            metric_ci(
                y, pred, metric="matthews_corrcoef", confidence=0.5, random_state=0
            ).n_boot
            == 51
        )
        msg = (
            "n_boot=100 leaves about 2.5 resamples in each tail at confidence=0.95; "
            "the interval bounds are unstable. Use n_boot >= 399 (or "
            "n_boot='auto') for this level."
        )
        with pytest.warns(SmallSampleWarning, match=f"^{re.escape(msg)}$"):
            ci = metric_ci(
                y, pred, metric="matthews_corrcoef", n_boot=100, random_state=0
            )
        # used as given, level unchanged
        assert (ci.n_boot, ci.confidence) == (100, 0.95)
        msg = "n_boot=99 leaves about 0.5 resamples in each tail at confidence=0.99"
        with pytest.warns(SmallSampleWarning, match=re.escape(msg)):
            res = compare_predictions(
                y, pred, 1 - pred, metric="f1", n_boot=99, confidence=0.99
            )
        assert (res.n_boot, res.confidence) == (99, 0.99)
        # enough resamples for the level: no warning
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert (
                metric_ci(
                    y, pred, metric="matthews_corrcoef", n_boot=199, confidence=0.9
                ).n_boot
                == 199
            )

    def test_undefined_resamples_are_counted(self):
        y = np.r_[np.zeros(95, int), np.ones(5, int)]
        pred = np.zeros(100, int)
        pred[-1] = 1  # one positive prediction: precision undefined when not drawn
        with pytest.warns(
            UndefinedResamplesWarning, match=r"undefined on \d+ of 399 resamples"
        ):
            ci = metric_ci(
                y, pred, metric="precision", method="percentile", random_state=0
            )
        # P(row never drawn) = (1 - 1/100)^100 = 0.366
        assert 0.25 < ci.n_undefined / 399 < 0.48
        assert "excluded" in ci.note

    def test_auc_stratified_by_default(self):
        rng = np.random.default_rng(0)
        y = np.r_[np.zeros(97, int), np.ones(3, int)]
        s = y + rng.normal(size=100)
        ci = metric_ci(y, s, metric="roc_auc", method="percentile", random_state=0)
        assert ci.n_undefined == 0
        assert "stratified" in ci.note
        with pytest.warns(UndefinedResamplesWarning):
            ci = metric_ci(
                y,
                s,
                metric="roc_auc",
                method="percentile",
                stratify=False,
                random_state=0,
            )
        assert ci.n_undefined > 0

    def test_stratified_draw_keeps_class_counts(self):
        y = np.r_[np.zeros(30, int), np.ones(10, int)]
        units = _Units(40, strata=y)
        idx = units.draw(np.random.default_rng(0), 50)
        np.testing.assert_array_equal(y[idx].sum(axis=1), np.full(50, 10))

    def test_stratified_counts_path(self):
        y, pred = _binary(5)
        ci = metric_ci(
            y,
            pred,
            metric="recall",
            method="percentile",
            stratify=True,
            n_boot=999,
            random_state=0,
        )
        # the number of positives is fixed, so recall is a binomial proportion
        ref = proportion_ci(
            int(((y == 1) & (pred == 1)).sum()), int(y.sum()), method="wald"
        )
        assert ci.low == pytest.approx(ref.low, abs=0.02)
        assert ci.high == pytest.approx(ref.high, abs=0.02)

    def test_groups_resample_whole_groups(self):
        # every row duplicated 5 times: a clustered bootstrap must see 60 rows
        y, pred = _binary(6, n=60)
        groups = np.repeat(np.arange(60), 5)
        yy, pp = np.repeat(y, 5), np.repeat(pred, 5)
        grouped = metric_ci(
            yy, pp, method="percentile", groups=groups, n_boot=1999, random_state=0
        )
        naive = metric_ci(yy, pp, method="percentile", n_boot=1999, random_state=0)
        single = metric_ci(y, pred, method="percentile", n_boot=1999, random_state=0)
        assert grouped.length == pytest.approx(single.length, rel=0.15)
        assert grouped.length / naive.length == pytest.approx(np.sqrt(5), rel=0.15)
        assert "60 whole groups" in grouped.note
        assert metric_ci(yy, pp, groups=groups, random_state=0).method == "bca"

    @pytest.mark.parametrize("metric", ["mae", "roc_auc", "f1_macro"])
    def test_groups_all_paths(self, metric):
        rng = np.random.default_rng(0)
        y = np.tile([0, 1], 60)
        yp = (
            y + rng.normal(size=120)
            if metric != "f1_macro"
            else np.where(rng.random(120) < 0.8, y, 1 - y)
        )
        groups = np.repeat(np.arange(30), 4)
        method = (
            "percentile" if metric == "f1_macro" else "bca"
        )  # loop path: keep it quick
        ci = metric_ci(
            y,
            yp,
            metric=metric,
            method=method,
            groups=groups,
            confidence=0.9,
            random_state=0,
        )  # n_boot="auto": 199
        assert ci.low < ci.estimate < ci.high

    def test_reproducible(self):
        y, pred = _binary(7)
        a = metric_ci(y, pred, metric="matthews_corrcoef", random_state=3)
        b = metric_ci(y, pred, metric="matthews_corrcoef", random_state=3)
        c = metric_ci(y, pred, metric="matthews_corrcoef", random_state=4)
        assert (a.low, a.high) == (b.low, b.high)
        assert (a.low, a.high) != (c.low, c.high)

    @pytest.mark.parametrize("metric", ["mae", "roc_auc"])
    def test_threads_do_not_change_answer(self, monkeypatch, metric):
        import skperf.metrics._resample as R

        rng = np.random.default_rng(0)
        n = 5_000  # 7 blocks of up to 60 resamples
        yt = rng.integers(0, 2, n) if metric == "roc_auc" else rng.normal(size=n)
        yp = yt + rng.normal(size=n)

        def ci():
            return metric_ci(yt, yp, metric=metric, method="percentile", random_state=0)

        monkeypatch.setattr(R, "_N_THREADS", 1)
        ref = ci()
        monkeypatch.setattr(R, "_MIN_THREADED", 0)
        for threads in (2, 3):
            monkeypatch.setattr(R, "_N_THREADS", threads)
            monkeypatch.setattr(R.os, "cpu_count", lambda: 4)
            res = ci()
            assert (res.low, res.high) == (ref.low, ref.high), threads

    def test_several_metrics_one_call(self):
        y, pred = _binary(8)
        df = metric_ci(
            y,
            pred,
            metric=["accuracy", "recall", "f1", "balanced_accuracy", "mcc"],
            random_state=0,
        )
        assert list(df.columns) == [
            "metric",
            "estimate",
            "low",
            "high",
            "method",
            "n",
            "n_boot",
            "n_undefined",
        ]
        assert df["method"].tolist() == ["wilson", "wilson", "wilson", "mover", "bca"]
        assert df["n_boot"].tolist()[4:] == [399]
        assert df["estimate"].tolist() == pytest.approx(
            [
                skm.accuracy_score(y, pred),
                skm.recall_score(y, pred),
                skm.f1_score(y, pred),
                skm.balanced_accuracy_score(y, pred),
                skm.matthews_corrcoef(y, pred),
            ]
        )
        assert df.loc[0, "low"] == metric_ci(y, pred).low

    def test_bca_coverage(self, global_random_seed):
        # MAE of exponential errors: true value 1, skewed statistic
        rng = np.random.default_rng(global_random_seed)
        runs, cover = 150, 0
        for _ in range(runs):
            yp = rng.exponential(size=40)
            ci = metric_ci(
                np.zeros(40), yp, metric="mae", method="bca", random_state=rng
            )
            cover += ci.low <= 1.0 <= ci.high
        assert 0.85 <= cover / runs <= 0.99

    @pytest.mark.slow
    def test_bca_coverage_large(self):
        rng = np.random.default_rng(0)
        runs = 2000
        for metric, make, true in (
            ("mae", lambda: (np.zeros(50), rng.exponential(size=50)), 1.0),
            (
                "accuracy",
                lambda: (np.ones(50, int), (rng.random(50) < 0.8).astype(int)),
                0.8,
            ),
        ):
            cover = 0
            for _ in range(runs):
                yt, yp = make()
                ci = metric_ci(yt, yp, metric=metric, method="bca", random_state=rng)
                cover += ci.low <= true <= ci.high
            # BCa is second-order accurate, yet for the mean of a skewed
            # distribution at n = 50 it under-covers slightly (about 0.92-0.93);
            # for a discrete proportion it is slightly conservative (~0.97)
            assert 0.91 <= cover / runs <= 0.975, (metric, cover / runs)


_NOTE = (
    "uncertainty from the finite test set (the model is held fixed); "
    "not the variation from retraining on other training data"
)


@pytest.mark.parametrize(
    ("metric", "method"),
    [
        ("accuracy", "wald"),
        ("accuracy", "wilson"),
        ("recall", "clopper-pearson"),
        ("roc_auc", "delong"),
        ("roc_auc", "hanley-mcneil"),
        ("roc_auc", "percentile"),
        ("f1", "basic"),
        ("mae", "bca"),
    ],
)
def test_every_interval_says_what_it_describes(metric, method):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    if metric == "roc_auc" or metric == "mae":
        pred = y + rng.normal(size=120)
    else:
        pred = np.where(rng.random(120) < 0.8, y, 1 - y)
    ci = metric_ci(y, pred, metric=metric, method=method, random_state=0)
    assert ci.method == method
    assert ci.note.startswith(_NOTE)


@pytest.mark.parametrize(
    ("metric", "method"),
    [("accuracy", "mcnemar"), ("roc_auc", "delong"), ("f1", "paired-bootstrap")],
)
def test_every_comparison_says_what_it_describes(metric, method):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    if metric == "roc_auc":
        a, b = y + rng.normal(size=120), y + 2 * rng.normal(size=120)
    else:
        a = np.where(rng.random(120) < 0.8, y, 1 - y)
        b = np.where(rng.random(120) < 0.7, y, 1 - y)
    res = compare_predictions(y, a, b, metric=metric, method=method, random_state=0)
    assert res.method == method
    assert res.note.startswith(_NOTE)


class TestScoreCI:
    def test_default_scoring(self, fitted):
        model, X, y = fitted
        ci = score_ci(model, X, y)
        assert ci.estimate == pytest.approx(model.score(X, y))
        assert ci.method == "wilson"

    def test_roc_auc_uses_decision_function(self, fitted):
        model, X, y = fitted
        ci = score_ci(model, X, y, scoring="roc_auc")
        ref = metric_ci(y, model.decision_function(X), metric="roc_auc")
        assert (ci.estimate, ci.low, ci.high) == (ref.estimate, ref.low, ref.high)

    @pytest.mark.filterwarnings("ignore::skperf.exceptions.SmallSampleWarning")
    def test_log_loss_uses_predict_proba(self, fitted):
        model, X, y = fitted
        ci = score_ci(model, X, y, scoring="neg_log_loss", random_state=0)
        assert ci.estimate == pytest.approx(skm.get_scorer("neg_log_loss")(model, X, y))

    def test_scorer_object(self, fitted):
        model, X, y = fitted
        scorer = skm.make_scorer(skm.fbeta_score, beta=2)
        ci = score_ci(
            model,
            X,
            y,
            scoring=scorer,
            method="percentile",
            confidence=0.9,
            random_state=0,
        )  # n_boot="auto": 199
        assert ci.estimate == pytest.approx(scorer(model, X, y))

    def test_string_labels(self):
        X, y = load_breast_cancer(return_X_y=True)
        labels = np.array(["benign", "malignant"])[y]
        model = make_pipeline(StandardScaler(), LogisticRegression()).fit(
            X[:400], labels[:400]
        )
        ci = score_ci(model, X[400:], labels[400:], scoring="roc_auc")
        proba = model.predict_proba(X[400:])[:, 1]
        assert ci.estimate == pytest.approx(
            skm.roc_auc_score(labels[400:] == "malignant", proba)
        )


class TestComparePredictions:
    def test_mcnemar_equals_statsmodels(self, global_random_seed):
        rng = np.random.default_rng(global_random_seed)
        y = rng.integers(0, 2, 300)
        a = np.where(rng.random(300) < 0.85, y, 1 - y)
        b = np.where(rng.random(300) < 0.78, y, 1 - y)
        res = compare_predictions(y, a, b)
        ca, cb = a == y, b == y
        table = [
            [np.sum(ca & cb), np.sum(ca & ~cb)],
            [np.sum(~ca & cb), np.sum(~ca & ~cb)],
        ]
        exact = table[0][1] + table[1][0] < 25
        ref = sm_mcnemar(table, exact=exact, correction=True)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.estimate == pytest.approx(ca.mean() - cb.mean())
        assert (res.estimate_a, res.estimate_b) == pytest.approx((ca.mean(), cb.mean()))
        assert isinstance(res, PairedTestResult)
        assert res.method == "mcnemar"

    def test_error_rate_flips_sign(self):
        y, a = _binary(9)
        _, b = _binary(10)
        acc = compare_predictions(y, a, b)
        err = compare_predictions(y, a, b, metric="error_rate")
        assert err.estimate == pytest.approx(-acc.estimate)
        assert (err.low, err.high) == pytest.approx((-acc.high, -acc.low))
        assert err.pvalue == acc.pvalue

    def test_delong(self):
        d = pd.read_csv(shared_data("aSAH.csv"))
        res = compare_predictions(
            d["outcome"], d["wfns"], d["s100b"], metric="roc_auc", pos_label="Poor"
        )
        assert res.method == "delong"
        assert res.statistic == pytest.approx(2.20898359144091, rel=1e-10)
        assert res.pvalue == pytest.approx(0.0271757822291882, rel=1e-10)
        y = (d["outcome"] == "Poor").astype(int)
        assert res.estimate == delong_paired(y, d["wfns"], d["s100b"]).estimate

    def test_paired_bootstrap(self, global_random_seed):
        y, a = _binary(global_random_seed)
        _, b = _binary(global_random_seed + 1)
        res = compare_predictions(y, a, b, metric="f1", random_state=0)
        assert res.method == "paired-bootstrap"
        assert res.n_boot == 399
        assert res.estimate == pytest.approx(skm.f1_score(y, a) - skm.f1_score(y, b))
        assert res.low <= res.estimate <= res.high
        same = compare_predictions(y, a, a, metric="f1", random_state=0)
        assert (same.estimate, same.low, same.high, same.pvalue) == (
            0.0,
            0.0,
            0.0,
            1.0,
        )

    def test_paired_bootstrap_is_paired(self):
        # b = a with 3 extra errors: the paired interval is far narrower than
        # what two independent intervals would suggest
        y, a = _binary(11, n=400)
        b = a.copy()
        flip = np.flatnonzero(a == y)[:3]
        b[flip] = 1 - b[flip]
        res = compare_predictions(
            y, a, b, metric="accuracy", method="paired-bootstrap", random_state=0
        )
        assert res.estimate == pytest.approx(3 / 400)
        assert res.low >= 0
        assert res.high <= 0.02
        ci = metric_ci(y, a)
        assert res.high - res.low < 0.3 * (ci.high - ci.low)

    def test_paired_bootstrap_mae_and_groups(self):
        rng = np.random.default_rng(0)
        yt = rng.normal(size=100)
        a, b = yt + rng.normal(size=100), yt + 1.5 * rng.normal(size=100)
        res = compare_predictions(yt, a, b, metric="mae", random_state=0)
        assert res.high < 0
        assert res.pvalue < 0.05
        res_g = compare_predictions(
            yt, a, b, metric="mae", groups=np.repeat(np.arange(25), 4), random_state=0
        )
        assert res_g.method == "paired-bootstrap"

    def test_repr(self):
        res = PairedTestResult(
            0.05, 0.01, 0.09, 0.02, "mcnemar", 200, 0.95, 5.4, metric="accuracy"
        )
        assert repr(res).startswith(
            "PairedTestResult(estimate=0.05, low=0.01, high=0.09, pvalue=0.02"
        )
        assert (
            str(res)
            == "accuracy(a) - accuracy(b) = 0.05 [95% CI 0.01, 0.09], p = 0.02 (mcnemar, n = 200)"
        )
        assert res.significant


class TestBadInput:
    def test_length_mismatch(self):
        with pytest.raises(
            ValueError,
            match=re.escape(
                "`y_true` and `y_pred` must have the same length; got 3 and 2."
            ),
        ):
            metric_ci([0, 1, 1], [0, 1])
        with pytest.raises(
            ValueError,
            match=re.escape("`y_true` and `y_pred_b` must have the same length"),
        ):
            compare_predictions([0, 1, 1], [0, 1, 1], [0, 1])
        msg = "`y_true` and `y_pred_a` must have the same length; got 3 and 4."
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            compare_predictions([0, 1, 1], [0, 1, 1, 0], [0, 1, 1])

    def test_one_class_roc_auc(self):
        msg = (
            "`metric='roc_auc'` needs both classes in `y_true`; got only one "
            "class ([1]) in 3 rows."
        )
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            metric_ci([1, 1, 1], [0.2, 0.5, 0.9], metric="roc_auc")
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            compare_predictions(
                [1, 1, 1], [0.2, 0.5, 0.9], [0.1, 0.2, 0.3], metric="roc_auc"
            )

    @pytest.mark.parametrize(
        ("metric", "y_pred", "hint"),
        [
            ("f1", [0, 1, 1], "'f1_macro'"),
            ("roc_auc", [0.1, 0.5, 0.3], "'roc_auc_ovr'"),
        ],
    )
    def test_non_binary_labels(self, metric, y_pred, hint):
        msg = (
            f"`metric={metric!r}` is a binary metric but the labels are not binary: "
            "got 3 labels [0, 1, 2]. Use a callable or a multiclass scorer name "
            f"(e.g. {hint})."
        )
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            metric_ci([0, 1, 2], y_pred, metric=metric)

    def test_pos_label_needed(self):
        with pytest.raises(ValueError, match=re.escape("pass `pos_label=`")):
            metric_ci(["a", "b", "a"], ["a", "b", "b"], metric="recall")

    @pytest.mark.parametrize("metric", ["log_loss", "brier_score_loss"])
    def test_probabilities_outside_unit_interval(self, metric):
        msg = (
            f"`y_pred` must hold probabilities in [0, 1] for `metric={metric!r}`; "
            "got values in [-0.2, 1.3]."
        )
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            metric_ci([0, 1, 1], [-0.2, 0.5, 1.3], metric=metric)

    def test_unknown_metric(self):
        msg = (
            "`metric` 'acuracy' is not known. Use one of ['accuracy', "
            "'balanced_accuracy', 'brier_score_loss', 'error_rate', 'f1', "
            "'jaccard', 'log_loss', 'matthews_corrcoef', 'mean_absolute_error', "
            "'mean_absolute_percentage_error', 'mean_squared_error', "
            "'neg_brier_score', 'neg_log_loss', 'neg_mean_absolute_error', "
            "'neg_mean_absolute_percentage_error', 'neg_mean_squared_error', "
            "'neg_root_mean_squared_error', 'npv', 'precision', 'r2', 'recall', "
            "'roc_auc', 'root_mean_squared_error', 'specificity'], a "
            "scikit-learn metric or scorer name "
            "(sklearn.metrics.get_scorer_names()), or a callable(y_true, y_pred)."
        )
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            metric_ci([0, 1], [0, 1], metric="acuracy")
        msg = (
            "`metric` must be a metric name (str) or a callable(y_true, y_pred); got 3."
        )
        with pytest.raises(TypeError, match=f"^{re.escape(msg)}$"):
            metric_ci([0, 1], [0, 1], metric=3)

    def test_unknown_method(self):
        msg = (
            "`method` must be one of ['auto', 'basic', 'bca', 'clopper-pearson', "
            "'delong', 'delong-logit', 'hanley-mcneil', 'mover', 'percentile', "
            "'studentized', 'wald', 'wilson']; got 'jackknife'."
        )
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            metric_ci([0, 1], [0, 1], method="jackknife")
        msg = (
            "`method` must be one of ['auto', 'delong', 'mcnemar', "
            "'paired-bootstrap', 'variance-components']; got 'wilcoxon'."
        )
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            compare_predictions([0, 1], [0, 1], [1, 1], method="wilcoxon")

    def test_method_does_not_fit_metric(self):
        with pytest.raises(
            ValueError,
            match=re.escape("`method='wilson'` applies to proportion metrics"),
        ):
            metric_ci([0, 1, 1], [0, 1, 0], metric="mcc", method="wilson")
        with pytest.raises(
            ValueError,
            match=re.escape("`method='studentized'` applies to means of per-row"),
        ):
            metric_ci([0, 1, 1], [0, 1, 0], method="studentized")
        with pytest.raises(
            ValueError,
            match=re.escape("`method='delong'` applies to metric='roc_auc' only"),
        ):
            metric_ci([0, 1, 1], [0, 1, 0], method="delong")
        with pytest.raises(
            ValueError,
            match=re.escape("`method='mcnemar'` compares accuracy or error_rate"),
        ):
            compare_predictions(
                [0, 1, 1], [0, 1, 0], [1, 1, 0], metric="f1", method="mcnemar"
            )
        with pytest.raises(
            ValueError, match=re.escape("assumes independent rows; with `groups`")
        ):
            metric_ci([0, 1, 1, 0], [0, 1, 0, 0], method="wilson", groups=[0, 0, 1, 1])

    def test_undefined_on_test_set(self):
        with pytest.raises(
            ValueError,
            match=re.escape("`metric='precision'` is undefined on this test set"),
        ):
            metric_ci([0, 1, 1], [0, 0, 0], metric="precision")
        with pytest.raises(
            ValueError, match=re.escape("`metric='f1'` is undefined on the test set")
        ):
            metric_ci([0, 0, 0], [0, 0, 0], metric="f1", method="percentile")

    def test_stratify_with_groups(self):
        with pytest.raises(
            ValueError,
            match=re.escape("`stratify=True` cannot be combined with `groups`"),
        ):
            metric_ci(
                [0, 1, 1, 0],
                [0, 1, 0, 0],
                method="percentile",
                stratify=True,
                groups=[0, 0, 1, 1],
            )

    def test_bad_groups_and_stratify(self):
        with pytest.raises(
            ValueError,
            match=re.escape("`groups` must be 1-D with one entry per row (4)"),
        ):
            metric_ci([0, 1, 1, 0], [0, 1, 0, 0], groups=[0, 1])
        with pytest.raises(
            ValueError, match=re.escape("`stratify` must be True, False or 'auto'")
        ):
            metric_ci([0, 1, 1, 0], [0, 1, 0, 0], stratify="yes")

    def test_resolve_and_prepare(self):
        spec = _resolve("Sensitivity")
        assert spec.name == "recall"
        prep = _prepare(spec, np.array([0, 1, 1]), np.array([0, 1, 0]))
        assert prep.estimate() == 0.5


def test_callable_metric_and_warnings_are_counted():
    def always_warns(y_true, y_pred):
        return skm.precision_score(y_true, y_pred)  # warns when no positive prediction

    y = np.r_[np.zeros(95, int), np.ones(5, int)]
    pred = np.zeros(100, int)
    pred[-1] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedResamplesWarning)
        ci = metric_ci(
            y,
            pred,
            metric=always_warns,
            method="percentile",
            confidence=0.9,
            random_state=0,
        )  # n_boot="auto": 199
    assert 0.22 < ci.n_undefined / 199 < 0.51


@pytest.fixture(scope="module")
def iris_proba():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, random_state=0)
    model = LogisticRegression(max_iter=500).fit(X_tr, y_tr)
    return model, X_te, y_te


class TestMulticlassScorers:
    @pytest.mark.parametrize("name", ["roc_auc_ovr", "roc_auc_ovo_weighted"])
    def test_multiclass_roc_auc_scorers_are_supported(self, iris_proba, name):
        model, X_te, y_te = iris_proba
        proba = model.predict_proba(X_te)
        # a loop over sklearn's metric per resample: keep n_boot small here
        kw = {"method": "percentile", "confidence": 0.8, "random_state": 0}
        ci = metric_ci(y_te, proba, metric=name, **kw)
        expected = skm.get_scorer(name)(model, X_te, y_te)
        assert ci.estimate == pytest.approx(expected)
        assert (ci.method, ci.n_boot) == ("percentile", 99)
        assert ci.low < ci.estimate < ci.high <= 1.0
        via_score = score_ci(model, X_te, y_te, scoring=name, **kw)
        assert (via_score.low, via_score.high) == (ci.low, ci.high)

    def test_binary_roc_auc_on_multiclass_names_the_alternative(self, iris_proba):
        model, X_te, y_te = iris_proba
        msg = (
            "`metric='roc_auc'` is a binary metric but the labels are not binary: "
            "got 3 labels [0, 1, 2]. Use a callable or a multiclass scorer name "
            "(e.g. 'roc_auc_ovr')."
        )
        with pytest.raises(ValueError, match=re.escape(msg)):
            metric_ci(y_te, model.predict_proba(X_te), metric="roc_auc")


def test_pos_label_hint_shows_a_plain_label():
    y = np.array(["benign", "malignant"] * 10)
    msg = "pass `pos_label=` (e.g. pos_label='malignant')."
    with pytest.raises(ValueError, match=re.escape(msg) + "$"):
        metric_ci(y, y[::-1], metric="f1")
