/**
 * A pull request with more files than GitHub lists (3,000) is compared through the commits' trees. Its
 * files are what its head changed since it left the base branch (GitHub's three-dot diff): a descriptor
 * changed on the base branch since then, which the pull request leaves alone, is not the pull request's.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { BASE_SHA, deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "../harness.js";

const R = `${OWNER}/${REPO}`;
/** Where the pull request's branch left main; main has moved on since (BASE_SHA, the payload's base). */
const MERGE_BASE = "a".repeat(40);

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

describe("GitHub App: a pull request with more files than GitHub lists", () => {
  it("does not review a descriptor that only the base branch changed since the pull request left it", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "compare", "tree"]);
    const { probot } = makeProbot();
    const old = text({ ...validHost(), version: "1.0.0" });
    // Main bumped q after the branch left it; the branch keeps q as it was.
    gh.file(R, MERGE_BASE, "q/plugin.json", old);
    gh.file(R, BASE_SHA, "q/plugin.json", text({ ...validHost(), version: "1.1.0" }));
    gh.file(R, HEAD_SHA, "q/plugin.json", old);
    gh.mergeBases.set(`${BASE_SHA}...${HEAD_SHA}`, MERGE_BASE);
    for (let i = 0; i < 3000; i++) {
      const path = `gen/file-${String(i).padStart(4, "0")}.txt`;
      gh.file(R, HEAD_SHA, path, `${i}\n`);
      gh.prFiles.push({ filename: path, status: "added", patch: "@@ -0,0 +1,1 @@\n+x" });
    }
    // Beyond the 3,000 files GitHub lists, a descriptor the pull request adds, with one error.
    gh.file(
      R,
      HEAD_SHA,
      "z/plugin.json",
      text({ ...validHost(), name: "custom.python.other_plugin", metricGroup: undefined }),
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run!.annotations.map((a) => [a.path, a.title])).toEqual([
      ["z/plugin.json", "metric-group-missing"],
    ]);
    expect(gh.count("GET", new RegExp(`^/repos/${R}/git/trees/${MERGE_BASE}$`))).toBe(1);
    gh.assertClean();
  });
});
