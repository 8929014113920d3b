// Test helper: the package's wasm memory, observed from outside. Import this module
// BEFORE the package (modules evaluate in import order): it wraps the
// WebAssembly.Instance constructor, so the instance a loader creates is recorded
// and the package needs no test-only export.
const instances = [];
WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    instances.push(instance);
    return instance;
  },
});

/** Bytes of the linear memory of the (one) wasm instance created since this module loaded. */
export function wasmMemoryBytes() {
  if (instances.length !== 1) throw new Error(`expected one wasm instance, saw ${instances.length}`);
  return instances[0].exports.memory.buffer.byteLength;
}
