# docscore — build, demo and test. Run `make help` for the targets.
# Everything here works on a fresh machine with Go, Node.js/npm and apt.

GO        ?= go
BIN       := bin/docscore
FUZZTIME  ?= 10s
# Packages that must stay pure (no os, net, syscall/js): they run natively,
# in the browser and in the Worker.
CORE_PKGS := ./scoring/... ./rules/...

.PHONY: help build demo test deps vet test-go check-core fuzz-smoke worker clean

help: ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

build: ## build bin/docscore
	$(GO) build -trimpath -o $(BIN) ./cmd/docscore

demo: build ## score the bundled sample and print the cells table
	$(BIN) score tabular --sample --format md

test: deps vet test-go check-core fuzz-smoke ## everything CI runs
	@echo "make test: all checks passed"

deps: ## install what the tests need, when it is missing (idempotent)
	@scripts/deps.sh

vet: ## go vet and gofmt
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

test-go: ## go test, with -race on the pure core
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -race $(CORE_PKGS)
	$(GO) test -count=1 -tags noexpr -run NoExpressions ./scoring/harness

check-core: ## prove scoring/ and rules/ import no os, net or syscall/js
	@scripts/check-core.sh $(CORE_PKGS)

fuzz-smoke: ## run every fuzz target briefly (FUZZTIME=10s each)
	@FUZZTIME=$(FUZZTIME) scripts/fuzz-smoke.sh

# The Cloudflare Worker: the JavaScript glue of github.com/syumai/workers
# (the version go.mod pins) and the Go wasm, into the wrangler project
# under worker/.
WORKER_BUILD := worker/build
VERSION      ?= dev

worker: ## build the Cloudflare Worker into worker/build (then: cd worker && npx wrangler dev)
	cd worker && $(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o build
	GOOS=js GOARCH=wasm $(GO) build -tags noexpr -trimpath -ldflags='-s -w -X main.version=$(VERSION)' -o $(WORKER_BUILD)/app.wasm ./wasm/worker

clean: ## remove build outputs
	rm -rf bin $(WORKER_BUILD) worker/.wrangler
