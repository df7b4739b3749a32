"""Self-contained HTML for both reports (no network, no external URLs).

One page skeleton for both reports: :func:`_page` (the document, the CSS,
the heading) and its parts (:func:`_heading`, :func:`_paragraph`,
:func:`_table`, :func:`_image`, :func:`_note`, :func:`_notes_section`,
:func:`_settings_section`). The page of
:class:`~skperf.ModelSelectionReport` is :func:`_html_report`; that of
:class:`~skperf.BenchmarkReport` is ``_benchmark._html``.
"""

from __future__ import annotations

import re
from html import escape

from ._format import (
    _conclusion,
    _definitions,
    _methods_line,
    _pairs_rows,
    _requirement_lines,
    _settings_items,
    _summary_table,
)

__all__: list[str] = []

_CSS = """
.skperf-report { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #222; max-width: 1200px; line-height: 1.4; }
.skperf-report h1 { font-size: 1.5em; margin: 0.3em 0; }
.skperf-report h2 { font-size: 1.15em; margin: 1.2em 0 0.4em; border-bottom: 1px solid #ddd; }
.skperf-report h3 { font-size: 1.0em; margin: 1em 0 0.3em; }
.skperf-report .scroll { overflow-x: auto; }
.skperf-report table { border-collapse: collapse; font-size: 0.88em; margin: 0.4em 0; }
.skperf-report th, .skperf-report td { border: 1px solid #ccc; padding: 3px 6px;
  text-align: right; white-space: nowrap; }
.skperf-report table.models { max-width: 100%; }
.skperf-report table.models td:first-child { white-space: normal;
  overflow-wrap: break-word; min-width: 8em; max-width: 16em; }
.skperf-report table.models td.words { white-space: normal; text-align: left;
  min-width: 7em; max-width: 13em; }
.skperf-report .remark { color: #777; font-size: 0.85em; }
.skperf-report th { background: #f2f2f2; white-space: normal; vertical-align: bottom;
  min-width: 3em; }
.skperf-report td:first-child, .skperf-report th:first-child { text-align: left; }
.skperf-report table.names2 td:nth-child(2), .skperf-report table.names2 th:nth-child(2)
  { text-align: left; }
.skperf-report table.text td, .skperf-report table.text th { text-align: left;
  white-space: normal; overflow-wrap: anywhere; }
.skperf-report table.text td { max-width: 90ch; }
.skperf-report .ci { color: #555; font-size: 0.92em; }
.skperf-report tr.best td, .skperf-report td.best { font-weight: 600;
  background: #e8f3e8; }
.skperf-report tr.tied td { background: #f4f9f4; }
.skperf-report .note { color: #555; font-size: 0.88em; max-width: 1000px; }
.skperf-report img { max-width: 100%; }
.skperf-report code { font-size: 0.9em; }
"""


# ----------------------------------------------------------------------
# the page skeleton


def _page(heading, body, *, title=None, full=True):
    """One report page: its heading and ``body`` (HTML lines) in the styled box.

    ``full=False`` gives the box alone (``_repr_html_`` in a notebook: the
    CSS travels inside it); ``title`` is the document's title (default:
    ``heading``).
    """
    content = "\n".join(
        [
            '<div class="skperf-report">',
            f"<style>{_CSS}</style>",
            f"<h1>{escape(heading)}</h1>",
            *body,
            "</div>",
        ]
    )
    if not full:
        return content
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title or heading)}</title>\n</head>\n<body>\n{content}\n"
        "</body>\n</html>\n"
    )


def _heading(text, level=2):
    return f"<h{level}>{escape(text)}</h{level}>"


def _paragraph(text):
    return f"<p>{escape(text)}</p>"


def _note(text):
    """A grey explanatory paragraph under a table or a figure."""
    return f'<p class="note">{escape(text)}</p>'


def _image(png_base64, alt):
    """A PNG embedded in the page (base64; no external file)."""
    return f'<img alt="{escape(alt)}" src="data:image/png;base64,{png_base64}">'


def _bullets(items):
    """A bulleted list, one escaped item per line."""
    return ["<ul>", *(f"<li>{escape(str(x))}</li>" for x in items), "</ul>"]


def _notes_section(notes):
    """The Notes section (nothing without notes)."""
    return [_heading("Notes"), *_bullets(notes)] if notes else []


def _settings_section(items, heading="Settings (to reproduce)"):
    """The settings as a two-column table (nothing without settings)."""
    items = [(k, v) for k, v in items]
    if not items:
        return []
    return [_heading(heading), _table(["setting", "value"], items, kind="text")]


class _Raw(str):
    """Cell text that is already HTML (e.g. a link)."""


_INTERVAL = re.compile(r"^(\S+) (\[[^\]]*\])( \(.*\))?$")


def _cell(value):
    """Escaped cell text; an interval ``est [low, high]`` gets two lines.

    A remark after the interval (``(approx.)``, ``(zero width: ...)``) goes
    on a third line, so that it does not widen the column.
    """
    if isinstance(value, _Raw):
        return str(value)
    text = escape(str(value))
    m = _INTERVAL.match(text)
    if m:
        est, ci, remark = m.group(1), m.group(2), m.group(3) or ""
        if remark:
            remark = f'<br><span class="remark">{remark.strip()}</span>'
        return f'{est}<br><span class="ci">{ci}</span>{remark}'
    return text


#: ``<sklearn.x.Name object at 0x7f...>``, ``<function f at 0x...>``, ``... at 0x7F..``
_ADDRESS = re.compile(
    r"<(?:(?:[\w.]+\.)?(\w+) object|function ([\w.<>]+)|bound method ([\w.<>]+) of .*?)"
    r" at 0x[0-9a-fA-F]+>"
)
_BARE_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _readable_repr(text):
    """An estimator's repr without memory addresses.

    ``repr(est)`` of scikit-learn estimators is readable, but a parameter
    without a repr of its own (a user class, a function, a random state)
    shows as ``<module.Name object at 0x7f...>``; those become ``Name()``,
    ``f`` and ``RandomState(MT19937)``: the address differs on every run
    and says nothing about the model.
    """

    def short(m):
        if m.group(1):
            return f"{m.group(1)}()"
        return m.group(2) or m.group(3)

    return _BARE_ADDRESS.sub("", _ADDRESS.sub(short, str(text)))


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[_.])")


def _name_cell(value):
    """A model name that may break between words (``Random<wbr>Forest``)."""
    return "<wbr>".join(escape(part) for part in _CAMEL.split(str(value)))


def _words_columns(header):
    """Indices of the Models table's columns that hold words, not numbers."""
    return {
        i
        for i, h in enumerate(header)
        if str(h).startswith(("vs best", "decision", "requirement"))
    }


def _table(header, rows, row_classes=None, kind="", words=(), cell_classes=None):
    """An HTML table in a horizontally scrolling box.

    ``kind``: ``""`` (numbers, right-aligned after the first column),
    ``"names2"`` (the first two columns are names), ``"text"`` (all
    left-aligned, wrapping) or ``"models"`` (the Models table: long names
    and the columns in ``words`` wrap, so that it fits a 1400 px page).
    ``row_classes``: one class per row (``"best"``, ``"tied"``);
    ``cell_classes``: one list of classes per row, one per cell. A cell
    that is a :class:`_Raw` string is HTML already.
    """
    out = ['<div class="scroll">', f'<table class="{kind}">' if kind else "<table>"]
    out.append("<thead><tr>")
    # "mean [95% CI]": the interval goes on its own line, as in the cells
    out += [f"<th>{escape(str(h)).replace(' [', '<br>[')}</th>" for h in header]
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cls = row_classes[i] if row_classes else ""
        out.append(f'<tr class="{cls}">' if cls else "<tr>")
        for j, c in enumerate(row):
            text = _name_cell(c) if kind == "models" and j == 0 else _cell(c)
            classes = " ".join(
                x
                for x in (
                    "words" if j in words else "",
                    cell_classes[i][j] if cell_classes else "",
                )
                if x
            )
            out.append(
                f'<td class="{classes}">{text}</td>' if classes else f"<td>{text}</td>"
            )
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _pairs_table(report):
    return _table(*_pairs_rows(report), kind="names2")


def _plot_section(report, quantiles, plots):
    if not plots:
        return ""
    try:
        from ._plot import _plot_png_base64

        data = _plot_png_base64(report, quantiles)
    except ImportError:
        return (
            '<p class="note">Plots are not included: matplotlib is not installed '
            "(<code>pip install matplotlib</code>).</p>"
        )
    return _image(
        data,
        "Per-model scores with the new-data intervals, and the matrix of mean "
        "differences on new data"
        if report.target == "new data"
        else "Per-model score distributions with quantile intervals, and the "
        "P(A > B) matrix",
    )


def _curves_section(report):
    """The ROC and precision-recall bands of every model, with their definition."""
    from ._format import _curves_text

    note = _note(_curves_text(report))
    try:
        from ._plot import _curves_png_base64

        data = _curves_png_base64(report)
    except ImportError:
        return note
    return (
        _image(
            data,
            "ROC and precision-recall curves across repeats, one pointwise band "
            "per model",
        )
        + note
    )


def _decisions_first(header, rows):
    """The Models table with the decision columns right after the model.

    With many quantile columns the table can be wider than the page; the
    decision (tied with best, vs best, P(best > model), p-values) then
    stays in view, the score columns scroll.
    """
    first = ("tied with best", "vs best", "P(best", "p adj")

    def rank(h):
        h = str(h)
        if h == "p":
            return 2.5  # the raw p-value, before the adjusted one
        return next((k for k, f in enumerate(first) if h.startswith(f)), None)

    decision = sorted(
        (i for i in range(1, len(header)) if rank(header[i]) is not None),
        key=lambda i: rank(header[i]),
    )
    order = [0, *decision, *(i for i in range(1, len(header)) if i not in decision)]
    return [header[i] for i in order], [[row[i] for i in order] for row in rows]


def _html_report(report, quantiles, *, full=True, plots=True):
    """The page of a :class:`~skperf.ModelSelectionReport`."""
    header, rows = _decisions_first(*_summary_table(report, quantiles))
    classes = [
        "best"
        if r[0] == report.best
        else "tied"
        if r[0] in report.tied_with_best
        else ""
        for r in rows
    ]
    title = "Model comparison" + (f": {report.metric}" if report.metric else "")
    body = [
        _paragraph(_conclusion(report)),
        _heading("Models"),
        _table(header, rows, classes, kind="models", words=_words_columns(header)),
        _note(f"Interval methods: {_methods_line(report, quantiles)}."),
        _note(_definitions(report)),
    ]
    req = _requirement_lines(report)
    if req:
        body += [_heading("Requirement"), _paragraph(req[0]), *_bullets(req[1:])]
    if plots:
        body += [_heading("Plots"), _plot_section(report, quantiles, plots)]
        if report.curves:
            body.append(_curves_section(report))
    if report.n_models > 1:
        body += [_heading("All pairwise comparisons"), _pairs_table(report)]
    body += _settings_section(_settings_items(report))
    models = report.settings.get("models")
    if models:
        body += [
            _heading("Models evaluated"),
            _table(
                ["name", "estimator"],
                [(n, _readable_repr(e)) for n, e in models.items()],
                kind="text",
            ),
        ]
    body += _notes_section(report.notes)
    return _page(title, body, full=full)
