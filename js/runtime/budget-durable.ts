/**
 * A retry budget's bucket in a Cloudflare Durable Object: the class
 * `RetryBudgetObject` and `durableObjectBudgetStore`, for `createRetryBudget({ store })`.
 * @module
 */
import type { RetryBudgetRule, RetryBudgetStore, RetryBudgetWithdrawal } from "./budget.js";
import { invalid, readable, TYPE } from "../engine/errors.js";
import { readOptions } from "../engine/options.js";

/** The Durable Object namespace binding `durableObjectBudgetStore` uses (a subset of Workers' `DurableObjectNamespace`). */
export interface DurableObjectNamespaceLike {
  /** The id of the object named `name`. */
  idFromName(name: string): unknown;
  /** A stub of the object `id`, whose `fetch` sends it a request. */
  get(id: never): { fetch(input: string, init?: { method?: string }): PromiseLike<ResponseLikeBudget> };
}

/** What `durableObjectBudgetStore` reads of the object's answer (a `Response`). */
export interface ResponseLikeBudget {
  /** HTTP status; 200 when the step was applied. */
  readonly status: number;
  /** The body: `"<charged 1|0> <balance>"`. */
  text(): PromiseLike<string>;
}

/** Options of `durableObjectBudgetStore`. */
export interface DurableObjectBudgetStoreOptions {
  /** The object's name (`namespace.idFromName(name)`), one per shared budget, e.g. `"payments"`. */
  name: string;
}

/** The query parameters of a step: units, reserve, windowMs, op ("d" deposit, "w" withdrawal). */
const URL_BASE = "https://retry-budget.invalid/";

/**
 * A Durable Object class holding retry budgets in memory, one bucket per object
 * (name it after the budget). Export it from the Worker's main module and bind it
 * (`[[durable_objects.bindings]] name = "RETRY_BUDGET", class_name = "RetryBudgetObject"`,
 * with a migration `new_sqlite_classes = ["RetryBudgetObject"]`); then
 * `durableObjectBudgetStore(env.RETRY_BUDGET, { name })` reaches it. It is a plain
 * class answering `fetch` (it does not extend `DurableObject` from
 * `cloudflare:workers`, so the package loads outside Workers too). Steps run one at a
 * time, timed by `Date.now()` in the object. The bucket lives in memory, not in
 * storage: when the runtime evicts an idle object (or restarts it), the bucket starts
 * again full, as it would after a window without traffic.
 */
export class RetryBudgetObject {
  /**
   * Types only (no value at run time): the mark @cloudflare/workers-types' `Rpc.DurableObjectBranded`
   * looks for, so that `DurableObjectNamespace<RetryBudgetObject>` type-checks (as for a class
   * extending `DurableObject`) and can be passed to `durableObjectBudgetStore`.
   */
  declare readonly __DURABLE_OBJECT_BRAND: never;

  /** slice number (ms × 10 / windowMs, rounded down) → units put in that slice. */
  #cells = new Map<number, number>();

  /** Called by the runtime with the object's state and the Worker's env (neither is used). */
  constructor(_state?: unknown, _env?: unknown) {}

  /**
   * One step on the bucket: `POST /?op=d|w&units=&reserve=&windowMs=` (what
   * `durableObjectBudgetStore` sends; the runtime passes a `Request`). Answers a `Response`:
   * 200 `"<charged 1|0> <balance>"`, or 400 naming a bad parameter.
   */
  async fetch(request: { readonly url: string }): Promise<ResponseLikeBudget> {
    const q = new URL(request.url).searchParams;
    const bad: string[] = [];
    /** A parameter's number when it is one in [min, max] (an integer when `whole`), else noted in `bad`. */
    const param = (name: string, min: number, max: number, whole: boolean) => {
      const raw = q.get(name);
      const v = Number(raw);
      if (raw !== null && raw !== "" && (whole ? Number.isSafeInteger(v) : Number.isFinite(v)) && v >= min && v <= max) return v;
      bad.push(`${name} ${raw === null ? "missing" : JSON.stringify(raw)}`);
      return undefined;
    };
    const op = q.get("op");
    if (op !== "d" && op !== "w") bad.push(`op ${op === null ? "missing" : JSON.stringify(op)}`);
    const units = param("units", 0, Number.MAX_SAFE_INTEGER, true);
    const reserve = param("reserve", 0, Number.MAX_SAFE_INTEGER, true);
    const windowMs = param("windowMs", 1000, 60_000, false);
    if ((op !== "d" && op !== "w") || units === undefined || reserve === undefined || windowMs === undefined) {
      return new Response(`expected op=d|w, units and reserve (non-negative integers), windowMs (1000 to 60000); received ${bad.join(", ")}`, { status: 400 });
    }
    const now = Math.floor((Date.now() * 10) / windowMs);
    let sum = 0;
    for (const [slice, n] of this.#cells) {
      if (slice <= now - 10) this.#cells.delete(slice);
      else sum += n;
    }
    let charged = 1;
    let change = units;
    if (op === "w") {
      if (reserve + sum >= units) change = -units;
      else [charged, change] = [0, 0];
    }
    if (change !== 0) {
      this.#cells.set(now, (this.#cells.get(now) ?? 0) + change);
      sum += change;
    }
    return new Response(`${charged} ${reserve + sum}`);
  }
}

/**
 * A store for `createRetryBudget({ store })` in a Cloudflare Worker: the bucket is
 * the `RetryBudgetObject` named `name` in `namespace`, so every isolate and every
 * invocation that uses the same name shares one budget. One request to the object per
 * deposit and per withdrawal. A deposit is not awaited by `retry`: an invocation that
 * ends first may lose it (the budget then pays for fewer retries, never more).
 *
 * @param namespace the Durable Object binding of `RetryBudgetObject` (`env.RETRY_BUDGET`).
 * @param options see {@link DurableObjectBudgetStoreOptions}.
 * @throws TypeError when `namespace` has no `idFromName`/`get`, or `name` is not a non-empty string.
 * @example
 * export { RetryBudgetObject } from "backoff-wasm/retry";
 * let budget;
 * // in fetch(request, env):
 * budget ??= createRetryBudget({ ratio: 0.1, store: durableObjectBudgetStore(env.RETRY_BUDGET, { name: "payments" }) });
 */
export function durableObjectBudgetStore(namespace: DurableObjectNamespaceLike, options: DurableObjectBudgetStoreOptions): RetryBudgetStore {
  const ok = readable("namespace", "a Durable Object namespace that can be read", namespace, () =>
    typeof namespace === "object" && namespace !== null && typeof namespace.idFromName === "function" && typeof namespace.get === "function");
  if (!ok) throw invalid(TYPE, "namespace", "a Durable Object namespace (env binding with idFromName and get)", namespace);
  // The one options reader (by name, once): a revoked Proxy, a throwing getter, an array or an
  // unknown key is the package's TypeError.
  if (options === undefined) throw invalid(TYPE, "options", "an object", options);
  const o = readOptions(options, ["name"]);
  const name = o.name;
  if (typeof name !== "string" || name === "") throw invalid(TYPE, "name", "a non-empty string", name);
  let id: unknown;
  const step = async (op: "d" | "w", units: number, rule: RetryBudgetRule): Promise<RetryBudgetWithdrawal> => {
    id ??= namespace.idFromName(name);
    // A stub per step: a stub made while serving one request is not used for another's I/O.
    const stub = namespace.get(id as never);
    const url = `${URL_BASE}?op=${op}&units=${units}&reserve=${rule.reserve}&windowMs=${rule.windowMs}`;
    const res = await stub.fetch(url, { method: "POST" });
    const body = await res.text();
    const m = res.status === 200 ? /^([01]) (-?\d+)$/.exec(body) : null;
    if (!m) throw new Error(`the retry budget object answered ${res.status} ${JSON.stringify(body.slice(0, 200))}`);
    return { charged: m[1] === "1", balance: Number(m[2]) };
  };
  return {
    deposit: (units, rule) => step("d", units, rule),
    withdraw: (units, rule) => step("w", units, rule),
  };
}
