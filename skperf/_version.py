"""The version of skperf, in a module of its own.

Modules inside skperf read ``__version__`` from here, never from the package
root (importing ``skperf`` from below would run the whole package's imports
and point the layers upward; ``tests/test_layout.py`` checks it).
"""

__version__ = "0.1.0.dev0"
