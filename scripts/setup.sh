#!/usr/bin/env bash
# One idempotent setup for every command of this repo (npm start, npm test, .ci/run).
# Installs only what is missing; when everything is present it takes about 0.1 s.
#
# What it ensures:
#   1. a rustc that can build wasm32-unknown-unknown:
#        a. rustup's own target, if installed or installable within a short timeout;
#        b. otherwise Debian's rustc-web (1.96) with a wasm32 std built once into its
#           sysroot (the route described in ../shared/toolchain.md);
#      the choice is written to .toolchain.env, which the build scripts source;
#      BACKOFF_WASM_TOOLCHAIN=rustup or =debian forces one route (unset/auto: a, then b);
#   2. wasm-bindgen-cli pinned to the wasm-bindgen version in Cargo.toml
#      (it also provides wasm-bindgen-test-runner);
#   3. Chromium + ChromeDriver (Debian packages) for browser tests;
#      redis-server (Debian package) for the BullMQ tests, never for npm start/build;
#   4. npm dependencies (npm ci) when node_modules is missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
exec 3>&2 # log() writes here, so steps whose output is redirected still show in the log
log() { printf '[setup] %s\n' "$*" >&3; }
# `timed <label> <command...>`: runs a slow step, logs how long it took, keeps its exit status.
timed() {
  local label=$1 t0 rc=0
  shift
  t0=$(date +%s%N)
  "$@" || rc=$?
  log "$label took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  return "$rc"
}

ROUTE=${BACKOFF_WASM_TOOLCHAIN:-auto}
case "$ROUTE" in
  auto | rustup | debian) ;;
  *) log "BACKOFF_WASM_TOOLCHAIN must be rustup, debian, auto or unset; received '$ROUTE'"; exit 2 ;;
esac

WB_VERSION=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p' Cargo.toml)
[ -n "$WB_VERSION" ] || { log "cannot read the pinned wasm-bindgen version from Cargo.toml"; exit 1; }
export PATH="$HOME/.cargo/bin:$PATH"

APT_UPDATED=0
apt_install() {
  if [ "$APT_UPDATED" = 0 ]; then
    log "apt-get update"
    timed "apt-get update" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  log "apt-get install $*"
  timed "apt-get install" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# ---------------------------------------------------------------- 1. wasm32 rustc
rustup_has_wasm() {
  command -v rustup >/dev/null 2>&1 &&
    [ -d "$(rustc --print sysroot 2>/dev/null)/lib/rustlib/wasm32-unknown-unknown/lib" ]
}
DEB_SYSROOT_LIB=/usr/lib/rustlib/wasm32-unknown-unknown/lib
# The wasm32 std is only valid for the exact rustc that built it: the stamp holds
# that rustc's `-vV`, so an upgraded rustc-web triggers a rebuild instead of
# "found crate `std` compiled by an incompatible version of rustc".
DEB_STAMP=$DEB_SYSROOT_LIB/.backoff-wasm-built-by
debian_has_wasm() {
  [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -x /usr/bin/rust-lld ] &&
    ls "$DEB_SYSROOT_LIB"/libstd-*.rlib >/dev/null 2>&1 && ls "$DEB_SYSROOT_LIB"/libtest-*.rlib >/dev/null 2>&1 &&
    [ "$(cat "$DEB_STAMP" 2>/dev/null)" = "$(/usr/bin/rustc -vV 2>/dev/null)" ]
}
build_debian_sysroot() {
  if [ ! -x /usr/bin/rustc ] || [ ! -x /usr/bin/cargo ] || [ ! -d /usr/lib/rustlib/src/rust/library ] ||
     [ ! -e /usr/bin/rust-lld ]; then
    apt_install rustc-web cargo-web rust-web-src rust-web-llvm
  fi
  # rust-web-llvm's /usr/bin/rust-lld is a symlink to lld-<LLVM major>, a package it
  # does not depend on: without it every wasm link fails with "linker `rust-lld` not found".
  if [ ! -x /usr/bin/rust-lld ]; then
    local llvm
    llvm=$(/usr/bin/rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
    apt_install "lld-$llvm"
  fi
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
  timed "wasm32 std build" env -C "$tmp" RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc CARGO_TARGET_DIR="$tmp/target" \
    /usr/bin/cargo test --no-run --release --target wasm32-unknown-unknown \
    -Z build-std=std,panic_abort,test >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log" >&3; exit 1; }
  mkdir -p "$DEB_SYSROOT_LIB"
  rm -f "$DEB_SYSROOT_LIB"/lib*.rlib "$DEB_STAMP"
  find "$tmp/target/wasm32-unknown-unknown/release/deps" -name 'lib*.rlib' ! -name 'libwasm_std_probe-*' \
    -exec cp {} "$DEB_SYSROOT_LIB/" \;
  /usr/bin/rustc -vV >"$DEB_STAMP"
  rm -rf "$tmp"
}
use_rustup() { WASM_RUSTC=$(command -v rustc); WASM_CARGO=$(command -v cargo); }
use_debian() { WASM_RUSTC=/usr/bin/rustc; WASM_CARGO=/usr/bin/cargo; }
try_rustup_target_add() {
  log "trying rustup target add wasm32-unknown-unknown (20 s limit)"
  command -v rustup >/dev/null 2>&1 &&
    timeout 20 rustup target add wasm32-unknown-unknown >/dev/null 2>&1 && rustup_has_wasm
}

case "$ROUTE" in
  rustup)
    if rustup_has_wasm || try_rustup_target_add; then
      use_rustup
    else
      log "BACKOFF_WASM_TOOLCHAIN=rustup, but rustup has no wasm32-unknown-unknown target and cannot fetch it"
      exit 1
    fi ;;
  debian)
    debian_has_wasm || build_debian_sysroot
    use_debian ;;
  auto)
    if rustup_has_wasm; then
      use_rustup
    elif debian_has_wasm; then
      use_debian
    elif try_rustup_target_add; then
      use_rustup
    else
      log "rustup cannot fetch wasm32 here; using Debian's rustc-web"
      build_debian_sysroot
      use_debian
    fi ;;
esac
cat >.toolchain.env <<ENV
# written by scripts/setup.sh: the compiler used for wasm32 builds
WASM_RUSTC=$WASM_RUSTC
WASM_CARGO=$WASM_CARGO
ENV

# ---------------------------------------------------------------- 2. wasm-bindgen-cli
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ] ||
   ! command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
  log "cargo install wasm-bindgen-cli =$WB_VERSION (about 3 minutes)"
  timed "cargo install wasm-bindgen-cli" cargo install -q wasm-bindgen-cli --version "=$WB_VERSION" --force
fi

# ---------------------------------------------------------------- 3. browser
if [ "${SKIP_BROWSER:-0}" != 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  apt_install chromium chromium-driver
fi

# ---------------------------------------------------------------- 3b. redis-server (tests only)
# tests/queues/bullmq.test.mjs runs BullMQ on a real redis-server (Debian's package). Not
# needed by `npm start` or `npm run build` (npm_lifecycle_event), skipped with SKIP_REDIS=1,
# never fatal here: where it cannot be installed the test says so (and fails with CI=true).
case "${npm_lifecycle_event:-}" in start | build) SKIP_REDIS=1 ;; esac
if [ "${SKIP_REDIS:-0}" != 1 ] && ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt_install redis-server || log "could not install redis-server; the BullMQ tests need it"
  else
    log "redis-server is missing; the BullMQ tests need it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis)"
  fi
fi

# ---------------------------------------------------------------- 4. npm
stamp=node_modules/.setup-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  log "npm ci"
  timed "npm ci" npm ci --no-audit --no-fund --loglevel=error >/dev/null
  touch "$stamp"
fi
log "ready (wasm rustc: $WASM_RUSTC)"
