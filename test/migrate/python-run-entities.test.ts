/**
 * The entities a migrated EF1 Python plugin names for what it reports, run on Dynatrace's EF2 Python SDK. Each
 * fixture of test/fixtures/ef1-plugins is migrated as the CLI migrates it and run with `python3 -m <module>` (the
 * SDK on PYTHONPATH). Skipped without ../shared's SDK or python3.
 *
 * - entity-ids: ids passed to `entity_id=` (and explicit selectors): EF1 took an id as a number, and plugins pass
 *   ids on as text too (decimal digits, `0x` hex), which name the same entity; a remote plugin's
 *   `self.activation.entity_id` names its own entity, where its results builder reports without naming one.
 * - listen-ports: `ListenPortSelector(port_number=…)` names the process group instance whose process listens on
 *   the port, as OneAgent's snapshot says; without ports configured, the plugin reads those of the snapshot's
 *   processes from their EF1 properties (`process.properties.get("ListeningPorts")`).
 * - gpu-processes: `find_all_processes(lambda process: …)`, a selector of processes, gives (process group instance,
 *   process) pairs, as EF1 gave them; a process group instance's id is a number, as on EF1 (`f"{id:02x}"`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, describeUnless } from "../helpers.js";
import { byRun, cannotRun, migrateInto, pooled, runProject, type RunResult } from "./python-sdk.js";

const FIXTURES = join(ROOT, "test", "fixtures", "ef1-plugins");

/**
 * A host with two Python process groups: one listens on 8443 (a port binding too), and runs a shell beside its
 * Python process; the other listens on 9443.
 */
const SNAPSHOT = {
  host_id: "0x0123456789ABCDEF",
  entries: [
    ["0x5A1B2C3D4E5F6071", "demo_app", "4242", "8443", "0.0.0.0_8443"],
    ["0x6b1b2c3d4e5f6072", "worker_app", "5151", "9443", undefined],
  ].map(([id, name, pid, ports, bindings]) => ({
    group_id: id!.replace(/^0x../, "0xAA"),
    node_id: "0x0",
    group_instance_id: id,
    process_type: "29",
    group_name: name,
    processes: [
      {
        pid,
        process_name: "python3",
        properties: [{ ListeningPorts: ports }, ...(bindings ? [{ PortBindings: bindings }] : [])],
      },
      ...(name === "demo_app" ? [{ pid: "4300", process_name: "bash", properties: [] }] : []),
    ],
    properties: [{ Technologies: "PYTHON" }],
  })),
};

interface Case {
  name: string;
  fixture: string;
  module: string;
  queries: number;
  /** Changes activation.json's endpoints before it runs. */
  endpoint?: (endpoint: Record<string, unknown>) => void;
}

const CASES: Case[] = [
  { name: "entity-ids", fixture: "entity-ids", module: "entity_ids_ef2", queries: 2 },
  // a user who names the entity to report on by its host name, which is no entity id
  {
    name: "entity-ids-host-name",
    fixture: "entity-ids",
    module: "entity_ids_ef2",
    queries: 2,
    endpoint: (e) => {
      e.report_on = "db-server-01";
    },
  },
  { name: "listen-ports", fixture: "listen-ports", module: "listen_ports_ef2", queries: 2 },
  // no ports configured: the plugin reads those the snapshot's processes listen on
  {
    name: "listen-ports-discovered",
    fixture: "listen-ports",
    module: "listen_ports_ef2",
    queries: 1,
    endpoint: (e) => {
      e.ports = "";
    },
  },
  { name: "gpu-processes", fixture: "gpu-processes", module: "gpu_processes_ef2", queries: 1 },
];

let work: string;
const runs = new Map<string, RunResult>();

describeUnless(cannotRun)("the entities migrated EF1 plugins name for what they report", () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "ef1-entities-"));
    await pooled(CASES, 2, async (c) => {
      const dir = join(work, c.name);
      const cli = await migrateInto(join(FIXTURES, c.fixture, "plugin.json"), dir);
      expect(cli.status, cli.stderr).toBe(0);
      writeFileSync(join(dir, "snapshot.json"), JSON.stringify(SNAPSHOT));
      if (c.endpoint) {
        const activation = JSON.parse(readFileSync(join(dir, "activation.json"), "utf8")) as {
          pythonRemote?: { endpoints: Record<string, unknown>[] };
          pythonLocal?: { endpoints: Record<string, unknown>[] };
        };
        (activation.pythonRemote ?? activation.pythonLocal)!.endpoints.forEach(c.endpoint);
        writeFileSync(join(dir, "activation.json"), JSON.stringify(activation));
      }
      runs.set(c.name, await runProject(dir, c.module, { queries: c.queries }));
    });
  }, 60_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("entity-ids: an id as decimal or 0x hex text names the entity its number names: the plugin's own, its device or group, a process group instance", () => {
    const run = runs.get("entity-ids")!;
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

  it("entity-ids: a device's counter and event sent with entity_id=self.activation.entity_id are on the plugin's own entity, not a process group instance", () => {
    const run = runs.get("entity-ids")!;
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

  it("entity-ids: text that is no id (a host name) fails the run with NotCarriedToEF2 saying so, not metrics of a made-up process group instance", () => {
    const run = runs.get("entity-ids-host-name")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toContain('dt.entity.process_group_instance="db-server-01"');
    // a failed run reports nothing, as on EF1
    expect(run.metrics).toEqual([]);
    // the extension's status, as the layer logs it (the SDK sends it with its next heartbeat)
    expect(run.output).toContain(
      "EF1 status of EntityIdsPlugin: GENERIC_ERROR: NotCarriedToEF2: relative(entity_id='db-server-01') cannot run on Extensions 2.0: it is no entity id",
    );
  });

  it("listen-ports: what ListenPortSelector(port_number=…) names is on the process group instance that listens on the port", () => {
    const run = runs.get("listen-ports")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/ImportError|GENERIC_ERROR|failed/);
    const instance = (id: string) => ({ "dt.entity.process_group_instance": `PROCESS_GROUP_INSTANCE-${id}` });
    expect(byRun(run.metrics).map((metrics) => metrics.map((m) => [m.key, m.value, m.dimensions]))).toEqual(
      [1, 2].map((n) => [
        [
          "tech.listen.ports.certificate.valid_days",
          443 - n,
          { port: "8443", ...instance("5A1B2C3D4E5F6071") },
        ],
        // a port of the snapshot's process properties (ListeningPorts), not only of its port bindings
        [
          "tech.listen.ports.certificate.valid_days",
          443 - n,
          { port: "9443", ...instance("6B1B2C3D4E5F6072") },
        ],
      ]),
    );
    const events = run.output.split("\n").filter((l) => l.includes("Sending DT Event"));
    expect(events.map((l) => /entitySelector': '([^']*)'/.exec(l)?.[1])).toEqual(
      [1, 2].flatMap(() => [
        'entityId("PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071")',
        'entityId("PROCESS_GROUP_INSTANCE-6B1B2C3D4E5F6072")',
      ]),
    );
    // port 7000: no process listens on it, as on EF1 nothing is sent on it, and the log says so once
    expect(run.output).not.toContain('port="7000"');
    expect(
      run.output.match(/is not sent: no process of OneAgent's snapshot listens on that port/g),
    ).toHaveLength(2);
    expect(run.output).toContain(
      "metric 'certificate.valid_days' of ListenPortSelector(port_number=7000) is not sent",
    );
  });

  it("listen-ports: a snapshot entry's and process's properties are EF1's dicts of the snapshot's keys, read with .get() and []", () => {
    const run = runs.get("listen-ports-discovered")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/AttributeError|GENERIC_ERROR|failed/);
    expect(run.output).toContain("discovered ports [8443, 9443]");
    expect(
      run.metrics.map((m) => [m.dimensions.port, m.dimensions["dt.entity.process_group_instance"]]),
    ).toEqual([
      ["8443", "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071"],
      ["9443", "PROCESS_GROUP_INSTANCE-6B1B2C3D4E5F6072"],
    ]);
  });

  it("gpu-processes: find_all_processes(lambda process: …) selects processes and gives (process group instance, process) pairs, as on EF1", () => {
    const run = runs.get("gpu-processes")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/AttributeError|TypeError|GENERIC_ERROR|failed/);
    // the shell of demo_app is not a python3 process: the selector is called with each process, not each group
    expect(run.output.match(/python3 \(pid: \d+\) from \w+ process group\S*/g)).toEqual([
      "python3 (pid: 4242) from demo_app process group(PGIID=5a1b2c3d4e5f6071,",
      "python3 (pid: 5151) from worker_app process group(PGIID=6b1b2c3d4e5f6072,",
    ]);
    expect(run.output).toContain("java process: None");
    expect(run.metrics.map((m) => [m.key, m.value, m.dimensions])).toEqual([
      [
        "tech.gpu.processes.gpu.memory",
        4242,
        { "dt.entity.process_group_instance": "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071" },
      ],
      [
        "tech.gpu.processes.gpu.memory",
        5151,
        { "dt.entity.process_group_instance": "PROCESS_GROUP_INSTANCE-6B1B2C3D4E5F6072" },
      ],
    ]);
  });
});
