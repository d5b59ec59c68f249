/**
 * The language server in a git repository (driven over stdio by a real LSP client, the built CLI): it names a
 * descriptor as `check` does, so a nested configuration's `ignore` globs read the path below the folder
 * holding its `.github/` with change rules on, also through a linked folder; and its git work stays
 * proportionate to the file: a `git` on the PATH that records every command shows that opening untracked
 * files never runs the whole repository's `git diff` or `git ls-files --others`, while a file the index
 * renames is still compared with its old path at HEAD, when the configuration reviews that path (a file moved
 * from outside `paths` has no base: its findings are new).
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BASE, CHANGED, git, HEAD, nestedRepo, renamed, writeIn } from "../cli/nested-repo.js";
import { LspClient } from "./client.js";

let dir: string;
let client: LspClient | undefined;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-lsp-repo-")));
});
afterEach(() => {
  client?.kill();
  client = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(root: string, env?: NodeJS.ProcessEnv): Promise<LspClient> {
  client?.kill();
  client = new LspClient(root, env);
  await client.initialize(root);
  return client;
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

describe("plugin-review lsp in a git repository", () => {
  it("ignores a nested configuration's sub/legacy by its path below sub/, also through a linked folder", async () => {
    const repo = nestedRepo(dir, false);
    for (const root of [repo, join(dir, "link")]) {
      const c = await start(root);
      expect(await c.open(join(root, "sub", "legacy", "plugin.json"), renamed(HEAD))).toEqual([]);
      // The same change where nothing ignores it: compared with HEAD (version-not-bumped is a change rule).
      const current = await c.open(join(root, "sub", "current", "plugin.json"), HEAD);
      expect(current.map((d) => d.code)).toEqual(CHANGED);
    }
  });

  it("opens untracked files without a whole-repository diff; follows a rename in the index", async () => {
    const repo = nestedRepo(dir, false);
    const log = join(dir, "git.log");
    const c = await start(repo, recordingGit(log));
    for (let i = 0; i < 3; i++) {
      const path = writeIn(repo, `new${i}/plugin.json`, BASE);
      // Added by the change: no base, so no change rules.
      expect(await c.open(path, BASE)).toEqual([]);
    }
    const commands = readFileSync(log, "utf8").split("\n");
    expect(commands.filter((l) => /^diff |^ls-files .*--others/.test(l))).toEqual([]);

    // Renamed in the index: compared with the old path at HEAD, so the unbumped change is reported.
    git(repo, "mv", "sub/current", "moved");
    expect((await c.open(join(repo, "moved", "plugin.json"), HEAD)).map((d) => d.code)).toEqual(CHANGED);
  });

  it("a file renamed from outside `paths` has no base: its findings are new, not existing", async () => {
    const repo = nestedRepo(dir, false);
    // HEAD's misspelt unit was in the repository already, in a file no configuration reviews.
    writeIn(repo, "fixtures/bad.json", HEAD);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "a fixture");
    mkdirSync(join(repo, "plugins", "new"), { recursive: true });
    git(repo, "mv", "fixtures/bad.json", "plugins/new/plugin.json");
    const c = await start(repo);
    const diagnostics = await c.open(join(repo, "plugins", "new", "plugin.json"), HEAD);
    expect(diagnostics.map((d) => [d.code, d.severity, (d.data as { baseline?: string }).baseline])).toEqual([
      ["invalid-value", 1, "new"],
    ]);
    expect(diagnostics[0]!.message).not.toMatch(/existing/);
  });

  it("a file moved out of a folder its configuration ignores: what was ignored there is new", async () => {
    const repo = nestedRepo(dir, false);
    // The misspelt unit was committed where `sub/.github/plugin-review.yml` ignores everything.
    writeIn(repo, "sub/legacy/plugin.json", renamed(HEAD));
    git(repo, "commit", "-q", "-am", "unchecked");
    git(repo, "mv", "sub/legacy", "sub/moved");
    const c = await start(repo);
    const diagnostics = await c.open(join(repo, "sub", "moved", "plugin.json"), renamed(HEAD));
    expect(diagnostics.map((d) => [d.code, (d.data as { baseline?: string }).baseline])).toEqual([
      ["invalid-value", "new"],
    ]);
  });
});
