"""The statistics core stays pure NumPy/SciPy: it never imports scikit-learn."""

import ast
from pathlib import Path

import pytest

STATS = Path(__file__).resolve().parents[2] / "skperf" / "stats"
ALLOWED = {
    "numpy",
    "scipy",
    "math",
    "numbers",
    "functools",
    "warnings",
    "dataclasses",
    "__future__",
    "itertools",
    "collections",
    "pandas",
    "typing",
    "concurrent",
    "os",
    # lazily, in _pyplot only (stats/_band.py), for the plot methods
    "matplotlib",
}


@pytest.mark.parametrize("path", sorted(STATS.glob("*.py")), ids=lambda p: p.name)
def test_stats_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside skperf.stats, or skperf.exceptions
                mod = node.module or ""
                assert node.level == 1 or mod == "exceptions", (path.name, mod)
                continue
            roots = {node.module.split(".")[0]}
            if node.module.startswith("skperf"):
                assert node.module in {"skperf.exceptions"} or node.module.startswith(
                    "skperf.stats"
                ), (path.name, node.module)
                continue
        else:
            continue
        assert roots <= ALLOWED, f"{path.name} imports {roots - ALLOWED}"
