// Generated from src/boundary.rs by `cargo run --example boundary` (scripts/build.sh); do not edit.
// The numbers both sides of the wasm boundary share; tests/js/boundary.test.mjs and the
// Rust test `boundary::tests::generated_file_is_current` fail when they disagree.
/** Layout of a compiled policy (f64 slots). */
export const REC_GROWTH = 0;
export const REC_BASE = 1;
export const REC_FACTOR = 2;
export const REC_MAX = 3;
export const REC_CAP = 4;
export const REC_FREE = 5;
export const REC_JITTER = 6;
export const REC_FRACTION = 7;
export const REC_SOURCE = 8;
export const REC_KEY = 9;
export const REC_ATTEMPTS = 13;
export const REC_STEPS = 14;
export const REC_SIGIL = 15;
export const REC_HEADER = 16;
export const SIGIL_MAX_ATTEMPTS = 8;
export const SIGIL_BASE_DELAY_MS = 1000;
export const SIGIL_MAX_DELAY_MS = 3600000;
