/**
 * The Octokit the App runs with: Probot's, whose retries (5xx) and write throttling stay on, plus
 * - a retry of secondary rate limits, which Probot's defaults only log (a review must not be lost to one);
 * - a timeout on every request, and the review's deadline (deadline.ts);
 * - one fresh installation token after a 401 (a token revoked mid-review), before giving up.
 */
import { ProbotOctokit } from "probot";
import { timedFetch } from "./deadline.js";
import { httpStatus } from "./errors.js";

/** How many times a request hit by a secondary rate limit is tried again (after GitHub's retry-after). */
export const SECONDARY_RATE_LIMIT_RETRIES = 3;

interface ThrottleOptions {
  onSecondaryRateLimit?: (
    retryAfter: number,
    options: { method: string; url: string },
    octokit: unknown,
    retryCount: number,
  ) => boolean | void;
  [k: string]: unknown;
}

type RequestOptions = { request?: Record<string, unknown>; [k: string]: unknown };
interface Hookable {
  hook: {
    wrap(
      name: "request",
      fn: (request: (o: RequestOptions) => Promise<unknown>, options: RequestOptions) => Promise<unknown>,
    ): void;
  };
  auth(options?: unknown): Promise<unknown>;
  log: { warn(msg: string): void };
}

/**
 * After a 401, asks for a new installation token (bypassing the cache) and tries the request once more.
 * Only installation tokens are refreshed: a 401 under a personal token (the CLI) or the app's JWT stands.
 */
function refreshTokenOn401(octokit: Hookable): void {
  octokit.hook.wrap("request", async (request, options) => {
    try {
      return await request(options);
    } catch (e) {
      if (httpStatus(e) !== 401 || options.request?.tokenRefreshed) throw e;
      let fresh: { type?: string; tokenType?: string } | undefined;
      try {
        fresh = (await octokit.auth({ type: "installation", refresh: true })) as typeof fresh;
      } catch {
        throw e; // not an installation (or GitHub refuses a token): the 401 stands
      }
      if (fresh?.tokenType !== "installation") throw e;
      octokit.log.warn("GitHub answered 401: retrying once with a fresh installation token");
      return request({ ...options, request: { ...options.request, tokenRefreshed: true } });
    }
  });
}

export const PluginReviewOctokit = ProbotOctokit.plugin(refreshTokenOn401 as never).defaults(
  (options: Record<string, unknown>) => {
    const throttle = (options.throttle ?? {}) as ThrottleOptions;
    const request = (options.request ?? {}) as { fetch?: typeof fetch };
    const log = options.log as { warn(msg: string): void } | undefined;
    return {
      ...options,
      request: { ...request, fetch: timedFetch(request.fetch) },
      throttle: {
        ...throttle,
        onSecondaryRateLimit: (
          retryAfter: number,
          req: { method: string; url: string },
          octokit: unknown,
          retryCount: number,
        ) => {
          throttle.onSecondaryRateLimit?.(retryAfter, req, octokit, retryCount);
          const again = retryCount < SECONDARY_RATE_LIMIT_RETRIES;
          log?.warn(
            `secondary rate limit on ${req.method} ${req.url}: ${again ? `retrying in ${retryAfter} s` : "giving up"}`,
          );
          return again;
        },
      },
    };
  },
) as typeof ProbotOctokit;
