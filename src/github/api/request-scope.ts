/**
 * What every GitHub request of a review shares without being passed through each call: the review's
 * deadline (its requests are aborted when it passes), the request timeout as the review's clock runs it,
 * and the one fresh installation token a review may get after a 401. Octokit's requests cannot carry
 * these (Probot builds the Octokit, and every request of every Octokit instance, REST or GraphQL, the auth
 * library's own included, goes through the fetch of octokit/octokit.ts), so they travel with the review in this
 * one AsyncLocalStorage, created here alone: `reviewScope` at the start of a review (review/pipeline.ts), and
 * `runUntil` (deadline.ts) for each stage under the deadline.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { REQUEST_TIMEOUT_MS } from "../time-budget.js";
import type { Clock } from "./clock.js";

/** A fresh installation token, asked for once per review (or once per Octokit outside a review). */
export interface TokenRefresh {
  /** The token GitHub refused. */
  refused?: string;
  /** The fresh token (undefined when there is none to have: not an installation). */
  token?: Promise<string | undefined>;
}

export interface RequestScope {
  /** Milliseconds a request may take (never more than is left of the deadline). */
  requestTimeoutMs: number;
  /** Aborted when the review's deadline passes (runUntil). */
  signal?: AbortSignal;
  /** When the review's deadline passes (epoch ms): a wait past it is not worth starting. */
  deadline?: number;
  refresh: TokenRefresh;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** The scope the current request runs in; undefined outside a review. */
export function currentScope(): RequestScope | undefined {
  return scope.getStore();
}

/**
 * A review's scope: what runs within it (its stages, whenever each runs) gets one fresh installation token
 * after a 401, whichever request meets it first, and the request timeout as `clock` runs it.
 */
export function reviewScope(clock: Clock): <T>(fn: () => Promise<T>) => Promise<T> {
  const store: RequestScope = { requestTimeoutMs: clock.ms(REQUEST_TIMEOUT_MS), refresh: {} };
  return (fn) => scope.run(store, fn);
}

/**
 * Runs `fn` within the current scope narrowed to a deadline (epoch ms) that aborts `signal`: at most what
 * is left of it a request.
 */
export function withinDeadline<T>(signal: AbortSignal, deadline: number, fn: () => Promise<T>): Promise<T> {
  const outer = scope.getStore();
  return scope.run(
    {
      requestTimeoutMs: Math.min(
        outer?.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
        Math.max(0, deadline - Date.now()),
      ),
      signal,
      deadline,
      refresh: outer?.refresh ?? {},
    },
    fn,
  );
}
