"""Paths to the shared test data (``../shared/data`` beside the checkout)."""

from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]


def shared_data(name):
    """Path of ``name`` in the shared data folder beside the repository."""
    for base in (_ROOT.parent / "shared" / "data", Path("/work/shared/data")):
        if (base / name).exists():
            return base / name
    return _ROOT.parent / "shared" / "data" / name
