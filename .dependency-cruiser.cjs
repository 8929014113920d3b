/**
 * The module graph of js/ (dependency-cruiser; tests/hygiene/layers.test.mjs runs it in npm
 * test): no import cycle, type-only imports included, and no layer importing a layer above
 * it. The layers, in the order data flows: engine, policy, runtime, then queues, tools and
 * p-retry (the mirror, which uses the runtime's AbortError and budget type).
 * @type {import("dependency-cruiser").IConfiguration}
 */
const above = {
  engine: "^js/(policy|runtime|queues|tools|p-retry)/",
  policy: "^js/(runtime|queues|tools|p-retry)/",
  runtime: "^js/(queues|tools|p-retry)/",
  queues: "^js/tools/",
};
module.exports = {
  forbidden: [
    { name: "no-cycle", severity: "error", comment: "a module that imports itself back, directly or through others", from: {}, to: { circular: true } },
    ...Object.entries(above).map(([layer, higher]) => ({
      name: `${layer}-imports-no-higher-layer`,
      severity: "error",
      comment: `js/${layer}/ imports only its own layer and the ones below it`,
      from: { path: `^js/${layer}/` },
      to: { path: higher },
    })),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    exclude: { path: "^js/.*\\.d\\.ts$" },
  },
};
