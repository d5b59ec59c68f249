/**
 * The conversion (src/migrate/migrate.ts) on small inline descriptors and examples/: the JMX and Python mappings,
 * alerts as metric events, what MIGRATION.md lists, what cannot be converted and why, and each place where the
 * mapping deliberately differs from Dynatrace's own converter (shared/spec: extensions-2.md §5, its gaps), named
 * in the test's title and explained in docs/migrate.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { migrate, readiness } from "../../src/migrate/migrate.js";
import { plain } from "../../src/migrate/notes.js";
import { ROOT, validHost, validRemote } from "../helpers.js";
import {
  converted,
  extensionOf,
  file,
  missingMetrics,
  schemaErrors,
  subgroupsOf,
  type Json,
} from "./helpers.js";

/** A JMX metric on `com.example:type=Pool,name=*` (more key properties allowed) with the given members. */
function metric(key: string, source: Json = {}, timeseries: Json = {}): Json {
  return {
    timeseries: { key, unit: "Count", displayname: `${key} shown`, dimensions: ["rx_pid"], ...timeseries },
    source: {
      domain: "com.example",
      keyProperties: { type: "Pool", name: "*" },
      allowAdditionalKeys: true,
      attribute: key.replace(/\W/g, ""),
      calculateDelta: false,
      calculateRate: false,
      aggregation: "SUM",
      ...source,
    },
  };
}

const jmx = (metrics: unknown[], extra: Json = {}): Json => ({
  name: "custom.jmx.demo",
  version: "1.0",
  type: "JMX",
  entity: "PROCESS_GROUP_INSTANCE",
  metricGroup: "tech.demo",
  processTypeNames: ["JAVA"],
  metrics,
  ...extra,
});

const split = (name: string, keyProperty = name) => ({
  splitting: { name, type: "keyProperty", keyProperty },
});

const notesOf = (r: ReturnType<typeof converted>, kind?: string) =>
  r.notes
    .filter((n) => !kind || n.kind === kind)
    .map((n) => `${n.line ?? "-"} ${n.member}: ${plain(n.text)}`);

describe("JMX", () => {
  it("collects each metric from its MBeans and attribute: query with `,*`, gauge or count, keys prefixed", () => {
    const r = converted(
      jmx([
        metric("active"),
        metric("created", { calculateDelta: true }),
        metric("heap", {
          domain: "java.lang",
          keyProperties: { type: "Memory" },
          allowAdditionalKeys: false,
        }),
      ]),
    );
    expect(subgroupsOf(r)).toEqual([
      {
        subgroup: "com.example:type=Pool,name=*,*",
        query: "com.example:type=Pool,name=*,*",
        metrics: [
          { key: "tech.demo.active", value: "attribute:active", type: "gauge" },
          { key: "tech.demo.created.count", value: "attribute:created", type: "count" },
        ],
      },
      {
        subgroup: "java.lang:type=Memory",
        query: "java.lang:type=Memory",
        metrics: [{ key: "tech.demo.heap", value: "attribute:heap", type: "gauge" }],
      },
    ]);
    const ext = extensionOf(r);
    expect(ext).toMatchObject({
      name: "custom:tech.demo",
      version: "1.0.0",
      minDynatraceVersion: "1.275.0",
      author: { name: "Your name here" },
    });
    expect(ext.metrics).toContainEqual({
      key: "tech.demo.active",
      metadata: {
        displayName: "active shown",
        description: "active shown",
        unit: "Count",
        tags: ["JMX"],
        sourceEntityType: "process_group_instance",
      },
    });
    expect(schemaErrors(ext)).toEqual([]);
    expect(missingMetrics(r)).toEqual([]);
  });

  it("makes every splitting a `property:` dimension and keeps metrics with the same query and dimensions together", () => {
    const r = converted(
      jmx([
        metric("a", split("PoolName", "name"), { dimensions: ["rx_pid", "PoolName"] }),
        metric("b", split("PoolName", "name"), { dimensions: ["rx_pid", "PoolName"] }),
        metric(
          "c",
          { splittings: [split("PoolName", "name").splitting, split("type").splitting] },
          {
            dimensions: ["rx_pid", "PoolName", "type"],
          },
        ),
      ]),
    );
    expect(subgroupsOf(r).map((s) => [s.subgroup, s.dimensions, s.metrics.map((m) => m.key)])).toEqual([
      [
        "com.example:type=Pool,name=*,*",
        [{ key: "pool_name", value: "property:name" }],
        ["tech.demo.a", "tech.demo.b"],
      ],
      [
        "com.example:type=Pool,name=*,* by pool_name, type",
        [
          { key: "pool_name", value: "property:name" },
          { key: "type", value: "property:type" },
        ],
        ["tech.demo.c"],
      ],
    ]);
    expect(r.keyMap.metrics[2]?.ef2.dimensions).toEqual([
      "dt.entity.process_group_instance",
      "pool_name",
      "type",
    ]);
  });

  it("differs from Dynatrace's converter: `property:` reads the key property the splitting names, not its name", () => {
    // Dynatrace's converter writes `property:MongoCluster`: the MBean has no such key property, so the
    // dimension would be empty (8 of the corpus's 52 splittings).
    const r = converted(
      jmx([metric("size", split("MongoCluster", "clusterId"), { dimensions: ["rx_pid", "MongoCluster"] })]),
    );
    expect(subgroupsOf(r)[0]?.dimensions).toEqual([{ key: "mongo_cluster", value: "property:clusterId" }]);
  });

  it("differs from Dynatrace's converter (the merge defect): a split metric never joins a dimensionless subgroup", () => {
    // Dynatrace's converter puts `b` into `a`'s subgroup (same query, `a` has no dimensions) and then drops
    // `b`'s dimension; here each keeps its own.
    const r = converted(
      jmx([metric("a"), metric("b", split("PoolName", "name"), { dimensions: ["rx_pid", "PoolName"] })]),
    );
    const subgroups = subgroupsOf(r);
    expect(subgroups).toHaveLength(2);
    expect(subgroups.map((s) => s.subgroup)).toEqual([
      "com.example:type=Pool,name=*,*",
      "com.example:type=Pool,name=*,* by pool_name",
    ]);
    expect(subgroups[0]?.dimensions).toBeUndefined();
    expect(subgroups[1]?.dimensions).toEqual([{ key: "pool_name", value: "property:name" }]);
  });

  it("differs from Dynatrace's converter (subgroup caps): at most 10 subgroups to a group, 10 groups", () => {
    // Dynatrace's converter writes one group, `jmx`, with a subgroup per query, however many (29 for the
    // corpus's Kafka descriptor): past 10 the extension is refused.
    const many = Array.from({ length: 23 }, (_, i) => metric(`m${i}`, { keyProperties: { type: `T${i}` } }));
    const r = converted(jmx(many));
    const groups = (extensionOf(r).jmx as { groups: { group: string; subgroups: unknown[] }[] }).groups;
    expect(groups.map((g) => [g.group, g.subgroups.length])).toEqual([
      ["jmx", 10],
      ["jmx-2", 10],
      ["jmx-3", 3],
    ]);
    const tooMany = migrate(
      JSON.stringify(
        jmx(Array.from({ length: 101 }, (_, i) => metric(`m${i}`, { keyProperties: { type: `T${i}` } }))),
      ),
    );
    expect(tooMany.converted).toBe(false);
    if (!tooMany.converted) expect(plain(tooMany.reasons[0]!.text)).toMatch(/101 subgroups.*10 groups of 10/);
  });

  it("differs from Dynatrace's converter (the rate's divisor): calculateRate is the count's :rate(1s), per second at every resolution", () => {
    // Dynatrace's converter divides by a fixed 10, and names the unit `<unit>PerSecond` (`BytePerSecondPerSecond`).
    const r = converted(
      jmx([
        metric("requests", { calculateDelta: true, calculateRate: true }, { unit: "PerSecond" }),
        metric("bytes", { calculateDelta: true, calculateRate: true }, { unit: "BytePerSecond" }),
        metric("latency", { calculateDelta: true, calculateRate: true }, { unit: "MilliSecond" }),
        metric("level", { calculateRate: true }, { unit: "Count" }),
      ]),
    );
    const metrics = extensionOf(r).metrics as { key: string; metadata: Json; query?: Json }[];
    const byKey = new Map(metrics.map((m) => [m.key, m]));
    expect(byKey.get("tech.demo.requests.count")?.metadata.unit).toBe("Count");
    expect(byKey.get("func:tech.demo.requests.count_persec")).toMatchObject({
      metadata: { unit: "PerSecond" },
      query: { metricSelector: "tech.demo.requests.count:rate(1s)" },
    });
    expect(byKey.get("tech.demo.bytes.count")?.metadata.unit).toBe("Byte");
    expect(byKey.get("func:tech.demo.bytes.count_persec")?.metadata.unit).toBe("BytePerSecond");
    expect(byKey.get("func:tech.demo.latency.count_persec")?.metadata.unit).toBe("Unspecified");
    // Without calculateDelta EF1 divided the value as read by its one-minute interval.
    expect(byKey.get("func:tech.demo.level_persec")?.query).toEqual({
      metricSelector: "tech.demo.level / 60",
    });
    expect(r.keyMap.metrics[0]?.ef2.rateKey).toBe("func:tech.demo.requests.count_persec");
    expect(r.keyMap.metrics[0]?.ef2.selector).toBe(
      'tech.demo.requests.count:splitBy("dt.entity.process_group_instance"):rate(1s)',
    );
    // The meaning is carried; only a unit Dynatrace lacks is a note.
    const changed = notesOf(r, "changed").join("\n");
    expect(changed).not.toMatch(/requests/);
    expect(changed).toMatch(
      /metrics\[2\]\.source\.calculateRate: Dynatrace has no per-second unit of MilliSecond: the unit of `func:tech\.demo\.latency\.count_persec` \(`tech\.demo\.latency\.count:rate\(1s\)`, EF1's per-second value\) is `Unspecified`/,
    );
    expect(schemaErrors(extensionOf(r))).toEqual([]);
  });

  it("differs from Dynatrace's converter (a dimension it drops): rx_pid maps to the process group instance EF2 adds", () => {
    // Dynatrace's key map drops `rx_pid`; here it is named, so that a review of the migration knows the
    // process is still told apart (EF2 adds `dt.entity.process_group_instance` to every JMX metric).
    const r = converted(jmx([metric("a")]));
    expect(r.keyMap.metrics[0]?.ef2.dimensions).toEqual(["dt.entity.process_group_instance"]);
    expect(subgroupsOf(r)[0]?.dimensions).toBeUndefined();
    expect(notesOf(r, "changed")).toContainEqual(
      expect.stringMatching(/^\d+ metrics\[0\]\.timeseries\.dimensions: `rx_pid`/),
    );
  });

  it("differs from Dynatrace's converter: the entity type in lower case, and `domain:*` for no key property", () => {
    // Dynatrace's converter copies `PROCESS_GROUP` as it is and writes `com.example:,*`, no ObjectName pattern.
    const r = converted(
      jmx([metric("a", { keyProperties: {} }, {}), { ...metric("b"), entity: "PROCESS_GROUP" }]),
    );
    expect(subgroupsOf(r)[0]?.query).toBe("com.example:*");
    const metrics = extensionOf(r).metrics as { key: string; metadata: Json }[];
    expect(metrics.find((m) => m.key === "tech.demo.b")?.metadata.sourceEntityType).toBe("process_group");
    // An entity that is no entity type falls back to the plugin's.
    const odd = converted(jmx([{ ...metric("c"), entity: "123" }]));
    const c = (extensionOf(odd).metrics as { metadata: Json }[])[0];
    expect(c?.metadata.sourceEntityType).toBe("process_group_instance");
  });

  it("keeps Dynatrace's key for a count that ends in `_Count` (its suffix rule reads either case)", () => {
    const r = converted(jmx([metric("requests_Count", { calculateDelta: true })]));
    expect(subgroupsOf(r)[0]?.metrics).toEqual([
      { key: "tech.demo.requests_Count", value: "attribute:requests_Count", type: "count" },
    ]);
  });

  it("keeps EF1's AVG, MAX and MIN over several MBeans as a statcounter queried with it, and says where it cannot", () => {
    const r = converted(
      jmx([
        metric("peak", { aggregation: "MAX" }),
        metric("mean", { aggregation: "AVG" }),
        metric("peakOfMax", { aggregation: "MAX" }, { aggregation: "MAX" }),
        metric("deltas", { aggregation: "MAX", calculateDelta: true }),
        metric("one", { aggregation: "MAX", keyProperties: { type: "Pool" }, allowAdditionalKeys: false }),
      ]),
    );
    const types = new Map(subgroupsOf(r).flatMap((s) => s.metrics.map((m) => [m.key, m.type])));
    expect(Object.fromEntries(types)).toEqual({
      "tech.demo.peak": "gauge_statcounter",
      "tech.demo.mean": "gauge_statcounter",
      "tech.demo.peakOfMax": "gauge_statcounter",
      "tech.demo.deltas.count": "count",
      // The query matches one MBean: its value is EF1's whatever the aggregation.
      "tech.demo.one": "gauge",
    });
    const changed = notesOf(r, "changed").join("\n");
    // Per minute the statcounter is EF1's value; over longer intervals MAX differs from EF1's average of maxima.
    expect(changed).toMatch(
      /metrics\[0\]\.source\.aggregation: `tech\.demo\.peak:splitBy\("dt\.entity\.process_group_instance"\):max` is EF1's value at one-minute resolution \(the maximum of the MBeans'\); over a longer interval it is the maximum of all their values, where EF1 took the average of the per-minute values/,
    );
    expect(changed).not.toMatch(
      /metrics\[1\]\.source\.aggregation|metrics\[2\]\.source\.aggregation|metrics\[4\]/,
    );
    expect(changed).toMatch(
      /metrics\[3\]\.source\.aggregation: EF1 took the maximum of the changes of the MBeans the query matches; EF2 adds counts up/,
    );
    expect(r.keyMap.metrics[3]?.ef2.sumsInsteadOf).toBe("max");
    expect(schemaErrors(extensionOf(r))).toEqual([]);
  });

  it("lists what changes meaning: a dimension no splitting fills, a splitting not listed", () => {
    const r = converted(
      jmx([metric("b", {}, { dimensions: ["rx_pid", "name"] }), metric("c", split("queue"))]),
    );
    const all = notesOf(r).join("\n");
    expect(all).toMatch(
      /metrics\[0\]\.timeseries\.dimensions: dimension "name" of metric "b": no splitting fills it/,
    );
    expect(all).toMatch(/metrics\[1\]\.source\.splitting: metric "c" is split by "queue" without listing it/);
    expect(r.keyMap.metrics[0]?.ef2.dimensions).toEqual(["dt.entity.process_group_instance"]);
  });

  it("does not convert a metric without an MBean, a splitting it cannot read, or two metrics that would share a key", () => {
    const text = JSON.stringify(jmx([{ timeseries: { key: "a", unit: "Count" }, source: {} }]), null, 2);
    const noDomain = migrate(text);
    expect(noDomain.converted).toBe(false);
    if (!noDomain.converted) {
      expect(noDomain.type).toBe("JMX");
      expect(plain(noDomain.reasons[0]!.text)).toMatch(/metric "a" names no MBean/);
      expect(noDomain.reasons[0]!.line).toBe(text.split("\n").findIndex((l) => l.includes('"source"')) + 1);
    }
    const oddSplit = migrate(
      JSON.stringify(jmx([metric("a", { splitting: { name: "x", type: "attribute" } })])),
    );
    expect(oddSplit.converted || plain(oddSplit.reasons[0]!.text)).toMatch(
      /splitting of type "attribute" has no EF2 form/,
    );
    const dimensions = migrate(
      JSON.stringify(jmx([metric("a", { splittings: [split("Name").splitting, split("name").splitting] })])),
    );
    expect(dimensions.converted || plain(dimensions.reasons[0]!.text)).toMatch(
      /two splittings of metric "a" become the one EF2 dimension `name`/,
    );
    const clash = migrate(JSON.stringify(jmx([metric("queue.count"), metric("queue")])));
    expect(clash.converted || plain(clash.reasons[0]!.text)).toMatch(
      /metrics "queue\.count" and "queue" would both be `tech\.demo\.queue`/,
    );
  });
});

// Its speed (linear in the metrics: 13 s here before, for these 40,000) is measured by bench/migrate.mjs.
describe("a huge JMX plugin.json", () => {
  it("converts 40,000 metrics of one subgroup, every key kept", () => {
    const doc = {
      name: "custom.jmx.big",
      version: "1.0",
      type: "JMX",
      metricGroup: "tech.big",
      metrics: Array.from({ length: 40_000 }, (_, i) => ({
        timeseries: { key: `k${i}`, unit: "Count" },
        source: { domain: "d", attribute: "A" },
      })),
    };
    const r = migrate(JSON.stringify(doc));
    expect(r.converted && r.keyMap.metrics).toHaveLength(40_000);
  }, 60_000);
});

describe("a dimension's name of no letter EF2 keeps", () => {
  it("is the descriptor's to rename, said on its line, for a Python timeseries and a JMX splitting", () => {
    const host = structuredClone(validHost()) as unknown as {
      metrics: { timeseries: { key: string; dimensions?: string[] } }[];
    };
    host.metrics[0]!.timeseries.dimensions = ["地域"];
    const text = JSON.stringify(host, null, 2);
    const python = migrate(text);
    expect(python.converted).toBe(false);
    if (!python.converted) {
      const reason = python.reasons.map((r) => `${r.line} ${plain(r.text)} / ${r.fix ? plain(r.fix) : ""}`);
      expect(reason).toEqual([
        `${text.split("\n").findIndex((l) => l.includes('"dimensions"')) + 1} dimension "地域" of metric "${host.metrics[0]!.timeseries.key}" makes no EF2 dimension key ("": it is 0 characters long (1 to 100)): EF2 keeps only \`a-z0-9-._:\` of a name / rename dimension "地域" with ASCII letters or digits, in plugin.json and in the code that sends it`,
      ]);
    }
    const split = migrate(
      JSON.stringify(
        jmx([metric("a", { splitting: { name: "地域", type: "keyProperty", keyProperty: "name" } })]),
      ),
    );
    expect(split.converted).toBe(false);
    if (!split.converted)
      expect(plain(split.reasons[0]!.text)).toMatch(
        /dimension "地域" of metric "a" makes no EF2 dimension key/,
      );
  });
});

describe("Python", () => {
  it("host plugins: the python data source, local activation, metrics metadata for every EF1 metric", () => {
    const r = converted(validHost());
    const ext = extensionOf(r);
    expect(ext.python).toEqual({
      runtime: { module: "demo_plugin_ef2", version: { min: "3.10" } },
      activation: { local: { path: "activationSchema.json" } },
    });
    expect(ext.metrics).toEqual([
      {
        key: "tech.python.demo.requests",
        metadata: {
          displayName: "Requests per second",
          description: "Requests per second",
          unit: "PerSecond",
          dimensions: [
            { key: "dt.entity.process_group_instance", displayName: "rx_pid" },
            { key: "endpoint", displayName: "endpoint" },
          ],
        },
      },
      {
        key: "tech.python.demo.latency",
        metadata: { displayName: "Latency", description: "Latency", unit: "MilliSecond" },
      },
    ]);
    const activation = JSON.parse(file(r, "extension/activationSchema.json")) as Json;
    expect(schemaErrors(activation, "activationSchema")).toEqual([]);
    expect(Object.keys(activation.properties as Json)).toEqual(["pythonLocal"]);
    expect(schemaErrors(ext)).toEqual([]);
    expect(missingMetrics(r)).toEqual([]);
  });

  it("remote plugins: remote activation, a state metric as a gauge with `state`", () => {
    const r = converted(validRemote());
    const ext = extensionOf(r);
    expect((ext.python as Json).activation).toEqual({ remote: { path: "activationSchema.json" } });
    const activation = JSON.parse(file(r, "extension/activationSchema.json")) as {
      types: Json;
      properties: Json;
    };
    expect(Object.keys(activation.properties)).toEqual(["pythonRemote"]);
    expect(activation.types.pythonRemote).toMatchObject({ properties: { endpoints: { maxItems: 100 } } });
    expect(r.keyMap.metrics[1]?.ef2).toEqual({
      key: "tech.demo.device.status",
      dimensions: ["state"],
      type: "gauge",
      selector: 'tech.demo.device.status:splitBy("state")',
    });
    expect(notesOf(r, "changed").join("\n")).toMatch(/statetimeseries: EF2 has no state metrics/);
  });

  it("activationSchema.json: every EF1 property type, display name, hint, order and default", () => {
    const doc = {
      ...validRemote(),
      configUI: {
        displayName: "Demo",
        properties: [
          { key: "url", displayName: "URL", displayHint: "https://host:port", displayOrder: 2 },
          { key: "password", displayName: "Password", displayOrder: 3 },
          { key: "notes", displayName: "Notes", displayOrder: 1 },
          { key: "mode", displayName: "Mode", displayOrder: 4 },
          { key: "port", displayName: "Port", displayOrder: 5 },
          { key: "ratio", displayName: "Ratio", displayOrder: 6 },
          { key: "verify", displayName: "Verify TLS", displayOrder: 7 },
          { key: "extra", displayName: "Extra JSON", displayOrder: 8 },
        ],
      },
      properties: [
        { key: "url", type: "String", defaultValue: "https://localhost" },
        { key: "password", type: "Password", defaultValue: "hunter2" },
        { key: "notes", type: "Textarea" },
        { key: "mode", type: "Dropdown", defaultValue: "fast", dropdownValues: ["fast", "thorough"] },
        { key: "port", type: "Integer", defaultValue: "8443" },
        { key: "ratio", type: "FLOAT", defaultValue: 0.5 },
        { key: "verify", type: "boolean", defaultValue: "true" },
        { key: "extra", type: "json" },
      ],
    };
    const r = converted(doc);
    const activation = JSON.parse(file(r, "extension/activationSchema.json")) as {
      types: { custom_extension: { properties: Record<string, Json>; summaryPattern: string } };
      enums: Json;
    };
    const props = activation.types.custom_extension.properties;
    // EF2 shows them in the order it lists them: EF1's displayOrder (Dynatrace's converter ignores it).
    expect(Object.keys(props)).toEqual([
      "notes",
      "url",
      "password",
      "mode",
      "port",
      "ratio",
      "verify",
      "extra",
    ]);
    expect(props).toEqual({
      notes: { displayName: "Notes", type: "text", subType: "multiline", nullable: true },
      url: {
        displayName: "URL",
        description: "https://host:port",
        type: "text",
        nullable: false,
        default: "https://localhost",
      },
      // A secret's default would be readable in the package: Dynatrace's converter copies it, this does not.
      password: { displayName: "Password", type: "secret", nullable: true },
      mode: { displayName: "Mode", type: { $ref: "#/enums/mode" }, nullable: false, default: "fast" },
      port: { displayName: "Port", type: "integer", nullable: false, default: 8443 },
      ratio: { displayName: "Ratio", type: "float", nullable: false, default: 0.5 },
      verify: { displayName: "Verify TLS", type: "boolean", nullable: false, default: true },
      extra: { displayName: "Extra JSON", type: "text", subType: "multiline", nullable: true },
    });
    expect(activation.enums).toEqual({
      mode: {
        displayName: "Mode",
        type: "enum",
        items: [
          { value: "fast", displayName: "fast" },
          { value: "thorough", displayName: "thorough" },
        ],
      },
    });
    expect(activation.types.custom_extension.summaryPattern).toBe("Demo - {notes}");
    expect(notesOf(r).join("\n")).toMatch(
      /properties\[1\]\.defaultValue: a secret's default would be readable/,
    );
    expect(schemaErrors(activation, "activationSchema")).toEqual([]);
  });
});

describe("alert settings as metric events", () => {
  it("writes each as an alert file listed in `alerts:`, placeholders mapped, and the same id every time", () => {
    const r = converted(validHost());
    expect(extensionOf(r).alerts).toEqual([{ path: "alerts/requests_high.json" }]);
    const event = JSON.parse(file(r, "extension/alerts/requests_high.json")) as Json;
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      metricId: "tech.python.demo.requests",
      name: "Too many requests",
      description:
        "{alert_condition} {threshold} requests per second on {entityname} is {alert_condition} {threshold}",
      aggregationType: "AVG",
      severity: "PERFORMANCE",
      enabled: true,
      monitoringStrategy: {
        type: "STATIC_THRESHOLD",
        samples: 5,
        violatingSamples: 3,
        dealertingSamples: 5,
        alertCondition: "ABOVE",
        alertingOnMissingData: false,
        threshold: 100,
        unit: "PER_SECOND",
      },
    });
    expect(schemaErrors(event, "metricEvent")).toEqual([]);
    expect(converted(validHost()).files).toEqual(r.files);
  });

  it("watches a rate's per-second value, and a state alert its state's gauge; keeps an inactive default disabled", () => {
    const rate = converted(
      jmx([
        {
          ...metric("requests", { calculateDelta: true, calculateRate: true }, { unit: "PerSecond" }),
          alert_settings: [
            {
              alert_id: "busy",
              event_type: "ERROR_EVENT",
              event_name: "Busy",
              description: "{dimensions}",
              threshold: 50,
              alert_condition: "ABOVE",
              samples: 90,
              violating_samples: 3,
              dealerting_samples: 5,
              default_state: "inactive",
            },
          ],
        },
      ]),
    );
    const event = JSON.parse(file(rate, "extension/alerts/busy.json")) as Json;
    expect(event).toMatchObject({
      metricSelector: "tech.demo.requests.count:rate(1s)",
      description: "{dims}",
      severity: "ERROR",
      enabled: false,
      monitoringStrategy: { samples: 60, threshold: 50 },
    });
    expect(notesOf(rate).join("\n")).toMatch(
      /alert_settings\[0\]\.samples: "90" is not a count of samples from 1 to 60/,
    );
    const state = converted({
      ...validRemote(),
      metrics: [
        {
          statetimeseries: { key: "status", states: ["OK", 'DOWN "hard"'], displayname: "Status" },
          alert_settings: [
            {
              alert_id: "down",
              event_type: "AVAILABILITY_EVENT",
              event_name: "Down",
              description: "down",
              state_name: 'DOWN "hard"',
              threshold: 1,
              alert_condition: "BELOW",
              samples: 5,
              violating_samples: 3,
              dealerting_samples: 5,
            },
          ],
        },
      ],
      ui: {},
    });
    expect(JSON.parse(file(state, "extension/alerts/down.json"))).toMatchObject({
      metricSelector: 'tech.demo.device.status:filter(eq("state","DOWN ~"hard~""))',
      severity: "AVAILABILITY",
      monitoringStrategy: { alertCondition: "ABOVE", threshold: 0 },
    });
  });
});

const HOST = readFileSync(join(ROOT, "examples/host-valid/plugin.json"), "utf8");

describe("MIGRATION.md", () => {
  it("makes key metrics and charts a dashboard, links it, and lists what has no EF2 form, each with its EF1 line", () => {
    const r = converted(HOST);
    const md = file(r, "MIGRATION.md");
    expect(md).toMatch(/^# Migrating `custom\.python\.demo_plugin` to `custom:tech\.python\.demo`$/m);
    expect(md).toContain(
      "The EF1 charts and key metrics are the dashboard [extension/dashboards/tech.python.demo.json](extension/dashboards/tech.python.demo.json) (3 tiles, one per chart and key metric)",
    );
    expect(md).not.toMatch(/ui\.(keymetrics|keycharts|charts)\[/);
    expect(md).toMatch(
      /^- line 8, `processTypeNames`: EF2 activates an extension by monitoring configuration/m,
    );
    expect(md).toMatch(/^- line 15, `source\.activation_name_pattern`: /m);
    expect(md).toMatch(/^- line 5, `requiredAgentVersion`: /m);
    expect(md).toMatch(
      /^## To do by hand\n\n- line 11, `source\.package`: the plugin's code \(`demo_plugin`\) was not found/m,
    );
    expect(extensionOf(r).dashboards).toEqual([{ path: "dashboards/tech.python.demo.json" }]);
  });

  it("keeps the descriptor's text inert: code spans that nothing escapes, no control character", () => {
    const title = "x` <img src=x onerror=alert(1)> @octocat [a](http://evil) ``` \u001b[31m\u202e\nnext";
    const r = converted({
      ...validHost(),
      ui: { charts: [{ group: "g", title, series: [{ key: "latency" }, { key: "nope" }] }] },
    });
    const line = file(r, "MIGRATION.md")
      .split("\n")
      .find((l) => l.includes("ui.charts[0].series[1]"))!;
    expect(line).toBe(
      "- line 66, `ui.charts[0].series[1]`: chart ````x` <img src=x onerror=alert(1)> @octocat [a](http://evil) ```  next````: the plugin has no metric `nope`, so the dashboard has no series for it",
    );
    const dashboard = JSON.parse(file(r, "extension/dashboards/tech.python.demo.json")) as {
      tiles: { name: string }[];
    };
    expect(dashboard.tiles.map((t) => t.name)).toEqual(["g", title]);
    for (const f of r.files)
      expect(f.content.replace(/\r\n/g, "\n"), f.path).not.toMatch(
        // eslint-disable-next-line no-control-regex
        /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/,
      );
  });
});

describe("what cannot be converted", () => {
  it.each([
    ["PMI", { ...validHost(), type: "PMI" }, /PMI plugins have no EF2 form/],
    ["no type", { ...validHost(), type: undefined }, /no `type`/],
    [
      "no name at all",
      { ...validHost(), name: undefined, metricGroup: undefined },
      /neither `metricGroup` nor `name`/,
    ],
    ["a name that cannot be made valid", { ...validHost(), metricGroup: "…" }, /give one with --name/],
  ])("%s", (_, doc, why) => {
    const r = migrate(JSON.stringify(doc, null, 2));
    expect(r.converted).toBe(false);
    if (!r.converted) expect(r.reasons.map((x) => plain(x.text)).join()).toMatch(why);
  });

  it("text that is not JSON, or not an object, with the line where it stops", () => {
    const r = migrate('{\n  "name": "x",\n  oops\n}');
    expect(r.converted).toBe(false);
    if (!r.converted) expect(r.reasons[0]?.line).toBe(3);
    expect(migrate("[]").converted).toBe(false);
  });

  it("--name names an extension whose derived name is not valid", () => {
    const doc = { ...validHost(), metricGroup: "…" };
    expect(converted(doc, { name: "custom:acme.demo" }).keyMap.metrics[0]?.ef2.key).toBe(
      "acme.demo.requests",
    );
  });
});

describe("readiness (what the audit reports)", () => {
  it("fully, partly with what is lost, or not at all with why", () => {
    const minimal = jmx([metric("a")], { processTypeNames: undefined });
    expect(readiness(JSON.stringify(minimal))).toEqual({ type: "JMX", migrate: "fully", items: [] });
    const partly = readiness(HOST);
    expect(partly.migrate).toBe("partly");
    expect(partly.items).toContainEqual({
      line: 5,
      member: "requiredAgentVersion",
      text: expect.stringMatching(/^EF2 names the oldest Dynatrace version/),
    });
    // A Python host plugin's process types are not lost: its compatibility layer applies them to the snapshot.
    expect(partly.items.map((i) => i.member)).not.toContain("processTypeNames");
    expect(readiness(JSON.stringify({ ...validHost(), type: "PMI" }, null, 2))).toMatchObject({
      type: "PMI",
      migrate: "not at all",
      items: [{ line: 4, text: expect.stringMatching(/^PMI plugins have no EF2 form/) }],
    });
  });
});

describe("examples/", () => {
  /** Every descriptor under examples/ (plugin.json and plugin.base.json). */
  const all = (readdirSync(join(ROOT, "examples"), { recursive: true }) as string[])
    .map((p) => `examples/${p.split(sep).join("/")}`)
    .filter((p) => /\/plugin(\.base)?\.json$/.test(p))
    .sort();
  /** The examples that do not convert, and why: each truly has no EF2 form. */
  const NOT: Record<string, RegExp> = {
    "examples/mistakes/invalid-json/plugin.json": /not JSON/,
    "examples/mistakes/base-invalid-json/plugin.base.json": /not JSON/,
    "examples/mistakes/remote-mistakes/plugin.json": /metric "cpu" names no MBean/,
  };

  it.each(all)("%s", (path) => {
    const r = migrate(readFileSync(join(ROOT, path), "utf8"));
    if (NOT[path]) {
      expect(r.converted).toBe(false);
      if (!r.converted) expect(r.reasons.map((x) => plain(x.text)).join()).toMatch(NOT[path]!);
      return;
    }
    if (!r.converted) expect.fail(r.reasons.map((x) => plain(x.text)).join("; "));
    expect(schemaErrors(extensionOf(r))).toEqual([]);
    expect(missingMetrics(r)).toEqual([]);
  });

  it("jmx-valid, the worked example of docs/migrate.md", () => {
    const r = converted(readFileSync(join(ROOT, "examples/jmx-valid/plugin.json"), "utf8"));
    expect(subgroupsOf(r)).toEqual([
      {
        subgroup: "com.example.pool:type=ConnectionPool,name=*,*",
        query: "com.example.pool:type=ConnectionPool,name=*,*",
        dimensions: [{ key: "pool_name", value: "property:name" }],
        metrics: [
          { key: "tech.demo.pool.pool_active", value: "attribute:ActiveCount", type: "gauge" },
          { key: "tech.demo.pool.pool_idle", value: "attribute:IdleCount", type: "gauge" },
          { key: "tech.demo.pool.pool_created.count", value: "attribute:CreatedCount", type: "count" },
        ],
      },
      {
        subgroup: "java.lang:type=GarbageCollector,name=*",
        query: "java.lang:type=GarbageCollector,name=*",
        metrics: [
          { key: "tech.demo.pool.gc_collections.count", value: "attribute:CollectionCount", type: "count" },
        ],
      },
    ]);
    expect(r.version).toBe("1.7.0");
    // docs/migrate.md shows its extension.yaml and metric-keys.csv as migrate writes them.
    const docs = readFileSync(join(ROOT, "docs/migrate.md"), "utf8");
    expect(/```yaml\n([\s\S]*?)```/.exec(docs)?.[1]).toBe(file(r, "extension/extension.yaml"));
    expect(/```\n(ef1_key,[\s\S]*?)```/.exec(docs)?.[1]).toBe(
      file(r, "metric-keys.csv").replace(/\r\n/g, "\n"),
    );
  });
});
