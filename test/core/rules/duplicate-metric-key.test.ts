import { ruleTable, validHost, validRemote, lineOf, at, make, EF2, EXTENSION, edit } from "../../helpers.js";

// The duplicate is appended after the existing metrics; `ui` comes after `metrics`, so the n-th
// `"key": "requests"` in the text is the n-th definition.
const twice = make(validHost(), (d) =>
  at<unknown[]>(d, "metrics").push({
    timeseries: { key: "requests", unit: "Count", displayname: "Request count" },
  }),
);
const thrice = make(validHost(), (d) => {
  const m = at<unknown[]>(d, "metrics");
  m.push({ timeseries: { key: "latency", unit: "Second", displayname: "Latency (s)" } });
  m.push({ timeseries: { key: "latency", unit: "MicroSecond", displayname: "Latency (µs)" } });
});
// Across kinds: a statetimeseries reusing a timeseries key.
const acrossKinds = make(validRemote(), (d) => {
  at(d, "metrics", 1, "statetimeseries").key = "cpu";
});
const stateTwice = make(validRemote(), (d) =>
  at<unknown[]>(d, "metrics").push({
    statetimeseries: { key: "status", states: ["UP"], displayname: "Status 2" },
  }),
);

const efTwice = edit(
  EXTENSION,
  "  - key: example.router.if.errors.count\n",
  "  - key: example.router.uptime\n    metadata:\n      unit: Second\n  - key: example.router.if.errors.count\n",
);

// One key listed twice in one subgroup: two values a minute for one series (same dimensions).
const efSubgroupTwice = edit(
  EXTENSION,
  "          - key: example.router.if.errors\n",
  "          - key: example.router.if.in.bytes\n            value: oid:1.3.6.1.2.1.2.2.1.11\n            type: count\n          - key: example.router.if.errors\n",
);
// `x` and `x.count`, both counts, are ingested as one key `x.count`.
const efIngestedTwice = edit(
  EXTENSION,
  "          - key: example.router.if.errors\n",
  "          - key: example.router.if.in.bytes.count\n            value: oid:1.3.6.1.2.1.2.2.1.11\n            type: count\n          - key: example.router.if.errors\n",
);
// A group's own metrics list holding one key twice.
const efGroupTwice = edit(
  EXTENSION,
  "    subgroups:\n",
  "    metrics:\n      - key: example.router.sys.services\n        value: oid:1.3.6.1.2.1.1.7.0\n      - key: example.router.sys.services\n        value: oid:1.3.6.1.2.1.1.7.0\n    subgroups:\n",
);
// Prometheus: a histogram's parts are one metric, not several.
const efHistogram = `name: custom:example.prom
version: "1.0.0"
minDynatraceVersion: "1.285"
author:
  name: Example team
prometheus:
  - group: server
    interval:
      minutes: 1
    metrics:
      - key: example.prom.latency
        value: metric:latency_seconds
        type: histogram
      - key: example.prom.up
        value: metric:up
metrics:
  - key: example.prom.up
    metadata:
      displayName: Up
      unit: Count
`;
const efPrometheusTwice = edit(
  efHistogram,
  "      - key: example.prom.up\n",
  "      - key: example.prom.latency_count\n        value: metric:latency_seconds_count\n        type: count\n      - key: example.prom.up\n",
);

ruleTable("duplicate-metric-key", {
  valid: [
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: one key reported by two subgroups (other dimensions)",
      doc: edit(EXTENSION, "- key: example.router.if.errors\n", "- key: example.router.uptime\n"),
      options: EF2,
    },
    {
      name: "extension.yaml: a Prometheus histogram (ingested as several keys) listed once",
      doc: efHistogram,
      options: EF2,
    },
    {
      name: "extension.yaml: one key in a group's metrics and in its subgroup's (other dimensions)",
      doc: edit(
        EXTENSION,
        "    subgroups:\n",
        "    metrics:\n      - key: example.router.uptime\n        value: oid:1.3.6.1.2.1.1.3.0\n    subgroups:\n",
      ),
      options: EF2,
    },
    { name: "host example", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "keys differing only by case are different keys",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 1, "timeseries").key = "Requests";
      }),
    },
    {
      name: "the same key in keymetrics, keycharts and charts is a reference, not a definition",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "ui", "keymetrics").push({ key: "requests" });
      }),
    },
    {
      name: "an alert_id or a property key equal to a metric key",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 0, "alert_settings", 0).alert_id = "latency";
        at(d, "properties", 0).key = "requests";
        at(d, "configUI", "properties", 0).key = "requests";
      }),
    },
    {
      name: "rule turned off",
      doc: twice,
      options: { config: { rules: { "duplicate-metric-key": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: one key described twice",
      doc: efTwice,
      options: EF2,
      lines: [lineOf(efTwice, "- key: example.router.uptime\n    metadata", 2)],
      messageId: "described",
      data: { key: "example.router.uptime", first: 0 },
    },
    {
      name: "extension.yaml: one key listed twice in one subgroup, at the second key",
      doc: efSubgroupTwice,
      options: EF2,
      lines: [lineOf(efSubgroupTwice, "- key: example.router.if.in.bytes\n", 2)],
      messageId: "reported",
      data: { key: "example.router.if.in.bytes", ingested: "example.router.if.in.bytes.count" },
      message: "`/snmp/0/subgroups/1/metrics/0`",
    },
    {
      name: "extension.yaml: two keys of one subgroup that Dynatrace ingests as one (`x` and `x.count`, counts)",
      doc: efIngestedTwice,
      options: EF2,
      lines: [lineOf(efIngestedTwice, "- key: example.router.if.in.bytes.count\n", 1)],
      messageId: "reported",
      data: { key: "example.router.if.in.bytes.count", ingested: "example.router.if.in.bytes.count" },
    },
    {
      name: "extension.yaml: one key listed twice in a group's own metrics",
      doc: efGroupTwice,
      options: EF2,
      lines: [lineOf(efGroupTwice, "- key: example.router.sys.services\n", 2)],
      messageId: "reported",
    },
    {
      name: "extension.yaml: a key that a histogram of the same group already ingests",
      doc: efPrometheusTwice,
      options: EF2,
      lines: [lineOf(efPrometheusTwice, "- key: example.prom.latency_count\n", 1)],
      messageId: "reported",
      data: { key: "example.prom.latency_count", ingested: "example.prom.latency_count" },
    },
    {
      name: "host: second timeseries with the same key, at its key value",
      messageId: "duplicate",
      data: { key: "requests", first: 0 },
      doc: twice,
      lines: [lineOf(twice, '"key": "requests"', 2)],
      message: "metric key `requests` is already defined by `metrics[0]`",
      severity: "error",
    },
    {
      name: "three definitions give two findings, both naming the first",
      messageId: "duplicate",
      doc: thrice,
      lines: [lineOf(thrice, '"key": "latency"', 2), lineOf(thrice, '"key": "latency"', 3)],
      message: "already defined by `metrics[1]`",
    },
    {
      name: "remote: a statetimeseries reusing a timeseries key",
      messageId: "duplicate",
      doc: acrossKinds,
      lines: [lineOf(acrossKinds, '"key": "cpu"', 2)],
      message: "`cpu` is already defined",
    },
    {
      name: "remote: two statetimeseries with the same key",
      messageId: "duplicate",
      doc: stateTwice,
      lines: [lineOf(stateTwice, '"key": "status"', 2)],
      message: "keys must be unique within the plugin",
    },
  ],
});
