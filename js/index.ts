/**
 * `backoff-wasm`: every entry point in one import. Duration's `parse` is
 * `parseDuration` here, Sigil's options type is `SigilBackoffOptions`
 * (`BackoffOptions` is `createBackoff`'s), and `backoff-wasm/p-retry`'s default export is
 * `pRetry` (its types are that entry point's).
 * @module
 */
export {
  MAX_ATTEMPTS, BASE_DELAY_MS, MAX_DELAY_MS, nextDelayMs, retrySchedule, totalRetryWindowMs, seededRandom,
  SigilError, type SigilErrorCode, type BackoffOptions as SigilBackoffOptions, type RetryScheduleOptions,
} from "./policy/sigil.js";
export {
  createBackoff, Backoff, type BackoffOptions, type BackoffCurveOptions, type BackoffStepsOptions,
  type BackoffSharedOptions, type BackoffJSON, type BackoffCurveJSON, type BackoffStepsJSON, type Jitter,
} from "./policy/backoff.js";
export {
  createRandom, restoreRandom, systemRandom, systemSeed, RANDOM_STATE_SCHEMA, type Random, type SeededRandom, type RandomState,
  type Seed, type RandomStateSchema, type RandomStateResult, type RandomStateIssue,
} from "./policy/random.js";
export {
  parse as parseDuration, toMs, toSeconds, InvalidDurationError, type DurationInput, type DurationString,
  type DurationUnit, type DurationUnitShort, type ParseResult,
} from "./policy/duration.js";
export { scheduleSvg, type ScheduleSvgOptions } from "./tools/chart.js";
export {
  retry, fetchWithRetry, retryAfterMs, sleep, queueRetryDelaySeconds, AbortError, RetryError, serverDelayMs,
  createRetryBudget, type RetryBudget, type RetryBudgetOptions, type AbortSignalLike, type RetryPolicy,
  type RetryPolicyInput, type RetryContext, type RetryEvent, type RetryOptions, type FetchRetryOptions, type RetryAfterInput,
  type SleepOptions, type FailedAttemptContext, type RetryStopReason,
  type RetryBudgetStore, type RetryBudgetRule, type RetryBudgetWithdrawal, redisBudgetStore, type RedisClientLike,
  type RedisBudgetStoreOptions, RetryBudgetObject, durableObjectBudgetStore, type DurableObjectNamespaceLike,
  type DurableObjectBudgetStoreOptions, type ResponseLikeBudget,
} from "./runtime/retry.js";
export {
  retryMessage, bullmqBackoff, type QueueMessageLike, type RetryMessageOptions, type OnExhausted, type BullJobLike,
  type BullBackoffStrategy,
} from "./queues/queues.js";
export { default as pRetry, makeRetriable } from "./p-retry/p-retry.js";
