// API.md contract cases for /policy (shared with headless Chromium: cases/policy.mjs), run in Node.
import { runCasesInNode } from "./run-cases-node.mjs";
import cases from "./cases/policy.mjs";

await runCasesInNode("policy", cases);
