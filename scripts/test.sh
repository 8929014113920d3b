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
#      (scripts/node-matrix.mjs: which files, where the binaries are), in the background
#      while layer 3 runs: the three one after another, each with its own log
#      (target/node-matrix/node-<major>.log) and TEST_SCRATCH_TAG=node<major>
#      (tests/scratch-dir.mjs), so that no scratch folder is shared by two Nodes at once;
#      after layer 3 the counts of each are printed, and a failed one's log ends the output.
# The run exits non-zero when any layer failed; layers 3 and 4 are both reported first.
# How long `npm test` takes in a fresh clone, and the command that measures it: bench/README.md.
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

# Layer 4 runs in the background while layer 3 runs: the matrix Nodes one after another, each
# with its own log under target/node-matrix/ and its own TEST_SCRATCH_TAG (tests/scratch-dir.mjs),
# so that no scratch folder is written by two Nodes at once.
mapfile -t matrix < <(node scripts/node-matrix.mjs --files)
majors=()
for major in $(node scripts/node-matrix.mjs --majors); do
  if [ -z "$(node scripts/node-matrix.mjs --bins | awk -v m="$major" '$1 == m { print $2 }')" ]; then
    if [ "${CI:-}" = true ]; then
      echo "[test] FAIL: CI=true and Node $major is not installed (run scripts/setup.sh --for test)" >&2
      exit 1
    fi
    echo "[test] left out Node $major: not installed (scripts/setup.sh --for test installs it; CI=true fails here)" >&2
    continue
  fi
  majors+=("$major")
done
matrix_logs=target/node-matrix
rm -rf "$matrix_logs" && mkdir -p "$matrix_logs"
# `run_matrix`: each Node of `majors` over the matrix files; writes node-<major>.log and
# node-<major>.status (the exit status of node --test).
run_matrix() {
  local major bin child='' rc
  trap '[ -z "$child" ] || kill "$child" 2>/dev/null; exit 143' TERM
  for major in "${majors[@]}"; do
    bin=$(node scripts/node-matrix.mjs --bins | awk -v m="$major" '$1 == m { print $2 }')
    PATH="$(dirname "$bin"):$PATH" TEST_SCRATCH_TAG="node$major" \
      "$bin" --test --test-concurrency=1 "${matrix[@]}" >"$matrix_logs/node-$major.log" 2>&1 &
    child=$!
    rc=0
    wait "$child" || rc=$?
    child=''
    echo "$rc" >"$matrix_logs/node-$major.status"
  done
}
matrix_pid=
if [ ${#majors[@]} -gt 0 ]; then
  log "JavaScript tests on Node ${majors[*]} (${#matrix[@]} files each), in the background: $matrix_logs/node-<major>.log"
  run_matrix &
  matrix_pid=$!
  trap '[ -z "$matrix_pid" ] || kill "$matrix_pid" 2>/dev/null || true' EXIT
fi

log "JavaScript tests (node:test) on Node $(node -v)"
# Not tests/.scratch: the consumer projects hold their own suites (Jest's test/esm.test.mjs).
mapfile -t files < <(find tests -name '*.test.mjs' -not -path '*/node_modules/*' -not -path 'tests/.scratch/*' | sort)
js_status=0
node --test --test-concurrency=1 "${files[@]}" || js_status=$?

failed=()
if [ -n "$matrix_pid" ]; then
  log "waiting for the Node ${majors[*]} runs"
  wait "$matrix_pid" || true
  matrix_pid=
  for major in "${majors[@]}"; do
    status=$(cat "$matrix_logs/node-$major.status" 2>/dev/null || echo "none")
    counts=$(grep -E '^(#|ℹ) (tests|pass|fail) [0-9]+$' "$matrix_logs/node-$major.log" | sed -E 's/^(#|ℹ) //' | paste -sd ' ' -)
    if [ "$status" = 0 ]; then
      log "Node $major: ${counts:-no counts} (exit 0; log $matrix_logs/node-$major.log)"
    else
      failed+=("$major")
      log "Node $major FAILED: ${counts:-no counts} (exit $status); the end of $matrix_logs/node-$major.log:"
      tail -n 80 "$matrix_logs/node-$major.log" >&2
    fi
  done
fi

for used in tests/.scratch/*/.used; do
  [ -e "$used" ] || continue
  if [ tests/.scratch/.run-start -nt "$used" ]; then
    log "removing $(dirname "$used"): no test used it"
    rm -rf "$(dirname "$used")"
  fi
done

if [ "$js_status" != 0 ] || [ ${#failed[@]} -gt 0 ]; then
  [ "$js_status" = 0 ] || echo "[test] FAIL: the JavaScript tests on Node $(node -v) (exit $js_status; their output is above)" >&2
  [ ${#failed[@]} -eq 0 ] || echo "[test] FAIL: the JavaScript tests on Node ${failed[*]} (logs: $matrix_logs/node-<major>.log)" >&2
  exit 1
fi
