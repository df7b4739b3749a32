"""Notes are data: a stable code, the text (a str) and where (issue 27, item 4)."""

import copy
import json
import pickle
import re
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, FitFailedWarning

from skperf import BenchmarkReport, ModelSelectionReport, PerformanceDistribution
from skperf import exceptions as exc
from skperf.report._notes import Note, Notes, warning_code


def test_note_is_its_text():
    n = Note("a, b: SmallSampleWarning: n = 5", "small_sample", ("a", "b"))
    assert isinstance(n, str)
    assert n == "a, b: SmallSampleWarning: n = 5"
    assert str(n) == n
    assert type(str(n)) is str
    assert n.startswith("a, b:")
    assert "n = 5" in n
    assert hash(n) == hash("a, b: SmallSampleWarning: n = 5")
    assert (n.code, n.where) == ("small_sample", ("a", "b"))
    assert Note("x", "c", "lr").where == ("lr",)
    assert Note("x", "c").where == ()
    assert json.loads(json.dumps([n])) == ["a, b: SmallSampleWarning: n = 5"]
    for back in (pickle.loads(pickle.dumps(n)), copy.deepcopy(n), copy.copy(n)):
        assert back == n
        assert (back.code, back.where) == ("small_sample", ("a", "b"))


@pytest.mark.parametrize(
    ("category", "code"),
    [
        (exc.SmallSampleWarning, "small_sample"),
        (exc.TiesWarning, "ties"),
        (exc.DependentObservationsWarning, "dependent_observations"),
        (exc.NoVariationWarning, "no_variation"),
        (exc.NotReproducibleWarning, "not_reproducible"),
        (exc.UndefinedResamplesWarning, "undefined_resamples"),
        (exc.GroupsIgnoredWarning, "groups_ignored"),
        (FitFailedWarning, "fit_failed"),
        (ConvergenceWarning, "convergence"),
        (RuntimeWarning, "runtime_warning"),
        (UserWarning, "user_warning"),
    ],
)
def test_warning_code(category, code):
    assert warning_code(category) == code


def test_notes_merge_by_code_and_words():
    notes = Notes()
    notes.add("a", "SmallSampleWarning: n = 8 is too small", code="small_sample")
    notes.add("b", "SmallSampleWarning: n = 9 is too small", code="small_sample")
    notes.add("b", "SmallSampleWarning: n = 9 is too small", code="small_sample")
    # the same words under another code: another note
    notes.add("c", "SmallSampleWarning: n = 7 is too small", code="other")
    notes.append(Note("the whole report", "design"))
    notes.append("a plain str")  # a user's own note: no code
    assert notes.codes() == ["small_sample", "other", "design", None]
    (merged,) = notes.by_code("small_sample")
    assert merged == (
        "a, b: SmallSampleWarning: n = 8/9 is too small (x/y: one value per "
        "model, in the order named)"
    )
    assert merged.where == ("a", "b")
    assert notes.by_code("other")[0].where == ("c",)
    assert notes.by_code("missing") == []


def test_report_notes_are_coded_and_documented():
    # small samples with ties: warnings (coded by category) and Noether
    small = {
        "a": PerformanceDistribution([0.8, 0.9, 0.85, 0.85, 0.7], metric="accuracy"),
        "b": PerformanceDistribution([0.7, 0.8, 0.75, 0.72, 0.6], metric="accuracy"),
    }
    r = ModelSelectionReport(small, target="this dataset", random_state=0)
    r.to_frame()
    assert all(isinstance(n, Note) for n in r.notes)
    codes = r.notes.codes()
    assert {"small_sample", "ties", "below_noether"} <= set(codes)
    assert r.notes.by_code("below_noether")[0].where == ()
    # every code is listed in the class docstring
    documented = set(re.findall(r'``"([a-z_]+)"``', ModelSelectionReport.__doc__))
    assert set(codes) - {"small_sample", "ties"} <= documented
    # the pages show the text, to_dict plain str
    flat = " ".join(r.to_markdown().split())
    assert all(" ".join(n.split()) in flat for n in r.notes)
    d = r.to_dict()["notes"]
    assert d == list(r.notes)
    assert all(type(n) is str for n in d)
    back = pickle.loads(pickle.dumps(r))
    assert back.notes.codes() == codes


def test_new_data_notes_carry_where():
    # failed fits on weak's first 3 splits: incomplete, missing_splits, the
    # best moved to lr
    rng = np.random.default_rng(0)
    ids = np.arange(30)
    lr = rng.normal(0.80, 0.01, 30)
    weak = lr[3:] + 0.01 + rng.normal(0, 0.03, 27)  # higher, not significantly
    dists = {
        "lr": PerformanceDistribution(lr, seeds={"split_id": ids}),
        "weak": PerformanceDistribution(weak, seeds={"split_id": ids[3:]}),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = ModelSelectionReport(dists, test_train_ratio=1 / 9, _split_design=ids)
    assert r.incomplete == {"weak": 3}
    assert r.notes.codes() == [
        "incomplete",
        "best_skips_incomplete",
        "missing_splits",
        "borderline_pair",  # adjusted p within a factor of 2 of 0.05
    ]
    assert [n.where for n in r.notes] == [
        ("weak",),
        ("weak", "lr"),
        ("lr vs weak",),
        ("lr vs weak",),
    ]
    assert 0.025 < r.pvalues_adjusted["weak"] < 0.1
    assert r.best == "lr"
    assert r.tied_with_best == ["lr", "weak"]  # not significantly different


def test_benchmark_notes_are_coded():
    import pandas as pd

    rows = [
        {"dataset": d, "model": m, "acc": 0.8 + 0.01 * i + (m == "b") * 0.02}
        for i, d in enumerate(["d0", "d1", "d2"])
        for m in ("a", "b")
    ]
    rep = BenchmarkReport.from_frame(
        pd.DataFrame(rows), score="acc", by="model", dataset="dataset", random_state=0
    )
    assert rep.notes.codes() == ["single_run"]
    assert rep.notes.by_code("single_run")[0].startswith("one run per model")
