import { EF2, edit, EXTENSION, lineOf, pythonExtension, ruleTable } from "../../helpers.js";

/** The count `if.in.bytes` described without the `.count` Dynatrace appends to its key. */
const countKey = edit(
  EXTENSION,
  "  - key: example.router.if.in.bytes.count\n",
  "  - key: example.router.if.in.bytes\n",
);
/** A metric that left the data source, its metadata kept. */
const removed = edit(
  EXTENSION,
  "          - key: example.router.if.errors\n            value: oid:1.3.6.1.2.1.2.2.1.14\n            type: count\n            featureSet: errors\n",
  "",
);
/** A typo in the metadata's key. */
const typo = edit(
  EXTENSION,
  "  - key: example.router.uptime\n    metadata",
  "  - key: example.router.uptme\n    metadata",
);
const { extension: python, options: pythonOptions } = pythonExtension();

/**
 * A Prometheus extension: a count whose key ends in `_count` (ingested as it is), a histogram (ingested as
 * `_count`, `_sum.count` and `_bucket.count`) and a summary (`_count`, `_sum.count` and its quantiles under its
 * own key), each described under the key Dynatrace ingests (Prometheus data source reference, `type`).
 */
const PROMETHEUS = `name: custom:example.prom
version: 1.0.0
minDynatraceVersion: "1.318"
author:
  name: x
prometheus:
  - group: http
    metrics:
      - key: example.prom.requests_count
        value: metric:requests_count
        type: count
      - key: example.prom.http.duration
        value: metric:http_duration_seconds
        type: histogram
      - key: example.prom.rpc.duration
        value: metric:rpc_duration_seconds
        type: summary
metrics:
  - key: example.prom.requests_count
    metadata:
      unit: Count
  - key: example.prom.http.duration_count
    metadata:
      unit: Count
  - key: example.prom.http.duration_sum.count
    metadata:
      unit: Second
  - key: example.prom.http.duration_bucket.count
    metadata:
      unit: Count
  - key: example.prom.rpc.duration_count
    metadata:
      unit: Count
  - key: example.prom.rpc.duration_sum.count
    metadata:
      unit: Second
  - key: example.prom.rpc.duration
    metadata:
      unit: Second
`;
/** The histogram described under the key it is written with, which Dynatrace never ingests. */
const histogramBase = edit(
  PROMETHEUS,
  "  - key: example.prom.http.duration_sum.count\n",
  "  - key: example.prom.http.duration\n",
);

/** A JDBC extension whose metadata misspells the key its group reports. */
const JDBC = `name: custom:example.jdbc
version: 1.0.0
minDynatraceVersion: "1.318"
author:
  name: x
jdbc:
  driverClassName: org.mariadb.jdbc.Driver
  groups:
    - group: products
      query: SELECT code, count(*) as quantity FROM products
      metrics:
        - key: example.jdbc.quantity
          value: col:quantity
metrics:
  - key: example.jdbc.quantiy
    metadata:
      unit: Count
`;

ruleTable("metric-not-reported", {
  valid: [
    {
      name: "a count's type written `Count` (invalid-value's): whether Dynatrace appends `.count` is not guessed",
      doc: edit(
        EXTENSION,
        "          - key: example.router.if.errors\n            value: oid:1.3.6.1.2.1.2.2.1.14\n            type: count\n",
        "          - key: example.router.if.errors\n            value: oid:1.3.6.1.2.1.2.2.1.14\n            type: Count\n",
      ),
      options: EF2,
    },
    { name: "the valid extension: counts described with `.count`", doc: EXTENSION, options: EF2 },
    { name: "a Python extension: its code reports its metrics", doc: python, options: pythonOptions },
    {
      name: "a calculated metric (`func:`) is reported by no data source",
      doc: edit(
        EXTENSION,
        "\ntopology:",
        "  - key: func:example.router.if.bytes\n    query:\n      metricSelector: (example.router.if.in.bytes.count)+(example.router.if.out.bytes.count)\n\ntopology:",
      ),
      options: EF2,
    },
    {
      name: "an extension without a data source: its metrics are ingested elsewhere",
      doc: "name: custom:example.meta\nversion: 1.0.0\nminDynatraceVersion: '1.285'\nauthor:\n  name: x\nmetrics:\n  - key: example.meta.offset\n    metadata:\n      unit: Second\n",
      options: EF2,
    },
    {
      name: "a count whose key ends in `_count`, described under that key (Dynatrace appends no `.count`)",
      doc: EXTENSION.replace(
        "key: example.router.if.errors\n",
        "key: example.router.if.errors_count\n",
      ).replaceAll("example.router.if.errors.count", "example.router.if.errors_count"),
      options: EF2,
    },
    {
      name: "a count ending in `_count`, a histogram's and a summary's parts, described as Dynatrace ingests them",
      doc: PROMETHEUS,
      options: EF2,
    },
  ],
  invalid: [
    {
      name: "a histogram described under its own key: suggests none, names what is ingested",
      doc: histogramBase,
      options: EF2,
      lines: [lineOf(histogramBase, "  - key: example.prom.http.duration\n    metadata")],
      messageId: "partsKey",
      data: {
        key: "example.prom.http.duration",
        kind: "histogram",
        ingested:
          "`example.prom.http.duration_count`, `example.prom.http.duration_sum.count` and `example.prom.http.duration_bucket.count`",
      },
    },
    {
      name: "a count described without `.count`: suggests the key Dynatrace ingests",
      doc: countKey,
      options: EF2,
      lines: [lineOf(countKey, "      displayName: Bytes received") - 2],
      messageId: "countKey",
      data: { key: "example.router.if.in.bytes", ingested: "example.router.if.in.bytes.count" },
      severity: "warning",
      suggestions: [
        [
          {
            desc: "describe `example.router.if.in.bytes.count`",
            output: edit(
              countKey,
              "\n  - key: example.router.if.in.bytes\n",
              '\n  - key: "example.router.if.in.bytes.count"\n',
            ),
          },
        ],
      ],
    },
    {
      name: "JDBC (SQL over a JDBC driver): its groups' metrics are what it reports",
      doc: JDBC,
      options: EF2,
      lines: [lineOf(JDBC, "  - key: example.jdbc.quantiy")],
      messageId: "unreported",
      message: /did you mean `example\.jdbc\.quantity`\?$/,
    },
    {
      name: "a metric removed from the data source, its metadata left",
      doc: removed,
      options: EF2,
      lines: [lineOf(removed, "- key: example.router.if.errors.count")],
      messageId: "unreported",
      data: { key: "example.router.if.errors.count" },
    },
    {
      name: "a typo in the metadata's key",
      doc: typo,
      options: EF2,
      lines: [lineOf(typo, "example.router.uptme")],
      messageId: "unreported",
      message: /did you mean `example\.router\.uptime`\?$/,
    },
    {
      name: "`.count` twice: Dynatrace appends it only once",
      doc: edit(
        EXTENSION,
        "- key: example.router.if.errors.count\n",
        "- key: example.router.if.errors.count.count\n",
      ),
      options: EF2,
      lines: [lineOf(EXTENSION, "- key: example.router.if.errors.count\n")],
      messageId: "countTwice",
      suggestions: [
        [
          {
            desc: "describe `example.router.if.errors.count`",
            output: edit(
              EXTENSION,
              "- key: example.router.if.errors.count\n",
              '- key: "example.router.if.errors.count"\n',
            ),
          },
        ],
      ],
    },
    {
      name: "a gauge described as a count",
      doc: edit(
        EXTENSION,
        "  - key: example.router.uptime\n    metadata",
        "  - key: example.router.uptime.count\n    metadata",
      ),
      options: EF2,
      lines: [lineOf(EXTENSION, "  - key: example.router.uptime\n    metadata")],
      messageId: "gaugeKey",
      data: { key: "example.router.uptime.count", written: "example.router.uptime" },
    },
  ],
});
