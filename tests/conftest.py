"""Shared fixtures: ``global_random_seed`` as in scikit-learn's conftest."""

import contextlib
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


@pytest.fixture
def dask_processes():
    """A context manager running joblib on dask: one worker *process* on loopback.

    Estimators, seeds and splits cross a process boundary (one process with
    two threads starts in ~2 s, two processes take twice as long). Skips the
    test without ``distributed``.
    """
    distributed = pytest.importorskip("distributed")
    import joblib

    @contextlib.contextmanager
    def cluster():
        with (
            distributed.LocalCluster(
                n_workers=1,
                threads_per_worker=2,
                processes=True,
                host="127.0.0.1",
                protocol="tcp://",
                dashboard_address=None,
            ) as local,
            distributed.Client(local),
            joblib.parallel_config("dask"),
        ):
            yield

    return cluster
