// API.md section 4: `/duration`, duration text of @sdxc/duration.
// Shared body: runs in Node (ESM build) and in headless Chromium (browser build).

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const W = 7 * D;

/** Accepted text and its value in ms. */
const ACCEPTED = [
  // long units, singular and plural, exactly one space
  ["1 millisecond", 1], ["2 milliseconds", 2], ["1 milliseconds", 1], ["5 millisecond", 5],
  ["1 second", S], ["15 seconds", 15 * S], ["1 seconds", S], ["5 second", 5 * S],
  ["1 minute", M], ["5 minutes", 5 * M], ["1 hour", H], ["12 hours", 12 * H],
  ["1 day", D], ["2 days", 2 * D], ["1 week", W], ["3 weeks", 3 * W],
  ["0 seconds", 0], ["-2 minutes", -2 * M], ["1000000 weeks", 1000000 * W],
  // short units, no space
  ["250ms", 250], ["5s", 5 * S], ["3m", 3 * M], ["2h", 2 * H], ["1d", D], ["2w", 2 * W],
  ["0ms", 0], ["-5s", -5 * S], ["10m", 10 * M], ["100d", 100 * D],
  // bare amounts are ms
  ["0", 0], ["1", 1], ["250", 250], ["-250", -250], ["1000", 1000], ["9007199254740991", 9007199254740991],
  ["123456789012345678901234567890", 123456789012345678901234567890],
];

/** Text around which JavaScript's trim() removes (value of the inner text is 5000). */
const TRIMMED = [
  " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\u00A0", "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004",
  "\u2005", "\u2006", "\u2007", "\u2008", "\u2009", "\u200A", "\u2028", "\u2029", "\u202F", "\u205F", "\u3000", "\uFEFF",
  " \t\uFEFF\u00A0\u2028\u3000 ",
];

/** Characters JavaScript's trim() keeps (so the text is rejected). */
const NOT_TRIMMED = ["\u0085", "\u180E", "\u200B", "\u200C", "\u200D", "\u2060", "\u00AD", "\u0000", "\u001F", "\u007F"];

const REJECTED = [
  // decimals, exponents, hex and other number syntax
  "1.5", "1.5s", "1.5 seconds", "1.0", "1.", ".5", ".5s", "0.5 minutes", "1,5s", "1e3", "1e3ms", "1E3", "1e+3 seconds",
  "0x10", "0x10s", "0b1", "0o7", "1n", "Infinity", "-Infinity", "NaN", "Infinity ms",
  // signs
  "+5", "+5s", "+5 seconds", "--5", "-", "- 5", "-s", "−5s", "+-5",
  // leading zeros
  "05", "05s", "007 seconds", "00", "-05", "-00", "00ms",
  // separators
  "1_000", "1_000ms", "1_000 seconds", "1 000", "1,000",
  // wrong spacing
  "5  seconds", "5 s", "5 ms", "5 m", "5seconds", "5minutes", "5\tseconds", "5\u00A0seconds", "5 seconds s", "5s ms", "5 \tseconds",
  // case
  "5 Seconds", "5 SECONDS", "5S", "5MS", "5Ms", "5 Minutes", "5H",
  // compound text
  "1m 30s", "1m30s", "1h30m", "1 hour 30 minutes", "1 hour, 30 minutes", "5 seconds and 3", "5s5", "5 5",
  // months, years and unknown units
  "1 month", "2 months", "1mo", "1M", "1 year", "2 years", "1y", "1 fortnight", "1 sec", "1 secs", "1 min", "1 mins",
  "1 hr", "1 hrs", "1 msec", "1 ms ", "1 minuts", "5 minuts", "1 secondss", "1 µs", "1us", "1ns", "1 nanosecond",
  // unit-only, empty, blank
  "", " ", "\t\n", "s", "ms", "seconds", " seconds", "week", "d",
  // inherited and prototype names are not units
  "1 toString", "1 constructor", "1 __proto__", "1 hasOwnProperty", "1 valueOf", "1 isPrototypeOf", "1toString",
  "1constructor", "1__proto__", "1 prototype", "1 length",
  // other digits and lookalikes
  "５s", "٥s", "1 ѕeconds", "1 secondѕ",
];

export default (t, lib, entries) => {
  const { parseDuration: parse, toMs, toSeconds, InvalidDurationError } = lib;
  const dur = entries.duration;

  /** Asserts the exact failure shape of section 4 for `text`. */
  const failure = (text, label = `parse(${t.show(text)})`) => {
    const r = t.noThrow(() => parse(text), label);
    t.eq(Object.keys(r).sort(), ["error", "status"], `${label}: keys`);
    t.eq(r.status, "failure", label);
    const e = r.error;
    t.ok(e instanceof InvalidDurationError, `${label}: instanceof InvalidDurationError`);
    t.ok(e instanceof dur.InvalidDurationError, `${label}: instanceof /duration's InvalidDurationError`);
    if (entries.cjs) t.ok(e instanceof entries.cjs.InvalidDurationError, `${label}: instanceof the CommonJS class`);
    t.ok(e instanceof Error, `${label}: instanceof Error`);
    t.eq(e.name, "InvalidDurationError", `${label}: name`);
    t.eq(e.text, text, `${label}: text verbatim`);
    t.eq(e.message, "Invalid duration: " + JSON.stringify(text), `${label}: message`);
    return e;
  };

  t.test("parse: every accepted long, short and bare form", () => {
    for (const [text, ms] of ACCEPTED) {
      t.eq(parse(text), { status: "success", data: ms }, `parse(${t.show(text)})`);
      t.eq(dur.parse(text), { status: "success", data: ms }, `/duration parse(${t.show(text)})`);
      t.eq(toMs(text), ms, `toMs(${t.show(text)})`);
    }
  });

  t.test("parse: days and weeks are fixed 24 h and 7 d", () => {
    t.eq(parse("1 day").data, 86400000);
    t.eq(parse("1d").data, parse("24 hours").data);
    t.eq(parse("1 week").data, 604800000);
    t.eq(parse("1w").data, parse("7 days").data);
  });

  t.test("parse: '-0' forms are accepted and equal 0", () => {
    for (const text of ["-0", "-0s", "-0 seconds", "-0ms"]) {
      const r = parse(text);
      t.eq(r.status, "success", text);
      t.ok(r.data === 0, `${text} is 0 (got ${t.show(r.data)})`);
    }
  });

  t.test("parse: text is trimmed as String.prototype.trim trims (incl. U+FEFF, U+00A0, U+2028, U+3000)", () => {
    for (const ws of TRIMMED) {
      t.eq(ws.trim(), "", `${t.show(ws)} is JS whitespace`);
      t.eq(parse(`${ws}5s${ws}`), { status: "success", data: 5000 }, `around: ${t.show(ws)}`);
      t.eq(parse(`${ws}5 seconds`), { status: "success", data: 5000 }, `before: ${t.show(ws)}`);
      t.eq(parse(`5000${ws}`), { status: "success", data: 5000 }, `after: ${t.show(ws)}`);
    }
  });

  t.test("parse: U+0085, U+180E, U+200B and other non-JS-whitespace are not trimmed", () => {
    for (const ch of NOT_TRIMMED) {
      t.ok(ch.trim() === ch, `${t.show(ch)} is not JS whitespace`);
      failure(`${ch}5s`);
      failure(`5s${ch}`);
      failure(`5${ch}seconds`);
    }
  });

  t.test("parse: every rejected form fails with the exact error", () => {
    for (const text of REJECTED) failure(text);
  });

  t.test("parse: rejected text keeps its surrounding whitespace in error.text", () => {
    const e = failure("  5 minuts \n");
    t.eq(e.text, "  5 minuts \n");
    t.eq(e.message, 'Invalid duration: "  5 minuts \\n"');
    failure("\uFEFF1 month\u3000");
  });

  t.test("parse: lone surrogates are kept verbatim in error.text", () => {
    for (const text of ["\uD800", "5\uD800s", "\uDC00 5s", "5s\uD83D", "\uD800\uD800", "1 second\uDFFF"]) {
      const e = failure(text);
      t.eq(e.text.length, text.length, "same code units");
      for (let i = 0; i < text.length; i++) t.eq(e.text.charCodeAt(i), text.charCodeAt(i), `unit ${i}`);
    }
    t.eq(parse("5s\uD800").error.message, "Invalid duration: " + JSON.stringify("5s\uD800"));
  });

  t.test("parse never throws (non-string input)", () => {
    const cyclic = {};
    cyclic.self = cyclic;
    const hostile = { toJSON() { throw new Error("no"); } };
    for (const x of [undefined, null, 5, NaN, {}, [], true, Symbol("s"), 1n, cyclic, hostile]) {
      const r = t.noThrow(() => parse(x), `parse(${t.show(x)})`);
      t.ok(r && (r.status === "failure" || r.status === "success"), `parse(${t.show(x)}) returns a result`);
    }
  });

  t.test("success result is exactly { status, data }", () => {
    const r = parse("1 minute");
    t.eq(Object.keys(r).sort(), ["data", "status"]);
    t.eq(r, { status: "success", data: 60000 });
  });

  t.test("InvalidDurationError is recognised across entry points", () => {
    t.ok(lib.InvalidDurationError === dur.InvalidDurationError || parse("x").error instanceof dur.InvalidDurationError);
    t.ok(dur.parse("nope").error instanceof lib.InvalidDurationError);
    t.ok(!(new Error("x") instanceof InvalidDurationError));
    const e = new InvalidDurationError("abc");
    t.eq([e.name, e.text, e.message], ["InvalidDurationError", "abc", 'Invalid duration: "abc"']);
  });

  t.test("toMs: numbers pass through unchanged; text parses; bad text is NaN", () => {
    for (const n of [0, -0, 5, -5, 1.5, 0.1, 2 ** 60, NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE]) {
      t.eq(toMs(n), n, `toMs(${t.show(n)})`);
      t.eq(dur.toMs(n), n, `/duration toMs(${t.show(n)})`);
    }
    t.eq(toMs("5 minutes"), 300000);
    t.eq(toMs(" 2h "), 7200000);
    for (const text of ["bad", "", "1.5s", "1 toString", "1 constructor", "1 __proto__", "\uD800", "5\u0085"]) {
      t.eq(toMs(text), NaN, `toMs(${t.show(text)})`);
    }
  });

  t.test("toSeconds(x) = Math.round(toMs(x) / 1000), JavaScript rounding (ties toward +Infinity)", () => {
    const cases = [
      [1000, 1], [1499, 1], [1500, 2], [2500, 3], [999, 1], [499, 0], [500, 1], [0, 0],
      [-1500, -1], [-2500, -2], [-1501, -2], [-499, -0], [-500, -0], [-501, -1], [-0, -0],
      ["1500ms", 2], ["2500", 3], ["-1500ms", -1], ["-500ms", -0], ["1 minute", 60], ["1 week", 604800], ["1.5s", NaN],
      ["bad", NaN], [NaN, NaN], [Infinity, Infinity], [-Infinity, -Infinity], [1.5, 0], [4503599627370497000, 4503599627370497],
    ];
    for (const [x, want] of cases) {
      t.eq(want, Math.round(toMsOracle(x) / 1000), `oracle for ${t.show(x)}`);
      t.eq(toSeconds(x), want, `toSeconds(${t.show(x)})`);
      t.eq(dur.toSeconds(x), want, `/duration toSeconds(${t.show(x)})`);
    }
  });
};

/** The expected toMs for the toSeconds cases (text values spelled out independently). */
function toMsOracle(x) {
  if (typeof x === "number") return x;
  return { "1500ms": 1500, "2500": 2500, "-1500ms": -1500, "-500ms": -500, "1 minute": 60000, "1 week": 604800000 }[x] ?? NaN;
}
