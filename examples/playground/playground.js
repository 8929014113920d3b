// backoff-wasm playground: a plain ES module, no framework, no build step.
//
// Every number shown is computed by the package's browser build (imported from the
// repository's pkg/, so serve the repository root: `npm run playground`). The page
// reads the controls, builds `createBackoff` options from them, and renders on every
// change: the schedule table (`policy.schedule()`, `policy.bounds(n)`), the chart
// (`scheduleSvg`) and three "copy as code" snippets that reproduce the table.
//
// Inputs are passed to the library as typed (numeric text becomes a number, anything
// else stays text), so invalid input is reported with the library's own error message,
// next to the control it names.

/** Where the package's browser build lives, relative to this file. */
const PACKAGE_URL = "../../pkg/dist/esm/index.js";

/** The playground lists at most this many attempts (a limit of the page, not of the library). */
export const MAX_ATTEMPTS_SHOWN = 1000;

/** The controls' defaults: Sigil's default policy (8 attempts, 1 s doubling, 1 h cap), a seed, a log axis. */
export const DEFAULTS = Object.freeze({
  growth: "exponential",
  base: "1000",
  factor: "2",
  cap: "3600000",
  steps: "100, 250, 1 second, 5 seconds",
  jitter: "none",
  fraction: "0.2",
  free: "0",
  attempts: "8",
  seed: "playground",
  scale: "log",
});

/** What each growth computes, shown under the select. */
const GROWTH_HINT = {
  exponential: "wait n = base × factor^(n − 1), then the cap",
  linear: "wait n = base × n, then the cap",
  constant: "every wait = base",
  steps: "a list of waits; the last one repeats",
};

/** Library option name (as in its error messages) → the control that sets it. */
const OPTION_CONTROL = {
  base: "base",
  growth: "growth",
  factor: "factor",
  max: "cap",
  cap: "cap",
  steps: "steps",
  "steps[i]": "steps",
  free: "free",
  jitter: "jitter",
  seed: "seed",
  maxAttempts: "attempts",
};

const ERROR_FIELDS = ["base", "factor", "cap", "steps", "jitter", "fraction", "free", "attempts", "seed"];
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

let lib;
try {
  lib = await import(PACKAGE_URL);
} catch (e) {
  const p = $("load-error");
  p.hidden = false;
  p.textContent =
    `Could not load the package from ${PACKAGE_URL} (${e && e.message ? e.message : e}). ` +
    "Build it first (npm run build) and serve the repository root (npm run playground).";
  throw e;
}
const { createBackoff, scheduleSvg } = lib;

// ---------------------------------------------------------------- state ----

/** The controls' current values, as text (the scale as "linear" | "log"). */
function readState() {
  const state = {};
  for (const key of Object.keys(DEFAULTS)) {
    if (key === "scale") state.scale = /** @type {HTMLInputElement} */ (document.querySelector('input[name="scale"]:checked')).value;
    else state[key] = /** @type {HTMLInputElement} */ ($(key)).value;
  }
  return state;
}

/** Sets every control from `state` (missing keys take their default). */
function writeState(state) {
  for (const key of Object.keys(DEFAULTS)) {
    const value = state[key] ?? DEFAULTS[key];
    if (key === "scale") {
      for (const r of document.querySelectorAll('input[name="scale"]')) r.checked = r.value === value;
    } else {
      /** @type {HTMLInputElement} */ ($(key)).value = value;
    }
  }
}

/** The state from the URL fragment (`#growth=linear&cap=…`), for shareable links. */
function stateFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const state = {};
  for (const key of Object.keys(DEFAULTS)) if (params.has(key)) state[key] = params.get(key);
  return state;
}

/** Writes the non-default part of `state` to the URL fragment (no history entry). */
function saveHash(state) {
  const params = new URLSearchParams();
  for (const key of Object.keys(DEFAULTS)) if (state[key] !== DEFAULTS[key]) params.set(key, state[key]);
  const hash = params.toString();
  history.replaceState(null, "", hash ? `#${hash}` : location.pathname + location.search);
}

// -------------------------------------------------------------- options ----

/**
 * A control's text as the library should receive it: `undefined` when empty, a number
 * when the text is a JavaScript number (`"1000"`, `"0.2"`, `"1e3"`), otherwise the trimmed
 * text itself (duration text such as `"1 second"`, or something the library will reject
 * with a message naming the option).
 */
export function valueOf(text) {
  const t = text.trim();
  if (t === "") return undefined;
  const n = Number(t);
  return Number.isNaN(n) ? t : n;
}

/**
 * `createBackoff` options from the controls' state, keys in a readable order:
 * growth, base, factor, cap | steps, free, jitter, seed, maxAttempts. Controls that do
 * not apply (factor for a non-exponential curve, base/cap for steps) are left out. The cap
 * is the hard bound after jitter (`cap`, the fluent `.cap()`), so every snippet is one policy.
 */
export function optionsOf(state) {
  const o = {};
  if (state.growth === "steps") {
    o.steps = state.steps.split(",").map((s) => valueOf(s) ?? "");
  } else {
    o.growth = state.growth;
    const base = valueOf(state.base);
    if (base !== undefined) o.base = base;
    const factor = valueOf(state.factor);
    if (state.growth === "exponential" && factor !== undefined) o.factor = factor;
    const cap = valueOf(state.cap);
    if (cap !== undefined) o.cap = cap;
  }
  const free = valueOf(state.free);
  if (free !== undefined && free !== 0) o.free = free;
  if (state.jitter === "spread") o.jitter = valueOf(state.fraction) ?? "";
  else if (state.jitter !== "none") o.jitter = state.jitter;
  // The seed keys the jitter draws; without jitter there is nothing to key.
  if (state.seed !== "" && o.jitter !== undefined) o.seed = state.seed;
  const attempts = valueOf(state.attempts);
  if (attempts !== undefined) o.maxAttempts = attempts;
  return o;
}

/**
 * Runs the library on `options`: `{ policy, rows }`, or `{ error: { control, message } }`
 * with the library's error (or the page's own attempts limit).
 */
function compute(options, state) {
  let policy;
  let waits;
  try {
    policy = createBackoff(options);
    if (policy.attempts !== undefined && policy.attempts > MAX_ATTEMPTS_SHOWN) {
      return {
        error: {
          control: "attempts",
          message: `The playground lists at most ${MAX_ATTEMPTS_SHOWN} attempts (the library takes any integer >= 1); received ${policy.attempts}`,
        },
      };
    }
    waits = policy.schedule();
  } catch (e) {
    return { error: { control: controlOf(e, state), message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) } };
  }
  let elapsed = 0;
  const rows = waits.map((wait, i) => {
    elapsed += wait;
    const { nominal, min, max } = policy.bounds(i + 1);
    return { retry: i + 1, wait, nominal, min, max, elapsed };
  });
  return { policy, rows };
}

/** The control an error message is about (`"max must be …"` → the cap field), or "general". */
function controlOf(e, state) {
  const m = /^(\S+) must\b/.exec(e && e.message ? e.message : "");
  let control = m ? OPTION_CONTROL[m[1].replace(/\[\d+\]$/, "[i]")] : undefined;
  if (control === "jitter" && state.jitter === "spread") control = "fraction";
  if (!control || control === "growth") return "general";
  return control;
}

// ------------------------------------------------------------- snippets ----

/** A JavaScript literal for an option value. */
function literal(v) {
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(", ")}]`;
  if (Object.is(v, -0)) return "-0";
  return String(v);
}

/** `{ key: value, … }` over several lines. */
function objectLiteral(o, indent = "") {
  const lines = Object.entries(o).map(([k, v]) => `${indent}  ${k}: ${literal(v)},`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

const RANDOM_NOTE = "// no seed: jittered waits differ on every run (set a seed to pin them)\n";

/** Whether the table's waits take random draws (jitter without a seed). */
const unseededJitter = (options) => options.jitter !== undefined && options.seed === undefined;

/** The `createBackoff` snippet. */
export function createSnippet(options) {
  return (
    `import { createBackoff } from "backoff-wasm/backoff";\n\n` +
    `const policy = createBackoff(${objectLiteral(options)});\n` +
    (unseededJitter(options) ? RANDOM_NOTE : "") +
    `const waits = policy.schedule(); // ms before retries 1 … ${describeRetries(options)}\n`
  );
}

function describeRetries(options) {
  const n = typeof options.maxAttempts === "number" ? options.maxAttempts - 1 : "n";
  return n === 0 ? "none (a single attempt)" : String(n);
}

/** The fluent `Backoff` snippet: a factory, then one chained call per option. */
export function fluentSnippet(options) {
  const chain = [];
  let head;
  let imports;
  if (options.steps !== undefined) {
    imports =
      `import { createBackoff } from "backoff-wasm/backoff";\n\n` +
      `// The fluent factories have no steps form: start from createBackoff (a Backoff) and chain.\n`;
    head = `createBackoff({ steps: ${literal(options.steps)} })`;
  } else {
    imports = `import { Backoff } from "backoff-wasm/policy";\n\n`;
    const base = literal(options.base);
    if (options.growth === "linear") head = `Backoff.linear(${base})`;
    else if (options.growth === "constant") head = `Backoff.fixed(${base})`;
    else head = options.factor === undefined ? `Backoff.exponential(${base})` : `Backoff.exponential(${base}, ${literal(options.factor)})`;
    if (options.cap !== undefined) chain.push(`.cap(${literal(options.cap)})`);
  }
  if (options.free !== undefined) chain.push(`.free(${literal(options.free)})`);
  if (options.jitter !== undefined) chain.push(`.jitter(${literal(options.jitter)})`);
  if (options.seed !== undefined) chain.push(`.seed(${literal(options.seed)})`);
  if (options.maxAttempts !== undefined) chain.push(`.maxAttempts(${literal(options.maxAttempts)})`);
  return (
    imports +
    `const policy = ${head}${chain.map((c) => `\n  ${c}`).join("")};\n` +
    (unseededJitter(options) ? RANDOM_NOTE : "") +
    `const waits = policy.schedule();\n`
  );
}

/**
 * The Sigil snippet, or the reasons the configuration has no Sigil form. Sigil
 * (`retrySchedule`) is exponential with factor 2, a ceiling, no free attempts and a
 * jitter that only shortens a wait (`round(d · (1 − f·r))`), which none of the jitter
 * kinds here is. Durations become ms (`policy.toJSON()`); no cap is `maxDelayMs: Infinity`
 * (Sigil's own default ceiling is one hour).
 */
export function sigilSnippet(options, policy) {
  const why = [];
  if (options.steps !== undefined) why.push("steps: Sigil has a single exponential curve, no list of waits");
  else if (options.growth !== "exponential") why.push(`${options.growth} growth: Sigil's curve is exponential`);
  else if (options.factor !== undefined && options.factor !== 2) why.push(`factor ${options.factor}: Sigil always doubles (factor 2)`);
  if (options.free !== undefined) why.push("free attempts: Sigil has none");
  if (options.jitter !== undefined) {
    const kind = typeof options.jitter === "number" ? `± ${options.jitter}` : `"${options.jitter}"`;
    why.push(`jitter ${kind}: Sigil's only jitter shortens a wait, round(d · (1 − f·r)), a different kind`);
  }
  if (why.length) return { why };
  const json = policy.toJSON();
  // Without jitter (the only case with a Sigil form) the cap and Sigil's ceiling are one bound.
  const sigil = { baseDelayMs: json.base, maxDelayMs: json.cap ?? Infinity };
  if (json.maxAttempts !== undefined) sigil.maxAttempts = json.maxAttempts;
  return {
    code:
      `import { retrySchedule } from "backoff-wasm/sigil";\n\n` +
      `const waits = retrySchedule(${objectLiteral(sigil)});\n`,
  };
}

// ------------------------------------------------------------ rendering ----

/** A wait as a person reads it: `2 min 7 s`, `1 h 0 min 5 s`, `250 ms`, `1.5 s`. */
function human(ms) {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 1000) return `${Number(ms.toFixed(3))} ms`;
  const parts = [];
  let rest = ms;
  for (const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["min", 60_000]]) {
    if (rest >= size || parts.length) {
      const n = Math.floor(rest / size);
      parts.push(`${n} ${unit}`);
      rest -= n * size;
    }
  }
  const s = Number((rest / 1000).toFixed(3));
  if (s !== 0 || !parts.length) parts.push(`${s} s`);
  return parts.join(" ");
}

/** `1,234,567` for display; the exact value stays in `data-ms`. */
const grouped = (ms) => (Number.isFinite(ms) ? ms.toLocaleString("en-US", { maximumFractionDigits: 3 }) : String(ms));

function cell(text, ms, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (ms !== undefined) td.dataset.ms = String(ms);
  if (cls) td.className = cls;
  return td;
}

function renderErrors(error) {
  for (const f of ERROR_FIELDS) {
    const p = $(`${f}-error`);
    p.hidden = true;
    p.textContent = "";
    $(f).removeAttribute("aria-invalid");
  }
  const general = $("general-error");
  general.hidden = true;
  general.textContent = "";
  if (!error) return;
  let control = error.control;
  if (control !== "general" && $(control).closest("[hidden]")) control = "general";
  const p = control === "general" ? general : $(`${control}-error`);
  p.textContent = error.message;
  p.hidden = false;
  if (control !== "general") $(control).setAttribute("aria-invalid", "true");
}

function renderTable(result, options) {
  const body = /** @type {HTMLTableSectionElement} */ (document.querySelector("#schedule tbody"));
  const foot = /** @type {HTMLTableSectionElement} */ (document.querySelector("#schedule tfoot"));
  body.replaceChildren();
  foot.replaceChildren();
  const note = $("table-note");
  note.className = "note";
  if (result.error) {
    note.textContent = "No schedule: fix the option marked in red.";
    note.classList.add("warn");
    return;
  }
  for (const r of result.rows) {
    const tr = document.createElement("tr");
    tr.append(
      cell(String(r.retry)),
      cell(grouped(r.wait), r.wait),
      r.min === r.max ? cell("exact", undefined, "muted") : cell(`${grouped(r.min)} – ${grouped(r.max)}`),
      cell(grouped(r.elapsed), r.elapsed),
      cell(human(r.elapsed)),
    );
    tr.children[2].dataset.min = String(r.min);
    tr.children[2].dataset.max = String(r.max);
    body.append(tr);
  }
  const total = result.rows.length ? result.rows[result.rows.length - 1].elapsed : 0;
  const tr = document.createElement("tr");
  const label = cell("total window");
  label.colSpan = 3;
  tr.append(label, cell(grouped(total), total), cell(human(total)));
  foot.append(tr);
  if (!result.rows.length) note.textContent = "No retries: a single attempt.";
  else if (unseededJitter(options)) {
    note.textContent =
      "No seed: these jittered waits are one random sample (crypto.getRandomValues); the code draws others. " +
      "Set a seed to make them keyed and reproducible.";
    note.classList.add("warn");
  } else if (options.jitter !== undefined) {
    note.textContent = `Keyed jitter: the wait before retry n is a pure function of (seed ${JSON.stringify(options.seed)}, n).`;
    if (options.jitter === "decorrelated" && options.growth !== "exponential") {
      note.textContent += ` Decorrelated jitter replaces the growth curve, so "${options.growth}" changes nothing here.`;
    } else if (options.jitter === "decorrelated" && options.factor !== undefined && options.factor !== 2) {
      note.textContent += " Decorrelated jitter replaces the growth curve, so the factor changes nothing here.";
    }
  } else {
    note.textContent = "No jitter: every wait is exact.";
  }
}

function renderChart(result, scale) {
  const chart = $("chart");
  if (result.error) {
    chart.innerHTML = '<p class="placeholder">No chart: fix the option marked in red.</p>';
    return;
  }
  try {
    chart.innerHTML = scheduleSvg(result.policy, { scale, width: 720, height: 340 });
  } catch (e) {
    chart.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: `${e.name}: ${e.message}` }));
  }
}

function renderSnippets(result, options) {
  const set = (name, code, why) => {
    $(`${name}-code`).textContent = code ?? "";
    $(`snippet-${name}`).dataset.state = code ? "ok" : "unavailable";
    const whyEl = $(`${name}-why`);
    whyEl.hidden = !why;
    whyEl.textContent = why ?? "";
  };
  if (result.error) {
    for (const name of ["sigil", "create", "fluent"]) set(name, "", "No code: fix the option marked in red first.");
    return;
  }
  const sigil = sigilSnippet(options, result.policy);
  set("sigil", sigil.code, sigil.why ? `Not expressible in Sigil's options — ${sigil.why.join("; ")}.` : undefined);
  set("create", createSnippet(options));
  set("fluent", fluentSnippet(options));
}

/** Shows or hides the controls that apply to the chosen growth and jitter. */
function renderVisibility(state) {
  for (const el of document.querySelectorAll("[data-for]")) {
    const f = el.dataset.for;
    const on =
      f === "curve" ? state.growth !== "steps"
      : f === "exponential" ? state.growth === "exponential"
      : f === "steps" ? state.growth === "steps"
      : f === "spread" ? state.jitter === "spread"
      : true;
    el.hidden = !on;
  }
}

let renders = 0;

/** Reads the controls and redraws everything. */
function render() {
  const state = readState();
  renderVisibility(state);
  $("growth-hint").textContent = GROWTH_HINT[state.growth] ?? "";
  const options = optionsOf(state);
  const result = compute(options, state);
  renderErrors(result.error);
  renderTable(result, options);
  renderChart(result, state.scale);
  renderSnippets(result, options);
  saveHash(state);
  document.body.dataset.state = result.error ? "error" : "ok";
  document.body.dataset.renders = String(++renders);
}

// ---------------------------------------------------------------- wiring ----

async function copy(button) {
  const code = $(button.dataset.copy);
  const text = code.textContent ?? "";
  let done = "Copied";
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const range = document.createRange();
    range.selectNodeContents(code);
    const sel = getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    done = "Selected: press Ctrl+C";
  }
  $("copy-status").textContent = done;
  button.textContent = done === "Copied" ? "Copied ✓" : "Selected";
  setTimeout(() => (button.textContent = "Copy"), 1500);
}

$("controls").addEventListener("input", render);
$("controls").addEventListener("change", render);
$("controls").addEventListener("submit", (e) => e.preventDefault());
for (const r of document.querySelectorAll('input[name="scale"]')) r.addEventListener("change", render);
$("reset").addEventListener("click", () => {
  writeState(DEFAULTS);
  render();
});
for (const b of document.querySelectorAll("button.copy")) b.addEventListener("click", () => copy(b));
addEventListener("hashchange", () => {
  writeState(stateFromHash());
  render();
});

writeState(stateFromHash());
render();
