// Bad, hostile and extreme input at every entry point, and what it gets: a fluent step
// given undefined names what it would drop; a non-number `now`; retry options in the
// RequestInit; received values cut in messages; options, arrays, policies and random
// sources behind revoked Proxies or throwing getters; waits that overflow to Infinity
// in the chart; Retry-After beyond 2^53; the CLI's usage lines.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as esm from "../../pkg/dist/esm/index.js";

const require = createRequire(import.meta.url);
const cjs = require("../../pkg/dist/cjs/index.js");
const bin = fileURLToPath(new URL("../../pkg/bin/backoff-wasm.js", import.meta.url));

test("fluent bounds reject undefined instead of silently dropping an earlier bound", () => {
  const p = esm.Backoff.exponential(1000).cap("1 minute").jitter(0.1).seed("s").maxAttempts(4).free(1);
  for (const [bound, call] of [
    ["cap", () => p.cap(undefined)], ["maxAttempts", () => p.maxAttempts(undefined)], ["jitter", () => p.jitter(undefined)],
    ["free", () => p.free(undefined)], ["seed", () => p.seed(undefined)], ["random", () => esm.Backoff.fixed(1).random(undefined)],
  ]) {
    assert.throws(call, { name: "TypeError", message: new RegExp(`^${bound} must be given`) }, bound);
  }
  assert.equal(p.bounds(21).nominal, 60_000, "the receiver keeps its cap");
});

test("at() never throws on a number (contract: `delay` and `at` accept any number); a non-number now is a TypeError", () => {
  const p = esm.Backoff.fixed(100);
  assert.equal(p.at(1, 1000), 1100);
  assert.equal(p.at(1, -0), 100);
  assert.ok(Number.isNaN(p.at(1, NaN)));
  assert.equal(p.at(1, Infinity), Infinity);
  assert.equal(p.at(1, -Infinity), -Infinity);
  assert.equal(p.at(NaN, 5), 5);
  assert.equal(esm.createBackoff({ base: 1000 }).at(3, 1700000000000), 1700000004000);
  assert.throws(() => p.at(1, "5"), { name: "TypeError", message: 'now must be a number of ms since the epoch; received "5"' });
  assert.throws(() => p.at(1, 5n), { name: "TypeError", message: /^now must be a number of ms since the epoch; received/ });
});

test("fetchWithRetry refuses retry options passed as the RequestInit", async () => {
  await assert.rejects(esm.fetchWithRetry("http://127.0.0.1:9/", { retries: 3 }), { name: "TypeError", message: /^init\.retries must be passed in the third argument/ });
  await assert.rejects(esm.fetchWithRetry("http://127.0.0.1:9/", { policy: 5 }), { name: "TypeError", message: /^init\.policy / });
});

test("CLI: a bad option value is one line naming the option, exit 2", () => {
  for (const [args, text] of [
    [["schedule", "--bogus"], "backoff-wasm: Unknown option '--bogus' (backoff-wasm schedule --help lists the options)"],
    [["schedule", "--seed", "x"], "backoff-wasm: --seed keys the jitter draws; give --jitter too"],
    [["schedule", "--chart", "--format", "json"], "backoff-wasm: --chart draws instead of a table; it cannot be combined with --format json"],
    [["schedule", "--steps", "1,x"], 'backoff-wasm: --steps: steps[1] must be a non-negative finite duration (ms, or text such as "5 seconds"); received "x"'],
    [["schedule", "--attempts", "1000000000"], "backoff-wasm: --attempts: maxAttempts must be an integer from 1 to 1000001 for a whole schedule (iterate the policy for longer ones); received 1000000000"],
    // A count a double cannot hold: the message quotes what was typed, not the rounded number.
    [["schedule", "--attempts", "9007199254740993"], 'backoff-wasm: --attempts must be a whole number below 2^53 (9007199254740992); received "9007199254740993"'],
    [["schedule", "--free", "18014398509481985"], 'backoff-wasm: --free must be a whole number below 2^53 (9007199254740992); received "18014398509481985"'],
    // A count is plain decimal digits: exponent forms are refused before their size is read.
    [["schedule", "--free", "9007199254740993e0"], 'backoff-wasm: --free must be a whole number in plain decimal digits; received "9007199254740993e0"'],
    [["schedule", "--attempts", "1e20"], 'backoff-wasm: --attempts must be a whole number in plain decimal digits; received "1e20"'],
    // The default ceiling is not something the user typed: the message names --base and the default.
    [["schedule", "--base", "2h"], "backoff-wasm: --base 2h is above the default --max (1 h); give --max (or --max none)"],
    [["schedule", "--base", "10", "--max", "5"], "backoff-wasm: --max: max must be a duration >= base; received 5"],
  ]) {
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
    assert.equal(r.status, 2, args.join(" "));
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, text + "\n");
  }
  const svg = spawnSync(process.execPath, [bin, "schedule", "--svg", "/nonexistent/dir/x.svg"], { encoding: "utf8" });
  assert.equal(svg.status, 2);
  assert.equal(svg.stdout, "", "nothing printed before the failure");
  assert.match(svg.stderr, /^backoff-wasm: --svg: cannot write "\/nonexistent\/dir\/x\.svg": ENOENT/);
  // --seed is keyed jitter: the CLI prints what createBackoff({ ..., seed }) computes
  const keyed = spawnSync(process.execPath, [bin, "schedule", "--format", "json", "--jitter", "0.2", "--seed", "demo", "--attempts", "4"], { encoding: "utf8" });
  const delays = JSON.parse(keyed.stdout).retries.map((r) => r.delayMs);
  assert.deepEqual(delays, esm.createBackoff({ base: 1000, max: 3_600_000, jitter: 0.2, seed: "demo", maxAttempts: 4 }).schedule());
});

// Messages, constructors, classes and numbers at their limits.

test("a long received value is cut in the message: its first 100 code units and its length", () => {
  const long = "a".repeat(1_000_000);
  assert.throws(() => esm.createBackoff({ base: long }), {
    name: "RangeError",
    message: `base must be a non-negative finite duration (ms, or text such as "5 seconds"); received "${"a".repeat(100)}"… (1000000 characters)`,
  });
  assert.throws(() => esm.nextDelayMs(1, { baseDelayMs: "x".repeat(101) }), (e) => e instanceof esm.SigilError && e.message.endsWith(`received "${"x".repeat(100)}"… (101 characters)`));
  assert.throws(() => esm.createBackoff({ base: "b".repeat(100) }), (e) => e.message.endsWith(`received "${"b".repeat(100)}"`), "100 code units are quoted whole");
  const failure = esm.parseDuration("c".repeat(5000));
  assert.equal(failure.error.text.length, 5000, "the error keeps the whole text");
  assert.equal(failure.error.message, `Invalid duration: "${"c".repeat(5000)}"`, "API.md section 4 fixes this message: the whole text");
});

test("options whose keys cannot be listed (a revoked Proxy) get the package's error; parse never throws", () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.throws(() => esm.nextDelayMs(1, proxy), (e) => e instanceof esm.SigilError && e.code === "invalid_argument" && e.message === "options must be an object whose keys can be listed; received an object");
  assert.throws(() => esm.retrySchedule(proxy), (e) => e instanceof esm.SigilError);
  assert.throws(() => esm.createBackoff(proxy), { name: "TypeError", message: "options must be an object whose keys can be listed; received an object" });
  const r = esm.parseDuration(proxy);
  assert.equal(r.status, "failure");
  assert.equal(r.error.message, "Invalid duration: [object]");
  assert.deepEqual(esm.retrySchedule(), [1000, 2000, 4000, 8000, 16000, 32000, 64000], "the module keeps working");
});

test("new Backoff() is refused like createBackoff() (the constructor is private in the types)", () => {
  for (const B of [esm.Backoff, cjs.Backoff]) {
    assert.throws(() => new B(), { name: "TypeError", message: "options must be an object; received undefined" });
    assert.throws(() => new B("1s"), { name: "TypeError", message: 'options must be an object; received "1s"' });
  }
});

test("CLI --chart with waits that overflow to Infinity: finite rows scaled among themselves, infinite ones full", () => {
  const r = spawnSync(process.execPath, [bin, "schedule", "--chart", "--base", "1", "--factor", "1e300", "--max", "none", "--attempts", "5"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split("\n");
  assert.ok(!r.stdout.includes("undefined") && !r.stdout.includes("NaN"), r.stdout);
  assert.match(lines[1], /^ {4}2 │█{44} 1e\+300 ms$/);
  assert.match(lines[2], /^ {4}3 │█{44} Infinity$/);
  assert.match(lines[0], /^ {4}1 │ {44} 1 ms$/);
});

test("derive(label) refuses a label that is neither a string nor a number", () => {
  const r = esm.createRandom("s");
  assert.throws(() => r.derive(Symbol("x")), { name: "TypeError", message: "label must be a string or a number; received a symbol" });
  assert.equal(r.derive(7).next(), esm.createRandom("s 7").next());
});

test("CLI: a negative value after a space keeps parseArgs' hint to write --flag=value", () => {
  const r = spawnSync(process.execPath, [bin, "schedule", "--base", "-1"], { encoding: "utf8" });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'backoff-wasm: --base argument is ambiguous (for a value starting with "-", write --base=<value>, e.g. --base=-1)\n');
  const eq = spawnSync(process.execPath, [bin, "schedule", "--base=-1"], { encoding: "utf8" });
  assert.equal(eq.status, 2);
  assert.match(eq.stderr, /^backoff-wasm: --base: base must be a non-negative/);
});

test("Retry-After delay-seconds beyond 2^53 are Number(text) * 1000, rounded once", () => {
  for (const text of ["99999999999999999999", "9007199254740993", "123456789012345678901234567890", "0".repeat(400) + "5"]) {
    assert.equal(esm.retryAfterMs(text, 0), Number(text) * 1000, text.slice(0, 40));
  }
});

test("CLI: a repeated option is refused; --version prints the package version", () => {
  const twice = spawnSync(process.execPath, [bin, "schedule", "--base", "1s", "--base", "2s"], { encoding: "utf8" });
  assert.equal(twice.status, 2);
  assert.equal(twice.stderr, "backoff-wasm: --base is given more than once\n");
  const version = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8" });
  assert.equal(version.status, 0);
  const { version: v } = require("../../pkg/package.json");
  assert.equal(version.stdout, `backoff-wasm ${v}\n`);
});

test("code the options run while createBackoff reads them (a steps getter, a random's float getter) cannot hand the new policy another policy's waits", () => {
  const other = () => esm.createBackoff({ base: 7, factor: 3, max: 50, free: 2 }).delay(5);
  const steps = [10, 20, 30];
  Object.defineProperty(steps, 1, { get() { other(); return 20; } });
  const stepped = esm.createBackoff({ steps });
  assert.deepEqual([1, 2, 3, 4].map((n) => stepped.delay(n)), [10, 20, 30, 30]);
  const random = { get float() { other(); return (min, max) => min + 0.5 * (max - min); } };
  const jittered = esm.createBackoff({ base: 1000, factor: 3, jitter: 0.5, random });
  assert.deepEqual([1, 2, 3].map((n) => jittered.delay(n)), [1000, 3000, 9000]);
  const fluent = esm.Backoff.exponential(1000, 3).jitter(0.5).random(random);
  assert.deepEqual([1, 2, 3].map((n) => fluent.delay(n)), [1000, 3000, 9000]);
});

test("an object that only inherits from a policy, or a Proxy of one, is not a policy: the package's TypeError naming policy, not V8's private-member error", () => {
  const p = esm.Backoff.fixed(100);
  for (const fake of [Object.create(p), new Proxy(p, {})]) {
    assert.throws(() => esm.Backoff.from(fake), { name: "TypeError", message: /^policy must be a Backoff, a number of ms or duration text; received an object$/ });
    assert.throws(() => esm.queueRetryDelaySeconds(fake, 1), { name: "TypeError", message: /^policy must be/ });
  }
  // A policy of the other copy is still taken (rebuilt from its options).
  assert.equal(esm.Backoff.from(cjs.Backoff.fixed(100)).delay(3), 100);
});

test("createBackoff: a getter that throws is reported as unreadable options with its error as cause; a bigint attempt is the package's TypeError", () => {
  const boom = new Error("boom");
  assert.throws(() => esm.createBackoff({ get base() { throw boom; } }), (e) => {
    assert.equal(e.name, "TypeError");
    assert.equal(e.message, "options must be an object whose options can be read; received an object");
    assert.equal(e.cause, boom);
    return true;
  });
  const p = esm.createBackoff({ base: 1000 });
  assert.throws(() => p.delay(10n), { name: "TypeError", message: "attempt must be a number; received a bigint" });
  assert.throws(() => p.at(10n, 0), { name: "TypeError", message: "attempt must be a number; received a bigint" });
  assert.throws(() => cjs.createBackoff({ base: 1000, jitter: 0.5, seed: "k" }).delay(2n), { name: "TypeError", message: "attempt must be a number; received a bigint" });
});

test("a bigint or symbol attempt is the package's TypeError for delay, at and bounds alike", () => {
  const p = esm.createBackoff({ base: 1000, jitter: 0.5, seed: "k" });
  for (const attempt of [10n, Symbol("n")]) {
    const message = `attempt must be a number; received a ${typeof attempt}`;
    assert.throws(() => p.delay(attempt), { name: "TypeError", message });
    assert.throws(() => p.at(attempt, 0), { name: "TypeError", message });
    assert.throws(() => p.bounds(attempt), { name: "TypeError", message });
  }
});

test("a fluent policy without an interval says what the interval must be (it takes no steps)", () => {
  const message = 'interval must be a non-negative finite duration (ms, or text such as "5 seconds"); received undefined';
  assert.throws(() => esm.Backoff.fixed(), { name: "TypeError", message });
  assert.throws(() => esm.Backoff.exponential(undefined), { name: "TypeError", message });
  assert.throws(() => esm.createBackoff({}), { name: "TypeError", message: "base must be given (or steps instead); received undefined" });
});

test("the options a policy hands out under its global Symbol.for key are frozen to the steps: no one can change a policy's waits", () => {
  const caller = [10, 20, 30];
  const p = esm.createBackoff({ steps: caller, jitter: 0 });
  caller[2] = 999;
  const options = p[Symbol.for("backoff-wasm.Backoff.options")]();
  assert.ok(Object.isFrozen(options));
  assert.throws(() => { "use strict"; options.steps[2] = 555; }, TypeError);
  assert.deepEqual(p.maxAttempts(4).schedule(), [10, 20, 30]);
  assert.deepEqual(p.jitter(0).maxAttempts(4).schedule(), [10, 20, 30]);
  assert.deepEqual(p.toJSON().steps, [10, 20, 30]);
});

test("createBackoff: a steps array whose length or item throws when read is the TypeError naming steps, with the cause", () => {
  const item = Object.defineProperty([1, 2], "1", { get() { throw new Error("e1"); } });
  assert.throws(() => esm.createBackoff({ steps: item }), (e) => e instanceof TypeError && e.message.startsWith("steps must be an array whose items can be read; received ") && e.cause?.message === "e1");
  const length = new Proxy([1, 2], { get(t, k) { if (k === "length") throw new Error("len"); return t[k]; } });
  assert.throws(() => esm.createBackoff({ steps: length }), (e) => e instanceof TypeError && e.cause?.message === "len");
  assert.deepEqual(esm.createBackoff({ steps: [1, 2] }).maxAttempts(4).schedule(), [1, 2, 2]);
});

test("a fluent step given undefined names the setting it would drop (not always a bound)", () => {
  const p = esm.Backoff.exponential(100);
  for (const key of ["cap", "maxAttempts", "jitter", "seed", "random", "free"]) {
    assert.throws(() => p[key](undefined), { name: "TypeError", message: `${key} must be given (undefined would silently drop the policy's ${key}); received undefined` });
  }
});

test("a revoked Proxy where an array or a policy is expected: the package's TypeError with the engine's error as cause", async () => {
  const r = Proxy.revocable([], {});
  r.revoke();
  const withCause = (pattern) => (e) => e instanceof TypeError && pattern.test(e.message) && e.cause instanceof TypeError;
  assert.throws(() => esm.createRandom(1).pick(r.proxy), withCause(/^items must be an array whose length and items can be read; received an object$/));
  assert.throws(() => esm.createRandom(1).shuffle(r.proxy), withCause(/^items must be an array whose length and items can be read; received an object$/));
  assert.throws(() => esm.restoreRandom({ seed: 1, words: r.proxy }), withCause(/^state must be an object \{ seed, words \} that can be read; received an object$/));
  await assert.rejects(esm.retry(() => 1, r.proxy), withCause(/^policy must be a Backoff, a duration \(ms or duration text\) or createBackoff options that can be read; received an object$/));
  await assert.rejects(esm.fetchWithRetry("http://127.0.0.1:9/", {}, { policy: r.proxy }), withCause(/^policy must be a Backoff, a duration \(ms or duration text\) or createBackoff options that can be read; received an object$/));
  // Unchanged for readable values.
  assert.equal(esm.createRandom(1).pick(["only"]), "only");
  assert.deepEqual(esm.createRandom(1).shuffle([]), []);
});
