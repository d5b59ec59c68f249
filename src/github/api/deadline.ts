/**
 * Time limits on talking to GitHub: every request has a timeout (timedFetch), and every review a deadline
 * (`runUntil`, which aborts the review's requests when it passes: request-scope.ts carries it to them).
 * Every duration the App waits on its own is run by the review's clock (clock.ts), and is written in the time
 * budget (../time-budget.ts).
 */
import { REQUEST_TIMEOUT_MS, writeBackoffMs } from "../time-budget.js";
import type { Clock } from "./clock.js";
import { REAL_TIME } from "./clock.js";
import { DeadlineError, describeRequestError, httpStatus, isTransient, rateLimitedUntil } from "./errors.js";
import type { Logger } from "./port.js";
import { currentScope, withinDeadline } from "./request-scope.js";

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
  try {
    return await Promise.race([withinDeadline(controller.signal, deadline, fn), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits `ms`; rejects at once when the deadline `fn` runs under (runUntil) passes first. */
function pause(ms: number): Promise<void> {
  const signal = currentScope()?.signal;
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
 * thrown at once, and so is a rate limit whose wait GitHub names past that deadline: sent again meanwhile, a
 * write GitHub throttles for an hour was refused every few seconds until the deadline, the review holding its
 * scheduler slot, and its run then said GitHub did not answer. `what` names the operation in the log.
 */
export async function retryWithBackoff<T>(
  what: string,
  log: Logger,
  clock: Clock,
  fn: (attempt: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      if (!isTransient(e)) throw e;
      const limitedUntil = rateLimitedUntil(e);
      const deadline = currentScope()?.deadline;
      if (limitedUntil !== undefined && deadline !== undefined && limitedUntil > deadline) throw e;
      const wait = clock.ms(writeBackoffMs(attempt));
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
export function timedFetch(inner?: Fetch, clock: Clock = REAL_TIME): Fetch {
  return (input, init) => {
    const scope = currentScope();
    const signals = [timeoutSignal(scope?.requestTimeoutMs ?? clock.ms(REQUEST_TIMEOUT_MS))];
    if (scope?.signal) signals.push(scope.signal);
    if (init?.signal) signals.push(init.signal);
    return (inner ?? globalThis.fetch)(input, { ...init, signal: AbortSignal.any(signals) }).then(heldByBody);
  };
}

/** Where a response's body holds its response (heldByBody). */
const RESPONSE = Symbol("the response of this body");

/**
 * The response, held by its own body. Fetch cancels the body of a Response that is garbage-collected before
 * its body is read; Octokit hands over the body of a streamed answer (rest/blob.ts) and drops the Response.
 * A collection in the gap before the reading starts (Octokit's hooks await timers) ended the stream as if
 * the file ended there: on a loaded Node.js 26, a 2 MB blob read as 0 bytes (test/github/api/rest/blob.test.ts).
 */
function heldByBody(res: Response): Response {
  if (typeof res?.body === "object" && res.body !== null)
    Object.defineProperty(res.body, RESPONSE, { value: res });
  return res;
}
