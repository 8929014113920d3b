// API.md section 5: `/policy`, the fluent Backoff policy value.
// Shared body: runs in Node (ESM build) and in headless Chromium (browser build).

const delays = (b, from, to) => {
  const out = [];
  for (let a = from; a <= to; a++) out.push(b.delay(a));
  return out;
};
const take = (iterable, n) => {
  const out = [];
  for (const x of iterable) {
    if (out.length === n) break;
    out.push(x);
  }
  return out;
};
const S = 1000;
const MIN = 60 * S;

export default (t, lib, entries) => {
  const { Backoff, createBackoff, createRandom } = lib;
  const P = entries.policy.Backoff;
  const range = (fn, label, includes) => t.throws(fn, { instance: RangeError, includes }, label);

  t.test("Backoff.fixed(interval): the same wait every time", () => {
    t.eq(delays(Backoff.fixed(1000), 1, 4), [1000, 1000, 1000, 1000]);
    t.eq(delays(P.fixed("5 seconds"), 1, 3), [5000, 5000, 5000]);
    t.eq(delays(Backoff.fixed("250ms"), 1, 2), [250, 250]);
    t.eq(delays(Backoff.fixed(0), 1, 2), [0, 0]);
  });

  t.test("Backoff.linear(interval): interval × n", () => {
    t.eq(delays(Backoff.linear("1 second"), 1, 5), [1000, 2000, 3000, 4000, 5000]);
    t.eq(delays(P.linear(7), 1, 3), [7, 14, 21]);
  });

  t.test("Backoff.exponential(interval, factor = 2)", () => {
    t.eq(delays(Backoff.exponential("1 second"), 1, 5), [1000, 2000, 4000, 8000, 16000]);
    t.eq(delays(Backoff.exponential(100, 3), 1, 4), [100, 300, 900, 2700]);
    t.eq(delays(Backoff.exponential(100, 1), 1, 3), [100, 100, 100]);
    t.eq(delays(P.exponential("2s", 1.5), 1, 3), [2000, 3000, 4500]);
  });

  t.test("the first wait is always the interval", () => {
    for (const interval of [0, 1, 250, "3 seconds", "1m", "2 hours"]) {
      const ms = typeof interval === "number" ? interval : lib.toMs(interval);
      for (const p of [Backoff.fixed(interval), Backoff.linear(interval), Backoff.exponential(interval), Backoff.exponential(interval, 10)]) {
        t.eq(p.delay(1), ms, `${t.show(interval)}`);
      }
    }
  });

  t.test("Backoff.exponential(\"2 seconds\").cap(\"5 minutes\"): 2s, 4s, … 4m16s, 5m, 5m", () => {
    const p = Backoff.exponential("2 seconds").cap("5 minutes");
    t.eq(delays(p, 1, 11), [2 * S, 4 * S, 8 * S, 16 * S, 32 * S, 64 * S, 2 * MIN + 8 * S, 4 * MIN + 16 * S, 5 * MIN, 5 * MIN, 5 * MIN]);
    t.eq(p.delay(1000), 5 * MIN);
  });

  t.test("exponential 2 s: 10th wait 1024 s, 15th 32768 s", () => {
    const p = Backoff.exponential("2 seconds");
    t.eq(p.delay(10), 1024 * S);
    t.eq(p.delay(15), 32768 * S);
  });

  t.test(".maxAttempts(n) counts attempts in total, the first included", () => {
    const p = Backoff.exponential(1000).maxAttempts(5);
    t.eq(p.attempts, 5);
    t.eq(p.schedule(), [1000, 2000, 4000, 8000], "4 waits between 5 attempts");
    t.eq(p.totalMs(), 15000);
    t.eq(Backoff.fixed(10).maxAttempts(1).schedule(), []);
    t.eq(Backoff.fixed(10).maxAttempts(1).totalMs(), 0);
    t.eq(Backoff.fixed(10).maxAttempts(2).schedule(), [10]);
    for (const n of [0, -1, 1.5, NaN, Infinity]) range(() => Backoff.fixed(1).maxAttempts(n), `maxAttempts(${n})`, ["maxAttempts", String(n)]);
  });

  t.test(".cap(max): no single wait above max; below the interval is a RangeError naming it", () => {
    t.eq(delays(Backoff.linear(100).cap(250), 1, 4), [100, 200, 250, 250]);
    t.eq(delays(Backoff.fixed(100).cap(100), 1, 2), [100, 100]);
    const e = range(() => Backoff.exponential(1000).cap(999), "cap(999)", ["999"]);
    t.ok(/cap|max/.test(e.message), `the message names the bound: ${e.message}`);
    range(() => Backoff.exponential("1 minute").cap("59 seconds"), "cap 59 seconds", ["59 seconds"]);
    range(() => Backoff.exponential(1).cap(-1), "cap(-1)", ["-1"]);
    range(() => Backoff.exponential(1).cap("never"), "cap(never)", ["never"]);
  });

  t.test(".jitter(f): ± f of each wait, or \"full\"; outside [0, 1] is a RangeError naming jitter", () => {
    const p = Backoff.exponential(1000).jitter(0.5);
    t.eq(p.random(() => 1).delay(1), 1500);
    t.eq(p.random(() => 0).delay(1), 500);
    t.eq(p.random({ float: (min, max) => (min + max) / 2 }).delay(3), 4000);
    const src = { calls: [], float(min, max) { src.calls.push([min, max]); return max; } };
    t.eq(Backoff.exponential(1000).cap(3000).jitter("full").random(src).delay(5), 3000);
    t.eq(src.calls, [[0, 3000]]);
    const seeded = Backoff.exponential(1000).jitter(0.25).random(createRandom("fluent"));
    const twin = createRandom("fluent");
    for (let a = 1; a <= 10; a++) t.eq(seeded.delay(a), Math.round(1000 * 2 ** (a - 1) * twin.float(0.75, 1.25)));
    for (const f of [-0.1, 1.1, NaN, Infinity]) range(() => Backoff.fixed(1).jitter(f), `jitter(${f})`, ["jitter", String(f)]);
  });

  t.test(".free(n): the first n attempts wait 0; a bad n is a RangeError", () => {
    t.eq(delays(Backoff.fixed(1000).free(2), 1, 4), [0, 0, 1000, 1000]);
    t.eq(delays(Backoff.exponential(10).free(1), 1, 4), [0, 10, 20, 40]);
    for (const n of [-1, 1.5, NaN, Infinity]) range(() => Backoff.fixed(1).free(n), `free(${n})`, ["free", String(n)]);
  });

  t.test(".random(r) takes a Random, { next }, or a bare function; anything else is an error", () => {
    t.eq(Backoff.fixed(100).jitter(1).random({ next: () => 0.25 }).delay(1), Math.round(100 * (0 + 0.25 * (2 - 0))));
    t.eq(Backoff.fixed(100).jitter(1).random(() => 0.75).delay(1), Math.round(100 * (0 + 0.75 * 2)));
    for (const r of [42, "x", {}, null]) t.throws(() => Backoff.fixed(1).random(r), { instance: [TypeError, RangeError] }, `random(${t.show(r)})`);
  });

  t.test("seed and random exclude each other: the TypeError names the option of the call being made", () => {
    const why = "seed makes each draw a pure function of (seed, attempt), random is a stream; keep one";
    const e = t.throws(() => Backoff.fixed(5).jitter(0.5).seed(1).random(() => 0.5), { instance: TypeError });
    t.eq(e.message, `random must be left out when seed is given: ${why}; received a function`);
    const e2 = t.throws(() => Backoff.fixed(5).jitter(0.5).seed("k").random(createRandom(1)), { instance: TypeError });
    t.eq(e2.message, `random must be left out when seed is given: ${why}; received an object`);
    const e3 = t.throws(() => Backoff.fixed(5).jitter(0.5).random(() => 0.5).seed(1), { instance: TypeError });
    t.eq(e3.message, `seed must be left out when random is given: ${why}; received 1`);
  });

  t.test("each fluent method returns a NEW policy; the receiver is unchanged", () => {
    const p = Backoff.exponential(1000);
    const snapshot = JSON.stringify(p);
    const variants = [p.maxAttempts(3), p.cap(1500), p.jitter(0.5).random(() => 1), p.jitter("full"), p.free(2), p.random(() => 0.5)];
    for (const q of variants) {
      t.ok(q !== p, "a new value");
      t.ok(q instanceof Backoff, "a Backoff");
    }
    t.eq(JSON.stringify(p), snapshot, "toJSON unchanged");
    t.eq(p.attempts, undefined);
    t.eq(delays(p, 1, 5), [1000, 2000, 4000, 8000, 16000], "no cap, no free, no jitter on the receiver");
    t.eq(variants[0].attempts, 3);
    t.eq(delays(variants[1], 1, 3), [1000, 1500, 1500]);
    t.eq(variants[2].delay(1), 1500);
    t.eq(delays(variants[4], 1, 3), [0, 0, 1000]);
    const chained = p.maxAttempts(4).cap(3000);
    t.eq(chained.schedule(), [1000, 2000, 3000]);
    t.eq(p.maxAttempts(4).maxAttempts(2).attempts, 2, "the last bound wins");
    t.eq(chained.attempts, 4);
  });

  t.test("Backoff.from: a Backoff passes through; a number or duration text is Backoff.fixed", () => {
    const p = Backoff.exponential(1000).cap(5000);
    t.ok(Backoff.from(p) === p, "the same value");
    t.ok(P.from(p) === p);
    const n = Backoff.from(500);
    t.ok(n instanceof Backoff);
    t.eq(delays(n, 1, 3), [500, 500, 500]);
    t.eq(n.toJSON(), Backoff.fixed(500).toJSON());
    const s = Backoff.from("2 seconds");
    t.eq(delays(s, 1, 3), [2000, 2000, 2000]);
    t.eq(s.toJSON(), Backoff.fixed("2 seconds").toJSON());
    t.eq(Backoff.from(createBackoff({ base: 1 })).delay(3), 4, "a createBackoff value passes through");
    t.throws(() => Backoff.from("soon"), { instance: RangeError }, "bad duration text");
    t.throws(() => Backoff.from(-1), { instance: RangeError }, "negative duration");
    for (const x of [{}, null, undefined, [], true]) t.throws(() => Backoff.from(x), { instance: [TypeError, RangeError] }, `from(${t.show(x)})`);
  });

  t.test("factories reject bad intervals and factors with RangeError", () => {
    for (const make of [(x) => Backoff.fixed(x), (x) => Backoff.linear(x), (x) => Backoff.exponential(x)]) {
      range(() => make(-1), "interval -1", ["-1"]);
      range(() => make("5 minuts"), "interval text", ["5 minuts"]);
      range(() => make(NaN), "interval NaN", ["NaN"]);
    }
    for (const f of [0.5, 0, NaN, Infinity]) range(() => Backoff.exponential(1, f), `factor ${f}`, ["factor", String(f)]);
  });

  t.test("createBackoff returns this class, with every fluent bound", () => {
    const b = createBackoff({ base: "1 second" });
    t.ok(b instanceof P);
    t.eq(b.attempts, undefined);
    t.eq(delays(b.cap("3s"), 1, 4), [1000, 2000, 3000, 3000]);
    t.eq(b.maxAttempts(4).schedule(), [1000, 2000, 4000]);
    t.eq(delays(b.free(1), 1, 3), [0, 1000, 2000]);
    t.eq(b.jitter(0.5).random(() => 0).delay(2), 1000);
    t.eq(delays(createBackoff({ steps: [5, 6] }).free(1).maxAttempts(5), 1, 4), [0, 5, 6, 6]);
    t.eq(createBackoff({ steps: [5, 6] }).maxAttempts(5).schedule(), [5, 6, 6, 6]);
  });

  t.test("schedule() and totalMs() without maxAttempts: RangeError mentioning an endless schedule", () => {
    const p = Backoff.exponential(1000);
    const e = t.throws(() => p.schedule(), { instance: RangeError, includes: ["maxAttempts"] });
    t.ok(/endless/.test(e.message), `message: ${e.message}`);
    const e2 = t.throws(() => createBackoff({ base: 1 }).totalMs(), { instance: RangeError });
    t.ok(/endless/.test(e2.message), `message: ${e2.message}`);
  });

  t.test("without maxAttempts, the RangeError names the method called: schedule(), totalMs() or totalBounds()", () => {
    for (const method of ["schedule", "totalMs", "totalBounds"]) {
      const e = t.throws(() => Backoff.fixed(1)[method](), { instance: RangeError }, method);
      t.eq(e.message, `maxAttempts must be set (e.g. .maxAttempts(5)) before ${method}(): without it the schedule is endless; received undefined`, method);
    }
  });

  t.test("schedule() draws in order; totalMs() is its sum", () => {
    const p = Backoff.exponential(100).maxAttempts(8).jitter(0.5).random(createRandom("sched"));
    const twin = createRandom("sched");
    const want = [1, 2, 3, 4, 5, 6, 7].map((a) => Math.round(100 * 2 ** (a - 1) * twin.float(0.5, 1.5)));
    t.eq(p.schedule(), want);
    const q = Backoff.exponential(100).maxAttempts(8).jitter(0.5).random(createRandom("sched"));
    t.eq(q.totalMs(), want.reduce((x, y) => x + y, 0));
    t.eq(Backoff.exponential(1000).maxAttempts(8).cap("1 hour").totalMs(), 127000, "Sigil's window");
  });

  t.test("[Symbol.iterator]: the waits, attempts - 1 of them, endless when uncapped", () => {
    t.eq([...Backoff.exponential(1000).maxAttempts(5)], [1000, 2000, 4000, 8000]);
    t.eq([...Backoff.fixed(1).maxAttempts(1)], []);
    t.eq(Array.from(createBackoff({ steps: [1, 2], free: 1 }).maxAttempts(5)), [0, 1, 2, 2]);
    const endless = Backoff.linear(10);
    t.eq(take(endless, 200), Array.from({ length: 200 }, (_, i) => 10 * (i + 1)));
    const it = endless[Symbol.iterator]();
    for (let i = 0; i < 10000; i++) it.next();
    t.eq(it.next(), { value: 100010, done: false }, "still going after 10000 waits");
  });

  t.test("toJSON() is plain JSON that rebuilds the policy through createBackoff", () => {
    const policies = [
      Backoff.exponential("2 seconds").cap("5 minutes").maxAttempts(10),
      Backoff.exponential(100, 3).free(2).jitter(0.25),
      Backoff.linear("1 minute").jitter("full").maxAttempts(3),
      Backoff.fixed(42),
      createBackoff({ base: "15 seconds", max: "12 hours" }),
      createBackoff({ steps: ["1s", 5, "2 minutes"], free: 1, jitter: 1, maxAttempts: 6 }),
      createBackoff({ base: 1000, growth: "constant", free: 3 }),
      createBackoff({ base: 0 }),
      createBackoff({ base: 1000, max: "20 seconds" }).cap("30 seconds").jitter(0.5),
      createBackoff({ steps: [100, 5000], cap: 4000, jitter: 0.25 }),
    ];
    for (const [i, p] of policies.entries()) {
      const json = p.toJSON();
      const text = JSON.stringify(p);
      t.eq(JSON.parse(text), json, `${i}: JSON.stringify uses toJSON`);
      t.eq(JSON.parse(JSON.stringify(json)), json, `${i}: plain JSON`);
      const back = createBackoff(JSON.parse(text));
      t.ok(back instanceof Backoff);
      t.eq(back.toJSON(), json, `${i}: round trip`);
      t.eq(back.attempts, p.attempts, `${i}: attempts`);
      const r1 = createRandom(`rt${i}`);
      const r2 = createRandom(`rt${i}`);
      t.eq(delays(back.random(r1), 1, 30), delays(p.random(r2), 1, 30), `${i}: same delays`);
    }
    const j = Backoff.exponential("2 seconds").cap("5 minutes").maxAttempts(10).toJSON();
    t.eq(j.base, 2000, "durations are ms numbers");
    t.eq(j.cap, 300000, "the fluent cap is the hard bound `cap`");
    t.eq(j.max, undefined);
    t.eq(j.maxAttempts, 10);
    t.ok(!("random" in Backoff.fixed(1).random(() => 0.5).toJSON()), "random is left out");
  });

  t.test("one value has delay, at, the fluent bounds, attempts, schedule, totalMs, iterator, toJSON", () => {
    const p = Backoff.fixed(1);
    for (const m of ["delay", "at", "maxAttempts", "cap", "jitter", "free", "random", "schedule", "totalMs", "toJSON"]) {
      t.eq(typeof p[m], "function", m);
    }
    t.eq(typeof p[Symbol.iterator], "function", "iterator");
    t.ok("attempts" in p, "attempts");
    t.eq(p.at(1, 10), 11);
  });
};
