/**
 * The key map (src/core/ef2/key-map.ts), on small inline descriptors: every EF1 metric's key, dimensions and
 * pointer, and the EF2 key, dimensions and type `migrate` gives it, with the extension's name. The keys are the
 * ones Dynatrace's JMX converter gives (shared/spec: extensions-2.md §5), pinned case by case.
 */
import { describe, expect, it } from "vitest";
import { keyMap, keyMapOfText } from "../../src/core/ef2/key-map.js";
import { deriveName, dimensionKey, ef2Version, metricKey } from "../../src/core/ef2/names.js";

/** A JMX metric on `java.lang:type=Memory` with the given timeseries and source members. */
function jmxMetric(key: string, source: Record<string, unknown> = {}, dimensions = ["rx_pid"]) {
  return {
    timeseries: { key, unit: "Count", displayname: `${key} shown`, dimensions },
    source: { domain: "java.lang", keyProperties: { type: "Memory" }, attribute: "A", ...source },
  };
}

const jmx = (metrics: unknown[], extra: Record<string, unknown> = {}) => ({
  name: "custom.jmx.demo",
  version: "1.0",
  type: "JMX",
  entity: "PROCESS_GROUP_INSTANCE",
  metricGroup: "tech.Demo_App",
  processTypes: [10],
  metrics,
  ...extra,
});

describe("keyMap", () => {
  it("maps every JMX metric: EF1 key, dimensions and pointer; EF2 key, dimensions and type", () => {
    const map = keyMap(
      jmx([
        jmxMetric("heap.used"),
        jmxMetric("gc.collections", { calculateDelta: true }),
        jmxMetric(
          "pool.active",
          { splitting: { name: "ConnectionPool", type: "keyProperty", keyProperty: "pool" } },
          ["rx_pid", "ConnectionPool"],
        ),
      ]),
    );
    const PGI = "dt.entity.process_group_instance";
    expect(map).toEqual({
      framework: "JMX",
      name: "custom:tech.demo.app",
      metrics: [
        {
          pointer: "/metrics/0/timeseries",
          ef1: {
            key: "heap.used",
            dimensions: ["rx_pid"],
            kind: "timeseries",
            id: "ext:tech.Demo_App.heap.used",
            selector: 'ext:tech.Demo_App.heap.used:splitBy("rx_pid")',
          },
          ef2: {
            key: "tech.demo.app.heap.used",
            dimensions: [PGI],
            type: "gauge",
            selector: `tech.demo.app.heap.used:splitBy("${PGI}")`,
          },
          dimensions: [{ ef1: "rx_pid", ef2: PGI }],
        },
        {
          pointer: "/metrics/1/timeseries",
          ef1: {
            key: "gc.collections",
            dimensions: ["rx_pid"],
            kind: "timeseries",
            id: "ext:tech.Demo_App.gc.collections",
            selector: 'ext:tech.Demo_App.gc.collections:splitBy("rx_pid")',
          },
          ef2: {
            key: "tech.demo.app.gc.collections.count",
            dimensions: [PGI],
            type: "count",
            selector: `tech.demo.app.gc.collections.count:splitBy("${PGI}"):rate(1m)`,
          },
          dimensions: [{ ef1: "rx_pid", ef2: PGI }],
        },
        {
          pointer: "/metrics/2/timeseries",
          ef1: {
            key: "pool.active",
            dimensions: ["rx_pid", "ConnectionPool"],
            kind: "timeseries",
            id: "ext:tech.Demo_App.pool.active",
            selector: 'ext:tech.Demo_App.pool.active:splitBy("rx_pid","ConnectionPool")',
          },
          ef2: {
            key: "tech.demo.app.pool.active",
            dimensions: [PGI, "connection_pool"],
            type: "gauge",
            selector: `tech.demo.app.pool.active:splitBy("${PGI}","connection_pool")`,
          },
          dimensions: [
            { ef1: "rx_pid", ef2: PGI },
            { ef1: "ConnectionPool", ef2: "connection_pool" },
          ],
        },
      ],
    });
  });

  it("gives a calculateRate metric its per-second metric, func:<key>_persec", () => {
    const map = keyMap(jmx([jmxMetric("requests", { calculateDelta: true, calculateRate: true })]));
    expect(map?.metrics[0]?.ef2).toMatchObject({
      key: "tech.demo.app.requests.count",
      type: "count",
      rateKey: "func:tech.demo.app.requests.count_persec",
    });
  });

  it("gives each EF1 metric its EF2 selector: a count per minute or per second at every resolution, a statcounter where EF1 combined MBeans", () => {
    const wildcard = { keyProperties: { type: "Pool", name: "*" } };
    const map = keyMap(
      jmx([
        jmxMetric("created", { calculateDelta: true, calculateRate: true }),
        jmxMetric("peak", { ...wildcard, aggregation: "MAX" }),
        jmxMetric("avg", { ...wildcard, aggregation: "avg", allowAdditionalKeys: true }),
        jmxMetric("sum", { ...wildcard, aggregation: "SUM" }),
        // One MBean per series: the splitting tells the pools apart, so EF1's MAX is the one value.
        jmxMetric(
          "split",
          {
            ...wildcard,
            aggregation: "MAX",
            splitting: { name: "Pool", type: "keyProperty", keyProperty: "name" },
          },
          [],
        ),
        jmxMetric("deltas", { ...wildcard, aggregation: "MAX", calculateDelta: true }),
        jmxMetric("persec", { ...wildcard, aggregation: "MAX", calculateRate: true }, []),
      ]),
    );
    expect(
      map?.metrics.map((m) => [m.ef1.id, m.ef2.selector, m.ef2.aggregation, m.ef2.sumsInsteadOf]),
    ).toEqual([
      [
        "ext:tech.Demo_App.created",
        'tech.demo.app.created.count:splitBy("dt.entity.process_group_instance"):rate(1s)',
        undefined,
        undefined,
      ],
      [
        "ext:tech.Demo_App.peak",
        'tech.demo.app.peak:splitBy("dt.entity.process_group_instance"):max',
        "max",
        undefined,
      ],
      [
        "ext:tech.Demo_App.avg",
        'tech.demo.app.avg:splitBy("dt.entity.process_group_instance"):avg',
        "avg",
        undefined,
      ],
      [
        "ext:tech.Demo_App.sum",
        'tech.demo.app.sum:splitBy("dt.entity.process_group_instance")',
        undefined,
        undefined,
      ],
      ["ext:tech.Demo_App.split", 'tech.demo.app.split:splitBy("pool")', undefined, undefined],
      [
        "ext:tech.Demo_App.deltas",
        'tech.demo.app.deltas.count:splitBy("dt.entity.process_group_instance"):rate(1m)',
        undefined,
        "max",
      ],
      ["ext:tech.Demo_App.persec", "tech.demo.app.persec:max / 60", "max", undefined],
    ]);
  });

  it("forms the EF1 id from metricGroup, else the plugin's name, as the agent does", () => {
    const { metricGroup: _, ...noGroup } = jmx([jmxMetric("heap")]);
    expect(keyMap(noGroup)?.metrics[0]?.ef1.id).toBe("ext:custom.jmx.demo.heap");
    expect(keyMap({ type: "JMX", metrics: [jmxMetric("heap")] })?.metrics[0]?.ef1.id).toBeUndefined();
  });

  it("keeps a splitting EF1 did not list in dimensions, and leaves out a dimension no splitting fills", () => {
    const map = keyMap(
      jmx([
        jmxMetric("a", { splitting: { name: "queue", type: "keyProperty", keyProperty: "queue" } }, [
          "rx_pid",
        ]),
        jmxMetric("b", {}, ["rx_pid", "name"]),
      ]),
    );
    expect(map?.metrics.map((m) => m.ef2.dimensions)).toEqual([
      ["dt.entity.process_group_instance", "queue"],
      ["dt.entity.process_group_instance"],
    ]);
  });

  it("maps Python metrics without a type (the code decides), and a state metric as a gauge with `state`", () => {
    const map = keyMap({
      name: "custom.remote.python.demo_device",
      version: "2.0.3",
      type: "python",
      entity: "CUSTOM_DEVICE",
      metricGroup: "tech.demo_device",
      metrics: [
        { timeseries: { key: "cpu", unit: "Percent", dimensions: ["Core"], displayname: "CPU" } },
        { statetimeseries: { key: "status", states: ["OK", "DOWN"], displayname: "Status" } },
      ],
    });
    expect(map).toEqual({
      framework: "python",
      name: "custom:tech.demo.device",
      metrics: [
        {
          pointer: "/metrics/0/timeseries",
          ef1: {
            key: "cpu",
            dimensions: ["Core"],
            kind: "timeseries",
            id: "ext:tech.demo_device.cpu",
            selector: 'ext:tech.demo_device.cpu:splitBy("Core")',
          },
          ef2: {
            key: "tech.demo.device.cpu",
            dimensions: ["core"],
            selector: 'tech.demo.device.cpu:splitBy("core")',
          },
          dimensions: [{ ef1: "Core", ef2: "core" }],
        },
        {
          pointer: "/metrics/1/statetimeseries",
          ef1: {
            key: "status",
            dimensions: [],
            kind: "statetimeseries",
            id: "ext:tech.demo_device.status",
            selector: "ext:tech.demo_device.status",
          },
          ef2: {
            key: "tech.demo.device.status",
            dimensions: ["state"],
            type: "gauge",
            selector: 'tech.demo.device.status:splitBy("state")',
          },
          dimensions: [],
        },
      ],
    });
  });

  it("prefixes keys with the name it is given (an extension.yaml's, --name)", () => {
    const map = keyMap(jmx([jmxMetric("heap.used")]), { name: "custom:acme.jvm" });
    expect(map?.name).toBe("custom:acme.jvm");
    expect(map?.metrics[0]?.ef2.key).toBe("acme.jvm.heap.used");
  });

  it("is undefined for PMI and anything else that is neither JMX nor Python; reads text too", () => {
    expect(keyMap({ ...jmx([]), type: "PMI" })).toBeUndefined();
    expect(keyMap([1, 2])).toBeUndefined();
    expect(keyMapOfText("{ not json")).toBeUndefined();
    expect(keyMapOfText(JSON.stringify(jmx([jmxMetric("x.y")])))?.metrics[0]?.ef2.key).toBe(
      "tech.demo.app.x.y",
    );
  });

  it("says why there is no name when none can be derived", () => {
    const map = keyMap({ type: "JMX", metrics: [] });
    expect(map?.name).toBeUndefined();
    expect(map?.nameProblem).toMatch(/neither `metricGroup` nor `name`/);
  });
});

describe("the key and name rules of Dynatrace's converter", () => {
  it.each([
    // [EF1 key, type, EF2 key]
    ["requests", "count", "p.requests.count"],
    ["requests.count", "count", "p.requests.count"],
    ["requests_Count", "count", "p.requests_Count"],
    ["requestCount", "count", "p.requestCount.count"],
    ["queue.count", "gauge", "p.queue"],
    ["queue_count", "gauge", "p.queue"],
    ["queueCount", "gauge", "p.queueCount"],
    ["<queuename>", "gauge", "p.queuename"],
    ["a.-b", "gauge", "p.a.b"],
    ["bytes/s (avg)", "gauge", "p.bytessavg"],
    ["cpu.count", undefined, "p.cpu.count"],
  ] as const)("%s (%s) → %s", (ef1, type, ef2) => {
    expect(metricKey(ef1, "p", type)).toBe(ef2);
  });

  it.each([
    ["ConnectionPool", "connection_pool"],
    ["MongoCluster", "mongo_cluster"],
    ["destinationName", "destination_name"],
    ["queue", "queue"],
    ["ID", "i_d"],
  ])("dimension %s → %s", (name, key) => {
    expect(dimensionKey(name)).toBe(key);
  });

  it.each([
    [{ metricGroup: "tech.MongoDB", name: "custom.mongodb.jmx" }, "custom:tech.mongodb", "derived"],
    [{ name: "custom.jmx.crate.io" }, "custom:jmx.crate.io", "derived"],
    [{ metricGroup: "tech.tomcat.Connection_Pool" }, "custom:tech.tomcat.connection.pool", "derived"],
    [{ metricGroup: "custom.remote.python.snmp-base" }, "custom:remote.python.snmp-base", "derived"],
    [{ metricGroup: "tech..python demo" }, "custom:tech.python.demo", "made-valid"],
    [{ metricGroup: "9lives.app" }, "custom:lives.app", "made-valid"],
  ])("name of %j → %s (%s)", (doc, name, how) => {
    expect(deriveName(doc)).toMatchObject({ name, how });
  });

  it("asks for --name when no valid name can be derived, and checks the one given", () => {
    expect(deriveName({ metricGroup: "…" }).name).toBeUndefined();
    expect(deriveName({ metricGroup: "…" }).problem).toMatch(/give one with --name/);
    expect(deriveName({ metricGroup: "x".repeat(44) }).problem).toMatch(/51 characters long/);
    expect(deriveName({ metricGroup: "tech.a" }, "custom:Bad Name").problem).toMatch(/not a valid EF2 name/);
    expect(deriveName({ metricGroup: "tech.a" }, "custom:good.name")).toMatchObject({
      name: "custom:good.name",
      how: "given",
    });
  });

  it.each([
    ["1.10", "1.10.0", undefined],
    ["1.07", "1.7.0", undefined],
    ["0.4.67", "0.4.67", undefined],
    ["1.025", "1.25.0", undefined],
    ["1.2.0-beta", "1.2.0", /-beta/],
    ["latest", "1.0.0", /placeholder/],
  ])("version %s → %s", (v, semver, note) => {
    const r = ef2Version(v);
    expect(r.version).toBe(semver);
    if (note) expect(r.note).toMatch(note);
    else expect(r.note).toBeUndefined();
  });
});
