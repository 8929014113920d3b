// Test helper: the Miniflare options that load a Worker and the installed package the way
// Wrangler does (docs/guides/node-and-workers.md "Cloudflare Workers"): ES modules, `.wasm` files as precompiled
// CompiledWasm modules, one compatibility date for every workerd test.

/** Miniflare options for the module Worker `dir/script` with `dir` as its module root. */
export function workerdModules(dir, script = "worker.mjs") {
  return {
    modules: true,
    scriptPath: `${dir}/${script}`,
    modulesRoot: dir,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }, { type: "ESModule", include: ["**/*.js", "**/*.mjs"] }],
    compatibilityDate: "2025-11-01",
  };
}
