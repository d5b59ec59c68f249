/**
 * `pull_request` `edited` with `changes.base`: a pull request moved to another base branch is compared
 * again, against the new base; an edit of its title or body reviews nothing (`editedPayload`: the real
 * `opened` example turned into an edit).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  BASE_SHA,
  deliver,
  editedPayload as edited,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;
const NEW_BASE = "e".repeat(40);

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

describe("GitHub App: retargeted pull request", () => {
  it("reviews again against the new base when the base branch changes", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "updateCheckRun", "graphql"]);
    const { probot } = makeProbot();
    const head = validHost();
    // On the old base the metric group differs (it can never change): failure. On the new one only the
    // version is older: a proper change.
    gh.file(R, BASE_SHA, "p/plugin.json", text({ ...head, version: "1.1.0", metricGroup: "tech.old" }));
    gh.file(R, NEW_BASE, "p/plugin.json", text({ ...head, version: "1.1.0" }));
    gh.file(R, HEAD_SHA, "p/plugin.json", text(head));
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: "@@ -7,1 +7,1 @@\n-x\n+x" }];
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toEqual(["metric-group-changed"]);

    gh.retarget(7, NEW_BASE);
    await deliver(
      probot,
      "pull_request",
      edited({ base: { ref: { from: "release" }, sha: { from: BASE_SHA } } }, NEW_BASE),
    );
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    const reads = gh.graphqlFiles.filter((f) => f.endsWith(":p/plugin.json")).map((f) => f.split(/[@:]/)[1]);
    expect(reads).toEqual([HEAD_SHA, BASE_SHA, HEAD_SHA, NEW_BASE]);
    gh.assertClean();
  });

  it("reviews a delivery older than the edit (retried, delayed) against the base now: its pass is not written over the new base's failure", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    const head = validHost();
    // On the old base only the version is older: a proper change. On the new one the metric group differs.
    gh.file(R, BASE_SHA, "p/plugin.json", text({ ...head, version: "1.1.0" }));
    gh.file(R, NEW_BASE, "p/plugin.json", text({ ...head, version: "1.1.0", metricGroup: "tech.old" }));
    gh.file(R, HEAD_SHA, "p/plugin.json", text(head));
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: "@@ -7,1 +7,1 @@\n-x\n+x" }];
    gh.retarget(7, NEW_BASE);
    await deliver(
      probot,
      "pull_request",
      edited({ base: { ref: { from: "release" }, sha: { from: BASE_SHA } } }, NEW_BASE),
    );
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    // The `opened` delivery, sent before the edit, arrives (or is tried again) after it.
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const reads = gh.graphqlFiles.filter((f) => f.endsWith(":p/plugin.json")).map((f) => f.split(/[@:]/)[1]);
    expect(reads).not.toContain(BASE_SHA);
    gh.assertClean();
  });

  it("does nothing when an edit leaves the base alone (title, body)", async () => {
    const gh = new FakeGitHub([]);
    const { probot } = makeProbot();
    await deliver(probot, "pull_request", edited({ title: { from: "Old title" } }, BASE_SHA));
    expect(gh.requests).toEqual([]);
    expect(gh.checkRuns).toEqual([]);
    gh.assertClean();
  });
});
