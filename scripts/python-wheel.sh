#!/usr/bin/env bash
# python-wheel.sh — build the docscore Python wheel for this platform,
# offline, with Debian's python3-build and python3-hatchling: the native
# binary (built here, static, with the site "make site" embedded) goes into the package, the version
# into _version.py, and the wheel into dist/python/.
set -euo pipefail
PY=${PYTHON_APT:-/usr/bin/python3}
VERSION=${VERSION:-dev}
if ! "$PY" -c 'import build, hatchling' 2>/dev/null; then
  echo "python-wheel: $PY lacks the build tools; install them with: apt-get install -y python3-build python3-hatchling python3-venv python3-pytest" >&2
  exit 1
fi
GO=${GO:-go}
# PEP 440: a release tag v1.2.3 gives 1.2.3; anything else a dev version.
case "$VERSION" in
  v[0-9]*.[0-9]*.[0-9]*) pyver=${VERSION#v} ;;
  *) pyver=0.0.0.dev0 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R python/. "$work/"
rm -rf "$work/src/docscore/bin" "$work/dist" "$work/tests/__pycache__"
mkdir -p "$work/src/docscore/bin"
# A static binary (no cgo), stripped, with the site that "make site" put
# into the embed folder: it runs on any Linux of its architecture.
CGO_ENABLED=0 "$GO" build -trimpath -ldflags="-s -w" -o "$work/src/docscore/bin/docscore" ./cmd/docscore
chmod 755 "$work/src/docscore/bin/docscore"
printf '# Written by "make python-wheel".\n__version__ = "%s"\n' "$pyver" > "$work/src/docscore/_version.py"
mkdir -p dist/python
rm -f dist/python/docscore-*.whl
"$PY" -m build --wheel --no-isolation --skip-dependency-check --outdir "$PWD/dist/python" "$work" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
ls -l dist/python/*.whl
