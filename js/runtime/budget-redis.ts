/**
 * `redisBudgetStore`: a retry budget's bucket in Redis, for `createRetryBudget({ store })`.
 * @module
 */
import type { RetryBudgetRule, RetryBudgetStore, RetryBudgetWithdrawal } from "./budget.js";
import { invalid, readable, TYPE } from "../engine/errors.js";
import { readOptions } from "../engine/options.js";

/**
 * The Redis clients `redisBudgetStore` takes, by the one method it calls:
 * an ioredis `Redis` or `Cluster` (`evalsha`/`eval`), or a node-redis v4+ client from
 * `createClient()` or `createClientPool()` (`sendCommand(args)`). node-redis's
 * `createCluster()` and `createSentinel()` clients are refused (a TypeError): their
 * `sendCommand` takes other arguments; ioredis covers a Redis Cluster and Sentinel.
 */
export type RedisClientLike =
  | {
      evalsha(sha: string, numkeys: number, ...args: (string | number)[]): PromiseLike<unknown>;
      eval(script: string, numkeys: number, ...args: (string | number)[]): PromiseLike<unknown>;
    }
  | { sendCommand(args: string[]): PromiseLike<unknown> };

/** Options of `redisBudgetStore`. */
export interface RedisBudgetStoreOptions {
  /** The Redis key of the bucket (a hash), one per shared budget, e.g. `"retry-budget:payments"`. */
  key: string;
}

/**
 * One step on the bucket, atomic (one script run). The hash's fields are slice numbers
 * (the server's `TIME` in ms × 10 / windowMs, rounded down), their values the units put
 * in that slice; slices older than the window are deleted, the key expires after two
 * windows without a change (to the ms: `PEXPIRE` takes whole ms, and a window may have a
 * fraction). A deposit writes even when it adds 0 units (the budget's check that a failing
 * server takes writes again: one out of memory or a read-only replica refuses it). ARGV: units,
 * reserve, windowMs, "d" (deposit) or "w" (withdrawal). Answers
 * { charged (1/0), reserve + units of the window after the step }.
 */
const SCRIPT = `if redis.replicate_commands then redis.replicate_commands() end
local k, u, r, w = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local t = redis.call('TIME')
local n = math.floor((t[1] * 1000 + math.floor(t[2] / 1000)) * 10 / w)
local c = redis.call('HGETALL', k)
local s = 0
for i = 1, #c, 2 do
  if tonumber(c[i]) <= n - 10 then redis.call('HDEL', k, c[i]) else s = s + tonumber(c[i + 1]) end
end
local ok = 1
if ARGV[4] == 'w' then if r + s >= u then u = -u else ok, u = 0, 0 end end
if u ~= 0 or ARGV[4] == 'd' then
  redis.call('HINCRBY', k, string.format('%.0f', n), u)
  redis.call('PEXPIRE', k, string.format('%.0f', w * 2))
  s = s + u
end
return { ok, r + s }`;

/** The script's SHA-1 in hex (the name `EVALSHA` knows it by), from Web Crypto; `undefined` without it. */
async function scriptSha1(): Promise<string | undefined> {
  const subtle = (globalThis as { crypto?: { subtle?: { digest(a: string, d: Uint8Array): Promise<ArrayBuffer> } } }).crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest("SHA-1", new TextEncoder().encode(SCRIPT)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

let scriptSha: Promise<string | undefined> | undefined;

/**
 * A store for `createRetryBudget({ store })` that keeps the bucket in Redis under
 * `key`: each deposit and each withdrawal is one atomic Lua script run, one round trip
 * (`EVALSHA`; the store's first step sends the script whole with `EVAL`, and so does
 * the step after a server restart, after its `EVALSHA` failed), timed by the Redis server's clock, so every process sharing the key
 * shares one budget. The key expires two windows after its last change. The client
 * is used as it is (its connection, retries and offline queue are the caller's); the
 * package imports no Redis library.
 *
 * @param client an ioredis `Redis`/`Cluster` instance or a node-redis v4+ client from
 *   `createClient()`/`createClientPool()` (connected by the caller).
 * @param options see {@link RedisBudgetStoreOptions}.
 * @throws TypeError when `client` is neither (a node-redis cluster or sentinel client
 *   included: the message says to use ioredis for those), or `key` is not a non-empty string
 *   (or options cannot be read).
 * @example
 * const budget = createRetryBudget({ ratio: 0.1, store: redisBudgetStore(redis, { key: "retry-budget:payments" }) });
 */
export function redisBudgetStore(client: RedisClientLike, options: RedisBudgetStoreOptions): RetryBudgetStore {
  const kind = readable("client", "a Redis client that can be read", client, () => {
    if (typeof client !== "object" || client === null) return undefined;
    const c = client as Record<string, unknown>;
    if (typeof c.evalsha === "function" && typeof c.eval === "function") return "ioredis";
    if (typeof c.sendCommand !== "function") return undefined;
    // node-redis's cluster and sentinel clients take sendCommand(firstKey, isReadonly, args) and
    // sendCommand(isReadonly, args): the command alone, as the store sends it, would fail.
    return "getSlotMaster" in c || "getSentinelNode" in c ? 0 : "node-redis";
  });
  if (!kind) throw invalid(TYPE, "client", `an ioredis instance or a node-redis (v4+) client${kind === 0 ? " from createClient() (a cluster or sentinel: use ioredis)" : ""}`, client);
  // The one options reader (by name, once): a revoked Proxy, a throwing getter, an array or an
  // unknown key is the package's TypeError.
  if (options === undefined) throw invalid(TYPE, "options", "an object", options);
  const o = readOptions(options, ["key"]);
  const key = o.key;
  if (typeof key !== "string" || key === "") throw invalid(TYPE, "key", "a non-empty string", key);
  const sha = (scriptSha ??= scriptSha1().catch(() => undefined));
  let loaded = false;
  const run = async (units: number, rule: RetryBudgetRule, op: "d" | "w"): Promise<unknown> => {
    const args = [String(units), String(rule.reserve), String(rule.windowMs), op];
    const c = client as Record<string, (...a: unknown[]) => PromiseLike<unknown>>;
    const call = (sha: string | undefined) => kind === "ioredis"
      ? (sha ? c.evalsha!.call(client, sha, 1, key, ...args) : c.eval!.call(client, SCRIPT, 1, key, ...args))
      : c.sendCommand!.call(client, sha ? ["EVALSHA", sha, "1", key, ...args] : ["EVAL", SCRIPT, "1", key, ...args]);
    // The first step of this store sends the script whole (which caches it on the server).
    if (!loaded) {
      const reply = await call(undefined);
      loaded = true;
      return reply;
    }
    const known = await sha;
    try {
      return await call(known);
    } catch (e) {
      // A server that has not run the script yet (or was restarted): send it whole, which also caches it.
      if (!known || !String((e as Error | undefined)?.message).startsWith("NOSCRIPT")) throw e;
      return await call(undefined);
    }
  };
  return {
    deposit: (units, rule) => run(units, rule, "d"),
    withdraw: async (units, rule): Promise<RetryBudgetWithdrawal> => {
      const reply = await run(units, rule, "w");
      if (!Array.isArray(reply) || reply.length !== 2) throw invalid(TYPE, "the Redis script's reply", "[charged, balance]", reply);
      return { charged: Number(reply[0]) === 1, balance: Number(reply[1]) };
    },
  };
}
