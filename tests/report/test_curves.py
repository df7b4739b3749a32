"""ROC / precision-recall curves across repeats: checked on their data."""

import re

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import auc, average_precision_score, roc_auc_score
from sklearn.naive_bayes import GaussianNB

from skperf import RepeatedEvaluator
from skperf.report import curve_band, pr_curves, roc_curves


@pytest.fixture(scope="module")
def ev():
    X, y = load_breast_cancer(return_X_y=True)
    X = X[:, :4]  # a weaker model: curves with room to vary
    return RepeatedEvaluator(
        GaussianNB(),
        cv=3,
        n_repeats=12,
        random_state=0,
        refit=False,
        return_predictions=True,
    ).fit(X, y)


def _pooled(ev, r):
    p = ev.predictions_[ev.predictions_["repeat"] == r]
    idx = np.concatenate(list(p["test_index"]))
    score = np.concatenate([s[:, 1] for s in p["y_score"]])
    return ev._pred_meta["y"][idx], score


def test_roc_area_per_repeat_and_quantile_band(ev):
    cb = roc_curves(ev, grid=1001)
    assert cb.n == 12
    assert cb.curves.shape == (12, 1001)
    for r in range(12):
        y, s = _pooled(ev, r)
        assert cb.area[r] == roc_auc_score(y, s)
        # the interpolated curve integrates to the same AUC
        assert auc(cb.grid, cb.curves[r]) == pytest.approx(cb.area[r], abs=2e-3)
    assert np.ptp(cb.area) > 0.002  # the repeats do differ
    # the band is exactly the pointwise 10 % / 90 % quantiles of the curves
    np.testing.assert_array_equal(cb.low, np.quantile(cb.curves, 0.1, axis=0))
    np.testing.assert_array_equal(cb.high, np.quantile(cb.curves, 0.9, axis=0))
    np.testing.assert_array_equal(cb.center, np.median(cb.curves, axis=0))
    inside = (cb.curves >= cb.low) & (cb.curves <= cb.high)
    # at every point at least n - 2 * ceil(0.1 * (n - 1)) = 8 of the 12 curves
    assert inside.sum(axis=0).min() == 8
    assert inside.mean() > 0.9
    # curves are ROC curves: monotone from (0, .) to (1, 1)
    assert (np.diff(cb.curves, axis=1) >= 0).all()
    assert np.allclose(cb.curves[:, -1], 1.0)


def test_t_band(ev):
    cb = roc_curves(ev, band="t", quantiles=(0.05, 0.95), grid=51)
    mean = cb.curves.mean(axis=0)
    half = stats.t.ppf(0.95, 11) * cb.curves.std(axis=0, ddof=1) * np.sqrt(1 + 1 / 12)
    np.testing.assert_allclose(cb.center, mean)
    np.testing.assert_allclose(cb.low, np.clip(mean - half, 0, 1))
    np.testing.assert_allclose(cb.high, np.clip(mean + half, 0, 1))
    assert (cb.low <= cb.center).all()
    assert (cb.center <= cb.high).all()
    assert (cb.high - cb.low).max() > 0.01


def test_pr_curves(ev):
    cb = pr_curves(ev, grid=201)
    for r in range(12):
        y, s = _pooled(ev, r)
        assert cb.area[r] == average_precision_score(y, s)
    # interpolated precision never increases with recall and ends at the prevalence or above
    assert (np.diff(cb.curves, axis=1) <= 1e-12).all()
    assert (cb.curves[:, -1] >= np.mean(ev._pred_meta["y"]) - 1e-12).all()
    assert (cb.low <= cb.center).all()
    assert (cb.center <= cb.high).all()


def test_known_curve():
    # a perfect and a random-ish ranking: ROC at 0 and at 1 known exactly
    y = np.array([0, 0, 1, 1])
    perfect = np.array([0.1, 0.2, 0.8, 0.9])
    swapped = np.array([0.8, 0.9, 0.1, 0.2])
    cb = curve_band([y, y], [perfect, swapped], grid=5)
    np.testing.assert_array_equal(cb.curves[0], [1, 1, 1, 1, 1])
    np.testing.assert_array_equal(cb.curves[1], [0, 0, 0, 0, 1])
    np.testing.assert_array_equal(cb.area, [1.0, 0.0])


def test_plot_draws_the_data(ev):
    cb = roc_curves(ev, grid=21)
    ax = cb.plot()
    lines = ax.get_lines()
    assert len(lines) == 12 + 1 + 1  # curves, center, diagonal
    np.testing.assert_array_equal(lines[12].get_ydata(), cb.center)
    assert "AUC median" in ax.get_title()
    pcb = pr_curves(ev, grid=21)
    ax = pcb.plot(show_curves=False)
    assert len(ax.get_lines()) == 1


def test_errors(ev):
    X, y = load_breast_cancer(return_X_y=True)
    plain = RepeatedEvaluator(LogisticRegression(), n_repeats=2, cv=2, refit=False)
    with pytest.raises(ValueError, match="return_predictions=True"):
        roc_curves(plain.fit(X[:, :3], y))
    with pytest.raises(ValueError, match="`band`"):
        roc_curves(ev, band="x")
    msg = "`quantiles` must be a pair (low, high) with 0 < low < high < 1; got (0.9, 0.1)."
    with pytest.raises(ValueError, match=re.escape(msg)):
        roc_curves(ev, quantiles=(0.9, 0.1))
    with pytest.raises(ValueError, match=re.escape("`quantiles` must be a pair")):
        roc_curves(ev, quantiles=0.8)
    with pytest.raises(TypeError):
        roc_curves(ev, level=0.8)  # the band is a pair of quantiles, not a level


def test_band_coverage_of_a_new_repeat_monte_carlo():
    # binormal scores, 10 repeats of 100 test rows: how often does the curve
    # of an 11th repeat lie inside the band, pointwise (FPR 0.1 .. 0.9)?
    # t band (prediction interval, level 0.8): about 0.8. Quantile band
    # (descriptive, the 10-90 % quantiles of the 10 curves): about
    # (8.1 - 0.9) / 11 = 0.65, as order statistics predict -- not 0.8.
    from skperf.report._curves import _interp_roc

    rng = np.random.default_rng(12345)
    grid = np.linspace(0, 1, 11)

    def draw():
        y = rng.integers(0, 2, 100)
        return y, y + rng.normal(0, 1, 100)

    inside_t, inside_q = [], []
    for _ in range(150):
        ys, ss = zip(*(draw() for _ in range(10)), strict=True)
        t = curve_band(ys, ss, grid=grid, band="t", quantiles=(0.1, 0.9))
        q = curve_band(ys, ss, grid=grid, band="quantile")
        new = _interp_roc(*draw(), grid, 1)
        inside_t.append((new >= t.low) & (new <= t.high))
        inside_q.append((new >= q.low) & (new <= q.high))
    cov_t = np.mean(inside_t, axis=0)[1:-1]
    cov_q = np.mean(inside_q, axis=0)[1:-1]
    assert 0.74 <= cov_t.mean() <= 0.88
    assert cov_t.min() >= 0.66
    assert 0.57 <= cov_q.mean() <= 0.73


# ----------------------------------------------------------------------
# in the model-selection report: compare_models(return_predictions=True)
@pytest.fixture(scope="module")
def breast4():
    X, y = load_breast_cancer(return_X_y=True)
    return X[:, :4], y


@pytest.fixture(scope="module")
def curve_report(breast4):
    from skperf import compare_models

    X, y = breast4
    models = {"nb": GaussianNB(), "lr": LogisticRegression(max_iter=200)}
    # curve bands are run-to-run quantiles over repeats on this dataset
    return compare_models(
        models,
        X,
        y,
        n_repeats=5,
        random_state=0,
        n_boot=200,
        return_predictions=True,
        target="this dataset",
    )


def _fields_equal(a, b):
    assert (a.kind, a.band, a.quantiles, a.n) == (b.kind, b.band, b.quantiles, b.n)
    for field in ("grid", "curves", "center", "low", "high", "area"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert a == b


def test_report_curves_are_roc_and_pr_curves_of_its_evaluators(curve_report, breast4):
    report = curve_report
    assert set(report.curves) == {"roc", "pr"}
    for kind, fn in (("roc", roc_curves), ("pr", pr_curves)):
        assert list(report.curves[kind]) == ["nb", "lr"]
        for name, ev in report.evaluators.items():
            assert hasattr(ev, "predictions_")
            _fields_equal(report.curves[kind][name], fn(ev))
    # the evaluators are the ordinary ones: the same seeds alone give the same
    # curves, and each repeat's area is the AUC of its pooled test predictions
    X, y = breast4
    alone = RepeatedEvaluator(
        GaussianNB(), n_repeats=5, random_state=0, refit=False, return_predictions=True
    ).fit(X, y)
    _fields_equal(report.curves["roc"]["nb"], roc_curves(alone))
    _fields_equal(report.curves["pr"]["nb"], pr_curves(alone))
    for r in range(5):
        yt, s = _pooled(report.evaluators["lr"], r)
        assert report.curves["roc"]["lr"].area[r] == roc_auc_score(yt, s)
        assert report.curves["pr"]["lr"].area[r] == average_precision_score(yt, s)
    for kind in ("roc", "pr"):
        for cb in report.curves[kind].values():
            assert cb.n == 5
            assert 0.85 < np.median(cb.area) < 1.0
            assert (cb.low <= cb.center).all()
            assert (cb.center <= cb.high).all()
    assert "no_curves" not in report.notes.codes()
    assert report.curves_missing == {}


def test_report_without_return_predictions_has_no_curves(breast4):
    from skperf import compare_models

    X, y = breast4
    report = compare_models(
        {"nb": GaussianNB()}, X, y, n_repeats=3, random_state=0, n_boot=200
    )
    assert report.curves == {}
    assert not hasattr(report.evaluators["nb"], "predictions_")
    with pytest.raises(ValueError, match="return_predictions=True"):
        report.plot_curves()


def _images(html):
    """The ``src`` of every ``<img>`` of an HTML page."""
    from html.parser import HTMLParser

    imgs = []

    class Images(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "img":
                imgs.append(dict(attrs)["src"])

    Images().feed(html)
    return imgs


def test_html_embeds_one_more_figure_and_markdown_defines_the_band(
    curve_report, breast4
):
    import base64

    from skperf import ModelSelectionReport

    html = curve_report.to_html()
    imgs = _images(html)
    # the same report without curves: one figure fewer
    plain = ModelSelectionReport(
        curve_report.raw_distributions, random_state=0, target="this dataset"
    )
    assert plain.curves == {}
    assert len(_images(plain.to_html())) == 1
    assert len(imgs) == 2
    assert "ROC and precision-recall" in html
    png = base64.b64decode(imgs[1].split(",", 1)[1])
    assert png[:4] == b"\x89PNG"
    assert "http" not in html.lower()
    assert len(_images(curve_report.to_html(plots=False))) == 0
    md = curve_report.to_markdown()
    flat = " ".join(md.split())
    assert flat.count("pointwise 10% and 90% quantiles of the per-repeat curves") == 1
    assert "Curves (nb, lr;" in flat
    assert "Curves (" not in plain.to_markdown()


def test_plot_curves_draws_one_band_per_model(curve_report):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection

    for kind in ("roc", "pr"):
        ax = curve_report.plot_curves(kind=kind)
        bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
        assert len(bands) == 2
        lines = [ln for ln in ax.get_lines() if ln.get_label().startswith(("nb", "lr"))]
        assert [ln.get_label().split()[0] for ln in lines] == ["nb", "lr"]
        for ln, cb in zip(lines, curve_report.curves[kind].values(), strict=True):
            np.testing.assert_array_equal(ln.get_ydata(), cb.center)
        plt.close(ax.figure)
    with pytest.raises(ValueError, match="`kind` must be 'roc' or 'pr'"):
        curve_report.plot_curves(kind="det")


def test_regression_target_gives_one_note_and_no_curves():
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import LinearRegression, Ridge

    from skperf import compare_models

    X, y = load_diabetes(return_X_y=True)
    report = compare_models(
        {"ridge": Ridge(), "ols": LinearRegression()},
        X,
        y,
        n_repeats=3,
        random_state=0,
        n_boot=200,
        return_predictions=True,
    )
    assert report.curves == {}
    # one note naming both models (the same reason)
    assert [n.where for n in report.notes.by_code("no_curves")] == [("ridge", "ols")]
    assert list(report.curves_missing) == ["ridge", "ols"]
    assert len(_images(report.to_html())) == 1
    assert "Curves (" not in report.to_markdown()


class _PredictOnly:
    """A classifier with predict only (no scores for a curve)."""

    _estimator_type = "classifier"

    def __init__(self):
        pass

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self

    def fit(self, X, y):
        self.model_ = GaussianNB().fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)

    def score(self, X, y):
        return self.model_.score(X, y)

    def __sklearn_tags__(self):
        return GaussianNB().__sklearn_tags__()


def test_models_without_scores_or_binary_target_are_noted(breast4):
    from sklearn.datasets import load_iris

    from skperf import compare_models

    X, y = breast4
    report = compare_models(
        {"nb": GaussianNB(), "hard": _PredictOnly()},
        X,
        y,
        n_repeats=3,
        random_state=0,
        n_boot=200,
        return_predictions=True,
    )
    assert list(report.curves["roc"]) == ["nb"]
    assert list(report.curves["pr"]) == ["nb"]
    assert [n.where for n in report.notes.by_code("no_curves")] == [("hard",)]
    assert list(report.curves_missing) == ["hard"]
    X, y = load_iris(return_X_y=True)
    report = compare_models(
        {"nb": GaussianNB()},
        X,
        y,
        n_repeats=3,
        random_state=0,
        n_boot=200,
        return_predictions=True,
    )
    assert report.curves == {}
    assert [n.where for n in report.notes.by_code("no_curves")] == [("nb",)]
    assert report.curves_missing == {
        "nb": "they need a binary target; the target has 3 classes"
    }


def test_cli_curves_end_to_end(tmp_path, capsys, monkeypatch):
    import skperf.report
    from skperf.cli import main

    kept = {}
    compare = skperf.report.compare_models

    def spy(*args, **kwargs):
        kept["report"] = compare(*args, **kwargs)
        kept["kwargs"] = kwargs
        return kept["report"]

    monkeypatch.setattr(skperf.report, "compare_models", spy)
    out = tmp_path / "r.html"
    args = [
        "report",
        "--curves",
        "--n-repeats",
        "3",
        "--random-state",
        "0",
        "--n-jobs",
        "1",
        "--model",
        "lr=sklearn.linear_model.LogisticRegression:max_iter=200",
        "--model",
        "nb=sklearn.naive_bayes.GaussianNB",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    stdout = " ".join(capsys.readouterr().out.split())
    report = kept["report"]
    assert kept["kwargs"]["return_predictions"] is True
    assert list(report.curves["roc"]) == ["lr", "nb"]
    for name, ev in report.evaluators.items():
        roc = roc_curves(ev)
        _fields_equal(report.curves["roc"][name], roc)
        assert (
            f"curves: {name}: ROC AUC median {np.median(roc.area):.3f}, average "
            f"precision median {np.median(pr_curves(ev).area):.3f} over 3 repeats"
        ) in stdout
        assert np.median(roc.area) > 0.97
    assert len(_images(out.read_text(encoding="utf-8"))) == 2
    # without --curves: no predictions kept, one figure
    assert main([a for a in args if a != "--curves"]) == 0
    assert kept["kwargs"]["return_predictions"] is False
    assert "curves:" not in capsys.readouterr().out
    assert len(_images(out.read_text(encoding="utf-8"))) == 1


def test_cli_help_documents_curves(capsys):
    from skperf.cli import main

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--curves" in help_text
    assert "precision-recall curves across repeats" in help_text


def test_curve_band_result_style():
    # issue 16: frozen, read-only arrays, == with a copy (used to raise),
    # to_dict and to_frame, pos_label=None as everywhere
    import copy
    import dataclasses
    import json

    rng = np.random.default_rng(0)
    ys = [rng.integers(0, 2, 60) for _ in range(5)]
    ss = [y + rng.normal(0, 1, 60) for y in ys]
    cb = curve_band(ys, ss, grid=11)
    assert cb == copy.deepcopy(cb)
    assert cb != curve_band(ys, ss, grid=11, quantiles=(0.25, 0.75))
    assert (cb == "x") is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        cb.band = "t"
    for name in ("grid", "curves", "center", "low", "high", "area"):
        assert not getattr(cb, name).flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            getattr(cb, name)[0] = 0
    d = cb.to_dict()
    json.dumps(d)
    assert d["quantiles"] == (0.1, 0.9)
    assert d["target"] == "this dataset"
    frame = cb.to_frame()
    assert list(frame.columns) == ["x", "center", "low", "high"]
    assert len(frame) == 11
    assert "quantiles=(0.1, 0.9)" in repr(cb)
    # pos_label=None is the greater label, as pos_label=1 for 0/1 labels
    assert cb == curve_band(ys, ss, grid=11, pos_label=1)
    flipped = curve_band([1 - y for y in ys], ss, grid=11, pos_label=0)
    np.testing.assert_allclose(flipped.area, cb.area)
    with pytest.raises(ValueError, match="exactly two labels"):
        curve_band([np.array([0, 1, 2])] * 2, [np.zeros(3)] * 2)
