/**
 * What a failed GitHub request means: its HTTP status, words a person can act on, and whether trying
 * again may help. The review pipeline and the CLI share these.
 */

/** The HTTP status of a failed request (Octokit's RequestError), or undefined (network failure, other errors). */
export function httpStatus(e: unknown): number | undefined {
  const status = (e as { status?: unknown } | null | undefined)?.status;
  return typeof status === "number" ? status : undefined;
}

function firstLine(e: unknown): string {
  return ((e as { message?: string } | null | undefined)?.message ?? String(e)).split("\n")[0] as string;
}

/** Why a request failed, in words a person can act on (permission, not found, rate limit). */
export function describeRequestError(e: unknown, what: string): string {
  const status = httpStatus(e);
  const message = firstLine(e);
  if (status === 403 && /not accessible by integration/i.test(message)) {
    return `${what}: the app lacks a permission (GitHub answered 403 "Resource not accessible by integration")`;
  }
  // Octokit gives a request that got no response (DNS, refused connection, TLS) status 500 and no `response`.
  if (status === 500 && !(e as { response?: unknown }).response)
    return `${what}: no answer from GitHub (${message})`;
  if (status !== undefined) return `${what}: GitHub answered ${status} (${message})`;
  return `${what}: ${message}`;
}

/** A review that failed for a reason that may pass (GitHub 5xx, rate limits, network, timeouts): worth retrying. */
export class TransientReviewError extends Error {
  constructor(
    message: string,
    /** GitHub did not answer in time: worth retrying soon. */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/**
 * The App could not learn its own account (`GET /app`): its review posts nothing, rather than take anyone's
 * words for its own or ignore its own. Keeps the request's status (and the request error as its cause), so
 * that a GitHub failing is still tried again.
 */
export class AppIdentityError extends Error {
  readonly status: number | undefined;
  constructor(original: unknown) {
    super(describeRequestError(original, "the App could not learn its own account (GET /app)"), {
      cause: original,
    });
    this.status = httpStatus(original);
  }
}

/** The review's deadline passed (or a request's timeout did, until GitHub gave up answering). */
export class DeadlineError extends Error {
  constructor(what = "the review") {
    super(`GitHub did not answer in time: ${what} ran out of time`);
  }
}

/**
 * Whether GitHub did not answer in time: the review's deadline passed, or a request's timeout did (Octokit
 * reports an aborted request as status 500, with the abort's reason as its cause).
 */
export function isTimeout(e: unknown): boolean {
  return causedBy(e, (x) => x instanceof DeadlineError || (x as { name?: unknown }).name === "TimeoutError");
}

/** Whether `e` or what caused it (its `cause`, and that one's, a few deep) is what `is` looks for. */
export function causedBy(e: unknown, is: (x: unknown) => boolean): boolean {
  for (let x: unknown = e, depth = 0; x && depth < 5; x = (x as { cause?: unknown }).cause, depth++)
    if (is(x)) return true;
  return false;
}

/** Whether a failure is GitHub failing or throttling (worth retrying), not a fault of the input. */
export function isTransient(e: unknown): boolean {
  if (isTimeout(e) || e instanceof TransientReviewError) return true;
  const status = httpStatus(e);
  // Octokit reports network failures and aborted requests as status 500; no status at all means the
  // error is ours (a parse or configuration error), which a retry would only repeat.
  if (status === undefined) return false;
  if (status >= 500 || status === 429) return true;
  return status === 403 && /rate limit/i.test(firstLine(e));
}

/**
 * When (epoch ms) a rate-limited answer lets the next request through, as GitHub names it: `retry-after`
 * seconds (a secondary rate limit, a 429), or the primary limit's reset (`x-ratelimit-remaining: 0`);
 * undefined for any other failure, or one that names no time.
 */
export function rateLimitedUntil(e: unknown, now = Date.now()): number | undefined {
  if (!isTransient(e) || isTimeout(e)) return undefined;
  const status = httpStatus(e);
  if (status !== 403 && status !== 429) return undefined;
  const headers = (e as { response?: { headers?: Record<string, unknown> } }).response?.headers ?? {};
  const retryAfter = Number(headers["retry-after"]);
  if (headers["retry-after"] !== undefined && Number.isFinite(retryAfter)) return now + retryAfter * 1000;
  const reset = Number(headers["x-ratelimit-reset"]);
  if (String(headers["x-ratelimit-remaining"]) === "0" && Number.isFinite(reset)) return reset * 1000;
  return undefined;
}

/** Which permission each step of a review needs, for the check summary and the log. */
export const PERMISSION = {
  config: "contents: read",
  files: "pull_requests: read",
  content: "contents: read",
  review: "pull_requests: write",
} as const;

export type Step = keyof typeof PERMISSION;

/** A request that failed during one step of a review, with the step named for the person who reads it. */
export class StepError extends Error {
  constructor(
    readonly step: Step,
    readonly original: unknown,
  ) {
    super(describeRequestError(original, step));
  }
}

/** Runs one step of a review, naming it in whatever it throws (a deadline stays a deadline). */
export async function step<T>(name: Step, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof DeadlineError) throw e;
    throw new StepError(name, e);
  }
}

/** The failure of a review, for the check summary: what went wrong and which permission may be missing. */
export function explain(e: unknown): string {
  if (e instanceof StepError) {
    const status = httpStatus(e.original);
    // A 403 that is a rate limit is no missing permission.
    const hint =
      (status === 403 && !isTransient(e.original)) || status === 404
        ? ` If the app was installed without it, grant the \`${PERMISSION[e.step]}\` permission.`
        : "";
    return `${e.message}.${hint}`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** The original error behind a step's failure. */
export function rootCause(e: unknown): unknown {
  return e instanceof StepError ? e.original : e;
}
