/**
 * A fleet's collision resolved (src/migrate/fleet.ts) gives Python plugins that run as migrated: two copies of
 * test/fixtures/ef1-plugins/host-counters under two EF1 names and one `metricGroup` are migrated in one run as
 * the CLI migrates them, each named from its EF1 `name`; each project, run with Dynatrace's EF2 Python SDK,
 * sends its metrics under the keys of its own name, every one declared in its extension.yaml, none in both.
 * Skipped without ../shared's SDK or python3.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { parse } from "yaml";
import { runMigrate } from "../../src/cli/migrate.js";
import { describeUnless, ROOT } from "../helpers.js";
import { cannotRun, RECORD, runProject } from "./python-sdk.js";

let work: string | undefined;
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describeUnless(cannotRun)("a fleet's renamed Python plugins on the EF2 SDK", () => {
  it("each runs, sending the keys of the name it got, all declared, none shared", async () => {
    work = mkdtempSync(join(tmpdir(), "fleet-run-"));
    for (const copy of ["one", "two"]) {
      cpSync(join(ROOT, "test/fixtures/ef1-plugins/host-counters"), join(work, "in", copy), {
        recursive: true,
      });
      const path = join(work, "in", copy, "plugin.json");
      const doc = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
      writeFileSync(
        path,
        JSON.stringify({
          ...doc,
          name: `custom.python.host_counters_${copy}`,
          metricGroup: "tech.extension",
        }),
      );
    }
    let stderr = "";
    const status = await runMigrate(
      { files: ["in"], out: "out", format: "text" },
      { cwd: work, stdout: () => {}, stderr: (s) => (stderr += s) },
    );
    expect(status).toBe(1);
    expect(stderr).toContain("1 name collision resolved");

    const sent: string[][] = [];
    for (const copy of ["one", "two"]) {
      const dir = join(work, "out", `python.host.counters.${copy}`);
      copyFileSync(join(RECORD, "snapshot.json"), join(dir, "snapshot.json"));
      const run = await runProject(dir, "host_counters_ef2", { queries: 2 });
      expect(run.inTime, run.output).toBe(true);
      const extension = parse(readFileSync(join(dir, "extension/extension.yaml"), "utf8")) as {
        name: string;
        metrics: { key: string }[];
      };
      expect(extension.name).toBe(`custom:python.host.counters.${copy}`);
      const declared = new Set(extension.metrics.map((m) => m.key));
      const keys = [...new Set(run.metrics.map((m) => m.key))].sort();
      expect(keys).toEqual([
        `python.host.counters.${copy}.errors.count`,
        `python.host.counters.${copy}.messages_count`,
        `python.host.counters.${copy}.queue_depth`,
        `python.host.counters.${copy}.throughput`,
      ]);
      for (const k of keys) expect(declared.has(k), k).toBe(true);
      sent.push(keys);
    }
    expect(sent[0]!.filter((k) => sent[1]!.includes(k))).toEqual([]);
  }, 60_000);

  it("a plugin folder holding a named pipe: named in MIGRATION.md, never opened; the fleet goes on and the project runs", async () => {
    const fleet = mkdtempSync(join(tmpdir(), "fleet-pipe-"));
    try {
      cpSync(join(ROOT, "test/fixtures/ef1-plugins/host-counters"), join(fleet, "in", "counters"), {
        recursive: true,
      });
      cpSync(join(ROOT, "examples/jmx-valid"), join(fleet, "in", "pool"), { recursive: true });
      // a pipe the plugin's running process left (nobody writes to it: opening it would wait forever)
      spawnSync("mkfifo", [join(fleet, "in", "counters", "control.fifo")]);
      let stdout = "";
      const status = await runMigrate(
        { files: ["in"], out: "out", format: "text" },
        { cwd: fleet, stdout: (s) => (stdout += s), stderr: () => {} },
      );
      expect(status).toBe(0);
      expect(stdout.replace(/\s+/g, " ")).toContain("2 descriptors: 1 converted, 1 partly");
      const dir = join(fleet, "out", "python.host.counters");
      expect(readFileSync(join(dir, "MIGRATION.md"), "utf8")).toContain(
        "- `control.fifo` was not copied: a named pipe, not a file.",
      );
      copyFileSync(join(RECORD, "snapshot.json"), join(dir, "snapshot.json"));
      const run = await runProject(dir, "host_counters_ef2", { queries: 2 });
      expect(run.inTime, run.output).toBe(true);
      expect([...new Set(run.metrics.map((m) => m.key))].sort()).toEqual([
        "python.host.counters.errors.count",
        "python.host.counters.messages_count",
        "python.host.counters.queue_depth",
        "python.host.counters.throughput",
      ]);
    } finally {
      rmSync(fleet, { recursive: true, force: true });
    }
  }, 60_000);
});
