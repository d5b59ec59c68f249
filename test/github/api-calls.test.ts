/**
 * Counts the GitHub API calls of a review (`npm run bench` prints these figures). Bounds here are
 * regression guards; the figures and their reasons are in the README.
 */
import { writeFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATION, text, validHost } from "../helpers.js";
import { FakeGitHub, LATER_REVIEW_ROUTES, REVIEW_ROUTES } from "./fake-github.js";
import { cleanup, disableNetwork } from "./github-mock.js";
import {
  BASE_SHA,
  checkSuitePayload,
  deliver,
  deliverPush,
  HEAD_SHA,
  isAppRequest,
  isWrite,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  writesIn,
} from "./harness.js";

const R = `${OWNER}/${REPO}`;
const figures: Record<string, { calls: number; writes: number; byRoute: Record<string, number> }> = {};

beforeEach(() => disableNetwork());
afterEach(() => cleanup());
afterAll(() => {
  console.log(JSON.stringify(figures, null, 2));
  if (process.env.PLUGIN_REVIEW_API_CALLS_OUT)
    writeFileSync(process.env.PLUGIN_REVIEW_API_CALLS_OUT, JSON.stringify(figures));
});

/**
 * Records a scenario's calls, not counting the App's own requests (the installation token, and its account,
 * asked once per process: as the budget does), and returns them with the writes among them (GraphQL queries
 * are reads).
 */

function record(name: string, gh: FakeGitHub): { calls: number; writes: number } {
  const byRoute: Record<string, number> = {};
  const counted = gh.requests.filter((r) => !isAppRequest(r));
  for (const r of counted) {
    const key = `${r.method} ${r.path
      .replace(/\/repos\/[^/]+\/[^/]+/, "/repos/{o}/{r}")
      .replace(/\/\d+/g, "/{n}")
      .replace(/\/contents\/.*/, "/contents/{path}")
      .replace(/\/commits\/[^/]+/, "/commits/{sha}")}`;
    byRoute[key] = (byRoute[key] ?? 0) + 1;
  }
  const writes = counted.filter(isWrite).length;
  figures[name] = { calls: counted.length, writes, byRoute };
  return { calls: counted.length, writes };
}

/** A diff that adds every line of `content`, so that each finding is on a line of the diff (a thread). */
function wholeFile(content: string): string {
  const lines = content.replace(/\n$/, "").split("\n");
  return `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`;
}

/** A modified descriptor with three findings: version not bumped, an unknown member and a stacked line series. */
function threeFindings(gh: FakeGitHub, path: string, sha = HEAD_SHA) {
  const before = validHost();
  const after = validHost();
  after.requiredAgentVersion = "1.102.0";
  after.favicon = "x.png";
  (after.ui as { charts: { series: Record<string, unknown>[] }[] }).charts[0]!.series[0]!.stacked = true;
  gh.file(R, BASE_SHA, path, text(before)).file(R, sha, path, text(after));
  return { filename: path, status: "modified" as const, patch: "@@ -1,1 +1,1 @@\n-{\n+{" };
}

/** A just-opened pull request whose three findings are all line comments (threads); requests cleared after. */
async function openedWithThreads() {
  const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
  const { probot } = makeProbot();
  const file = threeFindings(gh, "p/plugin.json");
  const opened = gh.contents.get(`${R}@${HEAD_SHA}`)!.get("p/plugin.json")!.toString();
  // Every line of the descriptor is in the diff, so each finding is a line comment (a thread).
  file.patch = wholeFile(opened);
  gh.prFiles = [file];
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  expect(gh.comments).toHaveLength(3);
  return { gh, probot, file, opened };
}

describe("GitHub API calls per review", () => {
  it("one changed descriptor with three findings, in an organisation's repository", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = [threeFindings(gh, "p/plugin.json")];
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(3);
    // The budget: at most 6 calls (here: the pull request as it is now, the check run and configuration
    // query, the file list, the descriptor query, the check run created completed, the review), at most 2
    // writes.
    const { calls, writes } = record("opened, 1 descriptor, 3 findings (organisation)", gh);
    expect(calls).toBeLessThanOrEqual(6);
    expect(writes).toBe(2);
    gh.assertClean();
  });

  it("the same in a user's repository (no organisation policy to read)", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = [threeFindings(gh, "p/plugin.json")];
    await deliver(probot, "pull_request", pullRequestPayload("opened", { ownerType: "User" }));
    expect(record("opened, 1 descriptor, 3 findings (user)", gh).calls).toBeLessThanOrEqual(6);
    gh.assertClean();
  });

  it("a later push of the same", async () => {
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = [threeFindings(gh, "p/plugin.json")];
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    // The budget for a later push: at most 7 (it also lists the review comments and reviews).
    const { calls, writes } = record("synchronize, 1 descriptor, 3 findings (organisation)", gh);
    expect(calls).toBeLessThanOrEqual(7);
    expect(writes).toBe(2);
    gh.assertClean();
  });

  it("a push as GitHub sends it: synchronize and check_suite.requested, the second writing nothing", async () => {
    const gh = new FakeGitHub([...LATER_REVIEW_ROUTES, "getPull"]);
    const { probot } = makeProbot();
    gh.prFiles = [threeFindings(gh, "p/plugin.json")];
    const pr = pullRequestPayload("synchronize");
    gh.pulls.set(7, structuredClone(pr.pull_request));
    const suite = checkSuitePayload(pr);
    await Promise.all([deliver(probot, "pull_request", pr), deliver(probot, "check_suite", suite)]);
    expect(gh.reviews).toHaveLength(1);
    // Both events are reviewed (one after the other); the second finds the run already saying what it
    // found and the review already posted: its reads are extra calls, but the push makes 2 writes.
    const { writes } = record("a push: synchronize + check_suite.requested (organisation)", gh);
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /pulls/7/reviews"]);
    expect(writes).toBe(2);
    gh.assertClean();
  });

  it("a later push where GraphQL is refused (REST reads, as on a GitHub Enterprise Server without it)", async () => {
    const gh = new FakeGitHub([
      ...LATER_REVIEW_ROUTES,
      "listCheckRuns",
      "contents",
      "listComments",
      "listReviews",
      "getPull",
    ]);
    gh.graphqlUnavailable = true;
    gh.pulls.set(7, pullRequestPayload("opened").pull_request); // REST reads where the pull request is now
    const { probot } = makeProbot();
    gh.prFiles = [threeFindings(gh, "p/plugin.json")];
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    expect(gh.reviews).toHaveLength(1);
    // Outside the budget (which is GitHub.com's): the pull request as it is now, three GraphQL queries
    // refused (each still a request), then REST: the run, two configuration files, the file list, head and
    // base, the review comments, the reviews and the pull request again (its head before posting: GraphQL's
    // threads query says it at no cost); and the same two writes.
    const { calls, writes } = record(
      "synchronize, 1 descriptor, 3 findings, GraphQL refused (organisation)",
      gh,
    );
    expect(calls).toBeLessThanOrEqual(14);
    expect(writes).toBe(2);
    gh.assertClean();
  });

  it("nothing to comment: one write", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    gh.file(R, HEAD_SHA, "p/plugin.json", text(validHost()));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ status: "completed", conclusion: "success" });
    const { calls, writes } = record("opened, 1 clean descriptor (organisation)", gh);
    // The pull request, the first query, the file list, the descriptor query, the check run.
    expect(calls).toBeLessThanOrEqual(5);
    expect(writes).toBe(1);
    gh.assertClean();
  });

  it("a later push that fixes the commented findings: their threads resolved in one GraphQL write", async () => {
    const { gh, probot } = await openedWithThreads();
    const threads = gh.comments.length;
    const next = "d".repeat(40);
    const fixed = validHost();
    fixed.version = "1.2.1";
    gh.file(R, next, "p/plugin.json", text(fixed));
    gh.mock.requests.length = 0;
    await deliverPush(probot, gh, next);
    expect(gh.resolved.size).toBe(threads);
    // Two writes: the check run, and one GraphQL mutation that answers and resolves every fixed thread.
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /graphql"]);
    const { calls, writes } = record("synchronize fixing every finding (organisation)", gh);
    expect(calls).toBeLessThanOrEqual(7);
    expect(writes).toBe(2);
    gh.assertClean();
  });

  it("a later push that fixes every finding after the App requested changes: threads and dismissal in one write", async () => {
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.file(R, "HEAD", ".github/plugin-review.yml", "review: request-changes\n");
    const file = threeFindings(gh, "p/plugin.json");
    file.patch = wholeFile(gh.contents.get(`${R}@${HEAD_SHA}`)!.get("p/plugin.json")!.toString());
    gh.prFiles = [file];
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.reviews.map((r) => r.event)).toEqual(["REQUEST_CHANGES"]);
    const next = "d".repeat(40);
    gh.file(R, next, "p/plugin.json", text({ ...validHost(), version: "1.2.1" }));
    gh.mock.requests.length = 0;
    await deliverPush(probot, gh, next);
    expect(gh.reviews[0]!.dismissed).toMatch(/passes/);
    // The same two writes as any push that fixes findings: the dismissal rides in the threads' document.
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /graphql"]);
    const { calls, writes } = record(
      "synchronize fixing every finding after request-changes (organisation)",
      gh,
    );
    expect(calls).toBeLessThanOrEqual(7);
    expect(writes).toBe(2);
    gh.assertClean();
  });

  it("a later push that fixes a commented finding and adds a new one: the review and the resolution in one GraphQL write", async () => {
    const { gh, probot, file, opened } = await openedWithThreads();
    // The next push bumps the version (version-not-bumped is fixed) and adds an unknown member (a new finding).
    const next = "d".repeat(40);
    const after = JSON.parse(opened) as Record<string, unknown>;
    after.version = "1.2.1";
    after.homepage = "https://example.com";
    gh.file(R, next, "p/plugin.json", text(after));
    gh.prFiles = [{ ...file, patch: wholeFile(text(after)) }];
    gh.mock.requests.length = 0;
    await deliverPush(probot, gh, next);
    expect(gh.resolved.size).toBe(1);
    expect(gh.reviews).toHaveLength(2);
    const added = gh.comments.filter((c) => c.commit_id === next && !c.in_reply_to_id);
    expect(added.map((c) => c.body)).toEqual([expect.stringContaining("unknown-member")]);
    expect(added[0]!.body).toContain("homepage");
    // Two writes: the check run, and one GraphQL document with the review and the fixed thread's reply and resolution.
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /graphql"]);
    const mutation = gh.requests.filter(isWrite)[1]!.body as { query: string };
    expect(mutation.query).toMatch(/review: addPullRequestReview[\s\S]*resolve0: resolveReviewThread/);
    const { calls, writes: n } = record("synchronize fixing one finding and adding one (organisation)", gh);
    expect(calls).toBeLessThanOrEqual(7);
    expect(n).toBe(2);
    gh.assertClean();
  });

  it("a migration pull request: plugin.json deleted, extension/extension.yaml added with a finding", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    const lost = MIGRATION.extension.replace(
      "            - key: example.pool.idle\n",
      "            - key: example.pool.idle_connections\n",
    );
    gh.file(R, BASE_SHA, "p/plugin.json", MIGRATION.plugin).file(
      R,
      HEAD_SHA,
      "p/extension/extension.yaml",
      lost,
    );
    gh.prFiles = [
      { filename: "p/plugin.json", status: "removed" },
      { filename: "p/extension/extension.yaml", status: "added", patch: wholeFile(lost) },
    ];
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    // The EF1 metric lost, the metadata left describing it, and the renamed key without metadata.
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toEqual([
      "migration-metric-missing",
      "metric-not-reported",
      "metric-metadata-missing",
    ]);
    // The same budget as a descriptor's: the plugin.json is read in the query that reads the extension.
    const { calls, writes } = record("opened, a migration with 1 finding (organisation)", gh);
    expect(calls).toBeLessThanOrEqual(6);
    expect(writes).toBe(2);
    gh.assertClean();
  });

  it("a pull request that changes only an extension.yaml (no plugin.json anywhere), with a finding", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    const after = MIGRATION.extension.replace('version: "1.7.0"', "version: 1.8");
    gh.file(R, BASE_SHA, "p/extension/extension.yaml", MIGRATION.extension).file(
      R,
      HEAD_SHA,
      "p/extension/extension.yaml",
      after,
    );
    gh.prFiles = [
      {
        filename: "p/extension/extension.yaml",
        status: "modified",
        patch:
          '@@ -1,3 +1,3 @@\n name: custom:example.pool\n-version: "1.7.0"\n+version: 1.8\n minDynatraceVersion: "1.275.0"',
      },
    ];
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toContain("ef2-version-format");
    // A descriptor's budget: head, base and the plugin.json it might replace are read in one query.
    const { calls, writes } = record("opened, 1 extension.yaml with 1 finding (organisation)", gh);
    expect(calls).toBeLessThanOrEqual(6);
    expect(writes).toBe(2);
    gh.assertClean();
  });

  it("ten changed descriptors", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = Array.from({ length: 10 }, (_, i) => threeFindings(gh, `p${i}/plugin.json`));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(30 + 10); // 3 each, plus duplicate-plugin-name once each (they share a name)
    expect(record("opened, 10 descriptors (organisation)", gh).calls).toBeLessThanOrEqual(6);
    gh.assertClean();
  });
});
