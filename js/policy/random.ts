/**
 * `backoff-wasm/random`: seeded and system random streams, mirroring
 * `@sdxc/random`. Seeded streams are sfc32 seeded by a
 * cyrb128-style hash of `String(seed)`'s UTF-16 code units; the generator runs
 * in wasm.
 * @module
 */
export {
  createRandom, restoreRandom, systemRandom, systemSeed, RANDOM_STATE_SCHEMA, type Random, type SeededRandom, type RandomState,
  type Seed, type RandomStateSchema, type RandomStateResult, type RandomStateIssue,
} from "./streams.js";
