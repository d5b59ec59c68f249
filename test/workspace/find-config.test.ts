/**
 * The configuration finder that `check` and the language server share: which configuration applies to a
 * path (that need not exist), read once per finder, and how a configuration file is named to the user.
 * What users see of it, run as they run it (the built CLI), is in test/cli/config-discovery.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG_PATH, type ResolvedConfig } from "../../src/core/config.js";
import { loadConfig } from "../../src/github/review/load-config.js";
import { ConfigFinder, displayPath, findConfigFor } from "../../src/workspace/find-config.js";

let dir: string;
/** A repository: its root configuration turns invalid-json off. */
let repo: string;

function write(rel: string, content: string): string {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  return p;
}

beforeAll(() => {
  // realpath: macOS's tmpdir is a symbolic link, and the finder names files by their real paths.
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-find-config-")));
  repo = join(dir, "repo");
  mkdirSync(repo, { recursive: true });
  execFileSync("git", ["init", "-q", repo], { stdio: "pipe" });
  write("repo/.github/plugin-review.yml", "rules:\n  invalid-json: off\n");
  write("repo/plugins/a/plugin.json", "{ nope");
  write("repo/plugins/b/plugin.json", "{ nope");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("findConfigFor", () => {
  it("finds the configuration of a path that need not exist (a --stdin-filename), relative to cwd", () => {
    const found = findConfigFor("plugins/new/plugin.json", { cwd: repo });
    expect(found.path).toBe(join(repo, ".github", "plugin-review.yml"));
    expect(found.root).toBe(repo);
    expect(found.config.rules["invalid-json"]).toBe("off");
    const none = findConfigFor("x/plugin.json", { cwd: repo, noConfig: true });
    expect(none).toMatchObject({ none: "disabled" });
    expect(none.path).toBeUndefined();
  });

  it("reads each file once per finder and gives one object per file (callers group by it)", () => {
    const finder = new ConfigFinder({ cwd: dir });
    const a = finder.findFor(join(repo, "plugins", "a", "plugin.json"));
    const b = finder.findFor(join(repo, "plugins", "b", "plugin.json"));
    expect(a).toBe(b);
    // A finder remembers what it read (it watches nothing); a new one sees an edited file.
    write("repo/.github/plugin-review.yml", "rules:\n  invalid-json: warning\n");
    try {
      expect(finder.findFor(join(repo, "plugins", "a", "plugin.json")).config.rules["invalid-json"]).toBe(
        "off",
      );
      expect(new ConfigFinder({ cwd: dir }).findFor(join(repo, "x")).config.rules["invalid-json"]).toBe(
        "warning",
      );
    } finally {
      write("repo/.github/plugin-review.yml", "rules:\n  invalid-json: off\n");
    }
  });

  it("shows a path relative to the working directory unless they share only the filesystem root", () => {
    expect(displayPath("/a/b/.github/plugin-review.yml", "/a/b/c")).toBe("../.github/plugin-review.yml");
    expect(displayPath("/a/b/.github/plugin-review.yml", "/a/b")).toBe(".github/plugin-review.yml");
    expect(displayPath("/x/.github/plugin-review.yml", "/a/b")).toBe("/x/.github/plugin-review.yml");
  });
});

describe("the CLI and the App agree", () => {
  /** The App's configuration of a user's repository (no organisation layer) holding `text`. */
  async function app(text: string): Promise<ResolvedConfig> {
    const loaded = await loadConfig(
      {
        readDefaultBranchFile: async ({ repo: name, path }) => {
          if (name !== "plugins" || path !== CONFIG_PATH) return { kind: "missing" };
          const content = new TextEncoder().encode(text);
          return { kind: "file", content, size: content.length };
        },
        repositoryVisible: async () => true,
      },
      "someone",
      "plugins",
      "User",
    );
    if (!loaded.ok) throw new Error(loaded.error);
    return loaded.config;
  }

  it.each([
    'paths: ["nothing/**/plugin.json"]\nmax_file_size: 1\nrules:\n  file-too-large: off\n',
    "rules:\n  metric-group-changed: off\nignore:\n  - paths: [legacy/**]\n",
    // A repository's own `locked` locks nothing, for either.
    "locked: [metric-group-changed, fail_on]\nrules:\n  metric-group-changed: off\nfail_on: never\n",
  ])("the same repository file gives the same configuration: %j", async (text) => {
    write("agree/.github/plugin-review.yml", text);
    const { notes: _cliNotes, ...cli } = findConfigFor("agree/p/plugin.json", { cwd: dir }).config;
    const { notes: _appNotes, ...fromApp } = await app(text);
    expect(cli).toEqual(fromApp);
  });
});
