/**
 * The organisation's policy and the repository's configuration as the App applies them: every problem of both
 * files reported at once with its line; never a silent fall-back. The real app, real webhook payloads, the
 * OpenAPI- and GraphQL-validated fake GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "./fake-github.js";
import { cleanup, disableNetwork } from "./github-mock.js";
import { deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "./harness.js";

const R = `${OWNER}/${REPO}`;
const ORG = `${OWNER}/.github`;
const CONFIG = ".github/plugin-review.yml";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

function setup(routes: readonly Route[] = REVIEW_ROUTES) {
  const gh = new FakeGitHub(routes);
  const { probot, logs } = makeProbot();
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

  it("a valid file whose loosening of a lock is refused: reviewed, and the note names the line", async () => {
    const { gh, probot } = setup();
    addPlugin(gh, text({ ...validHost(), name: "custom.python.other_team" }));
    gh.file(
      ORG,
      "HEAD",
      CONFIG,
      'policy:\n  name_pattern: "^custom\\\\.python\\\\.acme_"\nlocked: [policy-name]\n',
    );
    gh.file(R, "HEAD", CONFIG, "fail_on: error\nrules:\n  policy-name: notice\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ conclusion: "failure" });
    expect(run!.output!.summary).toMatch(
      /acme\/plugins:\.github\/plugin-review\.yml, line 3: rule `policy-name` is locked by the organisation/,
    );
    gh.assertClean();
  });
});
