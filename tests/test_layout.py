"""Imports run downward: the graph of skperf's own imports has no cycle.

Every ``import`` counts, including the ones inside functions (a lazy import
still points up the layers). A package counts as its ``__init__`` module, so
``from .model_selection import X`` depends on everything that
``model_selection/__init__.py`` imports.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "skperf"

# the search tools (their own subpackage until issue 27)
SEARCH_TOOLS = (
    "skperf.model_selection._fixed",
    "skperf.model_selection._noisy_grid",
    "skperf.model_selection._refit",
    "skperf.model_selection._search_distributions",
    "skperf.model_selection._tied",
)


def _module_name(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module, node):
    """The absolute skperf module(s) an ImportFrom/Import node refers to."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "skperf"]
    if node.level == 0:
        base = node.module or ""
        if base.split(".")[0] != "skperf":
            return []
    else:
        package = module.split(".")
        is_package = (ROOT.parent / Path(*package) / "__init__.py").exists()
        if not is_package:
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join(package + ([node.module] if node.module else []))
    # `from .pkg import name` may import a submodule `pkg.name`
    targets = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        targets.append(sub if _exists(sub) else base)
    return targets


def _exists(name):
    path = ROOT.parent / Path(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _graph():
    graph = {}
    for path in ROOT.rglob("*.py"):
        module = _module_name(path)
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                deps.update(d for d in _resolve(module, node) if _exists(d))
        deps.discard(module)
        graph[module] = deps
    return graph


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_graph_is_read():
    graph = _graph()
    assert "skperf.model_selection._split" in graph["skperf.model_selection._engine"]
    assert "skperf.model_selection._tied" in graph["skperf.report._model_selection"]


def test_imports_run_downward():
    # The top-level package re-exports everything, so it is left out: a
    # module importing `skperf` itself would show up as a cycle through it.
    graph = {m: d - {"skperf"} for m, d in _graph().items() if m != "skperf"}
    assert _cycles(graph) == []


def test_engine_does_not_import_the_search_tools():
    # the evaluator and the engine live beside the search tools since issue 27
    # (skperf/model_selection/), but sit below them and below the reports:
    # neither imports a search tool, the facade, the reports or the CLI
    graph = _graph()
    above = ("skperf.report", "skperf.cli", *SEARCH_TOOLS)
    for module in (
        "skperf.model_selection._evaluator",
        "skperf.model_selection._engine",
    ):
        bad = sorted(
            d
            for d in graph[module]
            if d == "skperf.model_selection" or d.startswith(above)
        )
        assert bad == [], (module, bad)


def test_fitting_engine_sits_below_the_evaluator():
    # issue 16: the engine in its own module; the estimator uses it, never
    # the other way round
    graph = _graph()
    assert (
        "skperf.model_selection._engine" in graph["skperf.model_selection._evaluator"]
    )
    assert (
        "skperf.model_selection._evaluator"
        not in graph["skperf.model_selection._engine"]
    )


def test_nothing_imports_the_package_root_from_inside():
    # the root re-exports everything: importing it from below (e.g. for
    # __version__, now in skperf/_version.py) points the layers upward
    graph = _graph()
    importers = sorted(m for m, deps in graph.items() if "skperf" in deps)
    assert importers == []


def test_stats_imports_only_stats_and_exceptions():
    # the pure NumPy/SciPy core: never sklearn (tests/stats/test_layout.py)
    # and, inside skperf, only itself and the warning classes
    graph = _graph()
    allowed = ("skperf.stats", "skperf.exceptions")
    for module, deps in graph.items():
        if module.startswith("skperf.stats"):
            up = sorted(d for d in deps if not d.startswith(allowed))
            assert up == [], (module, up)


# issue 27: the folders say the layers, lowest first. A module imports its own
# layer and those below, never one above (function-level imports count).
LAYERS = [
    ("skperf.exceptions", "skperf._version"),
    ("skperf.stats",),
    ("skperf.utils",),
    ("skperf.metrics",),
    # the value objects at the root
    ("skperf._distribution", "skperf._compare", "skperf._frame"),
    # everything that fits a model
    ("skperf.model_selection",),
    ("skperf.report",),
    ("skperf.cli", "skperf.__main__"),
]
# known upward edges, each with its way out (issue 27)
KNOWN_UP = set()  # no import points up


def _rank(module):
    if module == "skperf":  # the public entry re-exports every layer
        return len(LAYERS)
    for i, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    raise AssertionError(f"{module} is in no layer of LAYERS")


def test_layer_order():
    graph = _graph()
    up = {(m, d) for m, deps in graph.items() for d in deps if _rank(d) > _rank(m)}
    assert up <= KNOWN_UP, sorted(up - KNOWN_UP)
    # the search tools sit below the reports (ModelSelectionReport.from_search
    # reads a search through them) and never import them
    for module in SEARCH_TOOLS:
        assert not any(d.startswith("skperf.report") for d in graph[module]), module


def test_compare_path_stays_short():
    # issue 16 "Done when": RepeatedEvaluator(...).fit().distribution_.compare()
    # touched 86 named functions in 14 files when filed, 95 in 15 before the
    # engine moved to _fitting.py; 73 in 13 after (benchmarks/trace_compare.py).
    # Without memory, kept predictions or progress bar, neither the cache,
    # the predictions module nor a progress bar is entered.
    import importlib.util

    from sklearn.datasets import make_classification

    path = ROOT.parent / "benchmarks" / "trace_compare.py"
    spec = importlib.util.spec_from_file_location("trace_compare", path)
    trace_compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(trace_compare)
    X, y = make_classification(n_samples=80, n_features=4, random_state=0)
    seen = trace_compare.trace(X, y)
    n_functions, n_files, files = trace_compare.summary(seen)
    assert "model_selection/_cache.py" not in files
    assert "model_selection/_predictions.py" not in files
    assert not {"set_total", "update", "_fmt_seconds", "__enter__"} & {
        name for f, name in seen if f == "model_selection/_engine.py"
    }
    # the fitting side: estimator, engine, splitters, seeds, vary. Issue 28
    # ("any trainer") added 6 functions in 2 files: the worker-side seeding of
    # the global generators and its record (_seeding.py: _apply_seeds,
    # _global_states, _globals_used, _kept_global_state), the framework scan
    # of _plan (_trainers.py: scan) and the one Parallel call for any joblib
    # backend (_parallel.py: run); 35 / 73 / 13 before. Issue 29 (item 17)
    # added one: the engine interleaves the models' tasks (_interleaved).
    core = (
        "model_selection/_evaluator.py",
        "model_selection/_engine.py",
        "model_selection/_split.py",
        "model_selection/_seeding.py",
        "model_selection/_vary.py",
    )
    assert sum(files.get(f, 0) for f in core) <= 40, files
    # issue 27 (item 3) added one: Comparison.statistic (_mann_whitney_u)
    assert n_functions <= 82, files
    assert n_files <= 15, files


def test_no_import_points_up_into_the_reports():
    # the reports and the CLI sit on top: nothing below imports them (the
    # metric table lives in skperf.metrics; search_report is
    # ModelSelectionReport.from_search; issue 27) except the package's public
    # entry (skperf/__init__.py re-exports the report functions)
    graph = _graph()
    up = sorted(
        (mod, dep)
        for mod, deps in graph.items()
        for dep in deps
        if dep.startswith(("skperf.report", "skperf.cli"))
        and not mod.startswith(("skperf.report", "skperf.cli"))
        and mod not in ("skperf", "skperf.__main__")
    )
    assert up == []


def test_search_report_is_the_reports_from_search_by_name_only():
    # skperf.model_selection.search_report is ModelSelectionReport.from_search
    # under the search tools' roof: the package's __getattr__ loads it from
    # skperf.report._search on first use, by name (no import statement), and
    # no other lazy name points into the reports
    import skperf.model_selection as ms

    into_reports = {n: m for n, m in ms._LAZY.items() if "report" in m}
    assert into_reports == {"search_report": "skperf.report._search"}
    from skperf.report._search import search_report

    assert ms.search_report is search_report


# issue 27 "Done when": the root package holds at most the public entry modules
ROOT_MODULES = {
    "__init__.py",
    "__main__.py",
    "_version.py",
    "exceptions.py",
    "_distribution.py",  # PerformanceDistribution
    "_compare.py",  # the body of PerformanceDistribution.compare
    "_frame.py",  # from_frame
}
ROOT_PACKAGES = {"stats", "metrics", "model_selection", "report", "cli", "utils"}


def test_root_holds_only_the_entry_modules():
    modules = {p.name for p in ROOT.glob("*.py")}
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert modules <= ROOT_MODULES, sorted(modules - ROOT_MODULES)
    assert packages <= ROOT_PACKAGES, sorted(packages - ROOT_PACKAGES)
    # everything that fits lives in one package
    fitting = {p.name for p in (ROOT / "model_selection").glob("*.py")}
    assert {"_engine.py", "_evaluator.py", "_split.py", "_seeding.py"} <= fitting
