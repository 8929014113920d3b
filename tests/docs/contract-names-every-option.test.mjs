// docs/API.md, the contract, names every option a mirrored entry point's options object takes in
// that entry point's section: the options are the ones the package's own unknown-option error
// lists (so a new option the code reads and the contract leaves out fails here).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { nextDelayMs } from "../../pkg/dist/esm/sigil.js";
import { createBackoff } from "../../pkg/dist/esm/backoff.js";

const api = readFileSync(new URL("../../docs/API.md", import.meta.url), "utf8");

/** The text of the section of docs/API.md whose heading starts with `heading`. */
function section(heading) {
  const at = api.indexOf(`\n${heading}`);
  assert.ok(at >= 0, `docs/API.md has a section "${heading}"`);
  const end = api.indexOf("\n## ", at + 1);
  return api.slice(at, end < 0 ? undefined : end);
}

/** The option names the unknown-option error of `call` lists (`… one of a, b, c; received "x"`). */
function optionsOf(call) {
  let message;
  try {
    call({ notAnOption: 1 });
  } catch (e) {
    message = e.message;
  }
  const m = /one of ([\w, ]+); received/.exec(message ?? "");
  assert.ok(m, `an unknown option is refused with the list of options: ${message}`);
  return m[1].split(", ");
}

for (const [heading, call] of [
  ["## 1. `/sigil`", (o) => nextDelayMs(1, o)],
  ["## 2. `/backoff`", (o) => createBackoff({ base: 1, ...o })],
]) {
  test(`docs/API.md "${heading}" names every option the entry point takes`, () => {
    const text = section(heading);
    const options = optionsOf(call);
    assert.ok(options.length >= 6, `options: ${options}`);
    assert.deepEqual(options.filter((o) => !text.includes(`\`${o}\``)), []);
  });
}
