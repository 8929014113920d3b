// A TypeScript consumer of the packed tarball, checked with `tsc --strict
// --noEmit` under moduleResolution node16, nodenext (ESM .mts and CommonJS
// .cts files), bundler, and node10 with target ES5 (TypeScript's defaults). It uses every export of every entry point, and
// `@ts-expect-error` lines prove that wrong option types and misspelt
// durations do not compile (tsc fails on an unused @ts-expect-error).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { project } from "./scratch.mjs";

/** Pinned compiler version. */
export const VERSIONS = { typescript: "5.9.3", "@remix-run/data-schema": "0.3.0" };

// Template-literal cases (a plain template here, so its backticks are escaped).
const TEMPLATES = `
function fromTemplate(n: bigint): DurationString {
  return \`\${n} minutes\`;
}
const count: number = 5;
// @ts-expect-error text built from a number widens to \`\${number} minutes\`
toMs(\`\${count} minutes\`);
`;

const BODY = String.raw`
import {
  MAX_ATTEMPTS, BASE_DELAY_MS, MAX_DELAY_MS, nextDelayMs, retrySchedule, totalRetryWindowMs, seededRandom, SigilError,
  type BackoffOptions as SigilOptions, type RetryScheduleOptions, type SigilErrorCode,
} from "backoff-wasm/sigil";
import {
  createBackoff, Backoff, type BackoffOptions, type BackoffCurveOptions, type BackoffStepsOptions,
  type BackoffSharedOptions, type Jitter,
} from "backoff-wasm/backoff";
import {
  createRandom, restoreRandom, systemRandom, systemSeed, RANDOM_STATE_SCHEMA, type Random, type SeededRandom,
  type RandomState, type Seed, type RandomStateSchema, type RandomStateResult,
} from "backoff-wasm/random";
import {
  parse, toMs, toSeconds, InvalidDurationError, type DurationInput, type DurationString, type DurationUnit,
  type DurationUnitShort,
} from "backoff-wasm/duration";
import { Backoff as Policy } from "backoff-wasm/policy";
import {
  retry, fetchWithRetry, retryAfterMs, sleep, queueRetryDelaySeconds, AbortError, RetryError, serverDelayMs,
  createRetryBudget, type RetryStopReason, type RetryBudget,
} from "backoff-wasm/retry";
import pRetry, { makeRetriable, AbortError as PAbortError, type Options as PRetryOptions, type RetryContext as FailedAttemptContext } from "backoff-wasm/p-retry";
import {
  retryMessage, bullmqBackoff, type QueueMessageLike, type RetryMessageOptions, type OnExhausted, type BullJobLike,
  type BullBackoffStrategy,
} from "backoff-wasm/queues";
import * as root from "backoff-wasm";

// /sigil
const limits: readonly number[] = [MAX_ATTEMPTS, BASE_DELAY_MS, MAX_DELAY_MS];
// @sigil/core declares its constants as literals (export const MAX_ATTEMPTS = 8, …): their types are 8, 1000, 3600000.
const literalLimits: [8, 1000, 3600000, 8] = [MAX_ATTEMPTS, BASE_DELAY_MS, MAX_DELAY_MS, root.MAX_ATTEMPTS];
const sigilOptions: SigilOptions = { baseDelayMs: 100, maxDelayMs: 250, jitter: 0.5, random: seededRandom("ts") };
const scheduleOptions: RetryScheduleOptions = { ...sigilOptions, maxAttempts: 4 };
const one: number = nextDelayMs(3, sigilOptions);
const schedule: number[] = retrySchedule(scheduleOptions);
const windowMs: number = totalRetryWindowMs();
const draw: () => number = seededRandom(42);
let code: SigilErrorCode | undefined;
try {
  nextDelayMs(0);
} catch (e) {
  if (e instanceof SigilError) code = e.code;
}
const made: Error = new SigilError("invalid_argument", "attempt must be an integer >= 1; received 0");

// /backoff
const jitter: Jitter = "full";
const shared: BackoffSharedOptions = { free: 1, jitter: 0.2, random: createRandom(1), maxAttempts: 5 };
const curve: BackoffCurveOptions = { base: "5 minutes", growth: "linear", max: "1h", ...shared };
const stepped: BackoffStepsOptions = { steps: [10, "20ms", "1 second"], jitter };
const options: BackoffOptions[] = [curve, stepped, { base: 100, factor: 3 }, { base: "1 second", random: () => 0.5 }];
const policy: Backoff = createBackoff(curve);
const delay: number = policy.delay(3);
const at: number = policy.at(1, Date.now());
const json = policy.toJSON();
const rebuilt: Backoff = createBackoff(json.steps ? { steps: json.steps } : { base: json.base ?? 0, max: json.max ?? Infinity });

// /policy (the same class)
const fluent: Policy = Policy.exponential("2 seconds", 2).cap("5 minutes").maxAttempts(8).jitter(0.1).free(0)
  .random(systemRandom());
const sameClass: Backoff = fluent;
const fixed: Policy = Policy.fixed("5s");
const linear: Policy = Policy.linear(100);
const from: Policy = Policy.from("3 seconds");
const waits: number[] = fluent.schedule();
const totalMs: number = fluent.totalMs();
const bound: number | undefined = fluent.attempts;
for (const wait of fluent) {
  const n: number = wait;
  void n;
  break;
}

// /p-retry: p-retry's options (and budget); /retry: a policy with this package's options, the default policy
const budget: RetryBudget = createRetryBudget({ ratio: 0.1, minPerSecond: 10, windowMs: "10 seconds" });
const pOptions: PRetryOptions = {
  retries: 3, factor: 2, minTimeout: 100, maxTimeout: 1000, randomize: true, maxRetryTime: 5000, unref: true, budget,
  onFailedAttempt: (c: FailedAttemptContext) => void c.retriesLeft, shouldRetry: ({ error }) => !(error instanceof TypeError),
  shouldConsumeRetry: ({ retryDelay }) => retryDelay > 0,
};
const getWithRetry: (url: string) => Promise<number> = makeRetriable(async (url: string) => url.length, pOptions);
const pErrors: Error[] = [new PAbortError("stop"), new PAbortError(new Error("x")), new AbortError()];
const retried: Promise<string>[] = [
  pRetry((attemptNumber: number) => String(attemptNumber), pOptions),
  retry(async ({ attempt }) => String(attempt), Backoff.fixed(10).maxAttempts(3), {
    deadline: { afterMs: "5 seconds" }, budget, onRetry: (e) => void [e.delayMs, e.elapsedMs, e.retriesLeft, e.deferral],
  }),
  retry(() => "default"),
  retry(() => "curve", { base: 100, maxAttempts: 3 }),
];
const stopReason: RetryStopReason = "deadline";
const retryValues = [serverDelayMs({ "retry-after": "1" }) ?? 0, retryAfterMs("1") ?? 0, queueRetryDelaySeconds(1000, 1)] satisfies number[];
const retryErrors: [Error, typeof RetryError] = [new AbortError("stop"), RetryError];
const retryFns = [fetchWithRetry, sleep(0)];
void [getWithRetry, pErrors];
// @ts-expect-error retry takes no p-retry options (they are backoff-wasm/p-retry's)
retry(() => 1, { retries: 3, minTimeout: 100 });
// @ts-expect-error minTimeout is a number of ms
pRetry(() => 1, { minTimeout: "1s" });

// /random
const seed: Seed = "signup-suite";
const seeded: SeededRandom = createRandom(seed);
const state: RandomState = seeded.state();
const resumed: SeededRandom = restoreRandom(state);
const system: Random = systemRandom();
const fresh: number = systemSeed();
const picked: string = seeded.pick(["a", "b"]);
const shuffled: number[] = seeded.shuffle([1, 2, 3] as const).map((x) => x * 2);
const coin: boolean = system.bool(0.3);
const mixed: number = resumed.float(1, 2) + seeded.int(0, 9) + system.next();
const derived: SeededRandom = seeded.derive("child");
const seedText: Seed = derived.seed;
const stateSeed: Seed = restoreRandom({ seed: 7, words: [1, 2, 3, 4] }).state().seed;
const schema: RandomStateSchema = RANDOM_STATE_SCHEMA;
const validated: RandomStateResult = schema["~standard"].validate(JSON.parse("{}"));
const restoredFromSchema: SeededRandom | undefined = validated.issues ? undefined : restoreRandom(validated.value);
const vendor: "backoff-wasm" = RANDOM_STATE_SCHEMA["~standard"].vendor;

// /duration
const unit: DurationUnit = "minutes";
const shortUnit: DurationUnitShort = "ms";
const text: DurationString = "5 minutes";
const texts: DurationString[] = ["10ms", "2 hours", "1w", "-5 seconds"];
// @sdxc/duration's type exactly: \${bigint} \${DurationUnit} | \${bigint}\${DurationUnitShort}.
const longForms: DurationString[] = [
  "1 millisecond", "250 milliseconds", "1 second", "30 seconds", "1 minute", "5 minutes", "1 hour", "12 hours", "1 day",
  "30 days", "1 week", "2 weeks", "0 seconds", "-1 hour",
];
const shortForms: DurationString[] = ["500ms", "30s", "15m", "6h", "30d", "1w", "0s", "-30s", "90071992547409930ms"];
const fromBigint = (n: bigint): DurationString => fromTemplate(n);
const input: DurationInput = Math.random() < 0.5 ? 250 : text;
const parsed = parse("5 minutes");
let ms = 0;
if (parsed.status === "success") {
  ms = parsed.data;
} else {
  const failure: InvalidDurationError = parsed.error;
  const bad: string = failure.text;
  void bad;
}
const seconds: number = toSeconds("1h") + toMs(input);

// backoff-wasm (everything in one import)
const rootOptions: root.SigilBackoffOptions = { jitter: 0.25 };
const rootJson: root.BackoffJSON = root.createBackoff({ base: 1 }).toJSON();
const rootParse: root.ParseResult = root.parseDuration("1 week");
const rootTypes: [root.Jitter, root.Seed, root.DurationInput, root.DurationString, root.DurationUnit, root.DurationUnitShort] =
  ["equal", 1, 2, "3s", "day", "d"];
const rootOpts: [root.BackoffOptions, root.BackoffCurveOptions, root.BackoffStepsOptions, root.BackoffSharedOptions] =
  [{ base: 1 }, { base: 1 }, { steps: [1] }, {}];
const rootRandom: [root.Random, root.SeededRandom, root.RandomState] =
  [root.systemRandom(), root.createRandom(1), root.createRandom(1).state()];
const rootCodes: root.SigilErrorCode = "invalid_argument";
const rootSchedule: root.RetryScheduleOptions = { maxAttempts: root.MAX_ATTEMPTS };
const rootValues = [
  root.BASE_DELAY_MS, root.MAX_DELAY_MS, root.nextDelayMs(1), root.retrySchedule().length, root.totalRetryWindowMs(),
  root.seededRandom(1)(), root.createBackoff({ base: 1 }).delay(1), root.Backoff.fixed(1).delay(1),
  root.restoreRandom(root.createRandom(1).state()).next(), root.systemSeed(), root.toMs("1s"), root.toSeconds(1000),
] satisfies number[];
const rootErrors: [typeof root.SigilError, typeof root.InvalidDurationError] = [root.SigilError, root.InvalidDurationError];

// backoff-wasm/queues: a workers-types Message and BullMQ's BackoffStrategy (as those packages
// declare them; neither is a dependency) fit the structural types.
interface QueuesMessage<Body = unknown> {
  readonly id: string; readonly timestamp: Date; readonly body: Body; readonly attempts: number;
  retry(options?: { delaySeconds?: number }): void; ack(): void;
}
interface BullMinimalJob { id?: string; name: string; data: unknown; attemptsMade: number }
type BullStrategy = (attemptsMade: number, type?: string, err?: Error, job?: BullMinimalJob) => Promise<number> | number;
declare const queuesMessage: QueuesMessage<{ url: string }>;
const exhausted: OnExhausted = "ack";
const messageOptions: RetryMessageOptions = { retryAfter: "120", onExhausted: exhausted };
const queueSeconds: number | undefined = retryMessage(queuesMessage, Policy.exponential("1 second"), messageOptions);
const like: QueueMessageLike = queuesMessage;
const bullStrategy: BullStrategy = bullmqBackoff("2 seconds");
const ours: BullBackoffStrategy = root.bullmqBackoff(root.Backoff.fixed(1));
const job: BullJobLike = { id: "1" };
const queued = [queueSeconds, like, bullStrategy, ours(1, "custom", undefined, job), root.retryMessage];

export const used = [
  queued, limits, literalLimits, one, schedule, windowMs, draw, code, made, options, delay, at, rebuilt, sameClass, fixed, linear, from, waits,
  totalMs, bound, fresh, picked, shuffled, coin, mixed, seedText, stateSeed, restoredFromSchema, vendor, unit, shortUnit, texts,
  longForms, shortForms, fromBigint, ms, seconds, rootOptions,
  rootJson, rootParse, rootTypes, rootOpts, rootRandom, rootCodes, rootSchedule, rootValues, rootErrors,
  retried, stopReason, retryValues, retryErrors, retryFns,
];

// Wrong option types and misspelt durations do not compile.
// @ts-expect-error base is a duration, not a boolean
createBackoff({ base: true });
// @ts-expect-error "minuts" is not a duration unit
createBackoff({ base: "5 minuts" });
// @ts-expect-error units are lower case
Policy.fixed("5 Minutes");
// @ts-expect-error attempt is a number
nextDelayMs("1");
// @ts-expect-error jitter is a number, "full", "equal" or "decorrelated"
createBackoff({ base: 1000, jitter: "half" });
// @ts-expect-error Sigil's jitter is a number
nextDelayMs(1, { jitter: "full" });
// @ts-expect-error random returns a number
retrySchedule({ random: () => "0.5" });
// @ts-expect-error steps cannot be combined with a curve
createBackoff({ base: 1000, steps: [1000] });
// @ts-expect-error no such growth
createBackoff({ base: 1000, growth: "cubic" });
// @ts-expect-error options are required
createBackoff();
// @ts-expect-error max is a duration
Policy.exponential("2 seconds").cap(true);
// @ts-expect-error maxAttempts takes a number
Policy.fixed(1).maxAttempts("3");
// @ts-expect-error a seed is a string or a number
createRandom({ seed: 1 });
// @ts-expect-error a state holds four words
restoreRandom({ seed: "x", words: [1, 2, 3] });
// @ts-expect-error parse takes text
parse(5);
// @ts-expect-error durations are not booleans
toMs(false);
// @ts-expect-error the result must be narrowed before reading data
const unchecked: number = parse("1s").data;
// @ts-expect-error an unknown option name
nextDelayMs(1, { baseDelay: 100 });
// @ts-expect-error onExhausted is "retry" or "ack"
retryMessage(queuesMessage, 1000, { onExhausted: "drop" });
// @ts-expect-error a seed may be a number (kept as given), so it is not a string
const seedAsText: string = seeded.seed;
void seedAsText;

// Duration text that @sdxc/duration's type rejects does not compile here either (each line must be an error).
// @ts-expect-error fractional amount
toMs("1.5h");
// @ts-expect-error fractional amount, long unit
toMs("1.5 hours");
// @ts-expect-error exponent
toMs("5e3s");
// @ts-expect-error leading zero
toMs("05s");
// @ts-expect-error explicit plus sign
toMs("+5s");
// @ts-expect-error a short unit takes no space
toMs("5 m");
// @ts-expect-error a long unit needs its space
toMs("5minutes");
// @ts-expect-error a bare amount is not DurationString (parse takes it at run time)
toMs("250");
// @ts-expect-error unit only
toMs("ms");
// @ts-expect-error empty text
toMs("");
// @ts-expect-error months have no fixed length
createBackoff({ base: "1 month" });
// @ts-expect-error surrounding whitespace
Policy.fixed(" 5s");
// @ts-expect-error unchecked text must go through parse()
toMs(String("5 minutes"));
` + TEMPLATES;

// A real Standard Schema consumer reads RANDOM_STATE_SCHEMA's types: parseSafe's value is a RandomState.
const SCHEMA = String.raw`
import { parseSafe } from "@remix-run/data-schema";
import { RANDOM_STATE_SCHEMA, restoreRandom, type RandomState } from "backoff-wasm/random";
import * as root from "backoff-wasm";
const parsed = parseSafe(RANDOM_STATE_SCHEMA, JSON.parse('{"seed":7,"words":[1,2,3,4]}'));
export const state: RandomState | undefined = parsed.success ? parsed.value : undefined;
export const next: number | undefined = parsed.success ? restoreRandom(parsed.value).next() : undefined;
export const same: boolean = root.RANDOM_STATE_SCHEMA === RANDOM_STATE_SCHEMA;
if (parsed.success) {
  // @ts-expect-error the parsed words are numbers, not strings
  const word: string = parsed.value.words[0];
  void word;
}
`;

const INTERNALS = String.raw`
// Only the exports map's entry points and public names are reachable.
// @ts-expect-error dist files are not entry points
import type {} from "backoff-wasm/dist/esm/index.js";
// @ts-expect-error /policy exports only Backoff
import { createBackoff } from "backoff-wasm/policy";
// @ts-expect-error internal helpers are not public
import { STREAM } from "backoff-wasm/random";
export const unused = [createBackoff, STREAM];
`;

const REQUIRE = String.raw`
// CommonJS style: import = require.
import sigil = require("backoff-wasm/sigil");
import backoff = require("backoff-wasm/backoff");
import random = require("backoff-wasm/random");
import duration = require("backoff-wasm/duration");
import policy = require("backoff-wasm/policy");
import root = require("backoff-wasm");
const e: unknown = new sigil.SigilError("invalid_argument", "x");
export const values: number[] = [
  sigil.retrySchedule()[0] ?? 0,
  backoff.createBackoff({ base: "1 second" }).delay(3),
  random.createRandom(42).next(),
  duration.toMs("5 minutes"),
  policy.Backoff.fixed(1).delay(1),
  root.parseDuration("1s").status === "success" ? 1 : 0,
  e instanceof root.SigilError ? 1 : 0,
];
// @ts-expect-error a misspelt duration does not compile here either
backoff.createBackoff({ base: "5 minuts" });
`;

// TypeScript's defaults (no tsconfig: target ES5, module commonjs, so node10 resolution,
// which reads `typesVersions`, not `exports`), with every subpath imported.
const NODE10 = `
import { nextDelayMs } from "backoff-wasm/sigil";
import { createBackoff, Backoff } from "backoff-wasm/backoff";
import { createRandom } from "backoff-wasm/random";
import { parse } from "backoff-wasm/duration";
import { Backoff as Policy } from "backoff-wasm/policy";
import { scheduleSvg } from "backoff-wasm/chart";
import { retry } from "backoff-wasm/retry";
import { retryMessage } from "backoff-wasm/queues";
import * as root from "backoff-wasm";
const b: Backoff = createBackoff({ base: 100 });
const p: Policy = Policy.exponential(100);
export const out: (number | string)[] = [nextDelayMs(1), b.delay(1), p.delay(1), createRandom(1).next(), parse("1s").status,
  scheduleSvg(p.maxAttempts(3)).length, typeof retry, typeof retryMessage, root.MAX_ATTEMPTS];
// @ts-expect-error a look-alike object is not a policy: the class stays nominal
export const fake: Backoff = { delay: (n: number) => n, at: (n: number) => n };
`;

const COMPILER = {
  target: "ES2022",
  strict: true,
  noEmit: true,
  lib: ["ES2022"],
  types: [],
  skipLibCheck: false,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  forceConsistentCasingInFileNames: true,
};
const NODE_FILES = ["esm.mts", "cjs.cts", "internals.mts", "internals.cts", "require.cts", "schema.mts"];
const tsconfig = (module, moduleResolution, files) =>
  JSON.stringify({ compilerOptions: { ...COMPILER, module, moduleResolution }, files }, null, 2) + "\n";

const consumer = () =>
  project("typescript", {
    dependencies: VERSIONS,
    files: {
      "esm.mts": BODY,
      "cjs.cts": BODY,
      "bundler.ts": BODY,
      "internals.mts": INTERNALS,
      "internals.cts": INTERNALS,
      "internals.ts": INTERNALS,
      "require.cts": REQUIRE,
      "schema.mts": SCHEMA,
      "schema.ts": SCHEMA,
      "tsconfig.node16.json": tsconfig("node16", "node16", NODE_FILES),
      "tsconfig.nodenext.json": tsconfig("nodenext", "nodenext", NODE_FILES),
      "tsconfig.bundler.json": tsconfig("esnext", "bundler", ["bundler.ts", "internals.ts", "schema.ts"]),
      "node10.ts": NODE10,
      "tsconfig.node10.json": JSON.stringify({
        compilerOptions: { ...COMPILER, target: "ES5", module: "commonjs", moduleResolution: "node10" }, files: ["node10.ts"],
      }, null, 2) + "\n",
    },
  });

for (const mode of ["node16", "nodenext", "bundler", "node10"]) {
  test(`tsc --strict --noEmit, moduleResolution ${mode}: every export type-checks, wrong options do not`, () => {
    const { dir } = consumer();
    const tsc = join(dir, "node_modules", "typescript", "bin", "tsc");
    // One run: type-check, and list which declaration files were read.
    const r = spawnSync(process.execPath, [tsc, "-p", `tsconfig.${mode}.json`, "--strict", "--noEmit", "--pretty", "false", "--listFiles"],
      { cwd: dir, encoding: "utf8" });
    const lines = r.stdout.split("\n");
    assert.deepEqual(lines.filter((l) => / error TS\d+/.test(l)), [], r.stderr);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const ours = [...new Set(lines.filter((l) => l.includes("node_modules/backoff-wasm/"))
      .map((l) => l.replace(/^.*node_modules\/backoff-wasm\//, "").replace(/\/[^/]+$/, "")))].sort();
    // require reads the CommonJS declarations, import the ESM ones; node10 is CommonJS.
    const trees = { node16: ["dist/types", "dist/types/esm"], nodenext: ["dist/types", "dist/types/esm"], bundler: ["dist/types/esm"], node10: ["dist/types"] };
    assert.deepEqual(ours, trees[mode], "declarations in the module format of each consumer file");
  });
}

// The package's ESM build has named exports only. Under nodenext a default import of it
// must not type-check (Node refuses it: "does not provide an export named 'default'"), as
// the ESM declarations say; CommonJS declarations read from ESM would let it through.
const DEFAULT_IMPORT = `import backoff from "backoff-wasm";
export const delay: number = backoff.createBackoff({ base: 100 }).delay(1);
`;

test("nodenext: a default import of the ESM build fails tsc (TS1192) as it fails in Node", () => {
  const { dir } = project("typescript-default-import", {
    dependencies: { typescript: VERSIONS.typescript },
    files: {
      "default.mts": DEFAULT_IMPORT,
      "tsconfig.json": tsconfig("nodenext", "nodenext", ["default.mts"]),
      "run.mjs": `import("backoff-wasm").then(() => console.log("loaded"), (e) => console.log(e.name));\n` +
        `import("./default.mjs").then(() => console.log("loaded"), (e) => console.log(e.name + ": " + e.message));\n`,
      "default.mjs": DEFAULT_IMPORT.replace(": number", ""),
    },
  });
  const tsc = join(dir, "node_modules", "typescript", "bin", "tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir, encoding: "utf8" });
  assert.deepEqual(r.stdout.trim().split("\n"),
    [`default.mts(1,8): error TS1192: Module '"${join(dir, "node_modules", "backoff-wasm", "dist", "types", "esm", "index")}"' has no default export.`]);
  assert.equal(r.status, 2);
  const node = spawnSync(process.execPath, ["run.mjs"], { cwd: dir, encoding: "utf8" });
  assert.deepEqual(node.stdout.trim().split("\n").sort(),
    ["SyntaxError: The requested module 'backoff-wasm' does not provide an export named 'default'", "loaded"]);
});
