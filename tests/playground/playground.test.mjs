// The playground (examples/playground/) in headless Chromium: served from the repository
// root on 127.0.0.1 by scripts/serve-playground.mjs, driven with playwright-core.
// For each configuration the table in the page must equal what the library computes in
// Node for the same options, and every "copy as code" snippet, run in Node against the
// package, must return exactly the table's waits. Screenshot: test-artifacts/playground.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { createStaticServer, ROOT } from "../../scripts/serve-playground.mjs";
import { createBackoff, retrySchedule, scheduleSvg } from "../../pkg/dist/esm/index.js";
import { scratchDir } from "../scratch-dir.mjs";

const SCRATCH = scratchDir("playground");
const ARTIFACTS = join(ROOT, "test-artifacts");
const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync",
];

let server;
let base;
let browser;
let page;
const pageErrors = [];

before(async () => {
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(join(SCRATCH, "node_modules"), { recursive: true });
  symlinkSync(join(ROOT, "pkg"), join(SCRATCH, "node_modules", "backoff-wasm"), "dir");
  mkdirSync(ARTIFACTS, { recursive: true });

  server = createStaticServer(ROOT);
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
  page.on("pageerror", (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(`console: ${m.text()}`);
  });
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

/** Opens the page fresh (defaults, or the given fragment) and waits for its first render. */
async function open(hash = "") {
  await page.goto(`${base}/examples/playground/${hash}`);
  await page.waitForSelector("body[data-renders]");
}

/**
 * Sets controls in order: `[id, value]` pairs; selects by value, radios by `scale`,
 * text fields by typing (fill fires `input`, and the page re-renders synchronously).
 */
async function configure(pairs) {
  await open();
  for (const [id, value] of pairs) {
    if (id === "scale") await page.check(`input[name="scale"][value="${value}"]`);
    else if (await page.$eval(`#${id}`, (el) => el.tagName === "SELECT")) await page.selectOption(`#${id}`, value);
    else await page.fill(`#${id}`, value);
  }
}

/** What the page shows: table rows (exact ms from data-ms), errors, snippets, chart titles. */
async function read() {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll("#schedule tbody tr")].map((tr) => {
      const c = tr.children;
      return {
        retry: Number(c[0].textContent),
        wait: Number(c[1].dataset.ms),
        waitText: c[1].textContent,
        min: Number(c[2].dataset.min),
        max: Number(c[2].dataset.max),
        range: c[2].textContent,
        elapsed: Number(c[3].dataset.ms),
        elapsedText: c[3].textContent,
      };
    });
    const errors = {};
    for (const p of document.querySelectorAll(".error[id$='-error']")) if (!p.hidden) errors[p.id.replace(/-error$/, "")] = p.textContent;
    const snippet = (name) => {
      const el = document.getElementById(`snippet-${name}`);
      const why = document.getElementById(`${name}-why`);
      return { state: el.dataset.state, code: document.getElementById(`${name}-code`).textContent, why: why.hidden ? "" : why.textContent };
    };
    const svg = document.querySelector("#chart svg");
    return {
      state: document.body.dataset.state,
      rows,
      total: Number(document.querySelector("#schedule tfoot td[data-ms]")?.dataset.ms),
      note: document.getElementById("table-note").textContent,
      errors,
      invalid: [...document.querySelectorAll("[aria-invalid='true']")].map((e) => e.id),
      sigil: snippet("sigil"),
      create: snippet("create"),
      fluent: snippet("fluent"),
      chartTitles: svg ? [...svg.querySelectorAll("title")].map((t) => t.textContent) : [],
      text: document.body.innerText,
      hash: location.hash,
    };
  });
}

let snippetCount = 0;
/** Runs a snippet in Node against the package (resolved through node_modules/backoff-wasm) and returns its `waits`. */
async function runSnippet(code) {
  const file = join(SCRATCH, `snippet-${++snippetCount}.mjs`);
  writeFileSync(file, `${code}\nexport { waits };\n`);
  return (await import(pathToFileURL(file).href)).waits;
}

const group = (ms) => ms.toLocaleString("en-US", { maximumFractionDigits: 3 });
const unescape = (s) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

/**
 * The page's table equals the library's schedule and bounds for `nodeOptions`, the elapsed
 * column is the running sum, and each available snippet reproduces the table in Node.
 */
async function assertMatchesLibrary(shown, nodeOptions) {
  assert.equal(shown.state, "ok", JSON.stringify(shown.errors));
  assert.deepEqual(shown.errors, {});
  const policy = createBackoff(nodeOptions);
  const expected = policy.schedule();
  assert.deepEqual(shown.rows.map((r) => r.wait), expected, "table waits = createBackoff(options).schedule() in Node");
  assert.deepEqual(shown.rows.map((r) => r.retry), expected.map((_, i) => i + 1));
  let elapsed = 0;
  for (const r of shown.rows) {
    elapsed += r.wait;
    assert.equal(r.elapsed, elapsed, `elapsed of retry ${r.retry}`);
    const b = policy.bounds(r.retry);
    assert.deepEqual([r.min, r.max], [b.min, b.max], `bounds of retry ${r.retry}`);
    assert.equal(r.waitText, group(r.wait));
    assert.equal(r.elapsedText, group(r.elapsed));
    assert.equal(r.range, b.min === b.max ? "exact" : `${group(b.min)} – ${group(b.max)}`);
  }
  assert.equal(shown.total, elapsed);
  assert.doesNotMatch(shown.text, /NaN|undefined/);
  for (const name of ["create", "fluent", "sigil"]) {
    const s = shown[name];
    if (s.state !== "ok") continue;
    assert.deepEqual(await runSnippet(s.code), shown.rows.map((r) => r.wait), `${name} snippet reproduces the table:\n${s.code}`);
  }
  assert.equal(shown.create.state, "ok");
  assert.equal(shown.fluent.state, "ok");
  return policy;
}

test("default: Sigil's default schedule, the three snippets reproduce it", async () => {
  await open();
  const shown = await read();
  const policy = await assertMatchesLibrary(shown, { growth: "exponential", base: 1000, factor: 2, cap: 3600000, maxAttempts: 8 });
  assert.deepEqual(shown.rows.map((r) => r.wait), retrySchedule(), "the defaults are Sigil's");
  assert.equal(shown.sigil.state, "ok");
  assert.equal(shown.sigil.why, "");
  assert.match(shown.sigil.code, /retrySchedule\(\{\n {2}baseDelayMs: 1000,\n {2}maxDelayMs: 3600000,\n {2}maxAttempts: 8,\n\}\)/);
  assert.doesNotMatch(shown.create.code, /seed/, "no jitter: the seed keys nothing and is left out");
  assert.match(shown.fluent.code, /Backoff\.exponential\(1000, 2\)\n {2}\.cap\(3600000\)\n {2}\.maxAttempts\(8\);/);
  assert.equal(shown.hash, "", "defaults leave the URL clean");
  assert.match(shown.note, /No jitter/);
  // the chart is the library's scheduleSvg (log axis by default): same titles and tooltips
  const svg = scheduleSvg(policy, { scale: "log", width: 720, height: 340 });
  assert.deepEqual(shown.chartTitles, [...svg.matchAll(/<title[^>]*>([^<]*)<\/title>/g)].map((m) => unescape(m[1])));
  assert.ok(shown.chartTitles.includes("retry 7: 64 s"));
});

test("linear growth with a cap (duration text), and the linear/log chart toggle", async () => {
  await configure([["growth", "linear"], ["base", "250"], ["cap", "1 second"], ["attempts", "7"]]);
  const shown = await read();
  const policy = await assertMatchesLibrary(shown, { growth: "linear", base: 250, cap: "1 second", maxAttempts: 7 });
  assert.deepEqual(shown.rows.map((r) => r.wait), [250, 500, 750, 1000, 1000, 1000]);
  assert.equal(shown.sigil.state, "unavailable");
  assert.match(shown.sigil.why, /linear growth: Sigil's curve is exponential/);
  assert.match(shown.create.code, /cap: "1 second",/);
  assert.match(shown.fluent.code, /Backoff\.linear\(250\)\n {2}\.cap\("1 second"\)/);
  assert.equal(await page.isVisible("#factor"), false, "factor applies to exponential growth only");
  assert.ok(shown.chartTitles[0].includes("linear from 250 ms, cap 1 s"));
  assert.match(await page.innerHTML("#chart"), /\(log scale\)/);

  await page.check('input[name="scale"][value="linear"]');
  const linear = await read();
  assert.doesNotMatch(await page.innerHTML("#chart"), /\(log scale\)/);
  const svg = scheduleSvg(policy, { scale: "linear", width: 720, height: 340 });
  assert.deepEqual(linear.chartTitles, [...svg.matchAll(/<title[^>]*>([^<]*)<\/title>/g)].map((m) => unescape(m[1])));
  assert.match(linear.hash, /scale=linear/);
});

test("decorrelated jitter with a seed: keyed, deterministic, equal to Node", async () => {
  await configure([["jitter", "decorrelated"], ["base", "100"], ["cap", "5s"], ["attempts", "10"], ["seed", "demo"]]);
  const shown = await read();
  const options = { growth: "exponential", base: 100, factor: 2, cap: "5s", jitter: "decorrelated", seed: "demo", maxAttempts: 10 };
  const policy = await assertMatchesLibrary(shown, options);
  // keyed: delay(n) is a pure function of (seed, n), in any order, from a fresh policy
  const fresh = createBackoff(options);
  for (const r of [...shown.rows].reverse()) assert.equal(fresh.delay(r.retry), r.wait);
  assert.ok(shown.rows.some((r) => r.min !== r.max), "jittered rows show a range");
  assert.ok(shown.rows.every((r) => r.wait >= 100 && r.wait <= 5000));
  assert.equal(policy.bounds(1).nominal, undefined);
  assert.match(shown.sigil.why, /jitter "decorrelated"/);
  assert.match(shown.fluent.code, /\.jitter\("decorrelated"\)\n {2}\.seed\("demo"\)/);
  assert.match(shown.note, /Keyed jitter/);
  // another seed, other waits
  await page.fill("#seed", "demo 2");
  const other = await read();
  await assertMatchesLibrary(other, { ...options, seed: "demo 2" });
  assert.notDeepEqual(other.rows.map((r) => r.wait), shown.rows.map((r) => r.wait));
});

test("steps with free attempts and ± jitter: the fluent snippet starts from createBackoff", async () => {
  await configure([
    ["growth", "steps"], ["steps", "100, 250, 1 second"], ["free", "2"],
    ["jitter", "spread"], ["fraction", "0.5"], ["seed", "s1"], ["attempts", "8"],
  ]);
  const shown = await read();
  await assertMatchesLibrary(shown, { steps: [100, 250, "1 second"], free: 2, jitter: 0.5, seed: "s1", maxAttempts: 8 });
  assert.deepEqual(shown.rows.slice(0, 2).map((r) => [r.wait, r.range]), [[0, "exact"], [0, "exact"]], "two free attempts");
  assert.equal(await page.isVisible("#base"), false);
  assert.match(shown.sigil.why, /steps: Sigil has a single exponential curve/);
  assert.match(shown.sigil.why, /free attempts: Sigil has none/);
  assert.match(shown.fluent.code, /createBackoff\(\{ steps: \[100, 250, "1 second"\] \}\)\n {2}\.free\(2\)\n {2}\.jitter\(0\.5\)/);
});

test("factor 3 with equal jitter: Sigil says why not; a hash link restores the configuration", async () => {
  await configure([["factor", "3"], ["cap", ""], ["jitter", "equal"], ["seed", "42"], ["attempts", "6"]]);
  const shown = await read();
  await assertMatchesLibrary(shown, { growth: "exponential", base: 1000, factor: 3, jitter: "equal", seed: "42", maxAttempts: 6 });
  assert.match(shown.sigil.why, /factor 3: Sigil always doubles/);
  assert.doesNotMatch(shown.create.code, /cap:/, "an empty cap is no cap");
  // the URL fragment reproduces the page
  await open(shown.hash);
  const again = await read();
  assert.deepEqual(again.rows, shown.rows);
  assert.equal(again.create.code, shown.create.code);
});

test("constant growth from a link; Sigil form of a capless exponential uses Infinity", async () => {
  await open("#growth=constant&base=2s&attempts=4");
  const shown = await read();
  await assertMatchesLibrary(shown, { growth: "constant", base: "2s", maxAttempts: 4 });
  assert.deepEqual(shown.rows.map((r) => r.wait), [2000, 2000, 2000]);
  assert.match(shown.fluent.code, /Backoff\.fixed\("2s"\)/);

  await configure([["base", "1 second"], ["cap", ""], ["attempts", "5"]]);
  const capless = await read();
  await assertMatchesLibrary(capless, { growth: "exponential", base: "1 second", factor: 2, maxAttempts: 5 });
  assert.match(capless.sigil.code, /maxDelayMs: Infinity,/);
});

test("invalid input: the library's error next to the control, never NaN, and recovery", async () => {
  const messageOf = (options) => {
    try {
      createBackoff(options).schedule();
    } catch (e) {
      return `${e.name}: ${e.message}`;
    }
    assert.fail("expected the library to throw");
  };
  const expectError = async (control, message) => {
    const shown = await read();
    assert.equal(shown.state, "error");
    assert.deepEqual(shown.errors, { [control]: message });
    assert.deepEqual(shown.invalid, [control]);
    assert.equal(shown.rows.length, 0, "no table while invalid");
    assert.equal(shown.chartTitles.length, 0, "no chart while invalid");
    for (const name of ["sigil", "create", "fluent"]) assert.equal(shown[name].state, "unavailable");
    assert.doesNotMatch(shown.text, /NaN/);
    return shown;
  };

  // cap below base
  await configure([["cap", "500"]]);
  const capMessage = messageOf({ growth: "exponential", base: 1000, factor: 2, cap: 500, maxAttempts: 8 });
  assert.match(capMessage, /^RangeError: cap must be a duration >= base; received 500$/);
  await expectError("cap", capMessage);
  await page.screenshot({ path: join(ARTIFACTS, "playground-error.png") });

  // jitter 2
  await configure([["jitter", "spread"], ["fraction", "2"]]);
  await expectError("fraction", messageOf({ growth: "exponential", base: 1000, factor: 2, cap: 3600000, jitter: 2, seed: "playground", maxAttempts: 8 }));

  // duration text the parser refuses
  await configure([["base", "soon"]]);
  await expectError("base", messageOf({ growth: "exponential", base: "soon", factor: 2, max: 3600000, maxAttempts: 8 }));

  // decorrelated without a cap
  await configure([["cap", ""], ["jitter", "decorrelated"]]);
  await expectError("cap", messageOf({ growth: "exponential", base: 1000, factor: 2, jitter: "decorrelated", seed: "playground", maxAttempts: 8 }));

  // a bad step, a bad free count, a factor below 1, no attempts
  await configure([["growth", "steps"], ["steps", "100, later"]]);
  await expectError("steps", messageOf({ steps: [100, "later"], maxAttempts: 8 }));
  await configure([["free", "-1"]]);
  await expectError("free", messageOf({ growth: "exponential", base: 1000, factor: 2, max: 3600000, free: -1, maxAttempts: 8 }));
  await configure([["factor", "0.5"]]);
  await expectError("factor", messageOf({ growth: "exponential", base: 1000, factor: 0.5, max: 3600000, maxAttempts: 8 }));
  await configure([["attempts", ""]]);
  await expectError("attempts", messageOf({ growth: "exponential", base: 1000, factor: 2, max: 3600000 }));
  await configure([["attempts", "5000"]]);
  const limit = await read();
  assert.match(limit.errors.attempts, /at most 1000 attempts/);

  // fixing the input brings everything back
  await page.fill("#attempts", "3");
  await assertMatchesLibrary(await read(), { growth: "exponential", base: 1000, factor: 2, max: 3600000, maxAttempts: 3 });
});

test("no seed: jittered waits are a random sample inside the exact bounds, and the page says so", async () => {
  await configure([["jitter", "full"], ["seed", ""], ["attempts", "6"]]);
  const shown = await read();
  assert.equal(shown.state, "ok");
  assert.match(shown.note, /No seed: these jittered waits are one random sample/);
  const policy = createBackoff({ growth: "exponential", base: 1000, factor: 2, max: 3600000, jitter: "full", maxAttempts: 6 });
  for (const r of shown.rows) {
    const b = policy.bounds(r.retry);
    assert.deepEqual([r.min, r.max], [b.min, b.max]);
    assert.ok(Number.isInteger(r.wait) && r.wait >= b.min && r.wait <= b.max, `${r.wait} in [${b.min}, ${b.max}]`);
  }
  assert.doesNotMatch(shown.create.code, /^ *seed:/m);
  assert.match(shown.create.code, /no seed: jittered waits differ on every run/);
  for (const name of ["create", "fluent"]) {
    const waits = await runSnippet(shown[name].code);
    assert.equal(waits.length, 5);
    waits.forEach((w, i) => assert.ok(w >= policy.bounds(i + 1).min && w <= policy.bounds(i + 1).max));
  }
});

test("layout at 1024×768: no horizontal scroll, labelled controls; screenshot", async () => {
  await configure([["cap", "30 seconds"], ["jitter", "spread"], ["fraction", "0.25"], ["attempts", "10"], ["seed", "screenshot"]]);
  const shown = await read();
  await assertMatchesLibrary(shown, { growth: "exponential", base: 1000, factor: 2, cap: "30 seconds", jitter: 0.25, seed: "screenshot", maxAttempts: 10 });
  const layout = await page.evaluate(() => {
    const unlabelled = [...document.querySelectorAll("input, select, button")]
      .filter((el) => !(el.labels?.length || el.getAttribute("aria-label") || (el.tagName === "BUTTON" && el.textContent.trim())))
      .map((el) => el.id || el.outerHTML);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      unlabelled,
      chartWidth: document.querySelector("#chart svg").getBoundingClientRect().width,
    };
  });
  assert.ok(layout.scrollWidth <= layout.clientWidth, `no horizontal overflow (${layout.scrollWidth} > ${layout.clientWidth})`);
  assert.deepEqual(layout.unlabelled, []);
  assert.ok(layout.chartWidth >= 600, `chart readable: ${layout.chartWidth}px wide`);

  // WCAG contrast of every kind of text on the page, against its effective background
  const contrast = await page.evaluate(() => {
    const rgb = (c) => c.match(/[\d.]+/g).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length < 4 || c[3] > 0) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const out = [];
    for (const sel of ["h1", "header p", "label", ".hint", "input", "select", "button", ".note", "th", "td", "pre", ".why-not", ".error:not([hidden])"]) {
      for (const el of document.querySelectorAll(sel)) {
        if (!el.getClientRects().length) continue;
        const a = lum(rgb(getComputedStyle(el).color));
        const b = lum(background(el));
        out.push({ sel, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) });
      }
    }
    return out;
  });
  assert.ok(contrast.length > 20);
  const low = contrast.filter((c) => c.ratio < 4.5);
  assert.deepEqual(low, [], "every text has a contrast ratio of at least 4.5:1 (WCAG AA)");

  // "Copy" puts the snippet on the clipboard
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.click("#snippet-fluent button.copy");
  await page.waitForFunction(() => document.getElementById("copy-status").textContent !== "");
  assert.equal(await page.textContent("#copy-status"), "Copied");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shown.fluent.code);
  await page.screenshot({ path: join(ARTIFACTS, "playground.png"), fullPage: true });
  assert.deepEqual(pageErrors, [], "no page errors or console errors");
});

test("serve-playground: content types, directory index, and no escape from the root", async () => {
  const get = (path) => fetch(`${base}${path}`, { redirect: "manual" });
  const html = await get("/examples/playground/");
  assert.equal(html.status, 200);
  assert.match(html.headers.get("content-type"), /^text\/html/);
  const js = await get("/pkg/dist/esm/index.js");
  assert.match(js.headers.get("content-type"), /^text\/javascript/);
  assert.equal((await get("/examples/playground")).status, 301);
  assert.equal((await get("/nope.txt")).status, 404);
  assert.equal((await get("/..%2f..%2f..%2fetc%2fpasswd")).status, 403);
  assert.equal((await fetch(`${base}/package.json`, { method: "POST" })).status, 405);
});

test("`PORT=0 npm run playground` (node scripts/serve-playground.mjs) starts and serves the page", async () => {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [join(ROOT, "scripts", "serve-playground.mjs")], {
    cwd: ROOT, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    let out = "";
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const url = await new Promise((ok, fail) => {
      child.stdout.on("data", (d) => {
        out += d;
        const m = out.match(/^backoff-wasm playground: (http:\/\/127\.0\.0\.1:\d+\/examples\/playground\/)$/m);
        if (m) ok(m[1]);
      });
      child.once("exit", (code) => fail(new Error(`serve-playground exited with ${code}: ${err.trim()}`)));
    });
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<script type="module"/);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((ok) => child.once("exit", ok));
      child.kill();
      await exited;
    }
  }
});
