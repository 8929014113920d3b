// The consumer code every runtime runs: one probe over all six entry points
// (`backoff-wasm`, `/sigil`, `/backoff`, `/random`, `/duration`, `/policy`),
// written into each scratch consumer as ESM (import) or CommonJS (require).
// It returns plain JSON, so Node, a browser page, a bundle and a Worker all
// report the same object, which the tests compare to EXPECTED (the values of
// docs/API.md) exactly.

const ENTRY_POINTS = {
  root: "backoff-wasm",
  sigil: "backoff-wasm/sigil",
  backoff: "backoff-wasm/backoff",
  random: "backoff-wasm/random",
  duration: "backoff-wasm/duration",
  policy: "backoff-wasm/policy",
};

// Runs inside the consumer: `m` holds the six module namespaces.
const BODY = String.raw`
function caught(f) {
  try { f(); return null; } catch (e) { return e; }
}
function words(stream, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(Math.floor(stream.next() * 4294967296));
  return out;
}
function probe(m) {
  const { root, sigil, backoff, random, duration, policy } = m;
  const names = {};
  const hidden = ["__esModule", "default"];
  for (const [k, ns] of Object.entries(m)) names[k] = Object.keys(ns).filter((n) => !hidden.includes(n)).sort();

  const sigilErr = caught(() => sigil.nextDelayMs(0));
  const seedErr = caught(() => root.retrySchedule({ maxAttempts: 0 }));
  const baseErr = caught(() => backoff.createBackoff({ base: "5 minuts" }));
  const jitterErr = caught(() => backoff.createBackoff({ base: 1, jitter: 2 }));
  const failed = duration.parse("5 minuts");

  const r42 = random.createRandom(42);
  const ints = random.createRandom(42);
  const resumed = random.createRandom("resume");
  resumed.next(); resumed.next();
  const state = JSON.parse(JSON.stringify(resumed.state()));
  const system = random.systemRandom();
  const draw = system.next();
  const seed = random.systemSeed();
  const seven = random.createRandom(7);
  const schema = random.RANDOM_STATE_SCHEMA["~standard"];

  const oneSecond = backoff.createBackoff({ base: "1 second" });
  const fluent = policy.Backoff.exponential("2 seconds").cap("5 minutes").maxAttempts(11);

  return {
    names,
    sigil: {
      constants: [sigil.MAX_ATTEMPTS, sigil.BASE_DELAY_MS, sigil.MAX_DELAY_MS],
      schedule: sigil.retrySchedule(),
      jittered: sigil.retrySchedule({ jitter: 0.5, random: () => 1 }),
      capped: sigil.nextDelayMs(3, { baseDelayMs: 100, maxDelayMs: 250 }),
      at40: sigil.nextDelayMs(40),
      stubbed: [sigil.nextDelayMs(4, { jitter: 0.25, random: () => 1 }), sigil.nextDelayMs(4, { jitter: 0.25, random: () => 0 })],
      window: sigil.totalRetryWindowMs(),
      seeded: words({ next: sigil.seededRandom(42) }, 2),
      rootSame: root.retrySchedule === sigil.retrySchedule && root.SigilError === sigil.SigilError,
      error: {
        name: sigilErr.name, code: sigilErr.code, message: sigilErr.message,
        instanceofSigil: sigilErr instanceof sigil.SigilError, instanceofRoot: sigilErr instanceof root.SigilError,
        instanceofError: sigilErr instanceof Error,
      },
      maxAttemptsError: { name: seedErr.name, code: seedErr.code, instanceofSigil: seedErr instanceof sigil.SigilError },
    },
    backoff: {
      oneSecond: [1, 2, 3, 4, 5].map((n) => oneSecond.delay(n)),
      delay3: oneSecond.delay(3),
      factor3: [1, 2, 3, 4].map((n) => backoff.createBackoff({ base: 100, factor: 3 }).delay(n)),
      linear: [1, 2, 3].map((n) => backoff.createBackoff({ base: "1 minute", growth: "linear" }).delay(n)),
      capped: [1, 2, 3, 4].map((n) => backoff.createBackoff({ base: "15 seconds", max: "1 minute" }).delay(n)),
      free: [1, 2, 3, 4, 5, 6].map((n) => backoff.createBackoff({ free: 3, base: "1 second" }).delay(n)),
      steps: [1, 2, 3, 4].map((n) => backoff.createBackoff({ free: 1, steps: [10, 20] }).delay(n)),
      at: backoff.createBackoff({ base: 1000 }).at(3, 1700000000000),
      seededSchedule: backoff.createBackoff({ base: 1000, jitter: 0.2, random: random.createRandom("worker") }).maxAttempts(6).schedule(),
      fullJitter: backoff.createBackoff({ base: 1000, jitter: "full", random: random.createRandom(7) }).maxAttempts(4).schedule(),
      sameClass: backoff.Backoff === policy.Backoff && root.Backoff === policy.Backoff && oneSecond instanceof policy.Backoff,
      baseError: { name: baseErr.name, isRangeError: baseErr instanceof RangeError, message: baseErr.message },
      jitterError: { name: jitterErr.name, message: jitterErr.message },
    },
    random: {
      words42: words(r42, 6),
      wordsSuite: words(random.createRandom("signup-suite"), 6),
      wordsEmpty: words(random.createRandom(""), 6),
      ints: Array.from({ length: 8 }, () => ints.int(0, 999)),
      sameStream: words(random.createRandom("42"), 1)[0] === 3833195492,
      derive: words(random.createRandom(42).derive("x"), 1)[0] === words(random.createRandom("42 x"), 1)[0],
      resumed: words(random.restoreRandom(state), 2)[0] === words(resumed, 1)[0],
      shuffle: random.createRandom("deck").shuffle([1, 2, 3, 4, 5, 6]).sort().join(","),
      system: typeof draw === "number" && draw >= 0 && draw < 1,
      systemSeed: Number.isInteger(seed) && seed >= 0 && seed < 4294967296,
      rootSame: root.createRandom === random.createRandom,
      seedKept: [seven.seed, seven.state().seed, JSON.parse(JSON.stringify(seven.state())).seed, random.createRandom("7").seed],
      numericRestore: words(random.restoreRandom({ seed: 7, words: seven.state().words }), 1)[0] === words(random.createRandom("7"), 1)[0],
      schema: [
        schema.version, schema.vendor, schema.validate(JSON.parse(JSON.stringify(seven.state()))).value.seed,
        schema.validate({ seed: 7, words: [1, 2, 3] }).issues.map((i) => i.path.join(".")).join(),
        root.RANDOM_STATE_SCHEMA === random.RANDOM_STATE_SCHEMA,
      ],
      pickArrayLike: caught(() => random.createRandom(1).pick({ length: 3 }))?.name ?? "no error",
    },
    duration: {
      minutes: duration.parse("5 minutes"),
      failure: {
        status: failed.status, name: failed.error.name, text: failed.error.text, message: failed.error.message,
        instanceofDuration: failed.error instanceof duration.InvalidDurationError,
        instanceofRoot: failed.error instanceof root.InvalidDurationError,
      },
      toMs: [duration.toMs("2h"), duration.toMs(250), Number.isNaN(duration.toMs("soon"))],
      toSeconds: duration.toSeconds("1500ms"),
      week: root.parseDuration("1w"),
      rootSame: root.parseDuration === duration.parse && root.toMs === duration.toMs,
    },
    policy: {
      capped: fluent.schedule(),
      attempts: fluent.attempts,
      total: policy.Backoff.fixed("5s").maxAttempts(3).totalMs(),
      linear: [...policy.Backoff.linear(100).maxAttempts(4)],
      json: policy.Backoff.exponential(500, 3).cap("1m").maxAttempts(4).toJSON(),
      from: policy.Backoff.from("3 seconds").delay(9),
      immutable: fluent.cap("1 minute") !== fluent && fluent.schedule()[9] === 300000,
    },
  };
}
`;

/**
 * The probe as an ES module: `import probe from "./probe.js"`.
 * @param {(subpath: string, bare: string) => string} [specifier] maps each entry point
 *   (`"index"`, `"sigil"`, …; and its bare name) to the specifier to import; bare names by default.
 */
export function probeModule(specifier = (_, bare) => bare) {
  const imports = Object.entries(ENTRY_POINTS)
    .map(([k, bare]) => `import * as ${k} from "${specifier(k === "root" ? "index" : k, bare)}";`)
    .join("\n");
  return `${imports}\n${BODY}\nexport default function run() {\n  return probe({ ${Object.keys(ENTRY_POINTS).join(", ")} });\n}\n`;
}

/** The probe as CommonJS: `require("./probe.cjs")()`. */
export function probeCommonJS() {
  const requires = Object.entries(ENTRY_POINTS).map(([k, spec]) => `const ${k} = require("${spec}");`).join("\n");
  return `"use strict";\n${requires}\n${BODY}\nmodule.exports = function run() {\n  return probe({ ${Object.keys(ENTRY_POINTS).join(", ")} });\n};\n`;
}

const SIGIL_NAMES = ["BASE_DELAY_MS", "MAX_ATTEMPTS", "MAX_DELAY_MS", "SigilError", "nextDelayMs", "retrySchedule", "seededRandom", "totalRetryWindowMs"];
const BACKOFF_NAMES = ["Backoff", "createBackoff"];
const RANDOM_NAMES = ["RANDOM_STATE_SCHEMA", "createRandom", "restoreRandom", "systemRandom", "systemSeed"];
const DURATION_NAMES = ["InvalidDurationError", "parse", "toMs", "toSeconds"];
const RETRY_NAMES = ["retry", "fetchWithRetry", "retryAfterMs", "sleep", "queueRetryDelaySeconds", "AbortError", "RetryError", "serverDelayMs", "createRetryBudget", "redisBudgetStore", "durableObjectBudgetStore", "RetryBudgetObject"];

/**
 * What the probe must return in every runtime. The spec (API.md) fixes every
 * value except the two seeded jitter schedules, which are computed in Node
 * from the same package and passed in.
 * @param {{ seededSchedule: number[], fullJitter: number[] }} seeded
 */
export function expected(seeded) {
  return {
    names: {
      root: [...SIGIL_NAMES, ...BACKOFF_NAMES, ...RANDOM_NAMES, "InvalidDurationError", "parseDuration", "toMs", "toSeconds", "scheduleSvg", ...RETRY_NAMES, "retryMessage", "bullmqBackoff", "pRetry", "makeRetriable"].sort(),
      sigil: SIGIL_NAMES,
      backoff: BACKOFF_NAMES,
      random: RANDOM_NAMES,
      duration: DURATION_NAMES,
      policy: ["Backoff"],
    },
    sigil: {
      constants: [8, 1000, 3600000],
      schedule: [1000, 2000, 4000, 8000, 16000, 32000, 64000],
      jittered: [500, 1000, 2000, 4000, 8000, 16000, 32000],
      capped: 250,
      at40: 3600000,
      stubbed: [6000, 8000],
      window: 127000,
      seeded: [3833195492, 3563769608],
      rootSame: true,
      error: {
        name: "SigilError", code: "invalid_argument", message: "attempt must be an integer >= 1; received 0",
        instanceofSigil: true, instanceofRoot: true, instanceofError: true,
      },
      maxAttemptsError: { name: "SigilError", code: "invalid_argument", instanceofSigil: true },
    },
    backoff: {
      oneSecond: [1000, 2000, 4000, 8000, 16000],
      delay3: 4000,
      factor3: [100, 300, 900, 2700],
      linear: [60000, 120000, 180000],
      capped: [15000, 30000, 60000, 60000],
      free: [0, 0, 0, 1000, 2000, 4000],
      steps: [0, 10, 20, 20],
      at: 1700000004000,
      seededSchedule: seeded.seededSchedule,
      fullJitter: seeded.fullJitter,
      sameClass: true,
      baseError: {
        name: "RangeError", isRangeError: true,
        message: 'base must be a non-negative finite duration (ms, or text such as "5 seconds"); received "5 minuts"',
      },
      jitterError: { name: "RangeError", message: 'jitter must be a number in [0, 1], "full", "equal" or "decorrelated"; received 2' },
    },
    random: {
      words42: [3833195492, 3563769608, 4061610985, 767254976, 3389111029, 3727552234],
      wordsSuite: [1665886051, 3924901832, 1861224746, 2455819951, 2930940383, 493917030],
      wordsEmpty: [3075608207, 1941113166, 1250698130, 1973185690, 24547140, 1714710821],
      ints: [892, 829, 945, 178, 789, 867, 759, 526],
      sameStream: true,
      derive: true,
      resumed: true,
      shuffle: "1,2,3,4,5,6",
      system: true,
      systemSeed: true,
      rootSame: true,
      seedKept: [7, 7, 7, "7"],
      numericRestore: true,
      schema: [1, "backoff-wasm", 7, "words", true],
      pickArrayLike: "TypeError",
    },
    duration: {
      minutes: { status: "success", data: 300000 },
      failure: {
        status: "failure", name: "InvalidDurationError", text: "5 minuts", message: 'Invalid duration: "5 minuts"',
        instanceofDuration: true, instanceofRoot: true,
      },
      toMs: [7200000, 250, true],
      toSeconds: 2,
      week: { status: "success", data: 604800000 },
      rootSame: true,
    },
    policy: {
      capped: [2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000],
      attempts: 11,
      total: 10000,
      linear: [100, 200, 300],
      json: { growth: "exponential", base: 500, factor: 3, cap: 60000, free: 0, jitter: 0, maxAttempts: 4 },
      from: 3000,
      immutable: true,
    },
  };
}

/** The probe's jittered schedules computed in this Node process from `mod` (the package's root module). */
export function seededFrom(mod) {
  return {
    seededSchedule: mod.createBackoff({ base: 1000, jitter: 0.2, random: mod.createRandom("worker") }).maxAttempts(6).schedule(),
    fullJitter: mod.createBackoff({ base: 1000, jitter: "full", random: mod.createRandom(7) }).maxAttempts(4).schedule(),
  };
}

/**
 * An HTML page that runs the probe: `head` goes first (e.g. an import map),
 * then `<script type="module" src=...>` or inline module code. A classic
 * script records any load or evaluation error, so a broken page fails fast
 * with the browser's message instead of timing out.
 */
export function probePage({ head = "", moduleSrc, moduleCode }) {
  const module = moduleSrc
    ? `<script type="module" src="${moduleSrc}"></script>`
    : `<script type="module">\n${moduleCode}\n</script>`;
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>backoff-wasm consumer</title>
<link rel="icon" href="data:,">
<script>
  window.addEventListener("error", (e) => {
    window.__probe = { error: String((e.error && e.error.stack) || e.message || (e.target && e.target.src) || e) };
    window.__done = true;
  }, true);
</script>
${head}
${module}
</head>
<body><pre id="out"></pre></body>
</html>
`;
}

/** The page's main module: runs the probe and publishes the result on `window`. */
export const PAGE_MAIN = `import probe from "./probe.js";
window.__probe = probe();
window.__done = true;
document.getElementById("out").textContent = JSON.stringify(window.__probe, null, 2);
`;
