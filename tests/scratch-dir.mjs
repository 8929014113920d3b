// Where a test keeps its scratch files (tests/.scratch, gitignored). Not a test file itself.
//
// scripts/test.sh runs the Node matrix (scripts/node-matrix.mjs) beside the default Node's run, so
// the same test file can run on two Nodes at once. Each matrix run sets TEST_SCRATCH_TAG (for
// example `node22`), and every folder a test asks for here carries that tag: two runs never
// write into the same folder.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder that holds every scratch folder: tests/.scratch (absolute path). */
export const SCRATCH_ROOT = join(fileURLToPath(new URL("..", import.meta.url)), "tests", ".scratch");

/** This run's tag: TEST_SCRATCH_TAG, or "" when unset; throws an Error when it is not a plain name. */
export function scratchTag() {
  const tag = process.env.TEST_SCRATCH_TAG ?? "";
  if (tag !== "" && !/^[A-Za-z0-9_.-]+$/.test(tag)) {
    throw new Error(`TEST_SCRATCH_TAG must be letters, digits, '.', '_' or '-'; received ${JSON.stringify(tag)}`);
  }
  return tag;
}

/**
 * The absolute path of this run's scratch folder `name` (not created): tests/.scratch/<name>, or
 * tests/.scratch/<name>-<tag> when TEST_SCRATCH_TAG is set. A direct child of tests/.scratch, so
 * scripts/test.sh's removal of the consumer projects no test used sees every tagged copy too.
 */
export function scratchDir(name) {
  const tag = scratchTag();
  return join(SCRATCH_ROOT, tag ? `${name}-${tag}` : name);
}
