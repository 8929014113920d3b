// Test helper: Miniflare (workerd), imported once for the tests that run a Worker in it.
// `Miniflare` is undefined and `missing` says why when the devDependency cannot be imported;
// each test then skips only outside CI (with CI=true it fails instead).
let Miniflare;
let missing;
try {
  ({ Miniflare } = await import("miniflare"));
} catch (e) {
  missing = `miniflare cannot be imported (${e.message}); run npm ci`;
}

export { Miniflare, missing };
