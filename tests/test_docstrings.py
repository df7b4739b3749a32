"""numpydoc validation of every public docstring.

Ruff's ``D`` rules never look at private ``_modules``, where all the code
lives, so this test runs :func:`numpydoc.validate.validate` on each name in
``__all__`` of the public modules (functions and classes) and on the public
methods that skperf defines on those classes, as
``sklearn/tests/test_docstrings.py`` does for scikit-learn.

Checks enforced (numpydoc codes, see
https://numpydoc.readthedocs.io/en/latest/validation.html):

- GL03, GL05-GL10: layout (blank lines, tabs, unknown / misordered sections,
  missing docstring GL08, deprecation placement, mismatched backticks);
- SS01-SS06: a one-line summary, capitalized, ending with a period, without
  leading whitespace, in the infinitive ("Return", not "Returns");
- PR01-PR10: every parameter documented (PR01), no unknown ones (PR02), in
  signature order, with a type and a capitalized description ending in a
  period;
- RT01, RT03-RT05: a Returns section when the function returns something,
  each value described;
- YD01: a Yields section for generators;
- SA02-SA04: well-formed See Also entries when there is a See Also section;
- EX01: an Examples section, for functions and classes (not for methods).

Not enforced, as in scikit-learn: GL01/GL02 (where the summary starts and
blank lines around it), RT02 (the Returns line may name the value as well as
its type); and, by choice, ES01 (extended summary) and SA01 (See Also) which
are welcome but optional.

Run ``python -m pytest tests/test_docstrings.py -q``; a failure lists every
offending name with its numpydoc codes and messages.
"""

import importlib
import inspect
import re
from pathlib import Path

import pytest

validate = pytest.importorskip("numpydoc.validate").validate

MODULES = ("skperf", "skperf.model_selection", "skperf.metrics", "skperf.stats")

CHECKS = frozenset(
    {"GL03", "GL05", "GL06", "GL07", "GL08", "GL09", "GL10"}
    | {"SS01", "SS02", "SS03", "SS04", "SS05", "SS06"}
    | {f"PR{i:02d}" for i in range(1, 11)}
    | {"RT01", "RT03", "RT04", "RT05", "YD01", "SA02", "SA03", "SA04", "EX01"}
)
METHOD_EXEMPT = frozenset({"EX01"})  # examples are required on the class

# Names exempt from validation, each with the reason. Keep this empty unless
# a docstring cannot be fixed on our side.
IGNORE = {}


def _public_methods(cls):
    """Public methods skperf defines on ``cls`` (or on a skperf base class).

    Inherited scikit-learn / NumPy methods (``get_params``, the generated
    ``set_*_request``) are scikit-learn's to document, so they are skipped;
    so are properties and dunder methods.
    """
    names = []
    for name in sorted(dir(cls)):
        if name.startswith("_"):
            continue
        if isinstance(inspect.getattr_static(cls, name), property):
            continue
        # getattr resolves descriptors such as ``available_if`` (delegated
        # methods) and classmethods to plain functions.
        attr = getattr(cls, name)
        attr = getattr(attr, "__func__", attr)
        if not inspect.isfunction(attr):
            continue
        if not getattr(attr, "__module__", "").startswith("skperf"):
            continue
        names.append(name)
    return names


def _public_names():
    """Import paths of every object to validate, and whether it is a method."""
    paths = {}
    for modname in MODULES:
        module = importlib.import_module(modname)
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            # One entry per object: the shortest public path wins
            # (skperf.Interval rather than skperf.stats.Interval).
            key = id(obj)
            path = f"{modname}.{name}"
            if key not in paths or len(path) < len(paths[key][0]):
                paths[key] = (path, obj)
    out = []
    for path, obj in sorted(paths.values(), key=lambda item: item[0]):
        out.append((path, False))
        if inspect.isclass(obj):
            out.extend((f"{path}.{meth}", True) for meth in _public_methods(obj))
    return out


PUBLIC_NAMES = _public_names()


def _errors(path, is_method):
    result = validate(path)
    return [
        (code, message)
        for code, message in result["errors"]
        if code in CHECKS and not (is_method and code in METHOD_EXEMPT)
    ]


def test_public_names_collected():
    """The collection finds the API.md names and methods of classes."""
    paths = {path for path, _ in PUBLIC_NAMES}
    for expected in (
        "skperf.PerformanceDistribution",
        "skperf.RepeatedEvaluator",
        "skperf.repeated_cross_val_score",
        "skperf.model_selection.OutOfBootstrap",
        "skperf.metrics.metric_ci",
        "skperf.stats.quantile_ci",
        "skperf.PerformanceDistribution.quantile_ci",
    ):
        assert expected in paths
    # Re-exports are validated once, under the shortest path.
    assert "skperf.stats.Interval" not in paths
    # scikit-learn's own methods are not ours to document.
    assert not any(p.endswith((".get_params", ".set_params")) for p in paths)


@pytest.mark.parametrize(
    ("path", "is_method"), PUBLIC_NAMES, ids=[p for p, _ in PUBLIC_NAMES]
)
def test_docstring(path, is_method):
    if path in IGNORE:
        pytest.skip(IGNORE[path])
    errors = _errors(path, is_method)
    msg = "\n".join(f"{path}: {code} {message}" for code, message in errors)
    assert not errors, f"numpydoc validation failed:\n{msg}"


def test_api_reference_lists_all_public_names():
    """docs/api.rst has an autosummary entry for every ``__all__`` name."""
    api = Path(__file__).resolve().parents[1] / "docs" / "api.rst"
    if not api.exists():  # installed package without the docs folder
        pytest.skip("docs/api.rst not found")
    text = api.read_text(encoding="utf-8")
    listed, current = set(), None
    for line in text.splitlines():
        m = re.match(r"\.\. (?:current)?module:: (\S+)", line)
        if m:
            current = m.group(1)
        elif re.fullmatch(r"   [A-Za-z_]\w*", line) and current:
            listed.add(f"{current}.{line.strip()}")
    missing = []
    for modname in (*MODULES, "skperf.exceptions"):
        module = importlib.import_module(modname)
        for name in module.__all__:
            obj = getattr(module, name)
            # Re-exports (skperf.stats.Interval) are documented once, at the top.
            here = f"{modname}.{name}"
            top = f"skperf.{name}"
            if here not in listed and not (
                getattr(importlib.import_module("skperf"), name, None) is obj
                and top in listed
            ):
                missing.append(here)
    assert not missing, f"add to docs/api.rst: {missing}"
