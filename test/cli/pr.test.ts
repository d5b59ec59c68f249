/** `plugin-review pr`: the App's review of a real-shaped pull request, printed, with nothing written. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { check, text, validHost } from "../helpers.js";
import { mainRun } from "./run.js";
import { FIXED_MARKER, fingerprintMarker } from "../../src/github/review/pull-review/fingerprint.js";
import { FakeGitHub, type Route } from "../github/fake-github.js";
import { cleanup, disableNetwork, githubMock } from "../github/github-mock.js";
import { addedPatch, BASE_SHA, HEAD_SHA, pullRequestPayload } from "../github/harness.js";

const READS: Route[] = ["getPull", "files", "graphql"];

beforeEach(() => disableNetwork());
afterEach(() => {
  cleanup();
  delete process.env.GITHUB_TOKEN;
});

const run = mainRun;

function setup(baseUrl?: string) {
  const gh = new FakeGitHub(READS, baseUrl);
  const before = text(validHost());
  const after = text({ ...validHost(), requiredAgentVersion: "1.102.0" });
  gh.prFiles = [
    {
      filename: "p/plugin.json",
      status: "modified",
      patch:
        '@@ -1,7 +1,7 @@\n {\n   "name": "custom.python.demo_plugin",\n   "version": "1.2.0",\n   "type": "python",\n-  "requiredAgentVersion": "1.101.0",\n+  "requiredAgentVersion": "1.102.0",\n   "entity": "PROCESS_GROUP_INSTANCE",',
    },
  ];
  gh.file("acme/plugins", HEAD_SHA, "p/plugin.json", after).file(
    "acme/plugins",
    BASE_SHA,
    "p/plugin.json",
    before,
  );
  // The REST API's pull request has the same shape as the webhook's.
  gh.pulls.set(7, pullRequestPayload("opened").pull_request);
  process.env.GITHUB_TOKEN = "ghp_dry_run_token_not_real";
  return gh;
}

describe("plugin-review pr", () => {
  it("prints the check run, annotations and review the App would post, and writes nothing", async () => {
    const gh = setup();
    const r = await run(["pr", "acme/plugins#7"]);
    expect(r.stdout).toMatch(/nothing was written to GitHub/);
    expect(r.stdout).toMatch(
      /Check run "plugin-review": failure — 1 error, 0 warnings, 0 notices in 1 descriptor/,
    );
    expect(r.stdout).toMatch(/p\/plugin\.json:3 {2}failure {2}version-not-bumped/);
    expect(r.stdout).toMatch(/Line comments \(1\):\n {2}p\/plugin\.json:3/);
    expect(r.stdout).toContain('"version": "1.2.1"');
    expect(r.status).toBe(1);
    // Reads only: REST GETs and GraphQL queries.
    expect(
      gh.requests.every(
        (q) =>
          q.method === "GET" ||
          (q.path.endsWith("/graphql") && !/mutation/.test(String((q.body as { query?: string }).query))),
      ),
    ).toBe(true);
    expect(gh.requests[0]!.headers.authorization).toBe("token ghp_dry_run_token_not_real");
    gh.assertClean();
  });

  it("a pull request that changes only an extension.yaml: its finding, as the App would post it", async () => {
    const gh = new FakeGitHub(READS);
    const before =
      'name: custom:acme.router\nversion: "1.0.0"\nminDynatraceVersion: "1.285"\nauthor:\n  name: Acme\n';
    const after = before.replace('version: "1.0.0"', "version: 1.1");
    gh.prFiles = [
      {
        filename: "router/extension.yaml",
        status: "modified",
        patch: `@@ -1,3 +1,3 @@\n name: custom:acme.router\n-version: "1.0.0"\n+version: 1.1\n minDynatraceVersion: "1.285"`,
      },
    ];
    gh.file("acme/plugins", HEAD_SHA, "router/extension.yaml", after);
    gh.file("acme/plugins", BASE_SHA, "router/extension.yaml", before);
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    process.env.GITHUB_TOKEN = "ghp_dry_run_token_not_real";
    const r = await run(["pr", "acme/plugins#7"]);
    expect(r.stdout).toMatch(
      /Check run "plugin-review": failure — 1 error, 0 warnings, 0 notices in 1 descriptor/,
    );
    expect(r.stdout).toMatch(/router\/extension\.yaml:2 {2}failure {2}ef2-version-format/);
    expect(r.stdout).toMatch(/Line comments \(1\):\n {2}router\/extension\.yaml:2/);
    expect(r.status).toBe(1);
    gh.assertClean();
  });

  it("an SNMP extension.yaml that lists a dashboard its extension lacks: asset-missing, from the head's tree", async () => {
    const gh = new FakeGitHub([...READS, "tree"]);
    const yaml =
      'name: custom:acme.router\nversion: "1.0.0"\nminDynatraceVersion: "1.285"\nauthor:\n  name: Acme\n' +
      "dashboards:\n  - path: dashboards/overview.json\n  - path: dashboards/interfaces.json\n";
    gh.prFiles = [{ filename: "router/extension.yaml", status: "added", patch: addedPatch(yaml) }];
    gh.file("acme/plugins", HEAD_SHA, "router/extension.yaml", yaml);
    gh.file("acme/plugins", HEAD_SHA, "router/dashboards/overview.json", "{}");
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    process.env.GITHUB_TOKEN = "ghp_dry_run_token_not_real";
    const r = await run(["pr", "acme/plugins#7"]);
    expect(r.stdout).toMatch(/router\/extension\.yaml:8 {2}failure {2}asset-missing/);
    expect(r.stdout).not.toMatch(/router\/extension\.yaml:7 .*asset-missing/);
    expect(r.status).toBe(1);
    expect(gh.count("GET", new RegExp(`/git/trees/${HEAD_SHA}$`))).toBe(1);
    gh.assertClean();
  });

  it("a path with a line break or an escape sequence: escaped in the annotations' lines and in their messages", async () => {
    const gh = new FakeGitHub(READS);
    const doc = text(validHost());
    const paths = ["p\nq/plugin.json", "r\u001b[31ms/plugin.json"];
    gh.prFiles = paths.map((filename) => ({ filename, status: "added", patch: addedPatch(doc) }));
    for (const path of paths) gh.file("acme/plugins", HEAD_SHA, path, doc);
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    process.env.GITHUB_TOKEN = "ghp_dry_run_token_not_real";
    const r = await run(["pr", "acme/plugins#7"]);
    const annotations = r.stdout
      .split("\n")
      .filter((l) => /duplicate-plugin-name/.test(l) && /^ {2}\S/.test(l));
    // Each names its file, and the other file its message quotes, as that file is named: not `p q`, not `rs`.
    expect(annotations).toEqual([
      expect.stringMatching(/^ {2}p\\nq\/plugin\.json:2 .* is also used by `r\\x1b\[31ms\/plugin\.json`;/),
      expect.stringMatching(/^ {2}r\\x1b\[31ms\/plugin\.json:2 .* is also used by `p\\nq\/plugin\.json`;/),
    ]);
    expect(r.stdout).not.toContain("\u001b");
    gh.assertClean();
  });

  it("a push that also fixes an earlier finding: the review and the thread's reply it would send in one document", async () => {
    const gh = setup();
    // The fingerprint of a finding an earlier push had: a host plugin's `favicon` (ignored-member).
    const earlier = check({ ...validHost(), favicon: "https://x/y.png" }, { path: "p/plugin.json" });
    const fp = earlier.find((f) => f.ruleId === "ignored-member")!.fingerprint;
    gh.comments.push({
      pull: "acme/plugins#7",
      id: 50,
      path: "p/plugin.json",
      line: 2,
      side: "RIGHT",
      body: `ignored-member ${fingerprintMarker(fp)}`,
      commit_id: BASE_SHA,
      user: { login: "plugin-review[bot]", type: "Bot" },
    });
    const r = await run(["pr", "acme/plugins#7", "--format", "json"]);
    const out = JSON.parse(r.stdout) as {
      review: { event: string; comments: { path: string; line: number }[] };
      replies: { comment_id: string; body: string }[];
    };
    expect(out.review.event).toBe("COMMENT");
    expect(out.review.comments).toEqual([expect.objectContaining({ path: "p/plugin.json", line: 3 })]);
    expect(out.replies).toEqual([{ comment_id: "PRRT_50", body: expect.stringMatching(/^Fixed in cccccc/) }]);
    expect(gh.comments).toHaveLength(1);
    gh.assertClean();
  });

  it("only what the App's account wrote is the App's: --app names the App (default plugin-review), and a person's \"fixed\" reply closes nothing", async () => {
    // The App's thread on a finding this head fixed, with a person's reply carrying the "fixed" marker.
    const fixedFinding = () => {
      const gh = setup();
      const earlier = check({ ...validHost(), favicon: "https://x/y.png" }, { path: "p/plugin.json" });
      const fp = earlier.find((f) => f.ruleId === "ignored-member")!.fingerprint;
      const thread = {
        pull: "acme/plugins#7",
        id: 50,
        path: "p/plugin.json",
        line: 2,
        side: "RIGHT",
        body: `ignored-member ${fingerprintMarker(fp)}`,
        commit_id: BASE_SHA,
        user: { login: "plugin-review[bot]", type: "Bot" },
      };
      gh.comments.push(thread, {
        ...thread,
        id: 51,
        body: `Done ${FIXED_MARKER}`,
        in_reply_to_id: 50,
        user: { login: "plugin-review", type: "User" },
      });
      return gh;
    };
    const replies = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { replies: { comment_id: string }[] }).replies.map((x) => x.comment_id);

    let gh = fixedFinding();
    expect(replies(await run(["pr", "acme/plugins#7", "--format", "json"]))).toEqual(["PRRT_50"]);
    gh.assertClean();
    cleanup();
    disableNetwork();
    // Another App's review: plugin-review[bot]'s thread is not its own to answer.
    gh = fixedFinding();
    const other = await run(["pr", "acme/plugins#7", "--format", "json", "--app", "acme-plugin-review"]);
    expect(replies(other)).toEqual([]);
    gh.assertClean();

    const bad = await run(["pr", "acme/plugins#7", "--app", "not a slug"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/pr --app takes the App's slug .*, not 'not a slug'/);
  });

  it("shows the App's earlier 'changes requested' review it would dismiss, and a person's it would not", async () => {
    const gh = setup();
    gh.file("acme/plugins", "HEAD", ".github/plugin-review.yml", "review: comment\n");
    const earlier = { pull: "acme/plugins#7", event: "REQUEST_CHANGES", commit_id: BASE_SHA };
    gh.reviews.push(
      {
        ...earlier,
        id: 60,
        body: "<!-- plugin-review:head=b -->",
        user: { login: "plugin-review[bot]", type: "Bot" },
      },
      { ...earlier, id: 61, body: "Rename it, please.", user: { login: "alice", type: "User" } },
    );
    const r = await run(["pr", "acme/plugins#7"]);
    expect(r.stdout).toMatch(
      /Dismiss the App's review PRR_60: plugin-review no longer requests changes: as of `ccccccc` the configuration says `review: comment`\./,
    );
    expect(r.stdout).not.toMatch(/PRR_61/);
    expect(gh.reviews.every((x) => x.dismissed === undefined)).toBe(true); // nothing written
    gh.assertClean();
  });

  it("prints JSON with --format json and honours --api-url (GitHub Enterprise Server)", async () => {
    const gh = setup("https://ghe.example.com/api/v3");
    const r = await run([
      "pr",
      "acme/plugins#7",
      "--format",
      "json",
      "--api-url",
      "https://ghe.example.com/api/v3",
    ]);
    const out = JSON.parse(r.stdout) as {
      checkRun: { conclusion: string; annotations: { title: string }[] };
      review: { event: string; comments: unknown[] };
    };
    expect(out.checkRun.conclusion).toBe("failure");
    expect(out.checkRun.annotations.map((a) => a.title)).toEqual(["version-not-bumped"]);
    expect(out.review.event).toBe("COMMENT");
    expect(out.review.comments).toHaveLength(1);
    gh.assertClean();
  });

  it("explains usage errors and a missing token, exit 2", async () => {
    expect((await run(["pr", "acme/plugins"])).stderr).toMatch(/expected <owner>\/<repo>#<number>/);
    const noToken = await run(["pr", "acme/plugins#7"]);
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toMatch(/set GITHUB_TOKEN/);
  });

  it("explains an unreadable pull request", async () => {
    const gh = new FakeGitHub(["getPull"]).absent(99);
    process.env.GITHUB_TOKEN = "t";
    const r = await run(["pr", "acme/plugins#99"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/reading acme\/plugins#99: GitHub answered 404/);
    gh.assertClean();
  });

  it("says GitHub could not be reached when no answer came, not that GitHub answered 500", async () => {
    const gh = githubMock();
    gh.scope
      .get("/repos/acme/plugins/pulls/7")
      .times(4) // the first try and the retries
      .replyWithError(
        Object.assign(new Error("getaddrinfo ENOTFOUND api.github.com"), { code: "ENOTFOUND" }),
      );
    process.env.GITHUB_TOKEN = "t";
    const r = await run(["pr", "acme/plugins#7"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^plugin-review: reading acme\/plugins#7: no answer from GitHub \(.*ENOTFOUND/);
    expect(r.stderr).not.toMatch(/answered/);
  });

  it("refuses an --api-url that is no http(s) URL as a usage error, asking GitHub nothing", async () => {
    const gh = githubMock();
    process.env.GITHUB_TOKEN = "t";
    for (const command of [
      ["pr", "acme/plugins#7"],
      ["audit", "acme"],
    ]) {
      const r = await run([...command, "--api-url", "github.example.com/api/v3"]);
      expect(r.status, command[0]).toBe(2);
      expect(r.stderr, command[0]).toBe(
        "plugin-review: --api-url must be an http(s) URL such as https://<host>/api/v3, not 'github.example.com/api/v3'\n",
      );
    }
    expect(gh.requests).toEqual([]);
    gh.assertDone();
  });

  it("a file from outside `paths` renamed into a descriptor path is new: its findings fail the check", async () => {
    const gh = new FakeGitHub(READS);
    const doc = validHost() as { metrics: unknown[] };
    doc.metrics.push({ timeseries: { key: "bad_metric", unit: "Secs", displayname: "Bad" } });
    const before = text(doc);
    const after = text({ ...doc, name: "custom.python.new" });
    gh.prFiles = [
      {
        filename: "plugins/new/plugin.json",
        previous_filename: "fixtures/bad.json",
        status: "renamed",
        patch:
          '@@ -1,3 +1,3 @@\n {\n-  "name": "custom.python.demo_plugin",\n+  "name": "custom.python.new",\n   "version": "1.2.0",',
      },
    ];
    gh.file("acme/plugins", BASE_SHA, "fixtures/bad.json", before);
    gh.file("acme/plugins", HEAD_SHA, "plugins/new/plugin.json", after);
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    process.env.GITHUB_TOKEN = "ghp_dry_run_token_not_real";
    const r = await run(["pr", "acme/plugins#7"]);
    expect(r.stdout).toMatch(/Check run "plugin-review": failure — 1 error, 0 warnings, 0 notices/);
    expect(r.stdout).toMatch(/plugins\/new\/plugin\.json:\d+ {2}failure {2}invalid-value/);
    expect(r.stdout).not.toMatch(/Existing finding/);
    expect(r.stdout).toContain("renamed from `fixtures/bad.json`");
    expect(r.status).toBe(1);
    gh.assertClean();
  });
});
