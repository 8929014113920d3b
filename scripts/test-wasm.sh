#!/usr/bin/env bash
# wasm-bindgen tests of src/bindings, one shared body (tests/wasm/common.rs) run twice:
#   tests/wasm_node.rs     in Node;
#   tests/wasm_browser.rs  in headless Chromium through ChromeDriver (`browser`), in headless
#                          Firefox through geckodriver (`firefox`), or in WebKitGTK's
#                          MiniBrowser through WebKitWebDriver on an Xvfb display (`webkit`;
#                          the runner starts it as it would safaridriver).
# Uses the wasm32 compiler chosen by scripts/setup.sh (.toolchain.env) and its own
# target directory (target/wasm, shared with scripts/build.sh).
#
# Usage: scripts/test-wasm.sh [node|browser|firefox|webkit|all] [extra cargo test args...]
# (default: all: node and browser)
# e.g. `scripts/test-wasm.sh browser sigil -- --nocapture` runs the browser tests named *sigil*.
# The runner's own variables pass through (WASM_BINDGEN_TEST_TIMEOUT, in seconds, defaults
# to 120 here instead of 20: the 2-core machine is shared); CHROMEDRIVER defaults to
# /usr/bin/chromedriver. The runner starts Chromium headless (it always adds --headless,
# --no-sandbox, --disable-dev-shm-usage) and stops it when the run ends.
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "$0")/env.sh"
log() { printf '[test-wasm] %s\n' "$*" >&2; }

which=${1:-all}
[ $# -gt 0 ] && shift
case "$which" in
  node | browser | firefox | webkit | all) ;;
  *) log "usage: scripts/test-wasm.sh [node|browser|firefox|webkit|all] [cargo test args...]"; exit 2 ;;
esac

command -v wasm-bindgen-test-runner >/dev/null || { log "wasm-bindgen-test-runner missing: run scripts/setup.sh"; exit 1; }
export RUSTC="$WASM_RUSTC"
export CARGO_TARGET_DIR=target/wasm
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
# Firefox: the runner picks the driver it is given, so ChromeDriver is not given; the tests are
# built to expect Firefox's user agent (tests/wasm/common.rs, `BROWSER_UA`; a build for the
# other browser is rebuilt when the variable changes).
if [ "$which" = firefox ]; then
  unset CHROMEDRIVER
  export GECKODRIVER="${GECKODRIVER:-${CARGO_HOME:-$HOME/.cargo}/bin/geckodriver}"
  export BACKOFF_WASM_TEST_UA="Firefox/"
elif [ "$which" = webkit ]; then
  # MiniBrowser needs a display: the run goes on under xvfb-run when there is none.
  if [ -z "${DISPLAY:-}" ]; then exec xvfb-run -a bash "$0" webkit "$@"; fi
  unset CHROMEDRIVER
  export SAFARIDRIVER="${SAFARIDRIVER:-/usr/bin/WebKitWebDriver}"
  export BACKOFF_WASM_TEST_UA="AppleWebKit/605"
else
  unset BACKOFF_WASM_TEST_UA
fi
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
# Each test file picks its own mode (wasm_browser.rs says run_in_browser); a
# caller's WASM_BINDGEN_USE_BROWSER=1 would push the Node file into the browser too.
unset WASM_BINDGEN_USE_BROWSER WASM_BINDGEN_TEST_ONLY_NODE WASM_BINDGEN_TEST_ONLY_WEB
# ChromeDriver's Chromium leaves a profile (org.chromium.Chromium.scoped_dir.*) and
# a singleton-socket directory in $TMPDIR on every run, since the runner stops it without
# cleaning up: the runs get a private TMPDIR, removed when this script exits.
PRIVATE_TMP=$(mktemp -d)
trap 'rm -rf "$PRIVATE_TMP"' EXIT
export TMPDIR="$PRIVATE_TMP"

# run <test file> <runner line that must appear, or ""> <runner line that must not>
run() {
  local name=$1 want=$2 refuse=$3 out rc=0
  shift 3
  log "cargo test --target wasm32-unknown-unknown --test $name ($WASM_RUSTC)"
  out=$(mktemp)
  "$WASM_CARGO" test --target wasm32-unknown-unknown --test "$name" "$@" 2>&1 | tee "$out" || rc=$?
  # Belt and braces on top of the runs_in_the_intended_runtime test: the runner itself
  # must say where it ran (a misconfigured runner silently falls back to Node).
  if [ "$rc" = 0 ] && { { [ -n "$want" ] && ! grep -qF "$want" "$out"; } || grep -qF "$refuse" "$out"; }; then
    log "$name: the runner output does not show the intended environment (want \"$want\", not \"$refuse\")"
    rc=1
  fi
  rm -f "$out"
  return "$rc"
}

HEADLESS="Running headless tests in Chrome"
case "$which" in
  node) run wasm_node "" "Running headless tests" "$@" ;;
  browser) run wasm_browser "$HEADLESS" "Running tests in" "$@" ;;
  firefox) run wasm_browser "Running headless tests in Firefox" "Running tests in" "$@" ;;
  webkit) run wasm_browser "Running headless tests in Safari" "Running tests in" "$@" ;;
  all)
    run wasm_node "" "Running headless tests" "$@"
    run wasm_browser "$HEADLESS" "Running tests in" "$@"
    ;;
esac
