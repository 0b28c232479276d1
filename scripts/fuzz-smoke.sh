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
# coordinator_race LOG TARGET: whether a failed run is Go's coordinator
# race and nothing else (see below): its only failure is the target's,
# reported with "context deadline exceeded" after at least FUZZTIME, no
# failing input was written, no panic, no hung or crashed worker, and the
# fuzzing ran.
coordinator_race() {
  local log=$1 target=$2 secs
  case $FUZZTIME in *s) ;; *) return 1 ;; esac # a count has no deadline
  grep -q '^fuzz: elapsed: .*execs: ' "$log" || return 1
  [ "$(grep -c -- '--- FAIL' "$log")" -eq 1 ] || return 1
  grep -A1 -- "^--- FAIL: $target (" "$log" | tail -1 | grep -qx '    context deadline exceeded' || return 1
  ! grep -q -e 'Failing input written' -e 'panic:' -e 'hung or terminated' -e 'fuzzing process' "$log" || return 1
  secs=$(sed -n "s/^--- FAIL: $target (\([0-9.]*\)s)\$/\1/p" "$log")
  awk -v got="$secs" -v want="${FUZZTIME%s}" 'BEGIN { exit !(got != "" && got + 0 >= want + 0) }'
}

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
    for attempt in 1 2 3; do
      if (cd "$dir" && "$bin" -test.paniconexit0 -test.timeout=10m0s -test.run='^$' -test.fuzz="^${target}\$" \
          -test.fuzztime="$FUZZTIME" -test.fuzzminimizetime="$FUZZMINIMIZETIME" \
          -test.fuzzcachedir="$fuzzcache/$pkg") >"$log" 2>&1; then
        ok=1; break
      fi
      # Go 1.26's fuzzing coordinator can fail a target as its -fuzztime
      # ends, having found nothing: it cancels the workers' context after
      # reading the parent's deadline, and reports that deadline as the
      # target's failure (go.dev/issue/75804, fixed in Go 1.27). The
      # signature: "context deadline exceeded" and nothing else, no input
      # written to testdata/fuzz, the whole -fuzztime fuzzed. Such a run is
      # retried; a third such run in a row counts as the burst it was. Any
      # real failure (a crash, a panic, a hung worker) writes its input or
      # says so, and fails at once.
      if coordinator_race "$log" "$target"; then
        if [ $attempt -lt 3 ]; then
          echo "fuzz: $target: Go's coordinator reported its own deadline (go.dev/issue/75804), no failing input; retrying"
          continue
        fi
        echo "fuzz: $target: the coordinator's deadline again, after the whole burst with no failing input: counted as run"
        ok=1
      fi
      break
    done
    if [ $ok -ne 1 ]; then cat "$log"; exit 1; fi
    count=$((count+1))
  done
done < <(go list -f '{{.ImportPath}}|{{.Dir}}|{{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' ./...)
echo "fuzz-smoke: $count targets, $FUZZTIME each, no failures"
