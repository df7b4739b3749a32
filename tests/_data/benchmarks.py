"""Load a script of ``benchmarks/`` as a module (the sdist ships them)."""

import importlib.util
from pathlib import Path

_BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(name):
    """Import ``benchmarks/<name>.py``; scikit-learn's config is restored
    afterwards (the studies turn its input validation off at import)."""
    import sklearn

    saved = sklearn.get_config()
    spec = importlib.util.spec_from_file_location(name, _BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    finally:
        sklearn.set_config(**saved)
    return module
