/**
 * Error classes shared by every entry point, and the messages of bad arguments.
 *
 * `instanceof` works across every entry point and across the ESM and CommonJS
 * copies of this package: membership is a brand (`Symbol.for`) rather than
 * object identity. No wasm here (the errors a wasm check recorded are read in
 * js/engine/wasm-errors.ts), so an entry point whose work is all JavaScript (`/duration`)
 * loads none.
 * @module
 */
import { tag } from "./tags.js";
import {
  isSigilOption, KIND_RANGE as RANGE, KIND_SIGIL as SIGIL, KIND_TYPE as TYPE, TAG_ARRAY, TAG_BIGINT, TAG_BOOLEAN, TAG_FUNCTION, TAG_NULL, TAG_NUMBER, TAG_STRING,
  TAG_OBJECT, TAG_SYMBOL, TAG_UNDEFINED,
} from "./boundary.js";

// Pure (no module-level side effect): an entry point that does not use a class loses it to
// tree-shaking (the brand is set by the constructor, not on the prototype at load time).
const SIGIL_BRAND = /* @__PURE__ */ Symbol.for("backoff-wasm.SigilError");
const DURATION_BRAND = /* @__PURE__ */ Symbol.for("backoff-wasm.InvalidDurationError");

/** Marks the error `self` with `b` (non-enumerable, so it does not show when the error is printed). @internal */
export function brand(self: object, b: symbol): void {
  Object.defineProperty(self, b, { value: true });
}

/**
 * `x instanceof cls` for the `Symbol.hasInstance` of a branded class (`self` is `this`
 * there): for the class itself, whether `x` carries `b`, so errors from any copy of the
 * package match; for a subclass, the prototype chain as usual. @internal
 */
export function has(cls: unknown, self: unknown, b: symbol, x: unknown): boolean {
  return self === cls
    ? typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[b] === true
    : Function.prototype[Symbol.hasInstance].call(self, x);
}

/**
 * The codes of `@sigil/core`'s `SigilError`, as that package declares them. This package
 * throws only `"invalid_argument"` (a bad attempt, option or random draw); the others
 * belong to the original's signature checks and are here so that code written for the
 * original type-checks unchanged.
 */
export type SigilErrorCode =
  | "header_malformed"
  | "header_timestamp_invalid"
  | "header_no_signatures"
  | "header_too_many_signatures"
  | "signature_mismatch"
  | "timestamp_out_of_tolerance"
  | "secret_empty"
  | "invalid_argument"
  | "payload_not_json";

/**
 * Thrown by the `/sigil` entry point for a bad attempt number, option or
 * random draw, as `@sigil/core` throws it: `name` is `"SigilError"`, `code` is
 * `"invalid_argument"`, and `message` names the option and the value received,
 * e.g. `attempt must be an integer >= 1; received 0`. Constructed as the original
 * is: `new SigilError("invalid_argument", message)`.
 */
export class SigilError extends Error {
  /** Machine-readable reason; `"invalid_argument"` for every error this package throws. */
  declare readonly code: SigilErrorCode;

  /** @param code the reason, e.g. `"invalid_argument"`. @param message what was wrong. */
  constructor(code: SigilErrorCode, message: string) {
    super(message);
    // Set here, not as a class field, so the own keys are the original's, in its order
    // (`code`, then `name`: what `Object.keys` and `JSON.stringify` show).
    this.code = code;
    this.name = "SigilError";
    brand(this, SIGIL_BRAND);
  }

  /**
   * Brand check, so errors from any copy of the package match. A subclass
   * (`class E extends SigilError`) checks the prototype chain as usual.
   */
  static [Symbol.hasInstance](x: unknown): boolean {
    return has(SigilError, this, SIGIL_BRAND, x);
  }
}

/**
 * `JSON.stringify(text)` for the message of `InvalidDurationError`; for a
 * non-string that JSON cannot show (a bigint, a cyclic object) a plain
 * description instead, so that `parse` never throws.
 */
function quote(text: unknown): string {
  try {
    return String(JSON.stringify(text)); // docs/API.md section 4: the whole text, JSON-quoted
  } catch {
    if (typeof text === "bigint") return `${text}n`;
    try {
      return Object.prototype.toString.call(text);
    } catch {
      return "[object]"; // a revoked Proxy
    }
  }
}

/**
 * The failure of `parse`: `name` is `"InvalidDurationError"`, `text` is the caller's input,
 * verbatim (untrimmed, unchanged even when it is not valid Unicode), and
 * `message === "Invalid duration: " + JSON.stringify(text)`.
 */
export class InvalidDurationError extends Error {
  /** The text that failed to parse, exactly as given. */
  readonly text: string;

  /** @param text the input that is not a duration. */
  constructor(text: string) {
    super("Invalid duration: " + quote(text));
    // `name` is set here, not as a class field, so the own keys are the original's, in its
    // order (`text`, then `name`: what `Object.keys` and `JSON.stringify` show).
    this.name = "InvalidDurationError";
    this.text = text;
    brand(this, DURATION_BRAND);
  }

  /**
   * Brand check, so errors from any copy of the package match. A subclass
   * (`class E extends InvalidDurationError`) checks the prototype chain as usual.
   */
  static [Symbol.hasInstance](x: unknown): boolean {
    return has(InvalidDurationError, this, DURATION_BRAND, x);
  }
}

/**
 * Error classes of `invalid`: RangeError, TypeError (`SIGIL`, SigilError, is the third kind the
 * wasm checks record). Re-exported, not copied into constants of this module, so that an importer
 * reads the numbers themselves (esbuild inlines js/engine/boundary.ts's literal constants, not a constant
 * made from one). @internal
 */
export { KIND_RANGE as RANGE, KIND_TYPE as TYPE } from "./boundary.js";

/**
 * Makes a {@link SIGIL} error (a `SigilError` with code `"invalid_argument"`), set by
 * js/policy/sigil.ts when it loads (only Sigil's calls record that kind), so an entry point without
 * Sigil does not ship the class.
 */
let sigilError: (message: string) => Error;

/** Sets the maker of {@link SIGIL} errors (js/policy/sigil.ts, when it loads). @internal */
export function useSigilError(c: (message: string) => Error): void {
  sigilError = c;
}

/**
 * A short, exact description of a received value for error messages:
 * strings quoted (JSON), numbers as JavaScript prints them, otherwise the kind.
 */
/** Longest text quoted whole in a message; longer text is cut (a config value must not flood logs). */
const QUOTE_MAX = 100;

/** `JSON.stringify(s)`, or its first {@link QUOTE_MAX} code units and the full length. */
function quoteShort(s: string): string {
  return JSON.stringify(s.slice(0, QUOTE_MAX)) + (s.length > QUOTE_MAX ? `… (${s.length} characters)` : "");
}

/**
 * How a received value other than a number, boolean or string is named in a message, indexed by
 * its tag (a hole at each of those three: {@link TagsInOrder} checks the positions).
 */
const KINDS: TagsInOrder = ["undefined", , , , "null", "a function", "an array", "an object", "a symbol", "a bigint"];

/** A list of names when the tags are numbered as `KINDS` lists them, else `never` (a type error there). */
type TagsInOrder = [
  typeof TAG_UNDEFINED, typeof TAG_NUMBER, typeof TAG_STRING, typeof TAG_BOOLEAN, typeof TAG_NULL, typeof TAG_FUNCTION,
  typeof TAG_ARRAY, typeof TAG_OBJECT, typeof TAG_SYMBOL, typeof TAG_BIGINT,
] extends [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] ? readonly (string | undefined)[] : never;

function describe(v: unknown): string {
  const t = tag(v);
  return t === TAG_NUMBER || t === TAG_BOOLEAN ? String(v) : t === TAG_STRING ? quoteShort(v as string) : (KINDS[t] as string);
}

/**
 * The error this package throws for a bad argument checked in JavaScript,
 * with the same message format as the checks made in Rust:
 * `<option> must be <expected>; received <value>`, of the class `kind` names
 * ({@link RANGE}, {@link TYPE}; Sigil's checks use `SigilError`'s kind). `cause`:
 * the error the engine threw while reading the value (a revoked Proxy, a throwing getter).
 * @internal
 */
export function invalid(kind: number, option: string, expected: string, received: unknown, cause?: unknown): Error {
  const message = `${option} must be ${expected}; received ${describe(received)}`;
  const o = cause === undefined ? undefined : { cause };
  return kind === RANGE ? new RangeError(message, o) : kind === TYPE ? new TypeError(message, o) : sigilError(message);
}

/**
 * A number argument or option: `fallback` when `x` is `undefined` and a fallback is given;
 * otherwise the package's TypeError when `x` is not a number, and a `range` error (RangeError
 * unless told) when `ok(x)` is false, both `<name> must be <expected>; received …`. @internal
 */
export function numberOption(name: string, x: unknown, expected: string, ok: (v: number) => boolean, fallback?: number, range: number = RANGE): number {
  if (x === undefined && fallback !== undefined) return fallback;
  if (typeof x !== "number") throw invalid(TYPE, name, expected, x);
  if (!ok(x)) throw invalid(range, name, expected, x);
  return x;
}

/**
 * `read()` — a read of the caller's value `x` (a getter, a Proxy trap) — or, when reading
 * throws (a revoked Proxy, a throwing getter), the package's TypeError
 * `<name> must be <expected>; received …` (`expected` says what can be read, e.g.
 * `"an object that can be read"`) with what was thrown as the `cause`. Every function of the package's own (not the mirrored Sigil ones) reads the
 * caller's objects through this, so all of them fail alike. @internal
 */
export function readable<T>(name: string, expected: string, x: unknown, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw invalid(TYPE, name, expected, x, e);
  }
}

/**
 * The first own enumerable key of Sigil's `options` that is not one of its option names
 * (`isSigilOption`, generated from src/boundary.rs's table), or `undefined`; the wasm check
 * that comes next raises it, in its place among the other checks (typos must not pass silently). @internal
 * @throws SigilError when the keys cannot be listed (a revoked Proxy).
 */
export function unknownSigilKey(options: object): string | undefined {
  let keys: string[];
  try {
    keys = Object.keys(options);
  } catch {
    // A revoked Proxy, or one whose ownKeys trap throws: the package's own error, not the engine's.
    throw invalid(SIGIL, "options", "an object whose keys can be listed", options);
  }
  for (const key of keys) if (!isSigilOption(key)) return key;
  return undefined;
}
