"""Tests for the result objects Interval, QuantileCI and Comparison."""

import dataclasses
import re

import numpy as np
import pytest

from skperf.stats import Comparison, Interval, QuantileCI, quantile_ci


def _interval(**kw):
    base = {
        "estimate": 0.9,
        "low": 0.85,
        "high": 0.95,
        "confidence": 0.95,
        "method": "t",
        "n": 25,
    }
    base.update(kw)
    return Interval(**base)


class TestInterval:
    def test_frozen_and_python_scalars(self):
        ci = _interval(estimate=np.float64(0.9), n=np.int64(25))
        assert type(ci.estimate) is float
        assert type(ci.n) is int
        with pytest.raises(dataclasses.FrozenInstanceError):
            ci.low = 0.0
        assert ci.length == pytest.approx(0.1)

    def test_repr(self):
        assert repr(_interval()) == (
            "Interval(estimate=0.9, low=0.85, high=0.95, confidence=0.95, method='t', n=25)"
        )
        r = repr(_interval(method="bca", n_boot=399, n_undefined=3, note="test set"))
        assert "n_boot=399" in r
        assert "n_undefined=3" in r
        assert "note='test set'" in r
        assert "np.float64" not in repr(_interval(estimate=np.float64(0.123456789)))

    def test_array_fields_read_only(self):
        ci = _interval(estimate=[0.1, 0.2], low=[0.0, 0.1], high=[0.2, 0.3])
        assert isinstance(ci.low, np.ndarray)
        with pytest.raises(ValueError, match="read-only"):
            ci.low[0] = 5
        frame = ci.to_frame()
        assert frame.shape[0] == 2
        np.testing.assert_array_equal(frame["high"], [0.2, 0.3])
        assert list(frame["method"]) == ["t", "t"]

    def test_to_dict(self):
        d = _interval().to_dict()
        assert d["estimate"] == 0.9
        assert d["method"] == "t"
        assert d["n"] == 25


class TestQuantileCI:
    def test_array_q(self):
        x = np.random.default_rng(0).normal(size=60)
        ci = quantile_ci(x, [0.25, 0.5, 0.75], method="exact")
        assert isinstance(ci, QuantileCI)
        assert ci.low.shape == ci.q.shape == (3,)
        frame = ci.to_frame()
        assert list(frame.columns[:4]) == ["q", "estimate", "low", "high"]
        np.testing.assert_array_equal(frame["estimate"], ci.estimate)
        assert re.match(r"QuantileCI\(q=\[0\.25, 0\.5, 0\.75\], estimate=\[", repr(ci))

    def test_scalar_q(self):
        x = np.random.default_rng(0).normal(size=60)
        ci = quantile_ci(x, 0.5, method="exact")
        assert type(ci.low) is float
        assert type(ci.coverage) is float
        assert ci.to_frame().shape[0] == 1


class TestComparison:
    def _comparison(self, decision="better", **kw):
        base = {
            "estimate": 0.8,
            "low": 0.65,
            "high": 0.92,
            "confidence": 0.95,
            "gamma": 0.75,
            "decision": decision,
            "paired": True,
            "n_self": 30,
            "n_other": 30,
            "mean_difference": _interval(method="paired t"),
            "pvalue": 0.001,
            "test": "wilcoxon",
            "noether_n": 29,
            "n_boot": 2000,
            "names": ("A", "B"),
        }
        base.update(kw)
        return Comparison(**base)

    @pytest.mark.parametrize(
        ("decision", "sentence", "winner", "significant", "meaningful"),
        [
            (
                "better",
                "A is significantly and meaningfully better than B",
                "A",
                True,
                True,
            ),
            (
                "better, not meaningful",
                "A is significantly better than B, but the difference is not meaningful",
                "A",
                True,
                False,
            ),
            (
                "no significant difference",
                "no significant difference between A and B",
                None,
                False,
                False,
            ),
            (
                "worse, not meaningful",
                "B is significantly better than A, but",
                "B",
                True,
                False,
            ),
            (
                "worse",
                "B is significantly and meaningfully better than A",
                "B",
                True,
                True,
            ),
        ],
    )
    def test_decisions(self, decision, sentence, winner, significant, meaningful):
        c = self._comparison(decision)
        assert str(c).startswith(sentence)
        assert "P(A > B) = 0.800 [95% CI 0.650, 0.920], paired, n = 30/30." in str(c)
        assert (c.winner, c.significant, c.meaningful) == (
            winner,
            significant,
            meaningful,
        )

    def test_invalid_decision(self):
        with pytest.raises(ValueError, match="`decision` must be one of"):
            self._comparison("maybe")

    def test_to_dict_flattens_mean_difference(self):
        d = self._comparison().to_dict()
        assert d["mean_difference"] == 0.9
        assert d["mean_difference_method"] == "paired t"
        assert d["names"] == ["A", "B"]


class TestResultStyle:
    """Issue 16: one result style (frozen, read-only arrays, to_dict, == never raises)."""

    def _results(self):
        import copy

        from skperf import PerformanceDistribution
        from skperf.stats import mean_ci, quantile_band, quantile_ci

        x = np.random.default_rng(0).normal(0.9, 0.02, size=30)
        d = PerformanceDistribution(x)
        made = [
            mean_ci(x),
            mean_ci(np.tile(x, (3, 1))),  # array fields
            quantile_ci(x, [0.1, 0.5, 0.9], method="exact"),
            quantile_ci(x, 0.5, method="exact"),
            quantile_band(x),
            d.compare(PerformanceDistribution(x - 0.01)),
        ]
        return [(r, copy.deepcopy(r)) for r in made]

    def test_equal_to_a_copy_and_never_raises(self):
        for r, c in self._results():
            assert r == c
            assert not (r != c)
            assert r != "something else"
            assert (r == 1) is False

    def test_differs_when_a_field_differs(self):
        a = Interval(0.9, 0.85, 0.95, confidence=0.95, method="t", n=25)
        assert a != Interval(0.9, 0.85, 0.96, confidence=0.95, method="t", n=25)
        nan = Interval(float("nan"), 0.0, 1.0, confidence=0.95, method="t", n=2)
        assert nan == Interval(float("nan"), 0.0, 1.0, confidence=0.95, method="t", n=2)

    def test_frozen_read_only_to_dict(self):
        import dataclasses
        import json

        for r, _ in self._results():
            with pytest.raises(dataclasses.FrozenInstanceError):
                r.method = "x"
            for f in dataclasses.fields(r):
                v = getattr(r, f.name)
                if isinstance(v, np.ndarray):
                    assert not v.flags.writeable, (type(r).__name__, f.name)
            json.dumps(r.to_dict())  # plain values only

    def test_repr_names_the_target(self):
        for r, _ in self._results():
            if hasattr(r, "target"):
                assert "target='" in repr(r) or r.target is None
        from skperf.stats import mean_ci

        x = np.arange(10.0)
        assert mean_ci(x).target == "this dataset"
        ci = mean_ci(x, method="corrected-t", n_train=90, n_test=10)
        assert ci.target == "new data"
