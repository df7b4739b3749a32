"""`skperf report` command line (STUB)."""


def main(argv=None):
    raise SystemExit("skperf report: not implemented yet")
