// API.md contract cases for /random (shared with headless Chromium: cases/random.mjs), run in Node.
import { runCasesInNode } from "./run-cases-node.mjs";
import cases from "./cases/random.mjs";

await runCasesInNode("random", cases);
