#!/usr/bin/env bash
# Every test layer, in order (npm test runs setup + build first):
#   0. hygiene: cargo fmt --check, cargo clippy -D warnings (native and wasm32);
#      the shipped .d.ts are type-checked strictly by tests/consumers/typescript.test.mjs
#   1. native Rust tests of the core (cargo test) and the doc examples (cargo test --doc)
#   2. wasm-bindgen tests, in Node and in headless Chromium (scripts/test-wasm.sh)
#   3. JavaScript tests against the built pkg/ (node:test; tests/**/*.test.mjs),
#      including browser, consumer and CLI tests
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "$0")/env.sh"
log() { printf '\n[test] %s\n' "$*" >&2; }

log "hygiene: cargo fmt --check, cargo clippy -D warnings (native and wasm32)"
cargo fmt --check
cargo clippy -q --lib --all-targets -- -D warnings
if RUSTC="$WASM_RUSTC" "$WASM_CARGO" clippy --version >/dev/null 2>&1; then
  RUSTC="$WASM_RUSTC" CARGO_TARGET_DIR=target/wasm "$WASM_CARGO" clippy -q --lib --tests \
    --target wasm32-unknown-unknown -- -D warnings
else
  echo "[test] skipped wasm32 clippy: $WASM_CARGO has no clippy (Debian route)" >&2
fi

log "cargo test (native core), and the Rust API's doc examples (cargo test --doc)"
cargo test -q --lib
cargo test -q --doc

if [ -f scripts/test-wasm.sh ]; then
  log "wasm-bindgen tests (Node, headless Chromium)"
  bash scripts/test-wasm.sh
fi

log "JavaScript tests (node:test)"
mapfile -t files < <(find tests -name '*.test.mjs' -not -path '*/node_modules/*' | sort)
node --test --test-concurrency=1 "${files[@]}"
