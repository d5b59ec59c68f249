/**
 * A merge queue asks for the required checks on the merge group's head commit (`merge_group`
 * `checks_requested`): the real example payload, against the OpenAPI-validated fake GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost, validRemote } from "../../helpers.js";
import { lastTry } from "../../../src/github/review/check-run/complete.js";
import { MERGE_QUEUE_RETRY } from "../../../src/github/review/check-run/output.js";
import { FakeGitHub, MERGE_GROUP_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  BASE_SHA,
  deliver,
  deliverWith,
  HEAD_SHA,
  makeProbot,
  mergeGroupPayload,
  OWNER,
  REPO,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The same files at both commits of the group, then the descriptors the group changes. */
function commits(gh: FakeGitHub, unchanged: Record<string, string>) {
  for (const [path, content] of Object.entries(unchanged)) {
    gh.file(R, BASE_SHA, path, content).file(R, HEAD_SHA, path, content);
  }
}

describe("GitHub App: merge queue", () => {
  it("fails the merge group's check when a queued change breaks a descriptor, and posts no review", async () => {
    const gh = new FakeGitHub(MERGE_GROUP_ROUTES);
    const { probot } = makeProbot();
    const before = validHost();
    const after = { ...validHost(), metricGroup: "tech.other" }; // version not bumped, metric group changed
    commits(gh, { "README.md": "# plugins\n", "remote/plugin.json": text(validRemote()) });
    gh.file(R, BASE_SHA, "host/plugin.json", text(before)).file(R, HEAD_SHA, "host/plugin.json", text(after));
    await deliver(probot, "merge_group", mergeGroupPayload());
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ name: "plugin-review", status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => [a.path, a.title]).sort()).toEqual([
      ["host/plugin.json", "metric-group-changed"],
      ["host/plugin.json", "version-not-bumped"],
    ]);
    // Only the descriptor the group changed was read: the unchanged remote one is not reviewed.
    expect(gh.requests.filter((r) => r.path.includes("/contents/remote"))).toEqual([]);
    expect(gh.reviews).toEqual([]);
    expect(gh.count("GET", /\/compare\/b{40}\.\.\.c{40}$/)).toBe(1);
    gh.assertClean();
  });

  it("passes a merge group whose descriptors are valid, with the default branch's configuration", async () => {
    const gh = new FakeGitHub(MERGE_GROUP_ROUTES);
    const { probot } = makeProbot();
    const before = validRemote();
    const after = { ...validRemote(), version: "9.9.9", favicon: "x.png" }; // an unknown member
    gh.file(R, BASE_SHA, "r/plugin.json", text(before)).file(R, HEAD_SHA, "r/plugin.json", text(after));
    // The default branch's configuration turns the rule off; the group's own copy (at its head) would not.
    gh.file(R, "HEAD", ".github/plugin-review.yml", "rules:\n  unknown-member: off\n");
    gh.file(R, HEAD_SHA, ".github/plugin-review.yml", "fail_on: notice\n");
    await deliver(probot, "merge_group", mergeGroupPayload());
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run!.output?.title).toBe("0 errors, 0 warnings, 0 notices in 1 descriptor");
    expect(gh.reviews).toEqual([]);
    gh.assertClean();
  });

  it("passes a merge group that changes no descriptor (the required check must still appear)", async () => {
    const gh = new FakeGitHub(MERGE_GROUP_ROUTES);
    const { probot } = makeProbot();
    commits(gh, { "p/plugin.json": text(validHost()) });
    gh.file(R, HEAD_SHA, "docs/new.md", "new\n");
    await deliver(probot, "merge_group", mergeGroupPayload());
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "success" }),
    ]);
    // The configuration was looked up; no descriptor was read.
    expect(gh.requests.filter((r) => /\/contents\/p\//.test(r.path))).toEqual([]);
    gh.assertClean();
  });

  it("a review GitHub failed says the merge queue retries it, not a Re-run (which reviews no merge group)", async () => {
    const gh = new FakeGitHub([...MERGE_GROUP_ROUTES, "updateCheckRun"]);
    const { probot, deliveries } = makeProbot();
    commits(gh, { "p/plugin.json": text(validHost()) });
    gh.failFor("GET", /\/compare\//, 60_000, { status: 502 });
    await expect(
      deliverWith(
        probot,
        deliveries,
        { attempt: 0, endsBy: Date.now() + 4000 },
        "merge_group",
        mergeGroupPayload(),
      ),
    ).rejects.toThrow();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const summary = run!.output!.summary!;
    expect(summary).not.toMatch(/Re-run the check|Re-running the check/);
    expect(summary).toMatch(
      /\n\nAdd the pull request to the merge queue again to retry it \(a Re-run of this check reviews nothing\)\.$/,
    );
  });

  it("the failing run a last try holds says how the queue retries a merge group, and a Re-run for a pull request", () => {
    const queued = lastTry(true).summary;
    expect(queued).toMatch(/that was its last try/);
    expect(queued).not.toMatch(/Re-run the check/);
    expect(queued).toContain(MERGE_QUEUE_RETRY);
    expect(lastTry(false).summary).toMatch(/\n\nRe-run the check to try once more\. /);
    expect(lastTry(false).summary).not.toContain(MERGE_QUEUE_RETRY);
  });

  it("compares through the commits' trees when the comparison lists its 300 files", async () => {
    const gh = new FakeGitHub([...MERGE_GROUP_ROUTES, "tree"]);
    const { probot } = makeProbot();
    commits(gh, { "README.md": "# plugins\n" });
    for (let i = 0; i < 320; i++)
      gh.file(R, HEAD_SHA, `docs/page-${String(i).padStart(3, "0")}.md`, `${i}\n`);
    // Sorted after the docs, so beyond the 300 files the comparison lists.
    gh.file(R, HEAD_SHA, "zz/plugin.json", text({ ...validHost(), metricGroup: undefined }));
    await deliver(probot, "merge_group", mergeGroupPayload());
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => [a.path, a.title])).toEqual([
      ["zz/plugin.json", "metric-group-missing"],
    ]);
    expect(gh.count("GET", /\/git\/trees\//)).toBe(2);
    gh.assertClean();
  });
});
