/**
 * The request timeout of every GitHub request (deadline.ts timedFetch) fires after a garbage collection
 * too. `AbortSignal.any` holds its sources weakly, and on Node.js 20 an `AbortSignal.timeout` that nothing
 * else holds is collected with its timer: a request GitHub accepts and never answers then waited for the
 * review's deadline (or forever, outside a review) once a GC had run, which a loaded test run made likely.
 */
import { describe, expect, it } from "vitest";
import { scaledClock } from "../../../src/github/api/clock.js";
import { timedFetch } from "../../../src/github/api/deadline.js";
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
