# warpstep: the two commands are `make serve` and `make test`. Both install what they need first.
PORT ?= 8080
WASM := target/wasm32-unknown-unknown/release/warpstep.wasm
CARGO_HOME_BIN := $(or $(CARGO_HOME),$(HOME)/.cargo)/bin
export PATH := $(CARGO_HOME_BIN):$(PATH)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
export CHROMEDRIVER := /usr/bin/chromedriver

.PHONY: serve test setup setup-browser wasm lint test-native test-wasm test-e2e bench clean

## serve: set up, build the wasm into pkg/ and serve the app on http://localhost:$(PORT)
serve: setup wasm
	@echo "warpstep: serving on http://localhost:$(PORT)/  (Ctrl-C stops)"
	cd www && PORT=$(PORT) npx vite --port $(PORT) --strictPort --host 127.0.0.1

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
	cargo test --target wasm32-unknown-unknown --test web

test-e2e: setup-browser wasm
	mkdir -p target/e2e
	cd www && npx playwright test

bench:
	cargo bench

clean:
	cargo clean
	rm -rf pkg www/node_modules
