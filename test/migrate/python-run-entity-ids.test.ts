/**
 * Entity ids a migrated EF1 Python plugin passes to `entity_id=` (and explicit selectors), run on Dynatrace's EF2
 * Python SDK: EF1 took an id as a number, and plugins pass ids on as text too (decimal digits, `0x` hex), which
 * name the same entity; a remote plugin's `self.activation.entity_id` names its own entity, where its results
 * builder reports without naming one. test/fixtures/ef1-plugins/entity-ids is migrated as the CLI migrates it and
 * run with `python3 -m <module>` (the SDK on PYTHONPATH). Skipped without ../shared's SDK or python3.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, describeUnless } from "../helpers.js";
import { byRun, cannotRun, migrateInto, pooled, runProject, type RunResult } from "./python-sdk.js";

const FIXTURE = join(ROOT, "test", "fixtures", "ef1-plugins", "entity-ids", "plugin.json");

interface Case {
  name: string;
  queries: number;
  /** The endpoint's `report_on` (the entity the plugin's counter is reported on), empty: its own. */
  reportOn: string;
}

const CASES: Case[] = [
  { name: "own", queries: 2, reportOn: "" },
  // a user who names the entity by its host name, which is no entity id
  { name: "host-name", queries: 2, reportOn: "db-server-01" },
];

let work: string;
const runs = new Map<string, RunResult>();

describeUnless(cannotRun)("entity ids a migrated EF1 plugin passes as numbers and as text", () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "ef1-entity-ids-"));
    await pooled(CASES, 2, async (c) => {
      const dir = join(work, c.name);
      const cli = await migrateInto(FIXTURE, dir);
      expect(cli.status, cli.stderr).toBe(0);
      const activation = JSON.parse(readFileSync(join(dir, "activation.json"), "utf8")) as {
        pythonRemote: { endpoints: Record<string, unknown>[] };
      };
      for (const endpoint of activation.pythonRemote.endpoints) endpoint.report_on = c.reportOn;
      writeFileSync(join(dir, "activation.json"), JSON.stringify(activation));
      runs.set(c.name, await runProject(dir, "entity_ids_ef2", { queries: c.queries }));
    });
  }, 60_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("an id as decimal or 0x hex text names the entity its number names: the plugin's own, its device or group, a process group instance", () => {
    const run = runs.get("own")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/GENERIC_ERROR|failed/);
    const node = { group: "cluster-a", "group.name": "Cluster A", device: "node-1", "device.name": "Node 1" };
    const instance = { "dt.entity.process_group_instance": "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071" };
    expect(
      byRun(run.metrics).map((metrics) =>
        metrics
          .filter((m) => m.key === "tech.entity.ids.requests")
          .map((m) => {
            const { case: name, ...rest } = m.dimensions;
            return [name, m.value, rest];
          }),
      ),
    ).toEqual(
      [1, 2].map((n) => [
        // self.activation.entity_id, as text and as the number: the plugin's own entity, as with no entity_id=
        ["own", n, {}],
        ["own-number", n, {}],
        ["node", n, node],
        ["node-hex", n, node],
        ["node-dt", n, node],
        ["group", n, { group: "cluster-a", "group.name": "Cluster A" }],
        ["instance", n, instance],
        ["instance-hex", n, instance],
        ["instance-number", n, instance],
        ["node-selector", n, node],
      ]),
    );
  });

  it("a device's counter and event sent with entity_id=self.activation.entity_id are on the plugin's own entity, not a process group instance", () => {
    const run = runs.get("own")!;
    expect(run.inTime, run.output).toBe(true);
    expect(
      run.metrics
        .filter((m) => m.key === "tech.entity.ids.errors.count")
        .map((m) => [m.type, m.value, m.dimensions]),
    ).toEqual([["count", 10, {}]]);
    const events = run.output.split("\n").filter((l) => l.includes("Sending DT Event"));
    expect(events).toHaveLength(2);
    for (const line of events) {
      expect(line).toContain("'title': 'Poll'");
      expect(line).not.toContain("dt.entity.process_group_instance");
    }
  });

  it("text that is no id (a host name) fails the run with NotCarriedToEF2 saying so, not metrics of a made-up process group instance", () => {
    const run = runs.get("host-name")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toContain('dt.entity.process_group_instance="db-server-01"');
    // a failed run reports nothing, as on EF1
    expect(run.metrics).toEqual([]);
    // the extension's status, as the layer logs it (the SDK sends it with its next heartbeat)
    expect(run.output).toContain(
      "EF1 status of EntityIdsPlugin: GENERIC_ERROR: NotCarriedToEF2: relative(entity_id='db-server-01') cannot run on Extensions 2.0: it is no entity id",
    );
  });
});
