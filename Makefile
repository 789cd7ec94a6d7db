# Warren — build, run and test. The README's two commands:
#   ./scripts/bootstrap.sh && make run     set up a fresh machine, open the window
#   ./scripts/bootstrap.sh && make test    everything CI checks
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO        ?= go
NPM       ?= npm
GOBIN     := $(shell $(GO) env GOBIN)
ifeq ($(GOBIN),)
GOBIN     := $(shell $(GO) env GOPATH)/bin
endif
GOLANGCI_LINT ?= $(if $(wildcard $(GOBIN)/golangci-lint),$(GOBIN)/golangci-lint,golangci-lint)

BIN       := build/bin/warren
DEV_BIN   := build/bin/warren-dev
PROD_TAGS := desktop,production,webkit2_41
DEV_TAGS  := dev,webkit2_41
# Go files we format-check: everything but the frontend's node_modules.
GO_FILES   = $(shell git ls-files --cached --others --exclude-standard '*.go' 2>/dev/null || find . -name '*.go' -not -path './frontend/*')

.PHONY: setup frontend-deps frontend build runner run test fmt-check vet lint cross go-test frontend-test frontend-check \
        e2e bench screenshot bindings icon clean help

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

setup: ## install system packages, npm packages and golangci-lint, then build the frontend
	./scripts/bootstrap.sh
	$(MAKE) frontend

# npm install only when package.json or the lock file changed since the last install.
frontend/node_modules/.package-lock.json: frontend/package.json frontend/package-lock.json
	cd frontend && $(NPM) install --no-audit --no-fund
	@touch $@

frontend-deps: frontend/node_modules/.package-lock.json

frontend: frontend-deps ## build the UI into frontend/dist (embedded by the Go binary)
	cd frontend && $(NPM) run build --silent

build: frontend runner ## build the desktop app: build/bin/warren (+ build/bin/warren-runner)
	$(GO) build -tags $(PROD_TAGS) -ldflags "-w -s" -o $(BIN) .
	@echo "built $(BIN)"

# The sandbox's PID-1 helper: static, so it runs in any image. Warren looks
# for it next to its own binary.
runner: ## build build/bin/warren-runner (static)
	CGO_ENABLED=0 $(GO) build -ldflags "-w -s" -o build/bin/warren-runner ./sandbox/cmd/warren-runner

run: build ## build, then open the window (needs a display)
	@if [[ -z "$${DISPLAY:-}" && -z "$${WAYLAND_DISPLAY:-}" ]]; then \
	  echo "make run: no display (\$$DISPLAY and \$$WAYLAND_DISPLAY are empty), so the window cannot open." >&2; \
	  echo "  Run it under a virtual display:   xvfb-run -a $(BIN)" >&2; \
	  echo "  (see it with: make screenshot, which saves docs/screenshots/window.png)" >&2; \
	  echo "  The CLI works without a display:  $(BIN) tools    ($(BIN) --help for more)" >&2; \
	  exit 1; \
	fi
	./$(BIN)

test: fmt-check vet lint cross go-test frontend-test e2e ## everything CI checks
	@echo "make test: all checks passed"

fmt-check: ## gofmt: list unformatted Go files and fail if any
	@out=$$(gofmt -l $(GO_FILES)); if [[ -n "$$out" ]]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	@echo "gofmt: ok"

vet: frontend ## go vet (the main package embeds frontend/dist, so the UI is built first)
	$(GO) vet ./...

lint: frontend frontend-check ## golangci-lint (config: .golangci.yml) and svelte-check
	@command -v $(GOLANGCI_LINT) >/dev/null || { echo "golangci-lint not found: run ./scripts/bootstrap.sh" >&2; exit 1; }
	$(GOLANGCI_LINT) run ./...

# The other desktops stay buildable: the Windows app builds without cgo; for
# macOS (the Wails main package needs cgo there) every other package builds.
cross: frontend ## cross-build: the Windows binary and every non-cgo package for darwin/arm64
	GOOS=windows GOARCH=amd64 $(GO) build -tags desktop,production -o /dev/null .
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build $$($(GO) list ./... | grep -vx 'github.com/warren-dev/warren')
	@echo "cross: windows/amd64 and darwin/arm64 build"

go-test: frontend ## go test -race ./... (fuzz seed corpora run as ordinary tests; the default 10 min per package is too short for backend/warren on 2 busy cores)
	$(GO) test -race -timeout 30m ./...

frontend-check: frontend-deps ## svelte-check: type-check the UI
	cd frontend && $(NPM) run check --silent

frontend-test: frontend-deps ## vitest unit tests of the UI (jsdom)
	cd frontend && $(NPM) test --silent

e2e: frontend runner ## end-to-end: dev build under Xvfb, driven by headless Chromium
	./scripts/e2e.sh

bench: frontend ## run the Go benchmarks and write docs/benchmarks.md
	./scripts/bench.sh

screenshot: build ## refresh docs/screenshots: the e2e shots, then the real window (window.png, schedules-form.png)
	E2E_DOCS=1 ./scripts/e2e.sh
	./scripts/screenshot.sh
	FIRST_RUN=1 ./scripts/screenshot.sh docs/screenshots/first-run.png
	ACTIONS=$$'key alt+7\nkey Tab Tab Return\ntype Morning digest\nkey Tab Tab\ntype 0 9 * * 1-5\nkey Tab Tab Tab Tab Tab Tab\ntype Summarise what changed in my notes since yesterday.' \
	  ./scripts/screenshot.sh docs/screenshots/schedules-form.png

bindings: frontend-deps ## regenerate frontend/wailsjs from the bound Go methods
	@test -f frontend/dist/index.html || $(MAKE) frontend
	@# main.go opens its data dir before wails.Run; give the bindings build a
	@# throwaway one (the display check is compiled out under the bindings tag).
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	  WARREN_HOME=$$tmp $(GO) run github.com/wailsapp/wails/v2/cmd/wails@v2.16.0 generate module

icon: ## redraw build/appicon.png and the icons derived from it
	./scripts/make-icon.sh

clean: ## remove build output (keeps node_modules)
	rm -rf build/bin build/e2e
	find frontend/dist -mindepth 1 ! -name .gitkeep -exec rm -rf {} +
