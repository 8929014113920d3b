/**
 * `sleep`, and the timer behind the retry loops' waits: right for any length
 * (chained timers past `setTimeout`'s 2^31 − 1 ms), abortable.
 * @module
 */
import { numberOption } from "../engine/errors.js";
import { readOptions, signalOf } from "../engine/options.js";
import type { AbortSignalLike } from "./retry-options.js";

/** The longest `setTimeout` delay, 2^31 − 1 ms: longer waits are chained timers. @internal */
export const MAX_TIMER_MS = 2_147_483_647;

/** Options of `sleep`. */
export interface SleepOptions {
  /** Aborting rejects the sleep at once with `signal.reason` and clears the timer. */
  signal?: AbortSignalLike;
}

/**
 * Resolves after `ms` milliseconds. Right for any length: `setTimeout` caps at
 * 2^31 − 1 ms (and fires at once above it in Node and browsers), so longer
 * waits are chained timers; `Infinity` waits until aborted (keeping a timer
 * armed, as any pending sleep does).
 *
 * @param ms the wait, a non-negative number (fractions as `setTimeout` takes them) or `Infinity`.
 * @param options `signal`: aborting rejects at once with `signal.reason` and
 *   clears the timer; an already-aborted signal rejects without arming one.
 * @throws (rejects; never throws synchronously) TypeError when `ms` is not a
 *   number, `options` not an object (or one that cannot be read: a revoked Proxy, a throwing
 *   getter; the engine's error is the `cause`) or `signal` not an AbortSignal; RangeError
 *   for a negative or `NaN` `ms`.
 */
export async function sleep(ms: number, options?: SleepOptions): Promise<void> {
  numberOption("ms", ms, "a non-negative number of ms", (v) => v >= 0);
  return wait(ms, signalOf("signal", readOptions(options, ["signal"]).signal));
}

/** The timer behind `sleep` and the retry loop (validated arguments); `unref` lets Node exit during the wait. @internal */
export function wait(ms: number, signal: AbortSignal | undefined, unref?: boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let remaining = ms;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    const arm = () => {
      const chunk = Math.min(remaining, MAX_TIMER_MS);
      remaining -= chunk; // Infinity stays Infinity: re-armed for ever
      timer = setTimeout(remaining > 0 ? arm : done, chunk);
      if (unref) (timer as { unref?: () => void }).unref?.();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    arm();
  });
}
