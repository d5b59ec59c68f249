/**
 * The language server's git work stays proportionate to the file (driven over stdio by a real LSP client, the
 * built CLI, a real git repository): a `git` on the PATH that records every command shows that opening
 * untracked files never runs the whole repository's `git diff` or `git ls-files --others`, while a file the
 * index renames is still compared with its old path at HEAD.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { edit, text, validHost } from "../helpers.js";
import { LspClient } from "./client.js";

let dir: string;
let client: LspClient | undefined;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-lsp-git-")));
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

/** A `git` first on the PATH that appends its arguments to `log`, then runs the real one. */
function recordingGit(log: string): NodeJS.ProcessEnv {
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  return { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
}

const BASE = text(validHost());

describe("plugin-review lsp: git work", () => {
  it("opens untracked files without a whole-repository diff; follows a rename in the index", async () => {
    const repo = join(dir, "repo");
    mkdirSync(join(repo, "old"), { recursive: true });
    git(repo, "init", "-q");
    writeFileSync(join(repo, "old", "plugin.json"), BASE);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    const log = join(dir, "git.log");
    const c = (client = new LspClient(repo, recordingGit(log)));
    await c.initialize(repo);
    for (let i = 0; i < 3; i++) {
      const path = join(repo, `new${i}`, "plugin.json");
      mkdirSync(join(path, ".."));
      writeFileSync(path, BASE);
      // Added by the change: no base, so no change rules (a missing metricGroup would be an error for it).
      expect(await c.open(path, BASE)).toEqual([]);
    }
    const commands = readFileSync(log, "utf8").split("\n");
    expect(commands.filter((l) => /^diff |^ls-files .*--others/.test(l))).toEqual([]);

    // Renamed in the index: compared with the old path at HEAD, so the unbumped change is reported.
    git(repo, "mv", "old", "moved");
    const moved = join(repo, "moved", "plugin.json");
    const changed = edit(BASE, '"unit": "PerSecond"', '"unit": "PerSecnd"');
    const diagnostics = await c.open(moved, changed);
    expect(diagnostics.map((d) => d.code)).toEqual([
      "version-not-bumped",
      "invalid-value",
      "metric-unit-changed",
    ]);
  });
});
