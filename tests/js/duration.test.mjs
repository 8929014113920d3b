// API.md contract cases for /duration (shared with headless Chromium: cases/duration.mjs), run in Node.
import { runCasesInNode } from "./run-cases-node.mjs";
import cases from "./cases/duration.mjs";

await runCasesInNode("duration", cases);
