/**
 * The repository's GitHub Actions files, read by GitHub's own parser (`@actions/workflow-parser`, the parser of
 * GitHub's Actions language services): every workflow and `action.yml` must load without an error, as the runner
 * would load them. Then what they promise: CI runs the README's test command on every Node.js line `engines`
 * admits and the Action on `examples/`; the release publishes with provenance through trusted publishing (no
 * stored token), releases the tarball and the .vsix, and moves the major tag; Dependabot watches every lockfile.
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
    const release = workflow("release.yml").jobs.release!;
    expect(runs(job).join("\n")).toMatch(
      /npm pack\n\s*node scripts\/check-package\.mjs plugin-review-\*\.tgz/,
    );
    const vsix = job.steps.find((s) => s["working-directory"] === "editors/vscode")!;
    expect(vsix.run).toMatch(/^npm ci && .*npm run package$/);
    // What the release runs before publishing, CI runs on every change.
    expect(runs(release).join("\n")).toContain("node scripts/check-package.mjs plugin-review-*.tgz");
    expect(release.steps.find((s) => s["working-directory"] === "editors/vscode")!.run).toBe(
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
  const job = release.jobs.release!;
  const all = runs(job).join("\n");

  it("runs on a version tag, not on the major tag it moves", () => {
    expect(release.on).toEqual({ push: { tags: ["v*.*.*"] } });
  });

  it("publishes with provenance through trusted publishing: an OIDC token, no stored npm token", () => {
    expect(job.permissions).toEqual({ contents: "write", "id-token": "write" });
    expect(all).toMatch(/npm publish plugin-review-\*\.tgz --provenance --access public/);
    const text = read(".github/workflows/release.yml");
    expect(text).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
    expect(job.steps.find((s) => s.uses?.startsWith("actions/setup-node@"))!.with).toMatchObject({
      "registry-url": "https://registry.npmjs.org",
    });
    // The first version is published by hand (npm trusts a publisher only for a package that exists):
    // a version on the registry is not published again.
    expect(all).toContain('if [ -n "$(npm view "plugin-review@$version" version 2> /dev/null)" ]; then');
    // Trusted publishing needs npm 11.5.1 or later.
    expect(all).toContain("npm install -g npm@^11.5.1");
  });

  it("tests before it publishes, and releases the tarball and the .vsix with the CHANGELOG's notes", () => {
    expect(all.indexOf("npm ci && npm test")).toBeLessThan(all.indexOf("npm publish"));
    expect(all).toMatch(
      /gh release create "\$GITHUB_REF_NAME".* \\\n.*plugin-review-\*\.tgz editors\/vscode\/plugin-review\.vsix/,
    );
    expect(all).toContain('node scripts/release-notes.mjs "$GITHUB_REF_NAME" > release-notes.md');
  });

  it("moves the Action's major tag (v0 for 0.x) to the release", () => {
    expect(all).toContain('major="${GITHUB_REF_NAME%%.*}"');
    expect(all).toContain('git push --force origin "refs/tags/$major"');
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
