#!/usr/bin/env bash
# Installs what `make serve` and `make test` need, only where it is missing:
#   - the rustup target wasm32-unknown-unknown;
#   - wasm-bindgen-cli at exactly the version of the `wasm-bindgen` crate pinned in Cargo.toml;
#   - www/'s npm packages (never a browser download: PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1);
#   - with --browser: Debian's chromium and chromium-driver (apt-get) when /usr/bin/chromium is absent.
# Safe to run repeatedly; prints one line per thing it installs.
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
[ "${1:-}" = "--browser" ] && want_browser=1

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding rustup target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

pinned=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml)
[ -n "$pinned" ] || { echo "setup: no pinned wasm-bindgen version in Cargo.toml" >&2; exit 1; }
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$pinned" ]; then
  echo "setup: installing wasm-bindgen-cli $pinned (found: ${have:-none}; takes a few minutes)"
  # No --locked: the registry mirror here lacks one of the CLI's locked transitive versions.
  cargo install wasm-bindgen-cli --version "$pinned"
fi

if [ ! -d www/node_modules ] || [ www/package-lock.json -nt www/node_modules/.package-lock.json ]; then
  echo "setup: installing www/ npm packages"
  (cd www && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

if [ "$want_browser" = 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  echo "setup: installing Debian chromium and chromium-driver"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver
fi
exit 0
