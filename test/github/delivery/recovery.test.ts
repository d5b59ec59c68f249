/**
 * The recovery sweep (interfaces.md, "Restarts, crashes and downtime") against the fake GitHub that keeps the
 * App's webhook delivery log as GitHub does: a delivery none of whose attempts reached the App has its head
 * commit reviewed, unless that head has its completed run (then nothing is written); what the App received
 * and did not finish before a crash (its store) is done by the next process; a delivery log that cannot be
 * read stops nothing else. The real app through Probot, every request validated against GitHub's description.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OperatorMetrics } from "../../../src/github/delivery/operator-metrics.js";
import { probotRecovery } from "../../../src/github/delivery/probot-recovery.js";
import { recoveryWindowMs } from "../../../src/github/delivery/recovery.js";
import { DeliveryStore } from "../../../src/github/delivery/store.js";
import { slimPayload } from "../../../src/github/delivery/events.js";
import { collectGarbage } from "../../gc.js";
import { text, validHost } from "../../helpers.js";
import { APP_ID, FakeGitHub, type CheckRun, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  BASE_SHA,
  checkSuitePayload,
  deliver,
  editedPayload,
  example,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  writesIn,
} from "../harness.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

const R = `${OWNER}/${REPO}`;
const HOUR = 3600_000;

/** Pull request `number` at `sha`, adding a descriptor with one finding (version-format, an error). */
function pull(gh: FakeGitHub, sha: string): void {
  const content = text({ ...validHost(), version: "1" });
  gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: `@@ -0,0 +1,1 @@\n+{` }];
  gh.file(R, sha, "p/plugin.json", content);
}

/** A completed run of the App on `sha`, as an earlier review left it. */
function completedRun(sha: string, id: number): CheckRun {
  return {
    id,
    name: "plugin-review",
    head_sha: sha,
    status: "completed",
    conclusion: "failure",
    output: { title: "earlier", summary: "earlier" },
    annotations: [],
    app: { id: APP_ID, slug: "plugin-review" },
    updates: 0,
  };
}

/** The real `check_run.rerequested` example: the App's run on `sha`, of pull request `number`, run again. */
function rerunPayload(sha: string, number: number) {
  const rerun = example("check_run", "rerequested");
  rerun.installation = { id: 77 };
  rerun.repository = pullRequestPayload().repository;
  rerun.check_run.head_sha = sha;
  rerun.check_run.app.id = APP_ID;
  rerun.check_run.pull_requests = [
    {
      number,
      id: number,
      url: "",
      head: { sha, ref: "x", repo: { id: 1, name: REPO, url: "" } },
      base: { sha: BASE_SHA, ref: "main", repo: { id: 1, name: REPO, url: "" } },
    },
  ];
  return rerun;
}

/** Metrics that remember what they were told. */
function counting() {
  const seen: Record<string, number> = {};
  const add = (k: string, n = 1) => (seen[k] = (seen[k] ?? 0) + n);
  const metrics: OperatorMetrics = {
    deliveryReceived: (e) => add(`delivery:${e}`),
    reviewFinished: (o) => add(`review:${o}`),
    recovered: (s, n) => add(`recovered:${s}`, n),
    requestFailed: (s) => add(`failed:${s}`),
  };
  return { seen, metrics };
}

function setup(routes: Route[], opts: { store?: DeliveryStore } = {}) {
  const gh = new FakeGitHub(routes);
  const { seen, metrics } = counting();
  const made = makeProbot({
    appOptions: { operatorMetrics: metrics, ...(opts.store ? { journal: opts.store } : {}) },
  });
  const recovery = probotRecovery(made.probot, {
    deliveries: made.deliveries,
    windowMs: 72 * HOUR,
    operatorMetrics: metrics,
    ...(opts.store ? { store: opts.store } : {}),
  });
  return { gh, ...made, recovery, seen };
}

describe("recovery from GitHub's delivery log", () => {
  it("reviews each missed head commit once, leaves a head with its completed run without a write, and skips what reached the App", async () => {
    const { gh, recovery, seen } = setup([
      "listDeliveries",
      "getDelivery",
      "token",
      "listCheckRuns",
      "graphql",
      "files",
      "createCheckRun",
      "createReview",
    ]);
    const done = "d".repeat(40);
    pull(gh, HEAD_SHA);
    gh.file(R, done, "p/plugin.json", text(validHost()));
    gh.checkRuns.push(completedRun(done, 501));
    // Pull request 7 opened while the App was down: no connection, and its push's check suite likewise.
    const opened = pullRequestPayload("opened");
    gh.logAttempt("pull_request", opened, 0);
    gh.logAttempt("check_suite", checkSuitePayload(opened), 0);
    // Pull request 8 at a head that has its completed run: GitHub's delivery failed (a proxy's 502).
    gh.logAttempt("pull_request", pullRequestPayload("opened", { headSha: done, number: 8 }), 502);
    // Answered: reached the App (and not this process's concern).
    gh.logAttempt(
      "pull_request",
      pullRequestPayload("synchronize", { number: 9, headSha: "e".repeat(40) }),
      200,
    );
    // An event the App does not act on: not even read.
    const closed = example("pull_request", "closed");
    gh.logAttempt("pull_request", closed, 0);

    const report = await recovery.sweep();
    expect(report).toMatchObject({ listed: 5, missed: 3, reviewed: 1, complete: 1, resumed: 0 });
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure" }),
    ]);
    expect(gh.reviews).toHaveLength(1);
    // The head that had its completed run: read, never written.
    expect(gh.runsFor(done)).toEqual([completedRun(done, 501)]);
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /pulls/7/reviews"]);
    // Only the missed deliveries' payloads were read.
    expect(gh.count("GET", /^\/app\/hook\/deliveries\/\d+$/)).toBe(3);
    expect(seen).toMatchObject({ "recovered:delivery-log": 1, "delivery:pull_request": 1 });

    // The next sweep: everything settled, the log's listing alone.
    const before = gh.requests.length;
    expect(await recovery.sweep()).toMatchObject({ listed: 5, missed: 0, reviewed: 0, complete: 0 });
    expect(gh.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /app/hook/deliveries",
    ]);
    gh.assertClean();
  });

  it("a head's completed run answers only for the pull requests it reviewed: another one's missed delivery is reviewed, and the check turns red", async () => {
    const { gh, recovery } = setup([
      "listDeliveries",
      "getDelivery",
      "token",
      "listCheckRuns",
      "graphql",
      "files",
      "updateCheckRun",
      "createReview",
    ]);
    pull(gh, HEAD_SHA);
    // Pull request 7's review passed this head against its base (its run names it); pull request 8, the same
    // branch into another base where the descriptor is new and fails, was opened while the App was down.
    gh.checkRuns.push({
      ...completedRun(HEAD_SHA, 601),
      conclusion: "success",
      external_id: `plugin-review:v2:${"a".repeat(40)}:pulls=7`,
    });
    gh.logAttempt("pull_request", pullRequestPayload("opened", { number: 8 }), 502);
    expect(await recovery.sweep()).toMatchObject({ missed: 1, reviewed: 1, complete: 0 });
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ id: 601, status: "completed", conclusion: "failure" }),
    ]);
    expect(gh.reviews.map((r) => r.pull)).toEqual([`${R}#8`]);
    gh.assertClean();
  });

  it("a missed edit that moved a pull request's base is reviewed against the new base, though its head has its completed run", async () => {
    const { gh, recovery } = setup([
      "listDeliveries",
      "getDelivery",
      "token",
      "graphql",
      "files",
      "updateCheckRun",
      "createReview",
    ]);
    pull(gh, HEAD_SHA);
    gh.checkRuns.push({
      ...completedRun(HEAD_SHA, 602),
      conclusion: "success",
      external_id: `plugin-review:v2:${"a".repeat(40)}:pulls=7`,
    });
    gh.logAttempt("pull_request", editedPayload({ base: { ref: { from: "legacy" } } }, BASE_SHA), 0);
    expect(await recovery.sweep()).toMatchObject({ missed: 1, reviewed: 1, complete: 0 });
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ id: 602, status: "completed", conclusion: "failure" }),
    ]);
    gh.assertClean();
  });

  it("a missed Re-run of a head whose run was completed before it is reviewed again: the stale verdict is replaced; one answered since is left alone", async () => {
    const { gh, recovery } = setup([
      "listDeliveries",
      "getDelivery",
      "token",
      "listCheckRuns",
      "getPull",
      "graphql",
      "files",
      "updateCheckRun",
      "createReview",
    ]);
    const asked = Date.now() - 10 * 60_000;
    const before = new Date(asked - 60 * 60_000).toISOString();
    const since = new Date(asked + 60_000).toISOString();
    // Pull request 7's head passed an hour before its maintainer asked for a Re-run (the descriptor since
    // fails: say, the default branch's configuration changed); the App was down when they asked.
    pull(gh, HEAD_SHA);
    gh.checkRuns.push({ ...completedRun(HEAD_SHA, 603), conclusion: "success", completed_at: before });
    gh.logAttempt("check_run", rerunPayload(HEAD_SHA, 7), 0, { at: asked });
    // Another head's Re-run was missed too, but a run was completed after it was asked: it is answered.
    const answered = "d".repeat(40);
    gh.checkRuns.push({ ...completedRun(answered, 604), completed_at: since });
    gh.logAttempt("check_run", rerunPayload(answered, 8), 0, { at: asked });

    expect(await recovery.sweep()).toMatchObject({ missed: 2, reviewed: 1, complete: 1 });
    // The Re-run's review completed the run it found (a retry makes no second run) with today's verdict.
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ id: 603, status: "completed", conclusion: "failure" }),
    ]);
    expect(gh.runsFor(answered)).toEqual([{ ...completedRun(answered, 604), completed_at: since }]);
    expect(writesIn(gh.requests)).toEqual(["PATCH /check-runs/603", "POST /pulls/7/reviews"]);
    // Settled: the next sweep lists the log alone.
    expect(await recovery.sweep()).toMatchObject({ missed: 0, reviewed: 0 });
    gh.assertClean();
  });

  it("a delivery redelivered by hand (the same guid, redelivery: true) that reached the App is not recovered again", async () => {
    const { gh, recovery } = setup(["listDeliveries"]);
    const opened = pullRequestPayload("opened");
    const failed = gh.logAttempt("pull_request", opened, 0);
    gh.logAttempt("pull_request", opened, 200, { guid: failed.guid, redelivery: true });
    expect(await recovery.sweep()).toMatchObject({ listed: 2, missed: 0, reviewed: 0 });
    gh.assertClean();
  });

  it("reads every page of the log, newest first, and stops at the window's start", async () => {
    const { gh, recovery } = setup(["listDeliveries"]);
    const answered = pullRequestPayload("synchronize");
    // Older than the window (GitHub keeps 3 days; these are from before): never read.
    for (let i = 0; i < 120; i++) gh.logAttempt("pull_request", answered, 0, { at: Date.now() - 80 * HOUR });
    for (let i = 0; i < 150; i++) gh.logAttempt("pull_request", answered, 200);
    const report = await recovery.sweep();
    expect(report).toMatchObject({ listed: 150, missed: 0 });
    expect(gh.count("GET", /^\/app\/hook\/deliveries$/)).toBe(2);
    gh.assertClean();
  });

  it("reads at most 20 pages of the log in a sweep, newest first, and says from when it did not look", async () => {
    const { gh, recovery, logs } = setup(["listDeliveries"]);
    const answered = pullRequestPayload("synchronize");
    for (let i = 0; i < 2150; i++)
      gh.logAttempt("pull_request", answered, 200, { at: Date.now() - 2150 + i });
    const report = await recovery.sweep();
    expect(report).toMatchObject({ listed: 2000, missed: 0 });
    expect(gh.count("GET", /^\/app\/hook\/deliveries$/)).toBe(20);
    expect(report.cut).toBe(gh.deliveryLog[150]!.delivered_at);
    expect(logs.filter((l) => /looked at the newest 2000 \(back to/.test(l.msg))).toHaveLength(1);
    gh.assertClean();
  });

  it("a delivery it does not act on (a title edit, a comment that is no command) is read once and settled", async () => {
    const { gh, recovery } = setup(["listDeliveries", "getDelivery"]);
    const edited = pullRequestPayload("opened");
    edited.action = "edited";
    edited.changes = { title: { from: "before" } };
    gh.logAttempt("pull_request", edited, 0);
    const comment = example("issue_comment", "created");
    comment.issue.pull_request = { url: "https://api.github.com/repos/acme/plugins/pulls/7" };
    comment.comment.body = "looks good";
    gh.logAttempt("issue_comment", comment, 0);
    expect(await recovery.sweep()).toMatchObject({ missed: 2, reviewed: 0, complete: 0 });
    expect(await recovery.sweep()).toMatchObject({ missed: 0 });
    expect(gh.count("GET", /^\/app\/hook\/deliveries\/\d+$/)).toBe(2);
    gh.assertClean();
  });

  it("holds of each missed delivery what its review needs: 300 pull requests' 65,536-character bodies are not kept through the sweep", async () => {
    const gh = new FakeGitHub(["listDeliveries", "getDelivery", "token", "listCheckRuns"]);
    const { probot, deliveries } = makeProbot();
    // A body as long as GitHub takes, written by each pull request's author (two bytes a character in V8).
    const body = "é".repeat(65_536);
    for (let n = 1; n <= 300; n++) {
      const opened = pullRequestPayload("opened", { number: n });
      opened.pull_request.body = body;
      gh.logAttempt("pull_request", opened, 0);
    }
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    let held: number | undefined;
    const handed: number[] = [];
    const recovery = probotRecovery(probot, {
      deliveries,
      windowMs: 72 * HOUR,
      operatorMetrics: counting().metrics,
      // Where the Lambda queues them: here, what the sweep holds once it has read them all.
      hand: async (d) => {
        if (held === undefined) {
          collectGarbage();
          held = process.memoryUsage().heapUsed - before;
        }
        handed.push((d.payload.pull_request as { number: number }).number);
      },
    });
    expect(await recovery.sweep()).toMatchObject({ missed: 300, reviewed: 1 });
    expect(handed).toHaveLength(300);
    // What the sweep held beyond what stays once it is over (the test's fake GitHub and mocks keep some).
    collectGarbage();
    const after = process.memoryUsage().heapUsed - before;
    // Before, every body was held until the last delivery was handed: 300 × 128 KB, about 38 MB more.
    expect(held! - after).toBeLessThan(8 * 1024 * 1024);
    gh.assertClean();
  }, 60_000);

  it.each([403, 404] as const)(
    "the delivery log answered %i: the sweep says what it cannot recover, once, and reviews go on",
    async (status) => {
      const { gh, recovery, probot, logs } = setup([
        "listDeliveries",
        "token",
        "graphql",
        "files",
        "createCheckRun",
        "createReview",
      ]);
      gh.deliveryLogRefused = status;
      const first = await recovery.sweep();
      expect(first.unreadable).toMatch(new RegExp(`GitHub answered ${status}`));
      await recovery.sweep();
      const said = logs.filter((l) => /cannot be recovered from it/.test(l.msg));
      expect(said).toHaveLength(1);
      expect(said[0]!.level).toBe(40); // a warning
      pull(gh, HEAD_SHA);
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ status: "completed" })]);
      gh.assertClean();
    },
  );
});

describe("recovery from the server's store", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "plugin-review-store-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("what the previous process received and did not finish is done at the first sweep: its run left in progress completed, nothing twice", async () => {
    // The previous process: it took pull request 7's delivery (on disk before its answer), created the run
    // in progress, and died.
    const previous = DeliveryStore.open(dir);
    const payload = pullRequestPayload("opened");
    previous.received({
      id: "d-crashed",
      name: "pull_request",
      payload: slimPayload("pull_request", payload),
      at: Date.now(),
    });
    previous.close();
    const store = DeliveryStore.open(dir);
    expect(store.inherited().map((d) => d.id)).toEqual(["d-crashed"]);
    const { gh, recovery, seen } = setup(
      ["listDeliveries", "token", "graphql", "files", "updateCheckRun", "createReview"],
      { store },
    );
    pull(gh, HEAD_SHA);
    const { conclusion: _, ...inProgress } = completedRun(HEAD_SHA, 77);
    gh.checkRuns.push({ ...inProgress, status: "in_progress" });
    // GitHub's log shows the delivery answered: only the store knows it was not finished.
    gh.logAttempt("pull_request", payload, 200, { guid: "d-crashed" });
    const report = await recovery.sweep();
    expect(report).toMatchObject({ resumed: 1, missed: 0 });
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ id: 77, status: "completed", conclusion: "failure" }),
    ]);
    expect(gh.reviews).toHaveLength(1);
    expect(store.pending()).toEqual([]);
    expect(seen["recovered:store"]).toBe(1);
    // A later sweep finds nothing left: the store does not hand it over again.
    expect(await recovery.sweep()).toMatchObject({ resumed: 0 });
    expect(gh.runsFor(HEAD_SHA)).toHaveLength(1);
    expect(gh.reviews).toHaveLength(1);
    store.close();
    gh.assertClean();
  });
});

describe("a delivery whose review the server died in twice", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "plugin-review-store-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is not handed back a third time: its run is completed as failure, nothing else is read or posted, the log names it", async () => {
    const payload = pullRequestPayload("opened");
    // Two processes took it, started its review, and died (out of memory, say) before it ended.
    const first = DeliveryStore.open(dir);
    first.received({
      id: "d-killer",
      name: "pull_request",
      payload: slimPayload("pull_request", payload),
      at: Date.now(),
    });
    first.started("d-killer");
    const second = DeliveryStore.open(dir);
    expect(second.inherited().map((d) => d.crashes)).toEqual([1]);
    second.started("d-killer");
    const store = DeliveryStore.open(dir);
    expect(store.inherited().map((d) => d.crashes)).toEqual([2]);
    const { gh, recovery, logs, seen } = setup(["listDeliveries", "token", "graphql", "updateCheckRun"], {
      store,
    });
    pull(gh, HEAD_SHA);
    // The first try left its run in progress.
    const { conclusion: _, ...inProgress } = completedRun(HEAD_SHA, 77);
    gh.checkRuns.push({ ...inProgress, status: "in_progress" });
    gh.logAttempt("pull_request", payload, 200, { guid: "d-killer" });
    expect(await recovery.sweep()).toMatchObject({ resumed: 0, abandoned: 1 });
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ id: 77, status: "completed", conclusion: "failure" });
    expect(run!.output!.title).toBe("plugin-review could not review this commit");
    expect(run!.output!.summary).toMatch(/stopped while reviewing it, more than once/);
    // Not reviewed again: no descriptor read, no review.
    expect(gh.graphqlFiles.filter((f) => f.includes("plugin.json"))).toEqual([]);
    expect(gh.reviews).toEqual([]);
    const said = logs.filter((l) => /d-killer/.test(l.msg));
    expect(said.map((l) => [l.level, l.delivery])).toEqual([[50, "d-killer"]]);
    expect(said[0]!.msg).toMatch(/not reviewed again/);
    expect(store.pending()).toEqual([]);
    expect(seen["recovered:store"]).toBeUndefined();
    store.close();
    for (const s of [first, second]) s.close();
    gh.assertClean();
  });
});

describe("the recovery window (PLUGIN_REVIEW_RECOVERY_WINDOW_HOURS), read alike by the server and Lambda", () => {
  const window = (value: string | undefined, fallback = 72) =>
    recoveryWindowMs(value === undefined ? {} : { PLUGIN_REVIEW_RECOVERY_WINDOW_HOURS: value }, fallback);

  it("takes hours above 0 and up to GitHub's 3 days, the entry point's default when unset", () => {
    expect([window(undefined), window(undefined, 1), window(""), window("0.5"), window(" 72 ")]).toEqual([
      72 * HOUR,
      HOUR,
      72 * HOUR,
      HOUR / 2,
      72 * HOUR,
    ]);
  });

  it.each(["0", "-1", "73", "720", "a day", "Infinity"])("refuses '%s', naming the variable", (value) => {
    expect(() => window(value)).toThrow(
      `PLUGIN_REVIEW_RECOVERY_WINDOW_HOURS must be a number of hours above 0 and at most 72 (GitHub keeps its delivery log 3 days), not '${value}'`,
    );
  });
});
