#!/usr/bin/env bash
# `npm run fuzz`: runs every cargo-fuzz target for a fixed time (FUZZ_SECONDS,
# default 60 per target) from the committed seeds in fuzz/seeds/<target>
# (new corpus entries go to target dirs under fuzz/corpus/, which is ignored).
#
# cargo-fuzz needs nightly flags (-Z sanitizer); with a stable toolchain
# RUSTC_BOOTSTRAP=1 enables them. Needs `cargo install cargo-fuzz` and a C++
# compiler (libfuzzer-sys builds libFuzzer). Not part of `npm test`.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/.cargo/bin:$PATH"
SECONDS_EACH=${FUZZ_SECONDS:-60}
SANITIZER=${FUZZ_SANITIZER:-address}
command -v cargo-fuzz >/dev/null 2>&1 || { echo "[fuzz] installing cargo-fuzz" >&2; cargo install -q cargo-fuzz; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(duration_parse seed_hash http_date pow)
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  echo "[fuzz] $t for ${SECONDS_EACH}s (sanitizer: $SANITIZER)" >&2
  RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer "$SANITIZER" "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$SECONDS_EACH" -print_final_stats=1
done
