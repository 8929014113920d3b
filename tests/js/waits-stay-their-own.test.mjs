// API.md section 13 (shared with headless Chromium: cases/waits-stay-their-own.mjs), run in
// Node: no other call, nested call, failed construction or other Sigil options change a
// policy's waits.
import { runCasesInNode } from "./run-cases-node.mjs";
import cases from "./cases/waits-stay-their-own.mjs";

await runCasesInNode("waits stay their own", cases);
