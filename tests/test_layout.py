"""Imports run downward: the graph of skperf's own imports has no cycle.

Every ``import`` counts, including the ones inside functions (a lazy import
still points up the layers). A package counts as its ``__init__`` module, so
``from .model_selection import X`` depends on everything that
``model_selection/__init__.py`` imports.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "skperf"


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
    assert "skperf._split" in graph["skperf._fitting"]
    assert "skperf.report" in graph["skperf.search._tied"]


def test_imports_run_downward():
    # The top-level package re-exports everything, so it is left out: a
    # module importing `skperf` itself would show up as a cycle through it.
    graph = {m: d - {"skperf"} for m, d in _graph().items() if m != "skperf"}
    assert _cycles(graph) == []


def test_evaluator_does_not_import_model_selection():
    graph = _graph()
    for module in ("skperf._evaluator", "skperf._fitting"):
        assert not any(d.startswith("skperf.model_selection") for d in graph[module])
        assert not any(d.startswith("skperf.search") for d in graph[module])


def test_fitting_engine_sits_below_the_evaluator():
    # issue 16: the engine in its own module; the estimator uses it, never
    # the other way round
    graph = _graph()
    assert "skperf._fitting" in graph["skperf._evaluator"]
    assert "skperf._evaluator" not in graph["skperf._fitting"]


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


def test_layer_order():
    # stats < exceptions/utils < the evaluation core < report < search: no
    # module imports a layer above its own (function-level imports count)
    layers = [
        ("skperf.exceptions", "skperf._version"),
        ("skperf.stats",),
        ("skperf.utils",),
    ]
    graph = _graph()

    def rank(module):
        for i, prefixes in enumerate(layers):
            if module.startswith(prefixes):
                return i
        return len(layers)  # everything above the core layers

    for module, deps in graph.items():
        for d in deps:
            assert rank(d) <= rank(module), f"{module} imports {d} (a layer above)"
    # the search tools sit above the report, which never imports them
    for module, deps in graph.items():
        if module.startswith("skperf.report"):
            assert not any(d.startswith("skperf.search") for d in deps), module


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
    assert "_cache.py" not in files
    assert "_predictions.py" not in files
    assert not {"set_total", "update", "_fmt_seconds", "__enter__"} & {
        name for f, name in seen if f == "_fitting.py"
    }
    # the fitting side: estimator, engine, splitters, seeds, vary. Issue 28
    # ("any trainer") added 6 functions in 2 files: the worker-side seeding of
    # the global generators and its record (_seeding.py: _apply_seeds,
    # _global_states, _globals_used, _kept_global_state), the framework scan
    # of _plan (_trainers.py: scan) and the one Parallel call for any joblib
    # backend (_parallel.py: run); 35 / 73 / 13 before. Issue 29 (item 17)
    # added one: the engine interleaves the models' tasks (_interleaved).
    core = ("_evaluator.py", "_fitting.py", "_split.py", "_seeding.py", "_vary.py")
    assert sum(files.get(f, 0) for f in core) <= 40, files
    assert n_functions <= 81, files
    assert n_files <= 15, files


def test_no_import_points_up_into_the_reports():
    # the reports and the CLI sit on top: nothing below imports them (the
    # metric table lives in skperf.metrics; issue 27) except the package's
    # public entry (skperf/__init__.py re-exports the report functions)
    graph = _graph()
    up = sorted(
        (mod, dep)
        for mod, deps in graph.items()
        for dep in deps
        if dep.startswith(("skperf.report", "skperf.cli"))
        and not mod.startswith(("skperf.report", "skperf.cli"))
        and mod not in ("skperf", "skperf.__main__")
    )
    # known: search_report (skperf.search._tied) builds a ModelSelectionReport
    # (to become ModelSelectionReport.from_search, issue 27's note)
    assert up == [("skperf.search._tied", "skperf.report")]
