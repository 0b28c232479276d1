# docscore — build, demo and test. Run `make help` for the targets.
# Everything here works on a fresh machine with Go, Node.js/npm and apt.

GO        ?= go
BIN       := bin/docscore
# VERSION is the version every host writes into a report's provenance
# (SPEC F.8): the binary, the page's wasm (sitebuild reads
# DOCSCORE_VERSION) and the Worker are linked with the same one.
VERSION   ?= dev
PROVENANCE_LDFLAG = -X github.com/docscore/docscore/scoring/provenance.Version=$(VERSION)
export DOCSCORE_VERSION = $(VERSION)
# Each fuzz target's burst in make test (fuzz-smoke): a second here is a
# second for every fuzz target of the module (44 of them).
FUZZTIME  ?= 8s
# Packages that must stay pure (no os, net, syscall/js): they run natively,
# in the browser and in the Worker.
CORE_PKGS := ./scoring/... ./rules/... ./internal/sha256sum

# The static site: written to SITE_OUT for any static host, and copied into
# WEBUI_DIR so that the docscore binary built next embeds it.
SITE_OUT  := dist/site
WEBUI_DIR := cmd/docscore/internal/webui/built
DEMO_ADDR ?= 127.0.0.1:8080

.PHONY: help build site demo sample-text test deps vet test-go test-wasm test-site-js test-e2e test-memory bench-start bench-stream bench-stream-receipts bench-million bench-million-receipts test-page-large test-python python-wheel python-wheels test-npm npm-package screenshots generate imports check-core fuzz-smoke worker wasm-map clean \
	lint-workflows lint-release release-snapshot release

help: ## list the targets
	@grep -E '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

# The binary as released: statically linked (CGO_ENABLED=0, as
# .goreleaser.yaml builds it: no dynamic loader and C library to start,
# 2.7 ms of every start), no symbol table or DWARF (-s -w), no local
# paths (-trimpath); the site embedded gzip-compressed.
build: site ## build bin/docscore, with the site embedded
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w $(PROVENANCE_LDFLAG)' -o $(BIN) ./cmd/docscore

site: ## write the static site to dist/site (for any static host) and embed it, gzip-compressed, in the next build
	$(GO) run ./cmd/docscore/internal/sitebuild/run -out $(SITE_OUT) -embed $(WEBUI_DIR)

demo: build ## score the tabular and page-text samples on the command line, then serve the site (prints the URL)
	$(BIN) score tabular --sample --format md
	$(BIN) score text --gt sample/text/gt --runs sample/text/runs.jsonl --format md
	$(BIN) serve --addr $(DEMO_ADDR)

sample-text: ## rerun Tesseract on the page-text sample's scans with docscore pilot run (sample/text/runs.jsonl)
	$(GO) build -trimpath -o $(BIN) ./cmd/docscore
	BIN=$(BIN) scripts/sample-text.sh

test: deps vet lint-workflows test-go test-wasm test-site-js test-e2e test-python test-npm check-core fuzz-smoke ## everything CI runs
	@echo "make test: all checks passed"

deps: ## install what the tests need, when it is missing (idempotent)
	@scripts/deps.sh

vet: ## go vet, gofmt, and no tracked file over 5 MB (outside testdata/) or binary
	$(GO) vet ./...
	$(GO) run ./scripts/checktracked
	$(GO) vet -tags e2e $(E2E_PKGS) $(NPM_PKG)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

test-go: ## go test, with -race on the pure core
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -race $(CORE_PKGS)
	$(GO) test -count=1 -tags noexpr -run NoExpressions ./scoring/harness

test-wasm: ## the core's tests compiled to WebAssembly and run by Node (and the site core's heap floor)
	PATH="$$($(GO) env GOROOT)/lib/wasm:$$PATH" GOOS=js GOARCH=wasm $(GO) test -count=1 $(CORE_PKGS) ./wasm/site/internal/heapfloor

test-site-js: ## the site's pure JavaScript modules, with Node's test runner
	node --test site/js/

# The end-to-end suites (real Chromium, real workerd) carry the e2e build
# tag and run one package at a time, after the unit tests, so that their
# timing checks do not compete with the rest of the suite for the CPU.
E2E_PKGS := ./cmd/docscore/internal/e2e/ ./wasm/worker/

test-e2e: ## the end-to-end tests: the site in real Chromium, the Worker in workerd
	$(GO) test -count=1 -p 1 -tags e2e $(E2E_PKGS)

# The Python package (python/): a platform wheel carrying the native binary,
# built offline with Debian's python3-build and python3-hatchling.
python-wheel: site ## build the Python wheel for this platform into dist/python
	VERSION=$(VERSION) scripts/python-wheel.sh
python-wheels: site ## build the Python wheels of linux, macOS and Windows on amd64 and arm64 into dist/python
	VERSION=$(VERSION) WHEEL_TARGETS="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64" scripts/python-wheel.sh
test-python: python-wheel build ## install the wheel into a fresh virtual environment and run python/tests
	BIN=$(BIN) scripts/test-python.sh

# The npm package @docscore/core (npm/): its JavaScript and types, the
# WebAssembly of every family and Go's wasm_exec.js, packed by npm pack.
NPM_OUT := dist/npm
NPM_PKG := ./cmd/docscore/internal/npmpkg/

npm-package: ## build the npm package @docscore/core and pack it into dist/npm (prints the sizes)
	$(GO) run ./cmd/docscore/internal/npmpkg/run -out $(NPM_OUT)

test-npm: ## pack @docscore/core, install the tarball into an empty project: Node vs the CLI, tsc, esbuild in Chromium
	$(GO) test -count=1 -tags e2e $(NPM_PKG)

screenshots: ## rewrite the screenshots in docs/ from the browser tests
	$(GO) test -count=1 -tags e2e -run 'TestDroppedSampleFilesEqualTheCLI|TestTablesViewEqualsTheCLI|TestTextViewEqualsTheCLI|TestPreviewDeltasEqualTheCLI|TestDrillDown|TestPageAcrossCells|TestReceiptPageDiff|TestReceiptsEqualTheCLI|TestPipelineGraphEqualsTheCLI|TestCompareTwoCellsEqualsTheCLI|TestNarrowLayout390' ./cmd/docscore/internal/e2e/ -update

# Large runs (not part of make test): the flat-memory test at 200,000
# images, the streamed scoring's benchmarks, and a million images scored
# by the command line with its peak resident memory.
MILLION_DIR ?= /tmp/docscore-million
test-memory: ## the flat-memory tests at 200,000 images, records and text lines against 20,000 (minutes)
	$(GO) test -count=1 -v -timeout 60m -run TestStreamFlatMemory ./scoring/tabular/ -args -memory-images=200000
	$(GO) test -count=1 -v -timeout 60m -run TestStreamFlatMemory ./scoring/receipts/ -args -memory-records=200000
	$(GO) test -count=1 -v -timeout 60m -run TestStreamRunsFlatMemory ./scoring/pagetext/ -args -memory-lines=200000

# Start-up: bin/docscore --version against a hello-world Go binary built
# beside it (both with -trimpath -ldflags="-s -w"), 21 interleaved runs
# each, process spawn included; prints both medians and the ratio
# (target: at most 2×).
bench-start: ## docscore --version's start against a hello-world Go binary's: medians of 21 interleaved runs and the ratio
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w $(PROVENANCE_LDFLAG)' -o $(BIN) ./cmd/docscore
	$(GO) run ./scripts/benchstart $(BIN) --version

# docscore against the Python reference scorer (scripts/reference, written
# from seed 000's description with difflib, as its users run theirs) on
# gencorpus's 450-image corpus (15 model-phase cells x 3 pages x 10 runs,
# 2.7 MB of runs, every fifth image a raw response) with the sample's rule
# file: whole process each, docscore on one core (--jobs 1, --bootstrap 0),
# in turn; checks that both give the same numbers, then prints the medians
# and the ratio (target: at least 100x).
REFERENCE_DIR ?= /tmp/docscore-reference
.PHONY: bench-reference
bench-reference: ## the 450-image corpus scored by the Python reference and by docscore --jobs 1, whole process, in turn: same numbers, the ratio (and the cells-only report's)
	@command -v python3 >/dev/null || { echo "bench-reference needs python3"; exit 1; }
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w $(PROVENANCE_LDFLAG)' -o $(BIN) ./cmd/docscore
	@test -s $(REFERENCE_DIR)/runs.jsonl || $(GO) run ./cmd/docscore/internal/gencorpus -images 450 -pages 3 -out $(REFERENCE_DIR)
	$(GO) run ./scripts/benchreference -docscore $(BIN) -gt $(REFERENCE_DIR)/gt -runs $(REFERENCE_DIR)/runs.jsonl -rules sample/tabular/EQUIVALENCES.md

bench-stream: ## images/s streamed with --jobs 1 and 2, and the 450-image corpus old and new side by side
	$(GO) test -run '^$$' -bench 'BenchmarkStreamJobs|BenchmarkBenchmarkCorpus' -benchtime 3x ./scoring/tabular/
	$(GO) test -run '^$$' -bench 'BenchmarkStreamJobs' -benchtime 3x ./scoring/receipts/

bench-stream-receipts: ## 100,000 receipt records streamed with --jobs 1 and 2, three rounds each (target: jobs=2 at least 1.6x the records/s of jobs=1, quiet machine)
	$(GO) test -run '^$$' -bench 'BenchmarkStream100k' -benchtime 1x -count 3 ./scoring/receipts/

bench-million: ## generate 100,000 and 1,000,000 images (about 0.55 and 5.5 GB in MILLION_DIR), score each as JSON, report peak RSS
	@command -v /usr/bin/time >/dev/null || { echo "bench-million needs /usr/bin/time (apt-get install time)"; exit 1; }
	$(GO) build -trimpath -o $(BIN) ./cmd/docscore
	@for n in 100000 1000000; do \
	  dir=$(MILLION_DIR)/$$n; \
	  test -s $$dir/runs.jsonl || $(GO) run ./cmd/docscore/internal/gencorpus -images $$n -pages 10 -bad-lines 49999,149999 -out $$dir || exit 1; \
	  echo "== $$n images: docscore score tabular --skip-bad-lines (JSON to a pipe: the report's bytes counted, not kept)"; \
	  /usr/bin/time -f "$$n images: peak RSS %M KB, %e s wall, %U s user" $(BIN) score tabular --gt $$dir/gt \
	    --runs $$dir/runs.jsonl --skip-bad-lines 2>$$dir/stderr | wc -c | sed "s/$$/ bytes of JSON/"; \
	  tail -n 1 $$dir/stderr; \
	done

MILLION_RECEIPTS_DIR ?= /tmp/docscore-million-receipts
bench-million-receipts: ## generate 100,000 and 1,000,000 receipt records over 1,000 references, score each as JSON with and without intervals, report peak RSS
	@command -v /usr/bin/time >/dev/null || { echo "bench-million-receipts needs /usr/bin/time (apt-get install time)"; exit 1; }
	$(GO) build -trimpath -o $(BIN) ./cmd/docscore
	@for n in 100000 1000000; do \
	  dir=$(MILLION_RECEIPTS_DIR)/$$n; \
	  test -s $$dir/run.jsonl || $(GO) run ./cmd/docscore/internal/gencorpus -kind receipts -records $$n -samples 1000 -bad-lines 49999,149999 -out $$dir || exit 1; \
	  for boot in 2000 0; do \
	    echo "== $$n records, --bootstrap $$boot: docscore score receipts --skip-bad-lines (JSON to a pipe)"; \
	    /usr/bin/time -f "$$n records, --bootstrap $$boot: peak RSS %M KB, %e s wall, %U s user" $(BIN) score receipts --refs $$dir/refs \
	      --run $$dir/run.jsonl --skip-bad-lines --bootstrap $$boot 2>$$dir/stderr | wc -c | sed "s/$$/ bytes of JSON/"; \
	    grep -m1 warning $$dir/stderr; tail -n 1 $$dir/stderr; \
	  done; \
	done

# The page streams a large runs file (not part of make test): images/s
# with a pool of 1 and of 2 workers beside the command line's, the
# longest main-thread task and the browser's peak memory; then a
# malformed line at image BAD_LINE_IMAGE, reported and skipped.
LARGE_IMAGES   ?= 160000
BAD_LINE_IMAGE ?= 150000
test-page-large: ## the page streams LARGE_IMAGES images (160,000: about 1 GB) in Chromium; a bad line at BAD_LINE_IMAGE
	DOCSCORE_LARGE_IMAGES=$(LARGE_IMAGES) DOCSCORE_BAD_LINE_IMAGE=$(BAD_LINE_IMAGE) $(GO) test -count=1 -v -timeout 180m \
	  -tags 'e2e large' -run 'TestStreamedLargeFile|TestStreamedBadLine|TestBenchmarkCorpusStreamedAndWhole' ./cmd/docscore/internal/e2e/

generate: ## write npm's and Python's functions from the operation registry (TestGeneratedFilesAreCurrent checks them)
	$(GO) run ./cmd/docscore/internal/hostgen/run

imports: ## redraw the package-import chart of docs/architecture.md (TestArchitectureIsCurrent checks it)
	$(GO) run ./scripts/importgraph -w docs/architecture.md

# What a WebAssembly file holds, by package, and what leaving one package
# out would free (not part of make test): WASM_PKG built with the site's
# -gcflags and WASM_TAGS, with its names and the linker's dependency graph.
WASM_PKG  ?= ./wasm/site
WASM_TAGS ?=
WITHOUT   ?= encoding/json.
wasm-map: ## the code of WASM_PKG's wasm by package, and the gzip bytes leaving WITHOUT out would free (scripts/wasmmap.py)
	@mkdir -p dist/wasm-map
	GOOS=js GOARCH=wasm $(GO) build -trimpath -tags '$(WASM_TAGS)' $$($(GO) run ./cmd/docscore/internal/sitebuild/run -gcflags) \
	  -ldflags=-dumpdep -o dist/wasm-map/map.wasm $(WASM_PKG) 2> dist/wasm-map/dumpdep.txt
	python3 scripts/wasmmap.py dist/wasm-map/map.wasm dist/wasm-map/dumpdep.txt $(WITHOUT)

check-core: ## prove scoring/ and rules/ import no os, net or syscall/js
	@scripts/check-core.sh $(CORE_PKGS)

fuzz-smoke: ## run every fuzz target briefly (FUZZTIME=8s each)
	@FUZZTIME=$(FUZZTIME) scripts/fuzz-smoke.sh

# The Cloudflare Worker: the JavaScript glue of github.com/syumai/workers
# (the version go.mod pins) and the Go wasm, into the wrangler project
# under worker/.
WORKER_BUILD := worker/build
# The page's -gcflags (sitebuild.WasmBuildFlags): code off the scoring hot
# path compiled without inlining, 113 KB less gzip for the Worker.
WORKER_GCFLAGS ?= $$($(GO) run ./cmd/docscore/internal/sitebuild/run -gcflags)

worker: ## build the Cloudflare Worker and the site into worker/build (then: cd worker && npx wrangler dev)
	cd worker && $(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o build
	$(GO) run ./cmd/docscore/internal/sitebuild/run -out $(WORKER_BUILD)/site
	GOOS=js GOARCH=wasm $(GO) build -tags noexpr -trimpath $(WORKER_GCFLAGS) -ldflags='-s -w -X main.version=$(VERSION) $(PROVENANCE_LDFLAG)' -o $(WORKER_BUILD)/app.wasm ./wasm/worker

# Releases: GoReleaser (.goreleaser.yaml) and actionlint (.github/workflows),
# pinned here and run with "go run": the Go module proxy is the only
# network they need. GoReleaser v2.15.1 is the newest that builds with the
# Go of go.mod (docs/install.md).
GORELEASER_VERSION := v2.15.1
ACTIONLINT_VERSION := v1.7.12
GORELEASER := $(GO) run github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)
ACTIONLINT := $(GO) run github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
RELEASE_OUT := dist/release

lint-workflows: ## check .github/workflows with actionlint (and shellcheck, when installed)
	$(ACTIONLINT)

# Not part of make test: compiling GoReleaser takes about 6 minutes of CPU
# on a fresh machine (the release workflow runs it on every tag).
lint-release: ## check .goreleaser.yaml with goreleaser check
	$(GORELEASER) check

release-snapshot: ## the release archives and checksums, locally, into dist/release (no tag, no publishing)
	$(GORELEASER) release --snapshot --clean --skip=publish

release: ## (CI, on a version tag) build and publish the GitHub release; needs GITHUB_TOKEN
	$(GORELEASER) release --clean

clean: ## remove build outputs
	rm -rf bin $(WORKER_BUILD) worker/.wrangler $(SITE_OUT) $(NPM_OUT) $(RELEASE_OUT) $(WEBUI_DIR)/index.html $(WEBUI_DIR)/assets
