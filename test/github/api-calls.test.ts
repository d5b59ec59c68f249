/**
 * Counts the GitHub API calls of a review (`npm run bench` prints these figures). Bounds here are
 * regression guards; the figures and their reasons are in the README.
 */
import { writeFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { FakeGitHub, LATER_REVIEW_ROUTES, REVIEW_ROUTES } from "./fake-github.js";
import { cleanup, disableNetwork } from "./github-mock.js";
import { BASE_SHA, deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "./harness.js";

const R = `${OWNER}/${REPO}`;
const figures: Record<string, { calls: number; byRoute: Record<string, number> }> = {};

beforeEach(() => disableNetwork());
afterEach(() => cleanup());
afterAll(() => {
  console.log(JSON.stringify(figures, null, 2));
  if (process.env.PLUGIN_REVIEW_API_CALLS_OUT)
    writeFileSync(process.env.PLUGIN_REVIEW_API_CALLS_OUT, JSON.stringify(figures));
});

function record(name: string, gh: FakeGitHub): number {
  const byRoute: Record<string, number> = {};
  for (const r of gh.requests) {
    const key = `${r.method} ${r.path
      .replace(/\/repos\/[^/]+\/[^/]+/, "/repos/{o}/{r}")
      .replace(/\/\d+/g, "/{n}")
      .replace(/\/contents\/.*/, "/contents/{path}")
      .replace(/\/commits\/[^/]+/, "/commits/{sha}")}`;
    byRoute[key] = (byRoute[key] ?? 0) + 1;
  }
  figures[name] = { calls: gh.requests.length, byRoute };
  return gh.requests.length;
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

describe("GitHub API calls per review", () => {
  it("one changed descriptor with three findings, in an organisation's repository", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = [threeFindings(gh, "p/plugin.json")];
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(3);
    expect(record("opened, 1 descriptor, 3 findings (organisation)", gh)).toBeLessThanOrEqual(9);
    gh.assertClean();
  });

  it("the same in a user's repository (no organisation policy to read)", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = [threeFindings(gh, "p/plugin.json")];
    await deliver(probot, "pull_request", pullRequestPayload("opened", { ownerType: "User" }));
    expect(record("opened, 1 descriptor, 3 findings (user)", gh)).toBeLessThanOrEqual(8);
    gh.assertClean();
  });

  it("a later push of the same", async () => {
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = [threeFindings(gh, "p/plugin.json")];
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    expect(record("synchronize, 1 descriptor, 3 findings (organisation)", gh)).toBeLessThanOrEqual(11);
    gh.assertClean();
  });

  it("ten changed descriptors", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = Array.from({ length: 10 }, (_, i) => threeFindings(gh, `p${i}/plugin.json`));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(30 + 10); // 3 each, plus duplicate-plugin-name once each (they share a name)
    expect(record("opened, 10 descriptors (organisation)", gh)).toBeLessThanOrEqual(28);
    gh.assertClean();
  });
});
