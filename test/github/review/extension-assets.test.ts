/**
 * An extension that is not Python (here SNMP) gets its project's files listed in the App and `pr` too, so that
 * asset-missing judges the files its `dashboards` and `alerts` list, as `check` does on a folder. The real app,
 * real webhook payloads, the OpenAPI-validated fake GitHub.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { edit, lineOf } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  addedPatch,
  BASE_SHA,
  deliver,
  HEAD_SHA,
  makeProbot,
  pullRequestPayload,
  OWNER,
  REPO,
  rewritePatch,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;
const FOLDER = "snmp-router/";
const YAML = `${FOLDER}extension.yaml`;
const OVERVIEW = `${FOLDER}dashboards/overview.json`;
const INTERFACES = `${FOLDER}dashboards/interfaces.json`;
const DASHBOARD = readFileSync(
  new URL("../../../examples/extension-valid/extension/dashboards/overview.json", import.meta.url),
  "utf8",
);
/** The valid SNMP example, listing a second dashboard. */
const SNMP = edit(
  readFileSync(
    new URL("../../../examples/extension-valid/extension/extension.yaml", import.meta.url),
    "utf8",
  ),
  "  - path: dashboards/overview.json\n",
  "  - path: dashboards/overview.json\n  - path: dashboards/interfaces.json\n",
);
const MISSING_LINE = "  - path: dashboards/interfaces.json";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

const titled = (run: { annotations: { title?: string }[] }, rule: string) =>
  run.annotations.filter((a) => a.title === rule);

/**
 * A pull request that adds the SNMP extension, with `head`'s files at the head commit; `commented`: the review
 * posts line comments (a finding to show), else a review would be an unexpected request.
 */
async function added(
  yaml: string,
  head: Record<string, string>,
  { commented, configure }: { commented: boolean; configure?: (gh: FakeGitHub) => void },
) {
  const gh = new FakeGitHub([...REVIEW_ROUTES.filter((r) => commented || r !== "createReview"), "tree"]);
  const { probot } = makeProbot();
  gh.prFiles = [
    { filename: YAML, status: "added", patch: addedPatch(yaml) },
    ...Object.keys(head).map((filename) => ({
      filename,
      status: "added" as const,
      patch: "@@ -0,0 +1 @@\n+{}",
    })),
  ];
  gh.file(R, HEAD_SHA, YAML, yaml);
  for (const [path, text] of Object.entries(head)) gh.file(R, HEAD_SHA, path, text);
  configure?.(gh);
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  const [run] = gh.runsFor(HEAD_SHA);
  gh.assertClean();
  return { gh, run: run! };
}

describe("GitHub App: the files an extension that is not Python lists", () => {
  it("fails an added SNMP extension whose dashboard is missing, at its line, listing the head's tree once", async () => {
    const { gh, run } = await added(SNMP, { [OVERVIEW]: DASHBOARD }, { commented: true });
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run, "asset-missing")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(SNMP, MISSING_LINE),
        annotation_level: "failure",
        message: expect.stringContaining("dashboards/interfaces.json"),
      }),
    ]);
    // The review's line comment too, on that line of the added file.
    expect(gh.comments.map((c) => [c.path, c.line, /`([a-z0-9-]+)`/.exec(c.body)?.[1]])).toEqual([
      [YAML, lineOf(SNMP, MISSING_LINE), "asset-missing"],
    ]);
    expect(gh.count("GET", new RegExp(`^/repos/${R}/git/trees/${HEAD_SHA}$`))).toBe(1);
  });

  it("fails an SNMP extension whose missing dashboard is listed under a key written with YAML escapes (no word of it in the text)", async () => {
    // `"d\x61shboards"` is `dashboards` to YAML (and to Dynatrace), though the text never spells the word.
    const escaped = edit(
      edit(SNMP, "dashboards:\n", '"d\\x61shboards":\n'),
      "  - path: dashboards/overview.json\n  - path: dashboards/interfaces.json\n",
      "  - path: views/overview.json\n  - path: views/interfaces.json\n",
    );
    expect(escaped).not.toMatch(/dashboards|alerts|python/);
    const { run } = await added(
      escaped,
      { [`${FOLDER}views/overview.json`]: DASHBOARD },
      { commented: true },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run, "asset-missing")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(escaped, "  - path: views/interfaces.json"),
        annotation_level: "failure",
      }),
    ]);
  });

  it("passes an SNMP extension whose listed dashboards are there", async () => {
    const { run } = await added(
      SNMP,
      { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD },
      { commented: false },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(titled(run, "asset-missing")).toEqual([]);
  });

  it("fails a dashboard and a documents.dashboards file that are not JSON, at their paths, as `check` does", async () => {
    const listing = `${SNMP}documents:\n  dashboards:\n    - displayName: Overview\n      path: documents/overview.json\n`;
    const { run } = await added(
      listing,
      {
        [OVERVIEW]: DASHBOARD,
        [INTERFACES]: '{\n  "tiles": [],\n}',
        [`${FOLDER}documents/overview.json`]: '["not", "an", "object"]',
      },
      { commented: true },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run, "asset-missing")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(listing, MISSING_LINE),
        annotation_level: "failure",
        message: expect.stringContaining(
          "dashboard `dashboards/interfaces.json` is not valid JSON (line 3, column 1): Dynatrace cannot import the dashboard it should hold",
        ),
      }),
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(listing, "      path: documents/overview.json"),
        annotation_level: "failure",
        message: expect.stringContaining(
          "dashboard `documents/overview.json` is not a JSON object (the dashboard Dynatrace imports)",
        ),
      }),
    ]);
  });

  it("keeps a dashboard the base already had broken an existing finding, read at the base too: a version bump passes", async () => {
    const before = SNMP;
    const after = edit(before, 'version: "1.4.0"', 'version: "1.5.0"');
    const gh = new FakeGitHub([...REVIEW_ROUTES.filter((r) => r !== "createReview"), "tree"]);
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: YAML, status: "modified", patch: rewritePatch(before, after) }];
    for (const [sha, yaml] of [
      [HEAD_SHA, after],
      [BASE_SHA, before],
    ] as const)
      gh.file(R, sha, YAML, yaml).file(R, sha, OVERVIEW, DASHBOARD).file(R, sha, INTERFACES, "{ tiles: [] }");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(titled(run!, "asset-missing")).toEqual([
      expect.objectContaining({
        start_line: lineOf(after, MISSING_LINE),
        annotation_level: "notice",
        message: expect.stringMatching(
          /^Existing finding: .*dashboard `dashboards\/interfaces\.json` is not valid JSON/,
        ),
      }),
    ]);
  });

  it("warns of a dashboard over max_file_size, known by its size alone (never downloaded)", async () => {
    const { gh, run } = await added(
      SNMP,
      { [OVERVIEW]: DASHBOARD },
      {
        commented: true,
        configure: (gh) => {
          gh.file(R, HEAD_SHA, INTERFACES, Buffer.alloc(3 * 1024 * 1024, 0x20));
          gh.file(R, "HEAD", ".github/plugin-review.yml", "max_file_size: 2097152\n");
        },
      },
    );
    expect(titled(run, "asset-missing")).toEqual([
      expect.objectContaining({
        start_line: lineOf(SNMP, MISSING_LINE),
        annotation_level: "warning",
        message:
          "dashboard `dashboards/interfaces.json` is larger than max_file_size (2097152 bytes), so it was not checked to be JSON",
      }),
    ]);
    expect(gh.count("GET", /\/git\/blobs\//)).toBe(0);
  });

  it("passes an SNMP extension whose dashboards folder is a symbolic link (GitHub's tree does not say to what)", async () => {
    const alerting = `${SNMP}alerts:\n  - path: alerts/cpu-high.json\n`;
    const { run } = await added(
      alerting,
      { [`${FOLDER}dashboards`]: "../shared/dashboards", [`${FOLDER}alerts/cpu-high.json`]: "{}" },
      { commented: false, configure: (gh) => gh.symlinks.add(`${FOLDER}dashboards`) },
    );
    expect(titled(run, "asset-missing")).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("passes an SNMP extension whose dashboards folder is a submodule (GitHub's tree does not say what it holds)", async () => {
    const alerting = `${SNMP}alerts:\n  - path: alerts/cpu-high.json\n`;
    const { run } = await added(
      alerting,
      { [`${FOLDER}dashboards`]: "", [`${FOLDER}alerts/cpu-high.json`]: "{}" },
      { commented: false, configure: (gh) => gh.submodules.add(`${FOLDER}dashboards`) },
    );
    expect(titled(run, "asset-missing")).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("fails an SNMP extension whose dashboard is missing when GitHub cuts the head commit's tree short, listing its project's own tree", async () => {
    // A repository GitHub lists only in part (a big monorepo, or a pull request adding many files anywhere): the
    // part it answers ends before the project, which is found a level at a time and listed from its own tree.
    const big = (gh: FakeGitHub) => {
      for (let i = 0; i < 10; i++) gh.file(R, HEAD_SHA, `docs/f${i}.md`, "");
      gh.cutTrees.add(HEAD_SHA);
    };
    const { gh, run } = await added(SNMP, { [OVERVIEW]: DASHBOARD }, { commented: true, configure: big });
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run, "asset-missing")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(SNMP, MISSING_LINE),
        annotation_level: "failure",
        message: expect.stringContaining("dashboards/interfaces.json"),
      }),
    ]);
    expect(run.output!.summary).not.toContain("cut short");
    // The commit's tree (cut short), its top level, and the project's tree: three listings.
    const trees = gh.mock.requests.filter((r) => r.path.includes("/git/trees/"));
    expect(trees.map((r) => [r.path.split("/git/trees/")[1] === HEAD_SHA, "recursive" in r.query])).toEqual([
      [true, true],
      [true, false],
      [false, true],
    ]);
  });

  it("passes an SNMP extension whose listed dashboards are there when GitHub cuts the head commit's tree short, with no note", async () => {
    const { run } = await added(
      SNMP,
      { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD },
      { commented: false, configure: (gh) => gh.cutTrees.add(HEAD_SHA) },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(titled(run, "asset-missing")).toEqual([]);
    expect(run.output!.summary).not.toContain("were not checked");
  });

  it("lists the folders above two projects once when GitHub cuts the head commit's tree short", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "tree"]);
    const { probot } = makeProbot();
    const [a, b] = ["ext/snmp/a/", "ext/snmp/b/"];
    gh.prFiles = [a, b].map((f) => ({
      filename: `${f}extension.yaml`,
      status: "added" as const,
      patch: addedPatch(SNMP),
    }));
    for (const f of [a, b])
      gh.file(R, HEAD_SHA, `${f}extension.yaml`, SNMP).file(
        R,
        HEAD_SHA,
        `${f}dashboards/overview.json`,
        DASHBOARD,
      );
    gh.file(R, HEAD_SHA, `${b}dashboards/interfaces.json`, DASHBOARD);
    for (let i = 0; i < 20; i++) gh.file(R, HEAD_SHA, `docs/f${i}.md`, "");
    gh.cutTrees.add(HEAD_SHA);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(titled(run!, "asset-missing").map((x) => (x as { path?: string }).path)).toEqual([
      `${a}extension.yaml`,
    ]);
    // The commit's tree (cut short, here before any project) and each level above the projects once (the
    // top, `ext`, `ext/snmp`), then each project's tree.
    const trees = gh.mock.requests.filter((r) => r.path.includes("/git/trees/"));
    expect(trees.filter((r) => !("recursive" in r.query))).toHaveLength(3);
    expect(trees.filter((r) => "recursive" in r.query)).toHaveLength(3);
  });

  it("judges nothing, and says so, for an extension added to a folder whose own tree GitHub cuts short at the base too", async () => {
    const { run } = await added(
      SNMP,
      { [OVERVIEW]: DASHBOARD },
      {
        commented: false,
        configure: (gh) => {
          // The folder was there, too large to list, before the change added extension.yaml to it.
          gh.file(R, BASE_SHA, `${FOLDER}README.md`, "");
          gh.cutTrees.add(HEAD_SHA).add(BASE_SHA);
          gh.cutFolders.add(FOLDER.slice(0, -1));
        },
      },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(titled(run, "asset-missing")).toEqual([]);
    expect(run.output!.summary).toContain(
      "(or GitHub cut its listing short), so the files it lists (dashboards) were not checked",
    );
  });

  it("lists no tree for an extension that lists no file", async () => {
    const bare = SNMP.slice(0, SNMP.indexOf("\ndashboards:") + 1);
    expect(bare).not.toMatch(/dashboards|alerts|python/);
    // No "tree" route: a listing would be an unexpected request.
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: YAML, status: "added", patch: addedPatch(bare) }];
    gh.file(R, HEAD_SHA, YAML, bare);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("keeps a dashboard the base already missed an existing finding: a version bump passes", async () => {
    const before = SNMP;
    const after = edit(before, 'version: "1.4.0"', 'version: "1.5.0"');
    const gh = new FakeGitHub([...REVIEW_ROUTES.filter((r) => r !== "createReview"), "tree"]);
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: YAML, status: "modified", patch: rewritePatch(before, after) }];
    gh.file(R, HEAD_SHA, YAML, after).file(R, HEAD_SHA, OVERVIEW, DASHBOARD);
    gh.file(R, BASE_SHA, YAML, before).file(R, BASE_SHA, OVERVIEW, DASHBOARD);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    for (const sha of [HEAD_SHA, BASE_SHA])
      expect(gh.count("GET", new RegExp(`^/repos/${R}/git/trees/${sha}$`))).toBe(1);
    // Three calls more than another extension's review without findings (docs/performance.md): the two trees,
    // and one read of its dashboards at head and base.
    expect(gh.mock.requests.filter((r) => !r.path.endsWith("/access_tokens")).length).toBe(8);
  });

  it("fails a pull request that deletes a dashboard its unchanged extension.yaml still lists (a new finding)", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "tree"]);
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: INTERFACES, status: "removed" }];
    for (const sha of [HEAD_SHA, BASE_SHA]) gh.file(R, sha, YAML, SNMP).file(R, sha, OVERVIEW, DASHBOARD);
    gh.file(R, BASE_SHA, INTERFACES, DASHBOARD);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run!, "asset-missing")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(SNMP, MISSING_LINE),
        annotation_level: "failure",
      }),
    ]);
  });

  it("judges an extension in a repository of 100,000 files, keeping only its project's", async () => {
    const many = (gh: FakeGitHub) => {
      for (let i = 0; i < 100_000; i++) gh.file(R, HEAD_SHA, `vendor/${i % 100}/f${i}.json`, "");
    };
    const started = Date.now();
    const { run } = await added(SNMP, { [OVERVIEW]: DASHBOARD }, { commented: true, configure: many });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(titled(run, "asset-missing")).toHaveLength(1);
  }, 60_000);

  it("judges nothing, and says so, for an extension at the root of a repository of more than 5,000 files", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES.filter((r) => r !== "createReview"), "tree"]);
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: "extension.yaml", status: "added", patch: addedPatch(SNMP) }];
    gh.file(R, HEAD_SHA, "extension.yaml", SNMP).file(R, HEAD_SHA, "dashboards/overview.json", DASHBOARD);
    // The repository had them before: the change did not make its root too large to list.
    for (let i = 0; i < 5_001; i++)
      for (const sha of [HEAD_SHA, BASE_SHA]) gh.file(R, sha, `docs/f${i}.md`, "");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run!.output!.summary).toContain(
      "`extension.yaml`: its project folder has more than 5,000 files (or GitHub cut its listing short), so the files it lists (dashboards) were not checked",
    );
  });
});

/**
 * A project of more than 5,000 files is not listed: a change that takes it past that bound is not reviewed whole
 * and fails (else deleting a listed file and adding 5,001 others would pass); one that was past it at the base
 * already passes with a note (above). A new extension is judged by its folder at the base: one added with a
 * project of 5,001 files fails.
 */
describe("GitHub App: an extension whose project the change makes too large to list", () => {
  const JUNK = 5_001;
  const junk = (i: number) => `${FOLDER}data/f${i}.txt`;
  /** More files than GitHub lists of a pull request (3,000): the change is read from the commits' trees. */
  const routes = [...REVIEW_ROUTES, "tree", "compare"] as const;

  it("fails a pull request that bumps the version, deletes a listed dashboard and adds 5,001 files to the project", async () => {
    // No finding to post a review for (the failure is the check's): no review.
    const gh = new FakeGitHub(routes.filter((r) => r !== "createReview"));
    const { probot } = makeProbot();
    const bumped = edit(SNMP, 'version: "1.4.0"', 'version: "1.5.0"');
    gh.prFiles = [
      { filename: YAML, status: "modified", patch: rewritePatch(SNMP, bumped) },
      { filename: INTERFACES, status: "removed" },
    ];
    gh.file(R, HEAD_SHA, YAML, bumped).file(R, BASE_SHA, YAML, SNMP);
    for (const sha of [HEAD_SHA, BASE_SHA]) gh.file(R, sha, OVERVIEW, DASHBOARD);
    gh.file(R, BASE_SHA, INTERFACES, DASHBOARD);
    for (let i = 0; i < JUNK; i++) {
      gh.file(R, HEAD_SHA, junk(i), `${i}\n`);
      gh.prFiles.push({ filename: junk(i), status: "added", patch: "@@ -0,0 +1 @@\n+x" });
    }
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run!, "asset-missing")).toEqual([]);
    expect(run!.output!.title).toMatch(/^1 changed descriptor not reviewed/);
    expect(run!.output!.summary).toContain(
      "and had not at the base commit: this change made them too large to list, so the files of their projects",
    );
    expect(run!.output!.summary).toContain(`- \`${YAML}\``);
  }, 60_000);

  it("fails a pull request that adds an extension with a project of 5,001 files, naming it", async () => {
    // No finding to post a review for (the failure is the check's): no review.
    const gh = new FakeGitHub(routes.filter((r) => r !== "createReview"));
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: YAML, status: "added", patch: addedPatch(SNMP) }];
    gh.file(R, HEAD_SHA, YAML, SNMP).file(R, HEAD_SHA, OVERVIEW, DASHBOARD);
    for (const sha of [HEAD_SHA, BASE_SHA]) gh.file(R, sha, "README.md", "");
    for (let i = 0; i < JUNK; i++) {
      gh.file(R, HEAD_SHA, junk(i), `${i}\n`);
      gh.prFiles.push({ filename: junk(i), status: "added", patch: "@@ -0,0 +1 @@\n+x" });
    }
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run!, "asset-missing")).toEqual([]);
    expect(run!.output!.summary).toContain("this change made them too large to list");
    expect(run!.output!.summary).toContain(`- \`${YAML}\``);
    expect(run!.output!.summary).not.toContain("its project folder has more than");
  }, 60_000);
});

describe("GitHub App: the alert files an extension lists, read as `check` reads them", () => {
  const ALERT = `${FOLDER}alerts/interface-errors.json`;
  const ALERT_LINE = "  - path: ./alerts/interface-errors.json";
  const ALERTING = `${SNMP}alerts:\n${ALERT_LINE}\n`;
  const event = (metricId: string) => JSON.stringify({ name: "Interface errors", metricId });

  it("warns at an alert's path when its metric event is on a metric the extension does not report", async () => {
    const { gh, run } = await added(
      ALERTING,
      { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD, [ALERT]: event("example.router.if.errors") },
      { commented: true },
    );
    expect(titled(run, "unknown-metric-reference")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(ALERTING, ALERT_LINE),
        annotation_level: "warning",
        message: expect.stringContaining(
          "alert `./alerts/interface-errors.json` is on `example.router.if.errors`, which this extension neither reports nor describes: its metric event never fires: did you mean `example.router.if.errors.count`?",
        ),
      }),
    ]);
    // A warning: neutral, not failing.
    expect(run).toMatchObject({ status: "completed", conclusion: "neutral" });
    // Read at the head commit, with the change's other files: no request of its own.
    expect(gh.count("GET", new RegExp(`^/repos/${R}/git/trees/${HEAD_SHA}$`))).toBe(1);
  });

  it("passes an alert on a metric the extension reports", async () => {
    const { run } = await added(
      ALERTING,
      { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD, [ALERT]: event("example.router.if.errors.count") },
      { commented: false },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run.annotations).toEqual([]);
  });

  it("fails an alert file that is not JSON, at its path in extension.yaml", async () => {
    const { run } = await added(
      ALERTING,
      { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD, [ALERT]: '{\n  "name": "Interface errors",\n}' },
      { commented: true },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run, "asset-missing")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(ALERTING, ALERT_LINE),
        annotation_level: "failure",
        message: expect.stringContaining(
          "alert `./alerts/interface-errors.json` is not valid JSON (line 3, column 1): Dynatrace cannot import the metric event it should hold",
        ),
      }),
    ]);
  });

  it.each([
    ["a key written with a YAML escape", `${SNMP}"\\x61lerts":\n  - path: ./alerts/interface-errors.json\n`],
    ["a path written with a YAML escape", `${SNMP}alerts:\n  - path: "./\\x61lerts/interface-errors.json"\n`],
    [
      "a list given by an alias",
      `${SNMP}x-alerts: &listed\n  - path: ./alerts/interface-errors.json\nalerts: *listed\n`,
    ],
  ])(
    "fails an alert file that is not JSON when extension.yaml lists it through %s (no line the scan reads)",
    async (_, yaml) => {
      const { run } = await added(
        yaml,
        { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD, [ALERT]: '{\n  "name": "Interface errors",\n}' },
        { commented: true },
      );
      expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(titled(run, "asset-missing")).toEqual([
        expect.objectContaining({
          path: YAML,
          annotation_level: "failure",
          message: expect.stringContaining("is not valid JSON (line 3, column 1)"),
        }),
      ]);
    },
  );

  it("warns of an alert file over max_file_size, known by its size alone (never downloaded)", async () => {
    const { gh, run } = await added(
      ALERTING,
      { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD },
      {
        commented: true,
        configure: (gh) => {
          gh.file(R, HEAD_SHA, ALERT, Buffer.alloc(3 * 1024 * 1024, 0x20));
          gh.file(R, "HEAD", ".github/plugin-review.yml", "max_file_size: 2097152\n");
        },
      },
    );
    expect(titled(run, "asset-missing")).toEqual([
      expect.objectContaining({
        start_line: lineOf(ALERTING, ALERT_LINE),
        annotation_level: "warning",
        message:
          "alert `./alerts/interface-errors.json` is larger than max_file_size (2097152 bytes), so the metric event it holds was not checked",
      }),
    ]);
    expect(run).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(gh.count("GET", /\/git\/blobs\//)).toBe(0);
  });

  it("fails a metric event that can never be raised and warns of an EF1 placeholder in it, at the alert's path, as `check` does", async () => {
    const broken = JSON.stringify({
      name: "Interface errors",
      metricId: "example.router.if.errors.count",
      description: "Errors on {entityname} ({dimensions})",
      monitoringStrategy: { type: "STATIC_THRESHOLD", samples: 3, violatingSamples: 5, dealertingSamples: 5 },
    });
    const { gh, run } = await added(
      ALERTING,
      { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD, [ALERT]: broken },
      { commented: true },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const line = lineOf(ALERTING, ALERT_LINE);
    expect(titled(run, "alert-samples")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: line,
        annotation_level: "failure",
        message: expect.stringContaining(
          "alert `./alerts/interface-errors.json`: `monitoringStrategy.violatingSamples` (5) exceeds `monitoringStrategy.samples` (3): the metric event can never be raised",
        ),
      }),
    ]);
    expect(titled(run, "alert-placeholder")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: line,
        annotation_level: "warning",
        message: expect.stringContaining(
          "alert `./alerts/interface-errors.json`: unknown placeholder `{dimensions}` in `description` is shown literally: EF1's `{dimensions}` is `{dims}` in a metric event",
        ),
      }),
    ]);
    // One line comment each, on that line of the added file.
    expect(gh.comments.map((c) => [c.path, c.line, /`([a-z0-9-]+)`/.exec(c.body)?.[1]]).sort()).toEqual([
      [YAML, line, "alert-placeholder"],
      [YAML, line, "alert-samples"],
    ]);
  });

  it("fails a pull request that breaks only an alert file's samples (extension.yaml left alone), a new finding", async () => {
    const good = { name: "Interface errors", metricId: "example.router.if.errors.count" };
    const strategy = { type: "STATIC_THRESHOLD", samples: 5, violatingSamples: 3, dealertingSamples: 5 };
    const before = JSON.stringify({ ...good, monitoringStrategy: strategy }, null, 2);
    const after = JSON.stringify({ ...good, monitoringStrategy: { ...strategy, samples: 0 } }, null, 2);
    const gh = new FakeGitHub([...REVIEW_ROUTES, "tree"]);
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: ALERT, status: "modified", patch: rewritePatch(before, after) }];
    for (const [sha, alert] of [
      [HEAD_SHA, after],
      [BASE_SHA, before],
    ] as const)
      gh.file(R, sha, YAML, ALERTING)
        .file(R, sha, OVERVIEW, DASHBOARD)
        .file(R, sha, INTERFACES, DASHBOARD)
        .file(R, sha, ALERT, alert);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run!, "alert-samples")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(ALERTING, ALERT_LINE),
        annotation_level: "failure",
        message: expect.stringContaining("`monitoringStrategy.samples` is 0; it must be at least 1"),
      }),
    ]);
  });

  it("keeps an alert the base already had on an unknown metric an existing finding, read at the base too", async () => {
    const before = ALERTING;
    const after = edit(before, 'version: "1.4.0"', 'version: "1.5.0"');
    const gh = new FakeGitHub([...REVIEW_ROUTES.filter((r) => r !== "createReview"), "tree"]);
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: YAML, status: "modified", patch: rewritePatch(before, after) }];
    for (const [sha, yaml] of [
      [HEAD_SHA, after],
      [BASE_SHA, before],
    ] as const)
      gh.file(R, sha, YAML, yaml)
        .file(R, sha, OVERVIEW, DASHBOARD)
        .file(R, sha, INTERFACES, DASHBOARD)
        .file(R, sha, ALERT, event("example.router.if.errorz"));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(titled(run!, "unknown-metric-reference")).toEqual([
      expect.objectContaining({
        start_line: lineOf(after, ALERT_LINE),
        annotation_level: "notice",
        message: expect.stringMatching(/^Existing finding: .*`example\.router\.if\.errorz`/),
      }),
    ]);
  });
});

describe("GitHub App: alert and dashboard files read a batch, bounded", () => {
  it("reads the alert and dashboard files of extensions that need more than 80 reads together, in halves: none is cut short by the others", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "tree"]);
    const { probot } = makeProbot();
    const listed = `${SNMP}alerts:\n${Array.from({ length: 10 }, (_, i) => `  - path: alerts/a${i}.json\n`).join("")}`;
    // Seven extensions listing ten alert files and two dashboards of their own each (Dynatrace takes ten of
    // each): 84 reads, more than one call reads; the seventh's last alert file is not JSON.
    const folders = Array.from({ length: 7 }, (_, i) => `e${i + 1}/`);
    gh.prFiles = [];
    for (const folder of folders) {
      // Each its own name: extensions of one name reviewed together are duplicate-plugin-name.
      const yaml = edit(
        listed,
        "name: custom:example.snmp-router",
        `name: custom:example.${folder.slice(0, -1)}`,
      );
      gh.prFiles.push({ filename: `${folder}extension.yaml`, status: "added", patch: addedPatch(yaml) });
      gh.file(R, HEAD_SHA, `${folder}extension.yaml`, yaml).file(
        R,
        HEAD_SHA,
        `${folder}dashboards/overview.json`,
        DASHBOARD,
      );
      gh.file(R, HEAD_SHA, `${folder}dashboards/interfaces.json`, DASHBOARD);
      for (let i = 0; i < 10; i++)
        gh.file(
          R,
          HEAD_SHA,
          `${folder}alerts/a${i}.json`,
          folder === "e7/" && i === 9 ? "{ not json" : JSON.stringify({ metricId: "example.router.uptime" }),
        );
    }
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    // Every file read and judged: the seventh extension's broken alert file fails the check at its path, and
    // nothing says a file was not read.
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const broken = (run!.annotations as { path: string; title: string; start_line: number }[]).filter(
      (a) => a.title === "asset-missing",
    );
    expect(broken.map((a) => [a.path, a.start_line])).toEqual([
      ["e7/extension.yaml", listed.split("\n").indexOf("  - path: alerts/a9.json") + 1],
    ]);
    expect(run!.output!.title).not.toMatch(/not reviewed/);
    expect(run!.output!.summary).not.toContain(
      "A review reads at most 80 alert and dashboard files of an extension",
    );
    expect(run!.output!.summary).not.toContain("were not read and not checked");
  });
});

/**
 * Past the bound, an extension whose files the change left unread fails the check (not reviewed whole): a file
 * the change adds or modifies was not read, or its base's reads alone fit within the bound. One whose base already
 * listed more than the bound keeps the note: else every pull request touching it would fail.
 */
describe("GitHub App: alert and dashboard files the change leaves unread", () => {
  const ALERT = `${FOLDER}alerts/interface-errors.json`;
  const GOOD = JSON.stringify({ name: "Interface errors", metricId: "example.router.if.errors.count" });
  const BROKEN = '{\n  "name": "Interface errors",\n}';
  const bump = (yaml: string) => edit(yaml, 'version: "1.4.0"', 'version: "1.5.0"');
  const alertList = (n: number) =>
    `alerts:\n${Array.from({ length: n }, (_, i) => `  - path: alerts/a${String(i).padStart(2, "0")}.json\n`).join("")}`;
  const alertAt = (folder: string, i: number) => `${folder}alerts/a${String(i).padStart(2, "0")}.json`;
  const NOT_READ = "so some of the files they list were not read and not checked, and this change caused it";

  /** A review of `prFiles` (all at head), with `base` at the base commit; no review posted unless `commented`. */
  async function reviewed(
    prFiles: { filename: string; status: "added" | "modified"; patch?: string }[],
    head: Record<string, string>,
    base: Record<string, string>,
  ) {
    const gh = new FakeGitHub([...REVIEW_ROUTES.filter((r) => r !== "createReview"), "tree"]);
    const { probot } = makeProbot();
    gh.prFiles = prFiles.map((f) => ({ patch: "@@ -0,0 +1 @@\n+{}", ...f }));
    for (const [path, text] of Object.entries(head)) gh.file(R, HEAD_SHA, path, text);
    for (const [path, text] of Object.entries(base)) gh.file(R, BASE_SHA, path, text);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    return run!;
  }

  it("fails a pull request that breaks an alert listed through an alias and adds 80 JSON files read before it", async () => {
    // The alias hides the list from the scan of lines: every JSON file of the project is read as an alert file.
    const aliased = `${SNMP}x-alerts: &listed\n  - path: ./alerts/interface-errors.json\nalerts: *listed\n`;
    const junk = Array.from({ length: 80 }, (_, i) => `${FOLDER}a/j${String(i).padStart(2, "0")}.json`);
    const shared = { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD };
    const run = await reviewed(
      [
        { filename: YAML, status: "modified", patch: rewritePatch(aliased, bump(aliased)) },
        { filename: ALERT, status: "modified" },
        ...junk.map((filename) => ({ filename, status: "added" as const })),
      ],
      {
        ...shared,
        [YAML]: bump(aliased),
        [ALERT]: BROKEN,
        ...Object.fromEntries(junk.map((j) => [j, "{}"])),
      },
      { ...shared, [YAML]: aliased, [ALERT]: GOOD },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run.output!.title).toMatch(/^1 changed descriptor not reviewed/);
    expect(run.output!.summary).toContain(NOT_READ);
    expect(run.output!.summary).toContain(`- \`${YAML}\``);
    // Said once, as the failure: not as a note too.
    expect(run.output!.summary).not.toContain("were not read and not checked.");
  });

  it("passes a version bump reviewed with added extensions of 84 files: the batch is read in halves, its alert file too", async () => {
    const ALERTING = `${SNMP}alerts:\n  - path: ./alerts/interface-errors.json\n`;
    // Seven added extensions first in the batch, ten alert files and two dashboards each: 84 reads, past the bound.
    const prFiles: { filename: string; status: "added" | "modified"; patch?: string }[] = [];
    const head: Record<string, string> = {};
    for (let e = 1; e <= 7; e++) {
      const folder = `e${e}/`;
      const yaml = edit(
        `${SNMP}${alertList(10)}`,
        "name: custom:example.snmp-router",
        `name: custom:example.e${e}`,
      );
      prFiles.push({ filename: `${folder}extension.yaml`, status: "added", patch: addedPatch(yaml) });
      Object.assign(head, {
        [`${folder}extension.yaml`]: yaml,
        [`${folder}dashboards/overview.json`]: DASHBOARD,
        [`${folder}dashboards/interfaces.json`]: DASHBOARD,
      });
      for (let i = 0; i < 10; i++) head[alertAt(folder, i)] = GOOD;
    }
    const shared = { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD, [ALERT]: GOOD };
    prFiles.push({ filename: YAML, status: "modified", patch: rewritePatch(ALERTING, bump(ALERTING)) });
    const run = await reviewed(
      prFiles,
      { ...head, ...shared, [YAML]: bump(ALERTING) },
      { ...shared, [YAML]: ALERTING },
    );
    // Before, the added extensions' reads left its alert file unread: a pull request bumping many extensions'
    // versions failed, or (before that) passed with files not read.
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run.output!.summary).not.toContain(NOT_READ);
    expect(run.output!.summary).not.toContain("were not read and not checked");
  });

  /** An extension listing its alert through an alias, with 85 other JSON files at base and head. */
  async function pastAtBase(broken: boolean) {
    const aliased = `${SNMP}x-alerts: &listed\n  - path: ./alerts/interface-errors.json\nalerts: *listed\n`;
    const data = Object.fromEntries(
      Array.from({ length: 85 }, (_, i) => [`${FOLDER}a/j${String(i).padStart(2, "0")}.json`, "{}"]),
    );
    const shared = { [OVERVIEW]: DASHBOARD, [INTERFACES]: DASHBOARD, ...data };
    return reviewed(
      [
        { filename: YAML, status: "modified", patch: rewritePatch(aliased, bump(aliased)) },
        ...(broken ? [{ filename: ALERT, status: "modified" as const }] : []),
      ],
      { ...shared, [YAML]: bump(aliased), [ALERT]: broken ? BROKEN : GOOD },
      { ...shared, [YAML]: aliased, [ALERT]: GOOD },
    );
  }

  it("passes, with its note, a version bump of an extension whose base already needed more than 80 reads", async () => {
    const run = await pastAtBase(false);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run.output!.summary).toContain(
      `\`${YAML}\`: it lists more than 80 alert and dashboard files (head and base together), so some of its JSON files were not read and not checked.`,
    );
    expect(run.output!.summary).not.toContain("not reviewed");
  });

  it("fails a pull request that modifies an alert file left unread, even when the base already needed more than 80 reads", async () => {
    const run = await pastAtBase(true);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run.output!.summary).toContain(NOT_READ);
    expect(run.output!.summary).toContain(`- \`${YAML}\``);
    expect(run.output!.summary).not.toContain("were not read and not checked.");
  });
});
