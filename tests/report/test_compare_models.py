"""compare_models' sequential race (issue 26): rounds of K-fold CV, pairs
settled at their first crossing, models dropped once settled."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from skperf import compare_models


@pytest.fixture(scope="module")
def data():
    return make_classification(
        n_samples=150, n_features=5, n_informative=3, random_state=0
    )


class TestSequentialRace:
    """compare_models' sequential default (issue 26): rounds of K-fold CV,
    stopped once every pair is settled."""

    def test_stops_when_every_pair_is_settled(self, data):
        X, y = data
        models = {"lr": LogisticRegression(), "dummy": DummyClassifier()}
        seq = compare_models(models, X, y, random_state=0)
        fixed = compare_models(models, X, y, random_state=0, n_repeats=10)
        spent = len(seq.evaluators["lr"].results_)
        assert (seq.stopped, seq.max_fits) == ("decided", 100)
        assert spent == 20  # the first efficacy look
        assert (fixed.stopped, fixed.max_fits) == ("fixed", 100)
        assert seq.best == fixed.best == "lr"
        assert seq.fits == {"lr": 20, "dummy": 20}
        assert len(seq.notes.by_code("sequential_design")) == 1
        assert "sequential_design" not in fixed.notes.codes()
        # the stopped run holds the fixed design's first rounds, fit for fit
        a = seq.evaluators["lr"].results_["test_score"].to_numpy()
        b = fixed.evaluators["lr"].results_["test_score"].to_numpy()[:spent]
        np.testing.assert_array_equal(a, b)

    def test_max_fits_and_time_budget(self, data):
        X, y = data
        models = {"lr": LogisticRegression(), "lr2": LogisticRegression(C=0.5)}
        r = compare_models(models, X, y, random_state=0, max_fits=20)
        assert r.max_fits == 20
        assert len(r.evaluators["lr"].results_) <= 20
        r = compare_models(models, X, y, random_state=0, time_budget=1e-9)
        # no second round starts; the look at that round is read as the last
        # (its pairs settled), and the report says the budget stopped it
        assert len(r.evaluators["lr"].results_) == 10
        assert r.stopped == "budget"
        assert r.stop_reason.startswith(
            "0 of 1 pairs decided, 0 futile, 1 undecided at the last look"
        )
        with pytest.raises(ValueError, match="sequential design"):
            compare_models(models, X, y, n_repeats=3, time_budget=10)
        with pytest.raises(ValueError, match="max_fits"):
            compare_models(models, X, y, n_repeats=10, max_fits=20)


def test_progress_bar_says_the_race_state(data, capsys):
    # issue 26, item 5: the bar shows the pairs settled and why it stopped
    X, y = data
    models = {"lr": LogisticRegression(), "dummy": DummyClassifier()}
    compare_models(models, X, y, random_state=0, progress=True)
    err = capsys.readouterr().err.replace("\r", "\n")
    assert "1 of 1 pairs settled, 1 model(s) out; decided after 2 round(s)" in err
    assert "done, decided" in err


def test_race_disagreement_is_named(data, monkeypatch):
    # a pair the race stopped undecided but the fixed-design reading calls
    # significant is named as borderline (benchmarks/sequential_api_study.py)
    import dataclasses as dc

    from skperf.stats import _sequential

    real = _sequential.compare_look

    def futile(*args, **kwargs):
        return dc.replace(real(*args, **kwargs), state="futile")

    monkeypatch.setattr(_sequential, "compare_look", futile)
    X, y = data
    r = compare_models(
        {"lr": LogisticRegression(), "dummy": DummyClassifier()}, X, y, random_state=0
    )
    assert r.stopped == "futile"
    assert r.pairwise()["decision"].iloc[0] == "better"
    assert [n.where for n in r.notes.by_code("race_open_pair")] == [("lr vs dummy",)]


def test_race_drops_a_model_decided_worse(data):
    # issue 26, item 1: a model decided worse than another stops being fitted;
    # the pair still open runs on; its pairs are read on the rounds it has
    X, y = data
    models = {
        "lr": LogisticRegression(),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
        "dummy": DummyClassifier(),
    }
    r = compare_models(models, X, y, random_state=0)
    assert r.fits == {"lr": 100, "tree": 100, "dummy": 20}  # recorded
    assert r.stopped == "decided"
    assert len(r.evaluators["dummy"].results_) == 20
    assert r.evaluators["dummy"].stopped_ == "settled"
    pw = r.pairwise().set_index(["model_a", "model_b"])
    assert pw.loc[("lr", "dummy"), "decision"] == "better"
    assert pw.loc[("tree", "dummy"), "decision"] == "better"
    assert pw.loc[("tree", "lr"), "decision"] == "better"
    assert pw.loc[("lr", "dummy"), "n"] == 20  # the splits both have
    assert r.incomplete == {}  # never fitted there, not failed
    assert r.generalization["dummy"].n_fits == 20
    assert len(r.notes.by_code("sequential_design")) == 1
    assert r.max_fits == 100
    assert repr(r).endswith(
        "fits={'lr': 100, 'tree': 100, 'dummy': 20}, max_fits=100, stopped='decided')"
    )


def test_race_fits_equal_a_fixed_run_on_the_rounds_kept(data):
    # the dropped model's fits are the first rounds of the fixed design's
    X, y = data
    models = {"lr": LogisticRegression(), "dummy": DummyClassifier()}
    seq = compare_models(models, X, y, random_state=3)
    fixed = compare_models(models, X, y, random_state=3, n_repeats=2)
    for name in models:
        a = seq.evaluators[name].results_["test_score"].to_numpy()
        b = fixed.evaluators[name].results_["test_score"].to_numpy()
        np.testing.assert_array_equal(a, b[: a.size])


def test_report_is_built_once(data, monkeypatch):
    """Issue 27, item 4: compare_models validates its settings once and
    constructs its report once; nothing is set on it after the constructor
    returns, and each headline interval is computed once (the evaluator's,
    not the report's corrected t first)."""
    from skperf.report import _compare_models as cm
    from skperf.report import _model_selection as ms

    built = {}
    init = ms.ModelSelectionReport.__init__

    def spy(self, *args, **kwargs):
        init(self, *args, **kwargs)
        built["vars"] = dict(vars(self))
        built["notes"] = list(self.notes)

    own_t = []
    corrected_t = ms._corrected_t_interval
    checks = []
    check = ms._check_report_args
    for module in (ms, cm):
        monkeypatch.setattr(
            module,
            "_check_report_args",
            lambda **kw: checks.append(kw) or check(**kw),
        )
    monkeypatch.setattr(ms.ModelSelectionReport, "__init__", spy)
    monkeypatch.setattr(
        ms,
        "_corrected_t_interval",
        lambda *a, **k: own_t.append(a) or corrected_t(*a, **k),
    )
    X, y = data
    models = {"lr": LogisticRegression(), "dummy": DummyClassifier()}
    report = compare_models(models, X, y, random_state=0, return_predictions=True)
    assert vars(report).keys() == built["vars"].keys()
    assert all(vars(report)[k] is v for k, v in built["vars"].items())
    assert list(report.notes) == built["notes"]
    assert own_t == []  # the headline is each evaluator's generalization_ci
    assert len(checks) == 1  # validated once, before the fits
    assert report.stopped == "decided"  # a race stopped early: 20 of 100 fits
    assert report.fits == {"lr": 20, "dummy": 20}
    # the kept predictions (the curves) are those of the fits that ran
    # (a stopped race raised ValueError here before)
    assert len(report.evaluators["lr"].predictions_) == 20
    assert set(report.curves["roc"]) == {"lr", "dummy"}
    for name, ev in report.evaluators.items():
        ci = ev.generalization_ci(confidence=0.95)
        assert (report.generalization[name].low, report.generalization[name].high) == (
            ci.low,
            ci.high,
        )


@pytest.mark.slow
def test_race_null_rate_reproduces_the_study():
    """Three equal models (benchmarks/race_study.py, null, n = 200), datasets
    0-99 of the study: the race called some pair significant on 4 of 100
    (the study's 400: 3.75 %, docs/race_tables.inc; 0.05 + 2 MC s.e. is
    0.094 at 100 datasets) and spent 5750 fits in all (19 per model and
    dataset, the fixed design 100), as recorded in
    benchmarks/results/race_study.csv. ~60 s."""
    import warnings

    from tests._data.benchmarks import load_benchmark

    study = load_benchmark("race_study")
    significant = fits = 0
    for rep in range(100):
        X, y, models, seed = study.dataset(3, "null", 200, rep)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = compare_models(models, X, y, random_state=seed, n_jobs=1)
        significant += bool(
            (r.pairwise()["decision"] != "no significant difference").any()
        )
        fits += sum(r.fits.values())
    assert (significant, fits) == (4, 5750)


def test_curves_need_two_repeats(data):
    # asked for curves, the race does not stop before round 2 (where, without
    # them, this pair stops as futile after round 1)
    X, y = data
    models = {"lr": LogisticRegression(), "tree": DecisionTreeClassifier(max_depth=2)}
    assert compare_models(models, X, y, random_state=0).fits == {"lr": 10, "tree": 10}
    r = compare_models(models, X, y, random_state=0, return_predictions=True)
    assert r.fits == {"lr": 20, "tree": 20}
    assert set(r.curves["roc"]) == {"lr", "tree"}
    # one repeat (a fixed design): no band, and the error says why
    one = compare_models(
        models, X, y, random_state=0, n_repeats=1, return_predictions=True
    )
    assert one.curves == {}
    assert set(one.curves_missing) == {"lr", "tree"}
    assert all("at least 2 repeats" in v for v in one.curves_missing.values())
    assert len(one.notes.by_code("no_curves")) == 1  # one note naming both
    with pytest.raises(ValueError, match="lr: a band needs predictions from at least"):
        one.plot_curves()


def test_race_share_fixed_when_a_model_starts_failing(monkeypatch):
    """The Bonferroni share of the race's pairs is fixed by the number of
    models: a model whose fits fail from some round on does not raise the
    level of the pairs left (their earlier looks were at 1/3 of alpha)."""
    import types

    import pandas as pd

    from skperf.report._compare_models import _RaceStopping
    from skperf.stats import _sequential

    levels = []
    look = _sequential.compare_look

    def spy(*args, confidence, **kwargs):
        levels.append(confidence)
        return look(*args, confidence=confidence, **kwargs)

    monkeypatch.setattr(_sequential, "compare_look", spy)
    rng = np.random.default_rng(0)

    def job(rounds, failed, mean=0.8):
        n = 10 * rounds
        res = pd.DataFrame(
            {
                "test_score": rng.normal(mean, 0.03, n),
                "n_test": 20,
                "n_train": 180,
                "repeat": np.repeat(np.arange(rounds), 10),
                "error": ["boom" if failed else None] * n,
            }
        )
        spec = types.SimpleNamespace(n_repeats=10)
        return types.SimpleNamespace(results=res, names=["score"], spec=spec)

    race = _RaceStopping(0.95)
    # models 0 and 1 differ: their pair is still open after round 1
    race([job(1, False), job(1, False, 0.88), job(1, False)], 1, False)
    assert race.looks[0, 1].state == "continue"
    race([job(2, False), job(2, False, 0.88), job(2, True)], 2, False)
    assert levels[:3] == [pytest.approx(1 - 0.05 / 3)] * 3
    assert levels[3:] == [pytest.approx(1 - 0.05 / 3)] * (len(levels) - 3)
    assert len(levels) > 3  # the pair of the two models left was looked at


def test_requirement_needing_more_runs_says_how_many(data):
    # the race stops after a few repeats; a requirement needs its own n
    X, y = data
    models = {"lr": LogisticRegression(), "dummy": DummyClassifier()}
    r = compare_models(models, X, y, random_state=0, requirement=(0.5, 0.8))
    assert r.fits == {"lr": 20, "dummy": 20}
    verdicts = {name: v.verdict for name, v in r.requirements.items()}
    assert verdicts == {"lr": "inconclusive", "dummy": "not met"}  # 2 of 2 below
    assert (r.requirements["lr"].n, r.requirements["lr"].n_needed) == (2, 14)
    (note,) = r.notes.by_code("requirement_needs_runs")  # lr's only
    assert note.where == ("lr",)
    assert "n_repeats=14" in note
