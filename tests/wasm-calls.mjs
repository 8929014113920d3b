// Test helper: counts the calls the package makes into its wasm exports. Import this
// module BEFORE the package (modules evaluate in import order): it wraps the
// WebAssembly.Instance constructor so that the instance a loader creates hands out
// exports whose functions count their calls (memory and globals pass through).
const counts = new Map();
WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    const exports = {};
    for (const [name, value] of Object.entries(instance.exports)) {
      exports[name] = typeof value === "function"
        ? function (...a) {
          counts.set(name, (counts.get(name) ?? 0) + 1);
          return value.apply(this, a);
        }
        : value;
    }
    return new Proxy(instance, { get: (t, k) => (k === "exports" ? exports : Reflect.get(t, k)) });
  },
});

/** Wasm export calls `f()` makes: `{ total, by: { name: count } }`. */
export function wasmCalls(f) {
  counts.clear();
  f();
  const by = Object.fromEntries(counts);
  return { total: [...counts.values()].reduce((a, b) => a + b, 0), by };
}
