import { edit, lineOf, migrating, MIGRATION, ruleTable } from "../../helpers.js";

const { plugin, extension } = MIGRATION;

const POOL = "          dimensions:\n            - key: pool\n              value: property:name\n";
const poolDropped = edit(extension, POOL, "");
const poolRenamed = edit(extension, "            - key: pool\n", "            - key: pool_name\n");
/** `active` moved to the subgroup without dimensions. */
const activeMoved = edit(
  edit(
    extension,
    "            - key: example.pool.active\n              value: attribute:NumActive\n              type: gauge\n",
    "",
  ),
  "          metrics:\n            - key: example.pool.created.count",
  "          metrics:\n            - key: example.pool.active\n              value: attribute:NumActive\n              type: gauge\n            - key: example.pool.created.count",
);

ruleTable("migration-dimension-dropped", {
  valid: [
    { name: "the complete migration", doc: extension, options: migrating() },
    { name: "both files kept", doc: extension, options: migrating(plugin, "kept") },
    {
      name: "a dimension more than EF1 had",
      doc: edit(
        extension,
        "          metrics:\n            - key: example.pool.created.count",
        "          dimensions:\n            - key: host_name\n              value: property:host\n          metrics:\n            - key: example.pool.created.count",
      ),
      options: migrating(),
    },
    { name: "no plugin.json replaced", doc: poolDropped, options: { path: "extension/extension.yaml" } },
  ],
  invalid: [
    {
      name: "the splitting's dimension dropped from the subgroup: one finding per metric, at its query",
      doc: poolDropped,
      options: migrating(),
      lines: [0, 0].map(() => lineOf(poolDropped, "query: com.example.pool")),
      messageId: "dropped",
      data: [
        { key: "active", expected: "example.pool.active", dimension: "pool" },
        { key: "idle", expected: "example.pool.idle", dimension: "pool" },
      ],
      message:
        /^metric `example\.pool\.(active|idle)` has no dimension `pool`, by which EF1 metric `(active|idle)` \(`plugin\.json` line \d+, a file this change deletes\) is split: its values are summed into one series, and charts and alerts split by `pool` break$/,
      severity: "error",
    },
    {
      name: "the dimension under another key, at the subgroup's dimensions",
      doc: poolRenamed,
      options: migrating(),
      lines: [0, 0].map(() => lineOf(poolRenamed, "dimensions:")),
      messageId: "dropped",
      data: { dimension: "pool" },
    },
    {
      name: "a metric moved to a subgroup without the dimension",
      doc: activeMoved,
      options: migrating(),
      lines: [lineOf(activeMoved, "query: com.example.pool", 2)],
      messageId: "dropped",
      data: { key: "active", dimension: "pool" },
    },
  ],
});
