"""The notes of the reports as data: a stable code, the text, where it applies.

A :class:`Note` is the text itself (a ``str``: printing, ``in`` and
``startswith`` work as on any str, and the markdown and HTML pages show the
text) that also carries ``code``, a short snake-case name that stays the
same when the wording changes, and ``where``, the models or pairs it is
about. Code that decides on a note reads its ``code``, never its words.
"""

from __future__ import annotations

import re

__all__ = ["Note", "Notes", "warning_code"]

_NUMBER = re.compile(r"(\d+(?:\.\d+)?)")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


class Note(str):
    """One note of a report: its text (the str itself) with a stable code.

    Parameters
    ----------
    text : str
        The note as shown in the report.
    code : str
        Stable machine code (e.g. ``"incomplete"``, ``"small_sample"``).
    where : str or tuple of str, default=()
        The models (``"lr"``) or pairs (``"lr vs tree"``) the note is about,
        in the order the text names them; empty when about the whole report.

    Examples
    --------
    >>> from skperf.report._notes import Note
    >>> n = Note("lr: incomplete: 3 of 30 splits ...", code="incomplete", where="lr")
    >>> n.code, n.where, n.startswith("lr:")
    ('incomplete', ('lr',), True)
    """

    def __new__(cls, text, code, where=()):
        self = super().__new__(cls, text)
        self.code = str(code)
        self.where = (where,) if isinstance(where, str) else tuple(where)
        return self

    def __reduce__(self):
        return (type(self), (str(self), self.code, self.where))


def warning_code(category):
    """The note code of a warning category: ``SmallSampleWarning`` ->
    ``"small_sample"``, ``FitFailedWarning`` -> ``"fit_failed"``; the
    built-in categories keep their suffix (``RuntimeWarning`` ->
    ``"runtime_warning"``).

    Examples
    --------
    >>> from skperf.exceptions import SmallSampleWarning
    >>> warning_code(SmallSampleWarning), warning_code(RuntimeWarning)
    ('small_sample', 'runtime_warning')
    """
    name = category.__name__
    if (
        category.__module__ != "builtins"
        and name.endswith("Warning")
        and name != "Warning"
    ):
        name = name[: -len("Warning")]
    return _CAMEL.sub("_", name).lower()


class Notes(list):
    """The notes of a report: a list of :class:`Note` where one message is
    said once, with :meth:`codes` and :meth:`by_code` to read them by code.

    :meth:`add` groups: the same message (same code, same words up to its
    numbers) for several models is one note naming them all (``"a, b:
    SmallSampleWarning: ..."``); when the messages differ only in their
    numbers (``"3 repeated value(s)"``, ``"1 repeated value(s)"``) the
    numbers that differ are listed per model (``"3/1"``) in the order named.
    """

    def __init__(self, *args):
        super().__init__(*args)
        self._groups = {}

    def add(self, where, body, *, code):
        """Append ``"where: body"``; a message already noted gains ``where``."""
        key = (code, _NUMBER.sub("#", body))
        if key not in self._groups:
            self._groups[key] = (len(self), [(where, body)])
            self.append(Note(f"{where}: {body}", code, where))
            return
        index, entries = self._groups[key]
        if any(w == where for w, _ in entries):
            return
        entries.append((where, body))
        if index < len(self):
            self[index] = Note(
                _merged_note(entries), code, tuple(w for w, _ in entries)
            )

    def codes(self):
        """The code of every note, in order (``None`` for a plain str).

        Returns
        -------
        list of str
        """
        return [getattr(n, "code", None) for n in self]

    def by_code(self, code):
        """The notes whose code is ``code``, in order.

        Parameters
        ----------
        code : str
            A note code, e.g. ``"small_sample"`` or ``"borderline_pair"``.

        Returns
        -------
        list of Note
        """
        return [n for n in self if getattr(n, "code", None) == code]


def _merged_note(entries):
    names = ", ".join(w for w, _ in entries)
    parts = [_NUMBER.split(b) for _, b in entries]
    merged, differ = [], False
    for i, piece in enumerate(parts[0]):
        values = [p[i] for p in parts]
        if i % 2 and len(set(values)) > 1:
            merged.append("/".join(values))
            differ = True
        else:
            merged.append(piece)
    text = f"{names}: {''.join(merged)}"
    if differ:
        text += " (x/y: one value per model, in the order named)"
    return text
