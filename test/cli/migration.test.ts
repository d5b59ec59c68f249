/** `check --base <plugin.json> extension.yaml` and `check --base-ref`: the review of a migration, as users run it. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edit, lineOf, MIGRATION, withoutIdle } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-migration-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(rel: string, content: string): string {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  return p;
}

/** The example's extension without the `idle` metric. */
const idleGone = withoutIdle();

interface JsonFinding {
  file: string;
  ruleId: string;
  line: number;
  column: number;
  message: string;
  baseline?: string;
}

describe("plugin-review check --base <plugin.json> extension.yaml", () => {
  it("passes the complete migration of the example", () => {
    const r = cli([
      "check",
      "--base",
      "examples/migration/plugin.json",
      "examples/migration/extension/extension.yaml",
    ]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/✔ 1 descriptor checked: no findings/);
  });

  it("fails on a lost metric, at the extension.yaml line where it should be, naming its plugin.json line", () => {
    const extension = write("a/extension/extension.yaml", idleGone);
    const r = cli(["check", "--base", "examples/migration/plugin.json", extension, "--format", "json"]);
    expect(r.status).toBe(1);
    const findings = JSON.parse(r.stdout) as JsonFinding[];
    expect(findings.map((f) => [f.ruleId, f.line, f.column, f.baseline])).toEqual([
      ["migration-metric-missing", lineOf(idleGone, "metrics:"), 11, "new"],
    ]);
    expect(findings[0]!.message).toContain(
      `EF1 metric \`idle\` (\`examples/migration/plugin.json\` line ${lineOf(MIGRATION.plugin, '"key": "idle"')})`,
    );
  });

  it("an extension.yaml against its own earlier version is an ordinary base: no migration rules", () => {
    const extension = write("b/extension.yaml", idleGone);
    const before = write("b/extension.before.yaml", MIGRATION.extension);
    const r = cli(["check", "--base", before, extension, "--format", "json"]);
    // The change rules compare the two versions (a metric removed without a new version); no migration rule runs.
    expect((JSON.parse(r.stdout) as JsonFinding[]).map((f) => [f.ruleId, f.line])).toEqual([
      ["version-not-bumped", 2],
      ["metric-removed", lineOf(idleGone, "jmx:")],
    ]);
    expect(r.status).toBe(1);
  });

  it("reports YAML that does not parse, with its line and column, and nothing else", () => {
    const extension = write("c/extension.yaml", "name: custom:x\nversion: 1.0.0\njmx:\n\tgroups: []\n");
    const r = cli(["check", "--base", "examples/migration/plugin.json", extension, "--format", "json"]);
    expect(r.status).toBe(1);
    expect((JSON.parse(r.stdout) as JsonFinding[]).map((f) => [f.ruleId, f.line, f.column])).toEqual([
      ["invalid-yaml", 4, 1],
    ]);
  });
});

describe("plugin-review check --base-ref: extension.yaml files paired with the plugin.json the ref holds", () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" }).toString();

  beforeAll(() => {
    repo = join(dir, "repo");
    mkdirSync(repo, { recursive: true });
    git("init", "-q", "-b", "main");
    git("config", "user.email", "t@example.com");
    git("config", "user.name", "t");
    for (const p of ["deleted", "kept", "done"]) {
      mkdirSync(join(repo, p));
      writeFileSync(join(repo, p, "plugin.json"), MIGRATION.plugin);
    }
    git("add", ".");
    git("commit", "-q", "-m", "base");
    // deleted/: the plugin.json deleted, its extension (in extension/) lost a metric.
    git("rm", "-q", "deleted/plugin.json");
    mkdirSync(join(repo, "deleted", "extension"), { recursive: true });
    writeFileSync(join(repo, "deleted", "extension", "extension.yaml"), idleGone);
    // kept/: both files, the extension beside the plugin.json dropped the `pool` dimension.
    writeFileSync(
      join(repo, "kept", "extension.yaml"),
      edit(
        MIGRATION.extension,
        "          dimensions:\n            - key: pool\n              value: property:name\n",
        "",
      ),
    );
    // done/: the complete migration.
    mkdirSync(join(repo, "done", "extension"));
    writeFileSync(join(repo, "done", "extension", "extension.yaml"), MIGRATION.extension);
    // other/: an extension.yaml that replaces nothing the ref holds (an EF2 extension of its own).
    mkdirSync(join(repo, "other"));
    writeFileSync(join(repo, "other", "extension.yaml"), "name: custom:other\nversion: 1.0\n");
    // firebase/: another tool's extension.yaml (Firebase Extensions): not an extension of Dynatrace's.
    mkdirSync(join(repo, "firebase"));
    writeFileSync(
      join(repo, "firebase", "extension.yaml"),
      "name: resize-images\nversion: 0.1\nspecVersion: v1beta\n",
    );
  });

  it("reviews each migration against the plugin.json at the ref, and every other extension on its own", () => {
    const r = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    const findings = JSON.parse(r.stdout) as JsonFinding[];
    expect(findings.map((f) => [f.file, f.ruleId, f.baseline])).toEqual([
      // The three migrations of one plugin are three extensions of one name, checked together.
      ["deleted/extension/extension.yaml", "duplicate-plugin-name", "new"],
      ["deleted/extension/extension.yaml", "migration-metric-missing", "new"],
      ["done/extension/extension.yaml", "duplicate-plugin-name", "new"],
      ["kept/extension.yaml", "duplicate-plugin-name", "new"],
      ["kept/extension.yaml", "migration-dimension-dropped", "new"],
      ["kept/extension.yaml", "migration-dimension-dropped", "new"],
      // An extension of its own, incomplete: no minDynatraceVersion and no author, and `1.0` is YAML's number.
      ["other/extension.yaml", "required-member", "new"],
      ["other/extension.yaml", "required-member", "new"],
      ["other/extension.yaml", "ef2-version-format", "new"],
    ]);
    expect(findings[1]!.message).toMatch(/`main:deleted\/plugin\.json` line \d+, a file this change deletes/);
    expect(findings[4]!.message).toMatch(/`main:kept\/plugin\.json` line \d+\)/);
    expect(r.status).toBe(1);
    // Another tool's file gets no finding; standard error says why it was left out.
    expect(r.stderr.split("\n")).toEqual([
      "plugin-review: 2 descriptors unchanged since main were not checked",
      "plugin-review: firebase/extension.yaml: not an Extensions 2.0 extension (it has no `minDynatraceVersion` and no `custom:` name), so it is not reviewed",
      "",
    ]);
  });

  it("an extension.yaml named on the command line is reviewed as well", () => {
    const r = cli(["check", "--base-ref", "main", "--format", "json", "other/extension.yaml"], repo);
    expect((JSON.parse(r.stdout) as JsonFinding[]).map((f) => f.ruleId)).toEqual([
      "required-member",
      "required-member",
      "ef2-version-format",
    ]);
  });
});
