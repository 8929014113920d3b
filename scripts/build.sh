#!/usr/bin/env bash
# Builds the publishable package in pkg/:
#   cargo (wasm32, release) -> wasm-bindgen (web glue) -> wasm-opt (npm binaryen)
#   -> check js/engine/boundary.ts against src/boundary.rs -> tsc (js/**/*.ts -> build/js,
#   with .d.ts) -> scripts/assemble.mjs (pkg/, with the JavaScript build of the same wasm:
#   scripts/js-build.mjs, binaryen's wasm2js).
# Run scripts/setup.sh first (npm start / npm test / npm run build do).
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "$0")/env.sh"
log() { printf '[build] %s\n' "$*" >&2; }

log "cargo build --target wasm32-unknown-unknown ($WASM_RUSTC)"
RUSTC="$WASM_RUSTC" CARGO_TARGET_DIR=target/wasm "$WASM_CARGO" build -q --release --lib --target wasm32-unknown-unknown \
  --features no-heap,host-draw

log "wasm-bindgen --target web"
rm -rf build/bindgen && mkdir -p build/bindgen
wasm-bindgen --target web --omit-default-module-path --out-dir build/bindgen --out-name backoff_wasm \
  target/wasm/wasm32-unknown-unknown/release/backoff_wasm.wasm

log "wasm-opt -Oz"
# The shipped wasm keeps no custom sections: no names/debug info, no producers, no
# target_features (only tools read them; engines ignore custom sections). --converge repeats
# -Oz while it still shrinks the module.
node_modules/.bin/wasm-opt -Oz --converge --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-multivalue --strip-debug --strip-producers --strip-target-features \
  build/bindgen/backoff_wasm_bg.wasm -o build/bindgen/backoff_wasm_bg.wasm

log "js/engine/boundary.ts is what src/boundary.rs generates (checked, not rewritten)"
# The committed file is the one tsc compiles and the one reviewed: a build never
# rewrites it, so a stale file fails here (and in `cargo test`) instead of being
# replaced silently.
if ! cargo test -q --lib boundary::tests::generated_file_is_current >build/boundary-check.log 2>&1; then
  cat build/boundary-check.log >&2
  echo "[build] FAIL: js/engine/boundary.ts differs from src/boundary.rs; regenerate it with" >&2
  echo "[build]   BOUNDARY_WRITE=1 cargo test -q --lib boundary::" >&2
  exit 1
fi

log "tsc"
rm -rf build/js
node_modules/.bin/tsc -p js/tsconfig.json

log "assemble pkg/ (and the JavaScript build: wasm2js)"
node scripts/assemble.mjs
