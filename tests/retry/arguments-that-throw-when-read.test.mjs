// docs/API.md sections 5, 7, 8, 10: an argument that throws when it is read (a revoked
// Proxy, a throwing getter) gets the package's own error — the documented class, naming
// the argument, the engine's error as `cause` — not the engine's "Cannot perform 'get' on
// a proxy that has been revoked" or the getter's own error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { retry, fetchWithRetry, serverDelayMs, queueRetryDelaySeconds } from "../../pkg/dist/esm/retry.js";
import { retryMessage, bullmqBackoff } from "../../pkg/dist/esm/queues.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";

const revoked = () => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
};
/** `base` (default `{}`) with a getter `key` that throws. */
const throwing = (key, base = {}) => Object.defineProperty(base, key, { get() { throw new Error("getter failed"); } });
const fail = () => { throw new Error("x"); };
const message = (o) => ({ id: "m1", attempts: 1, retry() {}, ack() {}, ...o });
const policy = Backoff.exponential("1 second").jitter(0.5).maxAttempts(5);

/** The error is `cls`, its message starts with `start`, and it is not the engine's. */
const ours = (cls, start) => (e) => {
  assert.ok(e instanceof cls, `${e?.constructor?.name}: ${e?.message}`);
  assert.ok(e.message.startsWith(start), e.message);
  assert.doesNotMatch(e.message, /proxy that has been revoked|getter failed/);
  return true;
};

test("sync entries: a revoked or throwing argument is the package's TypeError naming it", () => {
  const cases = [
    ["Backoff.from(revoked)", () => Backoff.from(revoked()), "policy must be"],
    ["queueRetryDelaySeconds(revoked, 1)", () => queueRetryDelaySeconds(revoked(), 1), "policy must be"],
    ["bullmqBackoff(revoked)", () => bullmqBackoff(revoked()), "policy must be"],
    ["retryMessage(revoked, policy)", () => retryMessage(revoked(), policy), "message must be"],
    ["retryMessage(throwing attempts)", () => retryMessage(throwing("attempts", message()), policy), "message must be"],
    ["retryMessage(throwing id)", () => retryMessage(throwing("id", message()), policy), "message must be"],
    ["retryMessage(msg, revoked)", () => retryMessage(message(), revoked()), "policy must be"],
    ["retryMessage(msg, policy, revoked)", () => retryMessage(message(), policy, revoked()), "options must be"],
    ["bullmq strategy, revoked job", () => bullmqBackoff(policy)(1, "custom", null, revoked()), "job must be"],
    ["bullmq strategy, throwing job.id", () => bullmqBackoff(policy)(1, "custom", null, throwing("id")), "job must be"],
    ["serverDelayMs(revoked)", () => serverDelayMs(revoked()), "headers must be"],
    // Not a silent "no server wait": retryAfterMs already throws for these.
    ["serverDelayMs(throwing headers)", () => serverDelayMs(throwing("headers")), "headers must be"],
    ["serverDelayMs(throwing get)", () => serverDelayMs({ get() { throw new Error("getter failed"); } }), "headers must be"],
    ["serverDelayMs({ headers: revoked })", () => serverDelayMs({ headers: revoked() }), "headers must be"],
  ];
  for (const [label, f, start] of cases) assert.throws(f, ours(TypeError, start), label);
});

test("a bad fixed wait where a policy goes names the policy, not `interval`", () => {
  assert.throws(() => Backoff.from(-1), ours(RangeError, "policy must be"));
  assert.throws(() => queueRetryDelaySeconds("soon", 1), ours(RangeError, "policy must be"));
  assert.throws(() => bullmqBackoff(Number.NaN), ours(RangeError, "policy must be"));
  assert.throws(() => retryMessage(message(), -5), ours(RangeError, "policy must be"));
});

test("promise entries reject with the package's TypeError for a revoked signal, budget, input or init", async () => {
  await assert.rejects(retry(fail, 1, { retries: 1, signal: revoked() }), ours(TypeError, "signal must be"));
  await assert.rejects(retry(fail, 1, { retries: 1, signal: throwing("aborted") }), ours(TypeError, "signal must be"));
  await assert.rejects(retry(fail, 1, { retries: 1, budget: revoked() }), ours(TypeError, "budget must be"));
  await assert.rejects(retry(fail, 1, { retries: 1, budget: throwing("deposit") }), ours(TypeError, "budget must be"));
  await assert.rejects(fetchWithRetry(revoked(), undefined, { retries: 0 }), ours(TypeError, "input must be"));
  await assert.rejects(fetchWithRetry("http://127.0.0.1:1/", revoked(), { retries: 0 }), ours(TypeError, "init must be"));
});

// One rule for every function of the package's own: an option read through a
// throwing getter, or options that are a revoked Proxy, give the package's TypeError naming
// the argument ("<name> must be … that can be read" / "… whose keys can be listed") with the
// engine's error as `cause`; a promise-returning function rejects with it (never throws).
// The mirrored Sigil functions keep passing the raw error, as @sigil/core does.
/** An options object whose own enumerable `key` is a getter that throws. */
const getter = (key) => Object.defineProperty({}, key, { enumerable: true, get() { throw new Error("getter failed"); } });
/** `ours` for `start`, and the `cause` is what the getter (or the Proxy) threw. */
const wrapped = (start, causeMessage) => (e) => {
  ours(TypeError, start)(e);
  assert.ok(e.cause instanceof Error, `cause: ${e.cause}`);
  if (causeMessage) assert.equal(e.cause.message, causeMessage);
  return true;
};

test("options read through a throwing getter: every function of the package's own wraps the error", async () => {
  const { createRetryBudget, sleep } = await import("../../pkg/dist/esm/retry.js");
  const { scheduleSvg } = await import("../../pkg/dist/esm/chart.js");
  const read = "options must be an object that can be read; received an object";
  const sync = [
    ["createRetryBudget(throwing ratio)", () => createRetryBudget(getter("ratio")), read],
    ["scheduleSvg(throwing width)", () => scheduleSvg(policy, getter("width")), read],
    ["retryMessage(throwing retryAfter)", () => retryMessage(message(), policy, getter("retryAfter")), read],
    ["scheduleSvg(revoked)", () => scheduleSvg(policy, revoked()), "options must be an object whose keys can be listed; received an object"],
  ];
  for (const [label, f, text] of sync) {
    assert.throws(f, wrapped(text, text.includes("keys") ? undefined : "getter failed"), label);
    assert.throws(f, (e) => e.message === text, label);
  }
  const lazy = [
    ["retry(fn, policy, throwing retries)", () => retry(fail, 1, getter("retries")), read],
    ["retry(fn, a policy with a throwing key)", () => retry(fail, getter("retries")), "policy must be an object that can be read; received an object"],
    ["retry(fn, policy, { deadline: throwing afterMs })", () => retry(fail, 1, { retries: 1, deadline: getter("afterMs") }), "deadline must be an object that can be read; received an object"],
    ["fetchWithRetry(throwing options)", () => fetchWithRetry("http://127.0.0.1:1/", undefined, getter("retries")), read],
    ["fetchWithRetry(throwing init value)", () => fetchWithRetry("http://127.0.0.1:1/", getter("retries"), { retries: 0 }), "init must be an object that can be read; received an object"],
    ["sleep(1, throwing signal)", () => sleep(1, getter("signal")), read],
  ];
  for (const [label, f, text] of lazy) {
    let p;
    assert.doesNotThrow(() => { p = f(); }, label);
    await assert.rejects(p, wrapped(text, "getter failed"), label);
    await assert.rejects(f(), (e) => e.message === text, label);
  }
});

test("the mirrored Sigil functions pass a throwing getter's error as it is (as @sigil/core does)", async () => {
  const { nextDelayMs, retrySchedule } = await import("../../pkg/dist/esm/sigil.js");
  assert.throws(() => nextDelayMs(1, getter("baseDelayMs")), (e) => e.message === "getter failed");
  assert.throws(() => retrySchedule(getter("baseDelayMs")), (e) => e.message === "getter failed");
});
