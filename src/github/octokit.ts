/**
 * The Octokit the App runs with: Probot's, whose retries (5xx) and write throttling stay on, plus
 * - a retry of secondary rate limits, which Probot's defaults only log (a review must not be lost to one);
 * - a timeout on every request, and the review's deadline (deadline.ts);
 * - one fresh installation token after a 401 (a token revoked mid-review), before giving up;
 * - writes spaced per installation also for webhook events' Octokits;
 * - GraphQL queries (reads) out of the write spacing (see `readsNotSpacedAsWrites`).
 */
import Bottleneck from "bottleneck/light.js";
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

/** A GraphQL document that only reads: a query operation (`query …` or the `{ … }` shorthand), no mutation. */
export function isGraphqlQuery(options: { method?: unknown; url?: unknown; query?: unknown }): boolean {
  if (options.method !== "POST" || typeof options.url !== "string" || typeof options.query !== "string")
    return false;
  if (!/\/graphql$/.test(options.url.replace(/[?#].*$/, ""))) return false;
  // Comments out first (a "mutation" in a comment does not make a mutation), then every operation's keyword.
  const doc = options.query.replace(/#[^\n\r]*/g, "");
  return /^\s*(query\b|\{)/.test(doc) && !/\b(mutation|subscription)\b\s*[\w$]*\s*[({]/.test(doc);
}

/** Bottleneck's group interface as the throttling plugin uses it, with no spacing at all. */
const NOT_SPACED = { key: () => ({ schedule: <T>(_options: unknown, job: () => Promise<T>) => job() }) };

/**
 * Probot's throttling plugin spaces every POST about 1 s apart per installation, as GitHub asks of writes,
 * and counts every GraphQL request as one, queries included: the reads of a review (configuration and
 * descriptors, review threads) then queue behind other reviews' check runs and comments. GitHub rates a
 * GraphQL query like a REST GET (1 point for the secondary limit, a mutation 5), and reads are not what
 * the spacing is for. The plugin hands each request to its `retryLimiter` together with its state; this one
 * gives queries a state whose write group does not space them. Mutations, and every REST write, are spaced
 * as before, and queries still go through the plugin's concurrency limit and its rate-limit retries.
 * (`retryLimiter` and `write` are the plugin's own state, overridable through its options; plugin 11.)
 */
export function readsNotSpacedAsWrites(): { retryLimiter: Bottleneck } {
  const retryLimiter = new Bottleneck();
  const schedule = retryLimiter.schedule.bind(retryLimiter) as (...args: unknown[]) => Promise<unknown>;
  retryLimiter.schedule = ((
    job: unknown,
    state: object,
    request: unknown,
    options: Parameters<typeof isGraphqlQuery>[0],
  ) =>
    schedule(
      job,
      isGraphqlQuery(options) ? { ...state, write: NOT_SPACED } : state,
      request,
      options,
    )) as never;
  return { retryLimiter };
}

export const PluginReviewOctokit = ProbotOctokit.plugin(refreshTokenOn401 as never).defaults(
  (options: Record<string, unknown>) => {
    const throttle = (options.throttle ?? {}) as ThrottleOptions;
    const request = (options.request ?? {}) as { fetch?: typeof fetch };
    const log = options.log as { warn(msg: string): void } | undefined;
    const installationId = (options.auth as { installationId?: unknown } | undefined)?.installationId;
    return {
      ...options,
      request: { ...request, fetch: timedFetch(request.fetch) },
      throttle: {
        ...throttle,
        // Writes are spaced per installation, as GitHub rates them. Probot sets this same `id` for
        // `probot.auth(id)`, but not for the Octokit it gives each webhook event (context.octokit), where every
        // installation then shared one write queue ("no-id"): one busy organisation held up all the others.
        ...(throttle.id == null && installationId != null ? { id: String(installationId) } : {}),
        // One per Octokit (the plugin registers its retry handler on it for each instance).
        ...readsNotSpacedAsWrites(),
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
