// A tiny assertion harness shared by the Node runner (node:test) and the
// headless-Chromium runner: plain JavaScript, no Node built-ins, so the same
// case files run unchanged in both places.
//
// A case file default-exports `(t, lib, entries) => { t.test(name, fn) … }`:
//   - `lib` is the module namespace of the package's main entry (index.js of
//     the ESM build in Node, of the browser build in the page);
//   - `entries` maps entry names (`sigil`, `backoff`, `random`, `duration`,
//     `policy`, and in Node also `cjs`) to their module namespaces, for the
//     cross-entry checks;
//   - `fn` may be async; it fails by throwing (every `t.*` check throws an
//     `AssertionFailure` with a readable message).

/** The error every failed check throws. */
export class AssertionFailure extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionFailure";
  }
}

/** A readable rendering of any value for failure messages (-0, NaN, lone surrogates, bigints shown exactly). */
export function show(v, depth = 0) {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "function") return `[function ${v.name || "anonymous"}]`;
  if (typeof v === "symbol") return v.toString();
  if (v === null || typeof v !== "object") return String(v);
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  if (depth > 3) return Array.isArray(v) ? "[…]" : "{…}";
  if (Array.isArray(v)) {
    const items = v.slice(0, 40).map((x) => show(x, depth + 1));
    if (v.length > 40) items.push(`… ${v.length - 40} more`);
    return `[${items.join(", ")}]`;
  }
  const keys = Object.keys(v);
  return `{ ${keys.map((k) => `${k}: ${show(v[k], depth + 1)}`).join(", ")} }`;
}

/** Deep strict equality: primitives by `Object.is` (NaN equals NaN, -0 differs from 0), arrays and plain objects by own enumerable keys. */
export function deepEqual(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) && !(Array.isArray(a) && Array.isArray(b))) {
    // Plain objects from another realm (e.g. JSON in the page) still compare by content.
    const plain = (o) => Object.getPrototypeOf(o) === null || Object.getPrototypeOf(Object.getPrototypeOf(o)) === null;
    if (!(plain(a) && plain(b))) return false;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual(a[k], b[k])) return false;
  }
  return true;
}

function fail(label, text) {
  throw new AssertionFailure(label ? `${label}: ${text}` : text);
}

/**
 * Checks an error against `expect`:
 *   `{ is }` the very same value; `{ instance }` a class or list of classes
 *   (any matches); `{ name, code }` exact; `{ message }` exact string or RegExp;
 *   `{ includes }` a list of substrings the message must contain.
 */
function checkError(err, expect, label) {
  if (expect.is !== undefined && err !== expect.is) fail(label, `expected the very value ${show(expect.is)}, got ${show(err)}`);
  if (expect.instance !== undefined) {
    const classes = Array.isArray(expect.instance) ? expect.instance : [expect.instance];
    if (!classes.some((C) => err instanceof C)) {
      fail(label, `expected an instance of ${classes.map((C) => C.name).join(" or ")}, got ${show(err)}`);
    }
  }
  if (expect.name !== undefined && err?.name !== expect.name) fail(label, `expected name ${show(expect.name)}, got ${show(err)}`);
  if (expect.code !== undefined && err?.code !== expect.code) fail(label, `expected code ${show(expect.code)}, got ${show(err?.code)} (${show(err)})`);
  if (expect.message !== undefined) {
    const m = err?.message;
    const ok = expect.message instanceof RegExp ? expect.message.test(m) : m === expect.message;
    if (!ok) fail(label, `expected message ${expect.message instanceof RegExp ? expect.message : show(expect.message)}, got ${show(m)}`);
  }
  for (const part of expect.includes ?? []) {
    if (typeof err?.message !== "string" || !err.message.includes(part)) {
      fail(label, `expected the message to include ${show(part)}, got ${show(err?.message)}`);
    }
  }
  return err;
}

/** The assertion helpers, bound to a case collector. */
function makeT(add) {
  const t = {
    /** Registers one case. */
    test: (name, fn) => add(name, fn),
    /** Deep strict equality (see `deepEqual`). */
    eq(actual, expected, label) {
      if (!deepEqual(actual, expected)) fail(label, `expected ${show(expected)}, got ${show(actual)}`);
    },
    /** Truthiness. */
    ok(value, label) {
      if (!value) fail(label, `expected a truthy value, got ${show(value)}`);
    },
    /** `fn()` must throw an error matching `expect` (see `checkError`); returns the error. */
    throws(fn, expect = {}, label) {
      let err;
      let threw = false;
      try {
        const value = fn();
        err = value;
      } catch (e) {
        threw = true;
        err = e;
      }
      if (!threw) fail(label, `expected a throw, returned ${show(err)}`);
      return checkError(err, expect, label);
    },
    /** `fn()` must not throw; returns its value. */
    noThrow(fn, label) {
      try {
        return fn();
      } catch (e) {
        fail(label, `expected no throw, got ${show(e)}`);
      }
    },
    /** Replaces `obj[key]` for the duration of `fn` (sync), restoring it even on failure. */
    swap(obj, key, value, fn) {
      const had = Object.prototype.hasOwnProperty.call(obj, key);
      const old = obj[key];
      obj[key] = value;
      try {
        return fn();
      } finally {
        if (had) obj[key] = old;
        else delete obj[key];
      }
    },
    show,
  };
  return t;
}

/**
 * Collects the cases of one case file: `[{ name, fn }]`, names prefixed with
 * `prefix` and checked to be unique.
 */
export function collect(caseModule, lib, entries, prefix = "") {
  const cases = [];
  const seen = new Set();
  const t = makeT((name, fn) => {
    const full = prefix ? `${prefix}: ${name}` : name;
    if (seen.has(full)) throw new Error(`duplicate case name ${full}`);
    seen.add(full);
    cases.push({ name: full, fn });
  });
  caseModule(t, lib, entries);
  return cases;
}

/** Runs collected cases one by one; returns `[{ name, ok, message }]` (never throws). */
export async function runAll(cases) {
  const out = [];
  for (const c of cases) {
    try {
      await c.fn();
      out.push({ name: c.name, ok: true, message: "" });
    } catch (e) {
      out.push({ name: c.name, ok: false, message: e instanceof Error ? `${e.name}: ${e.message}` : show(e) });
    }
  }
  return out;
}

/** The case files, in order: `[prefix, path relative to this directory]`. */
export const CASE_FILES = [
  ["sigil", "./sigil.mjs"],
  ["random", "./random.mjs"],
  ["duration", "./duration.mjs"],
  ["backoff", "./backoff.mjs"],
  ["policy", "./policy.mjs"],
  ["waits stay their own", "./waits-stay-their-own.mjs"],
];
