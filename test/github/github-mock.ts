/**
 * A nock harness for GitHub App integration tests: every request that reaches an interceptor defined on
 * `scope` is recorded (nock 14 intercepts `fetch`, which Octokit uses), and can be checked against
 * GitHub's OpenAPI description with `assertAllValid()`.
 *
 *   beforeEach(() => disableNetwork());
 *   afterEach(() => cleanup());
 *
 *   const gh = githubMock();
 *   gh.scope.post("/repos/o/r/check-runs").reply(201, { id: 1 });
 *   await runTheApp();
 *   gh.assertAllValid();
 *   gh.assertDone();
 *
 * Recording uses the scope's "request" event, which nock emits for each request an interceptor of the
 * scope answers, with the request body as a string; it works for every reply style (static, callback,
 * error) without wrapping them. Requests that no interceptor answers are recorded in `unmatched`
 * (from nock's global "no match" event), because the code under test may swallow the error nock gives.
 */
import nock from "nock";
import { validateRequest, type RecordedRequest } from "./openapi.js";

export interface GithubMock {
  scope: nock.Scope;
  /** The requests the scope's interceptors answered, in order, with when each was sent (epoch ms). */
  requests: (RecordedRequest & { at: number })[];
  /** `METHOD url` of requests to this host that no interceptor answered. */
  unmatched: string[];
  /** Throws, listing every problem, when GitHub would reject any recorded request. */
  assertAllValid(): void;
  /** Throws when an interceptor is still pending (here or in any other scope) or a request went unmatched. */
  assertDone(): void;
}

const noMatchListeners: Array<(...args: unknown[]) => void> = [];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function headerRecord(raw: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!isObject(raw)) return headers;
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return headers;
}

function parseBody(raw: unknown, contentType: string | undefined): unknown {
  if (raw === undefined || raw === null || raw === "") return undefined;
  if (typeof raw !== "string") return raw;
  const trimmed = raw.trimStart();
  if (/json/i.test(contentType ?? "") || trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  return raw;
}

export function githubMock(baseUrl = "https://api.github.com"): GithubMock {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const scope = nock(baseUrl);
  const requests: (RecordedRequest & { at: number })[] = [];
  const unmatched: string[] = [];

  scope.on("request", (req: unknown, _interceptor: unknown, body: unknown) => {
    if (!isObject(req)) return;
    const url = new URL(typeof req.path === "string" ? req.path : "/", base.origin);
    let path = url.pathname;
    if (basePath !== "" && (path === basePath || path.startsWith(`${basePath}/`))) {
      path = path.slice(basePath.length) || "/";
    } else if (basePath.endsWith("/v3") && path === `${basePath.slice(0, -3)}/graphql`) {
      path = "/graphql"; // GitHub Enterprise Server's GraphQL endpoint, beside /api/v3
    }
    const headers = headerRecord(typeof req.getHeaders === "function" ? req.getHeaders() : req.headers);
    requests.push({
      method: typeof req.method === "string" ? req.method.toUpperCase() : "GET",
      path,
      query: Object.fromEntries(url.searchParams),
      body: parseBody(body, headers["content-type"]),
      headers,
      at: Date.now(),
    });
  });

  const onNoMatch = (...args: unknown[]): void => {
    const options = args.find(
      (a): a is Record<string, unknown> => isObject(a) && typeof a.hostname === "string",
    );
    if (!options || options.hostname !== base.hostname) return;
    // Another server on the same host (a local App under test): not GitHub's.
    const port = String(options.port ?? "");
    if (base.port && port && port !== base.port) return;
    const method = typeof options.method === "string" ? options.method.toUpperCase() : "GET";
    unmatched.push(`${method} ${base.origin}${typeof options.path === "string" ? options.path : ""}`);
  };
  nock.emitter.on("no match", onNoMatch);
  noMatchListeners.push(onNoMatch);

  return {
    scope,
    requests,
    unmatched,
    assertAllValid() {
      const problems = requests.flatMap((req) => validateRequest(req));
      if (problems.length > 0) {
        throw new Error(
          `GitHub would reject ${problems.length === 1 ? "a request" : "requests"}:\n- ${problems.join("\n- ")}`,
        );
      }
    },
    assertDone() {
      scope.done();
      const pending = nock.pendingMocks();
      if (pending.length > 0) throw new Error(`Pending nock interceptors:\n- ${pending.join("\n- ")}`);
      if (unmatched.length > 0) {
        throw new Error(`Requests no interceptor answered:\n- ${unmatched.join("\n- ")}`);
      }
    },
  };
}

/** Lets no request leave the process except to 127.0.0.1 (local test servers). */
export function disableNetwork(): void {
  nock.disableNetConnect();
  nock.enableNetConnect((host: string) => host === "127.0.0.1" || host.startsWith("127.0.0.1:"));
}

const cleanupHooks: (() => void)[] = [];

/** Runs `hook` at every `cleanup()` (a helper's own state that lives as long as the interceptors). */
export function onCleanup(hook: () => void): void {
  cleanupHooks.push(hook);
}

/** Removes every interceptor and listener and allows the network again; call it after each test. */
export function cleanup(): void {
  for (const hook of cleanupHooks) hook();
  nock.abortPendingRequests();
  nock.cleanAll();
  for (const listener of noMatchListeners.splice(0)) nock.emitter.removeListener("no match", listener);
  nock.enableNetConnect();
}
