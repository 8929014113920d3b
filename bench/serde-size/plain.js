// The plain variant's wrapper: reads the options object, passes numbers (a code for a
// jitter kind) and throws the error a negative result names, as backoff-wasm's
// wrappers do. Counted in the variant's JS.
import { delay as wasmDelay } from "./serde_size.js";

const NAMES = ["base", "max", "factor", "jitter", "seed", "maxAttempts"];
const KINDS = ["full", "equal", "decorrelated"];
const MESSAGES = [
  "base must be a finite number >= 0",
  "max must be a number >= base",
  "factor must be a finite number >= 1",
  'jitter must be a number in [0, 1] or "full", "equal", "decorrelated"',
  "seed must be an integer in [0, 2^32)",
  "maxAttempts must be an integer >= 1",
  "attempt must be an integer >= 1",
];
const num = (v) => (typeof v === "number" ? v : NaN);

/** The delay before retry `attempt`, -1 when the attempts are used up. */
export function delay(options, attempt) {
  for (const key of Object.keys(options)) {
    if (!NAMES.includes(key)) throw new TypeError(`unknown option ${key}`);
  }
  const { base, max = Infinity, factor = 2, jitter = 0, seed = 0, maxAttempts = 10 } = options;
  const kind = typeof jitter === "string" ? (KINDS.indexOf(jitter) + 1 || 4) : 0;
  const d = wasmDelay(num(base), num(max), num(factor), kind, num(jitter), num(seed), num(maxAttempts), num(attempt));
  if (d < -1) throw new RangeError(MESSAGES[-2 - d]);
  return d;
}
