/**
 * `npm start` (src/serve.ts) on Probot's own Server and webhook middleware, on a loopback port, with the
 * fake GitHub: deliveries are answered at once and reviewed in the background, failures still reach the
 * check run, bodies over 25 MB are refused before they are read, and stopping drains the work in flight.
 */
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_WEBHOOK_BYTES } from "../src/serve/server.js";
import { AnswersFirst } from "../src/github/delivery/serialize.js";
import { text, validHost } from "./helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "./github/fake-github.js";
import { cleanup, disableNetwork } from "./github/github-mock.js";
import { FastOctokit, HEAD_SHA, OWNER, pullRequestPayload, REPO } from "./github/harness.js";
import { postDelivery, startServe } from "./serve-harness.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

function start(answers?: AnswersFirst) {
  const errors: string[] = [];
  const schedulerLog = { warn: () => undefined, error: (_o: unknown, msg: string) => void errors.push(msg) };
  const log = pino({ level: "silent" });
  return startServe({ Octokit: FastOctokit, log, schedulerLog, answers }).then((s) => ({ ...s, errors }));
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
      headers: { "content-type": "application/json", "x-github-event": "ping", "content-length": 100 },
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
      expect(run!.output?.summary).toMatch(/could not be completed: files: GitHub answered 500/);
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
