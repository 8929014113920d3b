// scheduleSvg (backoff-wasm/chart) and the CLI's --chart / --svg.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { scheduleSvg } from "../../pkg/dist/esm/chart.js";
import { Backoff, createBackoff } from "../../pkg/dist/esm/index.js";
import { docsCharts } from "./docs-charts.mjs";

const bin = fileURLToPath(new URL("../../pkg/bin/backoff-wasm.js", import.meta.url));

test("bounds(): the exact band of every jitter kind, computed without a draw", () => {
  const plain = createBackoff({ base: 1000, max: 60000 });
  assert.deepEqual(plain.bounds(3), { nominal: 4000, min: 4000, max: 4000 });
  assert.deepEqual(createBackoff({ base: 1000, jitter: 0.2 }).bounds(3), { nominal: 4000, min: 3200, max: 4800 });
  assert.deepEqual(createBackoff({ base: 1000, jitter: "full" }).bounds(3), { nominal: 4000, min: 0, max: 4000 });
  assert.deepEqual(createBackoff({ base: 1000, jitter: "equal" }).bounds(3), { nominal: 4000, min: 2000, max: 4000 });
  assert.deepEqual(createBackoff({ base: 100, max: 30000, jitter: "decorrelated" }).bounds(3), { nominal: undefined, min: 100, max: 2700 });
  // Decorrelated jitter has no pre-jitter wait: `nominal` is there, undefined (JSON leaves it out).
  assert.deepEqual(Object.keys(Backoff.exponential(100).cap(30000).jitter("decorrelated").bounds(1)), ["nominal", "min", "max"]);
  assert.equal(JSON.stringify(createBackoff({ base: 100, max: 30000, jitter: "decorrelated" }).bounds(3)), '{"min":100,"max":2700}');
  assert.deepEqual(createBackoff({ base: 100, free: 2, jitter: 0.5 }).bounds(2), { nominal: 0, min: 0, max: 0 });
  // every sampled delay lies in its band
  const p = createBackoff({ base: 333, max: 20000, jitter: 0.37, seed: "band" });
  for (let n = 1; n <= 40; n++) {
    const { min, max } = p.bounds(n);
    const d = p.delay(n);
    assert.ok(d >= min && d <= max, `${n}: ${d} not in [${min}, ${max}]`);
  }
});

test("scheduleSvg: standalone, deterministic, with bands, cap, samples and human axis labels", () => {
  const policy = Backoff.exponential("1 second").cap("30 seconds").jitter(0.25).maxAttempts(9);
  const svg = scheduleSvg(policy, { samples: 3, seed: "s" });
  assert.equal(scheduleSvg(policy, { samples: 3, seed: "s" }), svg, "same policy and seed, same SVG");
  assert.notEqual(scheduleSvg(policy, { samples: 3, seed: "t" }), svg, "another seed moves the samples");
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="640" height="360"/);
  assert.match(svg, /<title id="(bw-[0-9a-f]+)">Retry schedule: exponential from 1 s, cap 30 s, jitter ±25%<\/title>/);
  assert.equal(/aria-labelledby="([^"]+)"/.exec(svg)[1], /<title id="([^"]+)"/.exec(svg)[1]);
  assert.notEqual(/<title id="([^"]+)"/.exec(scheduleSvg(Backoff.fixed(5)))[1], /<title id="([^"]+)"/.exec(svg)[1], "ids differ between charts");
  assert.match(svg, /retry 3: 3 s – 5 s/, "band of retry 3 is [3000, 5000]");
  assert.match(svg, /retry 8: 22500 ms – 30 s/, "jitter at the cap spreads below it, truncated at the cap (a hard bound)");
  assert.match(svg, /cap 30 s/);
  assert.equal((svg.match(/<circle /g) ?? []).length, 8 * 3 + 1, "8 retries × 3 samples + legend dot");
  for (const label of [">0<", ">10 s<", ">20 s<", ">30 s<"]) assert.ok(svg.includes(label), label);
  const log = scheduleSvg(Backoff.exponential(100).cap("1 minute").maxAttempts(12), { scale: "log" });
  assert.match(log, /\(log scale\)/);
  assert.ok(!/NaN|undefined|Infinity/.test(svg + log));
  assert.ok(scheduleSvg("5 seconds").includes("constant from 5 s"), "a plain duration is Backoff.fixed");
});

test("scheduleSvg: a title with characters XML 1.0 forbids is drawn with U+FFFD in their place, and the SVG parses", () => {
  const { JSDOM } = createRequire(import.meta.url)("jsdom");
  const { DOMParser } = new JSDOM("").window;
  const policy = Backoff.fixed(1000).maxAttempts(3);
  // Each forbidden kind, between allowed neighbours: tab, line feed, carriage return and a
  // surrogate pair (U+1F600) stay; U+0000, U+0008, U+000B, U+000C, U+000E, U+001F, U+FFFE,
  // U+FFFF, a lone high and a lone low surrogate become U+FFFD.
  const title = "a\u0000b\u0008c\u000Bd\u000Ce\u000Ef\u001Fg\uFFFEh\uFFFFi\uD800j\uDFFFk\t\u{1F600}&<>";
  const svg = scheduleSvg(policy, { title });
  const titleText = "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh\uFFFDi\uFFFDj\uFFFDk\t\u{1F600}&<>";
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  assert.equal(doc.getElementsByTagName("parsererror").length, 0);
  assert.equal(doc.documentElement.nodeName, "svg");
  assert.equal(doc.getElementsByTagName("title")[0].textContent, titleText);
  assert.equal(doc.getElementsByTagName("text")[0].textContent, titleText);
  // The same title with the forbidden characters already replaced draws the same text.
  assert.equal(svg.replace(/id="bw-[0-9a-f]+"|aria-labelledby="bw-[0-9a-f]+"/g, ""), scheduleSvg(policy, { title: titleText }).replace(/id="bw-[0-9a-f]+"|aria-labelledby="bw-[0-9a-f]+"/g, ""));
  // Every string a title can hold parses: each of the 2^16 code units alone, once each.
  const all = Array.from({ length: 0x10000 }, (_, i) => String.fromCharCode(i)).join(" ");
  const big = new DOMParser().parseFromString(scheduleSvg(policy, { title: all, width: 4096 }), "image/svg+xml");
  assert.equal(big.getElementsByTagName("parsererror").length, 0);
});

test("scheduleSvg: a max or cap no wait reaches is not drawn, so the waits fill the axis (the CLI's default --svg: 1 s … 64 s under a 1 h max)", () => {
  const heights = (svg) => [...svg.matchAll(/<rect [^>]*height="([\d.]+)" fill="#2563eb"><title>/g)].map((m) => Number(m[1]));
  const ticks = (svg) => [...svg.matchAll(/<text x="[\d.]+" y="[\d.]+" text-anchor="end" dominant-baseline="middle">([^<]*)<\/text>/g)].map((m) => m[1]);
  // Sigil's default through createBackoff: max 1 h, 7 retries up to 64 s. The axis ends at the
  // longest wait, whose bar takes the whole plot (252 px of a 360 px chart), not 4.5 px of it.
  const sigil = scheduleSvg(createBackoff({ base: 1000, max: 3_600_000, maxAttempts: 8 }));
  assert.deepEqual(heights(sigil), [3.9, 7.9, 15.8, 31.5, 63, 126, 252]);
  assert.deepEqual(ticks(sigil), ["0", "15 s", "30 s", "45 s", "1 min"]);
  assert.doesNotMatch(sigil, /max 1 h \(before jitter\)/);
  assert.match(sigil, /<title id="bw-[0-9a-f]+">Retry schedule: exponential from 1 s, max 1 h<\/title>/, "the title still names the max");
  // A cap above every wait (100 ms, 200 ms under 1 s) likewise; a cap a wait reaches is drawn.
  const short = scheduleSvg(Backoff.exponential(100).cap("1 second").maxAttempts(3));
  assert.deepEqual(ticks(short), ["0", "50 ms", "100 ms", "150 ms", "200 ms"]);
  assert.doesNotMatch(short, /stroke-dasharray/);
  const reached = scheduleSvg(Backoff.exponential(100).cap(400).maxAttempts(5));
  assert.equal((reached.match(/<line [^>]*stroke="#dc2626" stroke-width="1.5" stroke-dasharray="6 4"><title>cap 400 ms<\/title><\/line>/g) ?? []).length, 1);
  // A max that jitter can pass (before jitter) is reached by the band and drawn.
  assert.match(scheduleSvg(createBackoff({ base: 100, max: 400, jitter: 0.5, maxAttempts: 5 })), /<title>max 400 ms \(before jitter\)<\/title><\/line>/);
});

test("scheduleSvg: bad options name themselves", () => {
  const p = Backoff.fixed(100);
  assert.throws(() => scheduleSvg(p, { retries: 0 }), { name: "RangeError", message: /^retries / });
  assert.throws(() => scheduleSvg(p, { scale: "cubic" }), { name: "TypeError", message: /^scale / });
  assert.throws(() => scheduleSvg(p, { samples: 1.5 }), { name: "RangeError", message: /^samples / });
  assert.throws(() => scheduleSvg({}, {}), TypeError);
});

test("scheduleSvg: an infinite wait (an uncapped curve that overflowed) reaches the top of the plot, never NaN", () => {
  const overflow = createBackoff({ base: 1, factor: 1e300 }); // waits 1, 1e300, Infinity, Infinity
  for (const scale of ["linear", "log"]) {
    const svg = scheduleSvg(overflow, { retries: 4, scale });
    assert.ok(!/NaN/.test(svg), `${scale}: no NaN coordinate`);
    // Retries 3 and 4 are drawn full height (y at the longest wait's level, 60 px: the plot's
    // top at 52 px plus its headroom) and titled as what they are.
    assert.equal((svg.match(/<rect x="[\d.]+" y="60" width="[\d.]+" height="252" fill="#2563eb"><title>retry [34]: Infinity<\/title>/g) ?? []).length, 2, scale);
  }
  const jittered = scheduleSvg(createBackoff({ base: 1000, factor: 1e300, jitter: 0.5 }), { retries: 3, samples: 2, seed: "x" });
  assert.ok(!/NaN/.test(jittered), "bands and samples of infinite waits: no NaN");
  assert.match(jittered, /<rect x="[\d.]+" y="60" width="[\d.]+" height="252" fill="#2563eb"><title>retry 3: Infinity<\/title>/);
  assert.equal((jittered.match(/<circle cx="[\d.]+" cy="60" r="2.5"/g) ?? []).length, 2, "both samples of retry 3 at the top");
});

test("scheduleSvg: seed is a string or a number (TypeError naming seed otherwise)", () => {
  const p = Backoff.fixed(1000).jitter(0.5).maxAttempts(3);
  for (const seed of [Symbol("s"), 10n, null, {}, [], true, () => 1]) {
    for (const samples of [0, 2]) {
      assert.throws(() => scheduleSvg(p, { seed, samples }), { name: "TypeError", message: /^seed must be a string or a number; received / }, `${typeof seed} samples ${samples}`);
    }
  }
  assert.equal(scheduleSvg(p, { seed: 7, samples: 2 }), scheduleSvg(p, { seed: 7, samples: 2 }));
  assert.ok(scheduleSvg(p, { seed: NaN, samples: 2 }).includes("<circle"));
});

test("scheduleSvg: options that are an array are a TypeError naming options, even an empty one", () => {
  const p = Backoff.fixed(1000).maxAttempts(3);
  for (const opts of [[], [5], Object.assign([], { retries: 2 })]) {
    assert.throws(() => scheduleSvg(p, opts), { name: "TypeError", message: "options must be an object; received an array" }, JSON.stringify(opts));
  }
});

test("scheduleSvg: a seed without sample points is a TypeError naming seed that asks for samples", () => {
  const p = Backoff.fixed(1000).jitter(0.5).maxAttempts(3);
  for (const [opts, shown] of [[{ seed: "s" }, '"s"'], [{ seed: 7, retries: 2 }, "7"], [{ seed: "s", samples: 0 }, '"s"'], [{ seed: NaN, samples: undefined }, "NaN"]]) {
    assert.throws(() => scheduleSvg(p, opts), {
      name: "TypeError",
      message: `seed must be given with samples from 1 to 50 (it seeds the sample points); received ${shown}`,
    });
  }
  // With samples the seed is taken; without either, the default seed is not an error.
  assert.ok(scheduleSvg(p, { seed: "s", samples: 1 }).includes("<circle"));
  assert.ok(!scheduleSvg(p, { samples: 0 }).includes("<circle"));
  assert.equal(scheduleSvg(p, { seed: undefined }), scheduleSvg(p));
});

test("the charts committed under docs/ are what the package draws (npm run docs)", async () => {
  for (const [file, svg] of Object.entries(await docsCharts())) {
    assert.equal(readFileSync(new URL(`../../docs/${file}`, import.meta.url), "utf8"), svg, file);
  }
});

test("CLI --chart fits 80 columns; --svg writes scheduleSvg's output", () => {
  const r = spawnSync(process.execPath, [bin, "schedule", "--chart", "--jitter", "0.3", "--seed", "c", "--max", "20s", "--attempts", "12"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 11 + 3, "11 retries, the axis, the total window and the total bounds");
  for (const line of lines) assert.ok([...line].length <= 80, line);
  assert.match(lines[0], /^ {4}1 │█+.*● ?░*\s+\d/);
  const plain = spawnSync(process.execPath, [bin, "schedule", "--chart"], { encoding: "utf8" }).stdout.split("\n");
  assert.match(plain[6], /^ {4}7 │█{44} 64 s$/);
  const dir = mkdtempSync(join(tmpdir(), "bw-svg-"));
  const file = join(dir, "s.svg");
  const w = spawnSync(process.execPath, [bin, "schedule", "--svg", file, "--attempts", "5"], { encoding: "utf8" });
  assert.equal(w.status, 0, w.stderr);
  assert.equal(readFileSync(file, "utf8"), scheduleSvg(createBackoff({ base: 1000, max: 3600000, maxAttempts: 5 }), { retries: 4 }));
  rmSync(dir, { recursive: true, force: true });
});
