/**
 * The CLI finds its configuration as ESLint and Prettier do: the nearest `.github/plugin-review.yml` walking up
 * from each file to the repository root; `--config` overrides it, `--no-config` ignores it; the text output
 * names the file used. Run as a user does (the built CLI in a child process, real git repositories).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { cli, ensureBuilt, findingLines } from "./run.js";

let dir: string;
/** A repository: its root configuration turns invalid-json off; plugins/a and plugins/b are broken JSON. */
let repo: string;

function write(rel: string, content: string): string {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  return p;
}

const gitInit = (at: string) => {
  mkdirSync(at, { recursive: true });
  execFileSync("git", ["init", "-q", at], { stdio: "pipe" });
};

beforeAll(() => {
  ensureBuilt();
  // realpath: macOS's tmpdir is a symbolic link, and the CLI names files by their real paths.
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-discovery-")));
  repo = join(dir, "repo");
  gitInit(repo);
  write("repo/.github/plugin-review.yml", "rules:\n  invalid-json: off\n");
  write("repo/plugins/a/plugin.json", "{ nope");
  write("repo/plugins/b/plugin.json", "{ nope");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const configLine = (stdout: string) => stdout.split("\n").find((l) => l.startsWith("configuration: "));

describe("plugin-review check: configuration discovery", () => {
  it("run from a subdirectory, uses the repository root's configuration and names it", () => {
    const r = cli(["check", "a"], join(repo, "plugins"));
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/✔ 1 descriptor checked: no findings/);
    expect(configLine(r.stdout)).toBe("configuration: ../.github/plugin-review.yml");
    expect(r.status).toBe(0);
  });

  it("a configuration that is there but cannot be read (a folder, a loop of links) is an error, never the defaults", () => {
    for (const [name, make, why] of [
      ["folder", (p: string) => mkdirSync(p), "it is a directory"],
      ["loop", (p: string) => symlinkSync("plugin-review.yml", p), "too many levels of symbolic links"],
    ] as const) {
      const root = join(dir, `unreadable-${name}`);
      gitInit(root);
      write(`unreadable-${name}/p/plugin.json`, text(validHost()));
      mkdirSync(join(root, ".github"));
      make(join(root, ".github", "plugin-review.yml"));
      const r = cli(["check", "p"], root);
      expect(r.status, name).toBe(2);
      expect(r.stderr, name).toBe(
        `plugin-review: cannot read configuration '.github/plugin-review.yml': ${why}${name === "loop" ? " (a link that leads back to itself?)" : ""}\n`,
      );
      expect(r.stdout, name).toBe("");
    }
  });

  it("a configuration that is not UTF-8 says what it is, never `must be object` nor a silently misread glob", () => {
    for (const [name, bytes, problem] of [
      [
        "utf16",
        Buffer.from("\uFEFFfail_on: never\n", "utf16le"),
        "the file is UTF-16 (its byte order mark says so): save it as UTF-8",
      ],
      [
        "latin1",
        Buffer.from('fail_on: error\nignore:\n  - paths: ["plugins/café/**"]\n', "latin1"),
        "line 3, column 25: byte 0xE9 is not UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8",
      ],
    ] as const) {
      const root = join(dir, `encoding-${name}`);
      gitInit(root);
      write(`encoding-${name}/p/plugin.json`, text(validHost()));
      write(`encoding-${name}/.github/plugin-review.yml`, "");
      writeFileSync(join(root, ".github", "plugin-review.yml"), bytes);
      const r = cli(["check", "p"], root);
      expect(r.stderr, name).toBe(
        `plugin-review: invalid configuration .github/plugin-review.yml:\n  - ${problem}\n`,
      );
      expect(r.status, name).toBe(2);
      // Named with --config, the same.
      expect(cli(["check", "--config", ".github/plugin-review.yml", "p"], root).stderr, name).toContain(
        problem,
      );
    }
  });

  it("run from outside the repository, walks up from each file", () => {
    const r = cli(["check", "repo/plugins"], dir);
    expect(r.stdout).toMatch(/✔ 2 descriptors checked: no findings/);
    expect(configLine(r.stdout)).toBe("configuration: repo/.github/plugin-review.yml");
    expect(r.status).toBe(0);
    // The same from a folder that shares nothing with it but the filesystem root: the file by its full path.
    const far = cli(["check", join(repo, "plugins", "a", "plugin.json")], "/");
    expect(configLine(far.stdout)).toBe(`configuration: ${join(repo, ".github", "plugin-review.yml")}`);
    expect(far.status).toBe(0);
  });

  it("--config overrides the file found, --no-config ignores it", () => {
    const other = write("elsewhere/strict.yml", "rules:\n  invalid-json: warning\n");
    const withConfig = cli(["check", "--config", other, "a"], join(repo, "plugins"));
    expect(findingLines(withConfig.stdout)).toMatch(/plugin\.json:1:\d+ +warning +invalid-json/);
    expect(configLine(withConfig.stdout)).toBe("configuration: ../../elsewhere/strict.yml");
    expect(withConfig.status).toBe(0);

    const none = cli(["check", "--no-config", "a"], join(repo, "plugins"));
    expect(findingLines(none.stdout)).toMatch(/^a\/plugin\.json:1:\d+ +error +invalid-json/m);
    expect(configLine(none.stdout)).toBe("configuration: none (--no-config: built-in defaults)");
    expect(none.status).toBe(1);

    const both = cli(["check", "--config", other, "--no-config", "a"], join(repo, "plugins"));
    expect(both.stderr).toMatch(/use either --config or --no-config/);
    expect(both.status).toBe(2);
  });

  it("stops at the repository root: a configuration above it does not apply", () => {
    write("outer/.github/plugin-review.yml", "rules:\n  invalid-json: off\n");
    gitInit(join(dir, "outer", "inner"));
    write("outer/inner/p/plugin.json", "{ nope");
    const r = cli(["check", "p"], join(dir, "outer", "inner"));
    expect(findingLines(r.stdout)).toMatch(/error +invalid-json/);
    expect(configLine(r.stdout)).toBe(
      "configuration: none (no .github/plugin-review.yml found walking up from the files: built-in defaults)",
    );
    expect(r.status).toBe(1);
    // Outside any repository the walk goes on up: the same file applies to a folder that is no repository.
    write("outer/loose/plugin.json", "{ nope");
    const loose = cli(["check", "plugin.json"], join(dir, "outer", "loose"));
    expect(configLine(loose.stdout)).toBe("configuration: ../.github/plugin-review.yml");
    expect(loose.status).toBe(0);
  });

  it("applies the nearest file to each descriptor; globs are relative to the folder holding .github/", () => {
    // A nested package with its own configuration: `ignore` relative to that package.
    write(
      "repo/pkg/.github/plugin-review.yml",
      'rules:\n  name-format: error\nignore:\n  - paths: ["legacy/**"]\n',
    );
    write("repo/pkg/legacy/plugin.json", "{ nope");
    write("repo/pkg/current/plugin.json", text({ ...validHost(), name: "Bad Name" }));
    const r = cli(["check", "--format", "text", "plugins/a", "pkg"], repo);
    expect(findingLines(r.stdout)).toMatch(/^pkg\/current\/plugin\.json:\d+:\d+ +error +name-format/m);
    expect(r.stdout).not.toMatch(/legacy/);
    expect(r.stdout).not.toMatch(/plugins\/a.*invalid-json/);
    expect(configLine(r.stdout)).toBe(
      "configuration: .github/plugin-review.yml, pkg/.github/plugin-review.yml",
    );
    expect(r.status).toBe(1);
  });

  it("matches `paths` against the repository, as the App does, when run from a subdirectory", () => {
    write("paths-repo/.github/plugin-review.yml", 'paths: ["plugins/**/descriptor.json"]\n');
    gitInit(join(dir, "paths-repo"));
    write("paths-repo/plugins/x/descriptor.json", text(validHost()));
    write("paths-repo/plugins/x/plugin.json", "{ not a descriptor here");
    const r = cli(["check", "--format", "json", "."], join(dir, "paths-repo", "plugins"));
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const text_ = cli(["check", "."], join(dir, "paths-repo", "plugins"));
    expect(text_.stdout).toMatch(/✔ 1 descriptor checked/);
  });

  it("an invalid configuration found on the way up stops the run, named by its path", () => {
    write("badcfg/.github/plugin-review.yml", "fail_on: sometimes\n");
    write("badcfg/deep/p/plugin.json", text(validHost()));
    const r = cli(["check", "p"], join(dir, "badcfg", "deep"));
    expect(r.stderr).toMatch(/invalid configuration \.\.\/\.github\/plugin-review\.yml/);
    expect(r.status).toBe(2);
  });
});
