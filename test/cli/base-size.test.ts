/**
 * `check --base-ref` when the descriptor at the ref is over `max_file_size`: a base too large to compare, as the App
 * has it (its size alone), whatever its size: its findings new, the change rules not applied (`base-invalid-json`
 * says so). Before, a base more than a megabyte over the limit failed the run with "unexpected error".
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LIMIT = 5000;
let dir: string;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "pipe" }).toString();

/** The valid example with one metric whose unit does not exist (`invalid-value`), padded to `pad` characters. */
function descriptor(pad: number): string {
  const d: Json = validHost();
  d.metrics.push({ timeseries: { key: "bad", unit: "Secs", displayname: "Bad" } });
  if (pad) d.description = "x".repeat(pad);
  return text(d);
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-base-size-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("plugin-review check --base-ref: a base over max_file_size", () => {
  it.each<[string, number]>([
    ["a byte over", LIMIT + 1],
    ["more than a megabyte over", LIMIT + 1024 * 1024 + 1],
  ])("%s: too large to compare, every finding new (exit 1)", (name, size) => {
    const repo = join(dir, String(size));
    mkdirSync(join(repo, ".github"), { recursive: true });
    git(repo, "init", "-q", "-b", "main");
    git(repo, "config", "user.email", "t@example.com");
    git(repo, "config", "user.name", "t");
    git(repo, "config", "commit.gpgsign", "false");
    writeFileSync(join(repo, ".github", "plugin-review.yml"), `max_file_size: ${LIMIT}\n`);
    const base = descriptor(0);
    writeFileSync(join(repo, "plugin.json"), descriptor(size - base.length + 1));
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    writeFileSync(join(repo, "plugin.json"), base);
    const r = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect(r.stderr).toBe("");
    expect((JSON.parse(r.stdout) as Json[]).map((f) => [f.ruleId, f.baseline])).toEqual([
      ["base-invalid-json", "new"],
      ["invalid-value", "new"],
    ]);
    expect(r.status).toBe(1);
  });
});
