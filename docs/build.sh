#!/usr/bin/env bash
# Build the HTML documentation; any Sphinx warning fails the build.
#   docs/build.sh            incremental build into docs/_build/html
#   docs/build.sh --clean    remove docs/_build and docs/generated first
# Needs the "docs" extra: pip install -e ".[docs]" (sphinx, numpydoc, matplotlib).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--clean" ]]; then
    rm -rf docs/_build docs/generated
fi
exec sphinx-build -W --keep-going -b html docs docs/_build/html
