/**
 * Human-readable durations for the chart and the CLI (the CLI's own column
 * formats live in cli.ts, so an app that draws charts does not ship them).
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
