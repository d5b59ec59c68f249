/**
 * Bounded work per review: descriptors are read a batch at a time (one GraphQL query's worth), and past the
 * review's ceiling (`max_descriptors`, `max_total_size`) nothing more is read and the check fails, naming
 * what was not reviewed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_DESCRIPTORS,
  DEFAULT_MAX_TOTAL_SIZE,
  parseConfig,
  resolveConfig,
} from "../../../src/core/config.js";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { addedFile, deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "../harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** `n` added descriptors, each valid and of its own name: `d00/plugin.json`, … */
function addDescriptors(gh: FakeGitHub, n: number): string {
  let content = "";
  for (let i = 0; i < n; i++) {
    content = text({ ...validHost(), name: `custom.python.d${String(i).padStart(2, "0")}` });
    addedFile(gh, `d${String(i).padStart(2, "0")}/plugin.json`, content);
  }
  return content;
}

/** The GraphQL queries that read descriptors, and the descriptors each read. */
const fileQueries = (gh: FakeGitHub) =>
  gh.graphqlDocuments
    .filter((d) => d.query.startsWith("query ReadFiles"))
    .map((d) => Object.keys(d.variables ?? {}).filter((k) => k.startsWith("e")).length);

describe("GitHub App: bounded work per review", () => {
  it("45 descriptors within the ceiling: read in two queries of at most 40 files, all reviewed", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot } = makeProbot();
    addDescriptors(gh, 45);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(fileQueries(gh)).toEqual([40, 5]);
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "success" });
    expect(gh.runsFor(HEAD_SHA)[0]!.output!.title).toBe("0 errors, 0 warnings, 0 notices in 45 descriptors");
    gh.assertClean();
  });

  it("past max_descriptors: the check fails naming those not reviewed, and they are not read", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot } = makeProbot();
    gh.file(R, "HEAD", ".github/plugin-review.yml", "max_descriptors: 2\nfail_on: never\n");
    addDescriptors(gh, 3);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.output!.title).toBe(
      "1 changed descriptor not reviewed · 0 errors, 0 warnings, 0 notices in 2 descriptors",
    );
    expect(run!.output!.summary).toContain(
      "This commit changes 3 descriptors; a review takes at most 2 (`max_descriptors` in `.github/plugin-review.yml`), so these were not reviewed:\n- `d02/plugin.json`",
    );
    expect(gh.graphqlFiles.filter((f) => f.includes("d02"))).toEqual([]);
    gh.assertClean();
  });

  it("past max_total_size: the descriptor that would go past it and every later one are not reviewed, and reading stops", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot } = makeProbot();
    const one = Buffer.byteLength(addDescriptors(gh, 45));
    // Room for ten descriptors and a half: the eleventh would go past it.
    gh.file(R, "HEAD", ".github/plugin-review.yml", `max_total_size: ${Math.floor(10.5 * one)}\n`);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.output!.title).toMatch(/^35 changed descriptors not reviewed · .* in 10 descriptors$/);
    const summary = run!.output!.summary;
    expect(summary).toContain(
      `A review reads at most ${Math.floor(10.5 * one).toLocaleString("en-US")} bytes of descriptors, head and base versions together (\`max_total_size\` in \`.github/plugin-review.yml\`); reading these would have gone past it, so they were not reviewed:\n- \`d10/plugin.json\`\n- \`d11/plugin.json\``,
    );
    expect(summary).toContain("- `d44/plugin.json`");
    // The first batch was read; the second never was.
    expect(fileQueries(gh)).toEqual([40]);
    gh.assertClean();
  });

  it("the ceiling in the configuration: documented defaults, raised or lowered by a file, within the schema's bounds", () => {
    expect(resolveConfig()).toMatchObject({ maxDescriptors: 1000, maxTotalSize: 50 * 1024 * 1024 });
    expect([DEFAULT_MAX_DESCRIPTORS, DEFAULT_MAX_TOTAL_SIZE]).toEqual([1000, 52_428_800]);
    const org = parseConfig("max_descriptors: 50\nmax_total_size: 1000000\n", "org");
    const repo = parseConfig("max_descriptors: 5000\n", "repo");
    expect(resolveConfig({ org, repo })).toMatchObject({ maxDescriptors: 5000, maxTotalSize: 1_000_000 });
    expect(() => parseConfig("max_descriptors: 10001\n", "repo")).toThrow(
      /max_descriptors: must be <= 10000/,
    );
    expect(() => parseConfig("max_total_size: 1073741825\n", "repo")).toThrow(
      /max_total_size: must be <= 1073741824/,
    );
    expect(() => parseConfig("max_descriptors: 0\n", "repo")).toThrow(/max_descriptors: must be >= 1/);
  });
});
