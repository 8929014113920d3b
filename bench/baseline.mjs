// What a user would write instead of installing backoff-wasm: the same
// formulas (API.md sections 1–4), hand-written in plain JavaScript. The
// benchmark compares the package against these; they are checked against the
// package's results before timing (bench/run.mjs), so both compute the same numbers.

/**
 * A hand-written `createBackoff`: exponential/linear/constant curve with an
 * optional ceiling, free attempts and ± / full jitter, delays in ms.
 * @param {{ base: number, factor?: number, growth?: string, max?: number, free?: number,
 *   jitter?: number | "full", random?: (() => number) | { next(): number } }} o
 */
export function handBackoff(o) {
  const base = o.base;
  const factor = o.factor ?? 2;
  const max = o.max ?? Infinity;
  const free = o.free ?? 0;
  const growth = o.growth ?? "exponential";
  const jitter = o.jitter ?? 0;
  const r = o.random;
  const next = typeof r === "function" ? r : r ? () => r.next() : Math.random;
  return {
    delay(attempt) {
      const n = attempt - free;
      if (!(n >= 1)) return 0;
      const d =
        growth === "exponential" ? Math.min(base * factor ** (n - 1), max)
        : growth === "linear" ? Math.min(base * n, max)
        : base;
      if (jitter === "full") return Math.round(next() * d);
      if (jitter === 0 || !Number.isFinite(d)) return d;
      return Math.round(d * ((1 - jitter) + next() * ((1 + jitter) - (1 - jitter))));
    },
  };
}

/**
 * Hand-written keyed jitter (the `seed` option): the draw for attempt `n` is the first draw
 * of the stream seeded `"<seed> <n>"`, ± `jitter` around the capped exponential curve.
 */
export function handKeyed(o) {
  const { base, max, jitter, seed } = o;
  return {
    delay(attempt) {
      if (!(attempt >= 1)) return 0;
      const d = Math.min(base * 2 ** (attempt - 1), max);
      const r = handRandom(`${seed} ${attempt}`).next();
      return Math.round(d * ((1 - jitter) + r * ((1 + jitter) - (1 - jitter))));
    },
  };
}

/** Sigil's `retrySchedule()` with its defaults (no jitter), hand-written. */
export function handRetrySchedule(maxAttempts = 8, baseDelayMs = 1000, maxDelayMs = 3600000) {
  const out = [];
  for (let retry = 1; retry < maxAttempts; retry++) out.push(Math.min(baseDelayMs * 2 ** (retry - 1), maxDelayMs));
  return out;
}

/** A hand-written seeded stream: the API.md section 3 seed hash and sfc32. */
export function handRandom(seed) {
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
  let s0 = (a ^ b ^ c ^ d) >>> 0, s1 = (b ^ a) >>> 0, s2 = (c ^ a) >>> 0, s3 = (d ^ a) >>> 0;
  return {
    next() {
      const sum = (s0 + s1 + s3) | 0;
      s3 = (s3 + 1) | 0;
      s0 = s1 ^ (s1 >>> 9);
      s1 = (s2 + (s2 << 3)) | 0;
      s2 = (s2 << 21) | (s2 >>> 11);
      s2 = (s2 + sum) | 0;
      return (sum >>> 0) / 4294967296;
    },
  };
}

const UNITS = { ms: 1, s: 1e3, m: 6e4, h: 36e5, d: 864e5, w: 6048e5 };
const LONG = {
  millisecond: 1, milliseconds: 1, second: 1e3, seconds: 1e3, minute: 6e4, minutes: 6e4,
  hour: 36e5, hours: 36e5, day: 864e5, days: 864e5, week: 6048e5, weeks: 6048e5,
};
const RE = /^(-?(?:0|[1-9][0-9]*))(?:( )([a-z]+)|([a-z]+))?$/;

/** A hand-written duration parser (API.md section 4): ms, or NaN when not a duration. */
export function handParse(text) {
  const m = RE.exec(text.trim());
  if (!m) return Number.NaN;
  const amount = Number(m[1]);
  if (m[3] !== undefined) return Object.hasOwn(LONG, m[3]) ? amount * LONG[m[3]] : Number.NaN;
  if (m[4] !== undefined) return Object.hasOwn(UNITS, m[4]) ? amount * UNITS[m[4]] : Number.NaN;
  return amount;
}
