// An independent plain-JavaScript model of the formulas of API.md sections 1–3,
// written from the text of the spec (it never imports the library). The
// differential test compares the library against it; the shared cases use it
// only where the spec itself is the oracle (e.g. the hash of a lone surrogate).

/** Seed hash of API.md section 3 over the UTF-16 code units of `String(seed)`. */
export function seedWords(seed) {
  const text = String(seed);
  let a = 1779033703, b = 3144134277, c = 1013904242, d = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    a = b ^ Math.imul(a ^ k, 597399067);
    b = c ^ Math.imul(b ^ k, 2869860233);
    c = d ^ Math.imul(c ^ k, 951274213);
    d = a ^ Math.imul(d ^ k, 2716044179);
  }
  a = Math.imul(c ^ (a >>> 18), 597399067);
  b = Math.imul(d ^ (b >>> 22), 2869860233);
  c = Math.imul(a ^ (c >>> 17), 951274213);
  d = Math.imul(b ^ (d >>> 19), 2716044179);
  return [(a ^ b ^ c ^ d) >>> 0, (b ^ a) >>> 0, (c ^ a) >>> 0, (d ^ a) >>> 0];
}

/** sfc32 (no warm-up) from four state words; `next()` in [0, 1), `words()` the state. */
export function sfc32(words) {
  let [a, b, c, d] = words;
  return {
    next() {
      const sum = (a + b + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + sum) | 0;
      return (sum >>> 0) / 4294967296;
    },
    words: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
  };
}

/** The model's `Random` of section 3, over any `next()`. */
export function modelRandom(seed) {
  const g = sfc32(seedWords(seed));
  const r = {
    next: () => g.next(),
    words: () => g.words(),
    int: (min, max) => min + Math.floor(r.next() * (max - min + 1)),
    float: (min = 0, max = 1) => min + r.next() * (max - min),
    bool: (chance = 0.5) => r.next() < chance,
    pick: (items) => items[r.int(0, items.length - 1)],
    shuffle(items) {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = r.int(0, i);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
  return r;
}

/** Sigil's nextDelayMs (section 1), without validation. */
export function sigilDelay(attempt, { baseDelayMs = 1000, maxDelayMs = 3600000, jitter = 0, random = Math.random } = {}) {
  // A zero base stays 0 where the original computes 0 * Infinity = NaN (a documented deviation).
  const capped = baseDelayMs === 0 ? 0 : Math.min(baseDelayMs * Math.pow(2, attempt - 1), maxDelayMs);
  if (!jitter) return capped;
  const r = random();
  // A delay that overflowed to Infinity still takes its one draw and stays Infinity
  // (the original may compute Infinity * 0 = NaN there): a documented deviation.
  if (capped === Infinity) return capped;
  return Math.round(capped * (1 - jitter * r));
}

/** Bits of a positive BigInt. */
const bitLength = (v) => v.toString(2).length;

/** `v * 2^s` (BigInt `v > 0`, BigInt `s`) rounded to the nearest double, ties to even; results >= 1 only. */
function roundToDouble(v, s) {
  const b = BigInt(bitLength(v));
  let q = v;
  if (b > 53n) {
    const drop = b - 53n;
    q = v >> drop;
    const rem = v - (q << drop);
    const half = 1n << (drop - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    s += drop;
    if (q === 1n << 53n) {
      q >>= 1n;
      s += 1n;
    }
  }
  if (s + BigInt(bitLength(q)) - 1n >= 1024n) return Infinity;
  return Number(q) * 2 ** Number(s);
}

/**
 * `x^n` as the library computes an exponential curve's power (API.md section 9,
 * "Powers"): the double nearest the exact value, ties to even, for a factor
 * `x >= 1` and a whole `n >= 0`; `1^n = 1`, `x^Infinity = Infinity` for `x > 1`.
 * Exact BigInt arithmetic: `x = m * 2^k`, `m^n` by squaring, truncated to 256 bits
 * once downward and once upward (no truncation while it fits); both bounds round
 * to the same double, else this throws.
 */
export function exactPow(x, n) {
  if (n === 0 || x === 1) return 1;
  if (n === Infinity) return Infinity;
  if (!(x > 1) || !Number.isInteger(n) || n < 0) throw new RangeError(`exactPow(${x}, ${n}) is outside the model`);
  if (x === Infinity) return Infinity;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const m = (bits & 0xfffffffffffffn) | (1n << 52n);
  const k = ((bits >> 52n) & 0x7ffn) - 1075n;
  const P = 256n;
  const truncate = ([v, s], up) => {
    const drop = BigInt(bitLength(v)) - P;
    if (drop <= 0n) return [v, s];
    const kept = v >> drop;
    return [up && kept << drop !== v ? kept + 1n : kept, s + drop];
  };
  const e = BigInt(n);
  let lo = [m, 0n];
  let hi = [m, 0n];
  let done = 1n; // the leading bits of n consumed so far
  for (let i = BigInt(bitLength(e)) - 2n; i >= 0n; i--) {
    const bit = (e >> i) & 1n;
    done = 2n * done + bit;
    const step = ([v, s]) => [bit ? v * v * m : v * v, 2n * s];
    lo = truncate(step(lo), false);
    hi = truncate(step(hi), true);
    // x >= 1: once the lower bound reaches 2^1025 the power overflows.
    if (lo[1] + k * done + BigInt(bitLength(lo[0])) > 1025n) return Infinity;
  }
  const a = roundToDouble(lo[0], lo[1] + k * e);
  const b = roundToDouble(hi[0], hi[1] + k * e);
  if (!Object.is(a, b)) throw new Error(`exactPow(${x}, ${n}): bounds round apart`);
  return a;
}

/**
 * createBackoff's delay (section 2), without validation. `o.base`/`o.max`/`o.steps`
 * are ms numbers; `o.random` an object with `float(min, max)`.
 */
export function backoffDelay(o, attempt) {
  const counted = attempt - (o.free ?? 0);
  if (!(counted >= 1)) return 0;
  let d;
  if (o.steps) d = o.steps[Math.min(counted, o.steps.length) - 1];
  else {
    const max = o.max ?? Infinity;
    const growth = o.growth ?? "exponential";
    // A zero base stays 0 where the original computes 0 * Infinity = NaN (a documented deviation).
    if (o.base === 0 && growth !== "constant") d = 0;
    else if (growth === "exponential") d = Math.min(o.base * exactPow(o.factor ?? 2, counted - 1), max);
    else if (growth === "linear") d = Math.min(o.base * counted, max);
    else d = o.base;
  }
  // The fluent hard cap (API.md section 5): the pre-jitter delay is held to it, and a ± band
  // that crosses it is truncated at it (the same one draw, over [1 - j, cap / d]).
  const cap = o.cap ?? Infinity;
  d = Math.min(d, cap);
  const j = o.jitter ?? 0;
  if (!j) return d;
  // One draw per jittered call, even for an overflowed delay, which stays Infinity (see sigilDelay).
  let hi = 1 + j;
  if (j !== "full" && d * hi > cap) hi = cap / d;
  const x = j === "full" ? o.random.float(0, d) : o.random.float(1 - j, hi);
  if (d === Infinity) return d;
  const v = j === "full" ? Math.round(x) : Math.round(d * x);
  return v > cap ? Math.floor(cap) : v;
}

/**
 * xorshift32 (Marsaglia 2003, shifts 13/17/5) from a fixed seed (0 becomes 1): a source of
 * test inputs unrelated to the package's sfc32. Returns the next u32 on each call.
 */
export function xorshift32(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}
