// API.md section 13: a policy's waits are its own. No call of another policy, no `random`
// that calls the package from inside a draw, no construction that fails halfway and no
// other options of Sigil's change the waits a policy gives alone.
// Shared body: runs in Node (ESM build) and in headless Chromium (browser build).

/** A deterministic `() => number` in [0, 1) of its own (a 32-bit LCG seeded by `seed`). */
function lcg(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 4294967296;
  };
}

/** The policy kinds, by `i`: every shape, jitter kind and source of draws. */
function makers(lib) {
  const { createBackoff, Backoff, createRandom, nextDelayMs, seededRandom } = lib;
  const jitters = [0, 0.2, "full", "equal", "decorrelated"];
  return (i) => {
    const jitter = jitters[i % jitters.length];
    const source = Math.floor(i / jitters.length) % 6;
    const shape = Math.floor(i / 30) % 5;
    const options = {};
    if (shape === 0) Object.assign(options, { base: 10 + i, max: 50_000 });
    else if (shape === 1) Object.assign(options, { base: 7 + i, growth: "linear", cap: 40_000 });
    else if (shape === 2) Object.assign(options, { base: "1 second", factor: 1.5, max: "1 minute", free: 2 });
    else if (shape === 3) Object.assign(options, { base: 100 + i, growth: "constant", max: 9_000 });
    else Object.assign(options, jitter === "decorrelated" ? { base: 20, max: 3_000 } : { steps: [5, 50 + i, 500, 5_000], free: 1 });
    if (jitter !== 0) options.jitter = jitter;
    if (source === 0) options.seed = `k${i}`;
    else if (source === 1) options.random = createRandom(`s${i}`);
    else if (source === 2) options.random = lcg(i + 1);
    else if (source === 3) {
      const r = lcg(i + 7);
      options.random = { float: (lo, hi) => lo + r() * (hi - lo) };
    } else if (source === 4) options.random = { next: lcg(i + 11) };
    else {
      // Sigil's schedule as a policy: its own options object and draws.
      const sigil = { baseDelayMs: 50 + i, maxDelayMs: 60_000, jitter: 0.5, random: i % 2 ? seededRandom(`g${i}`) : lcg(i + 3) };
      if (i % 3 === 0) delete sigil.random, sigil.seed = `q${i}`;
      return { delay: (n) => nextDelayMs(n, sigil), kind: `sigil #${i}` };
    }
    if (i % 4 === 1) {
      // The fluent form of the same options.
      const p = Backoff.from(createBackoff(options));
      return { delay: (n) => p.delay(n), bounds: (n) => p.bounds(n), kind: `fluent #${i}` };
    }
    const p = createBackoff(options);
    return { delay: (n) => p.delay(n), bounds: (n) => p.bounds(n), kind: `${JSON.stringify(p.toJSON())} #${i}` };
  };
}

/** The attempts each policy is asked for, in its own order (repeats included). */
const ATTEMPTS = [1, 2, 3, 2, 5, 8, 1, 13, 4, 6];

export default (t, lib) => {
  const { createBackoff, Backoff, createRandom, nextDelayMs, seededRandom, retrySchedule } = lib;
  const make = makers(lib);

  t.test("300 policies of every kind, their calls interleaved, each give exactly the waits they give alone", () => {
    const n = 300;
    const solo = [];
    for (let i = 0; i < n; i++) {
      const p = make(i);
      solo.push(ATTEMPTS.map((a) => p.delay(a)));
    }
    const policies = [];
    for (let i = 0; i < n; i++) policies.push(make(i));
    const got = policies.map(() => []);
    // A fixed shuffle of every (policy, call) pair; bounds() of a random policy in between.
    const order = [];
    for (let i = 0; i < n; i++) for (let k = 0; k < ATTEMPTS.length; k++) order.push(i);
    const r = lcg(2024);
    for (let j = order.length - 1; j > 0; j--) {
      const k = Math.floor(r() * (j + 1));
      [order[j], order[k]] = [order[k], order[j]];
    }
    for (const i of order) {
      got[i].push(policies[i].delay(ATTEMPTS[got[i].length]));
      const other = policies[Math.floor(r() * n)];
      if (other.bounds) other.bounds(3);
    }
    for (let i = 0; i < n; i++) t.eq(got[i], solo[i], policies[i].kind);
  });

  t.test("a random that builds and uses other policies and Sigil inside a draw changes neither the outer nor the inner waits", () => {
    const inner = () => [
      createBackoff({ base: 100, max: 10_000, jitter: "full", seed: "in" }).delay(4),
      createBackoff({ steps: [1, 2, 3], jitter: 0.5, random: createRandom("in"), maxAttempts: 4 }).schedule(),
      Backoff.exponential(30).jitter("equal").cap(900).seed(5).delay(6),
      nextDelayMs(3, { jitter: 0.5, random: seededRandom("in") }),
      nextDelayMs(5, { jitter: 0.25, seed: "in" }),
      retrySchedule({ jitter: 0.5, seed: "sched" })[2],
    ];
    const innerAlone = inner();
    const outers = [
      (random) => createBackoff({ base: 40, max: 5_000, jitter: "decorrelated", random }),
      (random) => createBackoff({ steps: [10, 20, 30], jitter: "full", random, maxAttempts: 6 }),
      (random) => Backoff.linear(25).jitter(0.3).random({ next: random }),
      (random) => ({ delay: (n) => nextDelayMs(n, { baseDelayMs: 70, jitter: 1, random }) }),
    ];
    for (const outer of outers) {
      const plain = outer(lcg(99));
      const alone = [1, 2, 3, 4, 5].map((n) => plain.delay(n));
      const seen = [];
      const draws = lcg(99);
      const nested = outer(() => {
        seen.push(inner());
        return draws();
      });
      t.eq([1, 2, 3, 4, 5].map((n) => nested.delay(n)), alone, "the outer policy's waits");
      t.ok(seen.length > 0, "the outer policy drew");
      for (const s of seen) t.eq(s, innerAlone, "the inner waits");
      if (plain.schedule && plain.attempts !== undefined) {
        const more = lcg(5);
        const schedule = outer(() => {
          t.eq(inner(), innerAlone, "the inner waits during a schedule");
          return more();
        }).schedule();
        t.eq(schedule, outer(lcg(5)).schedule(), "the outer schedule");
      }
    }
  });

  t.test("constructions that fail halfway between two delays change nothing", () => {
    const failing = [
      () => createBackoff({ base: 77_777, factor: 3, jitter: 7 }),
      () => createBackoff({ base: 55_555, factor: 3, maxAttempts: -1 }),
      () => createBackoff({ steps: [1, 2, -3] }),
      () => createBackoff({ base: 5, seed: "s", random: Math.random }),
      () => createBackoff({ base: 1, jitter: "full", random: { float: 1 } }),
      () => Backoff.exponential(40_000, 3).cap(90_000).maxAttempts(0.5),
      () => Backoff.fixed(10).jitter("sideways"),
      () => nextDelayMs(2, { baseDelayMs: 900, jitter: 2 }),
      () => nextDelayMs(2, { baseDelayMs: 900, jitter: 0.5, random: () => 7 }),
      () => retrySchedule({ baseDelayMs: 800, maxAttempts: 0 }),
      () => createRandom({}),
    ];
    for (let i = 0; i < 60; i++) {
      const alone = make(i);
      const expected = ATTEMPTS.map((a) => alone.delay(a));
      const p = make(i);
      const got = ATTEMPTS.map((a, k) => {
        t.throws(failing[k % failing.length], {}, `construction ${k % failing.length}`);
        return p.delay(a);
      });
      t.eq(got, expected, p.kind);
    }
  });

  t.test("Sigil calls alternating between two options objects each give their own waits", () => {
    const a = () => ({ baseDelayMs: 100, jitter: 0.5, random: seededRandom("a") });
    const b = () => ({ baseDelayMs: 300, maxDelayMs: 5_000, jitter: 0.25, seed: "b" });
    const c = () => ({ baseDelayMs: 10, jitter: 1, random: lcg(3) });
    const alone = (o) => [1, 2, 3, 4, 5, 6].map((n) => nextDelayMs(n, o));
    const [ea, eb, ec] = [alone(a()), alone(b()), alone(c())];
    for (const [x, y] of [[a, b], [b, c], [a, c]]) {
      const [ox, oy] = [x(), y()];
      const gx = [];
      const gy = [];
      for (let n = 1; n <= 6; n++) {
        gx.push(nextDelayMs(n, ox));
        gy.push(nextDelayMs(n, oy));
      }
      const expected = new Map([[a, ea], [b, eb], [c, ec]]);
      t.eq(gx, expected.get(x), "the first options' waits");
      t.eq(gy, expected.get(y), "the second options' waits");
    }
    // The same options object, changed between calls, gives the waits of what it holds now.
    const o = { baseDelayMs: 100 };
    t.eq(nextDelayMs(3, o), 400);
    o.baseDelayMs = 1000;
    t.eq(nextDelayMs(3, o), 4000);
    o.maxDelayMs = 2500;
    t.eq(nextDelayMs(3, o), 2500);
  });
};
