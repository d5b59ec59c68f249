/**
 * The pre-commit hooks (`.pre-commit-hooks.yaml`, docs/pre-commit.md): their definition, their entry run the way
 * pre-commit runs it, and the real pre-commit (Debian's `pre-commit` package; `.ci/run` installs it) installing
 * and running them: `try-repo`, `install` with a commit, and the packages each installation adds.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ensureBuilt, findingLines, type Run } from "./cli/run.js";
import { describeUnless, MORE_THAN_NPM_CI, ROOT } from "./helpers.js";

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  pass_filenames: boolean;
  require_serial?: boolean;
  [key: string]: unknown;
}

const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as Hook[];
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  bin: Record<string, string>;
  version: string;
};
const BUNDLE = "dist-cli/plugin-review.mjs";

function theHook(id = "plugin-review"): Hook {
  const hook = hooks.find((h) => h.id === id);
  if (!hook) throw new Error(`no ${id} hook in .pre-commit-hooks.yaml`);
  return hook;
}

/**
 * What pre-commit executes for a `language: script` hook: the entry's first word, a file of the hook's repository
 * (here the work tree), as a program, with the entry's other words and the staged files that `files` selects.
 */
function runHook(staged: string[], id = "plugin-review", cwd = ROOT): Run {
  const [script, ...args] = theHook(id).entry.split(/\s+/);
  const selected = staged.filter((f) => new RegExp(theHook(id).files).test(f));
  const r = spawnSync(join(ROOT, script!), [...args, ...selected], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "" },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe(".pre-commit-hooks.yaml", () => {
  it("defines the plugin-review hook", () => {
    expect(Array.isArray(hooks)).toBe(true);
    expect(hooks.map((h) => h.id)).toEqual(["plugin-review", "plugin-review-fix"]);
    expect(theHook()).toMatchObject({
      id: "plugin-review",
      name: "plugin-review",
      entry: `${BUNDLE} check`,
      language: "script",
      files: "(^|/)(plugin\\.json|extension\\.yaml)$",
      pass_filenames: true,
      require_serial: true,
    });
  });

  it("defines the plugin-review-fix hook, the same files and one run, with --fix", () => {
    const { id, name, entry, description, ...rest } = theHook("plugin-review-fix");
    const { id: _i, name: _n, entry: _e, description: _d, ...same } = theHook();
    expect([id, name, entry, description !== undefined]).toEqual([
      "plugin-review-fix",
      "plugin-review (fix)",
      `${BUNDLE} check --fix`,
      true,
    ]);
    expect(rest).toEqual(same);
  });

  it("runs the committed bundle that the package's bin runs, as a program", () => {
    expect(theHook().entry.split(/\s+/)[0]).toBe(BUNDLE);
    expect(readFileSync(join(ROOT, pkg.bin["plugin-review"]!), "utf8")).toContain(`import "../${BUNDLE}";`);
    expect(readFileSync(join(ROOT, BUNDLE), "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(statSync(join(ROOT, BUNDLE)).mode & 0o111).not.toBe(0);
  });

  it("selects descriptors and extensions by name, in any folder", () => {
    const files = new RegExp(theHook().files);
    for (const f of [
      "plugin.json",
      "plugins/jmx/plugin.json",
      "a b/plugin.json",
      "extension.yaml",
      "src/extension.yaml",
      "pool/extension/extension.yaml",
    ])
      expect(files.test(f), f).toBe(true);
    for (const f of [
      "myplugin.json",
      "plugin.json.bak",
      "plugin.base.json",
      "plugin.json/README.md",
      "Plugin.json",
      "extension.yml",
      "my-extension.yaml",
      "extension.yaml.orig",
    ]) {
      expect(files.test(f), f).toBe(false);
    }
  });
});

describe("the hook on staged files", () => {
  beforeAll(() => ensureBuilt());

  it("passes (exit 0) on a valid descriptor", () => {
    const r = runHook(["examples/host-valid/plugin.json", "README.md"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1 descriptor checked: no findings/);
  });

  it("fails (exit 1) on a descriptor with mistakes, naming file, line and rule", () => {
    const r = runHook(["examples/mistakes/remote-mistakes/plugin.json"]);
    expect(r.status).toBe(1);
    expect(findingLines(r.stdout)).toMatch(
      /^examples\/mistakes\/remote-mistakes\/plugin\.json:4:11 +error +variant-mismatch /m,
    );
  });

  it("reviews a staged extension.yaml: the example passes, a broken version fails at its line", () => {
    const ok = runHook(["examples/migration/extension/extension.yaml", "README.md"]);
    expect([ok.status, ok.stderr]).toEqual([0, ""]);
    expect(ok.stdout).toMatch(/1 descriptor checked: no findings/);
    const dir = mkdtempSync(join(tmpdir(), "plugin-review-hook-"));
    try {
      mkdirSync(join(dir, "extension"));
      const example = readFileSync(join(ROOT, "examples/migration/extension/extension.yaml"), "utf8");
      writeFileSync(
        join(dir, "extension", "extension.yaml"),
        example.replace('version: "1.7.0"', "version: 1.8"),
      );
      const r = runHook(["extension/extension.yaml"], "plugin-review", dir);
      expect(r.status).toBe(1);
      expect(findingLines(r.stdout)).toMatch(/^extension\/extension\.yaml:2:10 +error +ef2-version-format /m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reviews a staged descriptor in a folder whose name starts with '-' (pre-commit passes -old/plugin.json)", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugin-review-hook-"));
    try {
      mkdirSync(join(dir, "-old"));
      copyFileSync(
        join(ROOT, "examples/mistakes/remote-mistakes/plugin.json"),
        join(dir, "-old", "plugin.json"),
      );
      const r = runHook(["-old/plugin.json"], "plugin-review", dir);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(1);
      expect(findingLines(r.stdout)).toMatch(/^-old\/plugin\.json:4:11 +error +variant-mismatch /m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("checks several staged descriptors in one run", () => {
    const r = runHook(["examples/host-valid/plugin.json", "examples/remote-valid/plugin.json"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/2 descriptors checked: no findings/);
  });
});

describe("the fix hook on staged files", () => {
  beforeAll(() => ensureBuilt());

  it("fixes in place; pre-commit then fails the hook because a file changed, and passes the next run", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugin-review-hook-"));
    try {
      const file = join(dir, "plugin.json");
      copyFileSync(join(ROOT, "examples/host-valid/plugin.json"), file);
      const valid = readFileSync(file, "utf8");
      writeFileSync(
        file,
        valid.replace(/"unit": "(\w+)"/, (_m, u: string) => `"unit": "${u.toLowerCase()}"`),
      );
      const staged = readFileSync(file, "utf8");
      expect(staged).not.toBe(valid);
      // What pre-commit does with a fixer: run it, then fail when the exit status or the files changed.
      const first = runHook(["plugin.json"], "plugin-review-fix", dir);
      const failedByPreCommit = first.status !== 0 || readFileSync(file, "utf8") !== staged;
      expect(first.status).toBe(0); // nothing left to report
      expect(first.stdout).toMatch(/--fix: 1 fix applied in 1 file/);
      expect(readFileSync(file, "utf8")).toBe(valid);
      expect(failedByPreCommit).toBe(true);
      const second = runHook(["plugin.json"], "plugin-review-fix", dir);
      expect(second.status).toBe(0);
      expect(readFileSync(file, "utf8")).toBe(valid);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The real pre-commit.

const HAS_PRE_COMMIT = spawnSync("pre-commit", ["--version"]).status === 0;
const DOC = readFileSync(join(ROOT, "docs", "pre-commit.md"), "utf8");
/** The fenced blocks of docs/pre-commit.md in a language, in order. */
const blocks = (lang: string) =>
  [...DOC.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);

let work: string;

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    timeout: 180_000,
    env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", PRE_COMMIT_COLOR: "never", ...env },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function git(cwd: string, ...args: string[]): string {
  const r = sh("git", args, cwd);
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A user's repository holding the given descriptors, staged. */
function userRepo(name: string, files: Record<string, string>): string {
  const repo = join(work, name);
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.email", "t@example.com");
  git(repo, "config", "user.name", "t");
  git(repo, "config", "commit.gpgsign", "false");
  for (const [path, from] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    copyFileSync(join(ROOT, from), join(repo, path));
  }
  git(repo, "add", ".");
  return repo;
}

/**
 * This repository as pre-commit would clone it, with the work tree's changes committed on top (what `try-repo`
 * does), so that a `.pre-commit-config.yaml` can name it with a `rev`.
 */
function hookRepository(): { repo: string; rev: string } {
  const repo = join(work, "plugin-review");
  git(work, "clone", "-q", ROOT, repo);
  const changed = [
    git(ROOT, "diff", "--name-only", "HEAD"),
    git(ROOT, "ls-files", "--others", "--exclude-standard"),
  ]
    .join("\n")
    .split("\n")
    .filter(Boolean);
  for (const f of changed) {
    if (existsSync(join(ROOT, f))) {
      mkdirSync(dirname(join(repo, f)), { recursive: true });
      cpSync(join(ROOT, f), join(repo, f));
    } else rmSync(join(repo, f), { force: true });
  }
  git(repo, "add", "-A");
  git(
    repo,
    "-c",
    "user.email=t@example.com",
    "-c",
    "user.name=t",
    "commit",
    "-q",
    "--allow-empty",
    "-m",
    "work tree",
  );
  return { repo, rev: git(repo, "rev-parse", "HEAD") };
}

/** The npm packages installed anywhere below a directory: every node_modules/<name> (or @scope/<name>). */
function installedPackages(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(d, entry.name);
      if (entry.name === "node_modules") {
        for (const p of readdirSync(path)) {
          if (p.startsWith(".")) continue;
          const names = p.startsWith("@") ? readdirSync(join(path, p)).map((n) => `${p}/${n}`) : [p];
          for (const n of names) if (existsSync(join(path, n, "package.json"))) found.push(n);
        }
      }
      walk(path);
    }
  };
  walk(dir);
  return found.sort();
}

describeUnless(
  !HAS_PRE_COMMIT &&
    !process.env.CI &&
    `pre-commit is not installed (apt-get install pre-commit, or pipx install pre-commit: ${MORE_THAN_NPM_CI})`,
)("the hooks installed by the real pre-commit", () => {
  beforeAll(() => {
    ensureBuilt();
    work = mkdtempSync(join(tmpdir(), "plugin-review-pre-commit-"));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("pre-commit try-repo runs the hook on the staged descriptors, without npm", () => {
    const repo = userRepo("try", {
      "plugins/bad/plugin.json": "examples/mistakes/remote-mistakes/plugin.json",
      "plugins/good/plugin.json": "examples/host-valid/plugin.json",
      "notes.md": "README.md",
    });
    // An `npm` that records its calls and fails: a hook that installed packages would need it.
    const shims = join(work, "shims");
    mkdirSync(shims);
    const log = join(work, "npm-calls.log");
    writeFileSync(join(shims, "npm"), `#!/bin/sh\necho "npm $*" >> '${log}'\nexit 1\n`, { mode: 0o755 });
    const env = { PATH: `${shims}:${process.env.PATH}`, TMPDIR: work };
    const bad = sh("pre-commit", ["try-repo", ROOT, "plugin-review", "--all-files"], repo, env);
    expect(bad.stdout).toMatch(/^plugin-review\.+Failed$/m);
    expect(findingLines(bad.stdout)).toMatch(/^plugins\/bad\/plugin\.json:4:11 +error +variant-mismatch /m);
    expect(bad.stdout).toMatch(/✖ 4 findings \(3 errors, 1 warning\) in 1 of 2 descriptors/);
    expect(bad.status).toBe(1);
    const good = sh(
      "pre-commit",
      ["try-repo", ROOT, "plugin-review", "--files", "plugins/good/plugin.json"],
      repo,
      env,
    );
    expect(good.stdout).toMatch(/^plugin-review\.+Passed$/m);
    expect(good.status).toBe(0);
    expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");
  });

  it("as docs/pre-commit.md sets it up: installs no package, and stops a commit with a mistake", () => {
    const { repo: hookRepo, rev } = hookRepository();
    const home = join(work, "home");
    const env = { PRE_COMMIT_HOME: home };
    const repo = userRepo("user", { "plugins/good/plugin.json": "examples/host-valid/plugin.json" });
    // The documented configuration, with this repository's clone in place of its GitHub address.
    const config = parse(blocks("yaml")[0]!) as { repos: { repo: string; rev: string }[] };
    expect(config.repos[0]!.repo).toBe("https://github.com/plugin-review/plugin-review");
    config.repos[0]!.repo = hookRepo;
    config.repos[0]!.rev = rev;
    writeFileSync(join(repo, ".pre-commit-config.yaml"), stringify(config));
    git(repo, "add", ".pre-commit-config.yaml");

    // The documented commands, verbatim.
    const commands = blocks("sh")[0]!.trim().split("\n");
    expect(commands).toEqual(["pre-commit install", "pre-commit run plugin-review --all-files"]);
    const runs = commands.map((c) => sh("pre-commit", c.split(" ").slice(1), repo, env));
    expect(runs[0]!.stdout).toMatch(/pre-commit installed at \.git\/hooks\/pre-commit/);
    expect(runs[1]!.stdout).toMatch(/^plugin-review\.+Passed$/m);
    expect(runs.map((r) => r.status)).toEqual([0, 0]);

    // What the installation added: pre-commit's clone of the repository, and no npm package at all.
    expect(installedPackages(home)).toEqual([]);
    expect(readdirSync(home).filter((d) => d.startsWith("repo"))).toHaveLength(1);

    // The git hook at work: a commit that adds a mistake is stopped, one without is made.
    git(repo, "commit", "-q", "-m", "valid descriptor");
    mkdirSync(join(repo, "plugins/bad"));
    copyFileSync(
      join(ROOT, "examples/mistakes/remote-mistakes/plugin.json"),
      join(repo, "plugins/bad/plugin.json"),
    );
    git(repo, "add", "plugins/bad/plugin.json");
    const refused = sh("git", ["commit", "-m", "bad descriptor"], repo, env);
    expect(findingLines(refused.stdout + refused.stderr)).toMatch(
      /plugins\/bad\/plugin\.json:4:11 +error +variant-mismatch/,
    );
    expect(refused.status).toBe(1);
    expect(git(repo, "log", "--format=%s")).toBe("valid descriptor");
  });

  it("the documented local hook without Node.js on the PATH installs one package: plugin-review", () => {
    const pack = sh("npm", ["pack", "--silent", "--pack-destination", work], ROOT);
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = join(work, pack.stdout.trim().split("\n").pop()!);
    const home = join(work, "home-local");
    const repo = userRepo("local", {
      "p/plugin.json": "examples/mistakes/remote-mistakes/plugin.json",
      "e/extension.yaml": "examples/mistakes/ef2-version-format/extension.yaml",
    });
    // The documented configuration, with the packed tarball in place of the registry's version.
    const documented = blocks("yaml").find((b) => b.includes("repo: local"))!;
    expect(documented).toContain(`"plugin-review@${pkg.version}"`);
    writeFileSync(
      join(repo, ".pre-commit-config.yaml"),
      documented.replace(`plugin-review@${pkg.version}`, tarball),
    );
    const r = sh("pre-commit", ["run", "--all-files"], repo, {
      PRE_COMMIT_HOME: home,
      npm_config_offline: "true",
    });
    expect(findingLines(r.stdout)).toMatch(/^p\/plugin\.json:4:11 +error +variant-mismatch /m);
    // Extensions 2.0 extensions are reviewed too, as by the repository's own hooks.
    expect(findingLines(r.stdout)).toMatch(/^e\/extension\.yaml:2:10 +error +ef2-version-format /m);
    expect(r.status).toBe(1);
    // pre-commit adds an empty placeholder package of its own to every local `language: node` hook.
    expect(installedPackages(home)).toEqual(["plugin-review", "pre_commit_placeholder_package"]);
  });
});
