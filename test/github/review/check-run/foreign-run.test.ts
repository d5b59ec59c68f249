/**
 * Only the App's own words count (interfaces.md, "Trust"), its check runs too: another app (a workflow's
 * `GITHUB_TOKEN`, any App with `checks: write`) may create a run named `plugin-review` on the pull request's
 * head commit. A `pull_request` delivery does not say which App it is for (its `installation` holds no
 * `app_id`), so the App knows its runs by its own id: a foreign run is neither taken for its result nor
 * written (GitHub refuses that), and the commit still gets the App's own completed run.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../../helpers.js";
import { APP_ID, FakeGitHub, REVIEW_ROUTES } from "../../fake-github.js";
import { cleanup, disableNetwork } from "../../github-mock.js";
import { addedFile, deliver, HEAD_SHA, makeProbot, pullRequestPayload } from "../../harness.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** GitHub Actions' App id: what a workflow's check run is created by. */
const ACTIONS_APP_ID = 15368;

describe("another app's `plugin-review` check run on the head commit", () => {
  it("is left alone: the App creates and completes its own run with its own verdict", async () => {
    // The harness's payload, as GitHub sends it: its installation an id, no app_id.
    expect(Object.keys(pullRequestPayload("opened").installation)).not.toContain("app_id");
    const gh = new FakeGitHub(REVIEW_ROUTES);
    gh.checkRuns.push({
      id: 900,
      name: "plugin-review",
      head_sha: HEAD_SHA,
      status: "completed",
      conclusion: "success",
      output: { title: "No findings", summary: "All descriptors pass." },
      annotations: [],
      app: { id: ACTIONS_APP_ID, slug: "github-actions" },
      updates: 0,
    });
    addedFile(gh, "p/plugin.json", text({ ...validHost(), version: "1" }));
    const { probot } = makeProbot();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [foreign, ...own] = gh.runsFor(HEAD_SHA);
    expect(foreign).toMatchObject({ id: 900, conclusion: "success", updates: 0 });
    expect(own).toEqual([
      expect.objectContaining({
        app: { id: APP_ID, slug: "plugin-review" },
        status: "completed",
        conclusion: "failure",
      }),
    ]);
    gh.assertClean();
  });
});
