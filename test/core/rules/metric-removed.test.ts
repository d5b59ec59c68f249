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

/**
 * A JMX extension of two subgroups, each on its own MBeans (`query`): `attribute:Count` of a connection pool is
 * not `attribute:Count` of a cache.
 */
const JMX_POOLS = [
  "name: custom:example.pool",
  'version: "1.7.0"',
  'minDynatraceVersion: "1.275.0"',
  "author:",
  "  name: Example team",
  "jmx:",
  "  groups:",
  "    - group: jmx",
  "      subgroups:",
  "        - subgroup: pools",
  "          query: com.example:type=ConnectionPool,*",
  "          metrics:",
  "            - key: example.pool.requests.count",
  "              value: attribute:Count",
  "              type: count",
  "        - subgroup: caches",
  "          query: com.example:type=Cache,*",
  "          metrics:",
  "            - key: example.cache.size",
  "              value: attribute:Size",
  "",
].join("\n");
const POOL_REQUESTS =
  "            - key: example.pool.requests.count\n              value: attribute:Count\n              type: count\n";
/** The pools' `Count` gone, and a cache's `Count` added: another metric, not the pool's renamed. */
const jmxOtherMBean = JMX_POOLS.replace(POOL_REQUESTS, "").replace(
  "              value: attribute:Size\n",
  "              value: attribute:Size\n            - key: example.cache.hits.count\n              value: attribute:Count\n              type: count\n",
);
/** The pools' `Count` under another key, in its own subgroup: renamed. */
const jmxRenamed = JMX_POOLS.replace("key: example.pool.requests.count", "key: example.pool.calls.count");

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
      name: "extension.yaml: JMX, a metric removed and another MBean's attribute of the same name added: removed, not renamed",
      doc: jmxOtherMBean,
      options: { ...EF2, base: JMX_POOLS },
      lines: [lineOf(jmxOtherMBean, "jmx:")],
      messageId: "removedExtension",
      data: { key: "example.pool.requests.count" },
    },
    {
      name: "extension.yaml: JMX, renamed in its subgroup (the same MBeans, the same attribute): said at the new key",
      doc: jmxRenamed,
      options: { ...EF2, base: JMX_POOLS },
      lines: [lineOf(jmxRenamed, "- key: example.pool.calls.count")],
      messageId: "renamed",
      data: { key: "example.pool.requests.count", now: "example.pool.calls.count", value: "attribute:Count" },
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
