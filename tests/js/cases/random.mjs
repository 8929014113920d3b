// API.md section 3: `/random`, seeded and system streams.
// Shared body: runs in Node (ESM build) and in headless Chromium (browser build).

const TWO32 = 4294967296;
const raw = (r, n) => Array.from({ length: n }, () => Math.floor(r.next() * TWO32));

export default (t, lib, entries) => {
  const { createRandom, restoreRandom, systemRandom, systemSeed } = lib;
  const rangeOrType = { instance: [RangeError, TypeError] };

  t.test("raw words floor(next() * 2^32) for 42, \"signup-suite\" and \"\"", () => {
    t.eq(raw(createRandom(42), 6), [3833195492, 3563769608, 4061610985, 767254976, 3389111029, 3727552234]);
    t.eq(raw(createRandom("signup-suite"), 6), [1665886051, 3924901832, 1861224746, 2455819951, 2930940383, 493917030]);
    t.eq(raw(createRandom(""), 6), [3075608207, 1941113166, 1250698130, 1973185690, 24547140, 1714710821]);
    t.eq(raw(entries.random.createRandom(42), 2), [3833195492, 3563769608], "/random entry");
  });

  t.test("next() is exactly a u32 over 2^32, in [0, 1)", () => {
    const r = createRandom("range");
    for (let i = 0; i < 2000; i++) {
      const x = r.next();
      t.ok(x >= 0 && x < 1, `draw ${i} = ${x}`);
      t.ok(Number.isInteger(x * TWO32), `draw ${i} is k / 2^32`);
    }
  });

  t.test("createRandom(42): eight int(0, 999) are 892, 829, 945, 178, 789, 867, 759, 526", () => {
    const r = createRandom(42);
    t.eq(Array.from({ length: 8 }, () => r.int(0, 999)), [892, 829, 945, 178, 789, 867, 759, 526]);
  });

  t.test("String(seed): 42 ≡ \"42\", 1e21 ≡ \"1e+21\", -0 ≡ \"0\"; seed is kept as given", () => {
    for (const [num, text] of [[42, "42"], [1e21, "1e+21"], [-0, "0"], [0.1, "0.1"], [-5, "-5"], [1e-7, "1e-7"], [NaN, "NaN"], [Infinity, "Infinity"], [2 ** 53, "9007199254740992"], [0.000001, "0.000001"]]) {
      const a = createRandom(num);
      const b = createRandom(text);
      t.eq(a.seed, num, `seed of ${t.show(num)} kept as given`);
      t.eq(b.seed, text, `seed of ${t.show(text)} kept as given`);
      t.eq(String(num), text, "JavaScript agrees");
      t.eq(raw(a, 4), raw(b, 4), `stream of ${t.show(num)} = stream of ${t.show(text)}`);
    }
    t.ok(raw(createRandom(1e21), 1)[0] !== raw(createRandom("1e21"), 1)[0], "1e21 is not \"1e21\"");
    t.ok(raw(createRandom(42), 1)[0] !== raw(createRandom("42 "), 1)[0], "no trimming of seeds");
  });

  t.test("lone surrogates are hashed as UTF-16 code units", () => {
    const lone = raw(createRandom("\uD800"), 6);
    t.eq(lone, [1156710037, 887606974, 4187485005, 3945240390, 1803735007, 1833556858], "\\uD800 per the spec hash");
    t.eq(raw(createRandom("\uD800"), 6), lone, "deterministic");
    t.eq(raw(createRandom("\uFFFD"), 6), [533192680, 3967893332, 3435633579, 1238639342, 850662554, 3129287138], "\\uFFFD");
    t.eq(raw(createRandom("\uDC00"), 3), [2560898021, 1176081672, 2784923223], "\\uDC00");
    t.ok(lone[0] !== raw(createRandom("\uFFFD"), 1)[0], "differs from U+FFFD");
    t.eq(createRandom("\uD800").seed, "\uD800", "seed kept verbatim");
    t.eq(createRandom("\uD800").state().words, [3550877959, 2156648913, 2750270315, 4039117757]);
    // A well-formed pair is two code units, not one code point.
    t.ok(raw(createRandom("\uD83D\uDE00"), 1)[0] !== raw(createRandom("\uD83D"), 1)[0]);
  });

  t.test("float(min = 0, max = 1) = min + next() * (max - min)", () => {
    const r = createRandom("float");
    const twin = createRandom("float");
    for (let i = 0; i < 50; i++) {
      t.eq(r.float(), 0 + twin.next() * (1 - 0), "float()");
      t.eq(r.float(2, 5), 2 + twin.next() * (5 - 2), "float(2, 5)");
      t.eq(r.float(-1.5, 0.25), -1.5 + twin.next() * (0.25 - -1.5), "float(-1.5, 0.25)");
      t.eq(r.float(0.8, 1.2), 0.8 + twin.next() * (1.2 - 0.8), "float(0.8, 1.2)");
      t.eq(r.float(3), 3 + twin.next() * (1 - 3), "float(3) keeps max = 1");
      t.eq(r.float(7, 7), 7, "float(7, 7)");
      twin.next();
    }
  });

  t.test("bool(chance = 0.5) = next() < chance", () => {
    const r = createRandom("bool");
    const twin = createRandom("bool");
    for (let i = 0; i < 100; i++) {
      t.eq(r.bool(), twin.next() < 0.5, "bool()");
      t.eq(r.bool(0.9), twin.next() < 0.9, "bool(0.9)");
      t.eq(r.bool(0), false, "bool(0)");
      twin.next();
      t.eq(r.bool(1), true, "bool(1)");
      twin.next();
    }
    // Outside [0, 1] the comparison still answers (always / never), with its draw.
    t.eq(r.bool(2), true, "bool(2)");
    t.eq(r.bool(-1), false, "bool(-1)");
    twin.next();
    twin.next();
    t.throws(() => r.bool(NaN), { instance: TypeError, message: "chance must be a number to compare next() with (not NaN); received NaN" }, "bool(NaN)");
    t.throws(() => r.bool("0.5"), { instance: TypeError, message: 'chance must be a number to compare next() with (not NaN); received "0.5"' }, "bool(\"0.5\")");
    t.eq(r.next(), twin.next(), "no draw on error");
  });

  t.test("int(min, max) = min + floor(next() * (max - min + 1)), both ends included", () => {
    const r = createRandom("int");
    const twin = createRandom("int");
    const seen = new Set();
    for (let i = 0; i < 300; i++) {
      const v = r.int(-2, 2);
      t.eq(v, -2 + Math.floor(twin.next() * (2 - -2 + 1)));
      seen.add(v);
      t.eq(r.int(7, 7), 7 + Math.floor(twin.next() * 1), "int(7, 7) takes a draw");
      t.eq(r.int(0, 2 ** 53 - 1), 0 + Math.floor(twin.next() * (2 ** 53 - 1 - 0 + 1)));
      const lo = -(2 ** 53 - 1);
      const hi = 2 ** 53 - 1;
      t.eq(r.int(lo, hi), lo + Math.floor(twin.next() * (hi - lo + 1)), "full safe range, float arithmetic");
    }
    t.eq([...seen].sort(), [-1, -2, 0, 1, 2].sort(), "every value of [-2, 2] appears");
  });

  t.test("int bounds errors are RangeError and take no draw", () => {
    const r = createRandom("bounds");
    const twin = createRandom("bounds");
    for (const [min, max] of [[1.5, 3], [0, 2.5], [0, 2 ** 53], [-(2 ** 53), 0], [NaN, 1], [0, NaN], [0, Infinity], [-Infinity, 0], [5, 4], [0, -1], ["0", 5], [0, "5"], [null, 1], [undefined, 1], [0, undefined]]) {
      t.throws(() => r.int(min, max), { instance: RangeError }, `int(${t.show(min)}, ${t.show(max)})`);
    }
    t.eq(r.next(), twin.next(), "no draw was taken by the failed calls");
  });

  t.test("pick(items) = items[int(0, length - 1)]; RangeError on empty", () => {
    const r = createRandom("pick");
    const twin = createRandom("pick");
    const items = ["a", "b", "c", "d", "e"];
    for (let i = 0; i < 100; i++) t.eq(r.pick(items), items[0 + Math.floor(twin.next() * (items.length - 1 - 0 + 1))]);
    t.eq(r.pick(["only"]), "only");
    twin.next();
    t.throws(() => r.pick([]), { instance: RangeError }, "pick([])");
    t.eq(r.next(), twin.next(), "no draw on error");
  });

  t.test("shuffle(items): Fisher–Yates from the last index down with int(0, i); input untouched", () => {
    const r = createRandom("shuffle");
    const twin = createRandom("shuffle");
    for (let n = 0; n <= 12; n++) {
      const items = Array.from({ length: n }, (_, i) => `x${i}`);
      const frozen = items.slice();
      const expected = items.slice();
      for (let i = expected.length - 1; i > 0; i--) {
        const j = 0 + Math.floor(twin.next() * (i - 0 + 1));
        const tmp = expected[i];
        expected[i] = expected[j];
        expected[j] = tmp;
      }
      const got = r.shuffle(items);
      t.eq(got, expected, `n = ${n}`);
      t.eq(items, frozen, "input untouched");
      t.ok(got !== items, "a copy");
    }
    t.eq(r.next(), twin.next(), "shuffle([]) and shuffle([x]) take no draw");
  });

  t.test("derive(label) = createRandom(`${seed} ${label}`), independent of draws taken", () => {
    const r = createRandom(42);
    const first = r.derive("child");
    t.eq(first.seed, "42 child", "a derived seed is text");
    for (let i = 0; i < 17; i++) r.next();
    const later = r.derive("child");
    const fresh = createRandom("42 child");
    const a = raw(first, 8);
    t.eq(raw(later, 8), a);
    t.eq(raw(fresh, 8), a);
    t.eq(raw(r.derive(7), 3), raw(createRandom("42 7"), 3), "numeric label");
    t.eq(r.derive("a").derive("b").seed, "42 a b");
    t.eq(raw(createRandom("").derive(""), 3), raw(createRandom(" "), 3), "empty seed and label");
  });

  t.test("state() is plain JSON { seed, words } and restoreRandom resumes exactly", () => {
    const r = createRandom(42);
    t.eq(r.state(), { seed: 42, words: [2814168319, 2719428796, 2668499562, 2594565673] }, "initial state = the seed hash");
    for (let i = 0; i < 5; i++) r.next();
    const s = r.state();
    t.eq(Object.keys(s).sort(), ["seed", "words"]);
    t.eq(s.words.length, 4);
    for (const w of s.words) t.ok(Number.isInteger(w) && w >= 0 && w < TWO32, `word ${w} is a u32`);
    const json = JSON.parse(JSON.stringify(s));
    t.eq(json, s, "JSON round trip");
    const back = restoreRandom(json);
    t.eq(back.seed, 42);
    t.eq(raw(back, 50), raw(r, 50), "resumes draw for draw");
    t.eq(back.state(), r.state());
    t.eq(raw(back.derive("x"), 3), raw(createRandom("42 x"), 3), "derive after restore uses the seed");
    t.eq(raw(entries.random.restoreRandom(createRandom("e").state()), 2), raw(createRandom("e"), 2), "/random entry");
  });

  t.test("state() of a stream is a snapshot (later draws do not change it)", () => {
    const r = createRandom("snap");
    const s = r.state();
    const copy = JSON.parse(JSON.stringify(s));
    r.next();
    t.eq(s, copy);
  });

  t.test("restoreRandom accepts any four u32 words, incl. 0 and 2^32 - 1", () => {
    const g = restoreRandom({ seed: "z", words: [0, 0, 0, 0] });
    // sfc32 from [0,0,0,0]: sum = 0, then d counts up.
    t.eq(Math.floor(g.next() * TWO32), 0);
    t.eq(g.state().words, [0, 0, 0, 1]);
    const h = restoreRandom({ seed: "z", words: [TWO32 - 1, TWO32 - 1, TWO32 - 1, TWO32 - 1] });
    t.eq(Math.floor(h.next() * TWO32), (TWO32 - 1) * 3 % TWO32);
  });

  t.test("malformed states are TypeError/RangeError", () => {
    const w = [1, 2, 3, 4];
    const bad = [
      null, undefined, 42, "state", true,
      {}, { words: w }, { seed: true, words: w }, { seed: null, words: w }, { seed: 1n, words: w }, { seed: ["s"], words: w },
      { seed: "s" }, { seed: "s", words: null }, { seed: "s", words: "1,2,3,4" }, { seed: "s", words: { 0: 1, 1: 2, 2: 3, 3: 4, length: 4 } },
      { seed: "s", words: [] }, { seed: "s", words: [1, 2, 3] }, { seed: "s", words: [1, 2, 3, 4, 5] },
      { seed: "s", words: [1, 2, 3, -1] }, { seed: "s", words: [1, 2, 3, TWO32] }, { seed: "s", words: [1, 2, 3, 1.5] },
      { seed: "s", words: [1, 2, 3, NaN] }, { seed: "s", words: [1, 2, 3, Infinity] }, { seed: "s", words: [1, 2, 3, "4"] },
      { seed: "s", words: [1, 2, 3, null] }, { seed: "s", words: [1, 2, 3, undefined] }, { seed: "s", words: [1, 2, 3, 4n] },
    ];
    for (const s of bad) t.throws(() => restoreRandom(s), rangeOrType, `restoreRandom(${t.show(s)})`);
  });

  t.test("the seed as given: createRandom(7).seed === 7, state().seed === 7, \"7\" stays \"7\"", () => {
    const seven = createRandom(7);
    t.ok(seven.seed === 7, `createRandom(7).seed is ${t.show(seven.seed)}`);
    t.ok(seven.state().seed === 7, `state().seed is ${t.show(seven.state().seed)}`);
    t.ok(createRandom("7").seed === "7" && createRandom("7").state().seed === "7", "a string seed stays a string");
    t.eq(raw(createRandom(7), 4), raw(createRandom("7"), 4), "one stream: the hash reads String(seed)");
    t.ok(Object.is(createRandom(-0).seed, -0), "-0 kept (its text is \"0\")");
    t.eq(seven.derive("x").seed, "7 x", "derive builds text from the seed");
    t.eq(raw(seven.derive("x"), 3), raw(createRandom("7 x"), 3), "derive unchanged in meaning");
    t.eq(raw(entries.random.createRandom(7), 1), raw(createRandom("7"), 1), "/random entry");
    t.ok(entries.random.createRandom(7).seed === 7, "/random entry keeps the seed");
  });

  t.test("restoreRandom takes every snapshot upstream writes: seed a number or a string, before and after JSON", () => {
    for (const seed of [7, "7", 42, "signup-suite", 0, -5, 0.1, 1e21, "", "\uD800"]) {
      const r = createRandom(seed);
      r.next();
      r.next();
      const snap = r.state();
      t.ok(Object.is(snap.seed, seed), `state().seed of ${t.show(seed)}`);
      const json = JSON.parse(JSON.stringify(snap));
      t.eq(json, { seed, words: snap.words }, `JSON keeps ${t.show(seed)} as it was`);
      const direct = restoreRandom(snap);
      const back = restoreRandom(json);
      t.ok(Object.is(back.seed, seed) && Object.is(direct.seed, seed), `restored seed of ${t.show(seed)}`);
      const next = raw(r, 6);
      t.eq(raw(back, 6), next, `${t.show(seed)}: resumes after JSON`);
      t.eq(raw(direct, 6), next, `${t.show(seed)}: resumes from the object`);
      t.eq(raw(back.derive("child"), 2), raw(createRandom(`${seed} child`), 2), "derive after restore");
    }
    // Exactly the literal upstream writes for createRandom(7) after one draw, read back from storage.
    const stored = JSON.stringify({ seed: 7, words: createRandom(7).state().words });
    t.eq(raw(restoreRandom(JSON.parse(stored)), 3), raw(createRandom(7), 3), "{ seed: 7, words } from JSON");
    // NaN and Infinity seeds exist (createRandom hashes "NaN"); a snapshot upstream writes for them
    // (the number kept in memory) restores too, keeping the number.
    for (const seed of [NaN, Infinity]) {
      t.ok(Object.is(restoreRandom({ seed, words: createRandom(seed).state().words }).seed, seed), `${seed}`);
    }
  });

  t.test("a NaN or infinite number seed: state() writes its text, so the state survives JSON and resumes the same draws", () => {
    const validate = lib.RANDOM_STATE_SCHEMA["~standard"].validate;
    for (const [seed, text] of [[NaN, "NaN"], [Infinity, "Infinity"], [-Infinity, "-Infinity"]]) {
      const r = createRandom(seed);
      t.ok(Object.is(r.seed, seed), `createRandom(${text}).seed is the number`);
      raw(r, 3);
      const snap = r.state();
      t.eq(snap.seed, text, `state().seed of ${text}`);
      const stored = JSON.stringify(snap);
      t.eq(JSON.parse(stored).seed, text, `${text} after JSON`);
      const checked = validate(JSON.parse(stored));
      t.eq(checked.issues, undefined, `the schema takes the stored state of ${text}`);
      const back = restoreRandom(checked.value);
      const direct = restoreRandom(snap);
      t.eq(back.seed, text, `restored seed of ${text}`);
      const next = raw(r, 6);
      t.eq(raw(back, 6), next, `${text}: resumes after JSON`);
      t.eq(raw(direct, 6), next, `${text}: resumes from the object`);
      // The stream of the number is the stream of its text, from the first draw on.
      t.eq(raw(createRandom(seed), 9), raw(createRandom(text), 9), `${text}: the number's draws are the text's`);
      t.eq(raw(back.derive("child"), 2), raw(createRandom(seed).derive("child"), 2), `${text}: derive after restore`);
      t.eq(JSON.parse(JSON.stringify(back.state())), back.state(), `${text}: a restored stream's state survives JSON again`);
    }
    // A string seed "NaN" is a string all the way, as before.
    t.eq(createRandom("NaN").state().seed, "NaN");
  });

  t.test("malformed states: the error names the field and the value", () => {
    const w = [1, 2, 3, 4];
    const cases = [
      [null, TypeError, "state must be an object { seed, words }; received null"],
      [7, TypeError, "state must be an object { seed, words }; received 7"],
      [{ words: w }, TypeError, "state.seed must be a string or a number; received undefined"],
      [{ seed: true, words: w }, TypeError, "state.seed must be a string or a number; received true"],
      [{ seed: "s" }, TypeError, "state.words must be an array of four unsigned 32-bit integers; received undefined"],
      [{ seed: "s", words: { length: 4 } }, TypeError, "state.words must be an array of four unsigned 32-bit integers; received an object"],
      [{ seed: "s", words: [1, 2, 3] }, RangeError, "state.words.length must be 4; received 3"],
      [{ seed: 7, words: [1, 2, 3, 4, 5] }, RangeError, "state.words.length must be 4; received 5"],
      [{ seed: "s", words: [1, 2, 3, -1] }, RangeError, "state.words[3] must be an unsigned 32-bit integer; received -1"],
      [{ seed: "s", words: [1, 2.5, 3, 4] }, RangeError, "state.words[1] must be an unsigned 32-bit integer; received 2.5"],
      [{ seed: "s", words: [4294967296, 2, 3, 4] }, RangeError, "state.words[0] must be an unsigned 32-bit integer; received 4294967296"],
      [{ seed: "s", words: [1, 2, "3", 4] }, TypeError, "state.words[2] must be an unsigned 32-bit integer; received \"3\""],
    ];
    for (const [state, cls, message] of cases) t.throws(() => restoreRandom(state), { instance: cls, message }, t.show(state));
  });

  t.test("restoreRandom of a revoked Proxy or a throwing getter: the package's TypeError, the engine's as cause", () => {
    const { proxy, revoke } = Proxy.revocable({ seed: "s", words: [1, 2, 3, 4] }, {});
    revoke();
    const boom = new Error("boom");
    const getters = [
      proxy,
      { get seed() { throw boom; }, words: [1, 2, 3, 4] },
      { seed: "s", get words() { throw boom; } },
      { seed: "s", words: new Proxy([1, 2, 3, 4], { get: (o, k) => { if (k === "2") throw boom; return o[k]; } }) },
      { seed: "s", words: new Proxy([1, 2, 3, 4], { get: (o, k) => { if (k === "length") throw boom; return o[k]; } }) },
    ];
    for (const state of getters) {
      const e = t.throws(() => restoreRandom(state), { instance: TypeError, message: "state must be an object { seed, words } that can be read; received an object" });
      t.ok(e.cause instanceof Error, "cause kept");
    }
    t.eq(t.throws(() => restoreRandom(getters[1])).cause, boom, "the getter's own error");
    // A Proxy claiming two billion words is read four items deep, never iterated.
    const huge = new Proxy([1, 2, 3, 4], { get: (o, k) => (k === "length" ? 2e9 : o[k]) });
    t.throws(() => restoreRandom({ seed: "s", words: huge }), { instance: RangeError, message: "state.words.length must be 4; received 2000000000" });
  });

  t.test("RANDOM_STATE_SCHEMA: a Standard Schema v1 validator, exported by /random and the index", () => {
    const S = lib.RANDOM_STATE_SCHEMA;
    t.ok(S && S === entries.random.RANDOM_STATE_SCHEMA, "the same object from /random and the index");
    const std = S["~standard"];
    t.eq([std.version, std.vendor, typeof std.validate], [1, "backoff-wasm", "function"]);
    const r = createRandom("stored");
    r.next();
    for (const snap of [r.state(), JSON.parse(JSON.stringify(r.state())), createRandom(7).state(), { seed: 0, words: [0, 0, 0, 4294967295] }]) {
      const out = std.validate(snap);
      t.ok(!(out instanceof Promise) && typeof out.then !== "function", "synchronous");
      t.eq(out, { value: snap }, `valid: ${t.show(snap)}`);
      t.ok(out.value !== snap && out.value.words !== snap.words, "a fresh copy");
    }
    t.eq(raw(restoreRandom(std.validate(JSON.parse(JSON.stringify(r.state()))).value), 4), raw(r, 4), "the value resumes the stream");
    t.eq(std.validate({ seed: "x", words: [1, 2, 3, 4], extra: 1 }), { value: { seed: "x", words: [1, 2, 3, 4] } }, "unknown keys dropped");
  });

  t.test("RANDOM_STATE_SCHEMA: every malformed kind is an issue with its path and message", () => {
    const validate = lib.RANDOM_STATE_SCHEMA["~standard"].validate;
    const w = [1, 2, 3, 4];
    const issue = (message, path) => ({ message, path });
    const cases = [
      [{ words: w }, [issue("state.seed must be a string or a finite number; received undefined", ["seed"])]],
      [{ seed: true, words: w }, [issue("state.seed must be a string or a finite number; received true", ["seed"])]],
      [{ seed: null, words: w }, [issue("state.seed must be a string or a finite number; received null", ["seed"])]],
      [{ seed: NaN, words: w }, [issue("state.seed must be a string or a finite number; received NaN", ["seed"])]],
      [{ seed: "x", words: [1, 2, 3] }, [issue("state.words.length must be 4; received 3", ["words"])]],
      [{ seed: "x", words: [1, 2, 3, 4, 5] }, [issue("state.words.length must be 4; received 5", ["words"])]],
      [{ seed: "x", words: [1, 2, 3, -4] }, [issue("state.words[3] must be an unsigned 32-bit integer; received -4", ["words", 3])]],
      [{ seed: "x", words: [1, 2, 3, 4.5] }, [issue("state.words[3] must be an unsigned 32-bit integer; received 4.5", ["words", 3])]],
      [{ seed: "x", words: [1, 2, 3, 2 ** 32] }, [issue("state.words[3] must be an unsigned 32-bit integer; received 4294967296", ["words", 3])]],
      [{ seed: "x", words: "1,2,3,4" }, [issue("state.words must be an array of four unsigned 32-bit integers; received \"1,2,3,4\"", ["words"])]],
      [{ seed: "x", words: { 0: 1, 1: 2, 2: 3, 3: 4, length: 4 } }, [issue("state.words must be an array of four unsigned 32-bit integers; received an object", ["words"])]],
      [null, [issue("state must be an object { seed, words }; received null", [])]],
      ["{\"seed\":1}", [issue("state must be an object { seed, words }; received \"{\\\"seed\\\":1}\"", [])]],
      [[7, w], [issue("state must be an object { seed, words }; received an array", [])]],
      [{ seed: false, words: [-1, 2, 0.5, 4] }, [
        issue("state.seed must be a string or a finite number; received false", ["seed"]),
        issue("state.words[0] must be an unsigned 32-bit integer; received -1", ["words", 0]),
        issue("state.words[2] must be an unsigned 32-bit integer; received 0.5", ["words", 2]),
      ]],
    ];
    for (const [value, issues] of cases) t.eq(validate(value), { issues }, t.show(value));
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    t.eq(validate(proxy), { issues: [issue("state must be an object { seed, words } that can be read; received an object", [])] }, "revoked Proxy: an issue, no throw");
  });

  t.test("pick/shuffle take arrays only: { length: 3 } is a TypeError, as the README says", () => {
    const r = createRandom("items");
    const twin = createRandom("items");
    for (const items of [{ length: 3 }, { length: 2, 0: "a", 1: "b" }, "abc", new Set([1, 2]), null, undefined, 3, new Uint8Array(3)]) {
      t.throws(() => r.pick(items), { instance: TypeError, includes: ["items must be an array; received "] }, `pick(${t.show(items)})`);
      t.throws(() => r.shuffle(items), { instance: TypeError, includes: ["items must be an array; received "] }, `shuffle(${t.show(items)})`);
    }
    t.throws(() => r.pick({ length: 3 }), { instance: TypeError, message: "items must be an array; received an object" });
    t.throws(() => r.shuffle({ length: 2 }), { instance: TypeError, message: "items must be an array; received an object" });
    t.eq(r.next(), twin.next(), "no draw was taken by the failed calls");
    // A hole reads undefined, as upstream's items[i] and [...items] read it.
    const holes = [, "b", , "d"]; // eslint-disable-line no-sparse-arrays
    t.eq(r.shuffle(holes).filter((x) => x === undefined).length, 2, "holes copied as undefined");
  });

  t.test("pick/shuffle of a revoked Proxy or a throwing getter: the package's error, never the engine's", () => {
    const { proxy, revoke } = Proxy.revocable([1, 2, 3], {});
    revoke();
    const r = createRandom("proxy");
    // A revoked Proxy cannot be read at all (Array.isArray throws): the same wording as a throwing getter, with the cause.
    for (const [name, f] of [["pick", () => r.pick(proxy)], ["shuffle", () => r.shuffle(proxy)]]) {
      const e = t.throws(f, { instance: TypeError, message: "items must be an array whose length and items can be read; received an object" }, `${name} of a revoked Proxy`);
      t.eq(e.cause instanceof TypeError, true, `${name}: the engine's error is the cause`);
    }
    const boom = new Error("boom");
    const throwsOn = (key) => new Proxy([1, 2, 3], { get: (o, k) => { if (k === key) throw boom; return o[k]; } });
    for (const key of ["length", "0", "1", "2"]) {
      const e = t.throws(() => r.shuffle(throwsOn(key)), { instance: TypeError, message: "items must be an array whose length and items can be read; received an array" }, `shuffle, ${key} throws`);
      t.eq(e.cause, boom, "the engine's error is the cause");
    }
    t.throws(() => r.pick(throwsOn("length")), { instance: TypeError, message: "items must be an array whose length and items can be read; received an array" });
    const getter = [1, 2];
    Object.defineProperty(getter, 1, { get() { throw boom; } });
    t.throws(() => r.shuffle(getter), { instance: TypeError, includes: ["items must be an array whose length and items can be read"] }, "a throwing index getter");
  });

  t.test("a length read from a caller's array is bounded: RangeError at once (shuffle ≤ 2^24, pick ≤ 2^32 − 1)", () => {
    const r = createRandom("bounded");
    const twin = createRandom("bounded");
    const claiming = (length) => new Proxy([], { get: (o, k) => (k === "length" ? length : 5) });
    t.throws(() => r.shuffle(claiming(2e9)), { instance: RangeError, message: "items.length must be an integer from 0 to 16777216; received 2000000000" });
    t.throws(() => r.shuffle(claiming(16777217)), { instance: RangeError, message: "items.length must be an integer from 0 to 16777216; received 16777217" });
    for (const bad of [-1, 1.5, NaN, Infinity]) {
      t.throws(() => r.shuffle(claiming(bad)), { instance: RangeError, includes: ["items.length must be an integer from 0 to 16777216"] }, `shuffle length ${bad}`);
      t.throws(() => r.pick(claiming(bad)), { instance: RangeError, includes: ["items.length must be an integer from 1 to 4294967295"] }, `pick length ${bad}`);
    }
    t.throws(() => r.pick(claiming("3")), { instance: RangeError, message: "items.length must be an integer from 1 to 4294967295; received \"3\"" });
    t.throws(() => r.pick(claiming(2 ** 32)), { instance: RangeError, message: "items.length must be an integer from 1 to 4294967295; received 4294967296" });
    t.throws(() => r.pick(claiming(0)), { instance: RangeError, message: "items must be a non-empty array; received an array" });
    t.eq(r.next(), twin.next(), "no draw was taken");
    t.eq(r.pick(claiming(2e9)), 5, "pick reads one item whatever the length: its one draw");
    twin.next();
    t.eq(r.shuffle(claiming(3)), [5, 5, 5], "a small claimed length is copied item by item");
  });

  t.test("README: a seed gives the same waits twice, a stream moves on (4533 twice; 4645 then 3390)", () => {
    const keyed = lib.createBackoff({ base: "1 second", max: "1 minute", jitter: 0.2, seed: "suite" });
    t.eq([keyed.delay(3), keyed.delay(3)], [4533, 4533]);
    const stream = lib.createBackoff({ base: "1 second", max: "1 minute", jitter: 0.2, random: createRandom("suite") });
    t.eq([stream.delay(3), stream.delay(3)], [4645, 3390]);
    const page = lib.createBackoff({ base: 1000, jitter: 0.2, seed: "session-1" }).maxAttempts(6);
    t.eq([page.schedule(), page.schedule()], [[936, 2212, 3786, 6956, 15911], [936, 2212, 3786, 6956, 15911]]);
  });

  t.test("createRandom with a seed that is neither string nor number is an error, not String(x)", () => {
    for (const s of [undefined, null, {}, [], true, 1n, Symbol("s")]) {
      t.throws(() => createRandom(s), rangeOrType, `createRandom(${t.show(s)})`);
    }
  });

  t.test("systemRandom: draws in [0, 1), never Math.random, no seed and no state", () => {
    let mathRandomCalls = 0;
    t.swap(Math, "random", () => { mathRandomCalls++; return 0.5; }, () => {
      const r = systemRandom();
      const seen = new Set();
      for (let i = 0; i < 1000; i++) {
        const x = r.next();
        t.ok(typeof x === "number" && x >= 0 && x < 1, `draw ${x}`);
        t.ok(Number.isInteger(x * TWO32), "a u32 over 2^32");
        seen.add(x);
      }
      t.ok(seen.size > 990, `draws vary (${seen.size} distinct of 1000)`);
      const i = r.int(1, 6);
      t.ok(Number.isInteger(i) && i >= 1 && i <= 6);
      const f = r.float(10, 20);
      t.ok(f >= 10 && f < 20);
      t.eq(typeof r.bool(), "boolean");
      t.ok(["a", "b"].includes(r.pick(["a", "b"])));
      t.eq(r.shuffle([1, 2, 3, 4]).sort(), [1, 2, 3, 4]);
      t.eq(r.seed, undefined, "no seed");
      t.eq(r.state, undefined, "no state");
      t.eq(r.derive, undefined, "no derive");
    });
    t.eq(mathRandomCalls, 0, "Math.random was never called");
  });

  t.test("systemRandom streams are independent", () => {
    const a = raw(systemRandom(), 8);
    const b = raw(systemRandom(), 8);
    t.ok(a.join() !== b.join());
  });

  t.test("systemSeed() is a fresh u32", () => {
    let mathRandomCalls = 0;
    const seeds = t.swap(Math, "random", () => { mathRandomCalls++; return 0.5; }, () => Array.from({ length: 64 }, () => systemSeed()));
    for (const s of seeds) t.ok(typeof s === "number" && Number.isInteger(s) && s >= 0 && s < TWO32, `seed ${s}`);
    t.ok(new Set(seeds).size > 60, "fresh values");
    t.eq(mathRandomCalls, 0, "not from Math.random");
    t.eq(raw(createRandom(seeds[0]), 2), raw(createRandom(String(seeds[0])), 2), "usable as a seed");
  });
};
