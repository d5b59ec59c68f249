/**
 * The review of a migration pull request in the App: an Extensions 2.0 extension.yaml that replaces a plugin.json
 * the base holds is compared with it (docs/migrate.md). Real app, real payloads, GitHub faked over nock with every
 * request validated against the OpenAPI description.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { edit, lineOf, MIGRATION, withoutIdle } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  addedFile,
  BASE_SHA,
  deliver,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;
const { plugin, extension } = MIGRATION;
/** The EF1 line of a metric in the plugin.json: its `key` member. */
const ef1Line = (key: string) => lineOf(plugin, `"key": "${key}",\n        "unit"`);

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

function setup(routes: readonly Route[] = REVIEW_ROUTES) {
  const gh = new FakeGitHub(routes);
  const { probot } = makeProbot();
  return { gh, probot };
}

describe("GitHub App: a migration pull request", () => {
  it("deletes plugin.json and adds extension/extension.yaml missing one metric: fails on that metric", async () => {
    const { gh, probot } = setup();
    const lost = withoutIdle(extension);
    gh.file(R, BASE_SHA, "pool/plugin.json", plugin);
    gh.prFiles.push({ filename: "pool/plugin.json", status: "removed" });
    addedFile(gh, "pool/extension/extension.yaml", lost);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));

    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const at = lineOf(lost, "metrics:");
    expect(run!.annotations).toEqual([
      {
        path: "pool/extension/extension.yaml",
        start_line: at,
        end_line: at,
        start_column: 11,
        end_column: 17,
        annotation_level: "failure",
        title: "migration-metric-missing",
        message: `EF1 metric \`idle\` (\`pool/plugin.json\` line ${ef1Line("idle")}, a file this change deletes) is not in the extension: it should be \`example.pool.idle\`; dashboards, alerts and SLOs that use it lose their data`,
      },
    ]);
    expect(run!.output!.summary).toContain(
      "`pool/plugin.json` is removed; `pool/extension/extension.yaml`, which replaces it, was compared with it",
    );
    expect(run!.output!.summary).not.toMatch(/removed descriptors? (is|are) not reviewed/);
    // The added extension.yaml is all diff: the finding is a line comment there, with its fingerprint.
    expect(gh.comments).toEqual([
      expect.objectContaining({ path: "pool/extension/extension.yaml", line: at, side: "RIGHT" }),
    ]);
    expect(gh.comments[0]!.body).toContain("`migration-metric-missing`");
    expect(gh.comments[0]!.body).toMatch(/<!-- plugin-review:id=[0-9a-f]{32} -->/);
    gh.assertClean();
  });

  it("keeps both files and drops the dimension a metric is split by: fails on that metric", async () => {
    const { gh, probot } = setup();
    // `active` moved to the subgroup without the `pool` dimension its EF1 splitting gives it.
    const unsplit = edit(
      edit(
        extension,
        "            - key: example.pool.active\n              value: attribute:NumActive\n              type: gauge\n",
        "",
      ),
      "          metrics:\n            - key: example.pool.created.count",
      "          metrics:\n            - key: example.pool.active\n              value: attribute:NumActive\n              type: gauge\n            - key: example.pool.created.count",
    );
    // The plugin.json stays as the base has it: not among the pull request's files.
    gh.file(R, BASE_SHA, "pool/plugin.json", plugin).file(R, HEAD_SHA, "pool/plugin.json", plugin);
    addedFile(gh, "pool/extension.yaml", unsplit);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));

    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const at = lineOf(unsplit, "query: com.example.pool", 2);
    expect(run!.annotations).toEqual([
      expect.objectContaining({
        path: "pool/extension.yaml",
        start_line: at,
        title: "migration-dimension-dropped",
        annotation_level: "failure",
        message: `metric \`example.pool.active\` has no dimension \`pool\`, by which EF1 metric \`active\` (\`pool/plugin.json\` line ${ef1Line("active")}) is split: its values are summed into one series, and charts and alerts split by \`pool\` break`,
      }),
    ]);
    expect(gh.comments).toEqual([expect.objectContaining({ path: "pool/extension.yaml", line: at })]);
    gh.assertClean();
  });

  it("the complete migration passes: one successful check run, nothing to comment", async () => {
    const { gh, probot } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    gh.file(R, BASE_SHA, "pool/plugin.json", plugin);
    gh.prFiles.push({ filename: "pool/plugin.json", status: "removed" });
    addedFile(gh, "pool/extension/extension.yaml", extension);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));

    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run!.annotations).toEqual([]);
    expect(run!.output!.title).toBe("0 errors, 0 warnings, 0 notices in 1 descriptor");
    expect(gh.reviews).toEqual([]);
    gh.assertClean();
  });

  it("an extension.yaml that replaces no plugin.json of the base is reviewed as an extension of its own", async () => {
    const { gh, probot } = setup();
    addedFile(gh, "other/extension.yaml", "name: custom:other\nversion: 1.0\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ conclusion: "failure" });
    // No migration rule (nothing it replaces), its own rules: no minDynatraceVersion, no author, and YAML
    // reads `1.0` as a number.
    expect(run!.annotations.map((a) => [a.path, a.start_line, a.title])).toEqual([
      ["other/extension.yaml", 1, "required-member"],
      ["other/extension.yaml", 1, "required-member"],
      ["other/extension.yaml", 2, "ef2-version-format"],
    ]);
    expect(run!.output!.summary).not.toMatch(/was compared with it/);
    gh.assertClean();
  });
});
