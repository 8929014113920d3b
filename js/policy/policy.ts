/**
 * `backoff-wasm/policy`: the fluent policy value,
 * `Backoff.exponential(…).maxAttempts(n).cap(max).jitter(f)`.
 * The same class `createBackoff` returns.
 * @module
 */
export { Backoff } from "./backoff.js";
