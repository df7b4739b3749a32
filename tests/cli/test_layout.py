"""The command line uses only the public API of skperf (issue 16, item 5).

Every import in ``skperf/cli/`` (function-level ones included) is parsed
with :mod:`ast`: no name starting with ``_`` is imported from a skperf module
outside the package (a fact the evaluation computed is read from the report
it returned, not recomputed with the report's private helpers), and each
subcommand module keeps the one contract of :mod:`skperf.cli`.
"""

import ast
import inspect
from pathlib import Path

import skperf.cli

CLI = Path(skperf.cli.__file__).resolve().parent


def _is_private(name):
    """``_x`` but not a dunder such as ``__version__`` (public by convention)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _skperf_imports(path):
    """``(line, module, name)`` of every import of skperf outside ``skperf.cli``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [
                (node.lineno, a.name, None)
                for a in node.names
                if a.name == "skperf" or a.name.startswith("skperf.")
            ]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                module = node.module or ""
                if module != "skperf" and not module.startswith("skperf."):
                    continue
            elif node.level == 1:
                continue  # the cli package itself (skperf.cli._common ...)
            else:  # from .. import x / from ..report import x
                module = ".".join(["skperf", *([node.module] if node.module else [])])
            if module == "skperf.cli" or module.startswith("skperf.cli."):
                continue
            out += [(node.lineno, module, a.name) for a in node.names]
    return out


def test_the_imports_are_read():
    found = {
        (module, name)
        for path in CLI.glob("*.py")
        for _, module, name in _skperf_imports(path)
    }
    assert ("skperf.report", "compare_models") in found or ("skperf", "report") in found
    assert ("skperf._frame", "from_frame") in found


def test_no_private_name_imported():
    bad = []
    for path in sorted(CLI.glob("*.py")):
        for line, module, name in _skperf_imports(path):
            parts = module.split(".")[1:] if name is None else [name]
            if any(_is_private(p) for p in parts):
                bad.append(f"{path.name}:{line}: {module} {name or ''}".strip())
    assert bad == []


def test_private_names_from_private_modules_are_refused(tmp_path):
    # the check itself: the imports the CLI used to have are caught
    path = tmp_path / "m.py"
    path.write_text(
        "def f():\n"
        "    from ..report._format import _varied_text\n"
        "    from .._seeding import _root_entropy\n"
        "    from skperf.report import _metrics\n"
        "    import skperf._cli_common\n"
    )
    names = [name or module for _, module, name in _skperf_imports(path)]
    assert names == ["_varied_text", "_root_entropy", "_metrics", "skperf._cli_common"]
    assert all(
        any(
            _is_private(p)
            for p in (n.split(".")[1:] if n.startswith("skperf") else [n])
        )
        for n in names
    )


def test_one_contract_per_subcommand():
    for module in skperf.cli.SUBCOMMANDS:
        assert module.PROG == f"skperf {module.__name__.rsplit('_', 1)[-1]}"
        assert list(inspect.signature(module.add_parser).parameters) == ["subparsers"]
        assert list(inspect.signature(module.run).parameters) == ["args"]
        assert module.__all__ == ["add_parser", "run"]
