"""skperf.from_frame and ModelSelectionReport.from_frame: scores produced anywhere."""

import numpy as np
import pandas as pd
import pytest

from skperf import ModelSelectionReport, PerformanceDistribution, from_frame


def _long(n=12, shifts=(("a", 0.0), ("b", 0.02), ("c", -0.01)), seed=0):
    rng = np.random.default_rng(seed)
    base = rng.normal(0.85, 0.02, n)  # shared per-seed effect: pairing matters
    rows = [
        {"model": m, "seed": s, "acc": base[s] + sh + rng.normal(0, 0.003)}
        for m, sh in shifts
        for s in range(n)
    ]
    return pd.DataFrame(rows)


def test_pairs_by_key_whatever_the_row_order():
    df = _long()
    shuffled = df.sample(frac=1.0, random_state=1)
    d1 = from_frame(df, score="acc", by="model", pair_by="seed")
    d2 = from_frame(shuffled, score="acc", by="model", pair_by="seed")
    assert set(d1) == {"a", "b", "c"}
    for name in d1:
        # rows sorted by the pair key: identical scores and seeds
        assert np.array_equal(d1[name].scores, d2[name].scores)
        assert np.array_equal(d1[name].seeds["pair"], np.arange(12))
        assert d1[name].n == 12
        assert d1[name].metric == "acc"
    expected = df[df.model == "b"].sort_values("seed")["acc"].to_numpy()
    assert np.array_equal(d2["b"].scores, expected)
    c = d1["b"].compare(d1["a"], n_boot=500, random_state=0)
    assert c.paired
    # the same comparison, paired by hand
    ref = PerformanceDistribution(expected, seeds={"s": np.arange(12)}).compare(
        PerformanceDistribution(
            df[df.model == "a"].sort_values("seed")["acc"].to_numpy(),
            seeds={"s": np.arange(12)},
        ),
        n_boot=500,
        random_state=0,
    )
    assert c.estimate == ref.estimate == 1.0
    assert c.pvalue == ref.pvalue


def test_string_keys_unpaired_and_single_model():
    df = _long(n=5)
    df["seed"] = "s" + df["seed"].astype(str)
    d = from_frame(df, score="acc", by="model", pair_by="seed")
    assert np.array_equal(d["a"].seeds["pair"], np.arange(5))
    un = from_frame(df, score="acc", by="model")
    assert un["a"].seeds is None
    assert list(un["a"].scores) == list(df[df.model == "a"]["acc"])
    one = from_frame(df[df.model == "a"], score="acc")
    assert list(one) == ["acc"]
    assert one["acc"].n == 5
    low = from_frame(df, score="acc", by="model", greater_is_better=False)
    assert not low["a"].greater_is_better


@pytest.mark.parametrize(
    ("edit", "kwargs", "match"),
    [
        (None, {"score": "nope"}, "'nope' not found; columns are: model, seed, acc"),
        (None, {"score": "acc", "by": "nope"}, "`by` column 'nope' not found"),
        (None, {"score": "acc", "by": "model", "pair_by": "x"}, "'x' not found"),
        (
            "text",
            {"score": "acc", "by": "model"},
            "not numeric: 1 value.*'oops' in row 3",
        ),
        ("nan", {"score": "acc", "by": "model"}, "1 missing value.*row 3"),
        ("inf", {"score": "acc", "by": "model"}, r"non-finite value \(inf\) in row 3"),
        ("empty", {"score": "acc", "by": "model"}, "`frame` has no rows"),
        ("noname", {"score": "acc", "by": "model"}, "'model' has 1 missing model"),
        (
            "nokey",
            {"score": "acc", "by": "model", "pair_by": "seed"},
            "`pair_by` column 'seed' has 1 missing key",
        ),
        ("one", {"score": "acc", "by": "model"}, "model 'z' has 1 run; at least 2"),
        (
            "dup",
            {"score": "acc", "by": "model", "pair_by": "seed"},
            "duplicate pair key: model 'a' has seed=1",
        ),
        (
            "gap",
            {"score": "acc", "by": "model", "pair_by": "seed"},
            "pair keys differ.*'b' lacks seed=3",
        ),
    ],
)
def test_bad_input(edit, kwargs, match):
    df = _long(n=6)
    if edit == "text":
        df["acc"] = df["acc"].astype(object)
        df.loc[3, "acc"] = "oops"
    elif edit == "nan":
        df.loc[3, "acc"] = np.nan
    elif edit == "inf":
        df.loc[3, "acc"] = np.inf
    elif edit == "empty":
        df = df.iloc[:0]
    elif edit == "noname":
        df.loc[3, "model"] = None
    elif edit == "nokey":
        df["seed"] = df["seed"].astype(float)
        df.loc[3, "seed"] = np.nan
    elif edit == "one":
        df = pd.concat([df, pd.DataFrame([{"model": "z", "seed": 0, "acc": 0.5}])])
    elif edit == "dup":
        df.loc[2, "seed"] = 1
    elif edit == "gap":
        df = df[~((df.model == "b") & (df.seed == 3))]
    with pytest.raises(ValueError, match=match):
        from_frame(df, **kwargs)


def test_not_a_frame():
    with pytest.raises(TypeError, match="pandas DataFrame"):
        from_frame({"acc": [1, 2]}, score="acc")


def test_report_from_frame_matches_report_from_distributions():
    df = _long(n=30)
    r1 = ModelSelectionReport.from_frame(
        df, score="acc", by="model", pair_by="seed", random_state=0, n_boot=500
    )
    dists = from_frame(df, score="acc", by="model", pair_by="seed")
    # from_frame's reports decide about "this dataset" (no split design)
    r2 = ModelSelectionReport(dists, random_state=0, n_boot=500, target="this dataset")
    assert r1.best == r2.best == "b"
    assert r1.tied_with_best == ["b"]
    pd.testing.assert_frame_equal(r1.to_frame(), r2.to_frame())
    assert all(c.paired for c in r1.comparisons.values())
    assert r1.settings["pair_by"] == "seed"


class TestRowRules:
    """Issue 17 items 2, 3, 10, 18: one row per run, named metrics checked."""

    def test_model_names_one_and_text_one_not_merged(self):
        df = pd.DataFrame({"model": [1, 1, "1", "1"], "acc": [0.8, 0.82, 0.9, 0.91]})
        with pytest.raises(ValueError, match="two different model names that read"):
            from_frame(df, score="acc", by="model")
        ok = from_frame(
            df.assign(model=df["model"].astype(str)), score="acc", by="model"
        )
        assert list(ok) == ["1"]
        assert ok["1"].n == 4
        # two names that differ as text stay distinct
        df2 = pd.DataFrame({"model": [1, 1, 2, 2], "acc": [0.8, 0.82, 0.9, 0.91]})
        assert list(from_frame(df2, score="acc", by="model")) == ["1", "2"]

    def test_model_column_without_by_refused(self):
        df = _long(n=4)
        msg = "column 'model' holds 3 models .* pass by='model'"
        with pytest.raises(ValueError, match=msg):
            from_frame(df, score="acc")

    def test_duplicate_rows_refused(self):
        df = _long(n=20, shifts=(("a", 0.0),))
        twice = pd.concat([df, df], ignore_index=True)
        msg = r"20 row\(s\) repeat an earlier row exactly \(row 20 repeats row 0\)"
        with pytest.raises(ValueError, match=msg):
            from_frame(twice, score="acc", by="model")
        # equal scores without a column telling runs apart are ties, not copies
        ties = pd.DataFrame({"acc": [0.9, 0.9, 0.8, 0.9]})
        assert from_frame(ties, score="acc")["acc"].n == 4

    def test_folds_refused_then_averaged(self):
        rng = np.random.default_rng(0)
        df = pd.DataFrame(
            {
                "repeat": np.repeat(np.arange(8), 5),
                "fold": np.tile(np.arange(5), 8),
                "acc": rng.uniform(0.8, 0.9, 40),
            }
        )
        with pytest.raises(ValueError, match="pass repeat_by='repeat' to average"):
            from_frame(df, score="acc")
        d = from_frame(df, score="acc", repeat_by="repeat")["acc"]
        assert d.n == 8
        np.testing.assert_allclose(d.scores, df.groupby("repeat")["acc"].mean())
        # fold means exactly at 0.9 meet 0.9 (issue 18.9)
        folds = pd.DataFrame(
            {"repeat": np.repeat(np.arange(40), 2), "fold": np.tile([0, 1], 40)}
        )
        folds["acc"] = np.tile([0.85, 0.95], 40)
        d = from_frame(folds, score="acc", repeat_by="repeat")["acc"]
        assert d.scores[0] != 0.9  # 0.8999999999999999
        r = d.requirement(0.9)
        assert (r.n_meeting, r.verdict) == (40, "met")

    def test_repeat_pairing(self):
        rows = [
            {
                "model": m,
                "repeat": r,
                "fold": f,
                "seed": 10 + r,
                "acc": 0.8 + s + f / 100,
            }
            for m, s in (("a", 0.01), ("b", 0.0))
            for r in range(4)
            for f in range(3)
        ]
        df = pd.DataFrame(rows)
        d = from_frame(df, score="acc", by="model", pair_by="seed", repeat_by="repeat")
        np.testing.assert_allclose(d["a"].scores, np.full(4, 0.82))
        np.testing.assert_array_equal(d["a"].seeds["pair"], np.arange(4))
        df.loc[1, "seed"] = 99
        with pytest.raises(ValueError, match="`pair_by` column 'seed' varies within a"):
            from_frame(df, score="acc", by="model", pair_by="seed", repeat_by="repeat")

    def test_percent_refused(self):
        df = _long(n=5)
        df["accuracy"] = 100 * df["acc"]
        with pytest.raises(ValueError, match="divide the scores by 100"):
            from_frame(df, score="accuracy", by="model")

    def test_loss_name_needs_direction(self):
        df = _long(n=5)
        df["log_loss"] = 1 - df["acc"]
        with pytest.raises(ValueError, match="'log_loss' is a loss"):
            from_frame(df, score="log_loss", by="model")
        d = from_frame(df, score="log_loss", by="model", greater_is_better=False)
        assert not d["a"].greater_is_better
        # b has the highest accuracy: the lowest loss, the better model
        assert d["b"].compare(d["a"]).decision.startswith("better")
