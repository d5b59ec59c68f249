/**
 * `npm start` (src/serve.ts) on Probot's own Server and webhook middleware, on a loopback port, with the
 * fake GitHub: deliveries are answered at once and reviewed in the background, failures still reach the
 * check run, what is no delivery is refused before its body is read, bodies over 25 MB are refused before
 * they are read whole, unverified bodies share a bounded budget, and stopping drains the work in flight.
 */
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_WEBHOOK_BYTES } from "../src/serve/guard.js";
import { AnswersFirst } from "../src/github/delivery/concurrency.js";
import { text, validHost } from "./helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "./github/fake-github.js";
import { cleanup, disableNetwork } from "./github/github-mock.js";
import { FastOctokit, HEAD_SHA, OWNER, pullRequestPayload, REPO } from "./github/harness.js";
import { postDelivery, startServe, type ServeOptions } from "./serve-harness.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

function start(answers?: AnswersFirst, guard?: ServeOptions["guard"]) {
  const errors: string[] = [];
  const schedulerLog = { warn: () => undefined, error: (_o: unknown, msg: string) => void errors.push(msg) };
  const log = pino({ level: "silent" });
  return startServe({ Octokit: FastOctokit, log, schedulerLog, answers, ...(guard ? { guard } : {}) }).then(
    (s) => ({ ...s, errors }),
  );
}

const post = postDelivery;

describe("npm start: Probot's server, reviews in the background", () => {
  it("acknowledges a delivery before its review ends, then completes the check run", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    gh.file(`${OWNER}/${REPO}`, HEAD_SHA, "p/plugin.json", text(validHost()));
    const { server, scheduler, errors, url } = await start();
    try {
      const res = await post(url, "pull_request", pullRequestPayload("opened"));
      expect(res).toMatchObject({ status: 200, text: "ok\n" });
      // Answered while the review is still queued or running: nothing completed yet.
      expect(gh.runsFor(HEAD_SHA).filter((r) => r.status === "completed")).toEqual([]);
      expect(scheduler.pending).toBe(1);
      await expect(scheduler.drain(10_000)).resolves.toBe(true);
      expect(gh.runsFor(HEAD_SHA)).toEqual([
        expect.objectContaining({ status: "completed", conclusion: "success" }),
      ]);
      expect(errors).toEqual([]);
      gh.assertClean();
    } finally {
      await server.stop();
    }
  });

  it("answers deliveries first: a review waits while another delivery is still being answered", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    gh.file(`${OWNER}/${REPO}`, HEAD_SHA, "p/plugin.json", text(validHost()));
    const { server, scheduler, url } = await start(new AnswersFirst(10_000));
    // A second delivery whose body is still arriving (GitHub's, or a slow proxy's).
    const slow = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-github-delivery": randomUUID(),
        "x-hub-signature-256": "sha256=" + "0".repeat(64),
        "content-length": 100,
      },
    });
    slow.on("error", () => undefined);
    slow.write("{");
    try {
      await new Promise((r) => setTimeout(r, 50)); // the server has taken the slow delivery
      expect((await post(url, "pull_request", pullRequestPayload("opened"))).status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(gh.requests).toEqual([]); // the answered delivery's review has not started
      slow.destroy(); // the slow delivery ends (here: its connection drops)
      await expect(scheduler.drain(10_000)).resolves.toBe(true);
      expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ status: "completed" })]);
    } finally {
      slow.destroy();
      await server.stop();
    }
  });

  it("a review that fails after the answer still completes its check run as failure", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview" && r !== "files"));
    const { server, scheduler, url } = await start();
    try {
      expect((await post(url, "pull_request", pullRequestPayload("opened"))).status).toBe(200);
      await scheduler.drain(10_000);
      const [run] = gh.runsFor(HEAD_SHA);
      expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
      // The fake answers the routes it was not given as GitHub answers a route it lacks: 404.
      expect(run!.output?.summary).toMatch(/could not be completed: files: GitHub answered 404/);
    } finally {
      await server.stop();
    }
  });

  it("stops taking deliveries once stopping, and finishes the review in flight", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    gh.file(`${OWNER}/${REPO}`, HEAD_SHA, "p/plugin.json", text(validHost()));
    const { server, scheduler, url } = await start();
    expect((await post(url, "pull_request", pullRequestPayload("opened"))).status).toBe(200);
    const drained = scheduler.drain(25_000);
    await server.stop();
    await expect(post(url, "pull_request", pullRequestPayload("opened"))).rejects.toThrow();
    await expect(drained).resolves.toBe(true);
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ status: "completed" })]);
  });
});

describe("npm start: webhook bodies over 25 MB", () => {
  /** Sends `size` bytes of an unsigned body in 1 MB chunks; resolves with the status, or the error. */
  function bigPost(url: string, size: number, declare: boolean): Promise<number | string> {
    return new Promise((resolve) => {
      const headers: Record<string, string | number> = {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": randomUUID(),
        "x-hub-signature-256": "sha256=00",
      };
      if (declare) headers["content-length"] = size;
      const req = request(url, { method: "POST", headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", (e) => resolve(e.message));
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
  }

  it.each([
    ["with Content-Length", true],
    ["chunked", false],
  ])("refuses a 50 MB unsigned POST (%s) with 413 without buffering it", async (_, declare) => {
    new FakeGitHub([]);
    const { server, url } = await start();
    try {
      global.gc?.();
      const before = process.memoryUsage();
      const status = await bigPost(url, 50 * 1024 * 1024, declare);
      const after = process.memoryUsage();
      // 413, or the connection closed on the sender once refused, whichever it sees first.
      if (typeof status === "number") expect(status).toBe(413);
      else expect(status).toMatch(/EPIPE|ECONNRESET|socket hang up/);
      // Probot's middleware would have held all 50 MB (twice, once concatenated); at most the limit was read.
      expect(after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed).toBeLessThan(
        MAX_WEBHOOK_BYTES + 8 * 1024 * 1024,
      );
    } finally {
      await server.stop();
    }
  });
});

const MB = 1024 * 1024;

/**
 * Sends a request as anyone can: `declared` bytes in Content-Length, of which it sends `send` and then
 * nothing more until answered. Its status, or "no answer" after 10 s (the server waits for the rest).
 */
function partialRequest(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; declared: number; send: number },
): Promise<{ status: number | "no answer" | string; sent: number }> {
  return new Promise((resolve) => {
    let sent = 0;
    const { hostname, port, pathname } = new URL(url);
    // The path as given, not resolved as a URL: what a sender puts on the request line.
    const req = request({
      hostname,
      port,
      path: opts.path ?? pathname,
      method: opts.method ?? "POST",
      headers: { ...opts.headers, "content-length": String(opts.declared) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ status: "no answer", sent });
    }, 10_000);
    req.on("response", (res) => {
      clearTimeout(timer);
      res.resume();
      resolve({ status: res.statusCode ?? 0, sent });
      req.destroy();
    });
    req.on("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ status: e.code ?? e.message, sent });
    });
    req.write(Buffer.alloc(opts.send, 0x20));
    sent = opts.send;
  });
}

/** GitHub's headers, its signature forged. */
const forged = (): Record<string, string> => ({
  "content-type": "application/json",
  "x-github-event": "pull_request",
  "x-github-delivery": randomUUID(),
  "x-hub-signature-256": "sha256=" + "0".repeat(64),
});

describe("npm start: nothing trusted early", () => {
  it.each([
    ["a GET of the webhook path", { method: "GET", headers: forged() }, "", 405],
    ["a POST without X-Hub-Signature-256", { headers: { ...forged(), "x-hub-signature-256": "" } }, "", 401],
    ["a POST without X-GitHub-Event", { headers: { ...forged(), "x-github-event": "" } }, "", 400],
    ["a POST of text", { headers: { ...forged(), "content-type": "text/plain" } }, "", 415],
    ["a POST to another path", { headers: forged() }, "/elsewhere", 404],
    // The same path to @octokit/webhooks' middleware, which would read the body whole.
    [
      "a POST without a signature to another spelling of the webhook path",
      { headers: { ...forged(), "x-hub-signature-256": "" } },
      "/api/github/x/../webhooks/",
      401,
    ],
    [
      "a POST without a signature to the webhook path behind a host",
      { headers: { ...forged(), "x-hub-signature-256": "" } },
      "//x/api/github/webhooks",
      401,
    ],
  ])("answers %s before reading its body", async (_, opts, path, status) => {
    new FakeGitHub([]);
    const { server, url } = await start();
    try {
      // 20 MB declared, 64 KB sent: the answer comes while the sender still has nearly all of it to send.
      const answer = await partialRequest(url, {
        ...opts,
        ...(path ? { path } : {}),
        declared: 20 * MB,
        send: 64 * 1024,
      });
      expect(answer).toEqual({ status, sent: 64 * 1024 });
    } finally {
      await server.stop();
    }
  });

  it("holds at most its budget of unverified bodies at once, charged as they arrive: beyond, 503; a body too slow gets 408 and gives its room back", async () => {
    new FakeGitHub([]);
    const { server, url } = await start(undefined, { unverifiedBytes: 2 * MB, bodyTimeoutMs: 2000 });
    try {
      // A slow sender declares 1.5 MB and holds only what it sent.
      const slow = partialRequest(url, { headers: forged(), declared: 1.5 * MB, send: 64 * 1024 });
      await new Promise((r) => setTimeout(r, 200));
      // Declared within the room the declaration would have left, and sent: refused once its bytes pass it.
      expect(
        await partialRequest(url, {
          headers: forged(),
          declared: 2 * MB - 32 * 1024,
          send: 2 * MB - 32 * 1024,
        }),
      ).toMatchObject({ status: 503 });
      // Chunked: the same, counted as it arrives.
      expect(await chunkedPost(url, forged(), 3 * MB)).toMatchObject({ status: 503 });
      // The slow sender's body does not arrive in the time allowed (GitHub's own is 10 s).
      expect(await slow).toEqual({ status: 408, sent: 64 * 1024 });
      // Its room is given back: a body of that size is read again (and refused for its signature) ...
      const whole = await partialRequest(url, { headers: forged(), declared: 1.5 * MB, send: 1.5 * MB });
      expect(whole.status).toBe(401);
      // ... and a delivery GitHub signed is taken.
      expect((await post(url, "ping", { zen: "Keep it logically awesome.", hook_id: 1 })).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 30_000);
});

/** Sends `size` bytes chunked (no Content-Length), 256 KB at a time, until answered. */
function chunkedPost(
  url: string,
  headers: Record<string, string>,
  size: number,
): Promise<{ status: number | string; sent: number }> {
  return new Promise((resolve) => {
    let sent = 0;
    const req = request(url, { method: "POST", headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, sent });
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ status: e.code ?? e.message, sent }));
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const pump = () => {
      while (sent < size && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}
