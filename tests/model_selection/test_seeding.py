"""Tests for skperf.model_selection._seeding."""

import re

import numpy as np
import pytest

from skperf.model_selection._seeding import SOURCES, _derive_ints, _hold, spawn_seeds


class TestSpawnSeeds:
    def test_tree_matches_seedsequence(self):
        entropy, seeds = spawn_seeds(123, 4)
        assert entropy == 123
        root = np.random.SeedSequence(123)
        for i, child in enumerate(root.spawn(4)):
            for j, grand in enumerate(child.spawn(3)):
                assert seeds[SOURCES[j]][i] == grand.generate_state(1)[0]
        assert all(s.dtype == np.uint32 and s.shape == (4,) for s in seeds.values())

    def test_more_repeats_extend(self):
        _, short = spawn_seeds(7, 10)
        _, long = spawn_seeds(7, 25)
        for src in SOURCES:
            np.testing.assert_array_equal(long[src][:10], short[src])

    def test_sources_and_repeats_differ(self):
        _, seeds = spawn_seeds(0, 50)
        allseeds = np.concatenate([seeds[s] for s in SOURCES])
        assert np.unique(allseeds).size == 150

    def test_none_records_entropy(self):
        entropy, seeds = spawn_seeds(None, 5)
        assert isinstance(entropy, int)
        assert entropy > 2**64
        _, again = spawn_seeds(entropy, 5)
        for src in SOURCES:
            np.testing.assert_array_equal(again[src], seeds[src])

    @pytest.mark.parametrize(
        "make",
        [np.random.RandomState, np.random.default_rng],
        ids=["RandomState", "Generator"],
    )
    def test_random_state_instances(self, make):
        e1, s1 = spawn_seeds(make(3), 5)
        e2, s2 = spawn_seeds(make(3), 5)
        assert e1 == e2
        assert isinstance(e1, int)
        np.testing.assert_array_equal(s1["init"], s2["init"])
        np.testing.assert_array_equal(spawn_seeds(e1, 5)[1]["split"], s1["split"])

    def test_bad_random_state(self):
        with pytest.raises(TypeError, match=re.escape("got str")):
            spawn_seeds("a", 2)
        with pytest.raises(ValueError, match="non-negative int"):
            spawn_seeds(-1, 2)


def test_hold():
    _, seeds = spawn_seeds(0, 4)
    held = _hold(seeds, {"split"})
    np.testing.assert_array_equal(held["split"], seeds["split"])
    np.testing.assert_array_equal(held["init"], np.full(4, seeds["init"][0]))
    np.testing.assert_array_equal(held["search"], np.full(4, seeds["search"][0]))


def test_derive_ints():
    ints = _derive_ints(5, 4)
    assert len(set(ints)) == 4
    assert all(type(v) is int for v in ints)
    assert _derive_ints(5, 1) == ints[:1]  # prefix-stable
    assert _derive_ints(5, 0) == []
