/**
 * The one reader of the options of the package's own functions (`retry`, `fetchWithRetry`,
 * `sleep`, `createRetryBudget`, the budget stores, `retryMessage`, `scheduleSvg`), with one
 * rule: each known option is read by its name, once (an inherited option and a getter count,
 * and a getter runs once); an own enumerable key that is no option is a TypeError naming it;
 * an inherited key that is no option is ignored, so a property a library added to
 * `Object.prototype` changes nothing. The mirrored entry points (`/backoff`, `/policy`,
 * `/sigil`, `/p-retry`) keep their originals' rules and do not use it. docs/guides/options.md
 * lists the rule of every entry point.
 * @module
 */
import { invalid, readable, TYPE } from "./errors.js";

/** An object, not `null` (arrays and class instances included). @internal */
export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null;
}

/**
 * The options `x` of a function of the package's own, read by the rule above into a record
 * without a prototype that holds every name of `known` (`undefined` when not given).
 * `undefined` is no options. `name` is the caller's word for the object (`"options"`, or a
 * nested one such as `"deadline"`); `hint(key, keys, x)` adds to the unknown-key error where
 * that key belongs, when the caller knows (`keys`: the own enumerable keys of `x`).
 * @throws TypeError `<name> must be an object` for anything else that is not an object (an
 *   array included); `<name> must be an object whose keys can be listed` or
 *   `… that can be read` (the engine's error as the `cause`) for a revoked Proxy or a
 *   throwing getter; `option must be one of <known>; received "<key>"` (`<name> option`
 *   for a nested object) for an own enumerable key outside `known`. @internal
 */
export function readOptions<K extends string>(
  x: unknown, known: readonly K[], name = "options", hint?: (key: string, keys: readonly string[], x: Record<string, unknown>) => string,
): { [P in K]: unknown } {
  const o = Object.create(null) as { [P in K]: unknown };
  if (x === undefined) return o;
  if (!isObject(x)) throw invalid(TYPE, name, "an object", x);
  const keys = readable(name, "an object whose keys can be listed", x, () => Object.keys(x));
  // An array is an object too, but never options: its index keys would only be reported as
  // unknown options. (Asked after the keys were listed, which reports a revoked Proxy, on
  // which isArray throws.)
  if (Array.isArray(x)) throw invalid(TYPE, name, "an object", x);
  for (const key of keys) {
    if (!(known as readonly string[]).includes(key)) {
      throw invalid(TYPE, name === "options" ? "option" : `${name} option`, `one of ${known.join(", ")}${hint ? hint(key, keys, x) : ""}`, key);
    }
  }
  readable(name, "an object that can be read", x, () => {
    for (const key of known) o[key] = x[key];
  });
  return o;
}

/** The AbortSignal option named `name` (`undefined`/`null` = not given). @internal */
export function signalOf(name: string, x: unknown): AbortSignal | undefined {
  if (x == null) return undefined;
  const s = x as AbortSignal;
  // A revoked Proxy or a throwing getter: the package's error, the engine's as its cause.
  const ok = readable(name, "an AbortSignal that can be read", x, () =>
    typeof s === "object" && typeof s.aborted === "boolean" && typeof s.addEventListener === "function" && typeof s.removeEventListener === "function");
  if (!ok) throw invalid(TYPE, name, "an AbortSignal", x);
  return s;
}

/** The function option named `name`, or `undefined` (`null` too). @internal */
export function fnOf<F>(name: string, x: unknown): F | undefined {
  if (x == null) return undefined;
  if (typeof x !== "function") throw invalid(TYPE, name, "a function", x);
  return x as F;
}
