// Generated from src/boundary.rs; do not edit. The Rust test `boundary::tests::generated_file_is_current`
// fails when this file and that module disagree; `BOUNDARY_WRITE=1 cargo test -q --lib boundary::` rewrites it.
// The numbers both sides of the wasm boundary share (all before the first list, so that bundlers inline them).
export const TAG_UNDEFINED = 0;
export const TAG_NUMBER = 1;
export const TAG_STRING = 2;
export const TAG_BOOLEAN = 3;
export const TAG_NULL = 4;
export const TAG_FUNCTION = 5;
export const TAG_ARRAY = 6;
export const TAG_OBJECT = 7;
export const TAG_SYMBOL = 8;
export const TAG_BIGINT = 9;
export const SLOT_COUNT = 48;
export const ERR_KIND = 8;
export const ERR_OPTION = 9;
export const ERR_EXPECTED = 10;
export const ERR_ARG = 11;
export const ERR_INDEX = 12;
export const ERR_NUMBERS = 13;
export const KIND_RANGE = 0;
export const KIND_TYPE = 1;
export const KIND_SIGIL = 2;
export const KIND_KEY_TEXT = 3;
export const REC_GROWTH = 0;
export const REC_BASE = 1;
export const REC_FACTOR = 2;
export const REC_MAX = 3;
export const REC_CAP = 4;
export const REC_FREE = 5;
export const REC_JITTER = 6;
export const REC_FRACTION = 7;
export const REC_SOURCE = 8;
export const REC_KEY = 9;
export const REC_ATTEMPTS = 13;
export const REC_STEPS = 14;
export const REC_SIGIL = 15;
export const REC_HEADER = 16;
export const STEPPED = 3;
export const SOURCE_FUNCTION = 1;
export const SOURCE_FLOAT = 2;
export const SOURCE_NEXT = 3;
export const SOURCE_SEEDED = 4;
export const SOURCE_KEYED = 5;
export const JITTER_FULL = 3;
export const JITTER_SUBTRACT = 1;
export const SLOT_INPUT = 24;
export const SEED_OF_CREATE = 0;
export const SEED_OF_STATE = 1;
export const SEED_OF_SCHEMA = 2;
export const ITEMS_OF_PICK = 0;
export const ITEMS_OF_SHUFFLE = 1;
export const SURFACE_SIGIL = 0;
export const SURFACE_BACKOFF = 1;
export const SIGIL_DELAY = 4294967295;
export const TEXT_CAPACITY = 256;
export const REGISTER_LEN = 1016;
export const SIGIL_MAX_ATTEMPTS = 8;
export const SIGIL_BASE_DELAY_MS = 1000;
export const SIGIL_MAX_DELAY_MS = 3600000;
export const MAX_STEPS = 1000;
// The fields of BACKOFF calls: index = input slot pair and blamed value.
export const BACKOFF_BASE = 0;
export const BACKOFF_GROWTH = 1;
export const BACKOFF_FACTOR = 2;
export const BACKOFF_MAX = 3;
export const BACKOFF_CAP = 4;
export const BACKOFF_STEPS = 5;
export const BACKOFF_FREE = 6;
export const BACKOFF_JITTER = 7;
export const BACKOFF_RANDOM = 8;
export const BACKOFF_SEED = 9;
export const BACKOFF_ATTEMPTS = 10;
export const BACKOFF_NAME = 11;
/** `BACKOFF_FIELDS.slice(0, 11)`: the option names, in the order messages list them. */
export const BACKOFF_OPTIONS_FROM = 0;
export const BACKOFF_OPTIONS_TO = 11;
// The fields of SIGIL calls: index = input slot pair and blamed value.
export const SIGIL_DRAW = 0;
export const SIGIL_ATTEMPT = 1;
export const SIGIL_OPTIONS = 2;
export const SIGIL_BASE = 3;
export const SIGIL_MAX = 4;
export const SIGIL_JITTER = 5;
export const SIGIL_RANDOM = 6;
export const SIGIL_SEED = 7;
export const SIGIL_ATTEMPTS = 8;
export const SIGIL_NAME = 9;
/** `SIGIL_FIELDS.slice(3, 9)`: the option names, in the order messages list them. */
export const SIGIL_OPTIONS_FROM = 3;
export const SIGIL_OPTIONS_TO = 9;
/** The names of the fields of BACKOFF calls, by index. */
export const BACKOFF_FIELDS = ["base", "growth", "factor", "max", "cap", "steps", "free", "jitter", "random", "seed", "maxAttempts", "name"] as const;
/** The names of the fields of SIGIL calls, by index. */
export const SIGIL_FIELDS = ["draw", "attempt", "options", "baseDelayMs", "maxDelayMs", "jitter", "random", "seed", "maxAttempts", "name"] as const;
/** Whether `key` is the name of a `createBackoff` option. */
export function isBackoffOption(key: string): boolean {
  return BACKOFF_FIELDS.indexOf(key as never) >>> 0 < 11;
}
/** Whether `key` is the name of a Sigil's option. */
export function isSigilOption(key: string): boolean {
  switch (key) {
    case "baseDelayMs":
    case "maxDelayMs":
    case "jitter":
    case "random":
    case "seed":
    case "maxAttempts":
      return true;
  }
  return false;
}
/**
 * The values of a `createBackoff` call's fields (`BACKOFF_*`), in field order: every option of
 * `options` read by its name (a property read, so an inherited option or a getter of a class
 * counts), in that order, and `name` in the field that is not an option.
 */
export function readBackoffOptions(options: Record<string, unknown>, name: string | undefined): [unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown] {
  return [options.base, options.growth, options.factor, options.max, options.cap, options.steps, options.free, options.jitter, options.random, options.seed, options.maxAttempts, name];
}
export const GROWTH_NAMES = ["exponential", "linear", "constant"] as const;
export const JITTER_NAMES = ["full", "equal", "decorrelated"] as const;
/** The wordings of errors a Backoff call can record, by the id a wasm check records (`core::wording::BACKOFF`; a hole elsewhere). */
export const BACKOFF_WORDING: readonly (string | undefined)[] = ["an option name","interval","base","growth","factor","max","cap","steps","free","jitter","seed","maxAttempts","random",,,,,,,,,,,"an integer >= 1","an integer from 1 to 1000001 for a whole schedule (iterate the policy for longer ones)","an integer from 1 to 1001 for a whole decorrelated schedule (iterate the policy for longer ones)","a non-negative number","0 (no jitter) or a number in (0, 1]","a function returning numbers in [0, 1]","a finite number >= 1","a non-negative safe integer","a non-negative finite duration (ms, or text such as \"5 seconds\")","a duration >= base","a finite number","one of base, growth, factor, max, cap, steps, free, jitter, random, seed, maxAttempts",,"a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"","a source of draws in [0, 1]","a source whose float({}, {}) stays in that range","a Random (with float(min, max) or next()) or a function returning draws in [0, 1]","a non-empty array of at most 1000 durations","left out when steps are given (steps and curve options exclude each other)","given (or steps instead)","\"exponential\", \"linear\" or \"constant\"","left out unless growth is \"exponential\"","a kind other than \"decorrelated\" with steps (decorrelated needs a base and a cap)","set for \"decorrelated\" jitter (it needs a cap)","a string or a number","left out when random is given: seed makes each draw a pure function of (seed, attempt), random is a stream; keep one"];
/** The other wordings of errors, by the id a wasm check records (a hole at each of `BACKOFF_WORDING`'s). */
export const OTHER_WORDING: readonly (string | undefined)[] = [,,,,,,,,,,,,,"attempt","options","baseDelayMs","maxDelayMs","state.seed","items","items.length","state.words","state.words.length","min",,,,,,,,,,,,,"one of baseDelayMs, maxDelayMs, jitter, random, seed, maxAttempts",,,,,,,,,,,,,,"an object or undefined","a string or a finite number","an array","a non-empty array","an integer from {} to {}","an array of four unsigned 32-bit integers","4","an unsigned 32-bit integer","a safe integer","an integer >= min",""];
/** The wordings a Sigil call can record, at their ids (`core::wording::SIGIL`; a hole elsewhere). */
export const SIGIL_WORDING: readonly (string | undefined)[] = ["an option name",,,,,,,,,"jitter","seed","maxAttempts","random","attempt","options","baseDelayMs","maxDelayMs",,,,,,,"an integer >= 1","an integer from 1 to 1000001 for a whole schedule (iterate the policy for longer ones)",,"a non-negative number","0 (no jitter) or a number in (0, 1]","a function returning numbers in [0, 1]",,,,,,,"one of baseDelayMs, maxDelayMs, jitter, random, seed, maxAttempts",,,,,,,,,,,,"a string or a number","left out when random is given: seed makes each draw a pure function of (seed, attempt), random is a stream; keep one","an object or undefined"];
/** Duration units: short name, long name (singular; the plural adds `s`), milliseconds. */
export const DURATION_UNITS = [["ms", "millisecond", 1], ["s", "second", 1000], ["m", "minute", 60000], ["h", "hour", 3600000], ["d", "day", 86400000], ["w", "week", 604800000]] as const;
/** HTTP-date day names (IMF-fixdate, asctime), Monday first. */
export const HTTP_SHORT_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;
/** HTTP-date day names of RFC 850 dates, Monday first. */
export const HTTP_LONG_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
/** HTTP-date month names, January first, three letters each. */
export const HTTP_MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";
/** The HTTP-date layouts as templates (see the Rust parser, `core::http_date`). */
export const HTTP_LAYOUTS = ["w, 00 m 2222 33:44:55 GMT", "w m _0 33:44:55 2222", "l, 00-m-22 33:44:55 GMT"] as const;
