# Sourced by build.sh, test.sh and test-wasm.sh: the repository root as the working
# directory, rustup's tools on PATH, and the wasm32 compiler scripts/setup.sh chose
# (.toolchain.env: WASM_RUSTC, WASM_CARGO). Wasm builds use target/wasm.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -f .toolchain.env ] || { echo "[$(basename "$0" .sh)] run scripts/setup.sh first" >&2; exit 1; }
# shellcheck disable=SC1091
. ./.toolchain.env
export PATH="$HOME/.cargo/bin:$PATH"
