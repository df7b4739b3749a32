"""The statistics core stays pure NumPy/SciPy: it never imports scikit-learn."""

import ast
import sys
from pathlib import Path

import pytest

STATS = Path(__file__).resolve().parents[2] / "skperf" / "stats"
# the standard library, NumPy and SciPy; pandas and matplotlib only lazily (to_frame,
# plot); never scikit-learn, joblib or any other third-party package
ALLOWED = set(sys.stdlib_module_names) | {"numpy", "scipy", "pandas", "matplotlib"}
LAZY_ONLY = {"pandas", "matplotlib"}


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


@pytest.mark.parametrize("path", sorted(STATS.glob("*.py")), ids=lambda p: p.name)
def test_stats_heavy_imports_are_lazy(path):
    # pandas and matplotlib only inside functions: importing skperf.stats
    # never loads them
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:  # module level only
        if isinstance(node, ast.Import):
            roots = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            roots = {node.module.split(".")[0]}
        else:
            continue
        assert not roots & LAZY_ONLY, f"{path.name} imports {roots & LAZY_ONLY}"
