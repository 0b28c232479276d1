#!/usr/bin/env bash
# python-wheel.sh — build the docscore Python wheels, offline, with
# Debian's python3-build and python3-hatchling: for each target GOOS/GOARCH
# in WHEEL_TARGETS (default: this machine's), a static binary (no cgo,
# stripped, with the site "make site" put into the embed folder) goes into
# the package, the version into _version.py, and the wheel, tagged for
# that platform, into dist/python/.
set -euo pipefail
PY=${PYTHON_APT:-/usr/bin/python3}
VERSION=${VERSION:-dev}
GO=${GO:-go}
if ! "$PY" -c 'import build, hatchling' 2>/dev/null; then
  echo "python-wheel: $PY lacks the build tools; install them with: apt-get install -y python3-build python3-hatchling python3-venv python3-pytest" >&2
  exit 1
fi
TARGETS=${WHEEL_TARGETS:-$("$GO" env GOOS)/$("$GO" env GOARCH)}
# PEP 440: a release tag v1.2.3 gives 1.2.3; anything else a dev version.
case "$VERSION" in
  v[0-9]*.[0-9]*.[0-9]*) pyver=${VERSION#v} ;;
  *) pyver=0.0.0.dev0 ;;
esac
# tag names a target's wheel platform. Linux binaries are static, so they
# claim the oldest manylinux; Go needs macOS 12 or later.
tag() {
  case "$1" in
    linux/amd64) echo manylinux_2_17_x86_64.manylinux2014_x86_64 ;;
    linux/arm64) echo manylinux_2_17_aarch64.manylinux2014_aarch64 ;;
    darwin/amd64) echo macosx_12_0_x86_64 ;;
    darwin/arm64) echo macosx_12_0_arm64 ;;
    windows/amd64) echo win_amd64 ;;
    windows/arm64) echo win_arm64 ;;
    *) echo "python-wheel: no wheel platform for $1" >&2; return 1 ;;
  esac
}
mkdir -p dist/python
rm -f dist/python/docscore-*.whl
for target in $TARGETS; do
  goos=${target%/*} goarch=${target#*/}
  platform=$(tag "$target")
  exe=docscore
  [ "$goos" = windows ] && exe=docscore.exe
  work=$(mktemp -d)
  cp -R python/. "$work/"
  rm -rf "$work/src/docscore/bin" "$work/dist" "$work/tests/__pycache__"
  # The licence, where hatchling's default license-files find it: the
  # wheel's .dist-info/licenses/LICENSE (python/tests/test_licence.py).
  cp LICENSE "$work/"
  mkdir -p "$work/src/docscore/bin"
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch "$GO" build -trimpath -ldflags="-s -w -X github.com/docscore/docscore/scoring/provenance.Version=$VERSION" -o "$work/src/docscore/bin/$exe" ./cmd/docscore
  chmod 755 "$work/src/docscore/bin/$exe"
  printf '# Written by "make python-wheel".\n__version__ = "%s"\n' "$pyver" > "$work/src/docscore/_version.py"
  DOCSCORE_WHEEL_PLATFORM=$platform DOCSCORE_WHEEL_EXE=$exe \
    "$PY" -m build --wheel --no-isolation --skip-dependency-check --outdir "$PWD/dist/python" "$work" >"$work/build.log" 2>&1 \
    || { cat "$work/build.log" >&2; rm -rf "$work"; exit 1; }
  rm -rf "$work"
done
ls -l dist/python/*.whl
