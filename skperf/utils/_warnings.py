"""Point skperf's warnings at the user's line.

The frame walker lives in :mod:`skperf.exceptions` (so the pure
``skperf.stats`` layer can use it); it is re-exported here for the upper
layers.
"""

from __future__ import annotations

from ..exceptions import _external_stacklevel

__all__ = ["_external_stacklevel"]
