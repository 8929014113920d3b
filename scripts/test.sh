#!/usr/bin/env bash
# Every test layer, in order (npm test runs setup + build first):
#   1. native Rust tests of the core (cargo test)
#   2. wasm-bindgen tests, in Node and in headless Chromium (scripts/test-wasm.sh)
#   3. JavaScript tests against the built pkg/ (node:test; tests/**/*.test.mjs),
#      including browser, consumer and CLI tests
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
log() { printf '\n[test] %s\n' "$*" >&2; }

log "cargo test (native core)"
cargo test -q --lib

if [ -f scripts/test-wasm.sh ]; then
  log "wasm-bindgen tests (Node, headless Chromium)"
  bash scripts/test-wasm.sh
fi

log "JavaScript tests (node:test)"
mapfile -t files < <(find tests -name '*.test.mjs' -not -path '*/node_modules/*' | sort)
node --test --test-concurrency=1 "${files[@]}"
