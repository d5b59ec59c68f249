/**
 * Integration tests: the real app, real webhook payloads, GitHub faked over HTTP with nock (every request
 * validated against GitHub's OpenAPI description, no interceptor left unused).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost, validRemote } from "../helpers.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "./fake-github.js";
import { cleanup, disableNetwork } from "./github-mock.js";
import { BASE_SHA, deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "./harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** A unified diff that adds every line of `content` (a new file). */
function addedPatch(content: string): string {
  const lines = content.replace(/\n$/, "").split("\n");
  return `@@ -0,0 +1,${lines.length} @@\n` + lines.map((l) => `+${l}`).join("\n");
}

/** A diff with one hunk that changes line `line` and shows three lines of context around it. */
function changedLinePatch(before: string, after: string, line: number): string {
  const a = after.split("\n");
  const b = before.split("\n");
  const from = Math.max(1, line - 3);
  const to = Math.min(a.length - 1, line + 3);
  const out: string[] = [];
  for (let i = from; i <= to; i++) {
    if (i === line) out.push(`-${b[i - 1]}`, `+${a[i - 1]}`);
    else out.push(` ${a[i - 1]}`);
  }
  return `@@ -${from},${to - from + 1} +${from},${to - from + 1} @@\n${out.join("\n")}`;
}

function lineOfText(t: string, needle: string): number {
  return t.slice(0, t.indexOf(needle)).split("\n").length;
}

function setup(routes: readonly Route[] = REVIEW_ROUTES) {
  const gh = new FakeGitHub(routes);
  const { probot, logs } = makeProbot();
  return { gh, probot, logs };
}

describe("GitHub App: pull request review", () => {
  it("passes a valid new plugin: one completed check run, no review needed", async () => {
    const { gh, probot } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const plugin = text(validHost());
    gh.prFiles = [{ filename: "plugins/demo/plugin.json", status: "added", patch: addedPatch(plugin) }];
    gh.file(R, HEAD_SHA, "plugins/demo/plugin.json", plugin);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ name: "plugin-review", status: "completed", conclusion: "success" });
    expect(run!.output?.title).toBe("0 errors, 0 warnings, 0 notices in 1 descriptor");
    expect(gh.reviews).toEqual([]);
    gh.assertClean();
  });

  it("reports a change without a version bump whose version line is outside the diff", async () => {
    const { gh, probot } = setup();
    const before = text(validHost());
    const head = validHost();
    (head.ui as Record<string, unknown>).keymetrics = [];
    const after = text(head);
    const changedAt = lineOfText(after, '"keymetrics": []');
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: changedLinePatch(before, after, changedAt) }];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations).toEqual([
      expect.objectContaining({ path: "p/plugin.json", title: "version-not-bumped", annotation_level: "failure", start_line: lineOfText(after, '"version"') }),
    ]);
    // Line 3 is not in the diff: the finding goes to the review body, not to a line comment GitHub would refuse.
    expect(gh.comments).toEqual([]);
    expect(gh.reviews).toHaveLength(1);
    expect(gh.reviews[0]!.event).toBe("COMMENT");
    expect(gh.reviews[0]!.body).toMatch(/`p\/plugin\.json:3` \[`version-not-bumped`\]/);
    gh.assertClean();
  });

  it("comments on diff lines, with a suggestion where the fix is mechanical", async () => {
    const { gh, probot } = setup();
    const base = validHost();
    const before = text(base);
    const after = text({ ...base, requiredAgentVersion: "1.102.0" });
    const at = lineOfText(after, '"requiredAgentVersion"');
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: changedLinePatch(before, after, at) }];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    // The version line is context of the hunk around the changed line, so it can carry a suggestion.
    expect(gh.comments).toEqual([
      expect.objectContaining({ path: "p/plugin.json", line: lineOfText(after, '"version"'), side: "RIGHT" }),
    ]);
    expect(gh.comments[0]!.body).toContain('```suggestion\n  "version": "1.2.1",\n```');
    expect(gh.comments[0]!.body).toMatch(/<!-- plugin-review:fingerprint=[0-9a-f]{16} -->/);
    gh.assertClean();
  });

  it("fails on a metricGroup change and suggests restoring it on its line", async () => {
    const { gh, probot } = setup();
    const base = validHost();
    const before = text(base);
    const after = text({ ...base, version: "1.3.0", metricGroup: "tech.python.other" }).replace('"1.3.0"', '"1.3.0"');
    const at = lineOfText(after, '"metricGroup"');
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: changedLinePatch(before, after, at) }];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "failure" });
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toEqual(["metric-group-changed"]);
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]).toMatchObject({ line: at });
    expect(gh.comments[0]!.body).toContain('```suggestion\n  "metricGroup": "tech.python.demo",\n```');
    gh.assertClean();
  });
});
