// The table of docs/guides/options.md is the rule of every entry point that takes options.
// Each row whose rule is "ours" is checked here, for each function it names: the options the
// table lists are the ones the function takes (its unknown-key error lists them, and each is
// read by its name, once), an own enumerable key that is no option is a TypeError naming it, an
// inherited key that is no option is ignored, and an option counts when inherited and when a
// getter, read once either way (a bad value given so is the function's error naming the
// option; a good one is read once). backoff-wasm/p-retry's row is checked against p-retry
// itself; the functions of the rows that take no options take no argument.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import pRetry from "p-retry";
import mirror from "../../pkg/dist/esm/p-retry.js";
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
 * call, the options given as own keys to every call of the test (`base`, for a call that ends
 * at once), the samples (an option with a value the function takes and one it refuses), and
 * the words its unknown-key error starts with.
 */
const HARNESS = {
  options: {
    retry: {
      call: (o) => retry(() => "ok", 0, o), base: { retries: 0 },
      samples: [["retries", 0, -1], ["attemptTimeout", "1 second", 0]],
    },
    fetchWithRetry: {
      call: (o) => fetchWithRetry(NOWHERE, undefined, o), base: { retries: 0 },
      samples: [["retries", 0, -1], ["attemptTimeout", "1 second", 0], ["idempotencyKey", "key-1", 5]],
    },
    sleep: { call: (o) => sleep(0, o), samples: [["signal", new AbortController().signal, 5]] },
    createRetryBudget: { call: (o) => createRetryBudget(o), samples: [["ratio", 0.5, -1]] },
    redisBudgetStore: { call: (o) => redisBudgetStore({ sendCommand: async () => 1 }, o), base: { key: "k" }, samples: [["key", "k", 5]] },
    durableObjectBudgetStore: { call: (o) => durableObjectBudgetStore(namespace, o), base: { name: "n" }, samples: [["name", "n", 5]] },
    retryMessage: { call: (o) => retryMessage(message(), 1, o), samples: [["onExhausted", "retry", "never"]] },
    scheduleSvg: { call: (o) => scheduleSvg(1000, o), samples: [["width", 640, 1]] },
  },
  "`deadline` (an option)": {
    retry: { call: (o) => retry(() => "ok", 0, { retries: 0, deadline: o }), base: { afterMs: 60_000 }, samples: [["afterMs", 60_000, -5]], prefix: "deadline option" },
    fetchWithRetry: {
      call: (o) => fetchWithRetry(NOWHERE, undefined, { retries: 0, deadline: o }), base: { afterMs: 60_000 }, samples: [["afterMs", 60_000, -5]], prefix: "deadline option",
    },
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
      const base = h.base ?? {};

      // The options the table lists are the function's (its unknown-key error lists them).
      const unknown = await outcome(() => h.call({ ...base, notAnOption: 1 }));
      assert.ok(unknown instanceof TypeError, `${fn}: an own unknown key is a TypeError (${unknown})`);
      assert.equal(unknown.message, `${prefix} must be one of ${row.options}; received "notAnOption"`);

      // Each of them is read by its name, once: an inherited getter of every option not in
      // `base` (answering undefined, not given) runs once.
      const listed = row.options.split(", ");
      const reads = Object.fromEntries(listed.filter((k) => !(k in base)).map((k) => [k, 0]));
      const proto = {};
      for (const k of Object.keys(reads)) Object.defineProperty(proto, k, { enumerable: true, get: () => void reads[k]++ });
      assert.equal(await outcome(() => h.call(Object.assign(Object.create(proto), base))), undefined);
      assert.deepEqual(reads, Object.fromEntries(Object.keys(reads).map((k) => [k, 1])), `${fn}: each option read once`);

      // An inherited key that is no option is ignored.
      const inheritedUnknown = Object.assign(Object.create({ notAnOption: 1 }), base);
      assert.equal(await outcome(() => h.call(inheritedUnknown)), undefined);
      Object.prototype.addedByALibrary = 1;
      try {
        assert.equal(await outcome(() => h.call({ ...base })), undefined);
      } finally {
        delete Object.prototype.addedByALibrary;
      }

      // An inherited option counts, read once: a good value runs, a bad one is the option's error.
      for (const [option, good, bad] of h.samples) {
        assert.ok(listed.includes(option), `${fn}: the table lists ${option}`);
        const rest = { ...base };
        delete rest[option];
        for (const [value, fails] of [[good, false], [bad, true]]) {
          let n = 0;
          const viaProto = await outcome(() => h.call(Object.assign(Object.create({ get [option]() { n++; return value; } }), rest)));
          const viaOwnGetter = await outcome(() => h.call(Object.defineProperty({ ...rest }, option, { enumerable: true, get: () => (n++, value) })));
          assert.equal(n, 2, `${fn}: the inherited getter and the own getter of ${option} ran once each`);
          for (const e of [viaProto, viaOwnGetter]) {
            if (!fails) assert.equal(e, undefined, `${fn}: ${option}: ${e}`);
            else {
              assert.ok(e instanceof TypeError || e instanceof RangeError, `${fn}: ${e}`);
              assert.ok(e.message.includes(option), `${fn}: the error names ${option}: ${e.message}`);
            }
          }
        }
      }
    });
  }
}

test("the functions of the rows that take no options take no argument (a budget's deposit, tryWithdraw, flush)", async () => {
  const rows = table.filter((r) => r.argument.startsWith("(none: they take no arguments)"));
  assert.ok(rows.length > 0);
  const budget = createRetryBudget();
  for (const fn of rows.flatMap((r) => r.fns)) {
    assert.equal(typeof budget[fn], "function", fn);
    assert.equal(budget[fn].length, 0, fn);
  }
  assert.equal(await budget.flush(), undefined);
});

test("backoff-wasm/p-retry's row: options read as p-retry 9.0.0 copies them (own keys, once; inherited options and unknown keys ignored)", async () => {
  const row = table.find((r) => r.entry === "`backoff-wasm/p-retry`");
  assert.deepEqual(row.fns, ["pRetry", "makeRetriable"]);
  assert.match(row.rule, /^mirrored: as p-retry 9\.0\.0 copies them/);
  const seen = [];
  for (const impl of [pRetry, mirror]) {
    let reads = 0;
    let calls = 0;
    const fails = () => { if (++calls < 3) throw new Error(`failure ${calls}`); return "ok"; };
    // An inherited `retries: 0` is not seen (3 attempts run); an own unknown key is ignored;
    // an own getter runs as many times in both.
    const options = Object.assign(Object.create({ retries: 0 }), { notAnOption: 1 });
    Object.defineProperty(options, "minTimeout", { enumerable: true, get: () => (reads++, 0) });
    const value = await impl(fails, options);
    seen.push({ value, calls, reads });
  }
  assert.deepEqual(seen[1], seen[0]);
  assert.deepEqual(seen[0], { value: "ok", calls: 3, reads: 1 });
});
