/**
 * `createRetryBudget`: a retry budget shared by many calls (Finagle's
 * `RetryBudget`: a token bucket over a sliding window of ten slices), kept in
 * this process or, with a `store`, shared by every process that uses the store.
 * @module
 */
import { toMs, type DurationInput } from "../policy/duration.js";
import { invalid, numberOption, RANGE, readable, TYPE } from "../engine/errors.js";
import { readOptions } from "../engine/options.js";

/**
 * What `retry`/`fetchWithRetry` need of a budget (option `budget`). A budget
 * with a `store` answers `tryWithdraw` with a promise and sends deposits without
 * being awaited; a budget without one answers synchronously.
 */
export interface RetryBudget {
  /**
   * Called once per call, before its first attempt: earns `ratio` of a retry.
   * With a store it returns a promise that always fulfils (a failure of the store
   * is reported through `onStoreError`); there is no need to await it.
   */
  deposit(): void | PromiseLike<void>;
  /**
   * Called before each retry: `true` when the budget pays for it (and is charged),
   * `false` when empty. With a store: a promise of that answer, which never rejects.
   */
  tryWithdraw(): boolean | PromiseLike<boolean>;
  /**
   * Settles when every deposit made so far has landed in the store, or failed (an error, or
   * no answer within `storeTimeoutMs`); never rejects. `retry` and `fetchWithRetry` do not
   * await deposits: await this before a process exits, or pass it to a Worker's
   * `ctx.waitUntil`, so that the calls of a short-lived process fund the fleet's retries.
   * Without a store it is already fulfilled.
   */
  flush(): Promise<void>;
  /**
   * Whole retries the budget would pay for now. With a store: as of the store's
   * last answer to this process (the local budget's while the store is failing).
   */
  readonly balance: number;
}

/**
 * The rule a {@link RetryBudgetStore} applies, in integer units: a call deposits
 * `ratio`'s numerator and a retry costs its denominator (`ratio` 0.7 is 7/10: 7 and 10).
 */
export interface RetryBudgetRule {
  /** Length of the sliding window, ms (1 000 to 60 000); deposits and withdrawals expire after it, in ten slices. */
  readonly windowMs: number;
  /** Units that never expire: `minPerSecond` × the whole seconds of `windowMs` × the cost of a retry. */
  readonly reserve: number;
}

/** What a store answers to a withdrawal. */
export interface RetryBudgetWithdrawal {
  /** Whether the store had the units and took them. */
  readonly charged: boolean;
  /** `reserve` + the units of the window, after this step (integer units). */
  readonly balance: number;
}

/**
 * Where a shared budget lives (option `store` of `createRetryBudget`):
 * `redisBudgetStore`, `durableObjectBudgetStore`, or any object doing the same.
 * Each method is one atomic step on one bucket: a sliding window of `rule.windowMs`
 * in ten slices of `windowMs / 10` by the store's own clock, whose slices older than
 * the window no longer count.
 */
export interface RetryBudgetStore {
  /**
   * Adds `units` (a non-negative integer) to the current slice. A deposit of 0 changes no
   * balance but is a write all the same: the budget sends it to learn whether a failing store
   * takes writes again, so it must fail whenever the store refuses writes (a Redis server out
   * of memory under `noeviction`, a read-only replica).
   */
  deposit(units: number, rule: RetryBudgetRule): PromiseLike<unknown>;
  /**
   * When `rule.reserve` + the units of the window ≥ `units`, subtracts `units` from the
   * current slice and answers `charged: true`; otherwise changes nothing.
   */
  withdraw(units: number, rule: RetryBudgetRule): PromiseLike<RetryBudgetWithdrawal>;
}

/** Options of `createRetryBudget` (Finagle's defaults). */
export interface RetryBudgetOptions {
  /**
   * Retries earned per call, in [0, 1000]: 0.1 lets retries add at most 10 % to the calls.
   * Used exactly as the fraction with the smallest denominator up to 10 000 that equals it
   * (0.7 is 7/10, 1/3 is 1/3); a ratio no such fraction equals is used as the largest one
   * below it. Default 0.2.
   */
  ratio?: number;
  /** Retries always allowed per second of `windowMs`, a non-negative integer. Default 10. */
  minPerSecond?: number;
  /** How long a deposit counts, 1 s to 60 s (ms or duration text). Default 10 s. */
  windowMs?: DurationInput;
  /**
   * Shares the budget through this store (`redisBudgetStore(...)`,
   * `durableObjectBudgetStore(...)`): the rule then holds for every process using the
   * same store and key, when all of them give the same `ratio`, `minPerSecond` and `windowMs`.
   */
  store?: RetryBudgetStore;
  /**
   * With `store`: called with the store's error (or a `TimeoutError` `DOMException`
   * when it did not answer within `storeTimeoutMs`) once per outage: when the budget stops
   * using the store and falls back to a budget of this process with the same options. The
   * outage lasts until the store accepts a write again; other errors during it, and late
   * failures of steps sent before it, are not reported again. What it throws or returns is
   * ignored.
   */
  onStoreError?: (error: unknown) => void;
  /** With `store`: how long one answer of the store may take, 1 ms to 60 s (ms or duration text). Default 1 s. */
  storeTimeoutMs?: DurationInput;
}

/** Slices of the sliding window (Finagle's `WindowedAdder` uses 10). */
const SLICES = 10;
/** The largest denominator tried for `ratio`. */
const MAX_DENOMINATOR = 10_000;
/** While the store is failing, the shortest time between two checks that it answers again, ms. */
const PROBE_MS = 250;
const KEYS = ["ratio", "minPerSecond", "windowMs", "store", "onStoreError", "storeTimeoutMs"];

/**
 * `ratio` as `[numerator, denominator]`: the fraction with the smallest denominator
 * up to 10 000 whose double is `ratio`, else the largest fraction below `ratio` with a
 * denominator up to 10 000 (so retries ≤ ratio × calls holds either way).
 */
function fraction(ratio: number): [number, number] {
  let best: [number, number] = [0, 1];
  for (let q = 1; q <= MAX_DENOMINATOR; q++) {
    const p = Math.round(ratio * q);
    if (p / q === ratio) return [p, q];
    const below = p / q < ratio ? p : p - 1;
    if (below * best[1] > best[0] * q) best = [below, q];
  }
  return best;
}

/** A budget kept in this process: `deposit` units per call, `cost` per retry, `reserve` that never expires. */
function localBudget(deposit: number, cost: number, reserve: number, windowMs: number) {
  const width = windowMs / SLICES;
  const slices = new Array<number>(SLICES).fill(0);
  let last = Math.floor(Date.now() / width);
  // The slice of slice number `n`: `n mod SLICES`, never negative (a clock before 1970 gives
  // negative numbers, whose `%` would be an index the sum does not see).
  const at = (n: number) => ((n % SLICES) + SLICES) % SLICES;
  const sum = () => {
    const now = Math.floor(Date.now() / width);
    for (let i = 1; i <= Math.min(now - last, SLICES); i++) slices[at(last + i)] = 0;
    // Also after a step back (a test's fake clock, an NTP step): what the slices hold then
    // counts from now and is cleared as the clock moves on, within one window.
    last = now;
    return slices.reduce((a, b) => a + b, 0);
  };
  const add = (n: number) => {
    sum();
    const i = at(last);
    slices[i] = (slices[i] as number) + n;
  };
  return {
    deposit: () => add(deposit),
    tryWithdraw: () => {
      const ok = reserve + sum() >= cost;
      if (ok) add(-cost);
      return ok;
    },
    flush: () => Promise.resolve(),
    get balance() {
      return Math.max(0, Math.floor((reserve + sum()) / cost));
    },
  };
}

/**
 * A retry budget to share between any number of `retry`/`fetchWithRetry` calls
 * (option `budget`), to stop retry storms: over the last `windowMs`, retries may
 * be at most `ratio` × calls + `minPerSecond` × the whole seconds of `windowMs`.
 * A call the empty budget stops rejects with `RetryError` reason `"budget"`.
 *
 * Semantics and numbers of Finagle's `RetryBudget(ttl, minRetriesPerSec,
 * percentCanRetry)` (twitter/finagle, `TokenRetryBudget` over a leaky
 * `TokenBucket`): deposits expire after `windowMs` (ten slices), the reserve
 * `minPerSecond × trunc(windowMs / 1000)` retries never expires. The arithmetic is
 * exact: `ratio` p/q in lowest terms, a call deposits p units and a retry costs q,
 * so 10 000 calls at `ratio: 0.7` pay for exactly 7 000 retries. Time is `Date.now()`.
 *
 * With `store`, the same rule holds for the whole fleet sharing the store (by the
 * store's clock): a deposit is sent without waiting for it (deposits made while one is
 * on its way are added up and sent as one, at the latest just before the next withdrawal, so
 * a retry never overtakes the deposits made before it), each retry waits for one answer of
 * the store; `budget.flush()` settles once every deposit made so far has landed. When the
 * store fails (an error, no answer within `storeTimeoutMs`, a write refused), the call goes
 * on with this process's own budget of the same options (which every deposit of this process
 * also feeds), `onStoreError` is told once for the outage (whatever errors it shows: steps
 * sent before it began that fail later are part of it), and the store is used again once it
 * has accepted a write (a deposit, sent at most every 250 ms while failing). A budget never
 * makes a call reject or hang.
 *
 * @param options see {@link RetryBudgetOptions}.
 * @throws TypeError for a non-object or a wrong type, an unknown key, options that cannot be read
 *   (a revoked Proxy, a throwing getter; the engine's error is the `cause`), `onStoreError` or
 *   `storeTimeoutMs` without `store`; RangeError for a value out of range.
 * @example
 * const budget = createRetryBudget({ ratio: 0.1 }); // one per downstream service
 * await fetchWithRetry(url, undefined, { budget });
 */
export function createRetryBudget(options: RetryBudgetOptions = {}): RetryBudget {
  // The one options reader: each option read by name, once; a revoked Proxy, a throwing
  // getter, an array or an unknown key is the package's TypeError.
  const o = readOptions(options, KEYS) as RetryBudgetOptions;
  const ratio = numberOption("ratio", o.ratio, "a number in [0, 1000]", (v) => v >= 0 && v <= 1000, 0.2);
  const minPerSecond = numberOption("minPerSecond", o.minPerSecond, "a non-negative integer", (v) => Number.isSafeInteger(v) && v >= 0, 10);
  const windowMs = duration("windowMs", o.windowMs, 1000, 60_000, "a duration from 1 s to 60 s", 10_000);
  const [deposit, cost] = fraction(ratio);
  const reserve = minPerSecond * Math.trunc(windowMs / 1000) * cost;
  if (!Number.isSafeInteger(reserve)) {
    throw invalid(RANGE, "minPerSecond", `an integer whose reserve (minPerSecond × window seconds × ${cost}) is at most 2^53 - 1`, minPerSecond);
  }
  const local = localBudget(deposit, cost, reserve, windowMs);
  const store = o.store;
  if (store === undefined) {
    if (o.onStoreError !== undefined) throw invalid(TYPE, "onStoreError", "given only with option store", o.onStoreError);
    if (o.storeTimeoutMs !== undefined) throw invalid(TYPE, "storeTimeoutMs", "given only with option store", o.storeTimeoutMs);
    return local;
  }
  const ok = readable("store", "a retry budget store that can be read", store, () =>
    typeof store === "object" && store !== null && typeof store.deposit === "function" && typeof store.withdraw === "function");
  if (!ok) throw invalid(TYPE, "store", "a retry budget store (an object with deposit and withdraw methods)", store);
  const onStoreError = o.onStoreError;
  if (onStoreError !== undefined && typeof onStoreError !== "function") throw invalid(TYPE, "onStoreError", "a function", onStoreError);
  const timeoutMs = duration("storeTimeoutMs", o.storeTimeoutMs, 1, 60_000, "a duration from 1 ms to 60 s", 1000);
  return sharedBudget(local, store, { windowMs, reserve }, deposit, cost, timeoutMs, onStoreError);
}

/** The duration option `name` in [min, max] ms, `fallback` when absent. */
function duration(name: string, x: unknown, min: number, max: number, expected: string, fallback: number): number {
  if (x === undefined) return fallback;
  if (typeof x !== "number" && typeof x !== "string") throw invalid(TYPE, name, expected, x);
  const ms = toMs(x as DurationInput);
  if (!(ms >= min && ms <= max)) throw invalid(RANGE, name, expected, x);
  return ms;
}

/** Marks a store's answer that did not come (an error, a timeout, a malformed answer). */
const FAILED = Symbol("failed");

/** The budget of `createRetryBudget` with a store; `local` answers while the store fails. */
function sharedBudget(
  local: RetryBudget & { deposit(): void; tryWithdraw(): boolean },
  store: RetryBudgetStore, rule: RetryBudgetRule, deposit: number, cost: number, timeoutMs: number,
  onStoreError: ((error: unknown) => void) | undefined,
): RetryBudget {
  const frozen: RetryBudgetRule = Object.freeze({ ...rule });
  let shared = true;
  /**
   * The store's periods, counted: even while it is used, odd while it is failing. A step
   * belongs to the period it was sent in: only a step of the current period that fails
   * starts an outage, so the errors of one outage (a connection error, then a step the lost
   * connection left unanswered timing out, even after the store is back) are one report.
   */
  let period = 0;
  let balance = Math.floor(rule.reserve / cost);
  let probing: object | undefined;
  let probeAt = 0;
  /** When the deposit sent last has landed or failed. */
  let last: Promise<void> | undefined;
  const fail = (error: unknown, sentIn: number) => {
    if (!shared || sentIn !== period) return;
    shared = false;
    period++;
    probeAt = Date.now();
    try {
      onStoreError?.(error);
    } catch {
      // The hook's own failure must not fail the call that met the store's failure.
    }
  };
  /** The store's answer within the timeout, or FAILED (reported through `fail`); never rejects. */
  const ask = <T>(step: () => PromiseLike<T>, hold: boolean): Promise<T | typeof FAILED> =>
    new Promise((resolve) => {
      const sentIn = period;
      const timer = setTimeout(() => {
        const m = `the retry budget store did not answer within ${timeoutMs} ms`;
        fail(typeof DOMException === "function" ? new DOMException(m, "TimeoutError") : new Error(m), sentIn);
        resolve(FAILED);
      }, timeoutMs);
      // A deposit's timer does not keep a process alive; a withdrawal's caller waits on it.
      if (!hold) (timer as { unref?: () => void }).unref?.();
      const settle = (value: T | typeof FAILED, error?: unknown) => {
        clearTimeout(timer);
        if (value === FAILED) fail(error, sentIn);
        resolve(value);
      };
      try {
        Promise.resolve(step()).then((v) => settle(v), (e) => settle(FAILED, e));
      } catch (e) {
        settle(FAILED, e);
      }
    });
  /** Sends a deposit of `units`; `then` runs once it has landed or failed. */
  const put = (units: number, then: (ok: boolean) => void): Promise<void> =>
    (last = ask(() => store.deposit(units, frozen), false).then((v) => then(v !== FAILED)));
  /**
   * While failing: a check at most every PROBE_MS, one at a time (one whose answer never came,
   * as when the Workers request that sent it ended, no longer counts after the timeout). The
   * check is a write: the deposit of the call that triggers it, or a deposit of 0 units, which
   * a store must refuse whenever it refuses writes. Only a write the store accepted, sent while
   * failing, makes it used again: a store that answers reads but refuses writes stays down.
   */
  const probe = (units: number): Promise<void> | undefined => {
    const now = Date.now();
    if (now - probeAt < PROBE_MS || (probing && now - probeAt <= timeoutMs)) return undefined;
    const token = {};
    probing = token;
    probeAt = now;
    const sentIn = period;
    return put(units, (ok) => {
      if (probing === token) probing = undefined;
      if (ok && sentIn === period) {
        shared = true;
        period++;
      }
    });
  };
  /** Deposits not sent yet (made while one was in flight), and when they have landed. */
  let batch: { units: number; landed: Promise<void>; resolve: () => void } | undefined;
  /** The deposit on its way (a token) and when it left; one that never settled stops counting after the timeout. */
  let sending: object | undefined;
  let sentAt = 0;
  const send = () => {
    const b = batch as NonNullable<typeof batch>;
    const token = {};
    batch = undefined;
    sending = token;
    sentAt = Date.now();
    void put(b.units, () => {
      b.resolve();
      if (sending !== token) return;
      sending = undefined;
      const next = batch;
      if (next && shared) send();
      else if (next) {
        batch = undefined;
        next.resolve();
      }
    });
  };
  return {
    deposit() {
      local.deposit();
      if (!shared) return probe(deposit);
      if (deposit === 0) return;
      if (!batch) {
        let resolve!: () => void;
        const landed = new Promise<void>((r) => (resolve = r));
        batch = { units: 0, landed, resolve };
      }
      batch.units += deposit;
      const { landed } = batch;
      if (!sending || Date.now() - sentAt > timeoutMs) send();
      return landed;
    },
    tryWithdraw() {
      if (!shared) {
        probe(0);
        return local.tryWithdraw();
      }
      // Deposits made before this withdrawal go out first, on their way before it (a burst of
      // calls that fail at once would otherwise be refused what their deposits pay for).
      if (batch) send();
      const sentIn = period;
      return ask(() => store.withdraw(cost, frozen), true).then((r) => {
        if (r !== FAILED) {
          try {
            const charged = r.charged;
            const units = r.balance;
            if (typeof charged === "boolean" && Number.isFinite(units)) {
              balance = Math.max(0, Math.floor(units / cost));
              return charged;
            }
            throw invalid(TYPE, "the store's withdrawal", "{ charged: boolean, balance: number }", r);
          } catch (e) {
            fail(e, sentIn);
          }
        }
        return local.tryWithdraw();
      });
    },
    flush() {
      // Deposits waiting behind one on its way follow it; behind one that never settled, they go now.
      if (batch && (!sending || Date.now() - sentAt > timeoutMs)) send();
      const landed = batch?.landed ?? last;
      // Each deposit settles within its timeout, and one waiting behind another is sent when
      // that one settles; the timer here bounds the wait where a timer of the deposit itself
      // never fires (a deposit whose Workers request ended).
      return new Promise<void>((resolve) => {
        if (!landed) return resolve();
        const timer = setTimeout(resolve, 2 * timeoutMs);
        void landed.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    get balance() {
      return shared ? balance : local.balance;
    },
  };
}
