"""Sphinx configuration for skperf.

The build needs no network: intersphinx is off, math is rendered locally
(see ``_ext/plainmath.py``) and examples are shown as source with
``literalinclude`` (no sphinx-gallery). Build with ``docs/build.sh``.
"""

import ast
import os
import sys
from pathlib import Path

import skperf

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))

import skperf_apidoc  # noqa: E402 - lives in docs/_ext, added to the path above

# -- Project -----------------------------------------------------------------

project = "skperf"
author = "skperf developers"
copyright = "skperf developers"
version = skperf.__version__
release = skperf.__version__

# -- General -----------------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "plainmath",
]

templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "Thumbs.db",
    ".DS_Store",
    # Fragments pulled in with ``.. include::``, not pages of their own.
    "coverage_table.rst",
    "coverage_summary.rst",
    "build.sh",
]
root_doc = "index"
nitpicky = False
default_role = "literal"  # `x` in docstrings is code, as in numpydoc's style

# -- autodoc / autosummary / numpydoc ----------------------------------------

autosummary_generate = True  # stubs go to docs/generated/ (gitignored)
autosummary_imported_members = False
autodoc_typehints = "none"  # types are in the numpydoc Parameters sections
autodoc_member_order = "groupwise"
# Class pages document what skperf defines, not what scikit-learn does
# (docs/_ext/skperf_apidoc.py; also wired to autodoc-skip-member in setup).
autosummary_context = {
    "skperf_methods": skperf_apidoc.methods_table(
        [
            "skperf",
            "skperf.model_selection",
            "skperf.metrics",
            "skperf.stats",
            "skperf.exceptions",
        ]
    )
}

# Methods are listed by the autosummary class template (``_templates``), so
# numpydoc must not add its own member tables (they would duplicate and warn).
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_use_plots = False

# -- Math --------------------------------------------------------------------

# ``plainmath`` (docs/_ext) shows LaTeX source in styled boxes, so the pages
# load nothing from a CDN. Set SKPERF_DOCS_MATHJAX=1 to render with MathJax
# from its CDN instead (needs network when the page is *viewed*, not built).
if os.environ.get("SKPERF_DOCS_MATHJAX"):
    extensions.remove("plainmath")
    extensions.append("sphinx.ext.mathjax")
else:
    html_math_renderer = "plainmath"

# -- HTML --------------------------------------------------------------------

html_theme = "alabaster"
html_static_path = ["_static"]
html_css_files = ["skperf.css"]
html_title = f"skperf {release}"
html_theme_options = {
    "description": "Performance distributions for scikit-learn",
    "fixed_sidebar": True,
    "page_width": "1100px",
}
html_show_sourcelink = False

# -- Examples page -----------------------------------------------------------


def _is_rule(line):
    """Whether ``line`` is a reST section adornment (``=====``, ``-----``)."""
    line = line.strip()
    return len(line) >= 3 and len(set(line)) == 1 and line[0] in "=-~^*#+"


def _example_entries(folder):
    """(title, description, path, first code line) for each example script."""
    entries = []
    for path in sorted(folder.rglob("*.py")):
        if any(part.startswith((".", "_")) for part in path.relative_to(folder).parts):
            continue
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        doc = ast.get_docstring(tree) or path.stem.replace("_", " ").capitalize()
        first = 1
        if (
            tree.body
            and isinstance(tree.body[0], ast.Expr)
            and isinstance(getattr(tree.body[0], "value", None), ast.Constant)
        ):
            first = tree.body[0].end_lineno + 1
        lines = doc.strip().splitlines()
        if lines and _is_rule(lines[0]):  # over- and underlined title
            lines = lines[1:]
        # sphinx-gallery style docstrings start with an underlined title.
        if len(lines) > 1 and _is_rule(lines[1]):
            title, body = lines[0].strip(), lines[2:]
        else:
            title, body = lines[0].strip(), lines[1:]
        entries.append((title, "\n".join(body).strip(), path, first))
    return entries


def _write_examples(app):
    """Write docs/generated/examples.inc: one section per script in examples/."""
    out = DOCS / "generated"
    out.mkdir(exist_ok=True)
    chunks = []
    for title, body, path, first in _example_entries(ROOT / "examples"):
        # literalinclude resolves paths against the including page (docs/).
        rel = os.path.relpath(path, DOCS).replace(os.sep, "/")
        chunks.append(f"{title}\n{'-' * max(len(title), 3)}\n")
        chunks.append(f"*Script:* ``examples/{path.relative_to(ROOT / 'examples')}``\n")
        if body:
            chunks.append(body + "\n")
        chunks.append(
            f".. literalinclude:: {rel}\n   :language: python\n   :lines: {first}-\n"
        )
    text = "\n".join(chunks) if chunks else "No examples yet.\n"
    target = out / "examples.inc"
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def setup(app):
    app.connect("builder-inited", _write_examples)
    app.connect("autodoc-skip-member", skperf_apidoc.skip_member)
