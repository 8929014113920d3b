/**
 * `backoff-wasm/chart`: a retry schedule drawn as a standalone SVG, for dashboards
 * and docs. No dependencies; deterministic for a given policy and seed.
 * @module
 */
import { Backoff, createBackoff } from "../policy/backoff.js";
import type { DurationInput } from "../policy/duration.js";
import { invalid, numberOption, TYPE } from "../engine/errors.js";
import { readOptions } from "../engine/options.js";
import { formatDelay } from "./format.js";
import { seededInt } from "../policy/streams.js";

/** Options of `scheduleSvg`. */
export interface ScheduleSvgOptions {
  /** Retries to draw (default: the policy's `attempts - 1`, or 10 when its attempts are unbounded); an integer 1–200. */
  retries?: number;
  /** `"linear"` (default) or `"log"` (base 10) delay axis. */
  scale?: "linear" | "log";
  /** Seeded sample points per retry (default 0), each a real `delay()` of the policy re-keyed with `seed`. */
  samples?: number;
  /** Seed of the sample points (default `"chart"`); given only with `samples` of 1 or more. */
  seed?: string | number;
  /** Title (default: a description of the policy); a character XML 1.0 forbids (a control character other than tab, line feed and carriage return, U+FFFE, U+FFFF, a lone surrogate) is drawn as U+FFFD. */
  title?: string;
  /** Size in px (default 640 × 360). */
  width?: number;
  height?: number;
}

const SVG_KEYS = ["retries", "scale", "samples", "seed", "title", "width", "height"];

/** Round, human tick steps in ms: 1 ms … 1 week. */
const STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5,
  108e5, 216e5, 432e5, 864e5, 1728e5, 6048e5,
];

/** The plot's margins inside the SVG, px. */
const M_LEFT = 72;
const M_RIGHT = 20;
const M_TOP = 52;
/** The legend's first row (its centre line) and the height of each further row, px. */
const LEGEND_Y = 38;
const LEGEND_ROW = 16;
/** The title's first line (baseline), the height of each further line and its size, px. */
const TITLE_Y = 24;
const TITLE_LINE = 18;
const TITLE_PX = 15;

/**
 * `text` broken at spaces into lines of at most `max` characters (a longer word keeps a
 * line of its own).
 */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/(?<= )/)) {
    if (line && (line + word).trimEnd().length > max) {
      lines.push(line.trimEnd());
      line = word;
    } else line += word;
  }
  lines.push(line.trimEnd());
  return lines;
}
const M_BOTTOM = 48;
/**
 * Headroom inside the plot above the longest wait, px: the top of a band (its whisker's
 * cross-bar, 2 px wide), a sample point (2.5 px radius) or a bound's line drawn at the
 * longest wait stays inside the plot, clear of the legend.
 */
const HEADROOM = 8;

/**
 * What XML 1.0 forbids in text: C0 controls other than tab, line feed and carriage return,
 * U+FFFE, U+FFFF, and surrogates standing alone (with the `u` flag a pair is one code point,
 * not matched).
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/gu;
/** Text for the SVG: each character XML forbids becomes U+FFFD, then markup is escaped. */
const esc = (s: string) => s.replace(NOT_XML, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const fmt = (x: number) => String(Math.round(x * 10) / 10);

function integerOption(v: unknown, name: string, min: number, max: number, fallback: number): number {
  return numberOption(name, v, `an integer from ${min} to ${max}`, (x) => Number.isInteger(x) && x >= min && x <= max, fallback);
}

/**
 * The policy's bounds as the chart names them: `max` the ceiling before jitter
 * (`createBackoff`'s `max`, which ± jitter may exceed), `cap` the hard bound after jitter
 * (the fluent `.cap()`), e.g. `, max 30 s` or `, max 1 min, cap 45 s`.
 */
function boundsText(json: ReturnType<Backoff["toJSON"]>): string {
  return (json.max === undefined ? "" : `, max ${formatDelay(json.max)}`) + (json.cap === undefined ? "" : `, cap ${formatDelay(json.cap)}`);
}

function describe(json: ReturnType<Backoff["toJSON"]>): string {
  if (json.jitter === "decorrelated") {
    return `Retry schedule: decorrelated jitter from ${formatDelay(json.base ?? 0)}${boundsText(json)}`;
  }
  const shape = json.steps
    ? `steps ${json.steps.map(formatDelay).join(", ")}`
    : `${json.growth} from ${formatDelay(json.base ?? 0)}${json.growth === "exponential" && json.factor !== 2 ? ` ×${json.factor}` : ""}`;
  const jitter = json.jitter === 0 ? "" : `, jitter ${typeof json.jitter === "number" ? `±${json.jitter * 100}%` : json.jitter}`;
  const free = json.free ? `, ${json.free} free` : "";
  return `Retry schedule: ${shape}${boundsText(json)}${jitter}${free}`;
}

/**
 * A standalone SVG (a string) of a policy's schedule: per retry the pre-jitter delay
 * (a bar), the exact jitter band (`bounds()`: its lowest and highest possible value,
 * computed from the jitter kind, not sampled), optional seeded sample points, the
 * policy's bounds as dashed lines (`max`, the ceiling before jitter, which ± jitter may
 * exceed; `cap`, the hard bound no wait exceeds), and axes labelled in human durations.
 * The axis ends at the longest wait drawn: a bound no drawn wait reaches (a 1 h `max` over
 * waits of seconds) is left out rather than flattening every bar (the default title names
 * it). Every band, point and line lies inside the plot. Readable at 640 × 360. The result always
 * parses as XML: each character of the title that XML 1.0 forbids (a control character other
 * than tab, line feed and carriage return, U+FFFE, U+FFFF, a lone surrogate) is drawn as U+FFFD.
 *
 * @param policy a `Backoff`, or a plain duration meaning `Backoff.fixed`.
 * @param opts see {@link ScheduleSvgOptions}; each read by its name, once (an inherited option
 *   and a getter count); an inherited key that is no option is ignored.
 * @throws TypeError/RangeError for a bad option (named in the message); TypeError for options
 *   that are not an object (an array included), hold an own enumerable key that is no option,
 *   or cannot be read (a revoked Proxy, a throwing getter; the engine's error is the `cause`),
 *   and for a `seed` without `samples` (1 or more).
 */
export function scheduleSvg(policy: Backoff | DurationInput, opts: ScheduleSvgOptions = {}): string {
  const p = Backoff.from(policy);
  // The one options reader: each option by name, once; not an object (an array included), a
  // revoked Proxy, a throwing getter or an own unknown key is the package's TypeError.
  const options = readOptions(opts, SVG_KEYS) as ScheduleSvgOptions;
  const retries = integerOption(options.retries, "retries", 1, 200, Math.min(200, (p.attempts ?? 11) - 1) || 1);
  const samples = integerOption(options.samples, "samples", 0, 50, 0);
  const width = integerOption(options.width, "width", 320, 4096, 640);
  const height = integerOption(options.height, "height", 200, 4096, 360);
  const seed = options.seed === undefined ? "chart" : options.seed;
  if (typeof seed !== "string" && typeof seed !== "number") throw invalid(TYPE, "seed", "a string or a number", options.seed);
  // A seed with no sample point to draw would change nothing.
  if (options.seed !== undefined && samples === 0) {
    throw invalid(TYPE, "seed", "given with samples from 1 to 50 (it seeds the sample points)", options.seed);
  }
  const scale = options.scale ?? "linear";
  if (scale !== "linear" && scale !== "log") throw invalid(TYPE, "scale", '"linear" or "log"', scale);
  const json = p.toJSON();
  const title = options.title === undefined ? describe(json) : options.title;
  if (typeof title !== "string") throw invalid(TYPE, "title", "a string", title);

  const rows = Array.from({ length: retries }, (_, i) => ({ retry: i + 1, ...p.bounds(i + 1) }));
  const points: Array<[number, number]> = [];
  if (samples > 0) {
    const { seed: _drop, ...rest } = json;
    for (let s = 0; s < samples; s++) {
      const sampler = createBackoff({ ...rest, seed: `${seed} ${s}` } as never);
      for (const r of rows) points.push([r.retry, sampler.delay(r.retry)]);
    }
  }

  // The axis ends at the longest finite wait: an infinite one (an uncapped curve that
  // overflowed) is drawn to the top of the plot, and its title says `Infinity`.
  const finite = (v: number) => v < Infinity;
  const top = Math.max(1, ...rows.map((r) => r.max).filter(finite), ...points.map((q) => q[1]).filter(finite));
  // The bounds drawn as lines: [value, colour, legend text, dash]. A bound no wait reaches (a
  // 1 h max over waits of seconds) is left out (the title names it): on the axis it would
  // flatten every bar. An absent one is `undefined`, which `<=` answers false for.
  const lines: Array<[number, string, string, string]> = [];
  if ((json.max as number) <= top) lines.push([json.max!, "#6b7280", `max ${formatDelay(json.max!)} (before jitter)`, "2 3"]);
  if ((json.cap as number) <= top) lines.push([json.cap!, "#dc2626", `cap ${formatDelay(json.cap!)}`, "6 4"]);
  const positive = [...rows.flatMap((r) => [r.min, r.nominal ?? r.min]), ...points.map((q) => q[1])].filter((x) => x > 0);
  // Log scale: the axis starts a round step at most half the shortest wait, so the
  // shortest bar still rises log10(2) of a decade above it instead of vanishing.
  const shortest = Math.min(...positive, top);
  const bottom = scale === "log" ? ([...STEPS].reverse().find((t) => t <= shortest / 2) ?? shortest / 2) : 0;

  // The legend, left to right in rows that fit the plot's width; each row after the first
  // moves the plot down (~6 px per character of 11 px text).
  const legend: Array<{ color: string; shape: string; text: string; dash?: string; x: number; y: number }> = [];
  const items: Array<[string, string, string, string?]> = [
    ["#2563eb", "rect", rows.some((r) => r.nominal !== undefined) ? "wait before jitter" : ""],
    ["#b45309", "line", rows.some((r) => r.min !== r.max) ? "jitter band (exact)" : ""],
    ["#111827", "circle", points.length ? "seeded samples" : ""],
    // The bounds' values are told here, not on their lines, where they would cross bars.
    ...lines.map(([, color, text, dash]): [string, string, string, string] => [color, "dash", text, dash]),
  ];
  let lx = M_LEFT;
  // The title in lines that fit the width (~0.55 em per character); each line after the
  // first moves the legend and the plot down.
  const titleLines = wrap(title, Math.max(12, Math.floor((width - 16) / (TITLE_PX * 0.55))));
  const titleShift = (titleLines.length - 1) * TITLE_LINE;
  let ly = LEGEND_Y + titleShift;
  for (const [color, shape, text, dash] of items.filter((l) => l[2])) {
    const w = 28 + text.length * 6;
    if (lx > M_LEFT && lx + w - 12 > width - M_RIGHT) [lx, ly] = [M_LEFT, ly + LEGEND_ROW];
    legend.push({ color, shape, text, dash, x: lx, y: ly });
    lx += w;
  }
  const mTop = M_TOP + (ly - LEGEND_Y);

  // A small chart with a long title and a full legend still gets a plot (cramped, never inverted).
  const plotH = Math.max(height - mTop - M_BOTTOM, HEADROOM + 16);
  const dataH = plotH - HEADROOM;
  const lo = scale === "log" ? Math.log10(bottom) : 0;
  const hi = scale === "log" ? Math.max(Math.log10(top), lo + 1) : top;
  const y = (ms: number) => {
    const v = scale === "log" ? Math.log10(Math.max(Math.min(ms, top), bottom)) : Math.min(ms, top);
    return mTop + plotH - ((v - lo) / (hi - lo)) * dataH;
  };
  let ticks: number[];
  if (scale === "log") {
    // Round steps, each at least 18 px above the last one kept (labels never touch).
    ticks = [];
    for (const t of STEPS.filter((t) => t >= bottom && t <= top * 1.0001)) {
      if (ticks.length === 0 || y(ticks[ticks.length - 1] as number) - y(t) >= 18) ticks.push(t);
    }
  } else {
    const step = STEPS.find((s) => top / s <= 6) ?? top / 6;
    ticks = [];
    // At most 7 ticks (also when top * 1.0001 overflows to Infinity for huge waits).
    for (let i = 0; i <= 6 && i * step <= top * 1.0001; i++) ticks.push(i * step);
  }
  const tickLabel = (t: number) => (t === 0 ? "0" : formatDelay(t));
  // The left margin fits the longest tick label (~7 px per character of 12 px text) beside
  // the axis title, within half the chart.
  const mLeft = Math.min(Math.floor(width / 2), Math.max(M_LEFT, Math.ceil(30 + 7 * Math.max(...ticks.map((t) => tickLabel(t).length)))));
  const plotW = width - mLeft - M_RIGHT;
  const slot = plotW / retries;
  const x = (retry: number) => mLeft + slot * (retry - 0.5);

  const labelEvery = Math.ceil(retries / 20);

  // An id unique to this chart's content, so several charts can share a page.
  const id = `bw-${seededInt(JSON.stringify([json, retries, samples, options.seed ?? null, scale, title]), 0, 0xffffffff).toString(16)}`;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}">`);
  out.push(`<title id="${id}">${esc(title)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<g font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12" fill="#1f2937">`);
  titleLines.forEach((line, i) => {
    out.push(`<text x="${width / 2}" y="${TITLE_Y + i * TITLE_LINE}" text-anchor="middle" font-size="${TITLE_PX}" font-weight="600">${esc(line)}</text>`);
  });
  for (const { color, shape, text, dash, x: lx, y: ly } of legend) {
    if (shape === "rect") out.push(`<rect x="${lx}" y="${ly - 5}" width="10" height="10" fill="${color}"/>`);
    else if (shape === "circle") out.push(`<circle cx="${lx + 5}" cy="${ly}" r="3" fill="${color}"/>`);
    else out.push(`<line x1="${lx}" x2="${lx + 12}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`);
    out.push(`<text x="${lx + 16}" y="${ly}" dominant-baseline="middle" font-size="11">${esc(text)}</text>`);
  }
  for (const t of ticks) {
    const ty = fmt(y(t));
    out.push(`<line x1="${mLeft}" x2="${width - M_RIGHT}" y1="${ty}" y2="${ty}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${mLeft - 8}" y="${ty}" text-anchor="end" dominant-baseline="middle">${esc(tickLabel(t))}</text>`);
  }
  for (const r of rows) {
    const cx = x(r.retry);
    const w = Math.max(2, slot * 0.6);
    if (r.nominal !== undefined && r.nominal > 0) {
      // At least 2 px, so a short wait next to long ones still shows as a bar.
      const yTop = Math.min(y(r.nominal), mTop + plotH - 2);
      out.push(`<rect x="${fmt(cx - w / 2)}" y="${fmt(yTop)}" width="${fmt(w)}" height="${fmt(mTop + plotH - yTop)}" fill="#2563eb"><title>retry ${r.retry}: ${esc(formatDelay(r.nominal))}</title></rect>`);
    }
    if (r.min !== r.max || r.nominal === undefined) {
      const y1 = fmt(y(r.max));
      const y2 = fmt(y(r.min));
      const cw = Math.max(2, w * 0.35);
      out.push(`<g stroke="#b45309" stroke-width="2"><line x1="${fmt(cx)}" x2="${fmt(cx)}" y1="${y1}" y2="${y2}"/><line x1="${fmt(cx - cw)}" x2="${fmt(cx + cw)}" y1="${y1}" y2="${y1}"/><line x1="${fmt(cx - cw)}" x2="${fmt(cx + cw)}" y1="${y2}" y2="${y2}"/><title>retry ${r.retry}: ${esc(formatDelay(r.min))} – ${esc(formatDelay(r.max))}</title></g>`);
    }
    if (r.retry % labelEvery === 0 || r.retry === 1) {
      out.push(`<text x="${fmt(cx)}" y="${mTop + plotH + 16}" text-anchor="middle">${r.retry}</text>`);
    }
  }
  for (const [retry, v] of points) out.push(`<circle cx="${fmt(x(retry))}" cy="${fmt(y(v))}" r="2.5" fill="#111827" fill-opacity="0.7"/>`);
  for (const [value, color, text, dash] of lines) {
    const cy = fmt(y(value));
    out.push(`<line x1="${mLeft}" x2="${width - M_RIGHT}" y1="${cy}" y2="${cy}" stroke="${color}" stroke-width="1.5" stroke-dasharray="${dash}"><title>${esc(text)}</title></line>`);
  }
  out.push(`<line x1="${mLeft}" x2="${mLeft}" y1="${mTop}" y2="${mTop + plotH}" stroke="#374151"/>`);
  out.push(`<line x1="${mLeft}" x2="${width - M_RIGHT}" y1="${mTop + plotH}" y2="${mTop + plotH}" stroke="#374151"/>`);
  out.push(`<text x="${mLeft + plotW / 2}" y="${height - 10}" text-anchor="middle">retry</text>`);
  out.push(`<text transform="translate(16 ${mTop + plotH / 2}) rotate(-90)" text-anchor="middle">wait before retry${scale === "log" ? " (log scale)" : ""}</text>`);
  out.push(`</g></svg>`);
  return out.join("\n") + "\n";
}
