//! Prints `js/boundary.ts`: the numbers the wasm boundary shares, from
//! `src/boundary.rs` (their one source). scripts/build.sh runs it before tsc:
//! `cargo run -q --example boundary > js/boundary.ts`.
fn main() {
    print!("{}", backoff_wasm::boundary::typescript());
}
