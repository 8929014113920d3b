// A server cannot stall its caller through the fields whose waits the runtime reads:
// `Retry-After`, `RateLimit`, `RateLimit-Reset` and `X-RateLimit-Reset` are parsed in time
// linear in the value's length. Each hostile value is parsed in a child process that the test
// kills after a bound (60 s) that only super-linear time can reach: the values are large
// enough that a quadratic reader needs minutes and an exponential one years, while a linear
// reader needs milliseconds. A blocked event loop could not run a timer of its own, hence
// the child. The answers are exact: what the field means, or `undefined` for a value that
// does not parse.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { listen } from "./server.mjs";
import { fileURLToPath } from "node:url";

const RETRY = fileURLToPath(new URL("../../pkg/dist/esm/retry.js", import.meta.url));
const SERVER = fileURLToPath(new URL("./server.mjs", import.meta.url));
const BOUND_MS = 60_000;
const NOW = 1_700_000_000_000;
const MIB = 1 << 20;

/** Runs `source` (an ES module body with `m`, the /retry entry, in scope) in a child Node; its stdout parsed as JSON. */
function inChild(source) {
  const program = `import(${JSON.stringify(RETRY)}).then(async (m) => { const out = await (async () => { ${source} })(); process.stdout.write(JSON.stringify(out === undefined ? "undefined" : out)); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", program], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), BOUND_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (signal === "SIGKILL") reject(new Error(`still parsing after ${BOUND_MS} ms: super-linear time`));
      else if (code !== 0) reject(new Error(`child exited ${code}: ${err}`));
      else resolve(JSON.parse(out));
    });
  });
}

/** `serverDelayMs` of one field in a child; `"undefined"` stands for `undefined`. */
const serverDelay = (name, value) => inChild(`return m.serverDelayMs({ ${JSON.stringify(name)}: ${value} }, ${NOW});`);
/** `retryAfterMs` of a value in a child. */
const retryAfter = (value) => inChild(`return m.retryAfterMs(${value}, ${NOW});`);

const ratelimitCases = {
  // A bare item, 27 to 1 000 byte-sequence parameters, then a stray quote: not a list.
  "27 :a: parameters then a stray quote": ['"\\"x\\";r=0;t=1" + ";a=:a:".repeat(27) + "\\""', "undefined"],
  "190 :a: parameters then a stray quote": ['"\\"x\\";r=0;t=1" + ";a=:a:".repeat(190) + "\\""', "undefined"],
  "1 000 :a: parameters then a stray quote": ['"\\"x\\";r=0;t=1" + ";a=:a:".repeat(1000) + "\\""', "undefined"],
  "1 000 :a: parameters, well formed": ['"\\"x\\";r=0;t=7" + ";a=:a:".repeat(1000)', 7000],
  "10 000 members, the last at r=0": ['"\\"a\\";r=1;t=1, ".repeat(10000) + "\\"b\\";r=0;t=3"', 3000],
  "10 000 members then a trailing comma": ['"\\"a\\";r=0;t=1, ".repeat(10000)', "undefined"],
  "1 MiB of spaces inside a member": [`'"a";r=0;t=1' + " ".repeat(${MIB}) + "x"`, "undefined"],
  "1 MiB of tabs then a member": [`"\\t".repeat(${MIB}) + '"a";r=0;t=2'`, 2000],
  "1 MiB of commas": [`",".repeat(${MIB})`, "undefined"],
  "1 MiB of escapes in an unclosed string": [`'"' + '\\\\"'.repeat(${MIB / 2})`, "undefined"],
  "1 MiB of escapes in a closed string": [`'"' + '\\\\"'.repeat(${MIB / 2}) + '";r=0;t=4'`, 4000],
  "1 MiB of digits as t": [`'"a";r=0;t=' + "9".repeat(${MIB})`, "undefined"],
  "1 MiB of colons": [`":".repeat(${MIB})`, "undefined"],
  "1 MiB token then a stray quote": [`"a".repeat(${MIB}) + '"'`, "undefined"],
};
for (const [name, [value, want]] of Object.entries(ratelimitCases)) {
  test(`RateLimit: ${name} parses in linear time, exactly`, async () => {
    assert.deepEqual(await serverDelay("ratelimit", value), want);
  });
}

const retryAfterCases = {
  "1 MiB of spaces before junk": [`"5" + " ".repeat(${MIB}) + "x"`, "undefined"],
  "1 MiB of tabs before junk": [`"5" + "\\t".repeat(${MIB}) + "x"`, "undefined"],
  "1 MiB of spaces around a number": [`" ".repeat(${MIB}) + "5" + " ".repeat(${MIB})`, 5000],
  "1 MiB of spaces inside a date": [`"Sun, 06 Nov 1994" + " ".repeat(${MIB}) + "08:49:37 GMT"`, "undefined"],
  "1 MiB of spaces around a date": [`" ".repeat(${MIB}) + "Sun, 06 Nov 1994 08:49:37 GMT" + "\\t".repeat(${MIB})`, 0],
  "1 MiB of digits": [`"9".repeat(${MIB})`, null], // Infinity, which JSON writes as null
  "1 MiB of commas": [`",".repeat(${MIB})`, "undefined"],
};
for (const [name, [value, want]] of Object.entries(retryAfterCases)) {
  test(`Retry-After: ${name} parses in linear time, exactly`, async () => {
    assert.deepEqual(await retryAfter(value), want);
  });
}

test("RateLimit-Reset and X-RateLimit-Reset: 1 MiB of spaces around or before junk parse in linear time", async () => {
  assert.deepEqual(await serverDelay("ratelimit-reset", `" ".repeat(${MIB}) + "12" + " ".repeat(${MIB})`), 12_000);
  assert.deepEqual(await serverDelay("ratelimit-reset", `"1" + " ".repeat(${MIB}) + "x"`), "undefined");
  assert.deepEqual(await serverDelay("x-ratelimit-reset", `"45" + "\\t".repeat(${MIB}) + "y"`), "undefined");
});

test("fetchWithRetry against a server sending hostile RateLimit and Retry-After fields settles within its deadline", async () => {
  // Values a real HTTP client delivers (below its 16 KiB header limit): the old reader of the
  // RateLimit field needed hours for the first; the whole call runs in the child, with the server.
  const result = await inChild(`
    const { listen } = await import(${JSON.stringify(SERVER)});
    const hostile = [
      { ratelimit: '"x";r=0;t=1' + ";a=:a:".repeat(200) + '"' },
      { "retry-after": "5" + " ".repeat(8000) + "x" },
      { ratelimit: '"x";r=0;t=1' + " ".repeat(8000) + "x" },
    ];
    let n = 0;
    const server = await listen((req, res) => { res.writeHead(429, hostile[n++ % hostile.length]).end("limited"); });
    try {
      const res = await m.fetchWithRetry(server.url + "/", undefined, { policy: 0, retries: 2, deadline: { afterMs: 30000 } });
      return { status: res.status, body: await res.text(), hits: n };
    } finally {
      await server.close();
    }
  `);
  // The hostile fields ask for no wait (they do not parse), so each 429 is an ordinary failure,
  // retried twice; the last response is the caller's.
  assert.deepEqual(result, { status: 429, body: "limited", hits: 3 });
});

test("the hostile server of the test above is what a real client delivers (values under the header limit reach fetch)", async () => {
  const server = await listen((req, res) => res.writeHead(429, { ratelimit: '"x";r=0;t=1' + ";a=:a:".repeat(200) + '"' }).end());
  try {
    const res = await fetch(`${server.url}/`);
    assert.equal(res.headers.get("ratelimit").length, 11 + 6 * 200 + 1);
  } finally {
    await server.close();
  }
});
