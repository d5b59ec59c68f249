/**
 * A repository like a user's with a nested configuration, for the CLI's and the language server's tests:
 * `g1/sub/.github/plugin-review.yml` ignores `legacy/**`; `sub/legacy` and `sub/current` hold two plugins,
 * committed as BASE, and `link` is a symbolic link to `g1`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { edit, text, validHost } from "../helpers.js";

export const BASE = text(validHost());
/**
 * A change without a version bump and with a misspelt unit: invalid-value and a change rule (a unit that is no
 * unit is invalid-value's alone, not metric-unit-changed's).
 */
export const HEAD = edit(BASE, '"unit": "PerSecond"', '"unit": "PerSecnd"');
/** The same text as another plugin (no duplicate-plugin-name between the two). */
export const renamed = (t: string) => edit(t, '"name": "custom.python.', '"name": "custom.python.legacy_');
/** The findings of HEAD against BASE, in the order they are reported. */
export const CHANGED = ["version-not-bumped", "invalid-value"];

export function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    stdio: "pipe",
  });
}

/** Writes `content` at `rel` below `dir`, making its folders; returns the path. */
export function writeIn(dir: string, rel: string, content: string): string {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  return p;
}

/** Makes `dir/g1` (returned) and `dir/link`; with `changed`, the work tree holds HEAD in both plugins. */
export function nestedRepo(dir: string, changed: boolean): string {
  const repo = join(dir, "g1");
  mkdirSync(repo);
  git(repo, "init", "-q");
  writeIn(repo, "sub/.github/plugin-review.yml", 'ignore:\n  - paths: ["legacy/**"]\n');
  writeIn(repo, "sub/legacy/plugin.json", renamed(BASE));
  writeIn(repo, "sub/current/plugin.json", BASE);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "base");
  if (changed) {
    writeIn(repo, "sub/legacy/plugin.json", renamed(HEAD));
    writeIn(repo, "sub/current/plugin.json", HEAD);
  }
  symlinkSync(repo, join(dir, "link"));
  return repo;
}
