// createRetryBudget: exact arithmetic of the rule, and a budget with a store (stores written
// here that fail in each way a real one can: a rejection, a throw, no answer, a bad answer).
import { test } from "node:test";
import assert from "node:assert/strict";
import { retry, createRetryBudget } from "../../pkg/dist/esm/retry.js";

const fail = () => { throw new Error("down"); };

/**
 * Retries a budget pays for over `calls` failing retry() calls, 1000 at a time (each retried
 * until the budget stops it; every call of a batch deposits before any of them retries).
 */
async function retriesOver(budget, calls) {
  let attempts = 0;
  for (let i = 0; i < calls; i += 1000) {
    const batch = Array.from({ length: 1000 }, () => retry(() => { attempts++; fail(); }, 0, { retries: 100_000, budget }).catch((x) => x));
    for (const e of await Promise.all(batch)) assert.equal(e.reason, "budget");
  }
  return attempts - calls;
}

test("10 000 failing calls pay for exactly ratio × 10 000 retries (0.7 → 7 000, 3 → 30 000, 0.1 → 1 000, 1/3 → 3 333; 100 calls at 1000 → 100 000)", async () => {
  for (const [ratio, want, calls = 10_000] of [[0.7, 7000], [3, 30_000], [0.1, 1000], [1 / 3, 3333], [0.25, 2500], [1000, 100_000, 100]]) {
    // A 60 s window: no deposit expires during the test.
    const budget = createRetryBudget({ ratio, minPerSecond: 0, windowMs: "60 seconds" });
    if (ratio !== 0.7 && ratio !== 3) {
      // Straight on the budget (the same deposits and withdrawals, without the loop around them).
      let r = 0;
      for (let i = 0; i < calls; i++) {
        budget.deposit();
        while (budget.tryWithdraw()) r++;
      }
      assert.equal(r, want);
    } else {
      assert.equal(await retriesOver(budget, 10_000), want, `ratio ${ratio}`);
    }
    assert.equal(budget.balance, 0);
  }
});

test("the reserve is exact too: minPerSecond 7 over 3 s at ratio 0.7 is 21 retries before any call; 10 calls add exactly 7", () => {
  const budget = createRetryBudget({ ratio: 0.7, minPerSecond: 7, windowMs: "3 seconds" });
  assert.equal(budget.balance, 21);
  for (let i = 0; i < 10; i++) budget.deposit();
  assert.equal(budget.balance, 28);
  let r = 0;
  while (budget.tryWithdraw()) r++;
  assert.equal(r, 28);
});

test("a ratio no fraction up to 1/10 000 equals is used as the largest fraction below it: never more retries than ratio × calls", () => {
  for (const ratio of [0.123456789, Math.PI / 10, 0.00001]) {
    const budget = createRetryBudget({ ratio, minPerSecond: 0 });
    let r = 0;
    for (let i = 0; i < 100_000; i++) {
      budget.deposit();
      while (budget.tryWithdraw()) r++;
    }
    assert.ok(r <= ratio * 100_000, `${r} ≤ ${ratio * 100_000}`);
    assert.ok(r >= ratio * 100_000 - 11, `${r} ≥ ${ratio * 100_000} - 11`);
  }
});

test("a clock that steps back (a test's setSystemTime, an NTP step) does not freeze the window: what was deposited and withdrawn before the step expires one window after it", (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: 1_800_000_000_000 });
  const budget = createRetryBudget({ ratio: 1, minPerSecond: 0, windowMs: "1 second" });
  for (let i = 0; i < 3; i++) budget.deposit();
  assert.equal(budget.balance, 3);
  t.mock.timers.setTime(1_700_000_000_000); // back by about three years
  assert.equal(budget.balance, 3); // still within the window
  assert.equal(budget.tryWithdraw(), true);
  assert.equal(budget.balance, 2);
  t.mock.timers.tick(1100); // one window after the step: nothing of before it counts
  assert.equal(budget.balance, 0);
  budget.deposit();
  assert.equal(budget.balance, 1);
  t.mock.timers.tick(1100);
  assert.equal(budget.balance, 0);
});

test("a clock before 1970 (a negative Date.now(), as a test's setSystemTime to a 1969 date gives) counts deposits as any other: ratio 0.5 over 10 calls pays 5 retries", (t) => {
  const paid = [];
  for (const now of [1_800_000_000_000, 0, -1, -2_500, -999_999, -86_400_000 * 365.25 * 20]) {
    const clock = t.mock.method(Date, "now", () => now);
    const budget = createRetryBudget({ ratio: 0.5, minPerSecond: 0, windowMs: 10_000 });
    for (let i = 0; i < 10; i++) budget.deposit();
    const before = budget.balance;
    let n = 0;
    while (n < 20 && budget.tryWithdraw()) n++;
    paid.push([before, n]);
    clock.mock.restore();
  }
  assert.deepEqual(paid, [[5, 5], [5, 5], [5, 5], [5, 5], [5, 5], [5, 5]]);
});

test("without a store the budget answers synchronously: tryWithdraw a boolean, deposit undefined", () => {
  const budget = createRetryBudget({ ratio: 0, minPerSecond: 1, windowMs: 1000 });
  assert.equal(budget.deposit(), undefined);
  assert.equal(budget.tryWithdraw(), true);
  assert.equal(budget.tryWithdraw(), false);
});

test("bad store options: TypeError/RangeError naming the option and the value", () => {
  const store = { deposit: async () => {}, withdraw: async () => ({ charged: true, balance: 0 }) };
  assert.throws(() => createRetryBudget({ store: {} }), {
    name: "TypeError", message: "store must be a retry budget store (an object with deposit and withdraw methods); received an object",
  });
  assert.throws(() => createRetryBudget({ store: 1 }), { name: "TypeError", message: /^store must be a retry budget store .*; received 1$/ });
  assert.throws(() => createRetryBudget({ store, onStoreError: 1 }), { name: "TypeError", message: "onStoreError must be a function; received 1" });
  assert.throws(() => createRetryBudget({ onStoreError: () => {} }), { name: "TypeError", message: /^onStoreError must be given only with option store; received / });
  assert.throws(() => createRetryBudget({ storeTimeoutMs: 5 }), { name: "TypeError", message: "storeTimeoutMs must be given only with option store; received 5" });
  assert.throws(() => createRetryBudget({ store, storeTimeoutMs: 0 }), { name: "RangeError", message: "storeTimeoutMs must be a duration from 1 ms to 60 s; received 0" });
  assert.throws(() => createRetryBudget({ store, storeTimeoutMs: "2 minutes" }), { name: "RangeError", message: 'storeTimeoutMs must be a duration from 1 ms to 60 s; received "2 minutes"' });
  assert.throws(() => createRetryBudget({ minPerSecond: 2 ** 52, windowMs: "60 seconds" }), { name: "RangeError", message: /^minPerSecond must be an integer whose reserve/ });
  const trap = new Proxy({}, { get() { throw new Error("trap"); } });
  assert.throws(() => createRetryBudget({ store: trap }), { name: "TypeError", message: /^store must be a retry budget store that can be read; received / });
});

/** A store in memory following the store contract, whose next answers can be made to fail. */
function memoryStore() {
  const s = {
    units: 0,
    mode: "ok", // "ok" | "reject" | "throw" | "hang" | "garbage" | "held" | "read-only"
    rules: [],
    calls: 0,
    /** Answers held back ("held"), given in order by release(). */
    held: [],
    release() {
      s.held.shift()();
    },
    answer(result, write = true) {
      s.calls++;
      if (s.mode === "reject") return Promise.reject(new Error("store down"));
      // Reads are answered, writes refused (as by a Redis server out of memory); a deposit of 0
      // writes nothing here, so it is answered too (as deposits of 0 did before they had to write).
      if (s.mode === "read-only" && write) return Promise.reject(new Error("OOM command not allowed"));
      if (s.mode === "held") return new Promise((resolve) => s.held.push(() => resolve(result())));
      if (s.mode === "throw") throw new Error("store threw");
      if (s.mode === "hang") return new Promise(() => {});
      if (s.mode === "garbage") return Promise.resolve("yes");
      return Promise.resolve(result());
    },
    deposits: 0,
    deposit(units, rule) {
      s.deposits++;
      s.rules.push(rule);
      return s.answer(() => { s.units += units; }, units !== 0);
    },
    withdraw(units, rule) {
      s.rules.push(rule);
      return s.answer(() => {
        if (rule.reserve + s.units < units) return { charged: false, balance: rule.reserve + s.units };
        s.units -= units;
        return { charged: true, balance: rule.reserve + s.units };
      }, rule.reserve + s.units >= units);
    },
  };
  return s;
}

test("with a store: deposits of ratio's numerator, withdrawals of its denominator, the rule { windowMs, reserve }; balance as of the store's last answer", async () => {
  const store = memoryStore();
  const budget = createRetryBudget({ ratio: 0.7, minPerSecond: 1, windowMs: "2 seconds", store });
  assert.equal(budget.balance, 2);
  for (let i = 0; i < 10; i++) await budget.deposit();
  assert.equal(store.units, 70);
  assert.deepEqual(store.rules[0], { windowMs: 2000, reserve: 20 });
  assert.ok(Object.isFrozen(store.rules[0]));
  const answers = [];
  for (let i = 0; i < 10; i++) {
    const p = budget.tryWithdraw();
    assert.equal(typeof p.then, "function");
    answers.push(await p);
  }
  assert.deepEqual(answers, [true, true, true, true, true, true, true, true, true, false]);
  assert.equal(budget.balance, 0);
  // 9 retries: the reserve of 2 (20 units) and 7 earned by 10 calls (70 units), 10 units each.
  assert.equal(store.units, -20);
  assert.equal(budget.balance, 0);
  // retry() waits for the store's answer: its own deposit (7 units) is not a retry.
  const e = await retry(fail, 0, { retries: 5, budget }).catch((x) => x);
  assert.deepEqual([e.reason, e.attempts], ["budget", 1]);
  assert.equal(store.units, -13);
});

for (const mode of ["reject", "throw", "garbage"]) {
  test(`a store that fails (${mode}): the call goes on with the process's own budget, onStoreError once, the store again once it answers`, async (t) => {
    // Mock time: the window (1 s) and the checks (every 250 ms) move only when the test says.
    t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_800_000_000_000 });
    const store = memoryStore();
    const errors = [];
    const budget = createRetryBudget({ ratio: 0, minPerSecond: 2, windowMs: "1 second", store, onStoreError: (x) => errors.push(x) });
    assert.equal(await budget.tryWithdraw(), true); // the store's reserve: 2
    store.mode = mode;
    // The local budget has its own reserve of 2 (it paid for nothing yet).
    assert.deepEqual([await budget.tryWithdraw(), await budget.tryWithdraw(), await budget.tryWithdraw()], [true, true, false]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].name, mode === "garbage" ? "TypeError" : "Error");
    assert.match(errors[0].message, mode === "reject" ? /^store down$/ : mode === "throw" ? /^store threw$/ : /^the store's withdrawal must be/);
    assert.equal(budget.balance, 0);
    const e = await retry(fail, 0, { retries: 5, budget }).catch((x) => x);
    assert.deepEqual([e.reason, e.attempts], ["budget", 1]);
    // Back: the next check (at most every 250 ms) finds the store answering, and the store decides again.
    store.mode = "ok";
    t.mock.timers.tick(300);
    const check = budget.tryWithdraw(); // local answer; sends the check
    assert.equal(await settled(budget.flush()), true, "the check has landed");
    assert.equal(await check, false); // the local budget is spent (within its window)
    assert.equal(await budget.tryWithdraw(), true); // the store's reserve: 1 left
    assert.equal(await budget.tryWithdraw(), false);
    assert.equal(store.units, -2);
    assert.equal(errors.length, 1);
  });
}

test("a store that does not answer: after storeTimeoutMs the call goes on with the local budget; onStoreError gets a TimeoutError", async (t) => {
  // Mock time: the call is still waiting for the store 1 ms before storeTimeoutMs, and goes on at it.
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_800_000_000_000 });
  const store = memoryStore();
  const errors = [];
  const budget = createRetryBudget({ ratio: 0, minPerSecond: 1, windowMs: 1000, store, storeTimeoutMs: 50, onStoreError: (x) => errors.push(x) });
  store.mode = "hang";
  const call = retry(fail, 0, { retries: 5, budget }).catch((x) => x);
  assert.equal(await settled(call), false);
  t.mock.timers.tick(49);
  assert.equal(await settled(call), false, "still waiting for the store");
  assert.deepEqual(errors, []);
  t.mock.timers.tick(1);
  assert.equal(await settled(call), false, "the retry's wait of 0 ms is a timer too");
  assert.equal(errors.length, 1, "the timeout ended the wait for the store");
  t.mock.timers.tick(0);
  assert.equal(await settled(call), true);
  const e = await call;
  assert.deepEqual([e.reason, e.attempts], ["budget", 2]); // after the timeout, the local reserve: 1 retry
  assert.equal(errors.length, 1);
  assert.equal(errors[0].name, "TimeoutError");
  assert.equal(errors[0].message, "the retry budget store did not answer within 50 ms");
});

test("deposits never reject, onStoreError's own throw is ignored, nothing is left unhandled", async () => {
  const unhandled = [];
  const onUnhandled = (x) => unhandled.push(x);
  process.on("unhandledRejection", onUnhandled);
  try {
    const store = memoryStore();
    store.mode = "reject";
    const budget = createRetryBudget({ ratio: 1, minPerSecond: 0, windowMs: "60 seconds", store, onStoreError: () => { throw new Error("hook"); } });
    for (let i = 0; i < 5; i++) budget.deposit();
    const r = await retry(fail, 0, { retries: 3, budget }).catch((x) => x);
    // Local budget: the 5 deposits above and the call's own: 6 retries paid, 3 allowed by retries.
    assert.deepEqual([r.reason, r.attempts], ["attempts", 4]);
    await new Promise((x) => setTimeout(x, 20));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});

test("a call whose signal is already aborted makes no first attempt, so it deposits nothing and funds no retry", async () => {
  const budget = createRetryBudget({ ratio: 1, minPerSecond: 0, windowMs: 10_000 });
  for (let i = 0; i < 3; i++) {
    const ac = new AbortController();
    ac.abort(new Error("gone"));
    const e = await retry(() => 1, 0, { retries: 5, budget, signal: ac.signal }).catch((x) => x);
    assert.deepEqual([e.reason, e.attempts], ["aborted", 0]);
  }
  let calls = 0;
  const e = await retry(() => { calls++; throw new Error("x"); }, 0, { retries: 5, budget }).catch((x) => x);
  // Its own deposit pays one retry; the aborted calls paid none.
  assert.deepEqual([e.reason, calls], ["budget", 2]);
  assert.equal(budget.tryWithdraw(), false);
});

test("flush() without a store is already fulfilled", async () => {
  const budget = createRetryBudget({ ratio: 0.5 });
  budget.deposit();
  const p = budget.flush();
  assert.ok(p instanceof Promise);
  assert.equal(await p, undefined);
});

/** Settles the microtasks queued so far (and those they queue), without any timer. */
const settled = async (p) => {
  let done = false;
  p.then(() => (done = true));
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return done;
};

test("flush() settles once every deposit made so far has landed: the one on its way and those added up behind it", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_800_000_000_000 });
  const store = memoryStore();
  store.mode = "held";
  const budget = createRetryBudget({ ratio: 0.7, minPerSecond: 0, windowMs: "10 seconds", store });
  for (let i = 0; i < 5; i++) budget.deposit(); // the first goes out; four wait behind it
  assert.equal(store.held.length, 1);
  const flushed = budget.flush();
  assert.equal(await settled(flushed), false);
  store.release(); // the first lands (7 units); the four others go out as one deposit
  assert.equal(await settled(flushed), false);
  assert.equal(store.held.length, 1);
  budget.deposit(); // made after flush() was called: it waits behind the deposit on its way
  store.release();
  assert.equal(await settled(flushed), true, "the deposits made before flush() have landed");
  assert.equal(store.units, 35);
  const again = budget.flush();
  assert.equal(await settled(again), false, "the deposit made after the first flush() is on its way");
  store.release();
  assert.equal(await settled(again), true);
  assert.equal(store.units, 42);
  assert.equal(store.held.length, 0);
  assert.equal(await settled(budget.flush()), true, "nothing left to land");
});

test("flush() covers the deposits of calls that ended by attemptTimeout: it settles once they have landed, not before", async () => {
  const store = memoryStore();
  store.mode = "held";
  const errors = [];
  // A store timeout of a minute: flush() may settle only because the deposits landed.
  const budget = createRetryBudget({ ratio: 0.5, minPerSecond: 0, windowMs: "60 seconds", store, storeTimeoutMs: "60 seconds", onStoreError: (e) => errors.push(e) });
  const hang = () => new Promise(() => {});
  const ended = await Promise.all([1, 2, 3].map(() => retry(hang, 0, { retries: 0, attemptTimeout: 20, budget }).catch((e) => e)));
  for (const e of ended) {
    assert.deepEqual([e.name, e.reason, e.attempts, e.cause.name], ["RetryError", "attempts", 1, "TimeoutError"]);
  }
  // The first deposit is on its way; the two others wait behind it.
  assert.equal(store.held.length, 1);
  const flushed = budget.flush();
  assert.equal(await settled(flushed), false);
  store.release(); // the first lands; the two others go out as one deposit
  assert.equal(await settled(flushed), false);
  assert.equal(store.held.length, 1);
  store.release();
  assert.equal(await settled(flushed), true);
  assert.equal(store.units, 3);
  assert.equal(store.deposits, 2);
  assert.deepEqual(errors, []);
});

test("flush() settles when the store fails or never answers (after storeTimeoutMs), never rejects; onStoreError once", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_800_000_000_000 });
  for (const mode of ["hang", "reject"]) {
    const store = memoryStore();
    store.mode = mode;
    const errors = [];
    const budget = createRetryBudget({ ratio: 1, minPerSecond: 0, windowMs: "10 seconds", store, storeTimeoutMs: 500, onStoreError: (e) => errors.push(e.name) });
    for (let i = 0; i < 3; i++) budget.deposit();
    const flushed = budget.flush();
    if (mode === "hang") {
      assert.equal(await settled(flushed), false);
      t.mock.timers.tick(499);
      assert.equal(await settled(flushed), false);
      t.mock.timers.tick(2);
    }
    assert.equal(await settled(flushed), true, mode);
    assert.deepEqual(errors, [mode === "hang" ? "TimeoutError" : "Error"]);
    // The deposits that waited behind the failed one are this process's own: the local budget has all 3.
    assert.equal(budget.balance, 3);
  }
});

test("flush() does not wait for a deposit whose answer never comes (a Worker's request that sent it ended) past its storeTimeoutMs", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_800_000_000_000 });
  const store = memoryStore();
  store.mode = "held";
  const errors = [];
  const budget = createRetryBudget({ ratio: 1, minPerSecond: 0, windowMs: "10 seconds", store, storeTimeoutMs: 500, onStoreError: (e) => errors.push(e.name) });
  budget.deposit();
  budget.deposit();
  // The request that sent the first deposit ended: its timer never fires, its answer never comes.
  t.mock.timers.setTime(1_800_000_000_600);
  const flushed = budget.flush(); // sends the second at once, and waits for it only
  assert.equal(store.held.length, 2);
  store.held[1]();
  assert.equal(await settled(flushed), true);
  assert.equal(store.units, 1);
  assert.deepEqual(errors, []);
});

test("one outage, one report: a connection error, then a step sent before it that times out after the store is back, is not reported again", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_800_000_000_000 });
  const store = memoryStore();
  const errors = [];
  const budget = createRetryBudget({ ratio: 0, minPerSecond: 2, windowMs: "10 seconds", store, storeTimeoutMs: 1000, onStoreError: (e) => errors.push(e.name) });
  store.mode = "hang";
  const lost = budget.tryWithdraw(); // sent while the store is used; its answer never comes
  store.mode = "reject";
  assert.equal(await budget.tryWithdraw(), true); // the connection error: the local budget pays
  assert.deepEqual(errors, ["Error"]);
  store.mode = "ok";
  t.mock.timers.tick(300);
  assert.equal(await budget.tryWithdraw(), true); // local; sends the check, a deposit the store takes
  await budget.flush();
  const before = store.calls;
  assert.equal(await budget.tryWithdraw(), true); // the store decides again
  assert.equal(store.calls, before + 1);
  t.mock.timers.tick(1000); // the step sent before the outage times out now: same outage
  assert.equal(await lost, true); // answered by the local budget (its reserve: 20)
  assert.deepEqual(errors, ["Error"]);
  assert.equal(await budget.tryWithdraw(), true);
  assert.equal(store.calls, before + 2, "the store is still used");
  // A later failure of a step sent after the store came back is a new outage.
  store.mode = "reject";
  await budget.tryWithdraw();
  assert.deepEqual(errors, ["Error", "Error"]);
});

test("a store that answers reads but refuses writes stays down: a check every 250 ms for 3 s is one report, not 12; the shared budget is used again once a deposit is accepted", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_800_000_000_000 });
  const store = memoryStore();
  const errors = [];
  const budget = createRetryBudget({ ratio: 0.5, minPerSecond: 0, windowMs: "10 seconds", store, onStoreError: (e) => errors.push(e.message) });
  store.mode = "read-only";
  let checks = 0;
  for (let i = 0; i < 12; i++) {
    const deposits = store.deposits;
    budget.deposit(); // a call; while failing its deposit is the check (a write)
    await budget.tryWithdraw(); // its retry: decided locally, without waiting
    await budget.flush();
    checks += store.deposits - deposits;
    t.mock.timers.tick(250);
  }
  assert.deepEqual(errors, ["OOM command not allowed"]);
  assert.equal(checks, 12, "the first deposit, then one check per 250 ms");
  store.mode = "ok";
  budget.deposit();
  await budget.flush();
  assert.equal(store.units, 1, "the accepted deposit");
  budget.deposit();
  await budget.flush();
  assert.equal(store.units, 2, "deposits go to the store again");
  assert.deepEqual(errors, ["OOM command not allowed"]);
});
