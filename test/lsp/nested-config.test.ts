/**
 * The language server names a descriptor as `check` does (driven over stdio by a real LSP client, the built
 * CLI, a real git repository): a nested configuration's `ignore` globs read the path below the folder
 * holding its `.github/`, also when the file is compared with git, and through a linked folder.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { edit, text, validHost } from "../helpers.js";
import { LspClient } from "./client.js";

let dir: string;
let client: LspClient | undefined;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-lsp-nested-")));
});
afterEach(() => {
  client?.kill();
  client = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    stdio: "pipe",
  });
}

function write(rel: string, content: string): void {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), content);
}

const BASE = text(validHost());
const HEAD = edit(BASE, '"unit": "PerSecond"', '"unit": "PerSecnd"');
const renamed = (t: string) => edit(t, '"name": "custom.python.', '"name": "custom.python.legacy_');

describe("plugin-review lsp: a nested configuration", () => {
  it("ignores sub/legacy by its path below sub/, with change rules on, also through a linked folder", async () => {
    const repo = join(dir, "g1");
    mkdirSync(repo);
    git(repo, "init", "-q");
    write("g1/sub/.github/plugin-review.yml", 'ignore:\n  - paths: ["legacy/**"]\n');
    write("g1/sub/legacy/plugin.json", renamed(BASE));
    write("g1/sub/current/plugin.json", BASE);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    symlinkSync(repo, join(dir, "link"));
    for (const root of [repo, join(dir, "link")]) {
      client?.kill();
      const c = (client = new LspClient(root));
      await c.initialize(root);
      expect(await c.open(join(root, "sub", "legacy", "plugin.json"), renamed(HEAD))).toEqual([]);
      // The same change where nothing ignores it: compared with HEAD (version-not-bumped is a change rule).
      const current = await c.open(join(root, "sub", "current", "plugin.json"), HEAD);
      expect(current.map((d) => d.code)).toEqual([
        "version-not-bumped",
        "invalid-value",
        "metric-unit-changed",
      ]);
    }
  });
});
