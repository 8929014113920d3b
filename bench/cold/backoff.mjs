// Cold start of backoff-wasm/backoff (Node ESM tree): import (reads and compiles the wasm) + first delay().
import { createBackoff } from "../../pkg/dist/esm/backoff.js";
if (createBackoff({ base: 1000 }).delay(3) !== 4000) process.exit(1);
