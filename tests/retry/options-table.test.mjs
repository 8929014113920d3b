// The table of docs/guides/options.md is the rule of every entry point that takes options.
// Each row whose rule is "ours" is checked here, for each function it names: the options the
// table lists are the ones the function takes (its unknown-key error lists them), an own
// enumerable key that is no option is a TypeError naming it, an inherited key that is no option
// is ignored, and an option counts when inherited and when a getter, read once either way (a
// bad value given so is the function's error naming the option; a good one is read once).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { retry, fetchWithRetry, sleep, createRetryBudget, redisBudgetStore, durableObjectBudgetStore } from "../../pkg/dist/esm/retry.js";
import { retryMessage } from "../../pkg/dist/esm/queues.js";
import { scheduleSvg } from "../../pkg/dist/esm/chart.js";

const table = readFileSync(new URL("../../docs/guides/options.md", import.meta.url), "utf8")
  .split("\n").filter((l) => l.startsWith("| `") || l.startsWith("| the "))
  .map((l) => l.split("|").slice(1, -1).map((c) => c.trim()))
  .map(([entry, fns, argument, rule, options]) => ({ entry, fns: [...fns.matchAll(/`([^`]+)`/g)].map((m) => m[1]), argument, rule, options }));
const ours = table.filter((r) => r.rule === "ours");

const message = () => ({ id: "m", attempts: 1, retry() {}, ack() {} });
const namespace = { idFromName: (n) => n, get: () => ({ fetch: async () => new Response("{}") }) };
/** A port nothing listens on: a fetch fails at once (a network error). */
const NOWHERE = "http://127.0.0.1:9/";

/**
 * How to call each function with an options object `o` of a row, by the row's argument: the
 * call, the option used as a sample with a value the function takes and one it refuses, and
 * the words its unknown-key error starts with.
 */
const HARNESS = {
  options: {
    retry: { call: (o) => retry(() => "ok", 0, o), option: "retries", good: 0, bad: -1 },
    fetchWithRetry: { call: (o) => fetchWithRetry(NOWHERE, undefined, o), option: "retries", good: 0, bad: -1 },
    sleep: { call: (o) => sleep(0, o), option: "signal", good: new AbortController().signal, bad: 5 },
    createRetryBudget: { call: (o) => createRetryBudget(o), option: "ratio", good: 0.5, bad: -1 },
    redisBudgetStore: { call: (o) => redisBudgetStore({ sendCommand: async () => 1 }, o), option: "key", good: "k", bad: 5 },
    durableObjectBudgetStore: { call: (o) => durableObjectBudgetStore(namespace, o), option: "name", good: "n", bad: 5 },
    retryMessage: { call: (o) => retryMessage(message(), 1, o), option: "onExhausted", good: "retry", bad: "never" },
    scheduleSvg: { call: (o) => scheduleSvg(1000, o), option: "width", good: 640, bad: 1 },
  },
  "`deadline` (an option)": {
    retry: { call: (o) => retry(() => "ok", 0, { retries: 0, deadline: o }), option: "afterMs", good: 60_000, bad: -5, prefix: "deadline option" },
    fetchWithRetry: { call: (o) => fetchWithRetry(NOWHERE, undefined, { retries: 0, deadline: o }), option: "afterMs", good: 60_000, bad: -5, prefix: "deadline option" },
  },
};
HARNESS["`options` (third)"] = HARNESS.options;
HARNESS["`options`"] = HARNESS.options;

/** What the call gives: its error, or undefined when it returns or resolves (fetchWithRetry's RetryError on a dead port counts as a call that ran). */
async function outcome(call) {
  try {
    await call();
  } catch (e) {
    return e?.name === "RetryError" ? undefined : e;
  }
  return undefined;
}

test("the table lists every function of the package's own that takes options", () => {
  const checked = new Set(ours.flatMap((r) => r.fns));
  for (const fn of ["retry", "fetchWithRetry", "sleep", "createRetryBudget", "redisBudgetStore", "durableObjectBudgetStore", "retryMessage", "scheduleSvg"]) {
    assert.ok(checked.has(fn), `${fn} has a row whose rule is "ours"`);
  }
});

for (const row of ours) {
  for (const fn of row.fns) {
    test(`${fn}, ${row.argument}: read by the rule "ours" (docs/guides/options.md)`, async () => {
      const h = HARNESS[row.argument]?.[fn];
      assert.ok(h, `the test has no harness for ${fn}'s ${row.argument}`);
      const prefix = h.prefix ?? "option";

      // The options the table lists are the function's (its unknown-key error lists them).
      const unknown = await outcome(() => h.call({ [h.option]: h.good, notAnOption: 1 }));
      assert.ok(unknown instanceof TypeError, `${fn}: an own unknown key is a TypeError (${unknown})`);
      assert.equal(unknown.message, `${prefix} must be one of ${row.options}; received "notAnOption"`);

      // An inherited key that is no option is ignored.
      const inheritedUnknown = Object.assign(Object.create({ notAnOption: 1 }), { [h.option]: h.good });
      assert.equal(await outcome(() => h.call(inheritedUnknown)), undefined);
      Object.prototype.addedByALibrary = 1;
      try {
        assert.equal(await outcome(() => h.call({ [h.option]: h.good })), undefined);
      } finally {
        delete Object.prototype.addedByALibrary;
      }

      // An inherited option counts, read once: a good value runs, a bad one is the option's error.
      for (const [value, fails] of [[h.good, false], [h.bad, true]]) {
        let reads = 0;
        const proto = { get [h.option]() { reads++; return value; } };
        const viaProto = await outcome(() => h.call(Object.create(proto)));
        const viaOwnGetter = await outcome(() => h.call(Object.defineProperty({}, h.option, { enumerable: true, get: () => (reads++, value) })));
        assert.equal(reads, 2, `${fn}: the inherited getter and the own getter of ${h.option} ran once each`);
        for (const e of [viaProto, viaOwnGetter]) {
          if (!fails) assert.equal(e, undefined);
          else {
            assert.ok(e instanceof TypeError || e instanceof RangeError, `${fn}: ${e}`);
            assert.ok(e.message.includes(h.option), `${fn}: the error names ${h.option}: ${e.message}`);
          }
        }
      }
    });
  }
}
