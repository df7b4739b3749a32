"""Render math without MathJax, so the HTML loads nothing from a CDN.

A minimal HTML math renderer. Common LaTeX macros (Greek letters, relations,
accents such as ``\\hat Q``) become Unicode; in inline math, ``_{...}`` and
``^{...}`` become ``<sub>``/``<sup>``. Display math is shown preformatted
with the same symbol substitutions, and the original LaTeX is kept in the
``title`` attribute. Anything not recognized is shown as written. MathJax
(from its CDN) is used instead with ``SKPERF_DOCS_MATHJAX=1``; see conf.py.
"""

import html
import re

from docutils import nodes

_SYMBOLS = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "Phi": "Φ",
    "Sigma": "Σ",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "approx": "≈",
    "iff": "⇔",
    "mp": "∓",
    "pm": "±",
    "cdot": "·",
    "times": "×",
    "dots": "…",
    "ldots": "…",
    "cdots": "⋯",
    "infty": "∞",
    "leftrightarrow": "↔",
    "to": "→",
    "in": "∈",
    "sum": "Σ",
    "prod": "Π",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "log": "log",
    "exp": "exp",
    "inf": "inf",
    "sup": "sup",
    "min": "min",
    "max": "max",
    "sqrt": "√",
    "mid": "|",
    "{": "{",
    "}": "}",
    "%": "%",
}
_ACCENTS = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304"}
_SPACES = {",": " ", ";": " ", ":": " ", "!": "", "quad": "  ", "qquad": "    "}
_DROP = ("left", "right", "big", "Big", "displaystyle")


def _group(text):
    """Parenthesize a fraction part unless it is a single token."""
    return text if re.fullmatch(r"[A-Za-z0-9.]+", text) else f"({text})"


def _symbols(tex):
    """Unicode for common macros; unknown macros stay as written."""
    s = tex
    s = re.sub(r"\\tfrac12|\\frac12|\\tfrac\{1\}\{2\}|\\frac\{1\}\{2\}", "½", s)
    s = re.sub(r"\\mathbb\{1\}", "𝟙", s)
    # Keep the braces, so ``n_\text{test}`` stays one subscript.
    s = re.sub(r"\\(?:text|mathrm|operatorname|mathit)\{([^{}]*)\}", r"{\1}", s)
    s = re.sub(
        r"\\sqrt\{([^{}]*)\}",
        lambda m: "√" + (m.group(1) if len(m.group(1)) == 1 else f"({m.group(1)})"),
        s,
    )
    s = s.replace("\\ ", " ")
    s = re.sub(r"\\binom\{([^{}]*)\}\{([^{}]*)\}", r"C(\1, \2)", s)
    s = re.sub(
        r"\\t?frac\{([^{}]*)\}\{([^{}]*)\}",
        lambda m: "/".join(_group(g) for g in m.groups()),
        s,
    )
    for name, mark in _ACCENTS.items():
        s = re.sub(
            rf"\\{name}\s*\{{?([A-Za-z])\}}?", lambda m, k=mark: m.group(1) + k, s
        )
    s = re.sub(r"\\widetilde\{([^{}]*)\}", lambda m: m.group(1) + "\u0303", s)
    s = re.sub(r"\\(" + "|".join(_DROP) + r")(?![A-Za-z])\s*", "", s)
    s = re.sub(r"\\([,;:!])", lambda m: _SPACES[m.group(1)], s)
    s = re.sub(r"\\(quad|qquad)(?![A-Za-z])\s*", lambda m: _SPACES[m.group(1)], s)

    def _macro(m):
        return _SYMBOLS.get(m.group(1), m.group(0))

    s = re.sub(r"\\([A-Za-z]+|[{}%])", _macro, s)
    return s


def _inline_html(tex):
    """Escaped HTML with sub/superscripts for inline math."""
    s = html.escape(_symbols(tex), quote=False)
    for _ in range(4):  # innermost braces first; nesting is shallow in practice
        s = re.sub(r"_\{([^{}]*)\}", r"<sub>\1</sub>", s)
        s = re.sub(r"\^\{([^{}]*)\}", r"<sup>\1</sup>", s)
    s = re.sub(r"_([A-Za-z0-9α-ω])", r"<sub>\1</sub>", s)
    s = re.sub(r"\^([A-Za-z0-9α-ω])", r"<sup>\1</sup>", s)
    s = re.sub(r"(?<!\\)[{}]", "", s)  # grouping braces
    return s


def _visit_inline(self, node):
    tex = node.astext()
    self.body.append(
        self.starttag(node, "span", "", CLASS="math notranslate", title=tex)
    )
    self.body.append(_inline_html(tex))
    self.body.append("</span>")
    raise nodes.SkipNode


def _visit_block(self, node):
    tex = node.astext()
    self.body.append(self.starttag(node, "div", CLASS="math notranslate"))
    number = node.get("number")
    if number is not None:
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, "Link to this equation")
        self.body.append("</span>")
    self.body.append(
        f'<pre title="{html.escape(tex)}">' + html.escape(_symbols(tex)) + "</pre>"
    )
    self.body.append("</div>\n")
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer(
        "plainmath",
        inline_renderers=(_visit_inline, None),
        block_renderers=(_visit_block, None),
    )
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
