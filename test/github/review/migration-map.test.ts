/**
 * The review of a migration reads the repository's migration map (`migration_map` in its configuration,
 * docs/migrate.md "Migrating a fleet"): an extension whose keys have the prefix the map gives its EF1 plugin
 * passes, and the map comes from the default branch with the configuration, never from the pull request.
 * Real app, real payloads, GitHub faked over nock with every request validated against the OpenAPI description.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATION } from "../../helpers.js";
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
const CONFIG = ".github/plugin-review.yml";
/** The example's extension with its metric keys under `acme.pool.` (what `--key-prefix`/the map give). */
const prefixed = MIGRATION.extension.replace(/key: example\.pool\./g, "key: acme.pool.");
const MAP = [
  "plugins:",
  "  custom.jmx.example_pool:",
  "    name: custom:example.pool",
  "    key_prefix: acme.pool",
  "",
].join("\n");

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

function setup(routes: readonly Route[]) {
  const gh = new FakeGitHub(routes);
  const { probot } = makeProbot();
  gh.file(R, BASE_SHA, "pool/plugin.json", MIGRATION.plugin);
  gh.prFiles.push({ filename: "pool/plugin.json", status: "removed" });
  addedFile(gh, "pool/extension/extension.yaml", prefixed);
  return { gh, probot };
}

describe("GitHub App: the migration map", () => {
  it("compares the extension with the keys the default branch's map gives its EF1 plugin: passes", async () => {
    const { gh, probot } = setup(["token", "graphql", "files", "contents", "createCheckRun"]);
    gh.file(R, "HEAD", CONFIG, "migration_map: migrate.yml\n").file(R, "HEAD", "migrate.yml", MAP);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run!.annotations).toEqual([]);
    gh.assertClean();
  });

  it("without a map, the same keys are reported missing; a map the pull request adds is not read", async () => {
    const { gh, probot } = setup(REVIEW_ROUTES);
    // The pull request brings its own configuration and map: the App reads neither (default branch only).
    addedFile(gh, CONFIG, "migration_map: migrate.yml\n");
    addedFile(gh, "migrate.yml", MAP);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => a.title)).toEqual([
      "migration-metric-missing",
      "migration-metric-missing",
      "migration-metric-missing",
    ]);
    expect(run!.annotations[0]!.message).toMatch(/make it `example\.pool\.active`/);
  });

  it("a map the configuration names but the default branch lacks, or an invalid one, fails the check saying why", async () => {
    for (const [map, why] of [
      [undefined, /`migration_map` names `migrate\.yml`, which is not there/],
      [
        "plugins:\n  custom.jmx.example_pool:\n    name: Not A Name\n",
        /line 3[^\n]*plugins\.custom\.jmx\.example_pool\.name: not a valid EF2 name/,
      ],
    ] as const) {
      const { gh, probot } = setup(["token", "graphql", "contents", "createCheckRun"]);
      gh.file(R, "HEAD", CONFIG, "migration_map: migrate.yml\n");
      if (map !== undefined) gh.file(R, "HEAD", "migrate.yml", map);
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      const [run] = gh.runsFor(HEAD_SHA);
      expect(run).toMatchObject({
        conclusion: "failure",
        output: { title: "Invalid plugin-review configuration" },
      });
      expect(run!.output!.summary).toMatch(why);
      cleanup();
      disableNetwork();
    }
  });
});
