/**
 * schemas/extension.schema.json as an editor reads it (a plain Ajv, no plugin-review code): it takes what
 * Dynatrace documents and enforces, and nothing stricter (issue 41: `_` in names, metadata without
 * `displayName`, the real schema's top-level members), and refuses what Dynatrace refuses (a unit outside its
 * list, a metric key the ingestion protocol refuses).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { EXTENSION, ROOT } from "../helpers.js";

const schema = JSON.parse(readFileSync(join(ROOT, "schemas/extension.schema.json"), "utf8")) as object;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
type Doc = Record<string, unknown>;
const valid = (): Doc => parse(EXTENSION) as Doc;
const errors = (doc: unknown) =>
  validate(doc) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`);
const metadata = (doc: Doc) =>
  (doc.metrics as { key: string; metadata: Doc }[])[0]! as { key: string; metadata: Doc } & Doc;
const snmpMetric = (doc: Doc) =>
  (doc.snmp as { subgroups: { metrics: Doc[] }[] }[])[0]!.subgroups[0]!.metrics[0]!;

describe("extension.schema.json", () => {
  it("takes the shipped valid extension", () => {
    expect(errors(valid())).toEqual([]);
  });

  it.each<[string, (d: Doc) => void]>([
    ["`_` in the name", (d) => (d.name = "custom:my_extension")],
    ["a Dynatrace extension's name", (d) => (d.name = "com.dynatrace.extension.snmp-generic")],
    ["metadata without displayName", (d) => delete metadata(d).metadata.displayName],
    ["a metric without metadata", (d) => delete (metadata(d) as Doc).metadata],
    ["a unit of the bit family", (d) => (metadata(d).metadata.unit = "MegaBitPerSecond")],
    [
      "snmptraps, gcp, processes, documents",
      (d) => Object.assign(d, { snmptraps: [{ group: "t" }], gcp: [], processes: [], documents: {} }),
    ],
    ["a metric key with `_` and `-`", (d) => (snmpMetric(d).key = "my_ext.up-time")],
    ["a metric with no type (a gauge)", (d) => delete snmpMetric(d).type],
    ["the older interval", (d) => ((d.snmp as Doc[])[0]!.interval = "5m")],
    ["`count,delta`", (d) => (snmpMetric(d).type = "count,delta")],
  ])("takes %s", (_name, change) => {
    const doc = valid();
    change(doc);
    expect(errors(doc)).toEqual([]);
  });

  it.each<[string, (d: Doc) => void, string]>([
    [
      "a made-up unit",
      (d) => (metadata(d).metadata.unit = "MilliSecondPerSecond"),
      "/metrics/0/metadata/unit",
    ],
    [
      "a key starting with a digit",
      (d) => (snmpMetric(d).key = "1ext.metric"),
      "/snmp/0/subgroups/0/metrics/0/key",
    ],
    ["a key of two characters", (d) => (snmpMetric(d).key = "ab"), "/snmp/0/subgroups/0/metrics/0/key"],
    [
      "a section starting with `-`",
      (d) => (snmpMetric(d).key = "ext.-m"),
      "/snmp/0/subgroups/0/metrics/0/key",
    ],
    [
      "a capital in a dimension key",
      (d) => (metadata(d).metadata.dimensions = [{ key: "Interface" }]),
      "/metrics/0/metadata/dimensions/0/key",
    ],
    ["an unknown top-level member", (d) => (d.sqlMongo = []), ""],
    [
      "an interval over two days",
      (d) => ((d.snmp as Doc[])[0]!.interval = { minutes: 2881 }),
      "/snmp/0/interval",
    ],
    ["an unquoted minDynatraceVersion", (d) => (d.minDynatraceVersion = 1.285), "/minDynatraceVersion"],
  ])("refuses %s", (_name, change, at) => {
    const doc = valid();
    change(doc);
    expect(errors(doc).some((e) => e.startsWith(`${at} `))).toBe(true);
  });
});
