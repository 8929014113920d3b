#!/usr/bin/env node
// The `backoff-wasm` command (see dist/esm/cli.js).
import { main } from "../dist/esm/cli.js";

// Output that cannot be written: a reader that stopped early (`backoff-wasm schedule | head`)
// ends the command quietly; anything else (a full disk) is one line, not a stack trace.
process.stdout.on("error", (e) => {
  if (e.code === "EPIPE") process.exit(0);
  process.stderr.write(`backoff-wasm: cannot write the output: ${e.message}\n`);
  process.exit(1);
});

process.exitCode = main(process.argv.slice(2), (s) => process.stdout.write(s + "\n"), (s) => process.stderr.write(s + "\n"));
