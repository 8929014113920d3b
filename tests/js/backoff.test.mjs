// API.md contract cases for /backoff (shared with headless Chromium: cases/backoff.mjs), run in Node.
import { runCasesInNode } from "./run-cases-node.mjs";
import cases from "./cases/backoff.mjs";

await runCasesInNode("backoff", cases);
