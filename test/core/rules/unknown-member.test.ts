import {
  ruleTable,
  validHost,
  validRemote,
  text,
  lineOf,
  at,
  set,
  edit,
  EXTENSION,
  EF2,
} from "../../helpers.js";

const typo = set(validHost(), ["metrics", 1, "timeseries"], "aggeragation", "avg");
const colour = set(validRemote(), ["ui", "keycharts", 0, "series", 0], "colour", "#fff");
const misplaced = set(validHost(), [], "activation", "Singleton");
const misplacedClass = set(validRemote(), [], "className", "DemoDevicePlugin");
const unrelated = set(validHost(), [], "author", "me");
const inSource = set(validHost(), ["source"], "packges", ["demo_plugin"]);
const inAlert = set(validRemote(), ["metrics", 0, "alert_settings", 0], "severity", "high");
const inConfigUI = set(validHost(), ["configUI", "properties", 0], "display_hint", "x");
const two = text(
  (() => {
    const d = validHost();
    d.Name = "x";
    at(d, "properties", 1).defaultvalue = 5;
    return d;
  })(),
);

/**
 * The SQL data source's query frequency and timeout as its reference documents them: an interval a variable
 * sets (`minutes: var:<id>`), a `timeout` (seconds, a string or a variable) and a cron `schedule`.
 */
const SQL_FREQUENCY = `name: custom:example.sql
version: 1.0.0
minDynatraceVersion: "1.303"
author:
  name: x
vars:
  - id: myInterval
    displayName: Interval
    defaultValue: "10"
    pattern: ^[0-9]+$
    type: text
  - id: myTimeout
    displayName: Timeout
    type: text
sqlOracle:
  - group: cpu
    interval:
      minutes: var:myInterval
    timeout: "20"
    query: SELECT value AS cpu_count FROM v$parameter WHERE name = 'cpu_count'
    metrics:
      - key: example.sql.cpu.cores
        value: col:cpu_count
    subgroups:
      - subgroup: scheduled
        schedule: "0 12 ? * 2-6"
        timeout: var:myTimeout
        query: SELECT 1 AS one FROM dual
        metrics:
          - key: example.sql.one
            value: col:one
`;

ruleTable("unknown-member", {
  valid: [
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: an SQL group's and subgroup's `timeout` and `schedule` (SQL data source reference)",
      doc: SQL_FREQUENCY,
      options: EF2,
    },
    {
      name: "extension.yaml: top-level members of the real schema (snmptraps, processes, gcp, documents)",
      doc: `${EXTENSION}processes: []\ngcp: []\ndocuments:\n  dashboards: []\nsnmptraps:\n  - group: traps\n    metrics:\n      - key: example.traps.count\n        value: calculated\n        type: count,delta\n`,
      options: EF2,
    },
    {
      name: "extension.yaml: `jdbc` (SQL over a JDBC driver) and `alertTemplates`, both in Dynatrace's examples",
      doc: `${EXTENSION}alertTemplates:\n  - title: Rows\n    analyzer:\n      name: dt.statistics.ui.anomaly_detection.StaticThresholdAnomalyDetectionAnalyzer\njdbc:\n  driverClassName: org.mariadb.jdbc.Driver\n  validationQuery: SELECT 1\n  groups:\n    - group: products\n      ingest: metrics\n      query: SELECT code, count(*) as quantity FROM products\n      metrics:\n        - key: example.jdbc.quantity\n          value: col:quantity\n      dimensions:\n        - key: code\n          value: col:code\n`,
      options: EF2,
    },
    {
      name: "extension.yaml: `keywords`, the Hub's search words (Dynatrace's own sql-oracle extension lists them)",
      doc: `${EXTENSION}keywords:\n  - "DATABASE"\n  - "ORACLE"\n`,
      options: EF2,
    },
    { name: "the host example", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    {
      name: "a metric's `source` is free-form",
      doc: set(validHost(), ["metrics", 0], "source", {
        domain: "java.lang",
        keyProperties: { type: "Memory" },
        anything: [1],
      }),
    },
    {
      name: "favicon in a host plugin (ignored-member, not unknown)",
      doc: set(validHost(), [], "favicon", "https://x/y.png"),
    },
    {
      name: "processTypeNames in a remote plugin (ignored-member, not unknown)",
      doc: set(validRemote(), [], "processTypeNames", ["PYTHON"]),
    },
    {
      name: "reserved members are known (reserved-member reports them)",
      doc: set(validHost(), [], "experimentalMinVersion", "1.0"),
    },
    {
      name: "statetimeseries in a host plugin is known (variant-mismatch reports it)",
      doc: set(validHost(), ["metrics", 1], "statetimeseries", { key: "s", states: ["A"], displayname: "S" }),
    },
    {
      name: "series dimensions",
      doc: set(validRemote(), ["ui", "keycharts", 0, "series", 0], "dimensions", ["core"]),
    },
  ],
  invalid: [
    {
      name: "extension.yaml: a misspelt top-level member",
      doc: edit(EXTENSION, "dashboards:\n", "dashboard:\n"),
      options: EF2,
      lines: [lineOf(EXTENSION, "dashboards:\n")],
      messageId: "unknownNear",
      data: { member: "dashboard", suggestion: "dashboards" },
      suggestions: [
        [{ desc: "rename to `dashboards`", output: edit(EXTENSION, "dashboards:\n", '"dashboards":\n') }],
      ],
    },
    {
      name: "extension.yaml: Microsoft SQL Server's data source under another name: `sqlServer`, not the nearest spelling (`sqlMySql`)",
      doc: edit(EXTENSION, "\nsnmp:\n", "\nsqlMssql:\n"),
      options: EF2,
      lines: [lineOf(EXTENSION, "\nsnmp:\n") + 1],
      messageId: "unknownNear",
      data: { member: "sqlMssql", suggestion: "sqlServer" },
      suggestions: [
        [
          {
            desc: "rename to `sqlServer`",
            output: edit(EXTENSION, "\nsnmp:\n", '\n"sqlServer":\n'),
          },
        ],
      ],
    },
    {
      name: "extension.yaml: a member a subgroup does not have",
      doc: edit(EXTENSION, "        table: true\n", "        table: true\n        tabel: true\n"),
      options: EF2,
      lines: [lineOf(EXTENSION, "table: true") + 1],
      messageId: "unknownNear",
    },
    {
      name: "`aggeragation` → `aggregation`: at the key",
      messageId: "unknownNear",
      data: { member: "aggeragation", where: " in `metrics[1].timeseries`", suggestion: "aggregation" },
      suggestions: [
        [{ desc: "rename to `aggregation`", output: edit(typo, '"aggeragation"', '"aggregation"') }],
      ],
      doc: typo,
      lines: [lineOf(typo, '"aggeragation"')],
      message: "unknown member `aggeragation` in `metrics[1].timeseries`: did you mean `aggregation`?",
      severity: "warning",
    },
    {
      name: "`colour` → `color` (remote)",
      messageId: "unknownNear",
      suggestions: [[{ desc: "rename to `color`", output: edit(colour, '"colour"', '"color"') }]],
      doc: colour,
      lines: [lineOf(colour, '"colour"')],
      message: "did you mean `color`?",
    },
    {
      name: "`activation` at the top level belongs inside `source`",
      messageId: "misplaced",
      doc: misplaced,
      lines: [lineOf(misplaced, '"activation": "Singleton"', 2)],
      message: "unknown member `activation`: `activation` belongs inside `source`",
    },
    {
      name: "`className` at the top level (remote)",
      messageId: "misplaced",
      doc: misplacedClass,
      lines: [lineOf(misplacedClass, '"className"', 2)],
      message: /`className`/,
    },
    {
      name: "an unrelated name lists the known members",
      messageId: "unknownKnown",
      doc: unrelated,
      lines: [lineOf(unrelated, '"author"')],
      message: /unknown member `author` \(known members: `name`, `version`/,
    },
    {
      name: "inside source",
      messageId: "unknownNear",
      suggestions: [[{ desc: "rename to `packages`", output: edit(inSource, '"packges"', '"packages"') }]],
      doc: inSource,
      lines: [lineOf(inSource, '"packges"')],
      message: "did you mean `packages`?",
    },
    {
      name: "inside an alert setting",
      messageId: "unknownKnown",
      doc: inAlert,
      lines: [lineOf(inAlert, '"severity"')],
      message: "in `metrics[0].alert_settings[0]`",
    },
    {
      name: "inside a configUI property",
      messageId: "unknownNear",
      doc: inConfigUI,
      lines: [lineOf(inConfigUI, '"display_hint"')],
      message: "did you mean `displayHint`?",
    },
    {
      name: "member names are case-sensitive: two findings in line order",
      messageId: "unknownNear",
      doc: two,
      lines: [lineOf(two, '"defaultvalue"'), lineOf(two, '"Name"')].sort((a, b) => a - b),
      message: /did you mean `(name|defaultValue)`\?/,
    },
    {
      name: "severity can be raised",
      messageId: "unknownNear",
      suggestions: [
        [{ desc: "rename to `aggregation`", output: edit(typo, '"aggeragation"', '"aggregation"') }],
      ],
      doc: typo,
      lines: [lineOf(typo, '"aggeragation"')],
      severity: "error",
      options: { config: { rules: { "unknown-member": "error" } } },
    },
  ],
});

ruleTable("unknown-member", {
  valid: [{ name: "turned off", doc: typo, options: { config: { rules: { "unknown-member": "off" } } } }],
  invalid: [],
});
