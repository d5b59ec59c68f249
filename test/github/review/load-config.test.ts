/**
 * The organisation's policy and the repository's configuration as the App applies them: every problem of both
 * files reported at once with its line; never a silent fall-back. The real app, real webhook payloads, the
 * OpenAPI- and GraphQL-validated fake GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.js";
import { requireOrgConfigFrom } from "../../../src/github/review/load-config.js";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "../harness.js";
import { readable } from "../../markdown.js";

const R = `${OWNER}/${REPO}`;
const ORG = `${OWNER}/.github`;
const CONFIG = ".github/plugin-review.yml";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

function setup(routes: readonly Route[] = REVIEW_ROUTES, opts: { requireOrgConfig?: boolean } = {}) {
  const gh = new FakeGitHub(routes);
  const { probot, logs } = makeProbot(opts.requireOrgConfig ? { app: createApp(opts) } : {});
  return { gh, probot, logs };
}

function addPlugin(gh: FakeGitHub, content = text(validHost())): void {
  gh.prFiles.push({ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1 @@\n+{" });
  gh.file(R, HEAD_SHA, "p/plugin.json", content);
}

describe("GitHub App: every configuration problem in one pass", () => {
  it("reports five different problems of the repository's file and the organisation's, each with its line", async () => {
    const { gh, probot } = setup(["token", "graphql", "createCheckRun"]);
    addPlugin(gh);
    gh.file(ORG, "HEAD", CONFIG, "locked: [policy-name, fail_on]\nreview: sometimes\n");
    gh.file(
      R,
      "HEAD",
      CONFIG,
      [
        "rules:",
        "  unknwn-member: off", // line 2: unknown rule id
        "  policy-name: off", // line 3: loosens a locked rule (refused)
        "foo: 1", // line 4: unknown key
        "fail_on: never", // line 5: loosens a locked setting (refused)
        "policy:",
        "  name_pattern: '(?<=acme)'", // line 7: not RE2
      ].join("\n"),
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      conclusion: "failure",
      output: { title: "Invalid plugin-review configuration" },
    });
    const summary = run!.output!.summary!;
    // Both files' problems, each under its file and with its line; then what the locks refused, also with lines.
    const listed = summary.slice(summary.indexOf("invalid configuration"), summary.lastIndexOf("```"));
    expect(listed.trim().split("\n")).toEqual([
      "invalid configuration acme/.github:.github/plugin-review.yml:",
      '  - line 2, column 9: review: "sometimes" is not one of comment, request-changes, none',
      "invalid configuration acme/plugins:.github/plugin-review.yml:",
      "  - line 2, column 3: rules: unknown rule id `unknwn-member` (did you mean `unknown-member`?)",
      "  - line 4, column 1: (top level): unknown key `foo`",
      expect.stringMatching(/^ {2}- line 7, column 17: policy\.name_pattern: not a valid regular expression/),
      "Also refused by the organisation's locks:",
      "  - acme/plugins:.github/plugin-review.yml, line 3: rule `policy-name` is locked by the organisation: the repository's `off` was not applied",
      "  - acme/plugins:.github/plugin-review.yml, line 5: `fail_on` is locked by the organisation at `error`: the repository's looser `never` was not applied",
    ]);
    gh.assertClean();
  });

  it("a file that is not UTF-8 fails the check saying so (read through the blob API, as GitHub serves it)", async () => {
    const { gh, probot } = setup(["token", "graphql", "blob", "createCheckRun"]);
    addPlugin(gh);
    // Saved as Latin-1: GraphQL's text replaces the byte, so the App reads the blob's bytes instead.
    gh.file(R, "HEAD", CONFIG, Buffer.from('ignore:\n  - paths: ["plugins/café/**"]\n', "latin1"));
    // Saved by Notepad as "Unicode": UTF-16 with its byte order mark (binary to GraphQL).
    gh.file(ORG, "HEAD", CONFIG, Buffer.from("\uFEFFfail_on: warning\n", "utf16le"));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      conclusion: "failure",
      output: { title: "Invalid plugin-review configuration" },
    });
    const summary = run!.output!.summary!;
    const listed = summary.slice(summary.indexOf("invalid configuration"), summary.lastIndexOf("```"));
    expect(listed.trim().split("\n")).toEqual([
      "invalid configuration acme/.github:.github/plugin-review.yml:",
      "  - the file is UTF-16 (its byte order mark says so): save it as UTF-8",
      "invalid configuration acme/plugins:.github/plugin-review.yml:",
      "  - line 2, column 25: byte 0xE9 is not UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8",
    ]);
    gh.assertClean();
  });

  it("a valid file whose loosening of a lock is refused: reviewed, and the note names the line", async () => {
    const { gh, probot } = setup();
    lockedPolicy(gh, "fail_on: error\nrules:\n  policy-name: notice\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ conclusion: "failure" });
    expect(readable(run!.output!.summary!)).toMatch(
      /acme\/plugins:\.github\/plugin-review\.yml, line 3: rule `policy-name` is locked by the organisation/,
    );
    gh.assertClean();
  });
});

/**
 * The organisation locks `policy-name` with a name pattern the descriptor breaks; the repository turns the rule
 * off. Read, the organisation's policy fails the check; unread, the repository's file alone passes it.
 */
function lockedPolicy(gh: FakeGitHub, repoConfig = "rules:\n  policy-name: off\n"): void {
  addPlugin(gh, text({ ...validHost(), name: "custom.python.other_team" }));
  gh.file(
    ORG,
    "HEAD",
    CONFIG,
    'policy:\n  name_pattern: "^custom\\\\.python\\\\.acme_"\nlocked: [policy-name]\n',
  );
  gh.file(R, "HEAD", CONFIG, repoConfig);
}

/** A review that finds nothing posts no review. */
const QUIET: readonly Route[] = REVIEW_ROUTES.filter((r) => r !== "createReview");

const NOT_READ =
  /The organisation's configuration was not read\. GitHub answers as if `acme\/\.github` did not exist/;

describe("GitHub App: the organisation's configuration is read, or said to be unread", () => {
  it("an installation on selected repositories that cannot see acme/.github: the summary says so and how to fix it", async () => {
    const { gh, probot } = setup(QUIET);
    lockedPolicy(gh);
    gh.repositorySelection = "selected";
    gh.hidden.add(ORG);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    // The repository's file alone: green, as GitHub's answer allows no more, but never silently.
    expect(run).toMatchObject({ conclusion: "success" });
    const summary = run!.output!.summary!;
    expect(summary).toMatch(NOT_READ);
    expect(summary).toMatch(
      /install the App on `acme\/\.github` too .*or give it access to all repositories/,
    );
    expect(gh.graphqlNotFound).toEqual([expect.stringMatching(/acme\/\.github/)]);
    gh.assertClean();
  });

  it("with the deployment setting on, the same check fails with a configuration error until the policy can be read", async () => {
    const { gh, probot } = setup(["token", "graphql", "createCheckRun"], { requireOrgConfig: true });
    lockedPolicy(gh);
    gh.repositorySelection = "selected";
    gh.hidden.add(ORG);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "The organisation's plugin-review configuration could not be read" },
    });
    expect(readable(run!.output!.summary!)).toMatch(
      /This deployment requires it \(`PLUGIN_REVIEW_REQUIRE_ORG_CONFIG`\), so no pull request is reviewed without it: install the App on `acme\/\.github`/,
    );
    expect(gh.reviews).toEqual([]); // nothing reviewed: no files listed, no review
    gh.assertClean();
  });

  it("once the App is installed on acme/.github, the organisation's locks apply (setting on: reviewed as usual)", async () => {
    const { gh, probot } = setup(REVIEW_ROUTES, { requireOrgConfig: true });
    lockedPolicy(gh);
    gh.repositorySelection = "selected";
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ conclusion: "failure" });
    expect(run!.annotations).toEqual([expect.objectContaining({ title: "policy-name" })]);
    expect(run!.output!.summary).not.toMatch(NOT_READ);
    gh.assertClean();
  });

  it("no note where GitHub's answer is certain: all repositories and no .github; .github seen without the file", async () => {
    // Installed on every repository: a `.github` the installation cannot see does not exist.
    const all = setup(QUIET, { requireOrgConfig: true });
    addPlugin(all.gh);
    await deliver(all.probot, "pull_request", pullRequestPayload("opened"));
    expect(all.gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "success" });
    expect(all.gh.runsFor(HEAD_SHA)[0]!.output!.summary).not.toMatch(/organisation's configuration/);
    all.gh.assertClean();
    cleanup();
    disableNetwork();
    // Selected repositories, `.github` among them but without a configuration file: there is no policy.
    const seen = setup(QUIET, { requireOrgConfig: true });
    addPlugin(seen.gh);
    seen.gh.repositorySelection = "selected";
    seen.gh.repo(ORG).file(ORG, "HEAD", "README.md", "# acme\n");
    await deliver(seen.probot, "pull_request", pullRequestPayload("opened"));
    expect(seen.gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "success" });
    expect(seen.gh.runsFor(HEAD_SHA)[0]!.output!.summary).not.toMatch(/organisation's configuration/);
    seen.gh.assertClean();
  });

  it("through REST (no GraphQL): a 404 for the file is told apart by asking for the repository", async () => {
    const unseen = setup([...QUIET, "listCheckRuns", "contents", "getRepo"]);
    unseen.gh.graphqlUnavailable = true;
    lockedPolicy(unseen.gh);
    unseen.gh.repositorySelection = "selected";
    unseen.gh.hidden.add(ORG);
    await deliver(unseen.probot, "pull_request", pullRequestPayload("opened"));
    expect(unseen.gh.runsFor(HEAD_SHA)[0]!.output!.summary).toMatch(NOT_READ);
    expect(unseen.gh.count("GET", /^\/repos\/acme\/\.github$/)).toBe(1);
    unseen.gh.assertClean();
    cleanup();
    disableNetwork();
    // Seen (registered, readable) without the file: no note, the same one extra request.
    const seen = setup([...QUIET, "listCheckRuns", "contents", "getRepo"]);
    seen.gh.graphqlUnavailable = true;
    addPlugin(seen.gh);
    seen.gh.repositorySelection = "selected";
    seen.gh.repo(ORG);
    await deliver(seen.probot, "pull_request", pullRequestPayload("opened"));
    expect(seen.gh.runsFor(HEAD_SHA)[0]!.output!.summary).not.toMatch(/organisation's configuration/);
    seen.gh.assertClean();
  });

  it("the setting is read from the environment, and a value that is neither on nor off is refused", () => {
    expect(requireOrgConfigFrom({})).toBe(false);
    expect(requireOrgConfigFrom({ PLUGIN_REVIEW_REQUIRE_ORG_CONFIG: "true" })).toBe(true);
    expect(requireOrgConfigFrom({ PLUGIN_REVIEW_REQUIRE_ORG_CONFIG: "0" })).toBe(false);
    expect(() => requireOrgConfigFrom({ PLUGIN_REVIEW_REQUIRE_ORG_CONFIG: "ture" })).toThrow(
      /PLUGIN_REVIEW_REQUIRE_ORG_CONFIG must be true or false, not 'ture'/,
    );
  });
});

describe("GitHub App: the neutral conclusion", () => {
  const conclusionWith = async (config: string, content: string, base?: string) => {
    // A review is posted when there are findings (a failed post is tried again until the deadline).
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.file(R, "HEAD", CONFIG, config);
    gh.prFiles.push({
      filename: "p/plugin.json",
      status: base === undefined ? "added" : "modified",
      patch: "@@ -1 +1 @@\n-{\n+{",
    });
    gh.file(R, HEAD_SHA, "p/plugin.json", content);
    if (base !== undefined) gh.file(R, "b".repeat(40), "p/plugin.json", base);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    cleanup();
    disableNetwork();
    return run!;
  };
  const broken = text({ ...validHost(), version: "1" }); // version-format: an error

  it("findings that do not fail: neutral (fail_on: never, or only findings below the failing level)", async () => {
    expect((await conclusionWith("fail_on: never\n", broken)).conclusion).toBe("neutral");
    const warnOnly = await conclusionWith("rules:\n  version-format: warning\n", broken);
    expect(warnOnly.conclusion).toBe("neutral");
    expect(warnOnly.output!.summary).toMatch(/\*\*Passing\*\*/);
  });

  it("a failing finding: failure; no findings, or only existing ones that do not count: success", async () => {
    expect((await conclusionWith("fail_on: error\n", broken)).conclusion).toBe("failure");
    expect((await conclusionWith("", text(validHost()))).conclusion).toBe("success");
    // The base already had the error; the pull request changes something else: existing, reported, not counted.
    const touched = text({ ...validHost(), version: "1", requiredAgentVersion: "1.102.0" });
    const existingOnly = await conclusionWith("rules:\n  version-not-bumped: off\n", touched, broken);
    expect(existingOnly.annotations).toEqual([expect.objectContaining({ annotation_level: "notice" })]);
    expect(existingOnly.conclusion).toBe("success");
  });
});
