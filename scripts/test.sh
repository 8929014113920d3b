#!/usr/bin/env bash
# Every test layer, in order (npm test runs setup + build first):
#   0. hygiene: cargo fmt --check, cargo clippy -D warnings (native and wasm32);
#      the shipped .d.ts are type-checked strictly by tests/consumers/typescript.test.mjs
#   1. native Rust tests of the core (cargo test), the doc examples (cargo test --doc), the
#      crate's docs with warnings denied (cargo doc), the crate as published (cargo package,
#      which builds the packaged sources) and, in a release build, the power's
#      3-million-pair oracle sweep; tests/crate/ checks a native dependent
#      (examples/native-service: its cargo tree, its numbers against the npm package) and
#      runs wasm-pack on the crate (wasm-pack build --target web, wasm-pack test --node)
#   2. wasm-bindgen tests (tests/wasm/common.rs), each environment once, inside layer 3:
#      headless Chromium, Firefox and WebKit by tests/wasm/browser.test.mjs (scripts/test-wasm.sh browser),
#      Node by tests/crate/wasm-pack.test.mjs (wasm-pack test --node);
#   3. JavaScript tests against the built pkg/ (node:test; tests/**/*.test.mjs),
#      including browser, consumer and CLI tests, on the Node that runs npm;
#   4. the Node-side JavaScript tests again on Node 22, 24 and 26
#      (scripts/node-matrix.mjs: which files, where the binaries are).
# With CI=true a part that is missing (wasm32 clippy, a Node of the matrix, Chromium,
# workerd) fails the run; elsewhere it is reported and left out.
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
elif [ "${CI:-}" = true ]; then
  echo "[test] FAIL: CI=true and $WASM_CARGO has no clippy for wasm32 (Debian route): use rustup's toolchain" >&2
  exit 1
else
  echo "[test] left out wasm32 clippy: $WASM_CARGO has no clippy (Debian route; CI=true fails here)" >&2
fi

log "cargo test (native core), and the Rust API's doc examples (cargo test --doc)"
cargo test -q --lib
cargo test -q --doc
log "the crate: cargo doc (warnings denied), cargo package (builds the packaged crate)"
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps --lib
# --allow-dirty: the check is that the packaged files build, also in a worktree with edits.
cargo package -q --allow-dirty
log "the power's oracle sweep: 3 million pairs, release build (src/core/pow/tests.rs sweep)"
cargo test -q --release --lib pow::tests::sweep

# Consumer projects (tests/.scratch/<name>, reused across runs) that no test of this
# run used are removed at the end (tests/consumers/scratch.mjs marks each with .used).
mkdir -p tests/.scratch && touch tests/.scratch/.run-start

log "JavaScript tests (node:test)"
# Not tests/.scratch: the consumer projects hold their own suites (Jest's test/esm.test.mjs).
mapfile -t files < <(find tests -name '*.test.mjs' -not -path '*/node_modules/*' -not -path 'tests/.scratch/*' | sort)
node --test --test-concurrency=1 "${files[@]}"

mapfile -t matrix < <(node scripts/node-matrix.mjs --files)
for major in $(node scripts/node-matrix.mjs --majors); do
  bin=$(node -e 'import("./scripts/node-matrix.mjs").then((m) => console.log(m.nodeBinary(+process.argv[1]) ?? ""))' "$major")
  if [ -z "$bin" ]; then
    if [ "${CI:-}" = true ]; then
      echo "[test] FAIL: CI=true and Node $major is not installed (run scripts/setup.sh --for test)" >&2
      exit 1
    fi
    echo "[test] left out Node $major: not installed (scripts/setup.sh --for test installs it; CI=true fails here)" >&2
    continue
  fi
  log "JavaScript tests on Node $("$bin" -v) (${#matrix[@]} files)"
  PATH="$(dirname "$bin"):$PATH" "$bin" --test --test-concurrency=1 "${matrix[@]}"
done

for used in tests/.scratch/*/.used; do
  [ -e "$used" ] || continue
  if [ tests/.scratch/.run-start -nt "$used" ]; then
    log "removing $(dirname "$used"): no test used it"
    rm -rf "$(dirname "$used")"
  fi
done
