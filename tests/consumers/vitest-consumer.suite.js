// A consumer's own Vitest suite, as a user of backoff-wasm writes it. The SAME
// file (byte for byte) is copied into three scratch projects and run with
// `vitest run` in Node, in headless Chromium (browser mode) and inside workerd
// (@cloudflare/vitest-pool-workers) — see tests/consumers/vitest.test.mjs.
//
// Named `*.suite.js` so that `node --test tests/consumers/` does not pick it up;
// in the scratch projects it is `test/seeded.test.js`.
//
// The pinned literals were computed once from the spec's algorithm (API.md
// sections 1–3: seed hash + sfc32, `Math.round(d * float(1 - f, 1 + f))`,
// `Math.round(capped * (1 - jitter * r))`) with an independent plain-JS
// implementation, and agree with the package in Node.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createBackoff } from "backoff-wasm/backoff";
import { createRandom } from "backoff-wasm/random";
import { nextDelayMs, retrySchedule, seededRandom } from "backoff-wasm/sigil";
import * as root from "backoff-wasm";

describe("seeded jitter is reproducible in this runtime", () => {
  it("two backoffs seeded with the same createRandom seed give the same delay(3)", () => {
    const a = createBackoff({ base: 1000, jitter: 0.2, random: createRandom("test") });
    const b = createBackoff({ base: 1000, jitter: 0.2, random: createRandom("test") });
    const da = a.delay(3);
    expect(da).toBe(b.delay(3));
    // attempt 3 is 4000 ms before jitter; ±20 % keeps it inside [3200, 4800]
    expect(da).toBeGreaterThanOrEqual(3200);
    expect(da).toBeLessThanOrEqual(4800);
    expect(da).toBe(4429);
  });

  it("a Sigil schedule with seededRandom is pinned", () => {
    expect(retrySchedule({ jitter: 0.2, random: seededRandom("delivery-1") }))
      .toEqual([927, 1795, 3522, 7701, 15690, 30895, 61860]);
  });

  it("keyed jitter (seed option) is a pure function of (seed, attempt)", () => {
    const keyed = createBackoff({ base: 1000, jitter: 0.2, seed: "test" });
    expect(keyed.delay(3)).toBe(4648);
    expect(keyed.delay(1)).toBe(1169);
    expect(keyed.delay(3)).toBe(4648); // no stream state: asking again gives the same value
  });

  it("the root entry point is the same implementation", () => {
    expect(root.createBackoff).toBe(createBackoff);
    expect(root.createBackoff({ base: 1000, jitter: 0.2, random: root.createRandom("test") }).delay(3)).toBe(4429);
  });
});

describe("Sigil's default random is Math.random, looked up at call time", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("vi.spyOn(Math, 'random') changes nextDelayMs(3, { jitter: 0.5 })", () => {
    const spy = vi.spyOn(Math, "random").mockReturnValue(1);
    expect(nextDelayMs(3, { jitter: 0.5 })).toBe(2000);
    spy.mockReturnValue(0.5);
    expect(nextDelayMs(3, { jitter: 0.5 })).toBe(3000);
    spy.mockReturnValue(0);
    expect(nextDelayMs(3, { jitter: 0.5 })).toBe(4000);
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it("without jitter no draw is taken", () => {
    const spy = vi.spyOn(Math, "random");
    expect(nextDelayMs(3)).toBe(4000);
    expect(spy).not.toHaveBeenCalled();
  });
});
