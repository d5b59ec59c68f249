/**
 * The one git reader that `check --base-ref` and the language server share, on real repositories: what
 * changed since a ref (renames followed, untracked files only when asked), a file at a ref (absent is not a
 * failure), and the branch's base (the merge base with its upstream, else HEAD). What users see of it is in
 * test/cli/check.test.ts, test/cli/repository-paths.test.ts and test/lsp/repository.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitRepo } from "../../src/workspace/git.js";

let dir: string;

beforeEach(() => {
  // realpath: git names its root with symbolic links resolved (macOS's tmpdir is one).
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-git-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd: dir,
    stdio: "pipe",
    encoding: "utf8",
  }).trim();

function write(rel: string, content: string | Buffer): void {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), content);
}

/** A repository whose one commit holds a/plugin.json and b/plugin.json. */
async function repository(): Promise<GitRepo> {
  git("init", "-q", "-b", "main");
  write("a/plugin.json", '{ "name": "a", "version": "1.0" }\n');
  write("b/plugin.json", '{ "name": "b", "version": "1.0" }\n');
  git("add", ".");
  git("commit", "-q", "-m", "base");
  const repo = await GitRepo.find(join(dir, "a"));
  if (!repo) throw new Error("no repository found");
  return repo;
}

describe("GitRepo", () => {
  it("finds the work tree from a folder inside it, and none outside any", async () => {
    const repo = await repository();
    expect(repo.root).toBe(dir);
    expect(repo.relative(join(dir, "a", "plugin.json"))).toBe("a/plugin.json");
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-no-git-")));
    try {
      expect(await GitRepo.find(outside)).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("lists the changes since a ref, renames followed, untracked files only when asked", async () => {
    const repo = await repository();
    write("a/plugin.json", '{ "name": "a", "version": "1.1" }\n');
    git("mv", "b", "c");
    write("d/plugin.json", "{}\n");
    const changes = await repo.changes("HEAD");
    expect(Object.fromEntries(changes)).toEqual({
      "a/plugin.json": { status: "modified", basePath: "a/plugin.json" },
      "c/plugin.json": { status: "renamed", basePath: "b/plugin.json" },
    });
    expect((await repo.changes("HEAD", { untracked: true })).get("d/plugin.json")).toEqual({
      status: "added",
    });
    expect(await repo.tracked("c/plugin.json")).toBe(true);
    expect(await repo.tracked("d/plugin.json")).toBe(false);
    await expect(repo.changes("no-such-ref")).rejects.toThrow(/no-such-ref/);
  });

  it("reads a file at a ref; none there is undefined, a file too large to read fails", async () => {
    const repo = await repository();
    write("big/plugin.json", Buffer.alloc(1024 * 1024 + 10, 32));
    git("add", ".");
    git("commit", "-q", "-m", "big");
    expect((await repo.show("HEAD", "a/plugin.json", 1000))?.toString()).toBe(
      '{ "name": "a", "version": "1.0" }\n',
    );
    expect(await repo.show("HEAD", "missing/plugin.json", 1000)).toBeUndefined();
    expect(await repo.show("HEAD", "a", 1000)).toBeUndefined(); // a folder there, no file
    expect(await repo.show("HEAD~1", "big/plugin.json", 1000)).toBeUndefined();
    await expect(repo.show("HEAD", "big/plugin.json", 0)).rejects.toThrow(/maxBuffer/);
  });

  it("names commits, and compares a branch with its merge base, else HEAD", async () => {
    const repo = await repository();
    const base = git("rev-parse", "HEAD");
    expect(await repo.commit("main")).toBe(base);
    expect(await repo.commit("no-such-ref")).toBeUndefined();
    git("checkout", "-q", "-b", "topic");
    write("a/plugin.json", "{}\n");
    git("commit", "-q", "-am", "topic");
    // No upstream: HEAD.
    expect(await repo.branchBase()).toBe(git("rev-parse", "HEAD"));
    git("branch", "-q", "--set-upstream-to=main");
    git("checkout", "-q", "main");
    write("b/plugin.json", "{}\n");
    git("commit", "-q", "-am", "main moves on");
    git("checkout", "-q", "topic");
    expect(await repo.branchBase()).toBe(base);
  });

  it("has no base in a repository without commits", async () => {
    git("init", "-q");
    const repo = await GitRepo.find(dir);
    expect(repo?.root).toBe(dir);
    expect(await repo?.branchBase()).toBeUndefined();
  });
});
