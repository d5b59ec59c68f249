/**
 * Migrated EF1 Python plugins run on Dynatrace's EF2 Python SDK and report the same metrics. Each plugin of
 * test/fixtures/ef1-plugins (written for these tests: remote with groups and devices, host, counters and a reset,
 * rates, states, events, a package, configuration and credential errors, a call EF2 cannot carry) is migrated as
 * the CLI migrates it, its project checked as the SDK's build reads it, and run with `python3 -m <module>` (the
 * SDK on PYTHONPATH). Differential: the recording fake of the EF1 API (test/fixtures/ef1-record) runs the same
 * plugin for the same number of queries; what the EF1 agent would have sent from its calls, under
 * metric-keys.json's keys, equals the SDK's `send_metric` lines, run by run. Skipped without ../shared's SDK or
 * python3. The processes run in parallel (each about two seconds: queries one second apart).
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  type Dirent,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, describeUnless, itUnless } from "../helpers.js";
import {
  RECORD,
  byRun,
  cannotRun,
  expectedFromCalls,
  identity,
  migrateInto,
  pooled,
  queryIntervals,
  record,
  runProject,
  type Expected,
  type Recorded,
  type RunResult,
  type SentMetric,
} from "./python-sdk.js";

const FIXTURES = join(ROOT, "test", "fixtures", "ef1-plugins");
const setuptools = !cannotRun && spawnSync("python3", ["-c", "import setuptools"]).status === 0;

interface Case {
  fixture: string;
  pkg: string;
  className: string;
  module: string;
  queries: number;
  /** The configuration of both runs: activation.json's endpoint as migrate writes it. */
  config: Record<string, unknown>;
  /** The process stops by itself (a configuration it cannot use). */
  exits?: boolean;
  host?: boolean;
  /** Where the plugin is, when not a fixture of its own. */
  from?: string;
  /** Run under this name (the same fixture twice). */
  name?: string;
  /** Changes the project's key map (both copies) before it runs: keys a team chose. */
  keys?: (text: string) => string;
  /** Its values are the machine's, or its configuration not the recorder's (no differential). */
  measured?: boolean;
  /** Changes activation.json before it runs. */
  activation?: (activation: { pythonRemote: { endpoints: Record<string, unknown>[] } }) => void;
}

const CASES: Case[] = [
  {
    fixture: "remote-topology",
    pkg: "topology_demo",
    className: "TopologyDemoPlugin",
    module: "topology_demo_ef2",
    queries: 3,
    config: { site: 'lab "north"', devices: 2, token: "" },
  },
  {
    fixture: "host-counters",
    pkg: "host_counters",
    className: "HostCountersPlugin",
    module: "host_counters_ef2",
    queries: 4,
    config: { queues: "orders,invoices", verbose: false },
    host: true,
  },
  {
    fixture: "auth-error",
    pkg: "auth_error",
    className: "AuthErrorPlugin",
    module: "auth_error_ef2",
    queries: 3,
    config: { user: "monitor", password: "" },
  },
  {
    fixture: "package-plugin",
    pkg: "AtlasLike",
    className: "AtlasLikePlugin",
    module: "atlaslike_ef2",
    queries: 2,
    config: { project: "demo" },
  },
  {
    fixture: "not-carried",
    pkg: "not_carried",
    className: "NotCarriedPlugin",
    module: "not_carried_ef2",
    queries: 3,
    config: {},
  },
  {
    // The key map is the contract: keys a team chose (a prefix of its own, as --key-prefix or a mapping file
    // give) are the keys the extension sends, with nothing else changed.
    name: "remote-topology-team-keys",
    fixture: "remote-topology",
    pkg: "topology_demo",
    className: "TopologyDemoPlugin",
    module: "topology_demo_ef2",
    queries: 2,
    config: { site: 'lab "north"', devices: 2, token: "" },
    keys: (text) => text.replace(/"tech\.topology\.demo\./g, '"acme.topology.'),
  },
  {
    // Two endpoints, one of them misconfigured: the other runs, the first says why it does not.
    name: "remote-topology-two-endpoints",
    fixture: "remote-topology",
    pkg: "topology_demo",
    className: "TopologyDemoPlugin",
    module: "topology_demo_ef2",
    queries: 2,
    config: {},
    measured: true,
    activation: (a) => {
      const [first] = a.pythonRemote.endpoints;
      a.pythonRemote.endpoints = [
        { ...first, site: "" },
        { ...first, site: "south", devices: 1 },
      ];
    },
  },
  {
    from: join(ROOT, "examples", "remote-valid"),
    fixture: "examples-remote-valid",
    pkg: "demo_device",
    className: "DemoDevicePlugin",
    module: "demo_device_ef2",
    queries: 1,
    config: {},
    measured: true,
  },
  {
    fixture: "case-dimensions",
    pkg: "case_dimensions",
    className: "CaseDimensionsPlugin",
    module: "case_dimensions_ef2",
    queries: 2,
    config: { broker: "broker-1" },
  },
  {
    fixture: "config-error",
    pkg: "config_error",
    className: "ConfigErrorPlugin",
    module: "config_error_ef2",
    queries: 1,
    config: { port: "not a port" },
    exits: true,
  },
];

interface Done {
  c: Case;
  dir: string;
  cli: { status: number; stdout: string; stderr: string };
  run: RunResult;
  recorded: Recorded[];
}

let work: string;
const done = new Map<string, Done>();

describeUnless(cannotRun)("migrated Python plugins on the EF2 SDK", () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "ef1-run-"));
    const results = await pooled(CASES, 4, async (c) => {
      const dir = join(work, c.name ?? c.fixture);
      const folder = c.from ?? join(FIXTURES, c.fixture);
      const cli = await migrateInto(join(folder, "plugin.json"), dir);
      if (c.host) copyFileSync(join(RECORD, "snapshot.json"), join(dir, "snapshot.json"));
      if (c.activation) {
        const path = join(dir, "activation.json");
        const activation = JSON.parse(readFileSync(path, "utf8")) as Parameters<
          NonNullable<Case["activation"]>
        >[0];
        c.activation(activation);
        writeFileSync(path, JSON.stringify(activation));
      }
      if (c.keys)
        for (const copy of [join(dir, "metric-keys.json"), join(dir, c.module, "metric-keys.json")])
          writeFileSync(copy, c.keys(readFileSync(copy, "utf8")));
      const [run, recorded] = await Promise.all([
        runProject(dir, c.module, { queries: c.queries, exits: c.exits ?? false }),
        record(folder, c.pkg, c.className, c.config, c.queries, {
          RECORD_SNAPSHOT: join(RECORD, "snapshot.json"),
        }),
      ]);
      return { c, dir, cli, run, recorded };
    });
    for (const r of results) done.set(r.c.name ?? r.c.fixture, r);
  }, 60_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("writes each project as the CLI says, with the module and how to run it", () => {
    for (const { c, cli, dir } of done.values()) {
      expect(cli.status, cli.stderr).toBe(0);
      expect(cli.stdout).toContain(`try it with \`cd ${dir} && python3 -m ${c.module}\``);
      expect(cli.stdout).toMatch(
        new RegExp(`wrote .*/${c.module}/plugin/ \\(\\d+ files: the EF1 plugin's code\\)`),
      );
      expect(cli.stdout).not.toContain("to do: the plugin's code is not in the project");
    }
  });

  it("passes the SDK build's own checks: extension.yaml, activation schema, module folder, setup.py's version", () => {
    const dirs = [...done.values()].map((d) => d.dir);
    const r = spawnSync("python3", [join(RECORD, "precheck.py"), ...dirs], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const checks = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { module: string; version: string; problems: string[] });
    for (const check of checks) expect(check.problems.filter((p) => !p.startsWith("skipped:"))).toEqual([]);
    expect(checks.map((c) => c.module)).toEqual(CASES.map((c) => c.module));
    expect(checks.map((c) => c.version)).toEqual(
      CASES.map(
        (c) =>
          (
            JSON.parse(readFileSync(join(c.from ?? join(FIXTURES, c.fixture), "plugin.json"), "utf8")) as {
              version: string;
            }
          ).version,
      ).map((v) => (v.split(".").length === 2 ? `${v}.0` : v)),
    );
  });

  for (const c of CASES.filter((x) => !x.exits && !x.measured))
    it(`${c.name ?? c.fixture}: the SDK's send_metric lines are what the EF1 calls send, run by run`, () => {
      const d = done.get(c.name ?? c.fixture)!;
      expect(d.run.inTime, d.run.output).toBe(true);
      expect(d.run.queries).toBeGreaterThanOrEqual(c.queries);
      const keyMap = readFileSync(join(d.dir, c.module, "metric-keys.json"), "utf8");
      // The key map the layer reads is the project's, byte for byte.
      expect(keyMap).toBe(readFileSync(join(d.dir, "metric-keys.json"), "utf8"));
      // recorded[i] is query i + 1; the runs that send nothing have no timestamp of their own
      const expected = expectedFromCalls(d.recorded, keyMap)
        .map((run, i) => ({ run, query: i + 1 }))
        .filter(({ run }) => run.length > 0);
      const sent = byRun(d.run.metrics).slice(0, expected.length);
      expect(sent.length, d.run.output).toBe(expected.length);
      expect(expected.length).toBeGreaterThanOrEqual(2);
      const intervals = queryIntervals(d.run.output, c.className);
      sent.forEach((run, i) => compare(run, expected[i]!.run, intervals.get(expected[i]!.query)));
    });

  it("case-dimensions: dimensions whose EF2 keys would be one (`Queue`, `queue`; `Device`, the device; `State`, the state) stay apart", () => {
    const d = done.get("case-dimensions")!;
    expect(d.run.inTime, d.run.output).toBe(true);
    const device = {
      group: "brokers",
      "group.name": "Brokers",
      device: "broker-1",
      "device.name": "broker-1",
    };
    const [first, second] = byRun(d.run.metrics);
    expect(first!.filter((m) => m.key.endsWith(".depth")).map((m) => [m.dimensions, m.value])).toEqual([
      [{ queue: "Orders", queue_2: "q-0", ...device }, 10],
      [{ queue: "Invoices", queue_2: "q-1", ...device }, 11],
    ]);
    expect(second!.filter((m) => m.type === "count").map((m) => [m.dimensions, m.value])).toEqual([
      [{ virtual_host: "/orders", virtual_host_2: "vh-0", ...device }, 100],
      [{ virtual_host: "/invoices", virtual_host_2: "vh-1", ...device }, 200],
    ]);
    // the plugin's own `Device` is not the device the plugin reports on (its id, `device`)
    expect(first!.filter((m) => m.key.endsWith(".connections")).map((m) => [m.dimensions, m.value])).toEqual([
      [{ device_2: "/dev/sda", ...device }, 1],
      [{ device_2: "/dev/sdb", ...device }, 2],
    ]);
    expect(first!.filter((m) => m.key.endsWith(".health")).map((m) => m.dimensions)).toEqual([
      { state_2: "running", ...device, state: "red" },
      { state_2: "running", ...device, state: "green" },
    ]);
    // extension.yaml declares the keys the code sends, and MIGRATION.md says why one is not the rule's
    const yaml = readFileSync(join(d.dir, "extension", "extension.yaml"), "utf8");
    for (const key of [
      "queue",
      "queue_2",
      "virtual_host",
      "virtual_host_2",
      "device",
      "device_2",
      "state",
      "state_2",
    ])
      expect(yaml).toContain(`- key: ${key}\n`);
    const notes = readFileSync(join(d.dir, "MIGRATION.md"), "utf8");
    expect(notes).toContain(
      "dimension `queue` of metric `depth` is `queue_2`: `queue` is another of its dimensions already (EF2 dimension keys are lower case)",
    );
    expect(notes).toContain(
      "dimension `Device` of metric `connections` is `device_2`: `device` is the dimension the plugin's group or device is sent as",
    );
    expect(notes).toContain(
      "dimension `State` of metric `health` is `state_2`: `state` is the dimension its current state is sent in",
    );
  });

  it("remote-topology: counters are counts under `.count` keys, groups and devices dimensions, events sent", () => {
    const d = done.get("remote-topology")!;
    const keys = new Set(d.run.metrics.map((m) => `${m.key} ${m.type}`));
    expect([...keys].sort()).toEqual([
      "tech.topology.demo.bytes_in gauge",
      "tech.topology.demo.devices gauge",
      "tech.topology.demo.health gauge",
      "tech.topology.demo.requests.count count",
      "tech.topology.demo.temperature gauge",
    ]);
    const temperature = d.run.metrics.find((m) => m.key === "tech.topology.demo.temperature")!;
    expect(temperature.dimensions).toEqual({
      sensor: "s0",
      group: "group-0",
      "group.name": 'lab "north" group 0',
      device: "dev-0-0",
      "device.name": 'lab "north" device 0.0',
      "device.address": "10.0.0.0:8443",
    });
    // extension.yaml declares each key, with the dimensions the code sends.
    const yaml = readFileSync(join(d.dir, "extension", "extension.yaml"), "utf8");
    for (const m of d.run.metrics) {
      expect(yaml).toContain(`- key: ${m.key}\n`);
      for (const dim of Object.keys(m.dimensions)) expect(yaml).toContain(`- key: ${dim}\n`);
    }
    const events = d.recorded.flatMap((r) =>
      "calls" in r ? r.calls.filter((x) => x.call.endsWith("_event")) : [],
    );
    expect(d.run.events).toEqual(events.map((e) => ({ type: "PERFORMANCE_EVENT", title: e.title })));
    expect(d.run.output).toContain("report_property('firmware') is not sent");
    expect(d.run.output).toContain("metric 'undeclared' is not sent");
  });

  it("remote-topology-team-keys: the keys of the project's key map are the keys sent", () => {
    const d = done.get("remote-topology-team-keys")!;
    expect(new Set(d.run.metrics.map((m) => m.key))).toEqual(
      new Set([
        "acme.topology.temperature",
        "acme.topology.devices",
        "acme.topology.health",
        "acme.topology.requests.count",
        "acme.topology.bytes_in",
      ]),
    );
  });

  it("remote-topology-two-endpoints: one plugin object per endpoint; a misconfigured one fails alone", () => {
    const d = done.get("remote-topology-two-endpoints")!;
    expect(d.run.inTime, d.run.output).toBe(true);
    expect(d.run.output).toContain(
      "EF1 initialize of TopologyDemoPlugin (endpoint 1): INVALID_CONFIG_ERROR: site is empty",
    );
    expect(d.run.output).toMatch(/EF1 query 2 of TopologyDemoPlugin \(endpoint 2\): /);
    const groups = new Set(d.run.metrics.map((m) => m.dimensions["group.name"]));
    expect(groups).toEqual(new Set(["south group 0", "south group 1"]));
    // endpoint 2 has one device per group: its temperature, once per group and run
    expect(d.run.metrics.filter((m) => m.key === "tech.topology.demo.temperature")).toHaveLength(4);
  });

  it("examples/remote-valid, docs/migrate.md's example, runs where it is migrated and reports its metrics", () => {
    const d = done.get("examples-remote-valid")!;
    expect(d.run.inTime, d.run.output).toBe(true);
    expect(new Set(d.run.metrics.map((m) => m.key))).toEqual(
      new Set(["tech.demo.device.cpu", "tech.demo.device.status"]),
    );
    const status = d.run.metrics.find((m) => m.key === "tech.demo.device.status")!;
    // its state is the machine's: OK, or DEGRADED on a loaded one
    expect(status.dimensions).toMatchObject({ group: "demo-devices", device: "localhost" });
    expect(["OK", "DEGRADED"]).toContain(status.dimensions.state);
  });

  it("host-counters: the snapshot's process group instance is a dimension; a reset sends no count", () => {
    const d = done.get("host-counters")!;
    const depth = d.run.metrics.filter((m) => m.key === "python.host.counters.queue_depth");
    expect(depth.length).toBeGreaterThanOrEqual(8);
    for (const m of depth)
      expect(m.dimensions["dt.entity.process_group_instance"]).toBe(
        "PROCESS_GROUP_INSTANCE-5A1B2C3D4E5F6071",
      );
    const runs = byRun(d.run.metrics);
    // run 3 resets messages_count: nothing for it; run 4 counts from the reset value
    expect(runs[2]!.filter((m) => m.key.endsWith("messages_count"))).toEqual([]);
    expect(runs[3]!.filter((m) => m.key.endsWith("messages_count")).map((m) => m.value)).toEqual([
      1112 - 5,
      1113 - 5,
    ]);
    expect(new Set(d.run.metrics.filter((m) => m.type === "count").map((m) => m.key))).toEqual(
      new Set(["python.host.counters.messages_count", "python.host.counters.errors.count"]),
    );
  });

  it("auth-error: the refused run reports nothing and its status is AUTHENTICATION_ERROR", () => {
    const d = done.get("auth-error")!;
    expect(d.run.output).toMatch(
      /EF1 status of AuthErrorPlugin: AUTHENTICATION_ERROR: AuthException: user monitor refused/,
    );
    expect(byRun(d.run.metrics).length).toBe(2);
  });

  it("config-error: initialize's ConfigException is the extension's status at once, and it stops", () => {
    const d = done.get("config-error")!;
    expect(d.run.inTime, d.run.output).toBe(true);
    expect(d.run.exitCode).toBe(1);
    expect(d.run.metrics).toEqual([]);
    expect(d.run.statuses.at(-1)).toEqual({
      status: "INVALID_CONFIG_ERROR",
      message: "ConfigException: port must be a number, not 'not a port'",
    });
    expect(d.recorded).toEqual([{ initialize: "ConfigException: port must be a number, not 'not a port'" }]);
  });

  it("not-carried: the call EF2 cannot carry fails its run with a clear error, listed in MIGRATION.md with its line", () => {
    const d = done.get("not-carried")!;
    expect(d.run.output).toContain(
      "NotCarriedToEF2: find_all_processes cannot run on Extensions 2.0: a remote plugin has no process snapshot",
    );
    const md = readFileSync(join(d.dir, "MIGRATION.md"), "utf8");
    expect(md).toContain(
      "- `not_carried.py:13`, `find_all_processes`: a remote plugin has no process snapshot",
    );
  });

  itUnless(!setuptools && "python3 has no setuptools, with which pip wheel builds setup.py")(
    "package-plugin: setup.py packs the whole module, the plugin's package and data file too (as pip wheel does)",
    () => {
      const d = done.get("package-plugin")!;
      const lib = join(work, "package-plugin-build");
      const r = spawnSync("python3", ["setup.py", "-q", "build_py", "--build-lib", lib], {
        cwd: d.dir,
        encoding: "utf8",
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
      });
      expect(r.status, r.stderr).toBe(0);
      const files = (root: string) =>
        (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
          .filter((e) => e.isFile() && !e.parentPath.includes("__pycache__"))
          .map((e) => relative(root, join(e.parentPath, e.name)))
          .sort();
      const built = files(join(lib, "atlaslike_ef2"));
      expect(built).toEqual(files(join(d.dir, "atlaslike_ef2")));
      expect(built).toEqual(
        expect.arrayContaining(["plugin/AtlasLike/defaults.json", "plugin/helpers.py", "metric-keys.json"]),
      );
    },
  );

  it("package-plugin: a package with relative imports, a module beside it and a data file runs as it is", () => {
    const d = done.get("package-plugin")!;
    expect(d.run.metrics.map((m) => m.key)).toContain("tech.atlaslike.Cluster.Connections");
    expect(d.run.events).toEqual([
      { type: "ERROR_EVENT", title: "Disk" },
      { type: "ERROR_EVENT", title: "Disk" },
    ]);
    const setup = readFileSync(join(d.dir, "setup.py"), "utf8");
    expect(setup).toContain('install_requires=["requests>=2.6.0", "dt-extensions-sdk"]');
  });
});

/**
 * One run: the same metrics (key, dimensions, type) with the same values; a rate its increase over `seconds`, the
 * interval since the query before as the layer measured it (a second, give or take a loaded machine's delays).
 */
function compare(sent: SentMetric[], expected: Expected[], seconds: number | undefined): void {
  const got = new Map(sent.map((m) => [identity(m), m.value]));
  const want = new Map(expected.map((m) => [identity(m), m]));
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [id, m] of want) {
    const value = got.get(id)!;
    if (m.perSecond) {
      expect(seconds, `${id}: the layer logs the seconds since the query before`).toBeGreaterThan(0);
      // the logged seconds have 6 decimals
      expect(Math.abs(value * seconds! - m.value) / m.value, id).toBeLessThan(1e-5);
    } else expect(value, id).toBeCloseTo(m.value, 9);
  }
}
