/**
 * New and existing findings in the App (interfaces.md): with `existing: report` (default) existing findings do not
 * decide the conclusion, get no review comment, are annotated as notices that say they predate the pull request, and
 * are counted in a collapsed section of the summary, with what the pull request fixed; `existing: fail` counts them.
 * Real app, real payloads, GitHub faked over nock with every request validated against the OpenAPI description.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  BASE_SHA,
  deliver,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  rewritePatch,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** A base with 14 old mistakes (dotted metric keys) and one more (alert samples 0). */
function base(): Json {
  const d: Json = validHost();
  for (let i = 0; i < 14; i++)
    d.metrics.push({ timeseries: { key: `old.metric${i}`, unit: "Count", displayname: `Old ${i}` } });
  d.metrics[0].alert_settings[0].samples = 0;
  return d;
}

/** A routine edit: version bumped, a chart renamed, the alert fixed; `mistakes` new metrics with a unit that does not exist. */
function head(mistakes: number): Json {
  const d = base();
  d.version = "1.2.1";
  d.ui.charts[0].title = "Latency per endpoint";
  d.metrics[0].alert_settings[0].samples = 5;
  for (let i = 0; i < mistakes; i++)
    d.metrics.push({ timeseries: { key: `new_metric${i}`, unit: "Secs", displayname: `New ${i}` } });
  return d;
}

function setup(routes: readonly Route[], before: string, after: string) {
  const gh = new FakeGitHub(routes);
  const { probot } = makeProbot();
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: rewritePatch(before, after) }];
  gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
  return { gh, probot };
}

describe("GitHub App: new and existing findings", () => {
  it("two new errors fail the check; 14 existing findings are notices, in a collapsed section, and not commented", async () => {
    const before = text(base());
    const after = text(head(2));
    const { gh, probot } = setup(REVIEW_ROUTES, before, after);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.output!.title).toBe("2 new errors · 14 existing findings not counted");
    // Annotations stay one per finding: the new ones at their level, the existing ones as notices saying why.
    const annotations = run!.annotations as Json[];
    expect(annotations).toHaveLength(16);
    const fresh = annotations.filter((a) => a.annotation_level === "failure");
    expect(fresh.map((a) => a.title)).toEqual(["invalid-value", "invalid-value"]);
    const old = annotations.filter((a) => a.annotation_level === "notice");
    expect(old).toHaveLength(14);
    for (const a of old) {
      expect(a.title).toBe("invalid-format");
      expect(a.message).toMatch(/^Existing finding: it predates this pull request/);
    }
    // The summary: new findings first, the existing ones collapsed, and what the pull request fixed.
    const summary = run!.output!.summary as string;
    const at = (s: string) => summary.indexOf(s);
    expect(at("### New findings")).toBeGreaterThan(-1);
    expect(at("<details>")).toBeGreaterThan(at("### New findings"));
    expect(summary).toContain(
      "<summary>14 existing findings (already in the base branch; not counted)</summary>",
    );
    expect(summary).toContain("This pull request fixes 1 finding.");
    // The table counts what the title counts, and the existing findings in a column of their own.
    expect(summary).toContain(
      "| Descriptor | New errors | New warnings | New notices | Existing (not counted) |",
    );
    expect(summary).toMatch(/^\| `[^`]+` \| 2 \| 0 \| 0 \| 14 \|$/m);
    const newSection = summary.slice(at("### New findings"), at("<details>"));
    expect(newSection.match(/invalid-value/g)?.length).toBe(2 * 2); // rule link text and URL, per row
    expect(newSection).not.toContain("invalid-format");
    expect(summary.slice(at("<details>")).match(/^\| 🔴 \|.*invalid-format/gm)).toHaveLength(14);
    // The review comments on the two new findings only, though every line is in the diff.
    expect(gh.reviews).toHaveLength(1);
    expect(gh.comments.map((c) => c.body.match(/\[`([a-z-]+)`\]/)?.[1])).toEqual([
      "invalid-value",
      "invalid-value",
    ]);
    expect(gh.reviews[0]!.body).not.toContain("invalid-format");
    gh.assertClean();
  });

  it("a routine edit of a descriptor with old mistakes passes, and posts no review", async () => {
    const before = text(base());
    const after = text(head(0));
    const { gh, probot } = setup(
      REVIEW_ROUTES.filter((r) => r !== "createReview"),
      before,
      after,
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run!.output!.title).toBe("No new findings · 14 existing findings not counted");
    expect(run!.output!.summary).toMatch(/\*\*Passing\*\*: no new findings\./);
    expect((run!.annotations as Json[]).every((a) => a.annotation_level === "notice")).toBe(true);
    expect(gh.reviews).toEqual([]);
    gh.assertClean();
  });

  it("existing: fail (from the default branch) counts existing findings like new ones", async () => {
    const before = text(base());
    const after = text(head(0));
    const { gh, probot } = setup(REVIEW_ROUTES, before, after);
    gh.file(R, "HEAD", ".github/plugin-review.yml", "existing: fail\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect((run!.annotations as Json[]).filter((a) => a.annotation_level === "failure")).toHaveLength(14);
    // Fourteen times one problem in one file: one review comment listing the lines.
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]!.body).toMatch(/reported 14 times in `p\/plugin\.json`, on lines (\d+, ){13}\d+;/);
    gh.assertClean();
  });
});
