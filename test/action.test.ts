/**
 * The GitHub Action: its entry point run as the runner runs a `node24` action (`node action/run.mjs` with an
 * INPUT_<NAME> variable for every input of action.yml, defaults included, GitHub's variables, and files for the step
 * summary, the outputs, the PATH and the environment), in a git repository as the workspace; action.yml's wiring;
 * and the documented workflow.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT, text, validHost } from "./helpers.js";
import { liveParts } from "./markdown.js";
import { ensureBuilt } from "./cli/run.js";
import { mergeGroupPayload } from "./github/harness.js";

interface ActionYml {
  inputs: Record<string, { default?: string; description: string; required?: boolean }>;
  outputs: Record<string, { description: string; value?: string }>;
  runs: { using: string; main: string; steps?: unknown };
}
const yml = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionYml;
const SCRIPT = join(ROOT, yml.runs.main);

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
  /** What the step left for later steps besides its outputs: GITHUB_PATH and GITHUB_ENV. */
  sideEffects: string;
}

/**
 * Runs the entry point as the runner does: `node <runs.main>`, INPUT_<NAME> for every input (the name upper-cased,
 * spaces as `_`, hyphens kept) holding the workflow's `with:` value or else action.yml's default, GitHub's
 * variables, and no variable of this process's own GitHub or runner environment.
 */
function action(
  github: Record<string, string>,
  inputs: Record<string, string> = {},
  workspace = repo,
  extra: Record<string, string> = {},
): ActionRun {
  const n = ++counter;
  const file = (name: string) => {
    const path = join(dir, `${name}-${n}`);
    writeFileSync(path, "");
    return path;
  };
  const [summaryFile, outputFile, pathFile, envFile] = ["summary", "output", "path", "env"].map(file);
  for (const name of Object.keys(inputs)) expect(yml.inputs, `undeclared input ${name}`).toHaveProperty(name);
  const inputVars = Object.fromEntries(
    Object.entries(yml.inputs).map(([name, spec]) => [
      `INPUT_${name.replace(/ /g, "_").toUpperCase()}`,
      inputs[name] ?? spec.default ?? "",
    ]),
  );
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
      ...inputVars,
      GITHUB_ACTIONS: "true",
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: summaryFile!,
      GITHUB_OUTPUT: outputFile!,
      GITHUB_PATH: pathFile!,
      GITHUB_ENV: envFile!,
      RUNNER_TEMP: dir,
      ...github,
      ...extra,
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile!, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    summary: readFileSync(summaryFile!, "utf8"),
    outputs,
    sideEffects: readFileSync(pathFile!, "utf8") + readFileSync(envFile!, "utf8"),
  };
}

const PR = { GITHUB_EVENT_NAME: "pull_request", GITHUB_BASE_REF: "main" };

describe("action/run.mjs", () => {
  it("on a pull request: compares with the base, annotates, summarises, sets outputs, exits 1", () => {
    const r = action(PR);
    expect(r.stdout).toMatch(
      /^::error file=a\/plugin\.json,line=\d+,endLine=\d+,col=\d+,endColumn=\d+,title=version-not-bumped::.+\[version-not-bumped\]$/m,
    );
    // Only the changed descriptors; the added one is valid, the untouched one is left out.
    expect(r.stdout).not.toMatch(/file=untouched/);
    expect(r.stdout).toMatch(/^plugin-review: 2 descriptors checked, 1 error$/m);
    expect(r.summary).toContain("### plugin-review");
    expect(r.summary).toContain("Compared with `main`");
    expect(r.summary).toMatch(/\| Severity \| Findings \|\n\| --- \| ---: \|\n\| Errors \| 1 \|/);
    expect(r.summary).toContain("| Warnings | 0 |");
    expect(r.summary).toContain("| **Total** | **1** |");
    expect(r.summary).toContain("1 new, 0 existing");
    expect(r.summary).toContain("2 descriptors checked");
    expect(r.summary).toContain("1 descriptor unchanged since main was not checked");
    expect(r.outputs).toEqual({ findings: "1", errors: "1" });
    expect(existsSync(join(repo, "plugin-review.sarif"))).toBe(false);
    expect(r.sideEffects).toBe(""); // no PATH or environment change for later steps
    expect(r.status).toBe(1);
  });

  it("on a pull request that changes only an extension.yaml: annotates its findings, exits 1", () => {
    const ef2 = join(dir, "ef2");
    mkdirSync(ef2);
    git(ef2, "init", "-q", "-b", "main");
    git(ef2, "config", "user.email", "t@example.com");
    git(ef2, "config", "user.name", "t");
    git(ef2, "config", "commit.gpgsign", "false");
    const example = readFileSync(join(ROOT, "examples/migration/extension/extension.yaml"), "utf8");
    write(join(ef2, "pool", "extension", "extension.yaml"), example);
    git(ef2, "add", ".");
    git(ef2, "commit", "-q", "-m", "base");
    git(ef2, "checkout", "-q", "-b", "feature");
    write(
      join(ef2, "pool", "extension", "extension.yaml"),
      example.replace('version: "1.7.0"', "version: 1.8"),
    );
    git(ef2, "commit", "-qam", "version as a number");
    const r = action(PR, {}, ef2);
    expect(r.stdout).toMatch(
      /^::error file=pool\/extension\/extension\.yaml,line=2,endLine=2,col=10,endColumn=13,title=ef2-version-format::/m,
    );
    expect(r.stdout).toMatch(/^plugin-review: 1 descriptor checked, 1 error$/m);
    expect(r.outputs).toEqual({ findings: "1", errors: "1" });
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
    const r = action(PR, { sarif: "true" }, repo, { NODE_OPTIONS: `--require ${preload}` });
    expect(r.status).toBe(1);
    const runs = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string[])
      .filter((argv) => argv[0]?.endsWith("plugin-review.mjs"));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toEqual(
      expect.arrayContaining(["check", "--format", "github", "--output", "--base-ref", "main"]),
    );
    expect(runs[0]!.filter((a) => /^(json|sarif)=/.test(a))).toHaveLength(2);
    expect(r.outputs).toEqual({ "sarif-file": "plugin-review.sarif", findings: "1", errors: "1" });
    expect(r.summary).toContain("2 descriptors checked");
    expect(r.summary).toContain("| Errors | 1 |");
  });

  it("in a merge queue: compares with the merge group's base commit, from the event's payload", () => {
    const base = git(repo, "rev-parse", "main").trim();
    const event = join(dir, "merge-group.json");
    const payload = mergeGroupPayload({ baseSha: base, headSha: git(repo, "rev-parse", "feature").trim() });
    writeFileSync(event, JSON.stringify(payload));
    const r = action({ GITHUB_EVENT_NAME: "merge_group", GITHUB_EVENT_PATH: event });
    expect(r.stdout).toMatch(/^::error file=a\/plugin\.json,.*title=version-not-bumped::/m);
    expect(r.stdout).not.toMatch(/file=untouched/);
    expect(r.summary).toContain(`Compared with \`${base}\``);
    expect(r.outputs).toEqual({ findings: "1", errors: "1" });
    expect(r.status).toBe(1);
    // A payload without the base commit is a failure of the step, not a review without change rules.
    writeFileSync(event, JSON.stringify({ ...payload, merge_group: {} }));
    const broken = action({ GITHUB_EVENT_NAME: "merge_group", GITHUB_EVENT_PATH: event });
    expect(broken.stdout).toMatch(
      /^::error title=plugin-review::a merge_group event without merge_group\.base_sha/m,
    );
    expect(broken.status).toBe(2);
  });

  it("exits 0 on findings when fail-on-findings is false (in any case)", () => {
    const r = action(PR, { "fail-on-findings": "false" });
    expect(r.stdout).toMatch(/title=version-not-bumped::/);
    expect(r.outputs).toEqual({ findings: "1", errors: "1" });
    expect(r.summary).toMatch(/not failing the job/);
    expect(r.status).toBe(0);
    expect(action(PR, { "fail-on-findings": "FALSE" }).status).toBe(0);
    expect(action(PR, { "fail-on-findings": "true" }).status).toBe(1);
  });

  it("writes a SARIF 2.1.0 file to the workspace with sarif: true", () => {
    const r = action(PR, { sarif: "true" });
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
    action(PR, { sarif: "false" });
    expect(existsSync(file)).toBe(false);
  });

  it("outside a pull request reviews every descriptor without change rules", () => {
    const r = action({ GITHUB_EVENT_NAME: "push", GITHUB_BASE_REF: "" });
    expect(r.stdout).not.toMatch(/version-not-bumped/);
    expect(r.stdout).toMatch(/^plugin-review: 3 descriptors checked, no findings$/m);
    expect(r.summary).toContain("No base to compare with");
    expect(r.summary).toContain("| **Total** | **0** |");
    expect(r.outputs).toEqual({ findings: "0", errors: "0" });
    expect(r.status).toBe(0);
  });

  it("uses the base-ref input on any event, and restricts the review to the given paths", () => {
    const r = action({ GITHUB_EVENT_NAME: "push" }, { "base-ref": "main", paths: "fresh\nuntouched" });
    expect(r.stdout).toMatch(/^plugin-review: 1 descriptor checked, no findings$/m);
    expect(r.status).toBe(0);
    const both = action({ GITHUB_EVENT_NAME: "push" }, { "base-ref": "main", paths: "a  fresh" });
    expect(both.stdout).toMatch(/title=version-not-bumped::/);
    expect(both.stdout).toMatch(/^plugin-review: 2 descriptors checked, 1 error$/m);
  });

  it("passes its token to the CLI, which reads the file a base configuration `_extends` from GitHub", () => {
    const workspace = mkdtempSync(join(dir, "extends-"));
    git(workspace, "init", "-q", "-b", "main");
    write(join(workspace, ".github", "plugin-review.yml"), "_extends: shared\n");
    write(join(workspace, "p", "plugin.json"), text(validHost()));
    git(workspace, "add", ".");
    git(workspace, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "base");
    // Nothing listens on port 9: the request is made, with the token, and its failure fails the step.
    const github = {
      GITHUB_EVENT_NAME: "push",
      GITHUB_REPOSITORY: "acme/plugins",
      GITHUB_API_URL: "http://127.0.0.1:9",
    };
    const r = action(github, { "base-ref": "main", token: "ghs_not_a_real_token" }, workspace);
    expect(r.stdout + r.stderr).toMatch(
      /cannot read the file named by `_extends: shared` in \.github\/plugin-review\.yml at main: no answer from GitHub/,
    );
    expect(r.status).not.toBe(0);
    // Without a token it says what to set, never judging with part of the configuration.
    const none = action(github, { "base-ref": "main", token: "" }, workspace);
    expect(none.stdout + none.stderr).toMatch(/set GITHUB_TOKEN to a token that can read it/);
    expect(none.status).not.toBe(0);
  });

  it("takes a path with spaces given alone on its line, as a block scalar (`paths: |`) passes it", () => {
    const workspace = mkdtempSync(join(dir, "spaces-"));
    mkdirSync(join(workspace, "my plugins"));
    writeFileSync(join(workspace, "my plugins", "plugin.json"), text(validHost()));
    // The runner passes `with:` values as written: a block scalar keeps its final line break.
    const r = action({ GITHUB_EVENT_NAME: "push" }, { paths: "my plugins/plugin.json\n" }, workspace);
    expect(r.stdout).toMatch(/^plugin-review: 1 descriptor checked, no findings$/m);
    expect(r.status).toBe(0);
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
    const r = action(PR, {}, shallow);
    expect(r.stdout).toMatch(/not found locally; fetching it from origin/);
    expect(r.stdout).toMatch(/^::error file=a\/plugin\.json,.*title=version-not-bumped::/m);
    expect(r.summary).toContain("Compared with `origin/main`");
    expect(r.status).toBe(1);
  });

  it("exits 2, whatever fail-on-findings says, when the review cannot run", () => {
    const noBase = action({ ...PR, GITHUB_BASE_REF: "no-such-branch" }, { "fail-on-findings": "false" });
    expect(noBase.status).toBe(2);
    expect(noBase.stdout).toMatch(
      /^::error title=plugin-review::cannot find the base 'origin\/no-such-branch'/m,
    );
    expect(noBase.stdout).toMatch(/fetch-depth: 0/);
    expect(noBase.summary).toMatch(/could not run/);
    expect(noBase.outputs).toEqual({});

    const badConfig = action(PR, { config: "missing.yml", "fail-on-findings": "false" });
    expect(badConfig.status).toBe(2);
    expect(badConfig.stdout).toMatch(
      /^::error title=plugin-review::cannot read configuration 'missing.yml'/m,
    );

    const badInput = action(PR, { sarif: "yes" });
    expect(badInput.status).toBe(2);
    expect(badInput.stdout).toMatch(/input 'sarif' must be true or false, not 'yes'/);

    const notGit = mkdtempSync(join(tmpdir(), "plugin-review-action-nogit-"));
    try {
      const r = action(PR, {}, notGit);
      expect(r.status).toBe(2);
      expect(r.stdout).toMatch(/needs the repository checked out \(actions\/checkout\)/);
    } finally {
      rmSync(notGit, { recursive: true, force: true });
    }
  });
});

describe("action/run.mjs: a pull request is judged by the base's configuration", () => {
  /**
   * main: the repository's configuration (`fail_on: error`) and a valid descriptor. The pull request adds a
   * descriptor with an error, a nested configuration beside it that would let anything pass, and loosens the
   * repository's file: the App, which reads the default branch's file, fails it.
   */
  function loosening(): string {
    const r = mkdtempSync(join(dir, "loosening-"));
    git(r, "init", "-q", "-b", "main");
    git(r, "config", "user.email", "t@example.com");
    git(r, "config", "user.name", "t");
    git(r, "config", "commit.gpgsign", "false");
    write(join(r, ".github", "plugin-review.yml"), "fail_on: error\n");
    write(join(r, "a", "plugin.json"), text(validHost()));
    git(r, "add", ".");
    git(r, "commit", "-q", "-m", "base");
    git(r, "checkout", "-q", "-b", "feature");
    const evil = validHost() as { name: string; metrics: unknown[] };
    evil.name = "custom.python.evil";
    evil.metrics.push({ timeseries: { key: "evil_metric", unit: "Secs", displayname: "Evil" } });
    write(join(r, "plugins", "evil", "plugin.json"), text(evil));
    write(
      join(r, "plugins", "evil", ".github", "plugin-review.yml"),
      'fail_on: never\nignore: [{paths: ["**"]}]\n',
    );
    write(join(r, ".github", "plugin-review.yml"), 'fail_on: never\nignore: [{paths: ["**"]}]\n');
    git(r, "add", ".");
    git(r, "commit", "-q", "-m", "add evil, loosen the configuration");
    return r;
  }

  it("a nested configuration and a loosened one added by the pull request change nothing: the check fails", () => {
    const r = action(PR, {}, loosening());
    expect(r.stdout).toMatch(/^::error file=plugins\/evil\/plugin\.json,line=\d+,.*title=invalid-value::/m);
    expect(r.outputs.errors).toBe("1");
    expect(r.summary).toContain(":x: Findings reach the failing level");
    expect(r.status).toBe(1);
  });

  it("the `config` input names a file read as the base has it, too", () => {
    const r = action(PR, { config: "plugins/evil/.github/plugin-review.yml" }, loosening());
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(
      /^::error title=plugin-review::cannot read configuration 'plugins\/evil\/\.github\/plugin-review\.yml' at main: no such file there/m,
    );
  });

  it("without a base (a push), the checked-out configuration is the one found, as the CLI finds it", () => {
    const r = action({ GITHUB_EVENT_NAME: "push" }, {}, loosening());
    expect(r.stdout).not.toMatch(/^::error file=/m);
    expect(r.status).toBe(0);
  });
});

/**
 * The workflow commands the runner would carry out from a step's output, as it reads them: a line starting
 * with `::`, except between `::stop-commands::<token>` and `::<token>::`.
 */
function workflowCommands(output: string): string[] {
  const commands: string[] = [];
  let stopped: string | undefined;
  for (const line of output.split(/\r\n|\r|\n/).map((l) => l.trimStart())) {
    if (!line.startsWith("::")) continue;
    if (stopped !== undefined) {
      if (line === `::${stopped}::`) stopped = undefined;
    } else if (line.startsWith("::stop-commands::")) stopped = line.slice("::stop-commands::".length);
    else commands.push(line);
  }
  return commands;
}

describe("action/run.mjs: what the workspace holds is not a command", () => {
  /** A repository whose files an attacker wrote: hostile names, values and configuration. */
  function hostileRepo(files: Record<string, string>): string {
    const r = mkdtempSync(join(dir, "hostile-"));
    git(r, "init", "-q", "-b", "main");
    for (const [path, content] of Object.entries(files)) write(join(r, path), content);
    return r;
  }
  /** Control characters but the line breaks between lines. */
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/; // eslint-disable-line no-control-regex
  const INJECTED =
    "x\n::error title=pwned::owned\n::add-mask::me \u001b]8;;https://evil.example\u0007<img src=x> @acme/admins";

  it("a configuration's text: no workflow command, and the job summary shows it as code", () => {
    const r = action(
      { GITHUB_EVENT_NAME: "push" },
      {},
      hostileRepo({
        ".github/plugin-review.yml": `${JSON.stringify(INJECTED)}: 1\n`,
        "p/plugin.json": text(validHost()),
      }),
    );
    expect(r.status).toBe(2);
    // The one command is the action's own error, the configuration's problem in its (escaped) message.
    const commands = [...workflowCommands(r.stdout), ...workflowCommands(r.stderr)];
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(/^::error title=plugin-review::.*unknown key/);
    expect(r.stdout + r.stderr).not.toMatch(CONTROL);
    expect(liveParts(r.summary)).toEqual([]);
    expect(r.summary).toContain("unknown key");
  });

  it("a descriptor's member names and a path: annotations only, no escape sequence in the log", () => {
    const doc = { ...validHost(), [INJECTED]: 1, ["\u001b[2J\u001b[31mred"]: 2 };
    const r = action(
      { GITHUB_EVENT_NAME: "push" },
      {},
      hostileRepo({ "@acme/admins <img src=x>/plugin.json": text(doc) }),
    );
    expect(r.status).toBe(0); // unknown members are warnings
    const commands = [...workflowCommands(r.stdout), ...workflowCommands(r.stderr)];
    expect(commands).toHaveLength(2);
    for (const c of commands)
      expect(c).toMatch(
        /^::warning file=@acme\/admins <img src=x>\/plugin\.json,line=\d+,.*title=unknown-member::/,
      );
    expect(r.stdout + r.stderr).not.toMatch(CONTROL);
    expect(liveParts(r.summary)).toEqual([]);
  });
});

describe("action.yml", () => {
  const script = readFileSync(SCRIPT, "utf8");

  it("is a JavaScript action on the runner's Node.js 24, running the entry point with no steps", () => {
    expect(yml.runs).toEqual({ using: "node24", main: "action/run.mjs" });
    expect(existsSync(SCRIPT)).toBe(true);
    // No setup-node, no install, no PATH or environment for later steps.
    const raw = readFileSync(join(ROOT, "action.yml"), "utf8");
    expect(raw).not.toMatch(/setup-node|npm (ci|install)|GITHUB_PATH|GITHUB_ENV/);
    expect(script).not.toMatch(/GITHUB_PATH|GITHUB_ENV/);
    expect(script).toContain('new URL("../dist-cli/plugin-review.mjs", import.meta.url)');
  });

  it("declares the inputs the entry point reads, with their defaults", () => {
    expect(Object.fromEntries(Object.entries(yml.inputs).map(([k, v]) => [k, v.default]))).toEqual({
      paths: ".",
      config: "",
      "base-ref": "",
      sarif: "false",
      token: "${{ github.token }}",
      "fail-on-findings": "true",
    });
    const read = [...script.matchAll(/\b(?:input|bool)\("([a-z-]+)"/g)].map((m) => m[1]);
    expect([...new Set(read)].sort()).toEqual(Object.keys(yml.inputs).sort());
  });

  it("declares the outputs the entry point writes", () => {
    expect(Object.keys(yml.outputs).sort()).toEqual(["errors", "findings", "sarif-file"]);
    const written = [...script.matchAll(/append\("GITHUB_OUTPUT", `([^`]*)`/g)].flatMap((m) =>
      [...m[1]!.matchAll(/(?:^|\\n)([a-z-]+)=/g)].map((w) => w[1]),
    );
    expect(written.sort()).toEqual(Object.keys(yml.outputs).sort());
  });
});

describe("the documented workflow (docs/github-action.md)", () => {
  const doc = readFileSync(join(ROOT, "docs", "github-action.md"), "utf8");
  const workflow = parse(/```yaml\n([\s\S]*?)```/.exec(doc)![1]!) as {
    on: Record<string, unknown>;
    permissions: Record<string, string>;
    jobs: Record<
      string,
      { steps: { id?: string; uses?: string; if?: string; with?: Record<string, string> }[] }
    >;
  };
  const steps = Object.values(workflow.jobs)[0]!.steps;

  it("runs on pull requests and in the merge queue", () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(["pull_request", "merge_group"]));
  });

  it("checks out, runs this action with declared inputs only, and uploads SARIF with upload-sarif@v4", () => {
    expect(steps[0]!.uses).toBe("actions/checkout@v6");
    const review = steps.find((s) => s.uses?.startsWith("plugin-review/plugin-review@"))!;
    expect(review.id).toBeDefined();
    for (const name of Object.keys(review.with ?? {})) expect(yml.inputs).toHaveProperty(name);
    expect(review.with?.sarif).toBe("true");
    const upload = steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"))!;
    expect(upload.uses).toBe("github/codeql-action/upload-sarif@v4");
    // always(): findings fail the review step, and that is when code scanning needs the results most.
    expect(upload.if).toBe(`always() && steps.${review.id}.outputs.sarif-file != ''`);
    expect(upload.with?.sarif_file).toBe(`\${{ steps.${review.id}.outputs.sarif-file }}`);
    expect(workflow.permissions["security-events"]).toBe("write");
  });
});
