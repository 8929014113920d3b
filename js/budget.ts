/**
 * `createRetryBudget`: a retry budget shared by many calls (Finagle's
 * `RetryBudget`: a token bucket over a sliding window of ten slices).
 * @module
 */
import { toMs, type DurationInput } from "./duration.js";
import { invalid, numberOption, RANGE, readOptions, TYPE } from "./errors.js";

/** What `retry`/`fetchWithRetry` need of a budget (option `budget`). */
export interface RetryBudget {
  /** Called once per call, before its first attempt: earns `ratio` of a retry. */
  deposit(): void;
  /** Called before each retry: `true` when the budget pays for it (and is charged), `false` when empty. */
  tryWithdraw(): boolean;
  /** Whole retries the budget would pay for now. */
  readonly balance: number;
}

/** Options of `createRetryBudget` (Finagle's defaults). */
export interface RetryBudgetOptions {
  /** Retries earned per call, in [0, 1000]: 0.1 lets retries add at most 10 % to the calls. Default 0.2. */
  ratio?: number;
  /** Retries always allowed per second of `windowMs`, a non-negative integer. Default 10. */
  minPerSecond?: number;
  /** How long a deposit counts, 1 s to 60 s (ms or duration text). Default 10 s. */
  windowMs?: DurationInput;
}

/**
 * Finagle's fixed point: a call deposits 1000 units (0 when `ratio` is 0), a
 * retry costs `trunc(1000 / ratio)` (1 when `ratio` is 0).
 */
const SCALE = 1000;
/** Slices of the sliding window (Finagle's `WindowedAdder` uses 10). */
const SLICES = 10;

/**
 * A retry budget to share between any number of `retry`/`fetchWithRetry` calls
 * (option `budget`), to stop retry storms: over the last `windowMs`, retries may
 * be at most `ratio` × calls + `minPerSecond` × the whole seconds of `windowMs`.
 * A call the empty budget stops rejects with `RetryError` reason `"budget"`.
 *
 * Semantics and numbers of Finagle's `RetryBudget(ttl, minRetriesPerSec,
 * percentCanRetry)` (twitter/finagle, `TokenRetryBudget` over a leaky
 * `TokenBucket`): deposits expire after `windowMs` (ten slices), the reserve
 * `minPerSecond × trunc(windowMs / 1000) × cost` never expires. Time is `Date.now()`.
 *
 * @param options see {@link RetryBudgetOptions}.
 * @throws TypeError for a non-object or a wrong type, an unknown key, options that cannot be read
 *   (a revoked Proxy, a throwing getter; the engine's error is the `cause`); RangeError for a value out of range.
 * @example
 * const budget = createRetryBudget({ ratio: 0.1 }); // one per downstream service
 * await fetchWithRetry(url, undefined, { budget });
 */
export function createRetryBudget(options: RetryBudgetOptions = {}): RetryBudget {
  if (typeof options !== "object" || options === null) throw invalid(TYPE, "options", "an object", options);
  // Each option read once; a revoked Proxy or a throwing getter is the package's TypeError.
  const o = readOptions(options) as RetryBudgetOptions;
  // An array is never options (asked after readOptions, which reports a revoked Proxy first).
  if (Array.isArray(options)) throw invalid(TYPE, "options", "an object", options);
  for (const k in o) {
    if (!["ratio", "minPerSecond", "windowMs"].includes(k)) throw invalid(TYPE, "option", "one of ratio, minPerSecond, windowMs", k);
  }
  const ratio = numberOption("ratio", o.ratio, "a number in [0, 1000]", (v) => v >= 0 && v <= 1000, 0.2);
  const minPerSecond = numberOption("minPerSecond", o.minPerSecond, "a non-negative integer", (v) => Number.isSafeInteger(v) && v >= 0, 10);
  const w = o.windowMs;
  if (w !== undefined && typeof w !== "number" && typeof w !== "string") throw invalid(TYPE, "windowMs", "a duration from 1 s to 60 s", w);
  const windowMs = w === undefined ? 10_000 : toMs(w);
  if (!(windowMs >= 1000 && windowMs <= 60_000)) throw invalid(RANGE, "windowMs", "a duration from 1 s to 60 s", w);

  const deposit = ratio === 0 ? 0 : SCALE;
  const cost = ratio === 0 ? 1 : Math.trunc(SCALE / ratio);
  const reserve = minPerSecond * Math.trunc(windowMs / 1000) * cost;
  const width = windowMs / SLICES;
  const slices = new Array<number>(SLICES).fill(0);
  let last = Math.floor(Date.now() / width);
  const sum = () => {
    const now = Math.floor(Date.now() / width);
    for (let i = 1; i <= Math.min(now - last, SLICES); i++) slices[(last + i) % SLICES] = 0;
    if (now > last) last = now;
    return slices.reduce((a, b) => a + b, 0);
  };
  const add = (n: number) => {
    sum();
    const i = last % SLICES;
    slices[i] = (slices[i] as number) + n;
  };
  return {
    deposit: () => add(deposit),
    tryWithdraw: () => {
      const ok = reserve + sum() >= cost;
      if (ok) add(-cost);
      return ok;
    },
    get balance() {
      return Math.floor((reserve + sum()) / cost);
    },
  };
}
