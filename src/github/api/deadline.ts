/**
 * Time limits on talking to GitHub: every request has a timeout, and every review a deadline. The
 * deadline travels with the review through AsyncLocalStorage, so that every request the review makes
 * (whichever Octokit instance, REST or GraphQL) is aborted when it passes, without threading a signal
 * through each call. Entry points choose the deadline: the server keeps the default, the Lambda worker
 * uses the invocation's remaining time less a margin.
 *
 * Every duration the App waits on its own goes through `scaled`: tests run the clocks faster
 * (`setTimeScale`), so that minutes of GitHub failing take seconds, with the production mechanisms.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { DeadlineError, describeRequestError, httpStatus, isTransient } from "./errors.js";
import type { Logger } from "./types.js";

/** A review on the server must end within this (GitHub answers a healthy review in seconds). */
export const REVIEW_DEADLINE_MS = 120_000;
/** One request GitHub has not answered within this is aborted (undici's own default is 300 s). */
export const REQUEST_TIMEOUT_MS = 20_000;
/** What completing the check run may take after the review's deadline passed (the failure report). */
export const REPORT_TIMEOUT_MS = 10_000;

/** A failed write is tried again after this, then after twice as long each time, up to the cap. */
export const BACKOFF_MS = 1_000;
export const BACKOFF_CAP_MS = 16_000;

let timeScale = 1;

/** Tests run the App's clocks faster: every duration the App waits on its own is multiplied by `factor`. */
export function setTimeScale(factor: number): void {
  timeScale = factor;
}

/** A duration of the App's (a deadline, a timeout, a backoff), as the clocks run now. */
export function scaled(ms: number): number {
  return ms * timeScale;
}

/** How long to wait before try `attempt + 1` of a write that failed (BACKOFF_MS doubling, capped). */
function backoff(attempt: number): number {
  return scaled(Math.min(BACKOFF_CAP_MS, BACKOFF_MS * 2 ** attempt));
}

interface Budget {
  /** Aborted when the review's deadline passes. */
  signal: AbortSignal;
  /** Milliseconds a request may take (never more than is left of the deadline). */
  requestTimeoutMs: number;
}

const current = new AsyncLocalStorage<Budget>();
/** The time (epoch ms) by which an entry point needs the reviews it starts finished (the Lambda worker). */
const chosen = new AsyncLocalStorage<number>();

/** Runs `fn` (an entry point's work) so that the reviews it starts end by `endsAt` (epoch ms). */
export function withReviewsEndingBy<T>(endsAt: number, fn: () => Promise<T>): Promise<T> {
  return chosen.run(endsAt, fn);
}

/** When (epoch ms) a review started now must end: REVIEW_DEADLINE_MS from now, or sooner when its entry point must. */
export function reviewDeadline(): number {
  const full = Date.now() + scaled(REVIEW_DEADLINE_MS);
  const endsAt = chosen.getStore();
  return endsAt === undefined ? full : Math.min(full, endsAt);
}

/**
 * Runs `fn` until `deadline` (epoch ms): requests it makes are aborted at the deadline and the promise
 * rejects with a DeadlineError then, even if `fn` is stuck on something that is not a request.
 */
export async function runUntil<T>(
  deadline: number,
  fn: () => Promise<T>,
  opts: { what?: string } = {},
): Promise<T> {
  const ms = Math.max(0, deadline - Date.now());
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
    requestTimeoutMs: Math.min(scaled(REQUEST_TIMEOUT_MS), ms),
  };
  try {
    return await Promise.race([current.run(budget, fn), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits `ms`; rejects at once when the deadline `fn` runs under (runUntil) passes first. */
function pause(ms: number): Promise<void> {
  const signal = current.getStore()?.signal;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/**
 * Runs `fn` (attempt 0, 1, …) until it succeeds, trying again with backoff while GitHub fails (5xx, rate
 * limits, no answer: isTransient), until the deadline it runs under (runUntil) rejects. Any other failure is
 * thrown at once. `what` names the operation in the log.
 */
export async function retryWithBackoff<T>(
  what: string,
  log: Logger,
  fn: (attempt: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      if (!isTransient(e)) throw e;
      const wait = backoff(attempt);
      log.warn(
        { status: httpStatus(e) },
        `${describeRequestError(e, what)}; trying again in ${Math.round(wait) / 1000} s`,
      );
      await pause(wait);
    }
  }
}

type Fetch = typeof globalThis.fetch;

/**
 * A signal aborted with a "TimeoutError" after `ms`. Not `AbortSignal.timeout`: `AbortSignal.any` holds its
 * sources weakly, and on Node.js 20 a timeout signal that nothing else holds is garbage-collected with its
 * timer, so a request GitHub never answers would wait for the deadline (or forever) after any GC. Here the
 * pending timer holds the controller; unref'd, so that it never keeps a CLI process alive.
 */
function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(
    () => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
    ms,
  ).unref();
  return controller.signal;
}

/**
 * A fetch that gives up after the request timeout or at the review's deadline, whichever comes first.
 * Octokit turns the abort into an error with status 500, which its retry plugin may retry while the
 * deadline allows.
 */
export function timedFetch(inner?: Fetch): Fetch {
  return (input, init) => {
    const budget = current.getStore();
    const signals = [timeoutSignal(budget?.requestTimeoutMs ?? scaled(REQUEST_TIMEOUT_MS))];
    if (budget) signals.push(budget.signal);
    if (init?.signal) signals.push(init.signal);
    return (inner ?? globalThis.fetch)(input, { ...init, signal: AbortSignal.any(signals) });
  };
}
