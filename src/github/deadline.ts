/**
 * Time limits on talking to GitHub: every request has a timeout, and every review a deadline. The
 * deadline travels with the review through AsyncLocalStorage, so that every request the review makes
 * (whichever Octokit instance, REST or GraphQL) is aborted when it passes, without threading a signal
 * through each call. Entry points choose the deadline: the server keeps the default, the Lambda worker
 * uses the invocation's remaining time less a margin.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { DeadlineError } from "./errors.js";

/** A review on the server must end within this (GitHub answers a healthy review in seconds). */
export const REVIEW_DEADLINE_MS = 120_000;
/** One request GitHub has not answered within this is aborted (undici's own default is 300 s). */
export const REQUEST_TIMEOUT_MS = 20_000;
/** What the failure report after an expired deadline may take (one request, its own timeout). */
export const REPORT_TIMEOUT_MS = 10_000;

interface Budget {
  /** Aborted when the review's deadline passes. */
  signal: AbortSignal;
  /** Milliseconds a request may take (never more than is left of the deadline). */
  requestTimeoutMs: number;
}

const current = new AsyncLocalStorage<Budget>();
let defaultRequestTimeoutMs = REQUEST_TIMEOUT_MS;

/** Tests shorten the request timeout; production keeps REQUEST_TIMEOUT_MS. */
export function setRequestTimeout(ms: number): void {
  defaultRequestTimeoutMs = ms;
}
/** The time (epoch ms) by which an entry point needs the reviews it starts finished (the Lambda worker). */
const chosen = new AsyncLocalStorage<number>();

/** Runs `fn` (an entry point's work) so that the reviews it starts end by `endsAt` (epoch ms). */
export function withReviewsEndingBy<T>(endsAt: number, fn: () => Promise<T>): Promise<T> {
  return chosen.run(endsAt, fn);
}

/** The time a review started now gets: REVIEW_DEADLINE_MS, or less when its entry point must end sooner. */
export function reviewDeadlineMs(): number {
  const endsAt = chosen.getStore();
  return endsAt === undefined
    ? REVIEW_DEADLINE_MS
    : Math.max(0, Math.min(REVIEW_DEADLINE_MS, endsAt - Date.now()));
}

/**
 * Runs `fn` within `ms`: requests it makes are aborted at the deadline and the promise rejects with a
 * DeadlineError then, even if `fn` is stuck on something that is not a request.
 */
export async function runWithin<T>(
  ms: number,
  fn: () => Promise<T>,
  opts: { what?: string } = {},
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineError(opts.what);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  const budget: Budget = {
    signal: controller.signal,
    requestTimeoutMs: Math.min(defaultRequestTimeoutMs, ms),
  };
  try {
    return await Promise.race([current.run(budget, fn), expired]);
  } finally {
    clearTimeout(timer);
  }
}

type Fetch = typeof globalThis.fetch;

/**
 * A fetch that gives up after the request timeout or at the review's deadline, whichever comes first.
 * Octokit turns the abort into an error with status 500, which its retry plugin may retry while the
 * deadline allows.
 */
export function timedFetch(inner?: Fetch): Fetch {
  return (input, init) => {
    const budget = current.getStore();
    const signals = [AbortSignal.timeout(budget?.requestTimeoutMs ?? defaultRequestTimeoutMs)];
    if (budget) signals.push(budget.signal);
    if (init?.signal) signals.push(init.signal);
    return (inner ?? globalThis.fetch)(input, { ...init, signal: AbortSignal.any(signals) });
  };
}
