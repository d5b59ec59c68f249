/**
 * The Octokit the App runs with: Probot's, whose retries (5xx) and write throttling stay on, plus a
 * retry of secondary rate limits, which Probot's defaults only log (a review must not be lost to one).
 */
import { ProbotOctokit } from "probot";

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

export const PluginReviewOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => {
  const throttle = (options.throttle ?? {}) as ThrottleOptions;
  const log = options.log as { warn(msg: string): void } | undefined;
  return {
    ...options,
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
}) as typeof ProbotOctokit;
