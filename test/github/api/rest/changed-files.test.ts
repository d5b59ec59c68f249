/**
 * A pull request with more than the 3,000 files GitHub lists: the descriptors are found through the base
 * and head trees, so one beyond the list is reviewed (and those in the list keep their diffs).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost, validRemote } from "../../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "../../fake-github.js";
import { cleanup, disableNetwork } from "../../github-mock.js";
import { BASE_SHA, deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "../../harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

describe("GitHub App: pull requests with more files than GitHub lists", () => {
  it("reviews a descriptor beyond the first 3,000 of 3,500 files", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "compare", "tree"]);
    const { probot } = makeProbot();
    gh.file(R, BASE_SHA, "README.md", "# plugins\n").file(R, HEAD_SHA, "README.md", "# plugins\n");
    const unchanged = text(validRemote());
    gh.file(R, BASE_SHA, "r/plugin.json", unchanged).file(R, HEAD_SHA, "r/plugin.json", unchanged);
    // A descriptor among the first files GitHub lists (it keeps its diff), 3,498 other files, and a broken
    // descriptor listed 3,401st, out of GitHub's reach.
    const first = text(validHost());
    gh.file(R, HEAD_SHA, "a/plugin.json", first);
    gh.prFiles.push({ filename: "a/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" });
    for (let i = 0; i < 3498; i++) {
      const path = `gen/file-${String(i).padStart(4, "0")}.txt`;
      gh.file(R, HEAD_SHA, path, `${i}\n`);
      gh.prFiles.push({ filename: path, status: "added", patch: "@@ -0,0 +1,1 @@\n+x" });
      if (i === 3399) {
        gh.file(
          R,
          HEAD_SHA,
          "z/plugin.json",
          text({ ...validHost(), name: "custom.python.other", metricGroup: undefined }),
        );
        gh.prFiles.push({ filename: "z/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" });
      }
    }
    expect(gh.prFiles.length).toBe(3500);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => [a.path, a.title])).toEqual([
      ["z/plugin.json", "metric-group-missing"],
    ]);
    expect(run!.output?.title).toMatch(/in 2 descriptors$/);
    expect(gh.count("GET", /\/pulls\/7\/files$/)).toBe(30);
    expect(gh.count("GET", /\/git\/trees\/[bc]{40}$/)).toBe(2);
    gh.assertClean();
  });
});
