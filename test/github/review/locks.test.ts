/**
 * The organisation's locks hold against the repository's own file: with `locked: [metric-group-changed]` in
 * `acme/.github`, a pull request that changes a descriptor's metricGroup fails whatever the repository's file
 * says about which files are descriptors, how large they may be, or which file it extends; and the check run
 * says what the locks did not apply. The real app, real webhook payloads, the OpenAPI-validated fake GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { ZWSP } from "../../markdown.js";
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
const CONFIG = ".github/plugin-review.yml";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The organisation locks metric-group-changed; the pull request changes `p/plugin.json`'s metricGroup (and bumps its version). */
async function metricGroupChange(
  repoConfig: string,
  routes: readonly Route[] = REVIEW_ROUTES,
  more?: (gh: FakeGitHub) => void,
) {
  const gh = new FakeGitHub(routes);
  const { probot } = makeProbot();
  const before = text(validHost());
  const after = text({ ...validHost(), version: "1.3.0", metricGroup: "tech.python.other" });
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: rewritePatch(before, after) }];
  gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
  gh.file(`${OWNER}/.github`, "HEAD", CONFIG, "locked: [metric-group-changed]\n");
  gh.file(R, "HEAD", CONFIG, repoConfig);
  more?.(gh);
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  const [run, ...others] = gh.runsFor(HEAD_SHA);
  expect(others).toEqual([]);
  return { run: run!, gh };
}

/** The summary as a reader sees its notes: without the zero-width spaces that keep paths from autolinking. */
const shown = (summary: string) => summary.replace(ZWSP, "");
describe("GitHub App: the organisation's locks hold against the repository's file", () => {
  it("`paths` that exclude the descriptor: it is reviewed all the same, and the run fails with metric-group-changed", async () => {
    const { run, gh } = await metricGroupChange('paths: ["nothing/**/plugin.json"]\n');
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run.annotations).toEqual([
      expect.objectContaining({
        path: "p/plugin.json",
        title: "metric-group-changed",
        annotation_level: "failure",
      }),
    ]);
    // Said where the repository's maintainers look: the check run's summary, with the file and line.
    expect(shown(run.output!.summary!)).toContain(
      "acme/plugins:.github/plugin-review.yml, line 1: under the organisation's locks, its `paths` `**/plugin.json`, `**/extension.yaml` are reviewed too: a repository's `paths` only add to them",
    );
    expect(gh.comments.map((c) => c.path)).toEqual(["p/plugin.json"]);
    gh.assertClean();
  });

  it("`max_file_size: 1` with `file-too-large: off`: the descriptor is read and judged, and the run fails with metric-group-changed", async () => {
    const { run, gh } = await metricGroupChange("max_file_size: 1\nrules:\n  file-too-large: off\n");
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run.annotations).toEqual([
      expect.objectContaining({
        path: "p/plugin.json",
        title: "metric-group-changed",
        annotation_level: "failure",
      }),
    ]);
    const summary = shown(run.output!.summary!);
    expect(summary).toContain(
      "acme/plugins:.github/plugin-review.yml, line 3: rule `file-too-large` is locked by the organisation: the repository's `off` was not applied",
    );
    expect(summary).toContain(
      "acme/plugins:.github/plugin-review.yml, line 1: under the organisation's locks, `max_file_size` cannot go below its 5,242,880 bytes: the repository's `1` was not applied",
    );
    gh.assertClean();
  });

  it("the same settings from a file the repository `_extends`: the same failure, the notes naming the file it came from", async () => {
    const { run, gh } = await metricGroupChange(
      "_extends: shared-config\n",
      [...REVIEW_ROUTES, "contents"],
      (fake) =>
        fake.file(
          `${OWNER}/shared-config`,
          "HEAD",
          CONFIG,
          'paths: ["nothing/**/plugin.json"]\nmax_file_size: 1\nrules:\n  file-too-large: off\n  metric-group-changed: off\n',
        ),
    );
    expect(run).toMatchObject({ conclusion: "failure" });
    expect(run.annotations.map((a) => a.title)).toEqual(["metric-group-changed"]);
    // Each note names the file and line the value came from: the extended file here.
    const notes = shown(run.output!.summary!)
      .split("\n")
      .filter((l) => l.includes("was not applied") || l.includes("only add"));
    expect(notes.map((n) => /^> (\S+), line (\d+): /.exec(n)?.slice(1).join(":"))).toEqual([
      "acme/shared-config:.github/plugin-review.yml:4",
      "acme/shared-config:.github/plugin-review.yml:5",
      "acme/shared-config:.github/plugin-review.yml:1",
      "acme/shared-config:.github/plugin-review.yml:2",
    ]);
    gh.assertClean();
  });
});
