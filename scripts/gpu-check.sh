#!/usr/bin/env bash
# gpu-check.sh — the pilot runner's check on a machine with an NVIDIA GPU
# (issue 4): the GPU procedure's memory check against the real nvidia-smi,
# and the runner benchmark on all the machine's cores.
#
#   scripts/gpu-check.sh build       # here, with Go: linux/amd64 binaries in dist/gpu-check/
#   scripts/gpu-check.sh run [DIR]   # there: needs only nvidia-smi, /bin/sh and DIR
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
build)
  mkdir -p dist/gpu-check
  GOOS=linux GOARCH=amd64 CGO_ENABLED=0 go build -trimpath -o dist/gpu-check/docscore ./cmd/docscore
  GOOS=linux GOARCH=amd64 CGO_ENABLED=0 go test -c -o dist/gpu-check/pilot.test ./cmd/docscore/internal/pilot
  echo "gpu-check: built dist/gpu-check/docscore and dist/gpu-check/pilot.test"
  ;;
run)
  dir=$(cd "${2:-dist/gpu-check}" && pwd)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  echo "== nvidia-smi"
  nvidia-smi --query-gpu=index,name,memory.total,memory.used,memory.free --format=csv
  free=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits | head -n1 | tr -d ' ')
  echo "== GPU 0 reports ${free} MiB free"
  mkdir "$work/ds"
  printf '\x89PNG\r\n\x1a\nprobe' > "$work/ds/probe.png"
  echo "== memory check that must pass (--gpu-min-free-mib $((free / 2)))"
  "$dir/docscore" pilot run --dataset "$work/ds" --command 'wc -c < {image}' --concurrency 1 \
    --gpu-min-free-mib $((free / 2)) --out "$work/pass.jsonl" --quiet
  echo "== memory check that must refuse (--gpu-min-free-mib $((free + 1)))"
  set +e
  "$dir/docscore" pilot run --dataset "$work/ds" --command 'wc -c < {image}' --concurrency 1 \
    --gpu-min-free-mib $((free + 1)) --out "$work/refuse.jsonl" --quiet
  code=$?
  set -e
  if [ "$code" -ne 1 ] || [ -e "$work/refuse.jsonl" ]; then
    echo "gpu-check: FAIL: the refusal exited $code (want 1) or wrote a run file" >&2
    exit 1
  fi
  echo "== runner benchmark, $(nproc) cores"
  (cd "$work" && "$dir/pilot.test" -test.run '^$' -test.bench RunnerOverhead -test.benchtime 50000x \
    -test.count 3 -test.cpu "$(nproc)")
  echo "gpu-check: ok"
  ;;
*)
  echo "usage: scripts/gpu-check.sh build | run [DIR]" >&2
  exit 2
  ;;
esac
