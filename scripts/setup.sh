#!/usr/bin/env bash
# One idempotent setup for every command of this repo (npm start, npm test, .ci/run).
# Installs only what is missing; when everything is present it takes a second or two.
#
# What it ensures:
#   1. a rustc that can build wasm32-unknown-unknown:
#        a. rustup's own target, if installed or installable within a short timeout;
#        b. otherwise Debian's rustc-web (1.96) with a wasm32 std built once into its
#           sysroot (the route described in ../shared/toolchain.md);
#      the choice is written to .toolchain.env, which the build scripts source;
#   2. wasm-bindgen-cli pinned to the wasm-bindgen version in Cargo.toml
#      (it also provides wasm-bindgen-test-runner);
#   3. Chromium + ChromeDriver (Debian packages) for browser tests;
#   4. npm dependencies (npm ci) when node_modules is missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
log() { printf '[setup] %s\n' "$*" >&2; }

WB_VERSION=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p' Cargo.toml)
[ -n "$WB_VERSION" ] || { log "cannot read the pinned wasm-bindgen version from Cargo.toml"; exit 1; }
export PATH="$HOME/.cargo/bin:$PATH"

APT_UPDATED=0
apt_install() {
  if [ "$APT_UPDATED" = 0 ]; then
    log "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# ---------------------------------------------------------------- 1. wasm32 rustc
rustup_has_wasm() {
  command -v rustup >/dev/null 2>&1 &&
    [ -d "$(rustc --print sysroot 2>/dev/null)/lib/rustlib/wasm32-unknown-unknown/lib" ]
}
DEB_SYSROOT_LIB=/usr/lib/rustlib/wasm32-unknown-unknown/lib
debian_has_wasm() {
  [ -x /usr/bin/rustc ] && [ -x /usr/bin/rust-lld ] && ls "$DEB_SYSROOT_LIB"/libstd-*.rlib >/dev/null 2>&1 &&
    ls "$DEB_SYSROOT_LIB"/libtest-*.rlib >/dev/null 2>&1
}
build_debian_sysroot() {
  apt_install rustc-web cargo-web rust-web-src rust-web-llvm
  local tmp
  tmp=$(mktemp -d)
  log "building the wasm32 standard library with /usr/bin/rustc (about a minute)"
  mkdir -p "$tmp/src"
  cat >"$tmp/Cargo.toml" <<'TOML'
[package]
name = "wasm_std_probe"
version = "0.0.0"
edition = "2024"
[lib]
path = "src/lib.rs"
TOML
  echo 'pub fn probe() -> u32 { 1 }' >"$tmp/src/lib.rs"
  (cd "$tmp" && RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc CARGO_TARGET_DIR="$tmp/target" \
    /usr/bin/cargo test --no-run --release --target wasm32-unknown-unknown \
    -Z build-std=std,panic_abort,test >"$tmp/build.log" 2>&1) || { cat "$tmp/build.log" >&2; exit 1; }
  mkdir -p "$DEB_SYSROOT_LIB"
  find "$tmp/target/wasm32-unknown-unknown/release/deps" -name 'lib*.rlib' ! -name 'libwasm_std_probe-*' \
    -exec cp {} "$DEB_SYSROOT_LIB/" \;
  rm -rf "$tmp"
}

if rustup_has_wasm; then
  WASM_RUSTC=$(command -v rustc); WASM_CARGO=$(command -v cargo)
elif debian_has_wasm; then
  WASM_RUSTC=/usr/bin/rustc; WASM_CARGO=/usr/bin/cargo
else
  log "trying rustup target add wasm32-unknown-unknown (20 s limit)"
  if command -v rustup >/dev/null 2>&1 &&
     timeout 20 rustup target add wasm32-unknown-unknown >/dev/null 2>&1 && rustup_has_wasm; then
    WASM_RUSTC=$(command -v rustc); WASM_CARGO=$(command -v cargo)
  else
    log "rustup cannot fetch wasm32 here; using Debian's rustc-web"
    build_debian_sysroot
    WASM_RUSTC=/usr/bin/rustc; WASM_CARGO=/usr/bin/cargo
  fi
fi
cat >.toolchain.env <<ENV
# written by scripts/setup.sh: the compiler used for wasm32 builds
WASM_RUSTC=$WASM_RUSTC
WASM_CARGO=$WASM_CARGO
ENV

# ---------------------------------------------------------------- 2. wasm-bindgen-cli
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ] ||
   ! command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
  log "cargo install wasm-bindgen-cli =$WB_VERSION (about 3 minutes)"
  cargo install -q wasm-bindgen-cli --version "=$WB_VERSION" --force
fi

# ---------------------------------------------------------------- 3. browser
if [ "${SKIP_BROWSER:-0}" != 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  apt_install chromium chromium-driver
fi

# ---------------------------------------------------------------- 4. npm
stamp=node_modules/.setup-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  touch "$stamp"
fi
log "ready (wasm rustc: $WASM_RUSTC)"
