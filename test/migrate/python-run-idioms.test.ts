/**
 * Migrated EF1 Python plugins written as public plugins are, run on Dynatrace's EF2 Python SDK: what they import
 * and call of the EF1 API beyond the basics must run as it did on the EF1 engine. Each fixture of
 * test/fixtures/ef1-plugins is migrated as the CLI migrates it and run with `python3 -m <module>` (the SDK on
 * PYTHONPATH). Skipped without ../shared's SDK or python3.
 *
 * - rabbitmq-like (in the manner of a public RabbitMQ plugin): the topology builder's `Device` imported for type
 *   hints, events sent on its group through `ExplicitSelector(group.id, EntityType.CUSTOM_DEVICE_GROUP)`, and a
 *   run that reports a value and then raises NothingToReportException ("reports nothing for that run").
 * - host-ports (in the manner of public certificate-check plugins): ruxit.api.snapshot's `get_technologies` and
 *   `parse_port_bindings` of a process group of the snapshot, and an event on its process group instance.
 * - host-activation (in the manner of public web-server plugins): one object per process group instance the
 *   agent activated the plugin for (process type, name pattern), each reading its `associated_entity`, keeping
 *   its own counter and reporting on its instance without naming it.
 * - measurement-objects (in the manner of public plugins that import ruxit.api.data): measurements reported as
 *   `add_absolute_result(PluginMeasurement(…))` and `add_relative_result(PluginMeasurement(…))`, whose counters are
 *   counts under `.count` keys as `relative`'s are.
 * - failover (in the manner of public database plugins that run for months): a group kept from initialize, its
 *   device given its current address and a name that says it every query (a failover moves it), events whose
 *   title is left out, and a configuration that lacks properties plugin.json declares.
 * - script-exit (in the manner of public plugins grown from scripts): a query that calls sys.exit() on an error.
 * - ship-report (in the manner of public training plugins): a group whose name holds quotes, an event on it, a
 *   weather state the API gives that plugin.json does not declare among the metric's states, and a ship whose
 *   address changes (its radio fails over) while its message counter goes on.
 * - optional-fields (in the manner of public plugins that report a cluster API's answer with `.get()`): dimension
 *   values the API leaves out (None) or gives empty, a node without a name, a cluster name left empty in the
 *   configuration, an event property that is None.
 * - process-pids (in the manner of public plugins that report per process): a metric whose dimension is `rx_pid`,
 *   the process id, for the processes of the snapshot's process groups and for one that has ended.
 * - api-session (in the manner of public plugins that hold a session to an API: opened in initialize, closed in
 *   close): the extension stopped (SIGINT, as the EEC stops it) while a query waits for a slow answer; and
 *   stopped twice (Ctrl-C pressed again while the shutdown waits for that query); and stopped again while its
 *   close() waits for a slow logout.
 * - deploy-events (in the manner of Dynatrace's ActiveGate demo plugin and of public certificate-check plugins):
 *   deployment and annotation events reported with the EF1 API's own fields (source, project, version, links,
 *   deployment name; annotation type and source), by keyword and by position.
 * - plugin-selector (in the manner of public Active Directory and network-connection plugins): measurements and an
 *   event reported with `entity_selector=FromPluginSelector()` (EF1's default, named), by keyword and in a
 *   PluginMeasurement.
 * - host-sessions (in the manner of public host session-count and TCP-count plugins): the host's id read from
 *   `self.query_snapshot`, each metric reported on the host with `entity_id=host_id`, and one on a process group.
 * - engine-members (in the manner of Dynatrace's OneAgent plugin demo): `self.get_activation_context()` and
 *   `self.get_monitored_entities(EntityType.PROCESS_GROUP_INSTANCE)`, members of the EF1 engine the layer does not
 *   provide: each run fails with an error that names the call, not an AttributeError, and MIGRATION.md lists both.
 * - storage-disks (in the manner of public storage-array plugins): per-disk measurements of two controllers (custom
 *   devices) split by dimensions plugin.json does not declare, named as the array's API names its fields (`Device`,
 *   `Group`, `State`, `pool` beside the declared `Pool`), whose EF2 keys by the rule are the layer's own.
 * - port-check (in the manner of Dynatrace's ActiveGate third-party synthetic extensions and public database-query
 *   and certificate-check plugins): `self.activation.endpoint_name` and `self.activation.entity_id` name the group,
 *   a state file, a test id and a device; `self.plugin_info.name` a link; with one endpoint and with two.
 * - host-events (in the manner of public file-change and process-alarm host plugins): events raised on the host with
 *   `entity_selector=HostSelector()` and with `entity_id=` of the query snapshot's host_id, one on the plugin's own
 *   process group instance, and a metric on the host.
 * - unused-engine-import (in the manner of public ActiveGate certificate-check and license plugins): a plugin that
 *   imports the EF1 engine's `ruxit.select_plugins` (`BaseActivationContext`, `selectors`) without using it, and
 *   catches what making a BaseActivationContext raises.
 * - snmp-poller (in the manner of public SNMP ActiveGate plugins): their template's whole import block (ruxit.api.events'
 *   `Event` and `EventMetadata`, ruxit.api.data's `PluginProperty` and `MEAttribute`, unused), the configuration read
 *   from `kwargs["config"]`, a module logger whose level a `debug` property sets, a device made with `create_element`,
 *   gauges and counters reported in loops (keys computed), and `report_resource_contention_event`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, describeUnless } from "../helpers.js";
import { byRun, cannotRun, migrateInto, pooled, runProject, type RunResult } from "./python-sdk.js";

const FIXTURES = join(ROOT, "test", "fixtures", "ef1-plugins");

/** OneAgent's snapshot of a host with one process group, which listens on two addresses. */
const SNAPSHOT = {
  host_id: "0x0123456789ABCDEF",
  entries: [
    {
      group_id: "0xAAAAAAAAAAAAAAAA",
      node_id: "0x0",
      group_instance_id: "0x5A1B2C3D4E5F6071",
      process_type: "29",
      group_name: "demo_app",
      processes: [
        {
          pid: "4242",
          process_name: "python3",
          properties: [{ ListeningPorts: "8080 8443" }, { PortBindings: "127.0.0.1_8080;0.0.0.0_8443" }],
        },
      ],
      properties: [{ Technologies: "PYTHON,FLASK" }],
    },
  ],
};

/** A host with two Python process groups, one process each. */
const PYTHON_SNAPSHOT = {
  host_id: "0x0123456789ABCDEF",
  entries: [
    ["0x5A1B2C3D4E5F6071", "demo_app", "4242"],
    ["0x6B1B2C3D4E5F6072", "worker_app", "5151"],
  ].map(([id, name, pid]) => ({
    group_id: id!.replace(/^0x../, "0xAA"),
    node_id: "0x0",
    group_instance_id: id,
    process_type: "29",
    group_name: name,
    processes: [{ pid, process_name: "python3", properties: [] }],
    properties: [{ Technologies: "PYTHON" }],
  })),
};

/** OneAgent's snapshots with the ids' hex digits in lower case, as the EF2 SDK passes them on as they are. */
const lowerHex = (snapshot: unknown): unknown =>
  JSON.parse(
    JSON.stringify(snapshot).replace(/"0x([0-9A-F]+)"/g, (_, hex: string) => `"0x${hex.toLowerCase()}"`),
  );

/** A host with two nginx process groups the plugin's activation matches, one it does not name, and a JVM. */
const NGINX_SNAPSHOT = {
  host_id: "0x0123456789ABCDEF",
  entries: [
    ["0x1111111111111111", "30", "nginx-front", "0.0.0.0_80;0.0.0.0_443"],
    ["0x2222222222222222", "10", "tomcat", "0.0.0.0_8080"],
    ["0x3333333333333333", "30", "nginx-api", "127.0.0.1_8081"],
    ["0x4444444444444444", "30", "legacy_nginx", "0.0.0.0_8000"],
  ].map(([id, type, name, bindings]) => ({
    group_id: id!.replace(/1|2|3|4/g, "B"),
    node_id: "0x0",
    group_instance_id: id,
    process_type: type,
    group_name: name,
    processes: [{ pid: "100", process_name: "worker", properties: [{ PortBindings: bindings }] }],
    properties: [{ Technologies: type === "30" ? "NGINX" : "JAVA,TOMCAT" }],
  })),
};

interface Case {
  fixture: string;
  /** The run's name, where a fixture runs twice (the fixture's otherwise). */
  name?: string;
  module: string;
  queries: number;
  snapshot?: unknown;
  /** Changes activation.json's endpoint before it runs. */
  endpoint?: (endpoint: Record<string, unknown>) => void;
  /** The endpoints of activation.json, made of its one endpoint. */
  endpoints?: (endpoint: Record<string, unknown>) => Record<string, unknown>[];
  /** Stopped as soon as its output matches, instead of after its queries. */
  stopWhen?: RegExp;
  /** Stopped again this many ms after the first stop. */
  stopAgainAfterMs?: number;
}

const CASES: Case[] = [
  { fixture: "rabbitmq-like", module: "rabbitmq_like_ef2", queries: 4 },
  { fixture: "host-ports", module: "host_ports_ef2", queries: 1 },
  {
    fixture: "host-ports",
    name: "host-ports-lower-hex",
    module: "host_ports_ef2",
    queries: 1,
    snapshot: lowerHex(SNAPSHOT),
  },
  // two plugin objects: each logs its query, so 4 lines are two runs
  { fixture: "host-activation", module: "nginx_stub_ef2", queries: 4, snapshot: NGINX_SNAPSHOT },
  { fixture: "measurement-objects", module: "pool_stats_ef2", queries: 3 },
  {
    fixture: "failover",
    module: "failover_ef2",
    queries: 3,
    // a configuration made before the extension's version declared these properties
    endpoint: (e) => {
      delete e.port;
      delete e.password;
    },
  },
  { fixture: "script-exit", module: "script_exit_ef2", queries: 4 },
  { fixture: "ship-report", module: "ship_report_ef2", queries: 5 },
  { fixture: "optional-fields", module: "optional_fields_ef2", queries: 3 },
  { fixture: "process-pids", module: "process_pids_ef2", queries: 1, snapshot: PYTHON_SNAPSHOT },
  {
    fixture: "process-pids",
    name: "process-pids-lower-hex",
    module: "process_pids_ef2",
    queries: 1,
    snapshot: lowerHex(PYTHON_SNAPSHOT),
  },
  // stopped while its second query waits 1.5 s for the API
  {
    fixture: "api-session",
    module: "api_session_ef2",
    queries: 2,
    stopWhen: /the scheduler's slow call begins/,
  },
  // stopped while its second query waits 3 s for the API, then stopped again while the shutdown waits for it
  {
    fixture: "api-session",
    name: "api-session-stopped-twice",
    module: "api_session_ef2",
    queries: 2,
    endpoint: (e) => {
      e.slow_seconds = 3;
    },
    stopWhen: /the scheduler's slow call begins/,
    stopAgainAfterMs: 500,
  },
  // stopped after its query, then stopped again while its close() waits 4 s for the API's logout
  {
    fixture: "api-session",
    name: "api-session-logout-stopped-again",
    module: "api_session_ef2",
    queries: 1,
    endpoint: (e) => {
      e.logout_seconds = 4;
    },
    stopAgainAfterMs: 700,
  },
  { fixture: "deploy-events", module: "deploy_events_ef2", queries: 1 },
  { fixture: "plugin-selector", module: "plugin_selector_ef2", queries: 2 },
  { fixture: "host-sessions", module: "host_sessions_ef2", queries: 2 },
  { fixture: "engine-members", module: "engine_members_ef2", queries: 2 },
  { fixture: "storage-disks", module: "storage_disks_ef2", queries: 2 },
  { fixture: "port-check", module: "port_check_ef2", queries: 2 },
  { fixture: "host-events", module: "host_events_ef2", queries: 1 },
  { fixture: "unused-engine-import", module: "cert_expiry_ef2", queries: 1 },
  { fixture: "snmp-poller", module: "snmp_poller_ef2", queries: 3 },
  {
    fixture: "port-check",
    name: "port-check-two-endpoints",
    module: "port_check_ef2",
    // two plugin objects: 4 lines are two runs
    queries: 4,
    endpoints: (e) => [e, { ...e, ports: "22" }],
  },
];

let work: string;
const runs = new Map<
  string,
  { dir: string; cli: { status: number; stdout: string; stderr: string }; run: RunResult }
>();

describeUnless(cannotRun)("migrated Python plugins that use the EF1 API as public plugins do", () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "ef1-idioms-"));
    await pooled(CASES, 2, async (c) => {
      const dir = join(work, c.name ?? c.fixture);
      const cli = await migrateInto(join(FIXTURES, c.fixture, "plugin.json"), dir);
      writeFileSync(join(dir, "snapshot.json"), JSON.stringify(c.snapshot ?? SNAPSHOT));
      if (c.endpoint || c.endpoints) {
        const activation = JSON.parse(readFileSync(join(dir, "activation.json"), "utf8")) as {
          pythonRemote: { endpoints: Record<string, unknown>[] };
        };
        if (c.endpoint) activation.pythonRemote.endpoints.forEach(c.endpoint);
        if (c.endpoints)
          activation.pythonRemote.endpoints = c.endpoints(activation.pythonRemote.endpoints[0]!);
        writeFileSync(join(dir, "activation.json"), JSON.stringify(activation));
      }
      const run = await runProject(dir, c.module, {
        queries: c.queries,
        stopWhen: c.stopWhen,
        stopAgainAfterMs: c.stopAgainAfterMs,
      });
      runs.set(c.name ?? c.fixture, { dir, cli, run });
    });
  }, 60_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("rabbitmq-like: ruxit.api.topology_builder imports, so MIGRATION.md does not list it as not carried", () => {
    const { dir, cli, run } = runs.get("rabbitmq-like")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toContain("topology_builder is not part of");
    expect(readFileSync(join(dir, "MIGRATION.md"), "utf8")).not.toContain("ruxit.api.topology_builder");
  });

  it("rabbitmq-like: an event on the plugin's own group (ExplicitSelector of group.id) is sent with the group's dimensions", () => {
    const { run } = runs.get("rabbitmq-like")!;
    expect(run.output).not.toMatch(/AttributeError|NotCarriedToEF2/);
    expect(run.events.slice(0, 3)).toEqual(
      Array.from({ length: 3 }, () => ({
        type: "CUSTOM_INFO",
        title: "RabbitMQ connection issue with one node",
      })),
    );
    expect(run.output).toMatch(
      /Sending DT Event: .*'dt\.event\.description': 'Could not connect to down-node:15672', 'group': 'prod', 'group\.name': 'prod'/,
    );
  });

  it("rabbitmq-like: a run that raises NothingToReportException reports nothing, not what it reported before raising", () => {
    const { run } = runs.get("rabbitmq-like")!;
    const device = {
      virtual_host: "/",
      queue: "orders",
      group: "prod",
      "group.name": "prod",
      device: "RabbitMQ Node node-a:15672",
      "device.name": "RabbitMQ Node node-a:15672",
    };
    const sent = byRun(run.metrics).map((metrics) =>
      metrics.map((m) => ({ key: m.key, type: m.type, value: m.value, dimensions: m.dimensions })),
    );
    const ready = (value: number) => ({
      key: "tech.rabbitmq.like.messages_ready",
      type: "gauge",
      value,
      dimensions: device,
    });
    const published = (value: number) => ({
      key: "tech.rabbitmq.like.messages_publish.count",
      type: "count",
      value,
      dimensions: device,
    });
    // run 3's gauge (30) and event are not sent; run 4 counts from run 2's value
    expect(run.output).toContain("EF1 query 3 of RabbitMQLikeExtension: 0 metrics, 0 events sent");
    expect(sent.slice(0, 3)).toEqual([[ready(10)], [ready(20), published(100)], [ready(40), published(200)]]);
  });

  it("host-ports: an event sent with entity_id= of a process group instance is on that process group instance", () => {
    const { run } = runs.get("host-ports")!;
    expect(run.events).toEqual([{ type: "AVAILABILITY_EVENT", title: "Ports open" }]);
    expect(run.output).toContain(`'entitySelector': 'entityId("PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071")'`);
  });

  it("host-ports: a snapshot's ids in lower-case hex are sent as Dynatrace's entity ids, the event on the instance", () => {
    const { run } = runs.get("host-ports-lower-hex")!;
    expect(run.inTime, run.output).toBe(true);
    const pgi = "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071";
    expect(run.events).toEqual([{ type: "AVAILABILITY_EVENT", title: "Ports open" }]);
    expect(run.output).toContain(`'entitySelector': 'entityId("${pgi}")'`);
    expect(run.metrics.map((m) => m.dimensions["dt.entity.process_group_instance"])).toEqual([pgi, pgi]);
  });

  it("host-ports: get_technologies and parse_port_bindings read the process group of the snapshot", () => {
    const { cli, run } = runs.get("host-ports")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).toContain("bindings of demo_app: [('0.0.0.0', 8443), ('127.0.0.1', 8080)]");
    const pgi = "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071";
    expect(run.metrics.map((m) => ({ key: m.key, value: m.value, dimensions: m.dimensions }))).toEqual(
      ["PYTHON", "FLASK"].map((technology) => ({
        key: "tech.host.ports.listening",
        value: 2,
        dimensions: { technology, "dt.entity.process_group_instance": pgi },
      })),
    );
  });

  it("host-activation: one plugin object per process group instance the activation matches, each its associated_entity", () => {
    const { cli, run } = runs.get("host-activation")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/AttributeError|RuntimeError|failed/);
    const polled = [...run.output.matchAll(/status of (\S+) at (\[[^\]]*\])\/nginx_status/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(new Set(polled)).toEqual(new Set(["nginx-front [80, 443]", "nginx-api [8081]"]));
    const front = "PROCESS_GROUP_INSTANCE-1111111111111111";
    const api = "PROCESS_GROUP_INSTANCE-3333333333333333";
    const sent = run.metrics.map((m) => ({
      key: m.key,
      type: m.type,
      value: m.value,
      pgi: m.dimensions["dt.entity.process_group_instance"],
    }));
    // Each instance reports on its own process group instance, and counts its own requests from run to run.
    expect(sent.filter((m) => m.key.endsWith("listening_ports"))).toEqual(
      expect.arrayContaining([
        { key: "python.nginx.stub.listening_ports", type: "gauge", value: 2, pgi: front },
        { key: "python.nginx.stub.listening_ports", type: "gauge", value: 1, pgi: api },
      ]),
    );
    expect(new Set(sent.filter((m) => m.key.endsWith("listening_ports")).map((m) => m.pgi))).toEqual(
      new Set([front, api]),
    );
    expect(sent.filter((m) => m.type === "count")).toEqual(
      expect.arrayContaining([
        { key: "python.nginx.stub.requests.count", type: "count", value: 200, pgi: front },
        { key: "python.nginx.stub.requests.count", type: "count", value: 100, pgi: api },
      ]),
    );
    expect(
      sent.filter((m) => m.type === "count").every((m) => m.value === (m.pgi === front ? 200 : 100)),
    ).toBe(true);
    // An event the results builder sends is on the instance, as EF1 raised it on the plugin's own entity.
    expect(run.output).toContain(`'entitySelector': 'entityId("${front}")'`);
    expect(run.output).toContain(`'entitySelector': 'entityId("${api}")'`);
  });

  it("measurement-objects: add_relative_result(PluginMeasurement(…)) is a count under its `.count` key, as relative is", () => {
    const { dir, cli, run } = runs.get("measurement-objects")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    const keyMap = JSON.parse(readFileSync(join(dir, "pool_stats_ef2", "metric-keys.json"), "utf8")) as {
      metrics: { ef1: { key: string }; ef2: { key: string; type?: string } }[];
    };
    expect(keyMap.metrics.map((m) => [m.ef1.key, m.ef2.key, m.ef2.type])).toEqual([
      ["connections", "tech.poolstats.connections", "gauge"],
      ["acquired", "tech.poolstats.acquired.count", "count"],
      // reported through a measurement made elsewhere: its key is the code's at run time (MIGRATION.md says so)
      ["timeouts", "tech.poolstats.timeouts", undefined],
    ]);
    expect(readFileSync(join(dir, "MIGRATION.md"), "utf8")).toMatch(
      /`relative` at `pool_stats\.py:22` names its metric at run time/,
    );
    const device = {
      group: "pools",
      "group.name": "Connection pools",
      device: "pool-server",
      "device.name": "Pool server",
    };
    const sent = byRun(run.metrics).map((metrics) =>
      metrics
        .filter((m) => m.key !== "tech.poolstats.timeouts")
        .map((m) => ({ key: m.key, type: m.type, value: m.value, dimensions: m.dimensions })),
    );
    const connections = (pool: string, value: number) => ({
      key: "tech.poolstats.connections",
      type: "gauge",
      value,
      dimensions: { pool, ...device },
    });
    const acquired = (pool: string, value: number) => ({
      key: "tech.poolstats.acquired.count",
      type: "count",
      value,
      dimensions: { pool, ...device },
    });
    expect(sent).toEqual([
      [connections("main", 5), connections("batch", 6)],
      [connections("main", 5), acquired("main", 100), connections("batch", 6), acquired("batch", 200)],
      [connections("main", 5), acquired("main", 100), connections("batch", 6), acquired("batch", 200)],
    ]);
    expect(run.output).not.toContain("relative('acquired') is a counter, but");
  });

  it("failover: a device kept from run to run has each query's endpoints, not every one it was ever given", () => {
    const { cli, run } = runs.get("failover")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    // EF1 sent the topology anew with each query: the address is the one the plugin gave in that query
    const addresses = byRun(run.metrics).map((metrics) => metrics.map((m) => m.dimensions["device.address"]));
    expect(addresses).toEqual([["10.0.0.1:5432"], ["10.0.0.2:5432"], ["10.0.0.1:5432"]]);
    // and what the device holds does not grow with the runs (three calls a query, one address)
    expect(
      [...run.output.matchAll(/run (\d): the primary at \S+, (\d+) endpoints/g)].map((m) => m[2]),
    ).toEqual(["1", "1", "1"]);
  });

  it("failover: a device of a group kept from run to run has the name the plugin gives it in each query", () => {
    const { run } = runs.get("failover")!;
    const names = byRun(run.metrics).map((metrics) => metrics.map((m) => m.dimensions["device.name"]));
    expect(names).toEqual([["Primary on 10.0.0.1"], ["Primary on 10.0.0.2"], ["Primary on 10.0.0.1"]]);
  });

  it("failover: an event without a title (left out, empty, blank) is sent titled by its description or type, once said", () => {
    const { run } = runs.get("failover")!;
    expect(run.events).toEqual([
      { type: "ERROR_EVENT", title: "Replication lag above 10 s" },
      { type: "AVAILABILITY_EVENT", title: "Primary failed over" },
      { type: "CUSTOM_INFO", title: "Custom info" },
    ]);
    expect(run.output).toContain(
      "an EF1 event (ERROR_EVENT) without a title is sent titled 'Replication lag above 10 s': the Events API requires a title",
    );
    expect(run.output).not.toContain("'dt.event.description': ''");
  });

  it("failover: every property plugin.json declares is a key of self.config, its default where the configuration lacks it", () => {
    const { run } = runs.get("failover")!;
    expect(run.output).not.toContain("KeyError");
    expect(run.output).toContain("password given: False, port 5432");
    // the port the endpoint lacks is plugin.json's default (5432), as a number
    expect(run.metrics.map((m) => m.dimensions["device.address"])).toContain("10.0.0.1:5432");
  });

  it("script-exit: a query that calls sys.exit() fails that run, as an exception does; the next runs report", () => {
    const { cli, run } = runs.get("script-exit")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(byRun(run.metrics).map((metrics) => metrics.map((m) => [m.key, m.value]))).toEqual([
      [["tech.script.exit.up", 1]],
      [["tech.script.exit.up", 3]],
      [["tech.script.exit.up", 4]],
    ]);
    expect(run.output).toContain(
      "EF1 status of ScriptExitPlugin: GENERIC_ERROR: SystemExit: cannot reach db.example",
    );
    expect(run.output).toContain("EF1 status of ScriptExitPlugin: OK");
  });

  it("ship-report: a group's name with quotes is sent as it is in an event's properties, escaped once in metric lines", () => {
    const { cli, run } = runs.get("ship-report")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.events).toEqual([{ type: "PERFORMANCE_EVENT", title: "Low fuel" }]);
    // the Events API takes JSON: the quotes are the name's, not a MINT escape of them
    expect(run.output).toContain(
      `'dt.event.description': 'lab "north" ship 0 is low on fuel', 'group': 'lab "north"', 'group.name': 'lab "north"'}`,
    );
    expect(run.output).not.toMatch(/Sending DT Event: .*\\\\/);
    // a metric line escapes each quote once: read back, the dimensions are the names
    const fuel = run.metrics.find((m) => m.key === "tech.ship.report.fuel");
    expect(fuel?.dimensions).toEqual({
      group: 'lab "north"',
      "group.name": 'lab "north"',
      device: "ship-0",
      "device.name": 'lab "north" ship 0',
      "device.address": "10.1.0.1:7000",
    });
    expect(run.metrics.find((m) => m.key === "tech.ship.report.thrust")?.dimensions.engine).toBe('port "A"');
  });

  it("ship-report: a state plugin.json does not declare for the metric is not sent, as on EF1, and said once", () => {
    const { run } = runs.get("ship-report")!;
    const states = byRun(run.metrics).map((metrics) =>
      metrics.filter((m) => m.key === "tech.ship.report.weather").map((m) => [m.dimensions.state, m.value]),
    );
    // the plugin reports Fair, Foggy, Stormy, Cloudy, Fair; Foggy is not among plugin.json's states
    expect(states).toEqual([[["Fair", 1]], [], [["Stormy", 1]], [["Cloudy", 1]], [["Fair", 1]]]);
    expect(run.output).toContain(
      "state_metric('weather', 'Foggy') is not sent: plugin.json declares its states as Fair, Cloudy, Stormy",
    );
    expect(run.output.match(/state_metric\('weather'/g)).toHaveLength(1);
  });

  it("ship-report: a counter of a device whose address changes goes on counting, as EF1 kept it by device", () => {
    const { run } = runs.get("ship-report")!;
    const counted = byRun(run.metrics).map((metrics) =>
      metrics
        .filter((m) => m.key === "tech.ship.report.messages.count")
        .map((m) => [m.dimensions["device.address"], m.type, m.value]),
    );
    // 10 messages a run; the radio's address changes at the third run, the ship's counter does not start over
    expect(counted).toEqual([
      [],
      [["10.1.0.1:7000", "count", 10]],
      [["10.1.0.2:7000", "count", 10]],
      [["10.1.0.2:7000", "count", 10]],
      [["10.1.0.2:7000", "count", 10]],
    ]);
  });

  it("optional-fields: a dimension whose value is None or empty is left out of the line, not sent as 'None'", () => {
    const { cli, run } = runs.get("optional-fields")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    const dimensions = (key: string) =>
      byRun(run.metrics).map((metrics) =>
        metrics
          .filter((m) => m.key === key)
          .map((m) => [m.dimensions.device, m.dimensions.rack, m.dimensions.zone]),
      );
    // EF1 sent each measurement with the dimensions it had; MINT has no value for None or "": the data point keeps
    // its place, the dimension is left out (Dynatrace shows it as null when split by it)
    expect(dimensions("tech.optional.fields.latency")).toEqual([
      [
        ["node-1", undefined, "eu-1"],
        ["node-2", undefined, undefined],
      ],
      [
        ["node-1", undefined, "eu-1"],
        ["node-2", undefined, undefined],
      ],
      [
        ["node-1", undefined, "eu-1"],
        ["node-2", undefined, undefined],
      ],
    ]);
    expect(run.output).not.toMatch(/send_metric: .*="(None)?"/);
    for (const name of ["Rack", "Zone"])
      expect(run.output.split(`metric 'latency' is sent without its dimension '${name}' where`)).toHaveLength(
        2,
      );
  });

  it("optional-fields: a counter whose dimension is None counts on, one series per device", () => {
    const { run } = runs.get("optional-fields")!;
    const counted = byRun(run.metrics).map((metrics) =>
      metrics
        .filter((m) => m.key === "tech.optional.fields.requests.count")
        .map((m) => [m.dimensions.device, m.type, m.value]),
    );
    expect(counted).toEqual([
      [],
      [
        ["node-1", "count", 100],
        ["node-2", "count", 50],
      ],
      [
        ["node-1", "count", 100],
        ["node-2", "count", 50],
      ],
    ]);
  });

  it("optional-fields: a group or device given an empty name is named by its identifier, as one given none", () => {
    const { run } = runs.get("optional-fields")!;
    const names = run.metrics
      .filter((m) => m.key === "tech.optional.fields.latency")
      .slice(0, 2)
      .map((m) => [m.dimensions["group.name"], m.dimensions["device.name"]]);
    expect(names).toEqual([
      ["http://kafka.example:9092", "node-1"],
      ["http://kafka.example:9092", "broker two"],
    ]);
    // an event's property that is None is left out, as a metric's dimension is
    expect(run.events).toEqual([{ type: "CUSTOM_INFO", title: "Cluster seen" }]);
    expect(run.output).toContain(
      "'zone': 'eu-1', 'dt.event.description': 'cluster seen', 'group': 'http://kafka.example:9092', 'group.name': 'http://kafka.example:9092'}",
    );
    expect(run.output).not.toContain("'rack': 'None'");
  });

  it("process-pids: an rx_pid is sent as the process group instance that runs that process, not as a pid", () => {
    const { cli, run } = runs.get("process-pids")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    // EF2's dt.entity.process_group_instance takes an entity id: a pid there names no entity
    expect(
      run.metrics.filter((m) => m.key === "tech.process.pids.memory").map((m) => [m.dimensions, m.value]),
    ).toEqual([
      [{ "dt.entity.process_group_instance": "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071" }, 5242],
      [{ "dt.entity.process_group_instance": "PROCESS_GROUP_INSTANCE-6B1B2C3D4E5F6072" }, 6151],
    ]);
    // a process no process group instance runs (it ended) has no entity to be on: not sent, as said once
    expect(run.output).toContain(
      "metric 'memory' of process '31337' (rx_pid) is not sent: no process group instance of OneAgent's snapshot runs that process",
    );
  });

  it("process-pids: a snapshot's ids in lower-case hex: an rx_pid is sent as Dynatrace's id of its instance", () => {
    const { run } = runs.get("process-pids-lower-hex")!;
    expect(run.inTime, run.output).toBe(true);
    expect(
      run.metrics.filter((m) => m.key === "tech.process.pids.memory").map((m) => [m.dimensions, m.value]),
    ).toEqual([
      [{ "dt.entity.process_group_instance": "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071" }, 5242],
      [{ "dt.entity.process_group_instance": "PROCESS_GROUP_INSTANCE-6B1B2C3D4E5F6072" }, 6151],
    ]);
  });

  it("api-session: stopped during a query, close() runs once, after the query, which sends all it reported", () => {
    const { run } = runs.get("api-session")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toContain("EF1 query of ApiSessionPlugin failed");
    const lines = run.output.split("\n");
    const closed = lines.flatMap((l, i) => (l.includes("the scheduler session is closed") ? [i] : []));
    expect(closed, run.output).toHaveLength(1);
    const secondQuery = lines.findIndex((l) => l.includes("EF1 query 2 of ApiSessionPlugin: 2 metrics"));
    expect(secondQuery, run.output).toBeGreaterThan(-1);
    expect(closed[0]).toBeGreaterThan(secondQuery);
    // both runs whole, each under its own timestamp: none sent half, from the shutdown
    expect(byRun(run.metrics).map((metrics) => metrics.map((m) => `${m.key} ${m.value}`).sort())).toEqual([
      ["tech.apisession.jobs_queued 7", "tech.apisession.jobs_running 3"],
      ["tech.apisession.jobs_queued 7", "tech.apisession.jobs_running 3"],
    ]);
    expect(run.output.match(/send_metric: tech\.apisession\./g)).toHaveLength(4);
  });

  it("api-session: stopped again while the shutdown waits for a query, close() runs at once, not never", () => {
    const { run } = runs.get("api-session-stopped-twice")!;
    expect(run.inTime, run.output).toBe(true);
    const lines = run.output.split("\n");
    const closed = lines.flatMap((l, i) => (l.includes("the scheduler session is closed") ? [i] : []));
    expect(closed, run.output).toHaveLength(1);
    // the second stop ends the wait: the session is closed before the slow answer comes, and that query's
    // reports are not sent (said), as when the wait runs out
    const secondDone = lines.findIndex((l) => l.includes("query 2 done"));
    if (secondDone >= 0) expect(closed[0]).toBeLessThan(secondDone);
    expect(run.output).toContain(
      "EF1 query of ApiSessionPlugin still runs at the extension's shutdown (stopped again): close() is called now",
    );
    // the query's own end, its session closed under it, is no error of the plugin's
    expect(run.output).not.toContain("EF1 query of ApiSessionPlugin failed");
    expect(run.output).not.toContain("GENERIC_ERROR");
    expect(run.output).toContain(
      "EF1 query 2 of ApiSessionPlugin ended after close(): RuntimeError: session to",
    );
    expect(byRun(run.metrics).map((metrics) => metrics.map((m) => `${m.key} ${m.value}`).sort())).toEqual([
      ["tech.apisession.jobs_queued 7", "tech.apisession.jobs_running 3"],
    ]);
  });

  it("api-session: stopped again while the plugin's close() runs, the extension exits, and logs no error of close()", () => {
    const { run } = runs.get("api-session-logout-stopped-again")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain("the scheduler logout begins");
    // the second stop ends close() where it was (the SDK exits from its handler): the user's stop, not the plugin's
    // failure, and no traceback
    expect(run.output).not.toContain("the scheduler logout ends");
    expect(run.output).not.toContain("EF1 close of ApiSessionPlugin failed");
    expect(run.output).not.toContain("Traceback");
    expect(run.output).toContain(
      "EF1 close of ApiSessionPlugin stopped: the extension was stopped again while it ran",
    );
    // what the query reported was sent by the second stop's flush
    expect(byRun(run.metrics).map((metrics) => metrics.map((m) => `${m.key} ${m.value}`).sort())).toEqual([
      ["tech.apisession.jobs_queued 7", "tech.apisession.jobs_running 3"],
    ]);
  });

  it("deploy-events: a deployment's and an annotation's EF1 fields are the event's title and properties, not lost", () => {
    const { cli, run } = runs.get("deploy-events")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.events).toEqual([
      { type: "CUSTOM_DEPLOYMENT", title: "Shop 2.4.1" },
      { type: "CUSTOM_DEPLOYMENT", title: "cart 0.9" },
      { type: "CUSTOM_ANNOTATION", title: "Certificate check" },
    ]);
    // the Events API's deployment properties (dt.event.deployment.version is the one release detection needs)
    const group = "'group': 'ci', 'group.name': 'CI', 'device': 'shop', 'device.name': 'Shop service'";
    expect(run.output).toContain(
      "'properties': {'approver': 'ops', 'dt.event.deployment.name': 'Shop 2.4.1', " +
        "'dt.event.deployment.version': '2.4.1', 'dt.event.deployment.project': 'shop', " +
        "'dt.event.deployment.ci_back_link': 'https://ci.example.com/job/shop/17', " +
        "'dt.event.deployment.remediation_action_link': 'https://ci.example.com/job/shop-rollback', " +
        `'source': 'Jenkins', ${group}}`,
    );
    expect(run.output).toContain(
      `'properties': {'dt.event.deployment.version': '0.9', 'dt.event.deployment.project': 'cart', 'source': 'GitLab', ${group}}`,
    );
    expect(run.output).toContain(
      `'properties': {'annotation_type': 'Certificate check', 'source': 'cert-checker', 'dt.event.description': 'Certificate checked', ${group}}`,
    );
    expect(run.output).not.toContain("without a title");
    expect(run.output).not.toContain("not sent");
  });

  it("plugin-selector: what names the plugin's own entity with FromPluginSelector() is sent on it, not an ImportError", () => {
    const { dir, cli, run } = runs.get("plugin-selector")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/ImportError|NotCarriedToEF2|GENERIC_ERROR/);
    const pgi = { "dt.entity.process_group_instance": "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071" };
    expect(
      byRun(run.metrics).map((metrics) =>
        metrics.map((m) => ({ key: m.key, value: m.value, dimensions: m.dimensions })),
      ),
    ).toEqual(
      [1, 2].map((n) => [
        {
          key: "tech.plugin.selector.responseTime",
          value: 0.25 * n,
          dimensions: { domain_controller: "DC01", ...pgi },
        },
        { key: "tech.plugin.selector.network_connection", value: 10 + n, dimensions: pgi },
      ]),
    );
    expect(run.events).toEqual([
      { type: "ERROR_EVENT", title: "Slow directory" },
      { type: "ERROR_EVENT", title: "Slow directory" },
    ]);
    expect(run.output).toContain(`'entitySelector': 'entityId("PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071")'`);
    // the default entity, named, is nothing MIGRATION.md lists as not carried
    expect(readFileSync(join(dir, "MIGRATION.md"), "utf8")).not.toContain("`entity_selector`");
  });

  it("host-sessions: self.query_snapshot's host_id names the host, whose metrics are not sent as a process group instance's", () => {
    const { cli, run } = runs.get("host-sessions")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/AttributeError|GENERIC_ERROR/);
    expect(run.output).toContain("host HOST-0123456789ABCDEF");
    // on the host: a local extension's metric without a process group instance; a process group is no entity
    // EF2 code reports on (the plugin catches what the layer raises, and nothing is sent for it)
    expect(
      byRun(run.metrics).map((metrics) =>
        metrics.map((m) => ({ key: m.key, value: m.value, dimensions: m.dimensions })),
      ),
    ).toEqual(
      [1, 2].map((n) => [
        { key: "tech.host.sessions.sessionCount", value: 12 * n, dimensions: {} },
        { key: "tech.host.sessions.tcpEstablished", value: 14 * n, dimensions: {} },
      ]),
    );
    expect(run.output.match(/not on the process group: NotCarriedToEF2/g)).toHaveLength(2);
  });

  it("host-events: an event raised on the host (HostSelector(), entity_id= of its id) is on the host, not the environment", () => {
    const { cli, run } = runs.get("host-events")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    // each event as the SDK sends it: its title and entity selector (none: the environment entity's)
    const sent = [
      ...run.output.matchAll(/Sending DT Event: \{.*'title': '([^']*)'(?:, 'entitySelector': '([^']*)')?/g),
    ].map((m) => ({ title: m[1], entitySelector: m[2] }));
    expect(sent).toEqual([
      { title: "Alarm process not running", entitySelector: 'entityId("HOST-0123456789ABCDEF")' },
      { title: "Stale files", entitySelector: 'entityId("HOST-0123456789ABCDEF")' },
      { title: "Files checked", entitySelector: 'entityId("PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071")' },
    ]);
    // the host is no process group instance: neither the events' properties nor the metric name one
    expect(run.output).not.toMatch(/'dt\.entity\.process_group_instance': 'HOST-/);
    expect(run.metrics.map((m) => ({ key: m.key, value: m.value, dimensions: m.dimensions }))).toEqual([
      { key: "tech.host.events.stale_files", value: 2, dimensions: {} },
    ]);
  });

  it("unused-engine-import: a plugin that imports ruxit.select_plugins without using it runs and reports, as on EF1", () => {
    const { dir, cli, run } = runs.get("unused-engine-import")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/ModuleNotFoundError|GENERIC_ERROR/);
    const device = (name: string) => ({
      group: "SSL Certificate Hosts",
      "group.name": "SSL Certificate Hosts",
      device: name,
      "device.name": name,
    });
    expect(run.metrics.map((m) => ({ key: m.key, value: m.value, dimensions: m.dimensions }))).toEqual([
      { key: "tech.cert.expiry.days_left", value: 32, dimensions: device("shop.example.com") },
      { key: "tech.cert.expiry.days_left", value: 30, dimensions: device("api.example.com") },
    ]);
    expect(run.events).toEqual([{ type: "ERROR_EVENT", title: "SSL Certificate about to expire" }]);
    // using one of the engine's names raises NotCarriedToEF2, which the plugin catches here
    expect(run.output).toContain("engine activation context: NotCarriedToEF2");
    expect(readFileSync(join(dir, "MIGRATION.md"), "utf8")).toContain(
      "- `cert_expiry.py:10`, `import ruxit.select_plugins`: a module of the EF1 engine: the layer provides its names, so that the import runs, but using one raises NotCarriedToEF2",
    );
  });

  it("snmp-poller: the template's imports run; counters in loops count; a resource contention event is sent", () => {
    const { dir, cli, run } = runs.get("snmp-poller")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/ImportError|ModuleNotFoundError|GENERIC_ERROR|AttributeError/);
    const device = {
      group: "router - Core routers",
      "group.name": "router - Core routers",
      device: "router - 10.0.0.1",
      "device.name": "router - 10.0.0.1",
      "device.address": "10.0.0.1:1161",
    };
    const gauges = [
      {
        key: "tech.snmp.poller.cpu_utilisation",
        type: "gauge",
        value: 97.5,
        dimensions: { index: "1", ...device },
      },
      {
        key: "tech.snmp.poller.memory_utilisation",
        type: "gauge",
        value: 40,
        dimensions: { storage: "RAM", ...device },
      },
    ];
    // the counters' keys are computed (a loop), so they keep their keys, and the layer says so once each
    const counts = [
      {
        key: "tech.snmp.poller.incoming_traffic",
        type: "count",
        value: 1000,
        dimensions: { interface: "eth0", ...device },
      },
      {
        key: "tech.snmp.poller.outgoing_traffic",
        type: "count",
        value: 250,
        dimensions: { interface: "eth0", ...device },
      },
    ];
    expect(
      byRun(run.metrics).map((metrics) =>
        metrics.map((m) => ({ key: m.key, type: m.type, value: m.value, dimensions: m.dimensions })),
      ),
    ).toEqual([gauges, [...gauges, ...counts], [...gauges, ...counts]]);
    expect(
      run.output.split("relative('incoming_traffic') is a counter, but metric-keys.json maps it"),
    ).toHaveLength(2);
    expect(readFileSync(join(dir, "MIGRATION.md"), "utf8")).toMatch(
      /`relative` at `snmp_poller\.py:41` names its metric at run time/,
    );
    expect(run.events).toEqual(
      [1, 2, 3].map(() => ({ type: "RESOURCE_CONTENTION_EVENT", title: "CPU overloaded" })),
    );
    // the module's own logger, at the level its `debug` property set
    expect(run.output).toMatch(/\[DEBUG\] snmp_poller \(.*\): polled router - 10\.0\.0\.1 \(3\)/);
  });

  it("engine-members: the EF1 engine's get_activation_context and get_monitored_entities fail the run saying so, not AttributeError", () => {
    const { dir, cli, run } = runs.get("engine-members")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toContain("AttributeError");
    // run 1 stops at the activation context, run 2 at the monitored entities: each names the call and MIGRATION.md
    const context =
      "GENERIC_ERROR: NotCarriedToEF2: get_activation_context cannot run on Extensions 2.0: the compatibility layer does not provide this member of the EF1 engine (MIGRATION.md lists its calls). Read what the plugin needs from self.config or self.associated_entity";
    const entities =
      "GENERIC_ERROR: NotCarriedToEF2: get_monitored_entities cannot run on Extensions 2.0: the compatibility layer does not provide this member of the EF1 engine (MIGRATION.md lists its calls). Report with self.results_builder";
    expect(run.output).toContain(context);
    expect(run.output).toContain(entities);
    expect(run.output.indexOf(context)).toBeLessThan(run.output.indexOf(entities));
    // a failed run sends nothing, not even the `up` it reported before the call
    expect(run.metrics).toEqual([]);
    const md = readFileSync(join(dir, "MIGRATION.md"), "utf8");
    expect(md).toContain(
      "- `engine_members.py:16`, `get_activation_context`: a member of the EF1 engine the layer does not provide: calling it raises NotCarriedToEF2",
    );
    expect(md).toContain(
      "- `engine_members.py:17`, `get_monitored_entities`: a member of the EF1 engine the layer does not provide: calling it raises NotCarriedToEF2",
    );
  });

  it("engine-members: a plugin whose only losses are calls of its code, which send nothing on EF2, is counted partly converted, not converted", () => {
    const { dir, cli, run } = runs.get("engine-members")!;
    // plugin.json is carried over whole, yet the migrated extension sends nothing (previous test)
    expect(run.metrics).toEqual([]);
    expect(cli.stdout.replace(/\s+/g, " ")).toContain(
      "MIGRATION.md: 2 not carried over (2 of them in the code), 2 changed in meaning, 1 to do by hand",
    );
    expect(cli.stdout.replace(/\s+/g, " ")).toContain("✔ 1 descriptor: 0 converted, 1 partly");
    const md = readFileSync(join(dir, "MIGRATION.md"), "utf8");
    expect(md).not.toContain("Everything is carried over.");
    expect(md).toContain(
      "## Not carried over\n\nEverything of plugin.json is carried over, but 2 calls of the plugin's code are not: see [Not carried over from the code](#not-carried-over-from-the-code).\n",
    );
    expect(md).toContain("\n### Not carried over from the code\n");
  });

  it("storage-disks: undeclared dimensions whose keys are the device's, the group's or the state's do not take their place", () => {
    const { cli, run } = runs.get("storage-disks")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    const controller = (c: number) => ({
      group: "array-1",
      "group.name": "Array array-1",
      device: `array-1/ctrl-${"ab"[c]}`,
      "device.name": `Controller ctrl-${"ab"[c]}`,
    });
    const [first, second] = byRun(run.metrics);
    // each controller's disk sda counts on its own: 100 reads a run on ctrl-a, 200 on ctrl-b
    expect(
      second!.filter((m) => m.key.endsWith(".disk_reads.count")).map((m) => [m.dimensions, m.type, m.value]),
    ).toEqual(
      [0, 1].flatMap((c) =>
        ["sda", "sdb"].map((disk) => [
          { device_2: `/dev/${disk}`, group_2: `raid-${c}`, ...controller(c) },
          "count",
          100 * (c + 1),
        ]),
      ),
    );
    expect(first!.filter((m) => m.key.endsWith(".disk_state")).map((m) => [m.dimensions, m.value])).toEqual(
      [0, 1].flatMap((c) =>
        ["sda", "sdb"].map((disk) => [
          { device_2: `/dev/${disk}`, state_2: "spun-up", ...controller(c), state: "online" },
          1,
        ]),
      ),
    );
    expect(first!.filter((m) => m.key.endsWith(".pool_used")).map((m) => [m.dimensions, m.value])).toEqual([
      [{ pool: "p1", pool_2: "fast", ...controller(0) }, 40],
      [{ pool: "p1", pool_2: "fast", ...controller(1) }, 41],
    ]);
    // a key that is not the rule's, which extension.yaml does not list, is said once per metric and dimension
    const renamed = [...run.output.matchAll(/metric '(\w+)' is sent with its dimension '(\w+)' as (\w+):/g)];
    expect(renamed.map((m) => m.slice(1).join(" ")).sort()).toEqual([
      "disk_reads Device device_2",
      "disk_reads Group group_2",
      "disk_state Device device_2",
      "disk_state State state_2",
      "pool_used pool pool_2",
    ]);
  });

  it("port-check: self.activation names the endpoint (the monitoring configuration's description) and gives its id", () => {
    const { cli, run } = runs.get("port-check")!;
    expect(cli.status, cli.stderr).toBe(0);
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/AttributeError|failed/);
    const name = "custom:tech.port.check (a local run)";
    const id = /test (\d+)80,443 edited/.exec(run.output)?.[1];
    expect(id, run.output).toBeDefined();
    expect(run.output).toContain(`state file of endpoint '${name}': `);
    expect(run.output).toContain(`.dt`);
    // plugin_info.name is plugin.json's name; the id digits, the same in every run
    expect(
      run.output.match(
        /edited at #settings\/customextension;id=custom\.remote\.python\.port_check, device CUSTOM_DEVICE-[0-9A-F]+/g,
      ),
    ).toHaveLength(2);
    expect(
      byRun(run.metrics).map((metrics) =>
        metrics.map((m) => [m.dimensions.port, m.dimensions.group, m.dimensions.device]),
      ),
    ).toEqual(
      Array.from({ length: 2 }, () => ["80", "443"].map((port) => [port, name, `Statistics (${id})`])),
    );
  });

  it("port-check: each endpoint of a monitoring configuration has its own name and id, as each was its own on EF1", () => {
    const { run } = runs.get("port-check-two-endpoints")!;
    expect(run.inTime, run.output).toBe(true);
    expect(run.output).not.toMatch(/AttributeError|failed/);
    const ids = ["80,443", "22"].map(
      (ports) => new RegExp(`test (\\d+)${ports} edited`).exec(run.output)?.[1],
    );
    expect(ids.every((id) => id !== undefined) && ids[0] !== ids[1], run.output).toBe(true);
    const names = [1, 2].map((n) => `custom:tech.port.check (a local run) (endpoint ${n})`);
    const [first] = byRun(run.metrics);
    expect(
      new Set(first!.map((m) => `${m.dimensions.port} ${m.dimensions.group} ${m.dimensions.device}`)),
    ).toEqual(
      new Set([
        `80 ${names[0]} Statistics (${ids[0]})`,
        `443 ${names[0]} Statistics (${ids[0]})`,
        `22 ${names[1]} Statistics (${ids[1]})`,
      ]),
    );
  });
});
