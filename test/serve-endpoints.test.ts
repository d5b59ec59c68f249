/**
 * The operators' endpoints (src/serve/endpoints.ts) on a loopback server: `/metrics` asks for its bearer
 * token and compares it in a time that tells nothing of it, its length included.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it, vi } from "vitest";

// The comparison itself is watched: timing it on a loaded machine would prove nothing.
vi.mock("node:crypto", async (actual) => {
  const crypto = await actual<typeof import("node:crypto")>();
  return { ...crypto, timingSafeEqual: vi.fn(crypto.timingSafeEqual) };
});
import { operatorEndpoints } from "../src/serve/endpoints.js";
import { freePort } from "./helpers.js";

let server: Server | undefined;
afterEach(() => new Promise((r) => (server ? server.close(r) : r(undefined))));

async function serve(metricsToken: string | undefined): Promise<string> {
  const handle = operatorEndpoints({ registry: new Registry(), metricsToken, draining: () => false });
  server = createServer((req, res) => {
    void handle(req, res).then((answered) => answered || res.writeHead(404).end());
  });
  const port = await freePort();
  await new Promise<void>((r) => server!.listen(port, "127.0.0.1", r));
  return `http://127.0.0.1:${port}/metrics`;
}

describe("GET /metrics with METRICS_TOKEN", () => {
  it("compares every token given, whatever its length, in constant time; only the right one is served", async () => {
    const url = await serve("metrics-token-not-a-secret");
    const compare = vi.mocked(timingSafeEqual);
    compare.mockClear();
    const given = [
      "m",
      "metrics-token-not-a-secret-and-more",
      "metrics-token-not-a-secreT",
      "metrics-token-not-a-secret",
    ];
    const statuses = [];
    for (const token of given)
      statuses.push((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status);
    expect(statuses).toEqual([401, 401, 401, 200]);
    // One comparison per request, of two buffers of one length whatever the token's: nothing returns
    // early on a shorter or longer token, which would tell the token's length.
    expect(compare).toHaveBeenCalledTimes(given.length);
    for (const [a, b] of compare.mock.calls) expect([a.byteLength, b.byteLength]).toEqual([32, 32]);
    expect((await fetch(url)).status).toBe(401);
  });
});
