#!/usr/bin/env bash
# test-python.sh — install the wheel from dist/python into a fresh virtual
# environment (no package index: --no-index) and run python/tests with
# pytest against the repository's own binary (DOCSCORE_REFERENCE).
set -euo pipefail
PY=${PYTHON_APT:-/usr/bin/python3}
BIN=${BIN:-bin/docscore}
wheel=$(ls dist/python/docscore-*.whl)
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
# pytest comes from Debian's python3-pytest: the environment sees the
# system's packages, but docscore only from the wheel.
"$PY" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --no-index --no-deps "$wheel"
"$venv/bin/python" -c 'import pytest' || { echo "test-python: install python3-pytest (apt-get install -y python3-pytest)" >&2; exit 1; }
# Run from outside the source tree, so that "import docscore" finds the
# installed wheel and not python/src.
cd "$venv"
DOCSCORE_REFERENCE="$OLDPWD/$BIN" "$venv/bin/python" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests"
