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
    expect(map).toEqual({
      framework: "JMX",
      name: "custom:tech.demo.app",
      metrics: [
        {
          pointer: "/metrics/0/timeseries",
          ef1: { key: "heap.used", dimensions: ["rx_pid"], kind: "timeseries" },
          ef2: {
            key: "tech.demo.app.heap.used",
            dimensions: ["dt.entity.process_group_instance"],
            type: "gauge",
          },
        },
        {
          pointer: "/metrics/1/timeseries",
          ef1: { key: "gc.collections", dimensions: ["rx_pid"], kind: "timeseries" },
          ef2: {
            key: "tech.demo.app.gc.collections.count",
            dimensions: ["dt.entity.process_group_instance"],
            type: "count",
          },
        },
        {
          pointer: "/metrics/2/timeseries",
          ef1: { key: "pool.active", dimensions: ["rx_pid", "ConnectionPool"], kind: "timeseries" },
          ef2: {
            key: "tech.demo.app.pool.active",
            dimensions: ["dt.entity.process_group_instance", "connection_pool"],
            type: "gauge",
          },
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
          ef1: { key: "cpu", dimensions: ["Core"], kind: "timeseries" },
          ef2: { key: "tech.demo.device.cpu", dimensions: ["core"] },
        },
        {
          pointer: "/metrics/1/statetimeseries",
          ef1: { key: "status", dimensions: [], kind: "statetimeseries" },
          ef2: { key: "tech.demo.device.status", dimensions: ["state"], type: "gauge" },
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
