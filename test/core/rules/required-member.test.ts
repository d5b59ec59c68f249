import {
  ruleTable,
  validHost,
  validRemote,
  text,
  lineOf,
  at,
  EXTENSION,
  EF2,
  edit,
  MIGRATION,
} from "../../helpers.js";

type J = Record<string, unknown>;
/** Line of the `{` that opens the innermost object holding `needle` (array elements have no key of their own). */
function openingLine(source: string, needle: string, occurrence = 1): number {
  let idx = -1;
  for (let i = 0; i < occurrence; i++) idx = source.indexOf(needle, idx + 1);
  return source.slice(0, source.lastIndexOf("{", idx)).split("\n").length;
}
function without(doc: J, path: (string | number)[], ...members: string[]): J {
  const o = at(doc, ...path);
  for (const m of members) delete o[m];
  return doc;
}

const noName = text(without(validHost(), [], "name"));
const noVersionNoType = text(without(validHost(), [], "version", "type"));
const noEntityRemote = text(without(validRemote(), [], "entity", "metrics"));
const noSource = text(without(validHost(), [], "source"));
const noClassName = text(without(validHost(), ["source"], "className"));
const noPackageRemote = text(without(validRemote(), ["source"], "package"));
const noUnit = text(without(validHost(), ["metrics", 1, "timeseries"], "unit"));
const noDisplayname = text(without(validHost(), ["metrics", 0, "timeseries"], "displayname"));
const noStates = text(without(validRemote(), ["metrics", 1, "statetimeseries"], "states"));
const noThreshold = text(without(validHost(), ["metrics", 0, "alert_settings", 0], "threshold", "samples"));
const noChartSeries = text(without(validHost(), ["ui", "charts", 0], "series"));
const noSeriesKey = text(without(validHost(), ["ui", "keycharts", 0, "series", 0], "key"));
const noKeymetricKey = text(without(validRemote(), ["ui", "keymetrics", 0], "key"));
const noConfigDisplayName = text(without(validHost(), ["configUI", "properties", 1], "displayName"));
const noPropertyType = text(without(validRemote(), ["properties", 0], "type"));
const emptyObject = "{}\n";

ruleTable("required-member", {
  valid: [
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: a metric without metadata (Dynatrace requires none)",
      doc: edit(
        EXTENSION,
        "  - key: example.router.uptime\n    metadata:\n      displayName: Uptime\n",
        "  - key: example.router.uptime\n    metadata:\n",
      ),
      options: EF2,
    },
    {
      // The JMX data source reference writes its metrics without `type` (a gauge, as in every data source).
      name: "extension.yaml: a JMX metric without type (a gauge)",
      doc: edit(
        MIGRATION.extension,
        "              value: attribute:NumIdle\n              type: gauge\n",
        "              value: attribute:NumIdle\n",
      ),
      options: EF2,
    },
    { name: "the host example", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    {
      name: "only the required members (optional ones removed)",
      doc: without(
        without(
          without(
            validHost(),
            [],
            "metricGroup",
            "requiredAgentVersion",
            "ui",
            "configUI",
            "properties",
            "technologies",
          ),
          ["source"],
          "install_requires",
          "activation",
          "activation_name_pattern",
        ),
        ["metrics", 0, "timeseries"],
        "aggregation",
        "dimensions",
      ),
    },
    {
      name: "alert setting without its optional description",
      doc: without(validHost(), ["metrics", 0, "alert_settings", 0], "description"),
    },
    {
      name: "configUI without displayName (optional there)",
      doc: without(validRemote(), ["configUI"], "displayName"),
    },
    { name: "property without defaultValue", doc: without(validHost(), ["properties", 0], "defaultValue") },
    {
      name: "series with only its key",
      doc: (() => {
        const d = validHost();
        at(d, "ui", "keycharts", 0).series = [{ key: "requests" }];
        return d;
      })(),
    },
    {
      name: "a required member set to null is a type problem, not a missing one",
      doc: { ...validHost(), version: null },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: no author",
      doc: edit(EXTENSION, "author:\n  name: Example team\n", ""),
      options: EF2,
      lines: [1],
      messageId: "missingTop",
      data: { member: "author" },
    },
    {
      name: "extension.yaml: a data source metric without its value",
      doc: edit(EXTENSION, "            value: oid:1.3.6.1.2.1.1.3.0\n", ""),
      options: EF2,
      lines: [lineOf(EXTENSION, "- key: example.router.uptime")],
      messageId: "missing",
      data: { member: "value" },
    },
    {
      name: "extension.yaml: a JMX metric without its value",
      doc: edit(MIGRATION.extension, "              value: attribute:NumIdle\n", ""),
      options: EF2,
      lines: [lineOf(MIGRATION.extension, "- key: example.pool.idle")],
      messageId: "missing",
      data: { member: "value" },
    },
    {
      name: "no name (root: line 1)",
      doc: noName,
      lines: [1],
      message: "missing required member `name`",
      messageId: "missingTop",
      data: { member: "name" },
    },
    {
      name: "no version and no type: one finding each",
      messageId: "missingTop",
      doc: noVersionNoType,
      lines: [1, 1],
      message: /missing required member `(version|type)`/,
    },
    {
      name: "remote without entity and metrics",
      messageId: "missingTop",
      doc: noEntityRemote,
      lines: [1, 1],
      message: /missing required member `(entity|metrics)`/,
    },
    { name: "no source", doc: noSource, lines: [1], message: "`source`", messageId: "missingTop" },
    {
      name: "source without className: at the `source` key",
      messageId: "missing",
      doc: noClassName,
      lines: [lineOf(noClassName, '"source"')],
      message: "`source` is missing required member `className`",
    },
    {
      name: "remote source without package",
      messageId: "missing",
      doc: noPackageRemote,
      lines: [lineOf(noPackageRemote, '"source"')],
      message: "`package`",
    },
    {
      name: "timeseries without unit: at its `timeseries` key",
      messageId: "missing",
      doc: noUnit,
      lines: [lineOf(noUnit, '"timeseries"', 2)],
      message: "`metrics[1].timeseries` is missing required member `unit`",
    },
    {
      name: "timeseries without displayname",
      messageId: "missing",
      doc: noDisplayname,
      lines: [lineOf(noDisplayname, '"timeseries"')],
      message: "`displayname`",
    },
    {
      name: "statetimeseries without states",
      messageId: "missing",
      doc: noStates,
      lines: [lineOf(noStates, '"statetimeseries"')],
      message: "`states`",
    },
    {
      name: "alert setting without threshold and samples: at the element's opening brace",
      messageId: "missing",
      doc: noThreshold,
      lines: [openingLine(noThreshold, '"alert_id"'), openingLine(noThreshold, '"alert_id"')],
      message: /`metrics\[0\]\.alert_settings\[0\]` is missing required member `(threshold|samples)`/,
    },
    {
      name: "chart without series",
      messageId: "missing",
      doc: noChartSeries,
      lines: [openingLine(noChartSeries, '"title": "Latency by endpoint"')],
      message: "`series`",
    },
    {
      name: "series without key",
      messageId: "missing",
      doc: noSeriesKey,
      lines: [openingLine(noSeriesKey, '"displayname": "Requests"', 2)],
      message: "`ui.keycharts[0].series[0]` is missing required member `key`",
    },
    {
      name: "keymetric without key",
      messageId: "missing",
      doc: noKeymetricKey,
      lines: [openingLine(noKeymetricKey, '"aggregation": "max"')],
      message: "`key`",
    },
    {
      name: "configUI property without displayName",
      messageId: "missing",
      doc: noConfigDisplayName,
      lines: [openingLine(noConfigDisplayName, '"key": "timeout"')],
      message: "`configUI.properties[1]` is missing required member `displayName`",
    },
    {
      name: "property without type",
      messageId: "missing",
      doc: noPropertyType,
      lines: [openingLine(noPropertyType, '"key": "host"', 2)],
      message: "`properties[0]` is missing required member `type`",
    },
    {
      name: "an empty object lacks all six top-level members",
      doc: emptyObject,
      lines: [1, 1, 1, 1, 1, 1],
      messageId: "missingTop",
    },
    {
      name: "severity can be lowered",
      messageId: "missing",
      doc: noClassName,
      lines: [lineOf(noClassName, '"source"')],
      severity: "warning",
      options: { config: { rules: { "required-member": "warning" } } },
    },
  ],
});

ruleTable("required-member", {
  valid: [
    { name: "turned off", doc: noClassName, options: { config: { rules: { "required-member": "off" } } } },
  ],
  invalid: [],
});
