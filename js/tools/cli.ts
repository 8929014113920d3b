/**
 * The `backoff-wasm` command: `backoff-wasm schedule [options]` prints a retry
 * schedule (`backoff-wasm schedule --help` lists the options). With no options it prints `@sigil/core`'s
 * default: 8 attempts, 1 s doubling, 1 h ceiling, no jitter.
 *
 * Exit codes: 0 success, 2 bad usage (one line on stderr naming the option).
 * @module
 */
import { parseArgs } from "node:util";
import { createBackoff, type BackoffOptions } from "../policy/backoff.js";
import { BASE_DELAY_MS, MAX_ATTEMPTS, MAX_DELAY_MS } from "../policy/sigil.js";
import { formatDelay } from "./format.js";
import { scheduleSvg } from "./chart.js";
import { writeFileSync } from "node:fs";
import type { Backoff } from "../policy/backoff.js";

const HELP = `Usage: backoff-wasm schedule [options]

Prints the wait before each retry, the time elapsed since the first failure,
and the total retry window. With no options: @sigil/core's default schedule
(8 attempts in total, 1 s doubling, capped at 1 h, no jitter).

Options (durations are ms or text such as "5s", "2 minutes"; counts, <n>, are
plain decimal digits):
  --base <duration>     first wait (default 1s)
  --max <duration>      ceiling of any wait before jitter (default 1h; "none"
                        for unbounded)
  --factor <number>     exponential multiplier, >= 1 (default 2)
  --growth <kind>       exponential (default) | linear | constant
  --steps <list>        comma-separated waits, the last repeating (replaces
                        --base/--max/--factor/--growth)
  --attempts <n>        attempts in total, the first included (default 8)
  --free <n>            attempts that wait 0 before the curve starts (default 0)
  --jitter <f>          ± fraction in [0, 1] (createBackoff's jitter), "full",
                        "equal" or "decorrelated" (needs --max)
  --seed <seed>         keyed jitter (the library's seed option): retry n draws
                        createRandom("<seed> n").next(), so the same seed always
                        prints the same schedule; without it draws are random
  --format <format>     table (default) | json | csv (JSON has no Infinity: an
                        infinite wait, from an unbounded curve, is null there)
  --chart               draw the schedule as a bar chart (fits 80 columns):
                        █ the shortest possible wait, ░ the jitter band,
                        ● this run's wait
  --svg <file>          also write the schedule as an SVG chart (scheduleSvg;
                        1 to 200 retries, so --attempts 2 to 201); "-" writes
                        the SVG to standard output instead of the table
  -h, --help            this text
  --version             the package version

Each option may be given once.

Exit status: 0 on success, 2 on a bad option (one line naming it).`;

// Formats of the table and the bar chart (CLI only).

/**
 * A clock-style breakdown to the millisecond: `1 s`, `1 min 3 s`, `2 min 7 s`, `1 h 0 min 5 s`,
 * `0.766 s`; days only beyond 2^53 days (`1.1574074074074073e+295 d`).
 * @param ms milliseconds.
 */
function formatElapsed(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const parts: string[] = [];
  // Rounded to the millisecond before it is split: 419 999.992 ms is "7 min", not "6 min 60 s"
  // (and 1621.5 ms reads 1.622 s, as in the delay column).
  let rest = Math.round(ms);
  for (const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["min", 60_000]] as const) {
    if (rest >= size || parts.length > 0) {
      // `%` is exact on doubles; `rest - n * size` is not once the product passes 2^53, which
      // turned 1e23 ms into "… d 9 h 19 min 14.432 s" instead of "… d 7 h 26 min 51.392 s".
      const left = rest % size;
      const n = Math.round((rest - left) / size);
      parts.push(`${n} ${unit}`);
      // Beyond 2^53 of a unit a double holds no smaller one: `rest` would be rounding noise.
      if (n > Number.MAX_SAFE_INTEGER) return parts.join(" ");
      rest = left;
    }
  }
  const s = rest / 1000;
  if (s !== 0 || parts.length === 0) parts.push(`${s} s`);
  return parts.join(" ");
}

/**
 * A compact approximate duration, three significant digits: `250 ms`, `20.1 s`, `4.27 min`, `1.5 h`.
 * For chart labels, where width matters more than exactness.
 * @param ms milliseconds.
 */
function formatShort(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const sig = (x: number) => String(Number(x.toPrecision(3)));
  if (ms < 1000) return `${sig(ms)} ms`;
  if (ms < 60_000) return `${sig(ms / 1000)} s`;
  if (ms < 3_600_000) return `${sig(ms / 60_000)} min`;
  if (ms < 86_400_000) return `${sig(ms / 3_600_000)} h`;
  return `${sig(ms / 86_400_000)} d`;
}

/** Units of {@link columnUnit}, largest first: name and size in ms. */
const UNITS = [["d", 86_400_000], ["h", 3_600_000], ["min", 60_000], ["s", 1000], ["ms", 1]] as const;

/**
 * The one unit a table column of waits is written in: the largest unit (`d`, `h`,
 * `min`, `s`, `ms`) that the shortest non-zero finite wait reaches, so no value of
 * the column is below 1 of it except 0 (`250 ms … 30000 ms`, `1 s … 3600 s`); `ms`
 * when there is no such wait (a column of zeros is `0 ms`, not `0 d`).
 * @param ms the column's waits, milliseconds.
 * @returns `[unit name, unit size in ms]`.
 */
function columnUnit(ms: readonly number[]): readonly [string, number] {
  // A loop, not Math.min(...ms): a schedule has up to a million waits, more arguments than a call takes.
  let shortest = Infinity;
  for (const x of ms) if (x > 0 && x < shortest) shortest = x;
  // Math.min() of no waits is Infinity, which every unit would reach.
  return (shortest !== Infinity && UNITS.find(([, size]) => shortest >= size)) || UNITS[UNITS.length - 1]!;
}

/**
 * A wait in the given unit, rounded to the millisecond (in ms itself, to the
 * microsecond: at most 3 decimals): `formatIn(1081, ["s", 1000])` is `1.081 s`,
 * `formatIn(1621.5, ["s", 1000])` is `1.622 s`, `formatIn(1621.5, ["ms", 1])` is `1621.5 ms`.
 * Non-finite values print as JavaScript prints them.
 * @param ms milliseconds. @param unit from {@link columnUnit}.
 */
function formatIn(ms: number, [name, size]: readonly [string, number]): string {
  if (!Number.isFinite(ms)) return String(ms);
  const digits = size === 1 ? 3 : Math.round(Math.log10(size));
  // Rounded in ms first: 1621.5 / 1000 is 1.62149999… in binary, which toFixed(3) rounds down.
  const value = size === 1 ? ms : Math.round(ms) / size;
  return `${Number(value.toFixed(digits))} ${name}`;
}

/** Maps a library option name to the flag that sets it. */
const FLAG: Record<string, string> = {
  base: "--base", max: "--max", factor: "--factor", growth: "--growth", steps: "--steps", "steps[i]": "--steps",
  maxAttempts: "--attempts", free: "--free", jitter: "--jitter", seed: "--seed",
};

class UsageError extends Error {}

/** The most retries `scheduleSvg` draws (its `retries` option is an integer from 1 to this). */
const SVG_RETRIES = 200;

/** The package version, set by scripts/assemble.mjs when it bundles the command. */
declare const __BACKOFF_WASM_VERSION__: string | undefined;
const VERSION = typeof __BACKOFF_WASM_VERSION__ === "string" ? __BACKOFF_WASM_VERSION__ : "(unbundled)";

/** A decimal number as typed on a command line (`2`, `-1`, `0.25`, `.5`, `1e3`). */
const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** The smallest positive double held to full precision (below it a double is subnormal, or 0). */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * A number flag as a number: decimal text ({@link NUMBER_TEXT}) that a double holds, so
 * `1e400` (Infinity as a double) is an error quoting what was typed, not a schedule of
 * Infinity or an option error about a value nobody typed; and so is a number that is not
 * zero but smaller than {@link MIN_NORMAL} in size (`1e-400`, 0 as a double; `1e-320`, a
 * subnormal short of its digits), not a schedule of another number. Zero text (`0`, `0.0`,
 * `0e9`, `-0`) is 0.
 */
function numberArg(flag: string, text: string): number {
  const t = text.trim();
  if (!NUMBER_TEXT.test(t)) {
    throw new UsageError(`${flag} must be a number; received ${JSON.stringify(text)}`);
  }
  const n = Number(text);
  if (!Number.isFinite(n)) {
    throw new UsageError(`${flag} must be a finite number (at most 1.7976931348623157e308); received ${JSON.stringify(text)}`);
  }
  // A digit other than 0 before the exponent: the text is not zero.
  const e = t.search(/e/i);
  if (Math.abs(n) < MIN_NORMAL && /[1-9]/.test(e < 0 ? t : t.slice(0, e))) {
    throw new UsageError(`${flag} must be 0 or at least 2.2250738585072014e-308 in size (a smaller number is too small to represent); received ${JSON.stringify(text)}`);
  }
  return n;
}

/** A count as typed on a command line: plain decimal digits (`8`, `0`, `007`), nothing else. */
const COUNT_TEXT = /^[0-9]+$/;

/**
 * A count flag (`--attempts`, `--free`) as a number: plain decimal digits ({@link COUNT_TEXT}),
 * so a space, a sign, a fraction or an exponent (`" 3"`, `1e3`, `2.0`) is an error quoting what
 * was typed, and so is a count that a double cannot hold exactly (2^53 and above), not the
 * rounded number an option check would see. The value (0 included) is then the option's to check.
 */
function countArg(flag: string, text: string): number {
  if (!COUNT_TEXT.test(text)) {
    throw new UsageError(`${flag} must be a whole number in plain decimal digits; received ${JSON.stringify(text)}`);
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n)) {
    throw new UsageError(`${flag} must be a whole number below 2^53 (9007199254740992); received ${JSON.stringify(text)}`);
  }
  return n;
}

/**
 * A duration flag (`--base`, `--max`, an item of `--steps`) as `createBackoff` takes it: a
 * number of ms (`250`, `1.5`, `1e3`; {@link numberArg}) or else the text, for the duration parser
 * (`"5s"`, `"2 minutes"`).
 */
function durationArg(flag: string, text: string): number | string {
  return NUMBER_TEXT.test(text.trim()) ? numberArg(flag, text) : text;
}

interface Row {
  retry: number;
  delayMs: number;
  elapsedMs: number;
}

function buildOptions(v: Record<string, string | boolean | undefined>): BackoffOptions {
  const shared: Record<string, unknown> = {
    maxAttempts: v.attempts === undefined ? MAX_ATTEMPTS : countArg("--attempts", v.attempts as string),
  };
  if (v.free !== undefined) shared.free = countArg("--free", v.free as string);
  if (v.jitter !== undefined) {
    const j = v.jitter as string;
    // A number goes in as a number; any other word as given, so a kind is taken and a
    // misspelt one gets the library's error, which lists the kinds.
    shared.jitter = NUMBER_TEXT.test(j.trim()) ? numberArg("--jitter", j) : j;
  }
  if (v.seed !== undefined) shared.seed = v.seed;
  if (v.steps !== undefined) {
    for (const flag of ["base", "max", "factor", "growth"]) {
      if (v[flag] !== undefined) throw new UsageError(`--${flag} cannot be combined with --steps`);
    }
    const steps = (v.steps as string).split(",").map((s) => durationArg("--steps", s.trim()));
    return { ...shared, steps } as BackoffOptions;
  }
  const curve: Record<string, unknown> = { ...shared, base: v.base === undefined ? BASE_DELAY_MS : durationArg("--base", v.base as string) };
  if (v.growth !== undefined) curve.growth = v.growth;
  if (v.factor !== undefined) curve.factor = numberArg("--factor", v.factor as string);
  if (v.max === undefined) curve.max = MAX_DELAY_MS;
  else if (v.max !== "none") curve.max = durationArg("--max", v.max as string);
  else if (shared.jitter === "decorrelated") throw new UsageError(`--max none cannot be combined with --jitter decorrelated, which needs a cap`);
  return curve as unknown as BackoffOptions;
}

/**
 * The line under the table: the shortest and longest total wait any draws can give
 * (`totalBounds()`); when the two are equal the total window is the same on every run, and the
 * line says why: the policy has no jitter, or its draws cannot move any wait (a base of 0,
 * waits that are already `Infinity`).
 */
function boundsLine(b: { min: number; max: number }, jittered: boolean): string {
  if (b.min === b.max) return `total wait bounds: the total window on every run (${jittered ? "the jitter draws cannot move it" : "no jitter"})`;
  return `total wait bounds: ${formatElapsed(b.min)} – ${formatElapsed(b.max)} (${b.min} – ${b.max} ms)`;
}

function render(rows: Row[], total: number, format: string, bounds: { min: number; max: number }, jittered: boolean): string {
  if (format === "json") return JSON.stringify({ retries: rows, totalMs: total, totalBounds: bounds }, null, 2);
  if (format === "csv") return ["retry,delay_ms,elapsed_ms", ...rows.map((r) => `${r.retry},${r.delayMs},${r.elapsedMs}`)].join("\n");
  // One style per column: every delay in one unit, every elapsed time as a clock reading.
  const unit = columnUnit(rows.map((r) => r.delayMs));
  const table = [["retry", "delay", "elapsed"], ...rows.map((r) => [String(r.retry), formatIn(r.delayMs, unit), formatElapsed(r.elapsedMs)])];
  const widths = [0, 1, 2].map((c) => table.reduce((w, row) => Math.max(w, (row[c] as string).length), 0));
  const lines = table.map((row) => row.map((cell, c) => (c === 0 ? cell.padStart(widths[0] as number) : cell.padEnd(widths[c] as number))).join("   ").trimEnd());
  if (rows.length === 0) lines.push("(no retries: a single attempt)");
  lines.push("", `total window: ${formatElapsed(total)} (${total} ms)`, boundsLine(bounds, jittered));
  return lines.join("\n");
}

const BAR = 44;
const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

/** A bar of `cells` character cells (eighth-block precision). */
function bar(cells: number, full: string): string {
  const whole = Math.floor(cells);
  const eighth = Math.round((cells - whole) * 8);
  return full.repeat(whole) + (eighth === 8 ? full : full === "█" ? EIGHTHS[eighth] : eighth >= 4 ? full : "");
}

/** The schedule as a Unicode bar chart within 80 columns. */
function barChart(policy: Backoff, rows: Row[], total: number, totals: { min: number; max: number }): string {
  const bounds = rows.map((r) => policy.bounds(r.retry));
  // Scaled to the largest finite wait; an infinite one (an overflowed curve) is a full bar.
  const top = bounds.reduce((t, b) => (b.max < Infinity ? Math.max(t, b.max) : t), 1);
  const cells = (ms: number) => (Math.min(ms, top) / top) * BAR;
  const lines = rows.map((r, i) => {
    const b = bounds[i] as ReturnType<Backoff["bounds"]>;
    const solid = bar(cells(b.min), "█");
    let line = (solid + bar(Math.max(0, cells(b.max) - solid.length), "░")).padEnd(BAR);
    let label = b.min === b.max ? formatDelay(r.delayMs) : formatShort(r.delayMs);
    if (b.min !== b.max) {
      const at = Math.min(BAR - 1, Math.max(0, Math.round(cells(r.delayMs)) - 1));
      line = line.slice(0, at) + "●" + line.slice(at + 1);
      label += ` (${formatShort(b.min)}–${formatShort(b.max)})`;
    }
    return `${String(r.retry).padStart(5)} │${line} ${label}`.slice(0, 80);
  });
  return [...lines, `${" ".repeat(5)} └${"─".repeat(BAR)}`, `total window: ${formatElapsed(total)} (${total} ms)`, boundsLine(totals, policy.toJSON().jitter !== 0)].join("\n");
}

/** Runs the CLI with `argv` (without `node` and the script); returns the exit code. */
export function main(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  try {
    const { values, positionals, tokens } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        base: { type: "string" }, max: { type: "string" }, factor: { type: "string" }, growth: { type: "string" },
        steps: { type: "string" }, attempts: { type: "string" }, free: { type: "string" }, jitter: { type: "string" },
        seed: { type: "string" }, format: { type: "string", default: "table" }, help: { type: "boolean", short: "h" },
        chart: { type: "boolean" }, svg: { type: "string" }, version: { type: "boolean" },
      },
    });
    if (values.help) {
      out(HELP);
      return 0;
    }
    if (values.version) {
      out(`backoff-wasm ${VERSION}`);
      return 0;
    }
    // parseArgs keeps the last of a repeated option; a repeat is more likely a mistake.
    const seen = new Set<string>();
    for (const t of tokens) {
      if (t.kind !== "option") continue;
      if (seen.has(t.name)) throw new UsageError(`${t.rawName.startsWith("--") ? `--${t.name}` : t.rawName} is given more than once`);
      seen.add(t.name);
    }
    const [command, ...extra] = positionals;
    if (command !== "schedule") throw new UsageError(command === undefined ? "missing command: try \"backoff-wasm schedule\"" : `unknown command ${JSON.stringify(command)}: try "backoff-wasm schedule"`);
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const format = values.format as string;
    if (!["table", "json", "csv"].includes(format)) throw new UsageError(`--format must be table, json or csv; received ${JSON.stringify(format)}`);
    if (values.chart && format !== "table") throw new UsageError(`--chart draws instead of a table; it cannot be combined with --format ${format}`);
    if (values.seed !== undefined && values.jitter === undefined) throw new UsageError("--seed keys the jitter draws; give --jitter too");
    // `--svg -`: the SVG is the output, so nothing else may be asked to print there.
    const svgOut = values.svg === "-";
    if (svgOut && (values.chart || seen.has("format"))) {
      throw new UsageError(`--svg - writes the SVG to standard output in place of the table; it cannot be combined with ${values.chart ? "--chart" : `--format ${format}`}`);
    }
    let policy;
    let schedule: number[];
    try {
      policy = createBackoff(buildOptions(values));
      schedule = policy.schedule();
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const msg = (e as Error).message;
      const option = (msg.split(" ")[0] as string).replace(/\[\d+\]$/, "[i]");
      // The default ceiling (1 h) below a --base that was typed: name what the user typed.
      if (option === "max" && values.max === undefined && values.steps === undefined) {
        throw new UsageError(`--base ${values.base} is above the default --max (1 h); give --max (or --max none)`);
      }
      throw new UsageError(FLAG[option] ? `${FLAG[option]}: ${msg}` : msg);
    }
    const rows: Row[] = [];
    let elapsed = 0;
    schedule.forEach((delayMs, i) => {
      elapsed += delayMs;
      rows.push({ retry: i + 1, delayMs, elapsedMs: elapsed });
    });
    if (values.svg !== undefined) {
      // scheduleSvg draws 1 to SVG_RETRIES retries: a longer schedule is a usage error that names
      // the flags, not a "cannot write" about an option (`retries`) the command does not have.
      if (rows.length > SVG_RETRIES) {
        throw new UsageError(`--svg draws at most ${SVG_RETRIES} retries (--attempts ${SVG_RETRIES + 1}); received --attempts ${rows.length + 1}`);
      }
      // A single attempt has no retry to draw (a chart of retry 1 would show a wait never taken).
      if (rows.length === 0) throw new UsageError("--svg draws the retries, and --attempts 1 has none (--attempts 2 or more)");
      const svg = scheduleSvg(policy, { retries: rows.length });
      if (svgOut) {
        out(svg);
        return 0;
      }
      try {
        writeFileSync(values.svg as string, svg);
      } catch (e) {
        throw new UsageError(`--svg: cannot write ${JSON.stringify(values.svg)}: ${(e as Error).message.split("\n")[0]}`);
      }
    }
    const bounds = policy.totalBounds();
    out(values.chart ? barChart(policy, rows, elapsed, bounds) : render(rows, elapsed, format, bounds, policy.toJSON().jitter !== 0));
    if (values.svg !== undefined) err(`wrote ${values.svg}`);
    return 0;
  } catch (e) {
    // parseArgs' own errors: keep their first sentence ("Unknown option '--x'.").
    const raw = (e as Error).message;
    let msg = e instanceof UsageError ? raw : (raw.replace(/^Option '(-[^']+)'/, "$1").split(". ")[0] as string);
    msg = msg.split("\n")[0] as string;
    // A negative value after a space (`--base -1`) reads as an option: keep parseArgs' hint.
    const dash = e instanceof UsageError ? null : /use '(--[\w-]+)=-XYZ'/.exec(raw);
    if (dash) msg = msg.replace(/\.$/, "") + ` (for a value starting with "-", write ${dash[1]}=<value>, e.g. ${dash[1]}=-1)`;
    // An unknown option or command: say where the right ones are listed.
    if (/^Unknown option|^unknown command|^missing command/.test(msg)) msg = `${msg.replace(/\.$/, "")} (backoff-wasm schedule --help lists the options)`;
    err(`backoff-wasm: ${msg}`);
    return 2;
  }
}
