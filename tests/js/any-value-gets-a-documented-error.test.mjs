// fast-check on the public JS surface: arbitrary values (every JS type, proxies and
// getters that throw, huge/negative/NaN numbers, lone surrogates) into every
// exported function. Only the documented error classes (RangeError, TypeError,
// SigilError) or the exception a hostile value throws itself may escape — never a
// WebAssembly.RuntimeError — no number result is NaN (except toMs/toSeconds of bad
// text, which the contract says), and the module keeps working after every call.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as m from "../../pkg/dist/esm/index.js";

const TRAP = "trap from a hostile value";
const trapProxy = () =>
  new Proxy({}, { get() { throw new Error(TRAP); }, ownKeys() { throw new Error(TRAP); }, has() { throw new Error(TRAP); } });
const trapGetter = () => Object.defineProperty({}, "base", { enumerable: true, get() { throw new Error(TRAP); } });
const revoked = () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; };

const special = fc.constantFrom(
  NaN, Infinity, -Infinity, -0, 0, 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 1e21, 1e308, -1, 0.5, 1.5,
  "", " ", "\uD800", "\uFEFF5s", "5 minuts", "1 second", "full", "equal", "decorrelated", "exponential", "x".repeat(5000),
  null, undefined, true, false, 10n, Symbol("s"), [], [1, 2], [1, 2, 3, 4], {}, Object.freeze({ base: 1 }),
  () => 0.5, () => NaN, () => 2, Math.random, { next: () => 0.5 }, { float: (a) => a }, { float: () => NaN },
);
// fast-check inspects generated values, so hostile ones are made inside the property from a tag.
const HOSTILE = Symbol("hostile");
const hostile = fc.constantFrom("proxy", "getter", "revoked").map((k) => ({ [HOSTILE]: k }));
const real = (v) => {
  const k = v !== null && typeof v === "object" ? v[HOSTILE] : undefined;
  return k === undefined ? v : k === "proxy" ? trapProxy() : k === "getter" ? trapGetter() : revoked();
};
const value = fc.oneof(
  { weight: 3, arbitrary: special },
  { weight: 3, arbitrary: fc.anything({ withBigInt: true, withNullPrototype: true, withBoxedValues: true, withSparseArray: true }) },
  { weight: 2, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.string({ unit: "binary" }) },
  { weight: 1, arbitrary: hostile },
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom("base", "max", "factor", "growth", "steps", "free", "jitter", "random", "seed", "maxAttempts", "baseDelayMs", "maxDelayMs"), special) },
);

const show = (v) => { try { return fc.stringify(v); } catch { return typeof v; } };
const okError = (e) =>
  e instanceof RangeError || e instanceof TypeError || e instanceof m.SigilError || (e instanceof Error && e.message === TRAP);

/** Still works: exact vectors after every call. */
function sane() {
  assert.deepEqual(m.retrySchedule(), [1000, 2000, 4000, 8000, 16000, 32000, 64000]);
  assert.equal(m.createBackoff({ base: "1 second" }).delay(3), 4000);
  assert.equal(Math.floor(m.createRandom(42).next() * 2 ** 32), 3833195492);
  assert.deepEqual(m.parseDuration("5 minutes"), { status: "success", data: 300000 });
}

const seeded = m.createRandom("garbage");
const policy = m.Backoff.exponential(100).cap(10_000).jitter(0.3).random(seeded).maxAttempts(5);
const CALLS = {
  nextDelayMs: (a, b) => m.nextDelayMs(a, b),
  retrySchedule: (a) => m.retrySchedule(a),
  totalRetryWindowMs: (a) => m.totalRetryWindowMs(a),
  seededRandom: (a) => m.seededRandom(a)(),
  createBackoff: (a) => m.createBackoff(a).delay(2),
  "Backoff.fixed": (a) => m.Backoff.fixed(a).delay(1),
  "Backoff.linear": (a) => m.Backoff.linear(a).delay(2),
  "Backoff.exponential": (a, b) => m.Backoff.exponential(a, b).delay(3),
  "Backoff.from": (a) => m.Backoff.from(a).delay(1),
  ".cap": (a) => policy.cap(a).delay(4),
  ".jitter": (a) => m.Backoff.exponential(100).cap(1000).jitter(a).random(seeded).delay(4),
  ".free": (a) => policy.free(a).delay(4),
  ".maxAttempts": (a) => policy.maxAttempts(a).schedule(),
  ".random": (a) => m.Backoff.exponential(100).jitter(0.5).random(a).delay(2),
  ".seed": (a) => m.Backoff.exponential(100).jitter(0.5).seed(a).delay(2),
  delay: (a) => policy.delay(a),
  at: (a, b) => policy.at(a, b),
  bounds: (a) => policy.bounds(a).max,
  createRandom: (a) => m.createRandom(a).next(),
  restoreRandom: (a) => m.restoreRandom(a).next(),
  int: (a, b) => seeded.int(a, b),
  float: (a, b) => seeded.float(a, b),
  bool: (a) => seeded.bool(a),
  pick: (a) => seeded.pick(a),
  shuffle: (a) => seeded.shuffle(a),
  derive: (a) => seeded.derive(a).next(),
  parseDuration: (a) => m.parseDuration(a).status,
  toMs: (a) => m.toMs(a),
  toSeconds: (a) => m.toSeconds(a),
  scheduleSvg: (a, b) => m.scheduleSvg(a, b).length,
  retryAfterMs: (a, b) => m.retryAfterMs(a, b),
  queueRetryDelaySeconds: (a, b) => m.queueRetryDelaySeconds(a, b),
};
const NAN_ALLOWED = new Set(["toMs", "toSeconds", "float", "pick", "shuffle"]);

for (const [name, call] of Object.entries(CALLS)) {
  test(`garbage into ${name}: documented errors only, never a trap, never NaN`, () => {
    fc.assert(
      fc.property(value, value, (ta, tb) => {
        const a = real(ta);
        const b = real(tb);
        let out;
        try {
          out = call(a, b);
        } catch (e) {
          assert.ok(!(e instanceof WebAssembly.RuntimeError), `${name} trapped: ${e}`);
          assert.ok(okError(e), `${name}(${show(ta)}, ${show(tb)}) threw ${e?.name}: ${e?.message}`);
        }
        if (typeof out === "number" && !NAN_ALLOWED.has(name)) assert.ok(!Number.isNaN(out), `${name} returned NaN`);
        return true;
      }),
      { seed: 20261129, numRuns: 300 },
    );
    sane();
  });
}

test("garbage into sleep: RangeError/TypeError synchronously or a promise, never a trap", async () => {
  const ac = new AbortController();
  ac.abort(new Error("stop"));
  fc.assert(
    fc.property(value, (ta) => {
      const a = real(ta);
      try {
        const p = m.sleep(a, { signal: ac.signal });
        p.catch(() => {});
      } catch (e) {
        assert.ok(okError(e), `sleep(${show(ta)}) threw ${e?.name}: ${e?.message}`);
      }
      return true;
    }),
    { seed: 20261129, numRuns: 300 },
  );
  sane();
});
