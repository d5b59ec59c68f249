/**
 * A pull request opened by the App's own account (an automation reusing the App's credentials): GitHub lets no
 * author request changes on their own pull request (422 "Review Can not request changes on your own pull
 * request", REST and GraphQL alike). With `review: request-changes`, the App's review is posted as a comment
 * instead, its line comments kept, rather than lost. Real app, real payloads, the validated fake GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../../helpers.js";
import { FakeGitHub, LATER_REVIEW_ROUTES, reviewState } from "../../fake-github.js";
import { cleanup, disableNetwork } from "../../github-mock.js";
import {
  BASE_SHA,
  deliver,
  deliverPush,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  rewritePatch,
} from "../../harness.js";

const R = `${OWNER}/${REPO}`;
const PATH = "p/plugin.json";
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The version bumped and two new metrics, those in `bad` with a unit that does not exist (one error each). */
function head(bad: number[]): string {
  const d: Json = validHost();
  d.version = "1.2.1";
  for (let i = 0; i < 2; i++)
    d.metrics.push({
      timeseries: { key: `new_metric${i}`, unit: bad.includes(i) ? "Secs" : "Count", displayname: `N ${i}` },
    });
  return text(d);
}

function at(gh: FakeGitHub, sha: string, content: string): void {
  const before = text(validHost());
  gh.prFiles = [{ filename: PATH, status: "modified", patch: rewritePatch(before, content) }];
  gh.file(R, sha, PATH, content).file(R, BASE_SHA, PATH, before);
}

const roots = (gh: FakeGitHub) => gh.comments.filter((c) => !c.in_reply_to_id);

describe("GitHub App: request-changes on a pull request the App's own account opened", () => {
  it("posts the review as a comment, with its line comments, first through REST then through GraphQL", async () => {
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
    gh.ownPulls.add(`${R}#7`);
    const { probot } = makeProbot();
    gh.file(R, "HEAD", ".github/plugin-review.yml", "review: request-changes\n");
    at(gh, HEAD_SHA, head([0]));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.checkRuns.map((r) => r.conclusion)).toEqual(["failure"]);
    expect(gh.reviews.map((r) => [r.user.type, reviewState(r)])).toEqual([["Bot", "COMMENTED"]]);
    expect(roots(gh)).toHaveLength(1);

    // The next push fixes metric 0 and breaks metric 1: one GraphQL document answers the fixed thread and
    // posts the review, which GitHub refuses as unprocessable; the review still gets posted, as a comment.
    const next = "d".repeat(40);
    at(gh, next, head([1]));
    await deliverPush(probot, gh, next);
    expect(gh.reviews.map((r) => [r.commit_id, reviewState(r)])).toEqual([
      [HEAD_SHA, "COMMENTED"],
      [next, "COMMENTED"],
    ]);
    expect(gh.resolved).toEqual(new Set([roots(gh)[0]!.id]));
    expect(gh.reviews[1]!.body).toContain("metrics[3].timeseries.unit");
    gh.assertClean();
  });
});
