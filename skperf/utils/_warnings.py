"""Point skperf's warnings at the user's line."""

from __future__ import annotations

import os
import sys

__all__ = ["_external_stacklevel"]


def _package_dirs():
    import sklearn

    import skperf

    return tuple(
        os.path.dirname(os.path.abspath(mod.__file__)) + os.sep
        for mod in (skperf, sklearn)
    )


def _external_stacklevel():
    """``stacklevel`` for a ``warnings.warn`` made by the calling function.

    Counts the frames from the caller up to the first one outside skperf and
    scikit-learn (whose ``_fit_context`` wraps ``fit``), so the warning names
    the user's file and line whatever path (``fit``,
    ``repeated_cross_val_score``, ``compare_models`` ...) led to it.
    """
    dirs = _package_dirs()
    frame = sys._getframe(1)  # the function that calls warnings.warn
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        dirs
    ):
        frame = frame.f_back
        level += 1
    return level
