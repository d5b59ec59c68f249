// Which commit CI's speed gate judges a build against (bench/gate.mjs, docs/development.md "The speed gate"):
// on main, without a release tag, the last landing bench/reference records, so that a landing of many commits
// is judged whole and not by its last commit alone (issue 40: "small losses add up").
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A repository on branch main holding the gate's scripts, with one commit per entry of `commits`. */
function repository(commits: Array<Record<string, string>>): { dir: string; hashes: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "gate-reference-"));
  dirs.push(dir);
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dir,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.com",
      },
    }).trim();
  git("init", "-q", "-b", "main");
  cpSync(join(ROOT, "bench/gate.mjs"), join(dir, "bench/gate.mjs"));
  cpSync(join(ROOT, "bench/lib.mjs"), join(dir, "bench/lib.mjs"));
  const hashes: string[] = [];
  commits.forEach((files, i) => {
    for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
    git("add", "-A");
    git("commit", "-q", "--allow-empty", "-m", `commit ${i}`);
    hashes.push(git("rev-parse", "HEAD"));
  });
  return { dir, hashes };
}

const chosen = (dir: string) =>
  execFileSync(process.execPath, ["bench/gate.mjs", "--reference"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, BENCH_BASE: "" },
  }).trim();

describe("the speed gate's reference on main", () => {
  it("is the last landing bench/reference names, not the landing's last commit", () => {
    const { dir, hashes } = repository([{}, { "src.txt": "a" }, { "src.txt": "b" }]);
    writeFileSync(join(dir, "bench/reference"), `# the last landing\n${hashes[0]}\n`);
    expect(chosen(dir)).toBe(`${hashes[0]} (the last landing, as bench/reference records it)`);
  });

  it("is the last release tag when there is one", () => {
    const { dir, hashes } = repository([{}, { "src.txt": "a" }, { "src.txt": "b" }]);
    execFileSync("git", ["tag", "v1.0.0", hashes[1] as string], { cwd: dir });
    writeFileSync(join(dir, "bench/reference"), `${hashes[0]}\n`);
    expect(chosen(dir)).toBe("v1.0.0 (the last release tag)");
  });

  it("falls back to HEAD's first parent when bench/reference names no ancestor of HEAD", () => {
    const { dir } = repository([{}, { "src.txt": "a" }]);
    for (const text of [
      "",
      "# nothing\n",
      "0123456789abcdef0123456789abcdef01234567\n",
      "HEAD\n",
      "not a commit\n",
    ]) {
      writeFileSync(join(dir, "bench/reference"), text);
      expect(chosen(dir), JSON.stringify(text)).toMatch(/^HEAD~1 \(HEAD's first parent/);
    }
  });

  it("names a commit of this repository's history in the file it ships", () => {
    const recorded = execFileSync(process.execPath, ["bench/gate.mjs", "--reference"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, BENCH_BASE: "" },
    });
    // On a branch the merge base wins; on main (CI) the recorded landing or a tag: never an unreadable name.
    expect(recorded).not.toMatch(/first parent/);
  });
});
