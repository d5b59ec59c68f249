/**
 * A pull request that changes an extension's project files (its Python module, a dashboard) and not its
 * extension.yaml still changes the extension Dynatrace packages: the App reviews that extension.yaml as changed
 * (version-not-bumped for the packaged file, python-module-missing for a module removed), as `check --base-ref`
 * does. The real app, real webhook payloads, the OpenAPI-validated fake GitHub.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reviewedPathMatcher } from "../../../src/core/ef2/pairing.js";
import { extensionPlaces } from "../../../src/github/review/extension-projects.js";
import { lineOf, text, validHost } from "../../helpers.js";
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
const example = (path: string) => readFileSync(new URL(`../../../examples/${path}`, import.meta.url), "utf8");
const PY_YAML = "queues/extension/extension.yaml";
const PY_SCHEMA = "queues/extension/activationSchema.json";
const MODULE = "queues/example_queue/__main__.py";
const PYTHON = example("extension-python/extension/extension.yaml");
const SCHEMA = example("extension-python/extension/activationSchema.json");
const CODE = example("extension-python/example_queue/__main__.py");
const SNMP_YAML = "snmp/extension/extension.yaml";
const SNMP = example("extension-valid/extension/extension.yaml");
const DASHBOARD = "snmp/extension/dashboards/overview.json";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

type PrFile = FakeGitHub["prFiles"][number];

/** A pull request of `files`; `both` are at base and head alike, `base` and `head` at one of them. */
async function review(
  files: PrFile[],
  commits: { both?: Record<string, string>; base?: Record<string, string>; head?: Record<string, string> },
  { routes, configure }: { routes: Route[]; configure?: (gh: FakeGitHub) => void },
) {
  const gh = new FakeGitHub(routes);
  const { probot } = makeProbot();
  gh.prFiles = files;
  for (const [path, text] of Object.entries(commits.both ?? {}))
    gh.file(R, HEAD_SHA, path, text).file(R, BASE_SHA, path, text);
  for (const [path, text] of Object.entries(commits.base ?? {})) gh.file(R, BASE_SHA, path, text);
  for (const [path, text] of Object.entries(commits.head ?? {})) gh.file(R, HEAD_SHA, path, text);
  configure?.(gh);
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  const [run] = gh.runsFor(HEAD_SHA);
  gh.assertClean();
  const calls = gh.mock.requests.filter((r) => !r.path.endsWith("/access_tokens")).length;
  return { gh, run: run!, calls };
}

const FAILS: Route[] = [...REVIEW_ROUTES, "tree"];
const PASSES: Route[] = REVIEW_ROUTES.filter((r) => r !== "createReview");
const titled = (run: { annotations: { title?: string }[] }, rule: string) =>
  run.annotations.filter((a) => a.title === rule);

describe("GitHub App: an extension whose project files change beside an unchanged extension.yaml", () => {
  it("fails a change to a Python module's code that keeps the extension's version, at `version`", async () => {
    const { run, calls } = await review(
      [{ filename: MODULE, status: "modified", patch: "@@ -1 +1 @@\n-a\n+b" }],
      {
        both: { [PY_YAML]: PYTHON, [PY_SCHEMA]: SCHEMA },
        base: { [MODULE]: CODE },
        head: { [MODULE]: `${CODE}\n# changed\n` },
      },
      { routes: FAILS },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run, "version-not-bumped")).toEqual([
      expect.objectContaining({
        path: PY_YAML,
        start_line: lineOf(PYTHON, 'version: "1.0.0"'),
        annotation_level: "failure",
        message: expect.stringContaining(MODULE),
      }),
    ]);
    // The places, then the extension as a changed one is read: 4 calls more than a review of nothing (docs/performance.md).
    expect(calls).toBe(10);
    // Nothing else: its other findings are the base's too, and the module is there.
    expect(run.annotations.filter((a) => a.annotation_level === "failure")).toHaveLength(1);
    expect(run.output!.summary).toContain(
      `\`${PY_YAML}\` is reviewed: the change does not touch it, but files of its extension's project (\`${MODULE}\`) changed.`,
    );
  });

  it("fails a change that removes the Python module, with python-module-missing as a new finding", async () => {
    const { run } = await review(
      [{ filename: MODULE, status: "removed" }],
      { both: { [PY_YAML]: PYTHON, [PY_SCHEMA]: SCHEMA }, base: { [MODULE]: CODE } },
      { routes: FAILS },
    );
    expect(run.conclusion).toBe("failure");
    expect(titled(run, "python-module-missing")).toEqual([
      expect.objectContaining({ path: PY_YAML, start_line: lineOf(PYTHON, "    module: example_queue") }),
    ]);
  });

  it("passes a Python module's change that raises the version in the same pull request", async () => {
    const raised = PYTHON.replace('version: "1.0.0"', 'version: "1.0.1"');
    expect(raised).not.toBe(PYTHON);
    const { run } = await review(
      [
        { filename: PY_YAML, status: "modified", patch: '@@ -1 +1 @@\n-version: "1.0.0"\n+version: "1.0.1"' },
        { filename: MODULE, status: "modified" },
      ],
      {
        both: { [PY_SCHEMA]: SCHEMA },
        base: { [PY_YAML]: PYTHON, [MODULE]: CODE },
        head: { [PY_YAML]: raised, [MODULE]: `${CODE}\n# changed\n` },
      },
      { routes: [...PASSES, "tree"] },
    );
    expect(run).toMatchObject({ conclusion: "success" });
    expect(run.output!.summary).not.toContain("is reviewed: the change does not touch it");
  });

  it("fails a dashboard changed under an SNMP extension that keeps its version, listing each commit's tree once", async () => {
    const { gh, run } = await review(
      [{ filename: DASHBOARD, status: "modified" }],
      { both: { [SNMP_YAML]: SNMP }, base: { [DASHBOARD]: "{}" }, head: { [DASHBOARD]: '{"tiles":[]}' } },
      { routes: [...REVIEW_ROUTES, "tree"] },
    );
    expect(run.conclusion).toBe("failure");
    expect(titled(run, "version-not-bumped")).toEqual([
      expect.objectContaining({ path: SNMP_YAML, message: expect.stringContaining(DASHBOARD) }),
    ]);
    // Its dashboards are listed for asset-missing: the head's tree and the base's, once each.
    for (const sha of [HEAD_SHA, BASE_SHA]) expect(gh.count("GET", new RegExp(`/git/trees/${sha}$`))).toBe(1);
  });

  it("passes a change to files of no extension, at the cost of one read of where an extension could be", async () => {
    const { gh, run, calls } = await review(
      [
        { filename: "README.md", status: "modified" },
        { filename: "tools/lint/run.sh", status: "added" },
      ],
      { head: { "README.md": "# hello", "tools/lint/run.sh": "true" } },
      { routes: PASSES },
    );
    expect(run.conclusion).toBe("success");
    // The pull request now, the configuration and run, the files, the places an extension could be, the run
    // written.
    expect(calls).toBe(5);
    expect(gh.count("GET", /\/git\/trees\//)).toBe(0);
  });

  it("costs no call more when the pull request changes a descriptor too (the places read with it)", async () => {
    const plugin = text(validHost());
    const gh = new FakeGitHub(PASSES);
    const { probot } = makeProbot();
    addedFile(gh, "p/plugin.json", plugin);
    addedFile(gh, "p/src/plugin.py", "x = 1");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "success" })]);
    gh.assertClean();
    expect(gh.mock.requests.filter((r) => !r.path.endsWith("/access_tokens")).length).toBe(5);
  });

  it("finds the extension in the head commit's tree when the change touches files in many folders", async () => {
    const many = Array.from({ length: 30 }, (_, i) => `queues/example_queue/part${i}/mod.py`);
    const { gh, run } = await review(
      many.map((filename) => ({ filename, status: "added" as const })),
      {
        both: { [PY_YAML]: PYTHON, [PY_SCHEMA]: SCHEMA, [MODULE]: CODE },
        head: Object.fromEntries(many.map((p) => [p, "x = 1"])),
      },
      { routes: FAILS },
    );
    expect(titled(run, "version-not-bumped")).toHaveLength(1);
    expect(run.output!.summary).toContain("and 27 more) changed.");
    // The head tree twice: once to find the extension, once for its project's files; the base's once.
    expect(gh.count("GET", new RegExp(`/git/trees/${HEAD_SHA}`))).toBe(2);
    expect(gh.count("GET", new RegExp(`/git/trees/${BASE_SHA}`))).toBe(1);
  });

  it("fails the check, saying why, when those many folders' extensions cannot be found (a tree cut short)", async () => {
    const many = Array.from({ length: 30 }, (_, i) => `queues/example_queue/part${i}/mod.py`);
    const { run } = await review(
      many.map((filename) => ({ filename, status: "added" as const })),
      { both: { [PY_YAML]: PYTHON }, head: Object.fromEntries(many.map((p) => [p, "x = 1"])) },
      { routes: [...PASSES, "tree"], configure: (gh) => gh.cutTrees.add(HEAD_SHA) },
    );
    expect(run.conclusion).toBe("failure");
    expect(run.output!.summary).toContain(
      "so the extensions those files belong to could not be found and reviewed",
    );
  });
});

describe("where an extension.yaml whose project holds a changed file could be", () => {
  const all = reviewedPathMatcher(["**/plugin.json"]);
  it("names each folder above a changed file, both layouts, each once, and none the change already reviews", () => {
    const places = extensionPlaces(
      ["a/b/c.py", "a/b/d.py", "a/extension/alerts/x.json"],
      all,
      new Set(["a/extension/extension.yaml"]),
    );
    expect(places.sort()).toEqual(
      [
        "a/b/extension.yaml",
        "a/b/extension/extension.yaml",
        "a/extension.yaml",
        "a/extension/alerts/extension.yaml",
        "a/extension/alerts/extension/extension.yaml",
        "a/extension/extension/extension.yaml",
        "extension.yaml",
        "extension/extension.yaml",
      ].sort(),
    );
  });

  it("leaves out the places the configuration does not review", () => {
    const only = reviewedPathMatcher(["plugins/**/plugin.json"]);
    expect(extensionPlaces(["plugins/x/src/m.py", "other/y.py"], only, new Set())).toEqual(
      extensionPlaces(["plugins/x/src/m.py", "other/y.py"], all, new Set()).filter((p) => only(p)),
    );
    expect(extensionPlaces(["other/y.py"], only, new Set()).some((p) => p.startsWith("other/"))).toBe(false);
  });
});
