/**
 * Human-readable durations for the CLI and charts.
 * @module
 */

/**
 * A wait in the largest unit that shows it exactly: `250 ms`, `64 s`, `90 s`, `1 min`, `5 min`, `1 h`.
 * Non-finite values print as JavaScript prints them (`Infinity`).
 * @param ms milliseconds.
 */
export function formatDelay(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  for (const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["min", 60_000], ["s", 1000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  }
  return `${ms} ms`;
}

/**
 * A clock-style breakdown: `1 s`, `1 min 3 s`, `2 min 7 s`, `1 h 0 min 5 s`, `0.766 s`.
 * @param ms milliseconds.
 */
export function formatElapsed(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["min", 60_000]] as const) {
    if (rest >= size || parts.length > 0) {
      const n = Math.floor(rest / size);
      parts.push(`${n} ${unit}`);
      rest -= n * size;
    }
  }
  const s = rest / 1000;
  if (s !== 0 || parts.length === 0) parts.push(`${Number.isInteger(s) ? s : Number(s.toFixed(3))} s`);
  return parts.join(" ");
}

/**
 * A compact approximate duration, three significant digits: `250 ms`, `20.1 s`, `4.27 min`, `1.5 h`.
 * For chart labels, where width matters more than exactness.
 * @param ms milliseconds.
 */
export function formatShort(ms: number): string {
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
 * the column is below 1 of it except 0 (`250 ms … 30000 ms`, `1 s … 3600 s`).
 * @param ms the column's waits, milliseconds.
 * @returns `[unit name, unit size in ms]`.
 */
export function columnUnit(ms: readonly number[]): readonly [string, number] {
  const shortest = Math.min(...ms.filter((x) => x > 0 && Number.isFinite(x)));
  return UNITS.find(([, size]) => shortest >= size) ?? UNITS[UNITS.length - 1]!;
}

/**
 * A wait in the given unit, rounded to the millisecond (in ms itself, to the
 * microsecond: at most 3 decimals): `formatIn(1081, ["s", 1000])` is `1.081 s`,
 * `formatIn(1621.5, ["s", 1000])` is `1.622 s`, `formatIn(1621.5, ["ms", 1])` is `1621.5 ms`.
 * Non-finite values print as JavaScript prints them.
 * @param ms milliseconds. @param unit from {@link columnUnit}.
 */
export function formatIn(ms: number, [name, size]: readonly [string, number]): string {
  if (!Number.isFinite(ms)) return String(ms);
  const digits = size === 1 ? 3 : Math.round(Math.log10(size));
  // Rounded in ms first: 1621.5 / 1000 is 1.62149999… in binary, which toFixed(3) rounds down.
  const value = size === 1 ? ms : Math.round(ms) / size;
  return `${Number(value.toFixed(digits))} ${name}`;
}
