/**
 * A Python extension's review in the App reads what its rules need beside extension.yaml: the files of its
 * project at the head commit (python-module-missing) and its activation schema at head and base
 * (activation-schema-invalid, activation-property-unused). The real app, real webhook payloads, the
 * OpenAPI-validated fake GitHub.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { edit, lineOf } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "../fake-github.js";
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
const example = (path: string) =>
  readFileSync(new URL(`../../../examples/extension-python/${path}`, import.meta.url), "utf8");
const YAML = "queues/extension/extension.yaml";
const SCHEMA = "queues/extension/activationSchema.json";
const MODULE = "queues/example_queue/__main__.py";
const BEFORE = example("extension/extension.yaml");
const AFTER = edit(BEFORE, 'version: "1.0.0"', 'version: "1.1.0"');
const ACTIVATION = example("extension/activationSchema.json");

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** A pull request that changes the extension.yaml of a Python extension's project; `head` adds files at head. */
async function review(
  head: Record<string, string>,
  { fails = true, configure }: { fails?: boolean; configure?: (gh: FakeGitHub) => void } = {},
) {
  // A review (the changes requested) only when the check fails.
  const gh = new FakeGitHub([...REVIEW_ROUTES.filter((r) => fails || r !== "createReview"), "tree"]);
  const { probot } = makeProbot();
  gh.prFiles = [{ filename: YAML, status: "modified", patch: rewritePatch(BEFORE, AFTER) }];
  gh.file(R, HEAD_SHA, YAML, AFTER).file(R, BASE_SHA, YAML, BEFORE).file(R, BASE_SHA, SCHEMA, ACTIVATION);
  gh.file(R, BASE_SHA, MODULE, example("example_queue/__main__.py"));
  for (const [path, text] of Object.entries(head)) gh.file(R, HEAD_SHA, path, text);
  configure?.(gh);
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  const [run] = gh.runsFor(HEAD_SHA);
  gh.assertClean();
  return { gh, run: run! };
}

const titled = (run: { annotations: { title?: string }[] }, rule: string) =>
  run.annotations.filter((a) => a.title === rule);

describe("GitHub App: a Python extension's project files", () => {
  it("passes an extension whose module and activation schema are there, listing each commit's tree once", async () => {
    const { gh, run } = await review(
      { [SCHEMA]: ACTIVATION, [MODULE]: example("example_queue/__main__.py") },
      { fails: false },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    for (const sha of [HEAD_SHA, BASE_SHA])
      expect(gh.count("GET", new RegExp(`^/repos/${R}/git/trees/${sha}$`))).toBe(1);
  });

  it("fails an extension whose module folder the change renames, at the module's line (a new finding)", async () => {
    const { gh, run } = await review({
      [SCHEMA]: ACTIVATION,
      "queues/example_queues/__main__.py": "",
    });
    // Three calls more than another extension's review (docs/performance.md): two trees, the activation schemas.
    expect(gh.mock.requests.filter((r) => !r.path.endsWith("/access_tokens")).length).toBe(9);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const [missing, ...more] = titled(run, "python-module-missing");
    expect(more).toEqual([]);
    expect(missing).toMatchObject({
      path: YAML,
      start_line: lineOf(AFTER, "    module: example_queue"),
      annotation_level: "failure",
    });
  });

  it("fails an extension whose module folder the change renames when its `python` key is written with a YAML escape", async () => {
    // `"pyth\x6fn"` is `python` to YAML (and to Dynatrace), though the text never spells the word.
    const escaped = edit(AFTER, "python:", '"pyth\\x6fn":');
    expect(escaped).not.toMatch(/dashboards|alerts|python/);
    const gh = new FakeGitHub([...REVIEW_ROUTES, "tree"]);
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: YAML, status: "modified", patch: rewritePatch(BEFORE, escaped) }];
    gh.file(R, HEAD_SHA, YAML, escaped).file(R, HEAD_SHA, SCHEMA, ACTIVATION);
    gh.file(R, HEAD_SHA, "queues/example_queues/__main__.py", "");
    gh.file(R, BASE_SHA, YAML, BEFORE).file(R, BASE_SHA, SCHEMA, ACTIVATION);
    gh.file(R, BASE_SHA, MODULE, example("example_queue/__main__.py"));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run!, "python-module-missing")).toEqual([
      expect.objectContaining({ path: YAML, start_line: lineOf(escaped, "    module: example_queue") }),
    ]);
    // Its activation schema read as any Python extension's: nothing said of it.
    expect(titled(run!, "activation-schema-invalid")).toEqual([]);
  });

  it("passes an extension whose module folder is a symbolic link (GitHub's tree does not say to what)", async () => {
    const { run } = await review(
      { [SCHEMA]: ACTIVATION, "queues/example_queue": "../shared/example_queue" },
      { fails: false, configure: (gh) => gh.symlinks.add("queues/example_queue") },
    );
    expect(titled(run, "python-module-missing")).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("passes an extension whose module folder is a submodule (GitHub's tree does not say what it holds)", async () => {
    const { run } = await review(
      { [SCHEMA]: ACTIVATION, "queues/example_queue": "" },
      { fails: false, configure: (gh) => gh.submodules.add("queues/example_queue") },
    );
    expect(titled(run, "python-module-missing")).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("fails an extension whose activation schema the change removes (a new finding)", async () => {
    const { run } = await review({ [MODULE]: "" });
    expect(run.conclusion).toBe("failure");
    expect(titled(run, "activation-schema-invalid")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(AFTER, "      path: activationSchema.json"),
        annotation_level: "failure",
      }),
    ]);
  });

  it("fails an extension whose activation schema the change breaks (a new finding)", async () => {
    const { run } = await review({ [SCHEMA]: "{ not json", [MODULE]: "" });
    expect(run.conclusion).toBe("failure");
    expect(titled(run, "activation-schema-invalid")).toEqual([
      expect.objectContaining({
        path: YAML,
        annotation_level: "failure",
        message: expect.stringContaining("is not valid JSON"),
      }),
    ]);
  });

  it("fails an extension whose activation schema is over max_file_size, as `check` does (known by its size alone)", async () => {
    const { gh, run } = await review(
      { [MODULE]: "" },
      {
        configure: (gh) => {
          gh.file(R, HEAD_SHA, SCHEMA, Buffer.alloc(3 * 1024 * 1024, 0x20));
          gh.file(R, "HEAD", ".github/plugin-review.yml", "max_file_size: 2097152\n");
        },
      },
    );
    expect(run.conclusion).toBe("failure");
    expect(titled(run, "activation-schema-invalid")).toEqual([
      expect.objectContaining({
        path: YAML,
        start_line: lineOf(AFTER, "      path: activationSchema.json"),
        annotation_level: "failure",
        message: "`activationSchema.json` is larger than max_file_size (2097152 bytes)",
      }),
    ]);
    expect(gh.count("GET", /\/git\/blobs\//)).toBe(0);
  });

  it("fails an extension whose module folder the change renames when GitHub cuts the commit's tree short", async () => {
    const { run } = await review(
      { [SCHEMA]: ACTIVATION, "queues/example_queues/__main__.py": "" },
      { configure: (gh) => gh.cutTrees.add(HEAD_SHA) },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(titled(run, "python-module-missing")).toEqual([
      expect.objectContaining({ path: YAML, start_line: lineOf(AFTER, "    module: example_queue") }),
    ]);
    expect(run.output!.summary).not.toContain("were not checked");
  });

  it("says so, and judges no module, when GitHub cuts the project folder's own tree short at the base too", async () => {
    const { run } = await review(
      { [SCHEMA]: ACTIVATION },
      {
        fails: false,
        configure: (gh) => {
          gh.cutTrees.add(HEAD_SHA).add(BASE_SHA);
          gh.cutFolders.add("queues");
        },
      },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(titled(run, "python-module-missing")).toEqual([]);
    expect(run.output!.summary).toContain(
      "its project folder has more than 5,000 files (or GitHub cut its listing short), so the Python module, the activation schema and the files it lists were not checked",
    );
  });

  it("fails, naming the extension, when GitHub cuts the project folder's own tree short at head and not at the base", async () => {
    // No finding to post a review for: the check fails with no review.
    const { run } = await review(
      { [SCHEMA]: ACTIVATION },
      {
        fails: false,
        configure: (gh) => {
          gh.cutTrees.add(HEAD_SHA);
          gh.cutFolders.add("queues");
        },
      },
    );
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run.output!.title).toBe(
      "1 changed descriptor not reviewed · 0 errors, 0 warnings, 0 notices in 1 descriptor",
    );
    expect(run.output!.summary).toContain(
      `had not at the base commit: this change made them too large to list`,
    );
    expect(run.output!.summary).toContain(`- \`${YAML}\``);
  });
});

/**
 * A project folder of more than 5,000 files is not listed (a partial list would call a module missing): a pull
 * request that takes it past that bound is not reviewed whole and fails, so that it cannot silence the rules
 * that read the project (the security sweep's attack: delete the module, add 5,001 files). One that was past the
 * bound at the base already passes with a note, as before.
 */
describe("GitHub App: a Python extension's project too large to list", () => {
  const JUNK = 5_001;
  const junk = (i: number) => `queues/data/f${i}.txt`;

  /** A version bump, the module deleted at head or not; `atBase`: the 5,001 files are at the base already. */
  async function grown({ deleted, atBase }: { deleted: boolean; atBase: boolean }) {
    // No finding to post a review for (the failure is the check's): no review. More files than GitHub lists of a
    // pull request (3,000): the change is read from the commits' trees.
    const gh = new FakeGitHub([
      ...REVIEW_ROUTES.filter((r) => r !== "createReview"),
      "tree",
      ...(atBase ? [] : (["compare"] as const)),
    ]);
    const { probot } = makeProbot();
    gh.prFiles = [{ filename: YAML, status: "modified", patch: rewritePatch(BEFORE, AFTER) }];
    if (deleted) gh.prFiles.push({ filename: MODULE, status: "removed" });
    gh.file(R, HEAD_SHA, YAML, AFTER).file(R, HEAD_SHA, SCHEMA, ACTIVATION);
    gh.file(R, BASE_SHA, YAML, BEFORE).file(R, BASE_SHA, SCHEMA, ACTIVATION);
    gh.file(R, BASE_SHA, MODULE, example("example_queue/__main__.py"));
    if (!deleted) gh.file(R, HEAD_SHA, MODULE, example("example_queue/__main__.py"));
    for (let i = 0; i < JUNK; i++) {
      gh.file(R, HEAD_SHA, junk(i), `${i}\n`);
      if (atBase) gh.file(R, BASE_SHA, junk(i), `${i}\n`);
      else gh.prFiles.push({ filename: junk(i), status: "added", patch: "@@ -0,0 +1 @@\n+x" });
    }
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    gh.assertClean();
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    return run!;
  }

  it("fails a pull request that deletes the module and adds 5,001 files to the project, naming the extension", async () => {
    const run = await grown({ deleted: true, atBase: false });
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run.output!.title).toMatch(/^1 changed descriptor not reviewed/);
    expect(run.output!.summary).toContain(
      "**Failing**: 1 changed descriptor was not reviewed, and a commit that was not reviewed whole cannot pass",
    );
    expect(run.output!.summary).toContain(
      "The project folders of these extensions have more than 5,000 files at the head commit (or GitHub cut their listing short), and had not at the base commit: this change made them too large to list, so the files of their projects (a Python module, the activation schema, the files `alerts` and `dashboards` list) were not checked.",
    );
    expect(run.output!.summary).toContain(`- \`${YAML}\``);
    // Said once, as the failure: not as a note too.
    expect(run.output!.summary).not.toContain("its project folder has more than");
  }, 60_000);

  it("passes, with its note, a version bump of an extension whose project had more than 5,000 files at the base already", async () => {
    const run = await grown({ deleted: false, atBase: true });
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run.output!.summary).toContain(
      `\`${YAML}\`: its project folder has more than 5,000 files (or GitHub cut its listing short), so the Python module, the activation schema and the files it lists were not checked.`,
    );
    expect(run.output!.summary).not.toContain("not reviewed");
  }, 60_000);
});
