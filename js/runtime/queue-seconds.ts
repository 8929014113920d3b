/**
 * `queueRetryDelaySeconds`: a policy's wait as the whole seconds of Cloudflare
 * Queues' `message.retry({ delaySeconds })`. Beside the queue helpers
 * (`backoff-wasm/queues` builds on it); exported by `backoff-wasm/retry`.
 * @module
 */
import { Backoff } from "../policy/backoff.js";
import { numberOption } from "../engine/errors.js";
import type { RetryPolicy } from "./retry-options.js";

/** Cloudflare Queues: `delaySeconds` is at most 43 200 (12 hours). */
const QUEUES_MAX_DELAY_SECONDS = 43_200;

/**
 * Whole seconds for Cloudflare Queues' `message.retry({ delaySeconds })`:
 * `ceil(policy.delay(attempts) / 1000)`, clamped to Queues' ceiling of
 * 43 200 s (12 hours). `attempts` is the message's `attempts` count (1 on the
 * first delivery), so the delay is the one before its next attempt. The
 * policy's own `.maxAttempts()` is not consulted: Queues' `max_retries` bounds
 * deliveries.
 *
 * @param policy a `Backoff`, or a fixed wait (ms or duration text).
 * @param attempts an integer >= 1 (`message.attempts`), of any size: the policy answers every attempt.
 * @returns an integer in `[0, 43200]`.
 * @throws TypeError/RangeError for a bad policy or `attempts`.
 * @example
 * message.retry({ delaySeconds: queueRetryDelaySeconds(policy, message.attempts) });
 */
export function queueRetryDelaySeconds(policy: RetryPolicy, attempts: number): number {
  const p = Backoff.from(policy);
  numberOption("attempts", attempts, "an integer >= 1 (message.attempts)", (v) => Number.isInteger(v) && v >= 1);
  return delaySeconds(p.delay(attempts));
}

/**
 * A wait in ms (any non-negative number, `Infinity` included) as Queues' `delaySeconds`:
 * whole seconds rounded up, clamped to `[0, 43200]`. @internal
 */
export function delaySeconds(ms: number): number {
  return Math.min(Math.max(Math.ceil(ms / 1000), 0), QUEUES_MAX_DELAY_SECONDS);
}
