/**
 * The GitHub Action: action/run.mjs as a child process in a simulated workflow (a git repository as the
 * workspace, GitHub's variables, temp files for the step summary and the outputs), and action.yml's wiring.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT, text, validHost } from "./helpers.js";
import { ensureBuilt } from "./cli/run.js";

const SCRIPT = join(ROOT, "action", "run.mjs");

let dir: string;
let repo: string;
let counter = 0;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, stdio: "pipe" }).toString();
}

function write(path: string, content: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-action-"));
  // main: two valid descriptors. feature: `a` changed without a version bump, `fresh` added (valid).
  repo = join(dir, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.email", "t@example.com");
  git(repo, "config", "user.name", "t");
  git(repo, "config", "commit.gpgsign", "false");
  const host = validHost();
  write(join(repo, "a", "plugin.json"), text(host));
  write(join(repo, "untouched", "plugin.json"), text({ ...host, name: "custom.python.untouched" }));
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "base");
  git(repo, "checkout", "-q", "-b", "feature");
  write(join(repo, "a", "plugin.json"), text({ ...host, ui: {} }));
  write(join(repo, "fresh", "plugin.json"), text({ ...host, name: "custom.python.fresh" }));
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "change a, add fresh");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ActionRun {
  status: number | null;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
}

/** Runs the entry script as the Review step would, with only the variables given (none inherited). */
function action(vars: Record<string, string>, workspace = repo): ActionRun {
  const n = ++counter;
  const summaryFile = join(dir, `summary-${n}.md`);
  const outputFile = join(dir, `output-${n}.txt`);
  writeFileSync(summaryFile, "");
  writeFileSync(outputFile, "");
  // A test run inside GitHub Actions must not leak the real workflow's variables into the simulated one.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(GITHUB_|INPUT_|RUNNER_)/.test(k)),
  );
  const r = spawnSync(process.execPath, [SCRIPT], {
    cwd: dir, // the script must work in GITHUB_WORKSPACE, not in its own working directory
    encoding: "utf8",
    timeout: 60_000,
    env: {
      ...inherited,
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      ...vars,
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    summary: readFileSync(summaryFile, "utf8"),
    outputs,
  };
}

const PR = { GITHUB_EVENT_NAME: "pull_request", GITHUB_BASE_REF: "main" };

describe("action/run.mjs", () => {
  it("on a pull request: compares with the base, annotates, summarises, sets outputs, exits 1", () => {
    const r = action({ ...PR, INPUT_PATHS: ".", INPUT_CONFIG: "", INPUT_SARIF: "false" });
    expect(r.stdout).toMatch(
      /^::error file=a\/plugin\.json,line=\d+,endLine=\d+,col=\d+,endColumn=\d+,title=version-not-bumped::.+\[version-not-bumped\]$/m,
    );
    // Only the changed descriptors; the added one is valid, the untouched one is left out.
    expect(r.stdout).not.toMatch(/file=untouched/);
    expect(r.stdout).toMatch(/^plugin-review: 2 descriptor\(s\) checked, 1 error$/m);
    expect(r.summary).toContain("### plugin-review");
    expect(r.summary).toContain("Compared with `main`");
    expect(r.summary).toMatch(/\| Severity \| Findings \|\n\| --- \| ---: \|\n\| Errors \| 1 \|/);
    expect(r.summary).toContain("| Warnings | 0 |");
    expect(r.summary).toContain("| **Total** | **1** |");
    expect(r.summary).toContain("1 new, 0 existing");
    expect(r.summary).toContain("2 descriptor(s) checked");
    expect(r.summary).toContain("1 descriptor(s) unchanged since main were not checked");
    expect(r.outputs).toEqual({ findings: "1", errors: "1" });
    expect(existsSync(join(repo, "plugin-review.sarif"))).toBe(false);
    expect(r.status).toBe(1);
  });

  it("runs the CLI once for annotations, counts and SARIF, counting from its JSON and SARIF reports", () => {
    // Every Node process started below records its script and arguments (NODE_OPTIONS is inherited).
    const log = join(dir, "node-runs.log");
    const preload = join(dir, "record-runs.cjs");
    writeFileSync(
      preload,
      `require("node:fs").appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(1)) + "\\n");`,
    );
    writeFileSync(log, "");
    const r = action({ ...PR, INPUT_SARIF: "true", NODE_OPTIONS: `--require ${preload}` });
    expect(r.status).toBe(1);
    const runs = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string[])
      .filter((argv) => argv[0]?.endsWith("plugin-review.js"));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toEqual(
      expect.arrayContaining(["check", "--format", "github", "--output", "--base-ref", "main"]),
    );
    expect(runs[0]!.filter((a) => /^(json|sarif)=/.test(a))).toHaveLength(2);
    expect(r.outputs).toEqual({ "sarif-file": "plugin-review.sarif", findings: "1", errors: "1" });
    expect(r.summary).toContain("2 descriptor(s) checked");
    expect(r.summary).toContain("| Errors | 1 |");
  });

  it("exits 0 on findings when fail-on-findings is false (either spelling of the variable)", () => {
    const r = action({ ...PR, INPUT_FAIL_ON_FINDINGS: "false" });
    expect(r.stdout).toMatch(/title=version-not-bumped::/);
    expect(r.outputs).toEqual({ findings: "1", errors: "1" });
    expect(r.summary).toMatch(/not failing the job/);
    expect(r.status).toBe(0);
    // The hyphenated name is what a JavaScript action would get from the runner.
    expect(action({ ...PR, "INPUT_FAIL-ON-FINDINGS": "FALSE" }).status).toBe(0);
    expect(action({ ...PR, INPUT_FAIL_ON_FINDINGS: "true" }).status).toBe(1);
  });

  it("writes a SARIF 2.1.0 file to the workspace with sarif: true", () => {
    const r = action({ ...PR, INPUT_SARIF: "true" });
    expect(r.status).toBe(1);
    const file = join(repo, "plugin-review.sarif");
    expect(r.outputs).toEqual({ "sarif-file": "plugin-review.sarif", findings: "1", errors: "1" });
    const sarif = JSON.parse(readFileSync(file, "utf8")) as {
      version: string;
      runs: { results: { ruleId: string }[] }[];
    };
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0]!.results.map((x) => x.ruleId)).toEqual(["version-not-bumped"]);
    // A later run without sarif removes the stale file rather than leave it to be uploaded.
    action({ ...PR, INPUT_SARIF: "false" });
    expect(existsSync(file)).toBe(false);
  });

  it("outside a pull request reviews every descriptor without change rules", () => {
    const r = action({ GITHUB_EVENT_NAME: "push", GITHUB_BASE_REF: "" });
    expect(r.stdout).not.toMatch(/version-not-bumped/);
    expect(r.stdout).toMatch(/^plugin-review: 3 descriptor\(s\) checked, no findings$/m);
    expect(r.summary).toContain("No base to compare with");
    expect(r.summary).toContain("| **Total** | **0** |");
    expect(r.outputs).toEqual({ findings: "0", errors: "0" });
    expect(r.status).toBe(0);
  });

  it("uses the base-ref input on any event, and restricts the review to the given paths", () => {
    const r = action({ GITHUB_EVENT_NAME: "push", INPUT_BASE_REF: "main", INPUT_PATHS: "fresh\nuntouched" });
    expect(r.stdout).toMatch(/^plugin-review: 1 descriptor\(s\) checked, no findings$/m);
    expect(r.status).toBe(0);
    const both = action({ GITHUB_EVENT_NAME: "push", INPUT_BASE_REF: "main", INPUT_PATHS: "a  fresh" });
    expect(both.stdout).toMatch(/title=version-not-bumped::/);
    expect(both.stdout).toMatch(/^plugin-review: 2 descriptor\(s\) checked, 1 error$/m);
  });

  it("fetches origin/<base> when the checkout does not have it (shallow, single branch)", () => {
    const origin = join(dir, "origin.git");
    execFileSync("git", ["clone", "-q", "--bare", repo, origin]);
    const shallow = join(dir, "shallow");
    execFileSync("git", [
      "clone",
      "-q",
      "--depth=1",
      "--single-branch",
      "--branch",
      "feature",
      `file://${origin}`,
      shallow,
    ]);
    expect(
      spawnSync("git", ["rev-parse", "--verify", "--quiet", "origin/main"], { cwd: shallow }).status,
    ).toBe(1);
    const r = action(PR, shallow);
    expect(r.stdout).toMatch(/not found locally; fetching it from origin/);
    expect(r.stdout).toMatch(/^::error file=a\/plugin\.json,.*title=version-not-bumped::/m);
    expect(r.summary).toContain("Compared with `origin/main`");
    expect(r.status).toBe(1);
  });

  it("exits 2, whatever fail-on-findings says, when the review cannot run", () => {
    const noBase = action({ ...PR, GITHUB_BASE_REF: "no-such-branch", INPUT_FAIL_ON_FINDINGS: "false" });
    expect(noBase.status).toBe(2);
    expect(noBase.stdout).toMatch(
      /^::error title=plugin-review::cannot find the base 'origin\/no-such-branch'/m,
    );
    expect(noBase.stdout).toMatch(/fetch-depth: 0/);
    expect(noBase.summary).toMatch(/could not run/);
    expect(noBase.outputs).toEqual({});

    const badConfig = action({ ...PR, INPUT_CONFIG: "missing.yml", INPUT_FAIL_ON_FINDINGS: "false" });
    expect(badConfig.status).toBe(2);
    expect(badConfig.stdout).toMatch(
      /^::error title=plugin-review::cannot read configuration 'missing.yml'/m,
    );

    const badInput = action({ ...PR, INPUT_SARIF: "yes" });
    expect(badInput.status).toBe(2);
    expect(badInput.stdout).toMatch(/input 'sarif' must be true or false, not 'yes'/);

    const notGit = mkdtempSync(join(tmpdir(), "plugin-review-action-nogit-"));
    try {
      const r = action(PR, notGit);
      expect(r.status).toBe(2);
      expect(r.stdout).toMatch(/needs the repository checked out \(actions\/checkout\)/);
    } finally {
      rmSync(notGit, { recursive: true, force: true });
    }
  });
});

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface ActionYml {
  inputs: Record<string, { default?: string; description: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

describe("action.yml", () => {
  const yml = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionYml;
  const steps = yml.runs.steps;
  const review = steps.find((s) => s.run?.includes("action/run.mjs"));
  const script = readFileSync(SCRIPT, "utf8");

  it("is a composite action with the documented inputs and defaults", () => {
    expect(yml.runs.using).toBe("composite");
    expect(Object.fromEntries(Object.entries(yml.inputs).map(([k, v]) => [k, v.default]))).toEqual({
      paths: ".",
      config: "",
      "base-ref": "",
      sarif: "false",
      "node-version": "22",
      "fail-on-findings": "true",
    });
    for (const s of steps) if (s.run !== undefined) expect(s.shell).toBe("bash"); // composite steps need one
  });

  it("passes every input to the step that uses it, and the script reads each variable", () => {
    expect(review).toBeDefined();
    expect(review!.id).toBe("review");
    const setupNode = steps.find((s) => s.uses?.startsWith("actions/setup-node@"));
    expect(setupNode?.with?.["node-version"]).toBe("${{ inputs.node-version }}");
    for (const name of Object.keys(yml.inputs)) {
      if (name === "node-version") continue; // consumed by setup-node above, not by the script
      const variable = `INPUT_${name.toUpperCase().replace(/-/g, "_")}`;
      expect(review!.env?.[variable], variable).toBe(`\${{ inputs.${name} }}`);
      expect(script, variable).toMatch(new RegExp(`\\b(input|bool)\\("${name}"`));
    }
    // Nothing the script receives is left undeclared.
    expect(Object.keys(review!.env ?? {}).length).toBe(Object.keys(yml.inputs).length - 1);
  });

  it("installs nothing (the CLI is the committed bundle), and uploads SARIF with always()", () => {
    expect(steps.some((s) => /\bnpm (ci|install)\b/.test(s.run ?? ""))).toBe(false);
    expect(existsSync(new URL("../dist-cli/plugin-review.mjs", import.meta.url))).toBe(true);
    const upload = steps.find((s) => s.uses === "github/codeql-action/upload-sarif@v3");
    expect(upload?.if).toMatch(/^always\(\) && inputs\.sarif == 'true'/);
    expect(upload?.with?.sarif_file).toContain("steps.review.outputs.sarif-file");
    for (const name of ["findings", "errors"]) {
      expect(yml.outputs[name]?.value).toBe(`\${{ steps.review.outputs.${name} }}`);
    }
  });
});
