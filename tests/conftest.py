"""Shared fixtures: ``global_random_seed`` as in scikit-learn's conftest."""

import os

import pytest


def _seeds():
    value = os.environ.get("SKPERF_TESTS_GLOBAL_RANDOM_SEED", "42")
    if value == "all":
        return list(range(100))
    if "-" in value:
        lo, hi = value.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(value)]


def pytest_generate_tests(metafunc):
    if "global_random_seed" in metafunc.fixturenames:
        metafunc.parametrize("global_random_seed", _seeds())


@pytest.fixture(autouse=True)
def _matplotlib_agg():
    """Use a non-interactive matplotlib backend when matplotlib is present."""
    try:
        import matplotlib
    except ImportError:
        yield
        return
    matplotlib.use("Agg")
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
