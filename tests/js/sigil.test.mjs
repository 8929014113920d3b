// API.md contract cases for /sigil (shared with headless Chromium: cases/sigil.mjs), run in Node.
import { runCasesInNode } from "./run-cases-node.mjs";
import cases from "./cases/sigil.mjs";

await runCasesInNode("sigil", cases);
