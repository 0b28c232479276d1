#!/usr/bin/env bash
# check-core.sh PKG... — fail when a core package imports something that
# would tie it to one host: the file system, the network, processes or the
# JavaScript bridge. The core must build and behave the same natively, in
# the browser and in the Worker.
set -euo pipefail
forbidden='^(os|os/.*|net|net/.*|syscall|syscall/js|io/ioutil|plugin|unsafe|runtime/cgo|C)$'
bad=0
# go list must succeed (a pattern matching nothing is an error, not a pass).
listing=$(go list -f '{{.ImportPath}} {{join .Imports " "}}' "$@")
while read -r pkg imports; do
  for imp in $imports; do
    if [[ $imp =~ $forbidden ]]; then
      echo "check-core: $pkg imports $imp (the core must stay pure)"
      bad=1
    fi
  done
done <<< "$listing"
if [ $bad -ne 0 ]; then exit 1; fi
echo "check-core: $(go list "$@" | wc -l) core packages import no os, net, syscall or syscall/js"
