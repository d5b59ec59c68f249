/**
 * A required check never waits forever (interfaces.md, "Restarts, crashes and downtime"), tried as operators
 * meet it: `npm start`'s server in a process of its own (killed with SIGKILL, stopped with SIGTERM, started
 * again), as a GitHub Enterprise Server App (`GHE_HOST`) against the fake GitHub over real HTTP, which keeps
 * the App's webhook delivery log as GitHub does and checks every request against GitHub's description.
 * Nobody redelivers anything by hand: what the App missed, it finds.
 */
import { describe, expect, it } from "vitest";
import { text, validHost } from "./helpers.js";
import { APP_ID, completesRun, FakeGitHub, type CheckRun } from "./github/fake-github.js";
import { HEAD_SHA, OWNER, pullRequestPayload, REPO, writesIn } from "./github/harness.js";
import {
  completed,
  expectExactlyOnce,
  openPullRequest,
  SCENARIO_ROUTES,
  within,
} from "./github/scenarios.js";
import { freePort } from "./helpers.js";
import { appProcesses, SECRET, type AppProcess } from "./serve-process.js";

const R = `${OWNER}/${REPO}`;
/**
 * The guarantee's bound after the App runs again, as the tests' wait: how long they are measured to take
 * is `npm run bench`'s (bench/recovery.mjs).
 */
const RECOVERED_WITHIN_MS = 120_000;

const { start, fakeGitHub } = appProcesses();

async function kill9(app: AppProcess): Promise<void> {
  app.child.kill("SIGKILL");
  expect(await app.exited).toBe("SIGKILL");
}

/** Pull request `number` at `sha` (as GitHub has it now), adding a descriptor with one finding. */
function pullAt(gh: FakeGitHub, number: number, sha: string) {
  gh.file(R, sha, "p/plugin.json", text({ ...validHost(), version: "1" }));
  gh.push(number, sha);
  return pullRequestPayload("opened", { number, headSha: sha });
}

const done = (gh: FakeGitHub, sha: string) => gh.runsFor(sha).some((r) => r.status === "completed");

describe("npm start: restarts, crashes and downtime", () => {
  it("kill -9 mid-review, restart, nobody redelivers: one completed run within 2 minutes of the restart, nothing twice", async () => {
    const gh = fakeGitHub([...SCENARIO_ROUTES, "listDeliveries"]);
    openPullRequest(gh);
    // GitHub takes the review's first write and never answers it: the review is in flight when it is killed.
    gh.hang("POST", /\/check-runs$/, 1);
    const first = await start();
    expect(await gh.deliver(first.webhookUrl, SECRET, "pull_request", pullRequestPayload("opened"))).toBe(
      200,
    );
    await within(60_000, () => gh.hung.length > 0);
    await kill9(first);
    expect(gh.checkRuns).toEqual([]);
    // The delivery was answered 200: GitHub's log shows it received; only the App's store knows better.
    expect(gh.deliveryLog.map((a) => a.status_code)).toEqual([200]);
    const second = await start();
    await within(RECOVERED_WITHIN_MS, () => completed(gh) && gh.reviews.length === 1);
    expectExactlyOnce(gh);
    expect(second.logs.some((l) => /1 resumed from the store/.test(l.msg))).toBe(true);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    gh.assertClean();
  }, 180_000);

  it("three pull requests opened and one pushed while the App is down: every head completed within 2 minutes of the start; a head that had its completed run gets no write", async () => {
    const gh = fakeGitHub([
      "listDeliveries",
      "getDelivery",
      "token",
      "listCheckRuns",
      "graphql",
      "files",
      "createCheckRun",
      "createReview",
    ]);
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    const [x, y, z, w, v] = ["1", "2", "3", "4", "5"].map((d) => d.repeat(40)) as [
      string,
      string,
      string,
      string,
      string,
    ];
    // Nothing listens there: GitHub records each delivery as failed to connect.
    const down = `http://127.0.0.1:${await freePort()}/api/github/webhooks`;
    const send = (payload: Record<string, unknown>) => gh.deliver(down, SECRET, "pull_request", payload);
    expect(await send(pullAt(gh, 7, x))).toBe(0);
    expect(await send(pullAt(gh, 8, y))).toBe(0);
    expect(await send(pullAt(gh, 9, z))).toBe(0);
    const pushed = pullAt(gh, 7, w);
    pushed.action = "synchronize";
    expect(await send(pushed)).toBe(0);
    // Pull request 10's head already has its completed run (its delivery failed after the App wrote it).
    const earlier: CheckRun = {
      id: 10_001,
      name: "plugin-review",
      head_sha: v,
      status: "completed",
      conclusion: "failure",
      output: { title: "1 error", summary: "…" },
      external_id: "plugin-review:v2:" + "a".repeat(40),
      annotations: [],
      app: { id: APP_ID, slug: "plugin-review" },
      updates: 0,
    };
    gh.checkRuns.push(earlier);
    expect(await send(pullAt(gh, 10, v))).toBe(0);

    const app = await start();
    await within(RECOVERED_WITHIN_MS, () => [x, y, z, w].every((sha) => done(gh, sha)));
    for (const sha of [x, y, z, w])
      expect(gh.runsFor(sha)).toEqual([expect.objectContaining({ status: "completed" })]);
    // The head that had its run: read, never written, nothing posted on its pull request.
    expect(gh.runsFor(v)).toEqual([earlier]);
    expect(gh.requests.filter((r) => r.method !== "GET" && r.path.includes(`/${earlier.id}`))).toEqual([]);
    expect(gh.reviews.filter((r) => r.pull === `${R}#10`)).toEqual([]);
    // Pull request 7 moved on to w: x's run is written, its review is not (it would speak for the wrong commit).
    await within(60_000, () => gh.reviews.length === 3).catch((e: unknown) => {
      throw new Error(
        `${(e as Error).message}: reviews of ${gh.reviews.map((r) => `${r.pull}@${r.commit_id.slice(0, 1)}`).join(", ")}`,
      );
    });
    expect(gh.reviews.map((r) => r.commit_id).sort()).toEqual([y, z, w].sort());
    expect(writesIn(gh.requests).filter((w) => w === "POST /check-runs")).toHaveLength(4);
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    gh.assertClean();
  }, 180_000);

  it("SIGTERM mid-review: the review completes and the App exits 0 within 30 s; a delivery refused meanwhile is recovered after the restart", async () => {
    const gh = fakeGitHub([...SCENARIO_ROUTES, "listCheckRuns", "listDeliveries", "getDelivery"]);
    openPullRequest(gh);
    const y = "9".repeat(40);
    const later = pullAt(gh, 8, y);
    // GitHub fails the completing write for 3 s: the review retries with backoff, in flight at the SIGTERM.
    gh.failFor("POST", /\/check-runs$/, 3000, { when: completesRun });
    const first = await start();
    expect(await gh.deliver(first.webhookUrl, SECRET, "pull_request", pullRequestPayload("opened"))).toBe(
      200,
    );
    await within(60_000, () => gh.failed.length > 0);
    first.child.kill("SIGTERM");
    // Draining: it says so to load balancers, and takes no delivery.
    await within(60_000, () => first.logs.some((l) => /shutting down/.test(l.msg)));
    // A delivery during the drain: refused (503), or not connected once the listener closed.
    const refused = await gh.deliver(first.webhookUrl, SECRET, "pull_request", later);
    expect([0, 503]).toContain(refused);
    // 0: every review in flight finished within the drain's 25 s (cut off, it would be 1).
    expect(await first.exited).toBe(0);
    expectExactlyOnce(gh);
    expect(gh.runsFor(y)).toEqual([]);

    const second = await start();
    await within(RECOVERED_WITHIN_MS, () => done(gh, y));
    await within(60_000, () => gh.reviews.length === 2);
    expect(gh.runsFor(y)).toHaveLength(1);
    expect(second.logs.some((l) => /1 missed deliveries in GitHub's log/.test(l.msg))).toBe(true);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    gh.assertClean();
  }, 180_000);

  it("on GitHub Enterprise Server, a token revoked mid-review is replaced from that host; /metrics counts what happened and /healthz answers", async () => {
    const gh = fakeGitHub([...SCENARIO_ROUTES, "listDeliveries"]);
    openPullRequest(gh);
    gh.revokeAfterIssue(500);
    const app = await start({ METRICS_TOKEN: "metrics-token-not-a-secret" });
    expect(await gh.deliver(app.webhookUrl, SECRET, "pull_request", pullRequestPayload("opened"))).toBe(200);
    await within(RECOVERED_WITHIN_MS, () => completed(gh) && gh.reviews.length === 1);
    expect(gh.refused.length).toBeGreaterThan(0);
    expect(gh.tokens).toHaveLength(2); // the fresh one came from the Enterprise Server, as every request did
    expectExactlyOnce(gh);

    expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${app.baseUrl}/metrics`)).status).toBe(401);
    const res = await fetch(`${app.baseUrl}/metrics`, {
      headers: { authorization: "Bearer metrics-token-not-a-secret" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const metrics = prometheus(await res.text());
    expect(metrics['plugin_review_deliveries_received_total{event="pull_request"}']).toBe(1);
    expect(metrics['plugin_review_reviews_total{outcome="failure"}']).toBe(1);
    expect(metrics['plugin_review_reviews_total{outcome="success"}']).toBe(0);
    expect(metrics["plugin_review_review_duration_seconds_count"]).toBe(1);
    expect(metrics['plugin_review_github_request_failures_total{status="401"}']).toBeGreaterThanOrEqual(1);
    expect(metrics["plugin_review_reviews_in_flight"]).toBe(0);
    expect(metrics['plugin_review_reviews_recovered_total{source="delivery-log"}']).toBe(0);
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    gh.assertClean();
  }, 180_000);

  it.each([403, 404] as const)(
    "GitHub's delivery log answers %i: the App starts, reviews new deliveries, and logs what it cannot recover",
    async (status) => {
      const gh = fakeGitHub([
        "listDeliveries",
        "token",
        "graphql",
        "files",
        "createCheckRun",
        "createReview",
      ]);
      gh.deliveryLogRefused = status;
      const app = await start();
      await within(60_000, () => app.logs.some((l) => /cannot be recovered from it/.test(l.msg)));
      gh.file(R, HEAD_SHA, "p/plugin.json", text({ ...validHost(), version: "1" }));
      gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
      expect(await gh.deliver(app.webhookUrl, SECRET, "pull_request", pullRequestPayload("opened"))).toBe(
        200,
      );
      await within(60_000, () => done(gh, HEAD_SHA) && gh.reviews.length === 1);
      const warning = app.logs.find((l) => /cannot be recovered from it/.test(l.msg))!;
      expect(warning.level).toBe(40);
      expect(warning.msg).toContain(`GitHub answered ${status}`);
      app.child.kill("SIGTERM");
      expect(await app.exited).toBe(0);
      gh.assertClean();
    },
    120_000,
  );
});

/** Prometheus's text format as a map of `name{labels}` to value (samples only). */
function prometheus(body: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of body.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^(\S+?(?:\{[^}]*\})?)\s+(\S+)$/.exec(line);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}
