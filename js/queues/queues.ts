/**
 * `backoff-wasm/queues`: a policy's waits handed to a queue engine, which holds
 * the message or job between attempts instead of a `setTimeout`:
 *
 * - `retryMessage(message, policy, options?)` for a Cloudflare Queues consumer
 *   (`message.retry({ delaySeconds })`);
 * - `bullmqBackoff(policy)` for BullMQ's worker `settings.backoffStrategy`.
 *
 * Keyed jitter: when the policy jitters and has neither a `seed` nor a `random`
 * of its own, the draw is keyed by the message's or job's id
 * (`policy.seed(id).delay(n)`), so whichever isolate, process or machine
 * handles attempt `n` of one message computes the same wait, after any restart.
 *
 * No runtime dependency on `@cloudflare/workers-types` or `bullmq`: the types
 * below are the members this module uses, written out.
 * @module
 */
import { Backoff } from "../policy/backoff.js";
import { invalid, numberOption, readable, TYPE } from "../engine/errors.js";
import { readOptions } from "../engine/options.js";
import { delaySeconds, queueRetryDelaySeconds } from "../runtime/queue-seconds.js";
import { retryAfterMs, type RetryAfterInput } from "../runtime/server-delay.js";
import type { RetryPolicy } from "../runtime/retry.js";

/**
 * The members of a Cloudflare Queues `Message` (workers-types' `Message<Body>`)
 * that `retryMessage` uses; a real message is one.
 */
export interface QueueMessageLike {
  /** The message's id, the same on every delivery (the key of keyed jitter). */
  readonly id: string;
  /** Deliveries so far, this one included: 1 on the first delivery. */
  readonly attempts: number;
  /** Redelivers the message after `delaySeconds` (whole seconds, at most 43 200). */
  retry(options?: { delaySeconds?: number }): void;
  /** Marks the message delivered: it is never redelivered. */
  ack(): void;
}

/** What `retryMessage` does once the policy's `maxAttempts` is spent. */
export type OnExhausted = "retry" | "ack";

/** Options of `retryMessage`. */
export interface RetryMessageOptions {
  /**
   * A server's `Retry-After` (a header value, `Headers`, a `Response`, or a
   * header record; read by `retryAfterMs`): the wait is at least what it asks
   * for, in whole seconds rounded up, still at most 43 200 s. Absent or not a
   * valid Retry-After: no floor.
   */
  retryAfter?: RetryAfterInput;
  /**
   * When `message.attempts` has reached the policy's `maxAttempts` (attempts in
   * total): `"retry"` (default) retries with the policy's wait all the same,
   * leaving the end to Queues' `max_retries`, after which the message goes to
   * the consumer's dead-letter queue (or is dropped when it has none);
   * `"ack"` acknowledges the message instead: it is never delivered again and
   * never reaches the dead-letter queue. A policy without `maxAttempts` is
   * never spent.
   */
  onExhausted?: OnExhausted;
}

/** The members of a BullMQ job (`MinimalJob`) that `bullmqBackoff`'s strategy uses. */
export interface BullJobLike {
  /** The job's id, the same on every attempt (with `queueName`, the key of keyed jitter). */
  readonly id?: string | undefined;
  /**
   * The name of the job's queue. BullMQ numbers jobs from 1 in every queue, so the key is
   * `` `${queueName}:${id}` `` (BullMQ refuses a queue name with `:`); without it, the id alone.
   */
  readonly queueName?: string | undefined;
}

/**
 * A BullMQ custom backoff strategy, assignable to a worker's
 * `settings.backoffStrategy`: `(attemptsMade, type, err, job) => ms`.
 */
export type BullBackoffStrategy = (attemptsMade: number, type?: string, err?: unknown, job?: BullJobLike) => number;

const MESSAGE_OPTIONS = ["retryAfter", "onExhausted"];
/** Shared by every copy of the package: a `Backoff`'s own options (backoff.ts). */
const POLICY_OPTIONS = Symbol.for("backoff-wasm.Backoff.options");

/**
 * `x` when it is an attempt count (an integer >= 1, of any size: a policy's delay answers every
 * attempt); TypeError/RangeError naming `name` otherwise.
 */
function count(name: string, x: unknown): number {
  return numberOption(name, x, "an integer >= 1", (v) => Number.isInteger(v) && v >= 1);
}

/**
 * `policy` keyed by `id` when it jitters with no `seed` or `random` of its own;
 * otherwise `policy` itself. `what` names the id for errors (`message.id`, `job.id`).
 */
function keyed(policy: Backoff, id: unknown, what: string): Backoff {
  const own = (policy as unknown as Record<symbol, () => Readonly<Record<string, unknown>>>)[POLICY_OPTIONS]!();
  if (own.jitter === undefined || own.jitter === 0 || own.seed !== undefined || own.random !== undefined) return policy;
  if (typeof id !== "string" && typeof id !== "number") {
    throw invalid(TYPE, what, "a string or number (the key of the policy's jitter)", id);
  }
  return policy.seed(id);
}

/**
 * Hands a failed message back to Cloudflare Queues with the policy's wait:
 * calls `message.retry({ delaySeconds })` with
 * `queueRetryDelaySeconds(policy, message.attempts)` — `ceil(delay / 1000)` of the
 * wait before the next attempt, clamped to `[0, 43200]` — raised to the
 * `retryAfter` floor when one is given.
 *
 * The wait is keyed by `message.id` when the policy jitters and has neither
 * `seed` nor `random` of its own: it is `policy.seed(message.id).delay(message.attempts)`,
 * so a redelivery handled by another isolate, or after a deploy or restart,
 * gets the same wait for the same attempt (a policy's own seed or random is
 * used as it is).
 *
 * @param message the Queues message (`message.attempts` is 1 on the first delivery).
 * @param policy a `Backoff`, or a fixed wait (ms or duration text).
 * @param options `retryAfter` (a floor from a server's Retry-After) and
 *   `onExhausted` (`"retry"`, the default, or `"ack"`); see {@link RetryMessageOptions}.
 * @returns the `delaySeconds` passed to `message.retry`, an integer in
 *   `[0, 43200]`; `undefined` when the message was acknowledged (`onExhausted: "ack"`).
 * @throws TypeError for a message without `retry`/`ack` methods, an id that
 *   is not a string or number (when keying), options that are not an object
 *   (an array included) or cannot be read, an unknown option
 *   (`option must be one of retryAfter, onExhausted`, the wording of every
 *   runtime function), a bad
 *   `onExhausted` or a `retryAfter` that is not a header value, `Headers` or
 *   `Response`; TypeError/RangeError for a bad policy or a `message.attempts`
 *   that is not an integer >= 1.
 * @example
 * try { await deliver(message.body); message.ack(); }
 * catch { retryMessage(message, Backoff.exponential("30 seconds").cap("1 hour").jitter(0.2)); }
 */
export function retryMessage(message: QueueMessageLike, policy: RetryPolicy, options?: RetryMessageOptions): number | undefined {
  const expected = "a Queues message (with retry and ack methods)";
  // Every read of the caller's objects first: a revoked Proxy or a throwing getter gets the
  // package's TypeError naming what it was (the engine's error as `cause`), not the engine's.
  const fields = readable("message", `${expected} that can be read`, message, () =>
    ({ retry: message?.retry, ack: message?.ack, attempts: message?.attempts, id: message?.id }));
  if (typeof fields.retry !== "function" || typeof fields.ack !== "function") throw invalid(TYPE, "message", expected, message);
  const o = readOptions(options, MESSAGE_OPTIONS);
  const onExhausted = o.onExhausted ?? "retry";
  if (onExhausted !== "retry" && onExhausted !== "ack") {
    throw invalid(TYPE, "onExhausted", '"retry" or "ack"', o.onExhausted);
  }
  const p = Backoff.from(policy);
  const attempts = count("message.attempts", fields.attempts);
  const retryAfter = o.retryAfter;
  if (retryAfter !== undefined && retryAfter !== null && typeof retryAfter !== "string" && typeof retryAfter !== "object") {
    throw invalid(TYPE, "retryAfter", "a Retry-After value, Headers or a Response", retryAfter);
  }
  const floor = retryAfterMs(retryAfter as RetryAfterInput);
  if (onExhausted === "ack" && p.attempts !== undefined && attempts >= p.attempts) {
    message.ack();
    return undefined;
  }
  let seconds = queueRetryDelaySeconds(keyed(p, fields.id, "message.id"), attempts);
  // The same rounding (up) and ceiling as the policy's wait; a server's wait too long for a
  // number (hundreds of digits: Infinity) is the ceiling, not a policy error.
  if (floor !== undefined) seconds = Math.max(seconds, delaySeconds(floor));
  message.retry({ delaySeconds: seconds });
  return seconds;
}

/**
 * A BullMQ custom backoff strategy from a policy, for a worker's
 * `settings.backoffStrategy`; a job opts in with `backoff: { type: "custom" }`
 * (any type BullMQ has no built-in for reaches this strategy) and needs
 * `attempts` > 1, BullMQ's own bound on attempts.
 *
 * BullMQ calls it after a failed attempt with `attemptsMade`, the attempts made
 * so far including the failed one (1 after the first failure), so the wait is
 * `policy.delay(attemptsMade)`, rounded up to whole ms. It is keyed by the job's
 * queue and id when the policy jitters and has neither `seed` nor `random` of its own
 * (`` policy.seed(`${job.queueName}:${job.id}`).delay(attemptsMade) ``; the id alone for a
 * job without `queueName`): every worker of a fleet, and a worker restarted between
 * attempts, computes the same wait for the same job and attempt, and job 1 of one queue
 * does not wait as job 1 of every other queue does (BullMQ numbers jobs from 1 in each).
 *
 * Returns -1 (BullMQ: do not retry, move the job to the failed set, where it
 * stays for inspection or a manual retry) once `attemptsMade` reaches the
 * policy's `maxAttempts`, or for an endless wait (`Infinity`, an uncapped
 * curve's overflow). A wait of 0 (a free attempt) retries at once; a -0 wait
 * (a policy with a -0 base) is returned as 0.
 *
 * @param policy a `Backoff`, or a fixed wait (ms or duration text).
 * @returns `(attemptsMade, type, err, job) => ms`; it ignores `type` and `err`
 *   (dispatch on `type` yourself to serve several custom strategies).
 * @throws TypeError/RangeError for a bad policy (at once); the strategy throws
 *   RangeError for an `attemptsMade` that is not an integer >= 1 and TypeError
 *   for a job without an id, or with a `queueName` that is not a string, when keying.
 * @example
 * new Worker("webhooks", send, { connection, settings: { backoffStrategy: bullmqBackoff(policy) } });
 */
export function bullmqBackoff(policy: RetryPolicy): BullBackoffStrategy {
  const p = Backoff.from(policy);
  return function backoffStrategy(attemptsMade: number, _type?: string, _err?: unknown, job?: BullJobLike): number {
    count("attemptsMade", attemptsMade);
    if (p.attempts !== undefined && attemptsMade >= p.attempts) return -1;
    const [id, queue] = readable("job", "a BullMQ job whose id can be read", job, () =>
      (typeof job === "object" && job !== null ? [job.id, job.queueName] : []));
    if (queue !== undefined && typeof queue !== "string") throw invalid(TYPE, "job.queueName", "a string", queue);
    // The queue's name with a usable id (a bad id is still named as job.id).
    const key = queue !== undefined && (typeof id === "string" || typeof id === "number") ? `${queue}:${id}` : id;
    const ms = keyed(p, key, "job.id").delay(attemptsMade);
    // `+ 0`: a -0 wait (a -0 base) is returned as 0, a count of ms (BullMQ retries at once
    // on either: it delays the job only for a truthy wait).
    return ms === Infinity ? -1 : Math.ceil(ms) + 0;
  };
}
