// The API reference, generated from the code:
//   - the JavaScript/TypeScript API: TypeDoc (options in typedoc.json) over the shipped ESM
//     declarations of every entry point of the exports map (pkg/dist/types/esm, so run
//     `npm run build` first), one Markdown page
//     per entry point (typedoc-plugin-markdown), committed under docs/reference/ and
//     checked against a fresh run by tests/docs/reference.test.mjs;
//   - the Rust crate: rustdoc (`cargo doc --no-deps`) into target/doc.
// Both treat every warning as an error.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Application, Converter } from "typedoc";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The entry points of the exports map, as a user imports them: ["backoff-wasm", "backoff-wasm/sigil", …]. */
export function specifiers() {
  const manifest = JSON.parse(readFileSync(new URL("../pkg/package.json", import.meta.url), "utf8"));
  return Object.keys(manifest.exports).filter((k) => k !== "./package.json")
    .map((k) => (k === "." ? "backoff-wasm" : `backoff-wasm/${k.slice(2)}`));
}

/**
 * Writes the TypeScript reference into `out` (a directory) and returns what TypeDoc
 * logged. Throws when TypeDoc reports any warning or error (typedoc.json:
 * `treatWarningsAsErrors`, validation of links and of referenced but unexported types).
 * Each page is named after its import specifier (`backoff-wasm/sigil`), not its file.
 */
export async function typescriptReference(out) {
  const logged = [];
  const entryPoints = specifiers().map((s) => `${root}pkg/dist/types/esm/${s === "backoff-wasm" ? "index" : s.slice("backoff-wasm/".length)}.d.ts`);
  const app = await Application.bootstrapWithPlugins({ options: `${root}typedoc.json`, entryPoints, out });
  const log = app.logger.log.bind(app.logger);
  app.logger.log = (message, level) => {
    logged.push(`${level}: ${message}`);
    log(message, level);
  };
  const names = Object.fromEntries(specifiers().map((s) => [s === "backoff-wasm" ? "index" : s.slice("backoff-wasm/".length), s]));
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const mod of context.project.children ?? []) {
      if (!names[mod.name]) throw new Error(`reference: a module ${mod.name} that is no entry point`);
      mod.name = names[mod.name];
    }
  });
  const project = await app.convert();
  if (!project) throw new Error(`reference: TypeDoc could not convert the declarations\n${logged.join("\n")}`);
  app.validate(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) throw new Error(`reference: TypeDoc reported problems\n${logged.join("\n")}`);
  await app.generateOutputs(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) throw new Error(`reference: TypeDoc reported problems\n${logged.join("\n")}`);
  return logged;
}

/** rustdoc for the crate (`cargo doc --no-deps`, RUSTDOCFLAGS="-D warnings"); throws with its output on failure. */
export function rustReference() {
  const r = spawnSync("cargo", ["doc", "--no-deps", "--quiet"], {
    cwd: root, encoding: "utf8", env: { ...process.env, RUSTDOCFLAGS: "-D warnings" },
  });
  if (r.error || r.status !== 0) throw new Error(`reference: cargo doc failed (${r.error ?? `exit ${r.status}`})\n${r.stdout}${r.stderr}`);
  return `${root}target/doc/backoff_wasm/index.html`;
}
