#!/usr/bin/env bash
# deps.sh — install what `make test` needs when it is missing. Idempotent:
# a second run installs nothing. Needs root (or sudo) for apt-get; when it
# cannot install, it says exactly what to install and fails.
set -euo pipefail
need_apt=()
command -v tesseract >/dev/null 2>&1 || need_apt+=(tesseract-ocr)
# The browser tests take $CHROMIUM, or chromium, chromium-browser or
# google-chrome on PATH (as cmd/docscore/internal/e2e finds it).
browser=""
if [ -n "${CHROMIUM:-}" ]; then browser=$(command -v "$CHROMIUM" || true); fi
for name in chromium chromium-browser google-chrome; do
  [ -n "$browser" ] && break
  browser=$(command -v "$name" || true)
done
[ -n "$browser" ] || need_apt+=(chromium)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v gzip >/dev/null 2>&1 || need_apt+=(gzip)
# The Python wheel is built and tested offline with Debian's packages
# (the Python package index is not used).
if ! /usr/bin/python3 -c 'import build, hatchling, pytest, venv, ensurepip' >/dev/null 2>&1; then
  need_apt+=(python3-build python3-hatchling python3-pytest python3-venv)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "deps: missing ${need_apt[*]}; install them with: apt-get install -y ${need_apt[*]}" >&2
      exit 1
    fi
  fi
  echo "deps: installing ${need_apt[*]} with apt-get"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null; }; then
    echo "deps: could not install ${need_apt[*]}; install them with: apt-get install -y ${need_apt[*]}" >&2
    exit 1
  fi
fi
# npm packages live in folders of their own, each with a committed lockfile.
for dir in $(git ls-files '*package-lock.json' 2>/dev/null | xargs -r -n1 dirname); do
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "deps: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
echo "deps: ok (tesseract: $(command -v tesseract), chromium: ${browser:-$(command -v chromium)}, node: $(command -v node))"
