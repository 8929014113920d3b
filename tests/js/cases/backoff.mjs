// API.md section 2: `/backoff`, createBackoff of @sdxc/backoff.
// Shared body: runs in Node (ESM build) and in headless Chromium (browser build).

const delays = (b, from, to) => {
  const out = [];
  for (let a = from; a <= to; a++) out.push(b.delay(a));
  return out;
};

/** A Random-like `{ float }` that records its calls and returns `pick(min, max)`. */
function floatSource(pick) {
  const src = {
    calls: [],
    float(...args) {
      src.calls.push(args);
      return pick(...args);
    },
  };
  return src;
}

/** A Random-like `{ next }` that records its calls and returns `values` in order. */
function nextSource(values) {
  const src = {
    calls: [],
    next(...args) {
      src.calls.push(args);
      return values[(src.calls.length - 1) % values.length];
    },
  };
  return src;
}

/** A bare `() => number` that records its calls. */
function bareSource(values) {
  const f = (...args) => {
    f.calls.push(args);
    return values[(f.calls.length - 1) % values.length];
  };
  f.calls = [];
  return f;
}

export default (t, lib, entries) => {
  const { createBackoff, Backoff, createRandom, systemRandom } = lib;
  const range = (fn, label, includes) => t.throws(fn, { instance: RangeError, includes }, label);
  const rangeOrType = (fn, label, includes) => t.throws(fn, { instance: [RangeError, TypeError], includes }, label);

  t.test("vector {base: \"1 second\"} → 1000, 2000, 4000, 8000, 16000", () => {
    t.eq(delays(createBackoff({ base: "1 second" }), 1, 5), [1000, 2000, 4000, 8000, 16000]);
    t.eq(delays(entries.backoff.createBackoff({ base: "1 second" }), 1, 5), [1000, 2000, 4000, 8000, 16000], "/backoff entry");
  });

  t.test("vector {base: 100, factor: 3} → 100, 300, 900, 2700", () => {
    t.eq(delays(createBackoff({ base: 100, factor: 3 }), 1, 4), [100, 300, 900, 2700]);
  });

  t.test("vector {base: \"1 minute\", growth: \"linear\"} → 60000, 120000, 180000", () => {
    t.eq(delays(createBackoff({ base: "1 minute", growth: "linear" }), 1, 3), [60000, 120000, 180000]);
  });

  t.test("vector {base: \"15 seconds\", max: \"1 minute\"} → 15000, 30000, 60000, 60000", () => {
    t.eq(delays(createBackoff({ base: "15 seconds", max: "1 minute" }), 1, 4), [15000, 30000, 60000, 60000]);
  });

  t.test("vector {base: \"15 seconds\", max: \"12 hours\"}.delay(20) → 43200000", () => {
    t.eq(createBackoff({ base: "15 seconds", max: "12 hours" }).delay(20), 43200000);
  });

  t.test("vector {free: 3, base: \"1 second\"} → 0, 0, 0, 1000, 2000, 4000", () => {
    t.eq(delays(createBackoff({ free: 3, base: "1 second" }), 1, 6), [0, 0, 0, 1000, 2000, 4000]);
  });

  t.test("vector {free: 1, steps: [10, 20]} → 0, 10, 20, 20", () => {
    t.eq(delays(createBackoff({ free: 1, steps: [10, 20] }), 1, 4), [0, 10, 20, 20]);
  });

  t.test("vector {base: 1000}.at(3, 1700000000000) → 1700000004000", () => {
    t.eq(createBackoff({ base: 1000 }).at(3, 1700000000000), 1700000004000);
  });

  t.test("growth kinds, ceilings and steps follow the formulas", () => {
    t.eq(delays(createBackoff({ base: 7, growth: "constant" }), 1, 4), [7, 7, 7, 7]);
    t.eq(delays(createBackoff({ base: "2s", growth: "constant", max: "2s" }), 1, 3), [2000, 2000, 2000]);
    t.eq(delays(createBackoff({ base: 100, growth: "linear", max: 250 }), 1, 4), [100, 200, 250, 250]);
    t.eq(delays(createBackoff({ base: 100, growth: "exponential" }), 1, 3), [100, 200, 400]);
    t.eq(delays(createBackoff({ base: 100, factor: 1 }), 1, 3), [100, 100, 100]);
    t.eq(delays(createBackoff({ base: 100, factor: 1.5 }), 1, 4), [100, 150, 225, 337.5], "no rounding without jitter");
    t.eq(delays(createBackoff({ steps: ["1s", "1 minute", 5] }), 1, 5), [1000, 60000, 5, 5, 5]);
    t.eq(delays(createBackoff({ steps: [0] }), 1, 2), [0, 0]);
    t.eq(delays(createBackoff({ base: 0 }), 1, 3), [0, 0, 0]);
    t.eq(createBackoff({ base: 1, max: 1 }).delay(5), 1, "max equal to base is legal");
    t.eq(createBackoff({ base: 1000, max: Infinity }).delay(40), 1000 * 2 ** 39, "max Infinity is unbounded");
  });

  t.test("exponential growth is base * factor^(counted - 1) with the power correctly rounded, the same on every engine", () => {
    // [factor, exponent, the double nearest factor^exponent] (exact BigInt arithmetic,
    // tests/js/cases/model.mjs exactPow). Node 20/22's Math.pow gives 1.4641000000000006 for
    // 1.1^4, 10.834705943388393 for 1.1^25, 1.7440379485629117e188 for 1.5^1069.
    const powers = [
      [1.1, 4, 1.4641000000000004],
      [1.1, 25, 10.834705943388395],
      [1.1, 32, 21.113776745352606],
      [1.1, 50, 117.39085287969579],
      [1.5, 1069, 1.7440379485629114e188],
      [4.547276898287237, 7, 40203.12425401454],
      [4.657957512885332, 39, 1.1471636861444826e26],
      [2.8959862738847733, 190, 5.512325183439968e87],
      [3, 34, 16677181699666568],
      [3, 700, Infinity],
    ];
    for (const [f, n, p] of powers) {
      t.eq(createBackoff({ base: 1, factor: f }).delay(n + 1), p, `factor ${f} ^ ${n}`);
      t.eq(createBackoff({ base: 234347, factor: f }).delay(n + 1), 234347 * p, `base 234347, factor ${f} ^ ${n}`);
      t.eq(lib.Backoff.exponential(7, f).delay(n + 1), 7 * p, `fluent, factor ${f} ^ ${n}`);
    }
    t.eq(delays(createBackoff({ base: 1000, factor: 1.1 }), 1, 5), [1000, 1100, 1210.0000000000002, 1331.0000000000005, 1464.1000000000004]);
    t.eq(createBackoff({ base: 100, factor: 1 }).delay(Infinity), 100, "1^Infinity is 1 (Math.pow gives NaN)");
    t.eq(createBackoff({ base: 100, factor: 1.0000000000000002 }).delay(2 ** 52 + 1), 271.8281828459045, "(1 + 2^-52)^(2^52), close to e");
    t.eq(createBackoff({ base: 100, factor: 1.0000000000000002 }).delay(2 ** 53), 738.9056098930647, "(1 + 2^-52)^(2^53 - 1), just below e^2");
  });

  t.test("without max an exponential curve reaches Infinity", () => {
    const b = createBackoff({ base: 1000 });
    t.eq(b.delay(1024), 1000 * 2 ** 1023);
    t.eq(b.delay(1025), Infinity);
    t.eq(b.delay(5000), Infinity);
    t.eq(createBackoff({ base: 1, factor: 10 }).delay(400), Infinity);
    t.eq(createBackoff({ base: 1, factor: 10 }).delay(300), 1 * 10 ** 299);
  });

  t.test("{base: 1000, jitter: 0.2, random: createRandom(\"scale\")}.delay(3) = Math.round(4000 * createRandom(\"scale\").float(0.8, 1.2))", () => {
    const got = createBackoff({ base: 1000, jitter: 0.2, random: createRandom("scale") }).delay(3);
    t.eq(got, Math.round(4000 * createRandom("scale").float(0.8, 1.2)));
  });

  t.test("a seeded random: one draw per jittered call, the ± and full formulas", () => {
    const b = createBackoff({ base: 1000, max: 30000, jitter: 0.3, random: createRandom("seq") });
    const twin = createRandom("seq");
    for (let a = 1; a <= 40; a++) {
      const d = Math.min(1000 * 2 ** (a - 1), 30000);
      t.eq(b.delay(a), Math.round(d * twin.float(1 - 0.3, 1 + 0.3)), `attempt ${a}`);
    }
    const full = createBackoff({ base: 1000, max: 30000, jitter: "full", random: createRandom("full") });
    const twin2 = createRandom("full");
    for (let a = 1; a <= 40; a++) {
      const d = Math.min(1000 * 2 ** (a - 1), 30000);
      t.eq(full.delay(a), Math.round(twin2.float(0, d)), `full, attempt ${a}`);
    }
  });

  t.test("random as { float }: called as float(1 - f, 1 + f), result Math.round(d * x)", () => {
    for (const f of [0.2, 0.5, 1, 0.1, 0.3, 1e-9]) {
      const src = floatSource((min, max) => min + 0.37 * (max - min));
      const b = createBackoff({ base: 1000, jitter: f, random: src });
      for (let a = 1; a <= 4; a++) {
        const d = 1000 * 2 ** (a - 1);
        t.eq(b.delay(a), Math.round(d * ((1 - f) + 0.37 * ((1 + f) - (1 - f)))), `f ${f}, attempt ${a}`);
      }
      t.eq(src.calls, Array.from({ length: 4 }, () => [1 - f, 1 + f]), `f ${f}: calls`);
    }
  });

  t.test("random as { float } with \"full\": called as float(0, d), result Math.round(x)", () => {
    const src = floatSource((min, max) => min + 0.75 * (max - min));
    const b = createBackoff({ base: 333, max: 5000, jitter: "full", random: src });
    t.eq(delays(b, 1, 6), [250, 500, 999, 1998, 3750, 3750]);
    t.eq(src.calls, [[0, 333], [0, 666], [0, 1332], [0, 2664], [0, 5000], [0, 5000]]);
  });

  t.test("random as { float }: a returned endpoint is legal (() => max)", () => {
    t.eq(createBackoff({ base: 1000, jitter: 0.5, random: { float: (min, max) => max } }).delay(1), 1500);
    t.eq(createBackoff({ base: 1000, jitter: 0.5, random: { float: (min) => min } }).delay(1), 500);
    t.eq(createBackoff({ base: 1000, jitter: "full", random: { float: (min, max) => max } }).delay(1), 1000);
  });

  t.test("random as { next }: one next() per call, float(min, max) = min + next() * (max - min)", () => {
    const values = [0, 0.5, 0.999, 0.123456789, 0.25];
    const src = nextSource(values);
    const f = 0.4;
    const b = createBackoff({ base: 1500, jitter: f, random: src });
    for (let a = 1; a <= 10; a++) {
      const d = 1500 * 2 ** (a - 1);
      const r = values[(a - 1) % values.length];
      t.eq(b.delay(a), Math.round(d * ((1 - f) + r * ((1 + f) - (1 - f)))), `attempt ${a}`);
    }
    t.eq(src.calls.length, 10);
    t.eq(src.calls[0], [], "next() takes no arguments");
    const full = nextSource([0.5, 0.9999999]);
    const fb = createBackoff({ base: 1001, jitter: "full", random: full });
    t.eq([fb.delay(1), fb.delay(1)], [Math.round(0 + 0.5 * (1001 - 0)), Math.round(0 + 0.9999999 * (1001 - 0))]);
    t.eq(full.calls.length, 2);
  });

  t.test("random as a bare () => number: one call per jittered delay", () => {
    const values = [0.1, 0.9, 0.5];
    const fn = bareSource(values);
    const b = createBackoff({ base: 100, jitter: 0.5, random: fn });
    const got = delays(b, 1, 6);
    const want = values.concat(values).map((r, i) => Math.round(100 * 2 ** i * (0.5 + r * (1.5 - 0.5))));
    t.eq(got, want);
    t.eq(fn.calls.length, 6);
    t.eq(fn.calls[0], []);
    const full = bareSource([0.5]);
    t.eq(createBackoff({ base: 999, jitter: "full", random: full }).delay(1), Math.round(0.5 * 999));
    t.eq(full.calls.length, 1);
  });

  t.test("an object that only inherits from a seeded stream, a Proxy of one or a spread copy is a source like any other", () => {
    // Its draws are the functions it has (not the stream's state inside wasm, which it does not
    // carry); a stream's functions are its own and draw from its words, as @sdxc/random's do.
    const twin = createRandom("inherited");
    const want = (base, n) => Math.round(base * 2 ** (n - 1) * twin.float(0.5, 1.5));
    const child = Object.create(createRandom("inherited"));
    const values = [0.5, 0.25];
    child.float = (min, max) => min + values.shift() * (max - min);
    const b = createBackoff({ base: 1000, jitter: 0.5, random: child });
    t.eq([b.delay(2), b.delay(3)], [2000, 3000]);
    // Only an own `next`: `float` is the stream's (inherited), which draws from the stream.
    const onlyNext = Object.assign(Object.create(createRandom("inherited")), { next: () => 1 });
    t.eq(Backoff.exponential(1000).jitter(0.5).random(onlyNext).delay(2), want(1000, 2));
    const proxied = new Proxy(createRandom("inherited"), {});
    t.eq(proxied.next(), createRandom("inherited").next(), "a Proxy's next() is the stream's");
    t.eq(createBackoff({ base: 1000, jitter: 0.5, random: proxied }).delay(1), want(1000, 1));
    t.eq(createBackoff({ base: 1000, jitter: 0.5, random: proxied }).delay(0), 0, "no draw");
    const spread = { ...createRandom("spread") };
    const spreadTwin = createRandom("spread");
    t.eq(createBackoff({ base: 1000, jitter: 0.25, random: spread }).delay(3), Math.round(4000 * spreadTwin.float(0.75, 1.25)));
    // Sigil's seededRandom functions are bare `() => number` sources: a Proxy of one, or a
    // function inheriting from one, is called.
    const apply = new Proxy(lib.seededRandom(1), { apply: () => 1 });
    t.eq(createBackoff({ base: 100, jitter: "full", random: apply }).delay(3), 400);
    t.eq(Backoff.exponential(100).jitter("full").random(apply).delay(3), 400);
    const inheriting = Object.setPrototypeOf(() => 0.5, lib.seededRandom(1));
    t.eq(createBackoff({ base: 100, jitter: 0.5, random: inheriting }).delay(3), 400);
  });

  t.test("an object with both float and next is used through float", () => {
    const src = { calls: [], float(min, max) { src.calls.push("float"); return min; }, next() { src.calls.push("next"); return 0.5; } };
    t.eq(createBackoff({ base: 1000, jitter: 0.5, random: src }).delay(1), 500);
    t.eq(src.calls, ["float"]);
  });

  t.test("no draw for free attempts, jitter 0, or absent jitter (and no rounding)", () => {
    const src = floatSource(() => { throw new Error("no draw expected"); });
    const fn = bareSource([0.5]);
    t.eq(delays(createBackoff({ base: 1000, free: 2, jitter: 0.5, random: src }), -1, 2), [0, 0, 0, 0]);
    t.eq(delays(createBackoff({ base: 1.5, jitter: 0, random: src }), 1, 3), [1.5, 3, 6]);
    t.eq(delays(createBackoff({ base: 1.5, random: src }), 1, 3), [1.5, 3, 6]);
    t.eq(delays(createBackoff({ steps: [0.25], jitter: 0, random: fn }), 1, 2), [0.25, 0.25]);
    t.eq(createBackoff({ base: 1000, jitter: "full", free: 1, random: fn }).delay(1), 0);
    t.eq(createBackoff({ base: 1000, jitter: "full", random: fn }).delay(NaN), 0);
    t.eq(src.calls.length, 0);
    t.eq(fn.calls.length, 0);
  });

  t.test("the default random is systemRandom (never Math.random), one draw, result in the band", () => {
    let mathRandomCalls = 0;
    t.swap(Math, "random", () => { mathRandomCalls++; return 0.5; }, () => {
      const b = createBackoff({ base: 1000, jitter: 0.5 });
      const seen = new Set();
      for (let i = 0; i < 300; i++) {
        const x = b.delay(2);
        t.ok(Number.isInteger(x) && x >= 1000 && x <= 3000, `delay ${x} in [1000, 3000]`);
        seen.add(x);
      }
      t.ok(seen.size > 100, "the draws vary");
      const full = createBackoff({ base: 1000, jitter: "full" });
      for (let i = 0; i < 300; i++) {
        const x = full.delay(1);
        t.ok(Number.isInteger(x) && x >= 0 && x <= 1000, `full delay ${x} in [0, 1000]`);
      }
    });
    t.eq(mathRandomCalls, 0);
    t.ok(typeof systemRandom().next() === "number");
  });

  t.test("full jitter is an integer in [0, d] for every draw", () => {
    const r = createRandom("full-range");
    const b = createBackoff({ base: 7, max: 9999, jitter: "full", random: r });
    for (let i = 0; i < 2000; i++) {
      const a = 1 + (i % 15);
      const d = Math.min(7 * 2 ** (a - 1), 9999);
      const x = b.delay(a);
      t.ok(Number.isInteger(x) && x >= 0 && x <= d, `attempt ${a}: ${x} in [0, ${d}]`);
    }
    t.eq(createBackoff({ base: 10, jitter: "full", random: () => 0 }).delay(1), 0);
    t.eq(createBackoff({ base: 10, jitter: "full", random: () => 0.96 }).delay(1), 10);
  });

  t.test("jitter is applied after the ceiling: at the cap it spreads both ways", () => {
    const b = createBackoff({ base: "15 seconds", max: "1 minute", jitter: 0.5, random: createRandom("cap") });
    let above = 0;
    let below = 0;
    for (let i = 0; i < 200; i++) {
      const x = b.delay(10);
      t.ok(x >= 30000 && x <= 90000, `${x} in [30000, 90000]`);
      if (x > 60000) above++;
      if (x < 60000) below++;
    }
    t.ok(above > 20 && below > 20, `above the cap ${above} times, below ${below} times`);
    t.eq(createBackoff({ base: "15 seconds", max: "1 minute", jitter: 0.5, random: () => 1 }).delay(10), 90000);
    t.eq(createBackoff({ base: "15 seconds", max: "1 minute", jitter: 0.5, random: () => 0 }).delay(10), 30000);
  });

  t.test("jitter rounding is Math.round (ties toward +Infinity)", () => {
    t.eq(createBackoff({ base: 1, jitter: 0.5, random: { float: () => 0.5 } }).delay(1), 1, "0.5 → 1");
    t.eq(createBackoff({ base: 5, jitter: 0.5, random: { float: () => 0.5 } }).delay(1), 3, "2.5 → 3");
    t.eq(createBackoff({ base: 3, jitter: 1, random: { float: () => 0.5 } }).delay(1), 2, "1.5 → 2");
    t.eq(createBackoff({ base: 5, jitter: "full", random: { float: () => 2.5 } }).delay(1), 3, "full: 2.5 → 3");
    t.eq(createBackoff({ base: 5, jitter: "full", random: { float: () => 0.49999999999999994 } }).delay(1), 0);
  });

  t.test("at(attempt, now) = now + delay(attempt), one draw", () => {
    const b = createBackoff({ base: 1000, free: 1 });
    t.eq(b.at(1, 5), 5);
    t.eq(b.at(2, 5), 1005);
    t.eq(b.at(4, 1700000000000), 1700000004000);
    t.eq(b.at(NaN, 123), 123);
    t.eq(b.at(2, 0.5), 1000.5);
    const src = bareSource([0.5]);
    const j = createBackoff({ base: 1000, jitter: 0.5, random: src });
    t.eq(j.at(1, 100), 100 + Math.round(1000 * (0.5 + 0.5 * (1.5 - 0.5))));
    t.eq(src.calls.length, 1);
    const before = Date.now();
    const at = createBackoff({ base: 1000 }).at(1);
    const after = Date.now();
    t.ok(at >= before + 1000 && at <= after + 1000, "now defaults to Date.now()");
  });

  t.test("delay and at never throw for any number", () => {
    const policies = [
      createBackoff({ base: 1000 }),
      createBackoff({ base: 1000, max: 60000 }),
      createBackoff({ base: 100, growth: "linear" }),
      createBackoff({ base: 100, growth: "linear", max: 1000 }),
      createBackoff({ base: 100, growth: "constant" }),
      createBackoff({ steps: [10, 20, 30], free: 2 }),
      createBackoff({ base: 1000, max: 60000, jitter: 0.5, random: createRandom("n") }),
      createBackoff({ base: 1000, jitter: "full", random: createRandom("n") }),
      createBackoff({ base: 1000, jitter: 1, free: 3, random: () => 0.5 }),
    ];
    const numbers = [NaN, -Infinity, Infinity, 2 ** 53, 2 ** 53 - 1, -0, 0, -1, 1.5, 0.5, 1e308, Number.MAX_VALUE, Number.MIN_VALUE, -(2 ** 53), 1e-300];
    for (const [i, p] of policies.entries()) {
      for (const n of numbers) {
        const d = t.noThrow(() => p.delay(n), `policy ${i}: delay(${t.show(n)})`);
        t.eq(typeof d, "number", `policy ${i}: delay(${t.show(n)}) is a number`);
        t.ok(!(d < 0), `policy ${i}: delay(${t.show(n)}) = ${d} is not negative`);
        t.noThrow(() => p.at(n, 0), `policy ${i}: at(${t.show(n)}, 0)`);
      }
    }
  });

  t.test("delay of NaN, -Infinity, -0, 0 and negatives is exactly 0", () => {
    const b = createBackoff({ base: 1000, max: 60000 });
    for (const n of [NaN, -Infinity, -0, 0, -1, 0.999, -(2 ** 53)]) t.eq(b.delay(n), 0, `delay(${t.show(n)})`);
    const s = createBackoff({ steps: [10, 20], free: 1 });
    for (const n of [NaN, -Infinity, -0, 0, 1, 1.999]) t.eq(s.delay(n), 0, `steps delay(${t.show(n)})`);
  });

  t.test("delay of huge attempts: capped curves stay at the cap, steps at the last", () => {
    const b = createBackoff({ base: 1000, max: 60000 });
    for (const n of [Infinity, 2 ** 53, 2 ** 53 - 1, 1e308]) t.eq(b.delay(n), 60000, `delay(${t.show(n)})`);
    t.eq(createBackoff({ base: 100, growth: "linear", max: 1000 }).delay(2 ** 53), 1000);
    t.eq(createBackoff({ base: 100, growth: "linear" }).delay(2 ** 53), 100 * 2 ** 53);
    t.eq(createBackoff({ base: 100, growth: "constant" }).delay(Infinity), 100);
    t.eq(createBackoff({ steps: [10, 20] }).delay(2 ** 53), 20);
    t.eq(createBackoff({ steps: [10, 20] }).delay(Infinity), 20);
    t.eq(createBackoff({ base: 1000 }).delay(2 ** 53), Infinity);
  });

  t.test("RangeError naming the option and value: negative or unparseable durations", () => {
    range(() => createBackoff({ base: -1 }), "base -1", ["base", "-1"]);
    range(() => createBackoff({ base: "-5s" }), "base -5s", ["base", "-5s"]);
    range(() => createBackoff({ base: "5 minuts" }), "base 5 minuts", ["base", "5 minuts"]);
    range(() => createBackoff({ base: "" }), "base empty", ["base"]);
    range(() => createBackoff({ base: NaN }), "base NaN", ["base", "NaN"]);
    range(() => createBackoff({ base: 1000, max: -1 }), "max -1", ["max", "-1"]);
    range(() => createBackoff({ base: 1000, max: "soon" }), "max soon", ["max", "soon"]);
    range(() => createBackoff({ steps: [10, -1] }), "steps [10, -1]", ["steps", "-1"]);
    range(() => createBackoff({ steps: ["1s", "1 parsec"] }), "steps unparseable", ["steps", "1 parsec"]);
  });

  t.test("RangeError: factor < 1 or not finite", () => {
    for (const f of [0.5, 0.99, 0, -2, NaN, Infinity, -Infinity]) range(() => createBackoff({ base: 1, factor: f }), `factor ${f}`, ["factor", String(f)]);
  });

  t.test("RangeError: max < base", () => {
    range(() => createBackoff({ base: 1000, max: 999 }), "max 999", ["max", "999"]);
    range(() => createBackoff({ base: "1 minute", max: "59 seconds" }), "max 59 seconds", ["max", "59 seconds"]);
    range(() => createBackoff({ base: 1, max: 0 }), "max 0", ["max", "0"]);
    range(() => createBackoff({ base: 100, growth: "linear", max: 50 }), "linear max 50", ["max", "50"]);
  });

  t.test("RangeError: jitter outside [0, 1]", () => {
    for (const j of [-0.1, -1, 1.0000001, 1.5, 2, NaN, Infinity, -Infinity]) range(() => createBackoff({ base: 1, jitter: j }), `jitter ${j}`, ["jitter", String(j)]);
    t.noThrow(() => createBackoff({ base: 1, jitter: 0 }));
    t.noThrow(() => createBackoff({ base: 1, jitter: 1 }));
  });

  t.test("RangeError: empty steps", () => {
    range(() => createBackoff({ steps: [] }), "steps []", ["steps"]);
  });

  t.test("RangeError: a bad free", () => {
    for (const f of [-1, 1.5, NaN, Infinity, -Infinity, 2 ** 53]) range(() => createBackoff({ base: 1, free: f }), `free ${f}`, ["free", String(f)]);
    t.eq(createBackoff({ base: 1, free: 2 ** 53 - 1 }).delay(2 ** 53), 1, "the largest safe free");
  });

  t.test("beyond the original: unknown growth, steps with base, a random that is neither → TypeError/RangeError", () => {
    for (const g of ["quadratic", "Exponential", "", null, 2]) rangeOrType(() => createBackoff({ base: 1, growth: g }), `growth ${t.show(g)}`, ["growth"]);
    rangeOrType(() => createBackoff({ base: 1, steps: [1] }), "steps and base");
    rangeOrType(() => createBackoff({ steps: [1], max: 5 }), "steps and max");
    rangeOrType(() => createBackoff({ steps: [1], factor: 3 }), "steps and factor");
    rangeOrType(() => createBackoff({ steps: [1], growth: "linear" }), "steps and growth");
    for (const r of [42, "random", {}, { float: 1 }, { next: "x" }, [], true, null]) {
      rangeOrType(() => createBackoff({ base: 1, jitter: 0.5, random: r }), `random ${t.show(r)}`, ["random"]);
    }
    rangeOrType(() => createBackoff({}), "neither base nor steps");
    rangeOrType(() => createBackoff({ base: 1, jiter: 0.5 }), "unknown option name");
    rangeOrType(() => createBackoff({ base: 1, jitter: "half" }), "jitter text", ["jitter"]);
    rangeOrType(() => createBackoff({ base: {} }), "base object", ["base"]);
    rangeOrType(() => createBackoff({ steps: "1s" }), "steps not a list", ["steps"]);
    rangeOrType(() => createBackoff(), "no options");
    rangeOrType(() => createBackoff(null), "null options");
  });

  t.test("a draw out of range from a user's random is an error, not a silent NaN", () => {
    rangeOrType(() => createBackoff({ base: 1, jitter: 0.5, random: () => NaN }).delay(1), "bare NaN");
    rangeOrType(() => createBackoff({ base: 1, jitter: 0.5, random: () => 1.5 }).delay(1), "bare 1.5");
    rangeOrType(() => createBackoff({ base: 1, jitter: 0.5, random: { next: () => -0.5 } }).delay(1), "next -0.5");
    rangeOrType(() => createBackoff({ base: 1, jitter: 0.5, random: { float: () => "1" } }).delay(1), "float \"1\"");
  });

  t.test("createBackoff returns a Backoff (the /policy class)", () => {
    const b = createBackoff({ base: 1 });
    t.ok(b instanceof Backoff);
    t.ok(b instanceof entries.backoff.Backoff);
    t.ok(b instanceof entries.policy.Backoff);
    t.ok(entries.backoff.Backoff === entries.policy.Backoff && entries.policy.Backoff === Backoff, "one class");
  });

  t.test("options are validated once: later changes to the options object do not matter", () => {
    const o = { base: 1000, max: 4000 };
    const b = createBackoff(o);
    o.base = 1;
    o.max = -5;
    t.eq(delays(b, 1, 4), [1000, 2000, 4000, 4000]);
  });
};
