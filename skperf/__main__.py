"""``python -m skperf report ...``: the command line, as the ``skperf`` script."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
