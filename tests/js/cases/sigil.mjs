// API.md section 1: `/sigil`, the deterministic delivery schedule of @sigil/core.
// Shared body: runs in Node (ESM build) and in headless Chromium (browser build).

/** A `random` stub that returns `values` in order and records how often it was called. */
function sequence(values) {
  const f = (...args) => {
    f.calls.push(args);
    if (f.calls.length > values.length) throw new Error("sequence exhausted");
    return values[f.calls.length - 1];
  };
  f.calls = [];
  return f;
}

/** A `random` that must never be called. */
function noDraw() {
  const f = () => {
    f.called++;
    throw new Error("random must not be called");
  };
  f.called = 0;
  return f;
}

export default (t, lib, entries) => {
  const { MAX_ATTEMPTS, BASE_DELAY_MS, MAX_DELAY_MS, nextDelayMs, retrySchedule, totalRetryWindowMs, seededRandom, SigilError, createRandom } = lib;
  const sigilEntry = entries.sigil;

  /** Asserts a SigilError with code "invalid_argument", recognised by every copy's SigilError. */
  const sigilError = (fn, label, includes = []) => {
    const err = t.throws(fn, { instance: SigilError, name: "SigilError", code: "invalid_argument", includes }, label);
    t.ok(err instanceof Error, `${label}: instanceof Error`);
    t.ok(err instanceof sigilEntry.SigilError, `${label}: instanceof SigilError of /sigil`);
    if (entries.cjs) t.ok(err instanceof entries.cjs.SigilError, `${label}: instanceof SigilError of the CommonJS build`);
    return err;
  };

  t.test("constants: MAX_ATTEMPTS 8, BASE_DELAY_MS 1000, MAX_DELAY_MS 3600000", () => {
    t.eq(MAX_ATTEMPTS, 8);
    t.eq(BASE_DELAY_MS, 1000);
    t.eq(MAX_DELAY_MS, 3600000);
    t.eq([sigilEntry.MAX_ATTEMPTS, sigilEntry.BASE_DELAY_MS, sigilEntry.MAX_DELAY_MS], [8, 1000, 3600000], "/sigil entry");
  });

  t.test("nextDelayMs doubles from 1000 and stops at the ceiling (attempt 13)", () => {
    const got = [];
    for (let a = 1; a <= 14; a++) got.push(nextDelayMs(a));
    t.eq(got, [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000, 1024000, 2048000, 3600000, 3600000]);
  });

  t.test("nextDelayMs clamps in floating point at 31, 32, 33, 40, 1000, 2^53-1 (never a bit shift)", () => {
    for (const a of [31, 32, 33, 40, 64, 1000, 1024, 1025, 2 ** 31, 2 ** 32, 2 ** 53 - 1]) {
      t.eq(nextDelayMs(a), 3600000, `attempt ${a}`);
    }
  });

  t.test("nextDelayMs without a ceiling shows 2^(attempt-1) in floating point", () => {
    const o = { maxDelayMs: Infinity };
    t.eq(nextDelayMs(31, o), 1000 * 2 ** 30);
    t.eq(nextDelayMs(32, o), 2147483648000);
    t.eq(nextDelayMs(33, o), 4294967296000);
    t.eq(nextDelayMs(40, o), 549755813888000);
    t.eq(nextDelayMs(1000, o), 1000 * 2 ** 999);
    t.eq(nextDelayMs(1025, o), Infinity);
    t.eq(nextDelayMs(2 ** 53 - 1, o), Infinity);
  });

  t.test("nextDelayMs(3, { baseDelayMs: 100, maxDelayMs: 250 }) is 250", () => {
    t.eq(nextDelayMs(3, { baseDelayMs: 100, maxDelayMs: 250 }), 250);
    t.eq(nextDelayMs(1, { baseDelayMs: 100, maxDelayMs: 250 }), 100);
    t.eq(nextDelayMs(2, { baseDelayMs: 100, maxDelayMs: 250 }), 200);
    t.eq(nextDelayMs(2, { baseDelayMs: 0 }), 0);
    t.eq(nextDelayMs(5, { baseDelayMs: 1.5 }), 24, "fractional base");
    t.eq(nextDelayMs(5, { maxDelayMs: 0 }), 0, "zero ceiling");
  });

  t.test("jitter 0.25 at attempt 4: () => 1 gives 6000, () => 0 gives 8000", () => {
    t.eq(nextDelayMs(4, { jitter: 0.25, random: () => 1 }), 6000);
    t.eq(nextDelayMs(4, { jitter: 0.25, random: () => 0 }), 8000);
  });

  t.test("jitter only subtracts: Math.round(capped * (1 - jitter * r)), one draw", () => {
    for (const [attempt, o, r] of [
      [1, { jitter: 0.5 }, 0.3],
      [3, { jitter: 1 }, 0.999],
      [40, { jitter: 0.5 }, 0.5],
      [2, { jitter: 0.1, baseDelayMs: 2.5 }, 1],
      [1, { jitter: 0.5, baseDelayMs: 1 }, 1],
      [1, { jitter: 0.5, baseDelayMs: 3 }, 1],
      [7, { jitter: 0.3, baseDelayMs: 7, maxDelayMs: 100 }, 0.123456789],
      [1, { jitter: 1e-9 }, 0.5],
    ]) {
      const random = sequence([r]);
      const capped = Math.min((o.baseDelayMs ?? 1000) * 2 ** (attempt - 1), o.maxDelayMs ?? 3600000);
      t.eq(nextDelayMs(attempt, { ...o, random }), Math.round(capped * (1 - o.jitter * r)), `${attempt} ${t.show(o)} r=${r}`);
      t.eq(random.calls.length, 1, "exactly one draw");
      t.eq(random.calls[0], [], "random() is called without arguments");
    }
    t.eq(nextDelayMs(40, { jitter: 0.5, random: () => 0.5 }), 2700000);
    t.eq(nextDelayMs(1, { jitter: 0.5, baseDelayMs: 1, random: () => 1 }), 1, "Math.round(0.5) is 1");
    t.eq(nextDelayMs(1, { jitter: 0.5, baseDelayMs: 3, random: () => 1 }), 2, "Math.round(1.5) is 2");
  });

  t.test("jitter absent or 0 gives the exact value and takes no draw", () => {
    const random = noDraw();
    t.eq(nextDelayMs(4, { random }), 8000);
    t.eq(nextDelayMs(4, { jitter: 0, random }), 8000);
    t.eq(nextDelayMs(2, { jitter: 0, baseDelayMs: 1.5, random }), 3, "no rounding without jitter");
    t.eq(retrySchedule({ jitter: 0, random }), [1000, 2000, 4000, 8000, 16000, 32000, 64000]);
    t.eq(random.called, 0);
  });

  t.test("random defaults to Math.random, looked up at call time", () => {
    const calls = [];
    const spy = () => {
      calls.push(1);
      return 1;
    };
    t.swap(Math, "random", spy, () => {
      t.eq(nextDelayMs(4, { jitter: 0.25 }), 6000);
      t.eq(calls.length, 1, "one draw from the replaced Math.random");
      t.eq(retrySchedule({ jitter: 0.5 }), [500, 1000, 2000, 4000, 8000, 16000, 32000]);
      t.eq(calls.length, 8);
      t.eq(totalRetryWindowMs({ jitter: 0.5 }), 63500);
    });
    t.swap(Math, "random", () => 0, () => t.eq(nextDelayMs(4, { jitter: 0.25 }), 8000));
    t.ok(typeof Math.random() === "number" && Math.random !== spy, "Math.random restored");
  });

  t.test("draws outside [0, 1] or not numbers are SigilError invalid_argument", () => {
    for (const r of [-0.0001, 1.0000001, 2, -1, NaN, Infinity, -Infinity, "0.5", null, undefined, true, {}, [0.5], 1n]) {
      sigilError(() => nextDelayMs(4, { jitter: 0.25, random: () => r }), `draw ${t.show(r)}`);
    }
    t.eq(nextDelayMs(4, { jitter: 0.25, random: () => -0 }), 8000, "-0 is in [0, 1]");
  });

  t.test("an exception thrown by random passes through unchanged", () => {
    const boom = new Error("boom");
    t.throws(() => nextDelayMs(1, { jitter: 0.5, random: () => { throw boom; } }), { is: boom });
    const tagged = new TypeError("from the user");
    t.throws(() => retrySchedule({ jitter: 0.5, random: () => { throw tagged; } }), { is: tagged });
    t.throws(() => nextDelayMs(1, { jitter: 0.5, random: () => { throw "a string"; } }), { is: "a string" });
    const sym = Symbol("s");
    t.throws(() => totalRetryWindowMs({ jitter: 0.5, random: () => { throw sym; } }), { is: sym });
  });

  t.test("invalid attempts are SigilError invalid_argument naming attempt", () => {
    for (const a of [0, -1, -0, 1.5, 0.5, NaN, Infinity, -Infinity, "2", null, undefined, true, {}, [1], 1n]) {
      sigilError(() => nextDelayMs(a), `attempt ${t.show(a)}`, ["attempt"]);
    }
    const err = sigilError(() => nextDelayMs(0), "attempt 0");
    t.eq(err.message.includes("0"), true, "message shows the value");
  });

  t.test("jitter outside (0, 1] or not a number is SigilError", () => {
    for (const j of [-0.1, -1, 1.0000001, 1.5, 2, NaN, Infinity, -Infinity, "0.5", null, true, {}]) {
      sigilError(() => nextDelayMs(1, { jitter: j, random: () => 0.5 }), `jitter ${t.show(j)}`, ["jitter"]);
    }
    t.eq(nextDelayMs(1, { jitter: 1, random: () => 1 }), 0, "jitter 1 is the upper bound");
    t.eq(nextDelayMs(1, { jitter: Number.MIN_VALUE, random: () => 1 }), 1000, "the smallest jitter is legal");
  });

  t.test("baseDelayMs/maxDelayMs negative, NaN or not a number are SigilError (beyond the original)", () => {
    for (const v of [-1, -0.5, -Infinity, NaN, "1000", null, true, {}, [1000], 1000n]) {
      sigilError(() => nextDelayMs(1, { baseDelayMs: v }), `baseDelayMs ${t.show(v)}`, ["baseDelayMs"]);
      sigilError(() => nextDelayMs(1, { maxDelayMs: v }), `maxDelayMs ${t.show(v)}`, ["maxDelayMs"]);
      sigilError(() => retrySchedule({ baseDelayMs: v }), `retrySchedule baseDelayMs ${t.show(v)}`);
      sigilError(() => totalRetryWindowMs({ maxDelayMs: v }), `totalRetryWindowMs maxDelayMs ${t.show(v)}`);
    }
  });

  t.test("retrySchedule: default, { maxAttempts: 1 } → [], { jitter: 0.5, random: () => 1 }", () => {
    t.eq(retrySchedule(), [1000, 2000, 4000, 8000, 16000, 32000, 64000]);
    t.eq(retrySchedule({}), [1000, 2000, 4000, 8000, 16000, 32000, 64000]);
    t.eq(retrySchedule({ maxAttempts: 1 }), []);
    t.eq(retrySchedule({ maxAttempts: 2 }), [1000]);
    t.eq(retrySchedule({ jitter: 0.5, random: () => 1 }), [500, 1000, 2000, 4000, 8000, 16000, 32000]);
    t.eq(retrySchedule({ maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 250 }), [100, 200, 250]);
    t.eq(retrySchedule({ maxAttempts: 16 }).slice(-4), [2048000, 3600000, 3600000, 3600000]);
  });

  t.test("retrySchedule draws in order, once per retry", () => {
    const random = sequence([0, 0.5, 1, 0.25]);
    t.eq(retrySchedule({ maxAttempts: 5, jitter: 1, random }), [1000, 1000, 0, 6000]);
    t.eq(random.calls.length, 4);
  });

  t.test("retrySchedule keeps its own policy when random itself calls the package (another policy, Sigil)", () => {
    // Each draw computes another policy's wait first (it replaces the one compiled policy in wasm).
    const { createBackoff } = lib;
    const other = createBackoff({ base: 7, factor: 3, max: 50, jitter: "full", seed: "other" });
    const calls = [];
    const viaBackoff = () => (calls.push(other.delay(4)), 0.5);
    t.eq(retrySchedule({ maxAttempts: 5, jitter: 0.2, random: viaBackoff }), [900, 1800, 3600, 7200]);
    t.eq(calls.length, 4);
    const viaSigil = () => (nextDelayMs(2, { baseDelayMs: 1 }), retrySchedule({ maxAttempts: 2 }), 1);
    t.eq(retrySchedule({ jitter: 0.5, random: viaSigil }), [500, 1000, 2000, 4000, 8000, 16000, 32000]);
    t.eq(totalRetryWindowMs({ jitter: 0.5, random: viaSigil }), 63500);
    // A schedule drawn inside another schedule's draws: each keeps its own numbers.
    let inner;
    const nested = () => ((inner = retrySchedule({ maxAttempts: 3, baseDelayMs: 10, jitter: 1, random: () => 0.5 })), 0);
    t.eq(retrySchedule({ maxAttempts: 4, baseDelayMs: 100, jitter: 0.5, random: nested }), [100, 200, 400]);
    t.eq(inner, [5, 10]);
  });

  t.test("nextDelayMs knows maxAttempts but neither reads nor checks it (only a schedule does)", () => {
    t.eq(nextDelayMs(2, { maxAttempts: -5 }), 2000);
    t.eq(nextDelayMs(2, { maxAttempts: "8", baseDelayMs: 10 }), 20);
    let reads = 0;
    t.eq(nextDelayMs(3, { get maxAttempts() { reads++; throw new Error("read"); } }), 4000);
    t.eq(reads, 0, "the getter does not run");
    sigilError(() => retrySchedule({ maxAttempts: -5 }), "retrySchedule maxAttempts -5", ["maxAttempts", "-5"]);
  });

  t.test("retrySchedule: maxAttempts 0, 1.5, -1, NaN, Infinity, '8', null are SigilError", () => {
    for (const n of [0, 1.5, -1, NaN, Infinity, "8", null, true]) {
      sigilError(() => retrySchedule({ maxAttempts: n }), `maxAttempts ${t.show(n)}`, ["maxAttempts"]);
      sigilError(() => totalRetryWindowMs({ maxAttempts: n }), `totalRetryWindowMs maxAttempts ${t.show(n)}`);
    }
  });

  t.test("totalRetryWindowMs is the sum of retrySchedule: default 127000", () => {
    t.eq(totalRetryWindowMs(), 127000);
    t.eq(totalRetryWindowMs({ maxAttempts: 1 }), 0);
    t.eq(totalRetryWindowMs({ maxAttempts: 3 }), 3000);
    t.eq(totalRetryWindowMs({ jitter: 0.5, random: () => 1 }), 63500);
    t.eq(totalRetryWindowMs({ maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 250 }), 550);
    const a = seededRandom("window");
    const b = seededRandom("window");
    const sched = retrySchedule({ jitter: 0.3, random: a });
    t.eq(totalRetryWindowMs({ jitter: 0.3, random: b }), sched.reduce((x, y) => x + y, 0));
  });

  t.test("seededRandom(seed) equals createRandom(seed).next() draw for draw", () => {
    for (const seed of [42, "42", "signup-suite", "", 0, -7, 1e21, "\uD800"]) {
      const f = seededRandom(seed);
      const g = createRandom(seed);
      t.eq(typeof f, "function");
      for (let i = 0; i < 200; i++) {
        const x = f();
        t.eq(x, g.next(), `seed ${t.show(seed)} draw ${i}`);
        t.ok(x >= 0 && x < 1, "in [0, 1)");
      }
    }
    t.eq(Math.floor(seededRandom(42)() * 2 ** 32), 3833195492);
    t.eq(sigilEntry.seededRandom("signup-suite")() * 2 ** 32, 1665886051);
  });

  t.test("seededRandom drives jitter reproducibly", () => {
    const a = retrySchedule({ jitter: 0.5, random: seededRandom("s") });
    const twin = createRandom("s");
    const expected = [1000, 2000, 4000, 8000, 16000, 32000, 64000].map((d) => Math.round(d * (1 - 0.5 * twin.next())));
    t.eq(a, expected);
  });

  t.test("seed: keyed jitter, the draw of retry n is createRandom(seed + ' ' + n).next(); not with random", () => {
    t.eq(nextDelayMs(4, { jitter: 0.25, seed: "s" }), 6458);
    t.eq(nextDelayMs(4, { jitter: 0.25, seed: "s" }), Math.round(8000 * (1 - 0.25 * createRandom("s 4").next())));
    t.eq(retrySchedule({ maxAttempts: 3, jitter: 0.5, seed: 7 }), [1, 2].map((n) => Math.round(1000 * 2 ** (n - 1) * (1 - 0.5 * createRandom(`7 ${n}`).next()))));
    t.throws(() => nextDelayMs(4, { jitter: 0.25, seed: "s", random: () => 1 }), { instance: TypeError, includes: ["seed", "random"] });
    sigilError(() => nextDelayMs(4, { jitter: 0.25, seed: true }), "seed true", ["seed"]);
  });

  t.test("only the function seededRandom made draws as its stream: a Proxy of one or a function inheriting from one is called", () => {
    const apply = new Proxy(seededRandom(1), { apply: () => 1 });
    t.eq(nextDelayMs(4, { jitter: 0.25, random: seededRandom(1) }), 6462, "the stream itself");
    t.eq(nextDelayMs(4, { jitter: 0.25, random: apply }), 6000, "a Proxy whose apply answers 1");
    t.eq(retrySchedule({ maxAttempts: 3, jitter: 0.5, random: apply }), [500, 1000]);
    t.eq(totalRetryWindowMs({ maxAttempts: 3, jitter: 0.5, random: apply }), 1500);
    const inheriting = Object.setPrototypeOf(() => 0, seededRandom(1));
    t.eq(nextDelayMs(4, { jitter: 0.25, random: inheriting }), 8000, "a function whose prototype is a stream");
    t.eq(retrySchedule({ maxAttempts: 3, jitter: 0.5, random: inheriting }), [1000, 2000]);
    t.eq(sigilEntry.nextDelayMs(4, { jitter: 0.25, random: apply }), 6000, "/sigil");
    // A Proxy with no trap calls the function, which draws from the stream it wraps.
    const f = seededRandom("proxied");
    const calls = [];
    const counted = new Proxy(f, { apply: (target, self, args) => (calls.push(args), Reflect.apply(target, self, args)) });
    const twin = createRandom("proxied");
    t.eq(nextDelayMs(4, { jitter: 0.25, random: counted }), Math.round(8000 * (1 - 0.25 * twin.next())));
    t.eq(calls, [[]], "called once, with no arguments");
    t.eq(f(), twin.next(), "the stream moved on by that one draw");
  });

  t.test("unknown option names and non-object options are SigilError", () => {
    sigilError(() => nextDelayMs(1, { baseDelay: 5 }), "typo baseDelay");
    sigilError(() => nextDelayMs(1, 5), "options 5");
    sigilError(() => nextDelayMs(1, { jitter: 0.5, random: 0.5 }), "random not a function");
  });

  t.test("SigilError: class shape and instanceof across entry points", () => {
    const e = new SigilError("invalid_argument", "x");
    t.ok(e instanceof Error);
    t.eq(e.name, "SigilError");
    t.eq(e.message, "x");
    t.eq(e.code, "invalid_argument");
    t.ok(e instanceof sigilEntry.SigilError);
    t.ok(!(new Error("x") instanceof SigilError), "a plain Error is not a SigilError");
    t.ok(!(new RangeError("x") instanceof sigilEntry.SigilError));
    const fromEntry = sigilError(() => sigilEntry.nextDelayMs(0), "/sigil nextDelayMs(0)");
    t.eq(fromEntry.code, "invalid_argument");
    t.eq(Object.prototype.toString.call(fromEntry), "[object Error]");
    if (entries.cjs) {
      let cjsErr;
      try {
        entries.cjs.nextDelayMs(0);
      } catch (err) {
        cjsErr = err;
      }
      t.ok(cjsErr instanceof SigilError, "a CommonJS-thrown SigilError is an ESM SigilError");
      t.eq(cjsErr.code, "invalid_argument");
    }
  });
};
