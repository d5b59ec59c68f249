/**
 * The repository's GitHub Actions files, read by GitHub's own parser (`@actions/workflow-parser`, the parser of
 * GitHub's Actions language services): every workflow and `action.yml` must load without an error, as the runner
 * would load them. Then what they promise: CI runs the README's test command on every Node.js line `engines`
 * admits and the Action on `examples/`; the release publishes with provenance through trusted publishing (no
 * stored token), releases the tarball and the .vsix, and moves the major tag, its keys held only by jobs that
 * run no dependency's code; every action is pinned to a commit; Dependabot watches every lockfile and action.
 */
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { convertActionTemplate, parseAction } from "@actions/workflow-parser/actions/index";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "./helpers.js";

const WORKFLOWS = join(ROOT, ".github", "workflows");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const files = readdirSync(WORKFLOWS)
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => `.github/workflows/${f}`);

/** GitHub's parser: the errors it reports for a workflow, loaded and converted as the runner converts it. */
async function workflowErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (parsed.value) {
    const template = await convertWorkflowTemplate(parsed.context, parsed.value);
    errors.push(...(template.errors ?? []).map((e) => e.Message));
  }
  return [...new Set(errors)];
}

function actionErrors(content: string): string[] {
  const parsed = parseAction({ name: "action.yml", content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (parsed.value && errors.length === 0) convertActionTemplate(parsed.context, parsed.value);
  return [...errors, ...parsed.context.errors.getErrors().map((e) => e.message)];
}

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  if?: string;
  "working-directory"?: string;
}
interface Job {
  permissions?: Record<string, string>;
  needs?: string[];
  strategy?: { matrix: Record<string, unknown[]> };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}
const workflow = (file: string) => parse(read(`.github/workflows/${file}`)) as Workflow;
const runs = (job: Job) => job.steps.flatMap((s) => (s.run ? [s.run] : []));

/**
 * The actions of a workflow that are not pinned: each `uses:` GitHub's parser reads, other than a local `./`
 * action, unless it names a full 40-hex commit and its line says which version that is (`# v1.2.3`).
 */
async function unpinned(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
  const uses = template.jobs.flatMap((job) =>
    "steps" in job ? job.steps.flatMap((step) => ("uses" in step ? [String(step.uses)] : [])) : [],
  );
  expect(uses.length).toBeGreaterThan(0);
  const lines = content.split("\n").map((l) => l.trim().replace(/^- /, ""));
  return uses.filter(
    (u) =>
      !u.startsWith("./") &&
      !(
        /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(u) &&
        lines.some((l) => /^uses: (\S+) # v\d+\.\d+\.\d+$/.exec(l)?.[1] === u)
      ),
  );
}

describe("GitHub's parser", () => {
  it("finds the workflows", () => {
    expect(files).toEqual(
      expect.arrayContaining([".github/workflows/ci.yml", ".github/workflows/release.yml"]),
    );
  });

  it.each(files)("loads %s without an error", async (file) => {
    expect(await workflowErrors(file, read(file))).toEqual([]);
  });

  it("loads action.yml without an error (runs.using node24)", () => {
    expect(actionErrors(read("action.yml"))).toEqual([]);
    expect((parse(read("action.yml")) as { runs: { using: string } }).runs.using).toBe("node24");
  });

  it("reports the mistakes it is there to catch", async () => {
    const ci = read(".github/workflows/ci.yml");
    expect(await workflowErrors("typo.yml", ci.replace("runs-on:", "run-on:"))).not.toEqual([]);
    expect(
      await workflowErrors("expr.yml", ci.replace("${{ matrix.node }}", "${{ matrix.node ")),
    ).not.toEqual([]);
    const action = read("action.yml");
    expect(actionErrors(action.replace("using: node24", "using: node7"))).not.toEqual([]);
    expect(actionErrors(action.replace(/^inputs:/m, "inptus:"))).not.toEqual([]);
  });
});

describe("CI", () => {
  const ci = workflow("ci.yml");
  const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;

  it("runs on pushes to main, pull requests and merge groups, with a read-only token by default", () => {
    expect(Object.keys(ci.on).sort()).toEqual(["merge_group", "pull_request", "push"]);
    expect(ci.permissions).toEqual({ contents: "read" });
  });

  it("runs the README's test command on Node.js 22, 24 and 26, the lines `engines` admits", () => {
    expect(engines).toBe(">=22");
    const test = ci.jobs.test!;
    expect(test.strategy!.matrix.node).toEqual([22, 24, 26]);
    const readme = /```sh\n(npm ci && npm test)\s/.exec(read("README.md"))![1]!;
    expect(runs(test)).toContain(readme);
    expect(test.steps.find((s) => s.uses?.startsWith("actions/setup-node@"))!.with!["node-version"]).toBe(
      "${{ matrix.node }}",
    );
  });

  it("checks the committed bundle, types and lint as .ci/run does", () => {
    const all = runs(ci.jobs.checks!).join("\n");
    for (const command of ["npm run bundle", "npm run typecheck", "npm run lint"])
      expect(all).toContain(command);
    expect(all).toContain("git status --porcelain --untracked-files=all -- dist-cli");
  });

  it("dry-runs the release: the tarball packed and checked, the .vsix built from the extension's own lockfile", () => {
    const job = ci.jobs["release-dry-run"]!;
    const release = workflow("release.yml").jobs;
    const pack = /npm pack --ignore-scripts\n\s*node scripts\/check-package\.mjs plugin-review-\*\.tgz/;
    expect(runs(job).join("\n")).toMatch(pack);
    const vsix = job.steps.find((s) => s["working-directory"] === "editors/vscode")!;
    expect(vsix.run).toMatch(/^npm ci && .*npm run package$/);
    // What the release runs before publishing, CI runs on every change.
    expect(runs(release.pack!).join("\n")).toMatch(pack);
    expect(release.vsix!.steps.find((s) => s["working-directory"] === "editors/vscode")!.run).toBe(
      "npm ci && npm run package",
    );
    // No npm ci at the root: the extension builds from its own folder alone.
    expect(job.steps.filter((s) => !s["working-directory"] && /^npm ci\b/.test(s.run ?? ""))).toEqual([]);
  });

  it("runs the project's own Action on examples/ and uploads its SARIF", () => {
    const job = ci.jobs.action!;
    expect(job.permissions).toEqual({ contents: "read", "security-events": "write" });
    const action = job.steps.find((s) => s.uses === "./")!;
    expect(action.with).toMatchObject({ paths: "examples", sarif: "true" });
    const upload = job.steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"))!;
    expect(upload.with!.sarif_file).toBe("${{ steps.review.outputs.sarif-file }}");
    expect(upload.if).toMatch(/always\(\)/);
  });
});

describe("the release", () => {
  const release = workflow("release.yml");
  const jobs = release.jobs;
  const all = Object.values(jobs).flatMap(runs).join("\n");

  it("runs on a version tag, not on the major tag it moves", () => {
    expect(release.on).toEqual({ push: { tags: ["v*.*.*"] } });
  });

  it("publishes with provenance through trusted publishing: an OIDC token, no stored npm token", () => {
    const publish = jobs.publish!;
    expect(publish.permissions).toEqual({ "id-token": "write" });
    expect(runs(publish).join("\n")).toMatch(
      /npm publish plugin-review-\*\.tgz --provenance --access public/,
    );
    const text = read(".github/workflows/release.yml");
    expect(text).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
    expect(publish.steps.find((s) => s.uses?.startsWith("actions/setup-node@"))!.with).toMatchObject({
      "registry-url": "https://registry.npmjs.org",
    });
    // The first version is published by hand (npm trusts a publisher only for a package that exists):
    // a version on the registry is not published again.
    expect(all).toContain('if [ -n "$(npm view "plugin-review@$version" version 2> /dev/null)" ]; then');
    // Trusted publishing needs npm 11.5.1 or later: one exact version, without its scripts.
    expect(runs(publish)).toContainEqual(
      expect.stringMatching(/^npm install --global --ignore-scripts npm@11\.\d+\.\d+$/),
    );
  });

  it("publishes only after the tests, the packed tarball it downloads by id, and the .vsix", () => {
    expect(runs(jobs.test!)).toContain("npm ci && npm test");
    // The tarball holds the committed bundle: the tests' own bundle must be the same.
    expect(runs(jobs.test!).join("\n")).toContain("git status --porcelain --untracked-files=all -- dist-cli");
    expect(jobs.publish!.needs).toEqual(["test", "pack", "vsix"]);
    const download = jobs.publish!.steps.find((s) => s.uses?.startsWith("actions/download-artifact@"))!;
    expect(download.with!["artifact-ids"]).toBe("${{ needs.pack.outputs.artifact-id }}");
    // The tarball is packed where nothing is installed, so no dependency's code runs where it is made.
    expect(runs(jobs.pack!).join("\n")).not.toMatch(/npm (ci|install|test|run)\b|npx/);
    expect(jobs.pack!.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!.with!.path).toMatch(
      /^plugin-review-\*\.tgz\nrelease-notes\.md\n$/,
    );
  });

  it("releases the tarball and the .vsix with the CHANGELOG's notes, after publishing", () => {
    const job = jobs.release!;
    expect(job.needs).toEqual(["pack", "vsix", "publish"]);
    expect(job.permissions).toEqual({ contents: "write" });
    expect(runs(job).join("\n")).toMatch(
      /gh release create "\$GITHUB_REF_NAME".* \\\n.*--notes-file release-notes\.md plugin-review-\*\.tgz plugin-review\.vsix/,
    );
    expect(all).toContain('node scripts/release-notes.mjs "$GITHUB_REF_NAME" > release-notes.md');
  });

  it("holds its keys only in jobs that run no dependency's code and no project code: they check nothing out", () => {
    // The workflow's default token may do nothing; each job asks for what it needs.
    expect(release.permissions).toEqual({});
    const privileged = Object.entries(jobs).filter(([, job]) =>
      Object.values(job.permissions ?? {}).includes("write"),
    );
    expect(privileged.map(([id]) => id).sort()).toEqual(["publish", "release"]);
    for (const [, job] of privileged) {
      expect(job.steps.filter((s) => s.uses?.startsWith("actions/checkout@"))).toEqual([]);
      for (const run of runs(job)) {
        expect(run).not.toMatch(/npm (ci|test|run|pack|exec)\b|npx|\bnode |\bgit /);
        expect(run.match(/npm install[^\n]*/g) ?? []).toEqual(
          run.includes("npm install") ? [expect.stringMatching(/--ignore-scripts npm@\d+\.\d+\.\d+$/)] : [],
        );
      }
    }
  });

  it("moves the Action's major tag (v0 for 0.x) to the release, through the API", () => {
    const move = runs(jobs.release!).join("\n");
    expect(move).toContain('major="${GITHUB_REF_NAME%%.*}"');
    expect(move).toContain(
      'gh api --method PATCH "repos/$GITHUB_REPOSITORY/git/refs/tags/$major" -f sha="$GITHUB_SHA" -F force=true',
    );
    expect(move).toContain(
      'gh api --method POST "repos/$GITHUB_REPOSITORY/git/refs" -f ref="refs/tags/$major" -f sha="$GITHUB_SHA"',
    );
    const major = spawnSync("bash", ["-c", 'GITHUB_REF_NAME=v0.1.0; echo "${GITHUB_REF_NAME%%.*}"'], {
      encoding: "utf8",
    });
    expect(major.stdout).toBe("v0\n");
  });

  it("has notes for the package's version in CHANGELOG.md", () => {
    const version = (JSON.parse(read("package.json")) as { version: string }).version;
    const notes = spawnSync(process.execPath, ["scripts/release-notes.mjs", `v${version}`], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(notes.status, notes.stderr).toBe(0);
    expect(notes.stdout).toMatch(/^### Added$/m);
    const none = spawnSync(process.execPath, ["scripts/release-notes.mjs", "v99.0.0"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/no section "## \[99\.0\.0\]"/);
  });
});

describe("every workflow", () => {
  /**
   * A job that installs dependencies, builds or tests: it runs code from the registry or the repository. (The
   * publish job's one exact npm, installed without scripts, is the publisher itself.)
   */
  const RUNS_DEPENDENCIES =
    /\bnpm (ci|test|run|pack|exec|install(?! --global --ignore-scripts npm@\d+\.\d+\.\d+$))\b|\bnpx\b/m;

  it.each(files)(
    "%s: a job that installs dependencies, builds or tests holds no OIDC token and no write permission",
    (file) => {
      const wf = workflow(file.replace(".github/workflows/", ""));
      const building = Object.entries(wf.jobs).filter(([, job]) =>
        runs(job).some((r) => RUNS_DEPENDENCIES.test(r)),
      );
      expect(building.length).toBeGreaterThan(0);
      for (const [id, job] of building) {
        // Without `permissions`, GitHub grants the repository's default token, which may write.
        const permissions = job.permissions ?? wf.permissions;
        expect(permissions, `${file}: ${id}`).toBeDefined();
        expect(permissions, `${file}: ${id}`).not.toHaveProperty("id-token");
        expect(
          Object.values(permissions!).filter((p) => p !== "read" && p !== "none"),
          `${file}: ${id}`,
        ).toEqual([]);
      }
    },
  );

  it("counts the npm install of a dependency as installing, and only the publisher's exact npm as not", () => {
    expect(RUNS_DEPENDENCIES.test("npm install --global --ignore-scripts npm@11.21.2")).toBe(false);
    expect(RUNS_DEPENDENCIES.test("npm install --global npm@^11.5.1")).toBe(true);
    expect(RUNS_DEPENDENCIES.test("npm install --global --ignore-scripts npm@11.21.2 left-pad")).toBe(true);
    expect(RUNS_DEPENDENCIES.test("npm ci && npm test")).toBe(true);
  });

  it.each(files)(
    "%s: every action is pinned to a full commit sha, with the version it is as a comment",
    async (file) => {
      expect(await unpinned(file, read(file))).toEqual([]);
    },
  );

  it("a tag, a short sha or a pin without its version is refused", async () => {
    const ci = read(".github/workflows/ci.yml");
    const checkout = /actions\/checkout@[0-9a-f]{40} # v[\d.]+/g;
    expect(await unpinned("tag.yml", ci.replace(checkout, "actions/checkout@v6"))).toContain(
      "actions/checkout@v6",
    );
    expect(await unpinned("short.yml", ci.replace(checkout, "actions/checkout@df4cb1c # v6.0.3"))).toContain(
      "actions/checkout@df4cb1c",
    );
    const bare = ci.replace(checkout, (m) => m.replace(/ # .*/, ""));
    expect(await unpinned("bare.yml", bare)).toContain(
      "actions/checkout@df4cb1c069e1874edd31b4311f1884172cec0e10",
    );
  });

  it("action.yml uses no other action (it runs the committed bundle)", () => {
    expect(read("action.yml")).not.toMatch(/^\s*-?\s*uses:/m);
  });
});

describe("scripts/check-package.mjs", () => {
  const check = (...args: string[]) =>
    spawnSync(process.execPath, ["scripts/check-package.mjs", ...args], { cwd: ROOT, encoding: "utf8" });

  it("refuses a tarball with a dependency, a stray file or the wrong version; passes the one npm packs", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugin-review-pack-check-"));
    try {
      const sh = (script: string) => {
        const r = spawnSync("bash", ["-c", script], { cwd: dir, encoding: "utf8" });
        expect(r.status, r.stderr).toBe(0);
      };
      // A tarball shaped like npm's: package/ and the package's top-level entries.
      sh(`mkdir -p package/bin package/dist-cli package/docs package/schemas
          for f in CHANGELOG.md LICENSE README.md bin/plugin-review.js dist-cli/plugin-review.mjs dist-cli/shared.mjs \\
                   dist-cli/lsp.mjs docs/cli.md schemas/plugin.schema.json; do echo x > package/$f; done
          # The bundle embeds the EF1 compatibility layer migrate writes: the script looks for it.
          echo 'EF1COMPAT_QUERY_INTERVAL class NotCarriedToEF2(PluginException)' > package/dist-cli/shared.mjs
          echo '{"name":"plugin-review","version":"0.1.0"}' > package/package.json
          tar -czf good.tgz package
          echo '{"name":"plugin-review","version":"0.1.0","dependencies":{"left-pad":"1"}}' > package/package.json
          tar -czf deps.tgz package
          echo '{"name":"plugin-review","version":"0.1.0"}' > package/package.json
          mkdir package/src && echo x > package/src/app.ts && tar -czf stray.tgz package`);
      expect(check(join(dir, "good.tgz"), "--tag", "v0.1.0").status).toBe(0);
      const deps = check(join(dir, "deps.tgz"));
      expect([deps.status, deps.stderr]).toEqual([
        1,
        expect.stringContaining("package.json has dependencies: left-pad"),
      ]);
      const stray = check(join(dir, "stray.tgz"));
      expect([stray.status, stray.stderr]).toEqual([
        1,
        expect.stringContaining("unexpected in the package: src"),
      ]);
      const tag = check(join(dir, "good.tgz"), "--tag", "v0.2.0");
      expect([tag.status, tag.stderr]).toEqual([
        1,
        expect.stringContaining("does not name the package's version"),
      ]);
      const compat = spawnSync(
        "bash",
        ["-c", "echo x > package/dist-cli/shared.mjs && tar -czf nocompat.tgz package"],
        {
          cwd: dir,
        },
      );
      expect(compat.status).toBe(0);
      const nocompat = check(join(dir, "nocompat.tgz"));
      expect([nocompat.status, nocompat.stderr]).toEqual([
        1,
        expect.stringContaining("does not carry the EF1 compatibility layer"),
      ]);
      expect(check().status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Dependabot", () => {
  it("updates the npm packages of every lockfile and the actions", () => {
    const config = parse(read(".github/dependabot.yml")) as {
      version: number;
      updates: { "package-ecosystem": string; directory: string; schedule: { interval: string } }[];
    };
    expect(config.version).toBe(2);
    const lockfiles = ["package-lock.json", "editors/vscode/package-lock.json"].filter((f) =>
      existsSync(join(ROOT, f)),
    );
    expect(
      config.updates
        .filter((u) => u["package-ecosystem"] === "npm")
        .map((u) => u.directory.replace(/^\//, "")),
    ).toEqual(lockfiles.map((f) => f.replace(/\/?package-lock\.json$/, "")));
    expect(config.updates.map((u) => u["package-ecosystem"])).toContain("github-actions");
    for (const u of config.updates) expect(u.schedule.interval).toMatch(/^(daily|weekly|monthly)$/);
  });
});
