/**
 * The CLI with a base (interfaces.md): existing findings follow `existing:` as in the App. By default only new findings
 * decide the exit status; JSON carries `baseline`, SARIF `baselineState`, text marks existing findings and prints
 * "N new, M existing".
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { cli, ensureBuilt, findingLines } from "./run.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dir: string;
/** A base with two old mistakes (a dotted metric key, an unknown series member) and a routine edit of it. */
function fixture(): { base: Json; head: Json } {
  const base: Json = validHost();
  base.metrics[1].timeseries.key = "latency.ms";
  base.ui.charts[0].series[0].key = "latency.ms";
  base.ui.charts[0].series[0].colour = "#fff";
  const head: Json = structuredClone(base);
  head.version = "1.2.1";
  head.ui.charts[0].title = "Latency per endpoint";
  return { base, head };
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-baseline-"));
  const { base, head } = fixture();
  writeFileSync(join(dir, "base.json"), text(base));
  writeFileSync(join(dir, "routine.json"), text(head));
  const worse = structuredClone(head);
  worse.metrics[0].timeseries.aggregation = "averge";
  writeFileSync(join(dir, "worse.json"), text(worse));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("plugin-review check --base: new and existing findings", () => {
  it("a routine edit of a descriptor with old mistakes passes; the text marks them and sums up", () => {
    const r = cli(["check", "routine.json", "--base", "base.json"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(findingLines(r.stdout)).toMatch(/^routine\.json:\d+:\d+ +error +invalid-format .*\(existing\)$/m);
    expect(findingLines(r.stdout)).toMatch(
      /^routine\.json:\d+:\d+ +warning +unknown-member .*\(existing\)$/m,
    );
    expect(r.stdout).toMatch(/^0 new, 2 existing$/m);
  });

  it("a new mistake fails (exit 1) and is the only finding not marked existing", () => {
    const r = cli(["check", "worse.json", "--base", "base.json"], dir);
    expect(r.status).toBe(1);
    const unmarked = findingLines(r.stdout)
      .split("\n")
      .filter((l) => /^worse\.json:/.test(l) && !l.endsWith("(existing)"));
    expect(unmarked).toHaveLength(1);
    expect(unmarked[0]).toMatch(/invalid-value/);
    expect(r.stdout).toMatch(/^1 new, 2 existing$/m);
  });

  it("JSON carries baseline only when a base was compared; SARIF carries baselineState", () => {
    const json = JSON.parse(
      cli(["check", "worse.json", "--base", "base.json", "--format", "json"], dir).stdout,
    );
    expect(json.map((f: Json) => [f.ruleId, f.baseline])).toEqual([
      ["invalid-value", "new"],
      ["invalid-format", "existing"],
      ["unknown-member", "existing"],
    ]);
    const plain = JSON.parse(cli(["check", "worse.json", "--format", "json"], dir).stdout);
    expect(plain.every((f: Json) => !("baseline" in f))).toBe(true);
    const sarif = JSON.parse(
      cli(["check", "worse.json", "--base", "base.json", "--format", "sarif"], dir).stdout,
    );
    expect(sarif.runs[0].results.map((r: Json) => [r.ruleId, r.baselineState])).toEqual([
      ["invalid-value", "new"],
      ["invalid-format", "unchanged"],
      ["unknown-member", "unchanged"],
    ]);
  });

  it("github annotations: existing findings are notices that say they predate the change", () => {
    const out = cli(["check", "worse.json", "--base", "base.json", "--format", "github"], dir).stdout;
    expect(out).toMatch(/^::error .*invalid-value\]$/m);
    expect(out).toMatch(/^::notice .*\[invalid-format\] \(existing: predates this change\)$/m);
  });

  it("existing: fail makes old mistakes fail; existing: hide leaves them out", () => {
    writeFileSync(join(dir, "fail.yml"), "existing: fail\n");
    writeFileSync(join(dir, "hide.yml"), "existing: hide\n");
    expect(cli(["check", "routine.json", "--base", "base.json", "--config", "fail.yml"], dir).status).toBe(1);
    const hidden = cli(
      ["check", "worse.json", "--base", "base.json", "--config", "hide.yml", "--format", "json"],
      dir,
    );
    expect(hidden.status).toBe(1);
    expect(JSON.parse(hidden.stdout).map((f: Json) => f.ruleId)).toEqual(["invalid-value"]);
  });

  it("--base-ref: the same semantics over a git work tree; an added descriptor's findings are all new", () => {
    const repo = join(dir, "repo");
    mkdirSync(join(repo, "old"), { recursive: true });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    git("config", "user.email", "t@example.com");
    git("config", "user.name", "t");
    const { base, head } = fixture();
    writeFileSync(join(repo, "old", "plugin.json"), text(base));
    git("add", ".");
    git("commit", "-q", "-m", "base");
    writeFileSync(join(repo, "old", "plugin.json"), text(head));
    const r = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).map((f: Json) => f.baseline)).toEqual(["existing", "existing"]);
    mkdirSync(join(repo, "added"));
    writeFileSync(join(repo, "added", "plugin.json"), text({ ...head, name: "custom.python.added" }));
    const added = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect(added.status).toBe(1);
    const byFile = JSON.parse(added.stdout).filter((f: Json) => f.file === "added/plugin.json");
    expect(byFile.length).toBeGreaterThan(0);
    expect(byFile.every((f: Json) => f.baseline === "new")).toBe(true);
  });
});

describe("examples/existing", () => {
  it("a routine change of a descriptor with two old mistakes passes against its base, and fails alone", () => {
    const head = "examples/existing/plugin.json";
    const r = cli(["check", head, "--base", "examples/existing/plugin.base.json"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^0 new, 2 existing$/m);
    expect(cli(["check", head]).status).toBe(1);
  });
});
