// The SVG chart as a person sees it, laid out by headless Chromium (playwright-core,
// /usr/bin/chromium): for short, long, jittered, decorrelated and stepped policies,
// each on a linear and a log axis, no two text boxes overlap (the cap's value, the
// legend, tick and retry labels, titles) and every bar has a visible height (a
// short first wait next to hour-long ones included).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { scheduleSvg } from "../../pkg/dist/esm/chart.js";
import { Backoff, createBackoff } from "../../pkg/dist/esm/index.js";

const CHROMIUM = "/usr/bin/chromium";

const POLICIES = {
  short: Backoff.exponential(100).cap("1 second").maxAttempts(3),
  long: Backoff.exponential("1 second").cap("1 hour").maxAttempts(30),
  "long, factor 1.5, no cap": createBackoff({ base: 250, factor: 1.5, maxAttempts: 25 }),
  jittered: Backoff.exponential("1 second").cap("30 seconds").jitter(0.25).maxAttempts(9),
  "full jitter": Backoff.exponential(200).cap("20 seconds").jitter("full").maxAttempts(12),
  decorrelated: createBackoff({ base: 100, max: 30_000, jitter: "decorrelated", maxAttempts: 13 }),
  stepped: createBackoff({ steps: [100, "1 second", "1 minute", "1 hour"], maxAttempts: 7 }),
  "free attempts": createBackoff({ base: "1 second", free: 2, max: "10 seconds", maxAttempts: 8 }),
  "many retries": Backoff.exponential(10).cap("1 day").maxAttempts(200),
};
const CHARTS = Object.entries(POLICIES).flatMap(([name, p]) =>
  ["linear", "log"].map((scale) => ({ name: `${name}, ${scale}`, svg: scheduleSvg(p, { scale, samples: 3 }) })));

test("scheduleSvg laid out in Chromium: no overlapping text, every bar visible", { timeout: 120_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (scripts/setup.sh --for test installs Debian's chromium)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    for (const { name, svg } of CHARTS) {
      await t.test(name, async () => {
        await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`);
        const layout = await page.evaluate(() => {
          const box = (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; };
          const texts = [...document.querySelectorAll("svg text")].map((e) => ({ text: e.textContent, ...box(e) }));
          const bars = [...document.querySelectorAll('svg rect[fill="#2563eb"]')]
            .filter((e) => e.getAttribute("width") !== "10") // the legend's swatch
            .map((e) => ({ title: e.querySelector("title")?.textContent, ...box(e) }));
          const bands = [...document.querySelectorAll('svg g[stroke="#b45309"] line:first-child')]
            .map((e) => ({ title: e.parentNode.querySelector("title")?.textContent, ...box(e) }));
          const svgBox = box(document.querySelector("svg"));
          return { texts, bars, bands, svgBox };
        });
        assert.ok(layout.texts.length >= 6, "title, legend, ticks and labels are drawn");
        const overlaps = [];
        const { texts } = layout;
        for (let i = 0; i < texts.length; i++) {
          for (let j = i + 1; j < texts.length; j++) {
            const a = texts[i];
            const b = texts[j];
            const ox = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
            const oy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
            if (ox > 0.5 && oy > 0.5) overlaps.push(`${JSON.stringify(a.text)} overlaps ${JSON.stringify(b.text)}`);
          }
        }
        assert.deepEqual(overlaps, []);
        for (const e of texts) {
          assert.ok(e.x >= -0.5 && e.y >= -0.5 && e.x + e.w <= layout.svgBox.w + 0.5 && e.y + e.h <= layout.svgBox.h + 0.5,
            `${JSON.stringify(e.text)} is cut off by the edge`);
        }
        for (const b of layout.bars) assert.ok(b.h >= 1.5, `bar "${b.title}" is ${b.h} px high`);
        for (const b of layout.bands) assert.ok(b.h >= 1.5 || /^retry \d+: (\S+ \S+) – \1$/.test(b.title ?? ""), `band "${b.title}" is ${b.h} px high`);
        assert.ok(layout.bars.length + layout.bands.length > 0, "something is drawn per retry");
      });
    }
  } finally {
    await browser.close();
  }
});
