#!/usr/bin/env node
// The `backoff-wasm` command (see dist/esm/cli.js).
import { main } from "../dist/esm/cli.js";

process.exitCode = main(process.argv.slice(2), (s) => process.stdout.write(s + "\n"), (s) => process.stderr.write(s + "\n"));
