/**
 * The operators' endpoints beside the webhook route: `GET /healthz` (200 once the App can serve, 503 while
 * it drains for a shutdown) and `GET /metrics` (Prometheus text). The webhook route faces the internet, so
 * `/metrics` asks for `Authorization: Bearer <METRICS_TOKEN>` when that is set.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Registry } from "prom-client";

export interface Endpoints {
  registry: Registry;
  metricsToken: string | undefined;
  /** Whether the App is draining for a shutdown (it takes no delivery then). */
  draining(): boolean;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A Probot server handler (true when it answered). */
export function operatorEndpoints(opts: Endpoints) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/healthz" && path !== "/metrics") return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return true;
    }
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
