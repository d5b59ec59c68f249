/**
 * The operators' endpoints beside the webhook route: `GET /healthz` (200 once the App can serve, 503 while
 * it drains for a shutdown) and `GET /metrics` (Prometheus text). The webhook route faces the internet, so
 * `/metrics` asks for `Authorization: Bearer <METRICS_TOKEN>` when that is set. In Probot's setup mode
 * (no credentials: its page registers the App) both say so, with 503: there is no App to serve or count.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Registry } from "prom-client";

export interface Endpoints {
  registry: Registry;
  metricsToken: string | undefined;
  /** Whether the App is draining for a shutdown (it takes no delivery then). */
  draining(): boolean;
}

/**
 * Whether a bearer token is the expected one, in a time that depends on neither (their digests are
 * compared): comparing the tokens themselves would tell their length apart, and their common prefix.
 */
export function sameToken(given: string, expected: string): boolean {
  const digest = (token: string) => createHash("sha256").update(token).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** `/healthz` or `/metrics` by GET or HEAD; true when the request is answered here already (405). */
function operatorRoute(
  req: IncomingMessage,
  res: ServerResponse,
): "/healthz" | "/metrics" | "answered" | undefined {
  const path = (req.url ?? "").split("?")[0];
  if (path !== "/healthz" && path !== "/metrics") return undefined;
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD" }).end();
    return "answered";
  }
  return path;
}

/** A Probot server handler (true when it answered). */
export function operatorEndpoints(opts: Endpoints) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = operatorRoute(req, res);
    if (path === undefined || path === "answered") return path === "answered";
    if (path === "/healthz") {
      const draining = opts.draining();
      res
        .writeHead(draining ? 503 : 200, { "content-type": "text/plain; charset=utf-8" })
        .end(draining ? "draining: shutting down\n" : "ok\n");
      return true;
    }
    if (opts.metricsToken) {
      const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
      if (!sameToken(given, opts.metricsToken)) {
        res.writeHead(401, { "www-authenticate": 'Bearer realm="metrics"' }).end();
        return true;
      }
    }
    const body = await opts.registry.metrics();
    res.writeHead(200, { "content-type": opts.registry.contentType }).end(body);
    return true;
  };
}

/** The handler for Probot's setup mode: there is no App yet, and `/healthz` and `/metrics` say so. */
export function setupModeEndpoints() {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = operatorRoute(req, res);
    if (path === undefined || path === "answered") return path === "answered";
    res
      .writeHead(503, { "content-type": "text/plain; charset=utf-8" })
      .end(
        "setup mode: no App credentials (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET); " +
          "register the App on this server's page (/), then restart it\n",
      );
    return true;
  };
}
