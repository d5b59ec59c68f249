import { edit, lineOf, make, migrating, MIGRATION, ruleTable } from "../../helpers.js";

const { plugin, extension } = MIGRATION;

const createdAsGauge = edit(
  extension,
  "attribute:CreatedCount\n              type: count",
  "attribute:CreatedCount\n              type: gauge",
);
const activeAsCount = edit(
  extension,
  "attribute:NumActive\n              type: gauge",
  "attribute:NumActive\n              type: count",
);
const activeUntyped = edit(
  extension,
  "attribute:NumActive\n              type: gauge\n",
  "attribute:NumActive\n",
);
/** The EF1 plugin with `active` collected as a delta: its EF2 metric is a count, `example.pool.active.count`. */
const activeDelta = make(JSON.parse(plugin) as Record<string, unknown>, (d) => {
  (
    (d.metrics as Record<string, Record<string, unknown>>[])[0]!.source as Record<string, unknown>
  ).calculateDelta = true;
});

ruleTable("migration-metric-type-changed", {
  valid: [
    { name: "the complete migration", doc: extension, options: migrating() },
    { name: "a metric missing is another rule's", doc: activeAsCount, options: migrating(activeDelta) },
    { name: "no plugin.json replaced", doc: createdAsGauge, options: { path: "extension/extension.yaml" } },
  ],
  invalid: [
    {
      name: "a count made a gauge, at its type, with the type as a suggestion",
      doc: createdAsGauge,
      options: migrating(),
      lines: [lineOf(createdAsGauge, "type: gauge", 3)],
      messageId: "changed",
      data: { key: "created", expected: "example.pool.created.count" },
      message:
        /^metric `example\.pool\.created\.count` is `gauge`, but EF1 metric `created` \(`plugin\.json` line \d+, a file this change deletes\) is `count` \(EF1 `calculateDelta`: the change between collections\); its values change meaning$/,
      severity: "error",
      suggestions: [
        [
          {
            desc: "make it a `count`",
            output: createdAsGauge.replace(
              "attribute:CreatedCount\n              type: gauge",
              'attribute:CreatedCount\n              type: "count"',
            ),
          },
        ],
      ],
    },
    {
      name: "a gauge made a count",
      doc: activeAsCount,
      options: migrating(),
      lines: [lineOf(activeAsCount, "type: count")],
      messageId: "changed",
      message: /is `count`, but EF1 metric `active` .* is `gauge` \(EF1 without `calculateDelta`/,
      suggestions: [
        [
          {
            desc: "make it a `gauge`",
            output: activeAsCount.replace(
              "attribute:NumActive\n              type: count",
              'attribute:NumActive\n              type: "gauge"',
            ),
          },
        ],
      ],
    },
    {
      name: "no type: at its key, without a suggestion",
      doc: activeUntyped,
      options: migrating(),
      lines: [lineOf(activeUntyped, "key: example.pool.active")],
      messageId: "changed",
      message: /^metric `example\.pool\.active` is without a `type`, but/,
    },
  ],
});
