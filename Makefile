# warpstep: the two commands are `make serve` and `make test`. Both install what they need first.
PORT ?= 8080
# cargo writes to $CARGO_TARGET_DIR when it is set
WASM := $(or $(CARGO_TARGET_DIR),target)/wasm32-unknown-unknown/release/warpstep.wasm
CARGO_HOME_BIN := $(or $(CARGO_HOME),$(HOME)/.cargo)/bin
export PATH := $(CARGO_HOME_BIN):$(PATH)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
export CHROMEDRIVER := /usr/bin/chromedriver

.PHONY: serve test dist setup setup-browser wasm lint test-native test-wasm test-e2e bench clean

## serve: set up, build the wasm into pkg/ and serve the app on http://localhost:$(PORT)
serve: setup wasm
	@echo "warpstep: serving on http://localhost:$(PORT)/  (Ctrl-C stops)"
	cd www && PORT=$(PORT) npx vite --port $(PORT) --strictPort --host 127.0.0.1

## dist: set up, build the wasm, then the static app into dist/: no server-side code and relative
## paths, so it works from any static host, under any sub-path, and offline (python3 -m http.server)
dist: setup wasm
	cd www && npx vite build

## test: set up (incl. Debian chromium), then lint, native tests, wasm tests in Chromium, browser e2e
test: setup-browser lint test-native test-wasm test-e2e
	@echo "warpstep: all tests passed"

setup:
	@scripts/setup.sh

setup-browser:
	@scripts/setup.sh --browser

wasm: setup
	cargo build --lib --release --target wasm32-unknown-unknown
	wasm-bindgen --target web --no-typescript --out-dir pkg $(WASM)

lint: setup
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --lib --tests -- -D warnings

test-native:
	cargo test

test-wasm: setup-browser
	WASM_BINDGEN_TEST_TIMEOUT=120 cargo test --target wasm32-unknown-unknown --test web

## test-e2e: every spec against the dev server, and e2e/dist.spec.js once against dist/ under a sub-path
test-e2e: setup-browser wasm dist
	mkdir -p target/e2e
	cd www && npx playwright test

bench:
	cargo bench

clean:
	cargo clean
	rm -rf pkg dist www/node_modules
