/**
 * The request timeout of every GitHub request (deadline.ts timedFetch) fires after a garbage collection
 * too. `AbortSignal.any` holds its sources weakly, and on Node.js 20 an `AbortSignal.timeout` that nothing
 * else holds is collected with its timer: a request GitHub accepts and never answers then waited for the
 * review's deadline (or forever, outside a review) once a GC had run, which a loaded test run made likely.
 */
import { describe, expect, it } from "vitest";
import { scaledClock } from "../../../src/github/api/clock.js";
import { retryWithBackoff, runUntil, timedFetch } from "../../../src/github/api/deadline.js";
import type { Logger } from "../../../src/github/api/port.js";
import { REQUEST_TIMEOUT_MS } from "../../../src/github/time-budget.js";
import { isTimeout } from "../../../src/github/api/errors.js";
import { collectGarbage } from "../../gc.js";

/** A clock on which the request timeout is 100 ms. */
const clock = scaledClock(100 / REQUEST_TIMEOUT_MS);

/** A fetch GitHub accepted and never answers: it settles only when its signal aborts. */
const unanswered: typeof fetch = (_input, init) =>
  new Promise((_, reject) => {
    const signal = init?.signal;
    signal?.addEventListener("abort", () => reject(signal.reason as Error));
  });

describe("the request timeout", () => {
  it("abandons a request that is never answered, even when a garbage collection runs while it waits", async () => {
    const request = timedFetch(unanswered, clock)("https://api.github.com/graphql", { method: "POST" });
    const outcome = request.then(
      () => "answered",
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 20));
    collectGarbage();
    // A guard, not a measure: timers fire in the order they are due, so the 100-ms timeout comes first.
    const never = new Promise((r) => setTimeout(() => r("still waiting after 2 s"), 2000).unref());
    const result = await Promise.race([outcome, never]);
    expect(isTimeout(result)).toBe(true);
    expect((result as Error).name).toBe("TimeoutError");
  });

  it("leaves a request answered in time alone, and lets the caller's own signal abort it first", async () => {
    const answered: typeof fetch = () => Promise.resolve(new Response("{}", { status: 200 }));
    expect((await timedFetch(answered, clock)("https://api.github.com/zen")).status).toBe(200);
    const caller = new AbortController();
    const request = timedFetch(unanswered, clock)("https://api.github.com/zen", { signal: caller.signal });
    caller.abort(new Error("the caller gave up"));
    await expect(request).rejects.toThrow("the caller gave up");
  });
});

describe("retryWithBackoff under a rate limit", () => {
  /** GitHub's answer to a rate-limited request, as Octokit throws it. */
  const limited = (message: string, headers: Record<string, string>) =>
    Object.assign(new Error(message), { status: 403, response: { headers } });
  const secondary =
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.";
  const log = { warn() {}, info() {}, error() {}, debug() {}, child: () => log } as unknown as Logger;
  const fast = scaledClock(0.001);

  /** Runs retryWithBackoff under a deadline 10 minutes away, `fn` failing with `error` once; its calls. */
  async function triesOf(error: Error): Promise<{ calls: number; outcome: unknown }> {
    let calls = 0;
    const outcome = await runUntil(Date.now() + 600_000, () =>
      retryWithBackoff("completing the check run", log, fast, () => {
        calls++;
        return calls === 1 ? Promise.reject(error) : Promise.resolve("written");
      }),
    ).catch((e: unknown) => e);
    return { calls, outcome };
  }

  it("does not send again a write GitHub limits past the deadline: `retry-after`, or the primary limit's reset", async () => {
    for (const error of [
      limited(secondary, { "retry-after": "3600" }),
      limited("API rate limit exceeded for installation ID 77.", {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 3600),
      }),
    ])
      expect(await triesOf(error)).toEqual({ calls: 1, outcome: error });
  });

  it("sends it again when the limit ends before the deadline, or names no time", async () => {
    for (const headers of [{ "retry-after": "1" }, {}] as Record<string, string>[])
      expect(await triesOf(limited(secondary, headers))).toEqual({ calls: 2, outcome: "written" });
  });
});
