import { ruleTable, validHost, validRemote, lineOf, at, make, EF2, EXTENSION } from "../../helpers.js";

const oneGone = make(validHost(), (d) => {
  at<unknown[]>(d, "metrics").pop();
});
const renamedKey = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").key = "requests_per_second";
});
const allGone = make(validHost(), (d) => {
  delete d.metrics;
});
const stateGone = make(validRemote(), (d) => {
  at<unknown[]>(d, "metrics").pop();
});

const efRemoved = EXTENSION.replace(
  "          - key: example.router.if.errors\n            value: oid:1.3.6.1.2.1.2.2.1.14\n            type: count\n            featureSet: errors\n",
  "",
);
const efRenamed = EXTENSION.replace(
  "- key: example.router.if.out.bytes\n",
  "- key: example.router.if.tx.bytes\n",
);

ruleTable("metric-removed", {
  valid: [
    {
      name: "extension.yaml: a count's key written with `.count` is the same metric",
      doc: EXTENSION.replace("- key: example.router.if.errors\n", "- key: example.router.if.errors.count\n"),
      options: { ...EF2, base: EXTENSION },
    },
    { name: "unchanged", doc: validHost(), options: { base: validHost() } },
    {
      name: "metrics reordered",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "metrics").reverse();
      }),
      options: { base: validHost() },
    },
    {
      name: "a metric added",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "metrics").push({
          timeseries: { key: "errors", unit: "Count", displayname: "Errors" },
        });
      }),
      options: { base: validHost() },
    },
    {
      name: "a key kept but moved from statetimeseries to timeseries",
      doc: make(validRemote(), (d) => {
        at(d, "metrics")[1] = { timeseries: { key: "status", unit: "Count", displayname: "Status" } };
      }),
      options: { base: validRemote() },
    },
    {
      name: "only its chart removed",
      doc: make(validHost(), (d) => {
        at(d, "ui").charts = [];
      }),
      options: { base: validHost() },
    },
    { name: "no base", doc: oneGone },
    {
      name: "rule turned off",
      doc: oneGone,
      options: { base: validHost(), config: { rules: { "metric-removed": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: a metric removed from the data source, its metadata kept",
      doc: efRemoved,
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(efRemoved, "snmp:")],
      messageId: "removedExtension",
      data: { key: "example.router.if.errors.count" },
      severity: "warning",
    },
    {
      name: "extension.yaml: renamed, reading the same OID: said at the new key",
      doc: efRenamed,
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(efRenamed, "- key: example.router.if.tx.bytes")],
      messageId: "renamed",
      data: {
        key: "example.router.if.out.bytes.count",
        now: "example.router.if.tx.bytes.count",
        value: "oid:1.3.6.1.2.1.2.2.1.16",
      },
    },
    {
      name: "host: a timeseries removed, at head's metrics key",
      messageId: "removed",
      data: { key: "latency" },
      doc: oneGone,
      lines: [lineOf(oneGone, '"metrics"')],
      message: "metric `latency` was removed; charts, alerts and dashboards that use it stop receiving data",
      severity: "warning",
      options: { base: validHost() },
    },
    {
      name: "a renamed key is a removal",
      messageId: "removed",
      doc: renamedKey,
      lines: [lineOf(renamedKey, '"metrics"')],
      message: "metric `requests` was removed",
      options: { base: validHost() },
    },
    {
      name: "metrics member gone: one finding per metric, at line 1",
      messageId: "removed",
      doc: allGone,
      lines: [1, 1],
      message: /^metric `(requests|latency)` was removed/,
      options: { base: validHost() },
    },
    {
      name: "remote: a statetimeseries removed",
      messageId: "removed",
      doc: stateGone,
      lines: [lineOf(stateGone, '"metrics"')],
      message: "metric `status` was removed",
      options: { base: validRemote() },
    },
  ],
});
