/**
 * The one Octokit factory: the App (Probot's Octokit, in app-octokit.ts), `plugin-review pr` and
 * `plugin-review audit` (a token's Octokit, `tokenOctokit`) get the same settings from `withAppSettings`:
 * - a timeout on every request, and the review's deadline (api/deadline.ts, api/request-scope.ts);
 * - after a 401 to an installation token, one fresh token per review, also while the auth library is still
 *   retrying a just-issued token (`freshTokenOn401`);
 * - retries of REST reads that fail (5xx, network, timeouts: @octokit/plugin-retry); GraphQL is not
 *   retried, since REST replaces it at once (api/gateway.ts); a write is not retried blindly, since GitHub may
 *   have made it before failing to answer: the review re-reads what GitHub holds and sends only what is
 *   missing (review/check-run/write.ts, review/pull-review/publish.ts);
 * - throttling (@octokit/plugin-throttling): writes spaced per installation, GraphQL queries not spaced as
 *   writes (throttle-reads.ts), rate limits and secondary rate limits waited out and retried a few times;
 * - what a command may write: everything (the App), nothing (`audit` refuses), or nothing sent and every
 *   write recorded (`pr`'s dry run).
 * Whether a request reads or writes is decided once, by `isWriteRequest`.
 */
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit as RestOctokit } from "@octokit/rest";
import { RATE_LIMIT_RETRIES, READ_RETRIES, SECOND_MS } from "../../time-budget.js";
import { timedFetch } from "../deadline.js";
import { isTimeout } from "../errors.js";
import { currentScope, type TokenRefresh } from "../request-scope.js";
import { readsNotSpacedAsWrites } from "./throttle-reads.js";

/**
 * What the App uses of an Octokit: the App's (Probot's, app-octokit.ts) and the commands' (`tokenOctokit`)
 * both are one. Only the adapters (api/rest/, api/graphql/) and the audit hold one.
 */
export type Octokit = Pick<
  InstanceType<typeof RestOctokit>,
  "request" | "graphql" | "rest" | "paginate" | "auth" | "hook" | "log"
>;

/** A request as the hooks see it. */
export interface RequestShape {
  method?: unknown;
  url?: unknown;
  query?: unknown;
}

/** `/graphql` on github.com, or `…/api/graphql` on GitHub Enterprise Server. */
export function isGraphqlUrl(url: unknown): boolean {
  return typeof url === "string" && /\/graphql$/.test(url.replace(/[?#].*$/, ""));
}

/**
 * Whether a request changes something on GitHub: a REST request other than GET and HEAD, or a GraphQL
 * document other than a query (`query …` or the `{ … }` shorthand). A GraphQL query reads, as GitHub rates it.
 */
export function isWriteRequest(options: RequestShape): boolean {
  const method = String(options.method ?? "GET").toUpperCase();
  if (method === "GET" || method === "HEAD") return false;
  if (method !== "POST" || !isGraphqlUrl(options.url) || typeof options.query !== "string") return true;
  // Comments out first (a "mutation" in a comment does not make a mutation), then every operation's keyword.
  const doc = options.query.replace(/#[^\n\r]*/g, "");
  return !/^\s*(query\b|\{)/.test(doc) || /\b(mutation|subscription)\b\s*[\w$]*\s*[({]/.test(doc);
}

type Fetch = typeof globalThis.fetch;
type RequestOptions = RequestShape & { request?: Record<string, unknown>; [k: string]: unknown };
interface Hookable {
  request: {
    endpoint: ((options: never) => { method: string; url: string; body?: unknown }) & {
      DEFAULTS: { baseUrl: string };
    };
  };
  hook: {
    wrap(
      name: "request",
      fn: (request: (o: RequestOptions) => Promise<unknown>, options: RequestOptions) => Promise<unknown>,
    ): void;
  };
  auth(options?: unknown): Promise<unknown>;
  log: { warn(msg: string): void };
}

/** The Octokit a fetch belongs to (set by the plugin once the Octokit exists). */
interface Owner {
  octokit?: Hookable;
  /** Refreshes made outside a review. */
  refresh: TokenRefresh;
}
const INNER = Symbol("the fetch this one wraps");
type OwnedFetch = Fetch & { [INNER]?: Fetch; owner?: Owner };

/**
 * A fetch with the request timeout (api/deadline.ts) that, when GitHub answers 401 to an installation token,
 * gets a fresh one (once per review: a token revoked mid-review) and sends the request again with it, as it
 * does every request sent with the same token beside the one that met the 401 first. It sits
 * under every hook, so it also serves the auth library's own retries of a just-issued token (which resend the
 * same token for about 6 s) and the retry plugin's.
 */
function freshTokenOn401(inner: Fetch | undefined, failed?: (status: string) => void): OwnedFetch {
  // Probot builds an installation's Octokit with the app's options: wrap what the app's fetch wraps.
  const base = inner && INNER in inner ? (inner as OwnedFetch)[INNER] : inner;
  const timedOnly = timedFetch(base);
  const timed: Fetch = !failed
    ? timedOnly
    : async (input, init) => {
        try {
          const res = await timedOnly(input, init);
          if (res.status >= 400) failed(String(res.status));
          return res;
        } catch (e) {
          failed(isTimeout(e) ? "timeout" : "network");
          throw e;
        }
      };
  const owner: Owner = { refresh: {} };
  const fetch: OwnedFetch = async (input, init) => {
    const refresh = currentScope()?.refresh ?? owner.refresh;
    const headers = new Headers(init?.headers);
    const sent = /^token\s+(\S+)$/i.exec(headers.get("authorization") ?? "")?.[1];
    // The refused token again (the auth library retries a just-issued token as it was): the fresh one instead.
    const fresh = sent !== undefined && sent === refresh.refused ? await refresh.token : undefined;
    if (fresh) headers.set("authorization", `token ${fresh}`);
    const res = await timed(input, fresh ? { ...init, headers } : init);
    const octokit = owner.octokit;
    if (res.status !== 401 || !sent || fresh || !octokit) return res;
    if (!refresh.token) {
      refresh.refused = sent;
      refresh.token = octokit.auth({ type: "installation", refresh: true }).then(
        (a) => {
          const auth = a as { tokenType?: string; token?: string } | undefined;
          return auth?.tokenType === "installation" ? auth.token : undefined;
        },
        () => undefined, // not an installation (a personal token, the app's JWT): the 401 stands
      );
      if (await refresh.token)
        octokit.log.warn("GitHub answered 401: retrying with a fresh installation token (once per review)");
    }
    // Sent with the refused token, by the request that met the 401 first or beside it (reads run at once):
    // once more with the fresh token. Any other 401 within the review stands.
    const token = sent === refresh.refused ? await refresh.token : undefined;
    if (!token) return res;
    await res.body?.cancel();
    headers.set("authorization", `token ${token}`);
    return timed(input, { ...init, headers });
  };
  fetch[INNER] = base;
  fetch.owner = owner;
  return fetch;
}

interface ThrottleOptions {
  onSecondaryRateLimit?: RateLimitHandler;
  onRateLimit?: RateLimitHandler;
  enabled?: boolean;
  id?: string;
  [k: string]: unknown;
}
type RateLimitHandler = (
  retryAfter: number,
  options: { method: string; url: string },
  octokit: unknown,
  retryCount: number,
) => boolean | void;

/** The retry limiters this factory made (throttle-reads.ts). */
const ownLimiters = new WeakSet<object>();
function ownLimiter(): ReturnType<typeof readsNotSpacedAsWrites> {
  const made = readsNotSpacedAsWrites(isWriteRequest);
  ownLimiters.add(made.retryLimiter);
  return made;
}

/** A write as a dry run records it: its method, its path under the API's base URL, and its JSON body. */
export interface DryWrite {
  method: string;
  url: string;
  body: Record<string, unknown>;
}

/**
 * What a command's Octokit does with a write: sends it (the App), refuses it (`audit`), or answers it with
 * the data the given function returns, sending nothing (`pr`'s dry run).
 */
export type WritePolicy = "send" | "refuse" | ((write: DryWrite) => Record<string, unknown>);

/** Options of the factory's own, beside Octokit's. */
export interface AppSettings {
  writes?: WritePolicy;
  /** Told of every answer with an error status, and of every request GitHub did not answer (metrics). */
  requestFailed?: (status: string) => void;
}

/** What the retry plugin does not retry: its own default list, and a rate limit (429). */
const NOT_RETRIED_STATUSES = [400, 401, 403, 404, 410, 422, 429, 451];

/** Statuses whose answer has no body (a Response cannot be made with one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch that reads the answer's body whole before handing the answer on, so that a body GitHub stops
 * sending (aborted at the request timeout) or cuts off fails the request. Octokit reads a body it parses
 * with every failure caught, as an empty answer: a pull request's file list cut off was read as no files,
 * and the check passed with "no descriptors changed". Failed here, it is a request GitHub did not answer
 * (status 500 with its cause, as Octokit reports a fetch that fails): a read is retried, then the review.
 */
function wholeBody(fetch: Fetch, failed?: (status: string) => void): Fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (res.body === null || NULL_BODY_STATUSES.has(res.status)) return res;
    let bytes: ArrayBuffer;
    try {
      bytes = await res.arrayBuffer();
    } catch (e) {
      failed?.(isTimeout(e) ? "timeout" : "network");
      throw e;
    }
    const whole = new Response(bytes, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
    Object.defineProperty(whole, "url", { value: res.url });
    return whole;
  };
}

/**
 * The plugin: the fetch's owner, answers read whole where Octokit parses them, and writes neither retried
 * blindly nor sent where the command may not.
 */
function appSettingsPlugin(
  octokit: Hookable,
  options: { request?: { fetch?: unknown }; pluginReview?: AppSettings },
) {
  const fetch = options.request?.fetch as OwnedFetch | undefined;
  if (fetch?.owner) fetch.owner.octokit = octokit;
  const writes = options.pluginReview?.writes ?? "send";
  const requestFailed = options.pluginReview?.requestFailed;
  octokit.hook.wrap("request", async (request, opts) => {
    // A body the caller reads as a stream (rest/blob.ts) fails where the caller reads it.
    const given = opts.request as { fetch?: Fetch; parseSuccessResponseBody?: boolean } | undefined;
    if (given?.fetch && given.parseSuccessResponseBody !== false)
      opts.request = { ...given, fetch: wholeBody(given.fetch, requestFailed) };
    if (!isWriteRequest(opts)) {
      // A GraphQL API that fails or does not answer is replaced by REST at once (api/gateway.ts), not waited for
      // again. (Every hook of a request shares this one options object, so the retry plugin reads it.)
      if (isGraphqlUrl(opts.url)) opts.request = { ...opts.request, retries: 0 };
      return request(opts);
    }
    if (writes === "refuse") throw new Error(`read-only: refused ${String(opts.method)} ${String(opts.url)}`);
    if (writes !== "send") {
      const { method, url, body } = octokit.request.endpoint(opts as never);
      const write = {
        method,
        url: url.replace(octokit.request.endpoint.DEFAULTS.baseUrl, ""),
        body: (typeof body === "string" ? JSON.parse(body) : (body ?? {})) as Record<string, unknown>,
      };
      return { status: method === "POST" ? 201 : 200, url: write.url, headers: {}, data: writes(write) };
    }
    // GitHub may have made a write it failed to answer: the review looks before sending it again.
    opts.request = { ...opts.request, retries: 0 };
    return request(opts);
  });
  return {};
}

/** What `@octokit/request` gives for a request function (its `defaults`). */
interface RequestFunction {
  defaults(options: { baseUrl?: string; request?: { fetch?: Fetch } }): RequestFunction;
}

/**
 * The App authentication's own requests at the Octokit's API: Probot gives the auth strategy a request
 * function of its own, without the Octokit's `baseUrl`, which the strategy uses whenever it is called
 * directly (`octokit.auth({ type: "installation", refresh: true })`, the fresh token after a 401): on
 * GitHub Enterprise Server that request went to api.github.com. (Tokens asked for within a request's hook
 * were right: the hook passes the Octokit's request.) The token requests also get the request timeout.
 */
function authRequestAt(options: Record<string, unknown>, fetch: Fetch): { auth?: Record<string, unknown> } {
  const auth = options.auth as { request?: Partial<RequestFunction> } | string | undefined;
  const baseUrl = options.baseUrl as string | undefined;
  if (typeof auth !== "object" || auth === null || typeof auth.request?.defaults !== "function") return {};
  const request = (auth.request as RequestFunction).defaults({
    ...(baseUrl ? { baseUrl } : {}),
    request: { fetch },
  });
  return { auth: { ...auth, request } };
}

/**
 * Adds the App's settings to an Octokit class that has the throttling and retry plugins (Probot's, or
 * `@octokit/rest` with both): the one place they are configured.
 */
export function withAppSettings<C extends { plugin: unknown; defaults: unknown }>(Base: C): C {
  type Class = {
    plugin(...p: unknown[]): Class;
    defaults(fn: (o: Record<string, unknown>) => Record<string, unknown>): unknown;
  };
  return (Base as unknown as Class).plugin(appSettingsPlugin).defaults((options) => {
    const throttle = (options.throttle ?? {}) as ThrottleOptions;
    const request = (options.request ?? {}) as { fetch?: Fetch };
    const log = options.log as { warn(msg: string): void } | undefined;
    const installationId = (options.auth as { installationId?: unknown } | undefined)?.installationId;
    // What the throttling plugin multiplies `retryAfter` by to wait (its default: seconds).
    const retryAfterUnitMs =
      typeof throttle.retryAfterBaseValue === "number" ? throttle.retryAfterBaseValue : SECOND_MS;
    const limited =
      (kind: string, given: RateLimitHandler | undefined): RateLimitHandler =>
      (retryAfter, req, octokit, retryCount) => {
        given?.(retryAfter, req, octokit, retryCount);
        // A wait the review's deadline does not leave room for is not slept: it would hold the review's
        // scheduler slot (and on Lambda the invocation) until the deadline for nothing, and the run would then
        // say that GitHub did not answer, when GitHub answered with a rate limit.
        const deadline = currentScope()?.deadline;
        const fits = deadline === undefined || Date.now() + retryAfter * retryAfterUnitMs <= deadline;
        const again = fits && retryCount < RATE_LIMIT_RETRIES;
        const why = fits
          ? "giving up"
          : `giving up: GitHub asks to wait ${retryAfter} s, past the review's deadline`;
        log?.warn(`${kind} on ${req.method} ${req.url}: ${again ? `retrying in ${retryAfter} s` : why}`);
        return again;
      };
    const fetch = freshTokenOn401(
      request.fetch,
      (options.pluginReview as AppSettings | undefined)?.requestFailed,
    );
    return {
      ...options,
      ...authRequestAt(options, fetch),
      request: { ...request, fetch },
      // The plugin's own default, set here so that the time budget names it (a test may shorten its waits).
      // Its own list of what it leaves alone, plus 429: a rate limit is the throttling plugin's, which waits
      // what GitHub names or gives up (below); retried here, a 429 that asks for an hour was sent again in 1 s.
      retry: {
        retries: READ_RETRIES,
        doNotRetry: NOT_RETRIED_STATUSES,
        ...(options.retry as object | undefined),
      },
      throttle: {
        ...throttle,
        // Writes are spaced per installation, as GitHub rates them. Probot sets this same `id` for
        // `probot.auth(id)`, but not for the Octokit it gives each webhook event (context.octokit), where every
        // installation then shared one write queue ("no-id"): one busy organisation held up all the others.
        ...(throttle.id == null && installationId != null ? { id: String(installationId) } : {}),
        // One per Octokit (the plugin registers its retry handler on it for each instance): an installation's
        // Octokit, which Probot builds with the app's options, gets its own. (A test may give its own.)
        ...(throttle.retryLimiter && !ownLimiters.has(throttle.retryLimiter) ? {} : ownLimiter()),
        // A rate limit is waited out and retried a few times (Probot's defaults only log secondary ones).
        onSecondaryRateLimit: limited("secondary rate limit", throttle.onSecondaryRateLimit),
        onRateLimit: limited("rate limit", throttle.onRateLimit),
      },
    };
  }) as unknown as C;
}

/** The settings on `@octokit/rest` with the throttling and retry plugins: the commands' Octokit. */
const CommandOctokit = withAppSettings(RestOctokit.plugin(throttling, retry));

/**
 * An Octokit for a command that reads GitHub with a token (`pr`, `audit`): `warn` hears of rate limits;
 * `writes` says what becomes of a request that would change something.
 */
export function tokenOctokit(opts: {
  token: string;
  baseUrl: string;
  userAgent: string;
  warn: (message: string) => void;
  writes: WritePolicy;
}): Octokit {
  const pluginReview: AppSettings = { writes: opts.writes };
  return new CommandOctokit({
    auth: opts.token,
    baseUrl: opts.baseUrl,
    userAgent: opts.userAgent,
    log: { debug() {}, info() {}, warn: opts.warn, error() {} },
    pluginReview,
  } as ConstructorParameters<typeof RestOctokit>[0]);
}
