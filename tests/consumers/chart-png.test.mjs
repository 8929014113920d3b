// The SVG chart (scheduleSvg, the CLI's --svg) as pixels: each chart is rendered by
// headless Chromium, screenshotted as a PNG, and the PNG's pixels are read back. Between
// the legend and the plot's top edge every pixel is background, so no band, whisker,
// sample point or bound's line runs off the top of the plot; and no pixel in the colour
// of a band, a bar or a sample lies above the plot outside the legend; no text is cut off
// by the chart's edge (a long title wraps). The words follow
// the policy: "max" for the ceiling before jitter, "cap" only for the fluent hard cap.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { chromium } from "playwright-core";
import { CHROMIUM, ROOT } from "./scratch.mjs";

const { scheduleSvg } = await import(join(ROOT, "pkg", "dist", "esm", "chart.js"));
const { Backoff, createBackoff } = await import(join(ROOT, "pkg", "dist", "esm", "index.js"));

/** The CLI's --svg output for `args`. */
function cliSvg(args) {
  const dir = mkdtempSync(join(tmpdir(), "chart-png-"));
  try {
    const file = join(dir, "chart.svg");
    const r = spawnSync(process.execPath, [join(ROOT, "pkg", "bin", "backoff-wasm.js"), "schedule", ...args, "--svg", file], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return readFileSync(file, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CHARTS = {
  "createBackoff max, ±25 % jitter over it": () => scheduleSvg(createBackoff({ base: 1000, max: 30_000, jitter: 0.25, maxAttempts: 9 })),
  "fluent cap, ±25 % jitter, samples": () => scheduleSvg(Backoff.exponential("1 second").cap("30 seconds").jitter(0.25).maxAttempts(9), { samples: 5, seed: "png" }),
  "max and cap, ±50 % jitter, samples (two legend rows)": () =>
    scheduleSvg(createBackoff({ base: 1000, max: 60_000, cap: 45_000, jitter: 0.5, maxAttempts: 10 }), { samples: 4 }),
  "max, ±50 % jitter, log scale": () => scheduleSvg(createBackoff({ base: 100, max: 20_000, jitter: 0.5, maxAttempts: 12 }), { scale: "log", samples: 3 }),
  "decorrelated, max, log scale": () => scheduleSvg(createBackoff({ base: 100, max: 30_000, jitter: "decorrelated", maxAttempts: 12 }), { samples: 8, scale: "log" }),
  "full jitter, fluent cap": () => scheduleSvg(Backoff.exponential(200).cap("20 seconds").jitter("full").maxAttempts(12)),
  "infinite waits, jittered, samples": () => scheduleSvg(createBackoff({ base: 1000, factor: 1e300, jitter: 0.5 }), { retries: 3, samples: 2, seed: "x" }),
  "small, max and cap, 320 × 200 (a title in lines, a legend in rows)": () =>
    scheduleSvg(createBackoff({ base: 1000, max: 8000, cap: 9000, jitter: 0.3, maxAttempts: 6 }), { width: 320, height: 200, samples: 2 }),
  "a long title at 640 × 360": () => scheduleSvg(createBackoff({ base: "2 seconds", factor: 1.5, max: "10 minutes", cap: "9 minutes", jitter: 0.35, free: 2, maxAttempts: 14 }), { samples: 2 }),
  "CLI --svg --jitter 0.3 --max 20s": () => cliSvg(["--jitter", "0.3", "--max", "20s", "--attempts", "12", "--seed", "c"]),
};

/** Colours drawn only inside the plot (and in the legend's swatches): bars, bands, samples. */
const DATA_COLOURS = { bar: [0x25, 0x63, 0xeb], band: [0xb4, 0x53, 0x09], sample: [0x11, 0x18, 0x27] };

/** The plot's box, from the SVG's axis lines, and where the legend's last row ends. */
function geometry(svg) {
  const yAxis = /<line x1="([\d.]+)" x2="\1" y1="([\d.]+)" y2="([\d.]+)" stroke="#374151"\/>/.exec(svg);
  const xAxis = /<line x1="([\d.]+)" x2="([\d.]+)" y1="([\d.]+)" y2="\3" stroke="#374151"\/>/.exec(svg);
  assert.ok(yAxis && xAxis, "the chart draws both axes");
  const legendRows = [...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)" dominant-baseline="middle" font-size="11">/g)].map((m) => Number(m[1]));
  assert.ok(legendRows.length > 0, "the chart has a legend");
  return {
    left: Number(yAxis[1]), right: Number(xAxis[2]), top: Number(yAxis[2]), bottom: Number(yAxis[3]),
    legendBottom: Math.max(...legendRows) + 8, // 11 px text and 10 px swatches about their centre line
    width: Number(/<svg [^>]*width="(\d+)"/.exec(svg)[1]), height: Number(/<svg [^>]*height="(\d+)"/.exec(svg)[1]),
  };
}

test("scheduleSvg rendered to PNG in Chromium: every band, point and line inside the plot, background above it", { timeout: 180_000 }, async (t) => {
  const browser = await chromium.launch(CHROMIUM);
  try {
    for (const [name, draw] of Object.entries(CHARTS)) {
      await t.test(name, async () => {
        const svg = draw();
        const g = geometry(svg);
        const page = await browser.newPage({ viewport: { width: g.width, height: g.height }, deviceScaleFactor: 1 });
        try {
          await page.setContent(`<!doctype html><body style="margin:0;background:#fff">${svg}</body>`);
          const png = await page.screenshot({ type: "png", clip: { x: 0, y: 0, width: g.width, height: g.height } });
          assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
          const cut = await page.evaluate(() => {
            const edge = document.querySelector("svg").getBoundingClientRect();
            return [...document.querySelectorAll("svg text")].filter((e) => {
              const r = e.getBoundingClientRect();
              return r.left < edge.left - 0.5 || r.right > edge.right + 0.5 || r.top < edge.top - 0.5 || r.bottom > edge.bottom + 0.5;
            }).map((e) => e.textContent);
          });
          assert.deepEqual(cut, [], "no text is cut off by the chart's edge");
          // The PNG decoded by the browser; the checks run on its pixels.
          const found = await page.evaluate(async ({ b64, g, colours }) => {
            const img = new Image();
            img.src = `data:image/png;base64,${b64}`;
            await img.decode();
            const canvas = document.createElement("canvas");
            [canvas.width, canvas.height] = [img.width, img.height];
            const ctx = canvas.getContext("2d");
            ctx.drawImage(img, 0, 0);
            const { data } = ctx.getImageData(0, 0, img.width, img.height);
            const at = (x, y) => data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3);
            const near = (p, c) => Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]) + Math.abs(p[2] - c[2]) <= 24;
            const gap = [];
            const outside = [];
            const inside = Object.fromEntries(Object.keys(colours).map((k) => [k, 0]));
            for (let y = 0; y < img.height; y++) {
              for (let x = Math.ceil(g.left); x <= Math.floor(g.right); x++) {
                const p = at(x, y);
                if (y > g.legendBottom && y < Math.floor(g.top) && (p[0] < 250 || p[1] < 250 || p[2] < 250)) gap.push(`${x},${y}: ${[...p]}`);
                for (const [k, c] of Object.entries(colours)) {
                  if (!near(p, c)) continue;
                  if (y > g.legendBottom && y < Math.floor(g.top)) outside.push(`${k} at ${x},${y}`);
                  else if (y >= g.top && y <= g.bottom + 1) inside[k]++;
                }
              }
            }
            return { size: [img.width, img.height], gap: gap.slice(0, 10), outside: outside.slice(0, 10), inside };
          }, { b64: png.toString("base64"), g, colours: DATA_COLOURS });
          assert.deepEqual(found.size, [g.width, g.height]);
          assert.ok(g.top - g.legendBottom >= 4, `a gap between the legend and the plot (${g.legendBottom} → ${g.top})`);
          assert.deepEqual(found.gap, [], "rows between the legend and the plot's top are background");
          assert.deepEqual(found.outside, [], "no bar, band or sample pixel above the plot");
          assert.ok(found.inside.bar + found.inside.band > 0, "the plot shows bars or bands");
        } finally {
          await page.close();
        }
      });
    }
  } finally {
    await browser.close();
  }
});

test("the chart says max for the ceiling before jitter and cap only for the fluent hard cap", () => {
  const words = (svg) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>|<title[^>]*>([^<]*)<\/title>/g)].map((m) => m[1] ?? m[2]);
  const max = scheduleSvg(createBackoff({ base: 1000, max: 30_000, jitter: 0.25, maxAttempts: 9 }));
  assert.ok(words(max).includes("Retry schedule: exponential from 1 s, max 30 s, jitter ±25%"), words(max).join(" | "));
  assert.ok(words(max).includes("max 30 s (before jitter)"));
  assert.deepEqual(words(max).filter((w) => /\bcap\b/.test(w)), []);
  const cap = scheduleSvg(Backoff.exponential("1 second").cap("30 seconds").jitter(0.25).maxAttempts(9));
  assert.ok(words(cap).includes("Retry schedule: exponential from 1 s, cap 30 s, jitter ±25%"));
  assert.ok(words(cap).includes("cap 30 s"));
  assert.deepEqual(words(cap).filter((w) => /\bmax\b/.test(w)), []);
  const both = scheduleSvg(createBackoff({ base: 1000, max: 60_000, cap: 45_000, jitter: 0.5, maxAttempts: 10 }));
  assert.ok(words(both).includes("Retry schedule: exponential from 1 s, max 1 min, cap 45 s, jitter ±50%"), words(both).join(" | "));
  // No wait reaches the 1 min ceiling under the 45 s cap: the title names it, no line is drawn for it.
  assert.ok(words(both).includes("cap 45 s"));
  assert.deepEqual(words(both).filter((w) => w.startsWith("max ")), []);
  const decorrelated = scheduleSvg(createBackoff({ base: 100, max: 30_000, jitter: "decorrelated", maxAttempts: 12 }));
  assert.ok(words(decorrelated).includes("Retry schedule: decorrelated jitter from 100 ms, max 30 s"), words(decorrelated).join(" | "));
  // Enough retries for the waits to reach the 20 s ceiling (a bound no wait reaches has no line).
  const cli = cliSvg(["--jitter", "0.3", "--max", "20s", "--attempts", "12"]);
  assert.ok(words(cli).includes("max 20 s (before jitter)"), words(cli).join(" | "));
  assert.deepEqual(words(cli).filter((w) => /\bcap\b/.test(w)), []);
});
