#!/usr/bin/env bash
# fuzz-smoke.sh — run every Fuzz target of the module for $FUZZTIME each.
# The committed seed corpus (testdata/fuzz) always runs as part of go test;
# this adds a short burst of new inputs per target.
#
# Each package's fuzzing test binary (instrumented for coverage guidance)
# is built once, with go test -c -fuzz, and run once per target, as go
# test -fuzz runs it: in the package's directory (its testdata/fuzz), with
# the fuzz cache go test uses ($GOCACHE/fuzz/<import path>). The targets
# are read from the test files go list gives for this platform, so that
# no separate build lists them.
set -euo pipefail
FUZZTIME=${FUZZTIME:-8s}
# Go minimizes every input that finds new coverage, for up to 60 s each by
# default: a target whose exec takes milliseconds (the streamed scorings'
# FuzzStream*) would spend the whole burst minimizing. 100 execs a
# minimization keeps the burst for new inputs.
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-100x}
fuzzcache="$(go env GOCACHE)/fuzz"
bindir=$(mktemp -d)
log="$bindir/fuzz.log"
trap 'rm -rf "$bindir"' EXIT
count=0
while IFS='|' read -r pkg dir files; do
  targets=()
  for f in $files; do
    targets+=($(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*\*testing\.F).*/\1/p' "$dir/$f"))
  done
  [ ${#targets[@]} -gt 0 ] || continue
  bin="$bindir/fuzz.test"
  if ! go test -c -fuzz=. -o "$bin" "$pkg" >"$log" 2>&1; then
    cat "$log"; exit 1
  fi
  for target in "${targets[@]}"; do
    echo "fuzz: $pkg $target ($FUZZTIME)"
    ok=0
    for attempt in 1 2; do
      if (cd "$dir" && "$bin" -test.paniconexit0 -test.timeout=10m0s -test.run='^$' -test.fuzz="^${target}\$" \
          -test.fuzztime="$FUZZTIME" -test.fuzzminimizetime="$FUZZMINIMIZETIME" \
          -test.fuzzcachedir="$fuzzcache/$pkg") >"$log" 2>&1; then
        ok=1; break
      fi
      # Go's fuzzing coordinator can time out under CPU load without having
      # found anything (no input written to testdata/fuzz): retry that case
      # once; any real failure writes its input and fails at once.
      if grep -q "context deadline exceeded" "$log" && ! grep -q "Failing input written" "$log"; then
        echo "fuzz: $target: coordinator timeout without a failing input; retrying once"
        continue
      fi
      break
    done
    if [ $ok -ne 1 ]; then cat "$log"; exit 1; fi
    count=$((count+1))
  done
done < <(go list -f '{{.ImportPath}}|{{.Dir}}|{{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' ./...)
echo "fuzz-smoke: $count targets, $FUZZTIME each, no failures"
