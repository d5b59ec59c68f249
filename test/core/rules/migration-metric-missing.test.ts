import { edit, lineOf, migrating, MIGRATION, ruleTable, validHost } from "../../helpers.js";

const { plugin, extension } = MIGRATION;
/** The EF1 line of a metric, as the finding names it: its `key` member in the plugin.json. */
const ef1Line = (key: string) => lineOf(plugin, `"key": "${key}",\n        "unit"`);

const idleGone = edit(
  extension,
  "            - key: example.pool.idle\n              value: attribute:NumIdle\n              type: gauge\n",
  "",
);
const createdSubgroupGone = edit(
  extension,
  "        - subgroup: com.example.pool:type=ConnectionPool,* by no dimension\n          query: com.example.pool:type=ConnectionPool,*\n          metrics:\n            - key: example.pool.created.count\n              value: attribute:CreatedCount\n              type: count\n",
  "",
);
const idleRenamed = edit(extension, "- key: example.pool.idle\n", "- key: example.pool.idle_connections\n");
const noGroups = extension.replace(/^jmx:\n(?: {2}.*\n)+/m, "jmx:\n  groups: []\n");
const noDataSource = extension.replace(/^jmx:\n(?: {2}.*\n)+/m, "");
const otherName = extension
  .replace("name: custom:example.pool", "name: custom:acme.pool")
  .replace(/key: example\.pool\./g, "key: acme.pool.");

/** A Python plugin (examples/host-valid) and its extension: the metrics: list names what its code sends. */
const pythonExtension = `name: custom:tech.python.demo
version: "1.2.0"
python:
  runtime:
    module: demo_plugin
metrics:
  - key: tech.python.demo.requests
    metadata:
      displayName: Requests per second
`;

ruleTable("migration-metric-missing", {
  valid: [
    { name: "the complete migration, the plugin.json deleted", doc: extension, options: migrating() },
    { name: "the complete migration, both files kept", doc: extension, options: migrating(plugin, "kept") },
    {
      name: "keys follow the extension's own name",
      doc: otherName,
      options: migrating(),
    },
    {
      name: "metrics in other subgroups, in another order",
      doc: edit(
        extension,
        "            - key: example.pool.active\n              value: attribute:NumActive\n              type: gauge\n            - key: example.pool.idle\n              value: attribute:NumIdle\n              type: gauge\n",
        "            - key: example.pool.idle\n              value: attribute:NumIdle\n              type: gauge\n            - key: example.pool.active\n              value: attribute:NumActive\n              type: gauge\n",
      ),
      options: migrating(),
    },
    {
      name: "an extension.yaml that replaces no plugin.json",
      doc: idleGone,
      options: { path: "extension.yaml" },
    },
    {
      name: "rule turned off",
      doc: idleGone,
      options: { ...migrating(), config: { rules: { "migration-metric-missing": "off" } } },
    },
  ],
  invalid: [
    {
      name: "a metric left out: at its subgroup's metrics, naming its EF1 line",
      doc: idleGone,
      options: migrating(),
      lines: [lineOf(idleGone, "metrics:")],
      messageId: "missing",
      data: {
        key: "idle",
        expected: "example.pool.idle",
        ef1: `\`plugin.json\` line ${ef1Line("idle")}, a file this change deletes`,
      },
      message:
        "EF1 metric `idle` (`plugin.json` line 27, a file this change deletes) is not in the extension: it should be `example.pool.idle`; dashboards, alerts and SLOs that use it lose their data",
      severity: "error",
    },
    {
      name: "the plugin.json kept: its line as it is",
      doc: idleGone,
      options: migrating(plugin, "kept"),
      lines: [lineOf(idleGone, "metrics:")],
      messageId: "missing",
      data: { ef1: `\`plugin.json\` line ${ef1Line("idle")}` },
    },
    {
      name: "the plugin.json changed too: the base version's line",
      doc: idleGone,
      options: migrating(plugin, "changed"),
      lines: [lineOf(idleGone, "metrics:")],
      messageId: "missing",
      data: { ef1: `\`plugin.json\` line ${ef1Line("idle")} of the base version` },
    },
    {
      name: "its subgroup left out: at the subgroup that queries the same MBeans",
      doc: createdSubgroupGone,
      options: migrating(),
      lines: [lineOf(createdSubgroupGone, "metrics:")],
      messageId: "missing",
      data: { key: "created", expected: "example.pool.created.count" },
    },
    {
      name: "no subgroup at all: at groups",
      doc: noGroups,
      options: migrating(),
      lines: [3, 3, 3].map(() => lineOf(noGroups, "  groups: []")),
      messageId: "missing",
    },
    {
      name: "no data source: at the root, line 1",
      doc: noDataSource,
      options: migrating(),
      lines: [1, 1, 1],
      messageId: "missing",
    },
    {
      name: "a key renamed: at that key, with the expected key as a suggestion",
      doc: idleRenamed,
      options: migrating(),
      lines: [lineOf(idleRenamed, "example.pool.idle_connections")],
      messageId: "renamed",
      data: { key: "idle", now: "example.pool.idle_connections", expected: "example.pool.idle" },
      suggestions: [
        [
          {
            desc: "rename it `example.pool.idle`",
            output: idleRenamed.replace("example.pool.idle_connections", '"example.pool.idle"'),
          },
        ],
      ],
    },
    {
      name: "Python: a metric the metrics: list lacks, at that list",
      doc: pythonExtension,
      options: migrating(validHost()),
      lines: [lineOf(pythonExtension, "metrics:")],
      messageId: "missing",
      data: { key: "latency", expected: "tech.python.demo.latency" },
    },
    {
      name: "Python: no metrics: list, at python:",
      doc: pythonExtension.replace(/^metrics:\n(?: {2}.*\n)+/m, ""),
      options: migrating(validHost()),
      lines: [5, 5].map(() => lineOf(pythonExtension, "python:")),
      messageId: "missing",
    },
    {
      name: "a plugin.json that is not JSON: a notice, nothing compared",
      doc: extension,
      options: migrating("{ not json"),
      lines: [1],
      messageId: "unreadable",
      severity: "notice",
      message:
        "`plugin.json`, which this extension.yaml replaces, is not valid JSON, so its metrics could not be compared with the extension's",
    },
    {
      name: "a PMI plugin.json: a notice, nothing compared",
      doc: extension,
      options: migrating({ ...(JSON.parse(plugin) as Record<string, unknown>), type: "PMI" }),
      lines: [1],
      messageId: "unmapped",
      severity: "notice",
      data: { type: "`PMI`" },
    },
  ],
});
