// The fake clock of the p-retry tests: Math.random, setTimeout, clearTimeout and
// performance.now replaced for the length of one run, every draw, timer, unref and clear
// logged, so that runs of p-retry and of the mirror can be compared and no test waits real time.

/**
 * Runs `body(log, env)` with Math.random, setTimeout, clearTimeout and performance.now
 * replaced; returns the log. A timer fires on the next turn (setImmediate) unless cleared, and
 * moves the clock by its delay; `env.advance(ms)` moves it too; `env.onWait(n)` runs when the
 * n-th timer is set (1-based).
 */
export async function instrumented(draws, body) {
  const log = [];
  const real = { random: Math.random, setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, now: performance.now };
  let clock = 0;
  let i = 0;
  let timers = 0;
  const cleared = new Set();
  // numberHandles: timers are plain numbers, without unref (as in some runtimes and stubs).
  const env = { advance: (ms) => void (clock += ms), onWait: () => {}, numberHandles: false };
  Math.random = () => {
    const r = draws[i++ % draws.length];
    log.push(["draw", r]);
    return r;
  };
  globalThis.setTimeout = (cb, ms) => {
    const id = ++timers;
    log.push(["wait", ms]);
    const handle = env.numberHandles ? id : { id, unref() { log.push(["unref", id]); return handle; }, ref() { return handle; } };
    setImmediate(() => {
      if (cleared.has(id)) return;
      clock += ms;
      cb();
    });
    env.onWait(id);
    return handle;
  };
  globalThis.clearTimeout = (h) => {
    const id = typeof h === "number" ? h : h?.id;
    if (id === undefined) return real.clearTimeout(h);
    if (!cleared.has(id) && id <= timers) log.push(["clear", id]);
    cleared.add(id);
  };
  Object.defineProperty(performance, "now", { value: () => clock, configurable: true, writable: true });
  try {
    await body(log, env);
  } finally {
    Math.random = real.random;
    globalThis.setTimeout = real.setTimeout;
    globalThis.clearTimeout = real.clearTimeout;
    delete performance.now;
    if (performance.now !== real.now) Object.defineProperty(performance, "now", { value: real.now, configurable: true, writable: true });
  }
  return log;
}
