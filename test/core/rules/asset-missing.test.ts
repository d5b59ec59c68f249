import { EF2, lineOf, ruleTable } from "../../helpers.js";

const extension = `name: custom:example.assets
version: "1.0.0"
minDynatraceVersion: "1.285"
author:
  name: Acme
alerts:
  - path: alerts/cpu-high.json
dashboards:
  - path: ./dashboards/overview.json
documents:
  dashboards:
    - displayName: Overview
      path: documents/overview.json
`;

const ALL = [
  "extension/extension.yaml",
  "extension/alerts/cpu-high.json",
  "extension/dashboards/overview.json",
  "extension/documents/overview.json",
];

/** The options of a check of `extension/extension.yaml` whose project lists `paths`. */
const listing = (paths: string[]) => ({ ...EF2, files: { paths } });
const without = (gone: string) => listing(ALL.filter((p) => p !== gone));
const renamed = extension.replace("alerts/cpu-high.json", "alerts/cpu.json");

/** Every listed file there, the alert file read with `alert` as its content (as the caller read it). */
const alertHolds = (alert: string | Uint8Array | { tooLarge: number }) => ({
  ...EF2,
  files: {
    paths: [...ALL, "extension/alerts/late.json"],
    contents: new Map([
      ["extension/alerts/cpu-high.json", alert],
      ["extension/alerts/late.json", "not json either"],
    ]),
  },
});
const EVENT = '{ "name": "CPU high", "metricId": "custom:example.assets.cpu" }';
const ALERT_LINE = "path: alerts/cpu-high.json";
/** Every listed file there (and `more`), the dashboards' files read with `dashboard` and `document` as contents. */
const dashboardsHold = (
  dashboard: string | Uint8Array | { tooLarge: number },
  document: string | Uint8Array | { tooLarge: number } = "{}",
  more: string[] = [],
) => ({
  ...EF2,
  files: {
    paths: [...ALL, ...more],
    contents: new Map([
      ["extension/alerts/cpu-high.json", EVENT],
      ["extension/dashboards/overview.json", dashboard],
      ["extension/documents/overview.json", document],
    ]),
  },
});
const DASHBOARD = '{\n  "dashboardMetadata": { "name": "Overview" },\n  "tiles": []\n}';
const DASHBOARD_LINE = "path: ./dashboards/overview.json";
const DOCUMENT_LINE = "path: documents/overview.json";
/** The extension listing its dashboard 21 times, then another (past the files read). */
const dashboardTwice = extension.replace(
  "  - path: ./dashboards/overview.json\n",
  `${"  - path: ./dashboards/overview.json\n".repeat(20)}  - path: dashboards/late.json\n`,
);

/** The extension listing its alert 21 times (once as `./`), then another (past the files read). */
const twice = extension.replace(
  "  - path: alerts/cpu-high.json\n",
  `  - path: alerts/cpu-high.json\n  - path: ./alerts/cpu-high.json\n${"  - path: alerts/cpu-high.json\n".repeat(19)}  - path: alerts/late.json\n`,
);

ruleTable("asset-missing", {
  valid: [
    { name: "every listed file there (a ./ prefix too)", doc: extension, options: listing(ALL) },
    { name: "no files listed: not judged", doc: renamed, options: EF2 },
    {
      name: "only the changed files given, none listed: not judged",
      doc: renamed,
      options: { ...EF2, files: { changed: ["extension/alerts/cpu-high.json"] } },
    },
    {
      name: "a path that climbs out of the extension or is absolute: not judged",
      doc: extension
        .replace("alerts/cpu-high.json", "../alerts/cpu-high.json")
        .replace("./dashboards/overview.json", "/dashboards/overview.json")
        .replace("documents/overview.json", "C:/documents/overview.json"),
      options: listing(["extension/extension.yaml"]),
    },
    {
      name: "a lone extension.yaml (copied out of its project): none of its listed files nor their folders, not judged",
      doc: extension,
      options: listing(["extension/extension.yaml", "extension/activationSchema.json"]),
    },
    {
      name: "a symbolic link, listed by its name",
      doc: extension,
      options: listing([...ALL.filter((p) => !p.includes("alerts")), "extension/alerts/cpu-high.json/"]),
    },
    {
      name: "files under a symbolic link's folder, listed by its name: not missing",
      doc: extension,
      options: listing([...ALL.filter((p) => !p.includes("dashboards")), "extension/dashboards/"]),
    },
    {
      name: "an alert file holding a metric event's JSON (a byte order mark before it too)",
      doc: extension,
      options: alertHolds(`\uFEFF${EVENT}`),
    },
    {
      name: "a dashboard and a documents.dashboards file holding JSON objects (a byte order mark too): nothing more judged",
      doc: extension,
      options: dashboardsHold(DASHBOARD, `\uFEFF{ "version": "1", "content": "anything" }`),
    },
    {
      name: "a dashboard listed past the 20 read: not judged",
      doc: dashboardTwice,
      options: {
        ...EF2,
        files: {
          paths: [...ALL, "extension/dashboards/late.json"],
          contents: new Map([
            ["extension/dashboards/overview.json", DASHBOARD],
            ["extension/dashboards/late.json", "not json"],
          ]),
        },
      },
    },
  ],
  invalid: [
    {
      name: "a dashboard with a trailing comma, at its entry",
      doc: extension,
      options: dashboardsHold('{\n  "tiles": [],\n}'),
      lines: [lineOf(extension, DASHBOARD_LINE)],
      messageId: "dashboardUnreadable",
      data: { path: "./dashboards/overview.json", problem: "is not valid JSON (line 3, column 1)" },
      message:
        "dashboard `./dashboards/overview.json` is not valid JSON (line 3, column 1): Dynatrace cannot import the dashboard it should hold",
      severity: "error",
    },
    {
      name: "a documents.dashboards file with a trailing comma, at its entry",
      doc: extension,
      options: dashboardsHold(DASHBOARD, '{ "version": "1", }'),
      lines: [lineOf(extension, DOCUMENT_LINE)],
      messageId: "dashboardUnreadable",
      data: { path: "documents/overview.json", problem: "is not valid JSON (line 1, column 19)" },
    },
    {
      name: "a dashboard holding JSON that is no object, a document that is not UTF-8",
      doc: extension,
      options: dashboardsHold("[]", new Uint8Array([0x7b, 0xff, 0x7d])),
      lines: [lineOf(extension, DASHBOARD_LINE), lineOf(extension, DOCUMENT_LINE)],
      messageId: "dashboardUnreadable",
      data: [
        { problem: "is not a JSON object (the dashboard Dynatrace imports)" },
        { problem: "is not UTF-8 text" },
      ],
    },
    {
      name: "a dashboard larger than max_file_size (given by its size alone, as the App reads it): a warning",
      doc: extension,
      options: dashboardsHold({ tooLarge: 6_000_000 }),
      lines: [lineOf(extension, DASHBOARD_LINE)],
      messageId: "dashboardUnchecked",
      message:
        "dashboard `./dashboards/overview.json` is larger than max_file_size (5242880 bytes), so it was not checked to be JSON",
      severity: "warning",
    },
    {
      name: "a dashboard broken, listed 20 times: said once, at its first entry",
      doc: dashboardTwice,
      options: dashboardsHold("not json", "{}", ["extension/dashboards/late.json"]),
      lines: [lineOf(dashboardTwice, DASHBOARD_LINE)],
      messageId: "dashboardUnreadable",
    },
    {
      name: "an alert file that is not JSON, at its entry",
      doc: extension,
      options: alertHolds('{\n  "name": "CPU high",\n}'),
      lines: [lineOf(extension, ALERT_LINE)],
      messageId: "unreadable",
      data: { path: "alerts/cpu-high.json", problem: "is not valid JSON (line 3, column 1)" },
      message:
        "alert `alerts/cpu-high.json` is not valid JSON (line 3, column 1): Dynatrace cannot import the metric event it should hold",
      severity: "error",
    },
    {
      name: "an alert file cut short",
      doc: extension,
      options: alertHolds('{ "name": "CPU'),
      lines: [lineOf(extension, ALERT_LINE)],
      messageId: "unreadable",
      data: { problem: "is not valid JSON (line 1, column 15)" },
    },
    {
      name: "an alert file holding JSON that is no object",
      doc: extension,
      options: alertHolds(`[${EVENT}]`),
      lines: [lineOf(extension, ALERT_LINE)],
      messageId: "unreadable",
      data: { problem: "is not a JSON object (the metric event Dynatrace imports)" },
    },
    {
      name: "an alert file that is not UTF-8",
      doc: extension,
      options: alertHolds(new Uint8Array([0x7b, 0xff, 0x7d])),
      lines: [lineOf(extension, ALERT_LINE)],
      messageId: "unreadable",
      data: { problem: "is not UTF-8 text" },
    },
    {
      name: "an alert file larger than max_file_size (given by its size alone, as the App reads it): a warning",
      doc: extension,
      options: alertHolds({ tooLarge: 6_000_000 }),
      lines: [lineOf(extension, ALERT_LINE)],
      messageId: "unchecked",
      message:
        "alert `alerts/cpu-high.json` is larger than max_file_size (5242880 bytes), so the metric event it holds was not checked",
      severity: "warning",
    },
    {
      name: "an alert file broken, listed 21 times: said once, at its first entry; the 22nd entry is not read",
      doc: twice,
      options: alertHolds("not json"),
      lines: [lineOf(twice, ALERT_LINE)],
      messageId: "unreadable",
    },
    {
      name: "an alert's file deleted, still listed",
      doc: extension,
      options: without("extension/alerts/cpu-high.json"),
      lines: [lineOf(extension, "path: alerts/cpu-high.json")],
      messageId: "missing",
      data: { path: "alerts/cpu-high.json", file: "extension/alerts/cpu-high.json" },
      severity: "error",
    },
    {
      name: "an alert renamed in extension.yaml alone",
      doc: renamed,
      options: listing(ALL),
      lines: [lineOf(renamed, "path: alerts/cpu.json")],
      messageId: "missing",
      data: { path: "alerts/cpu.json", file: "extension/alerts/cpu.json" },
    },
    {
      name: "a dashboard named with ./, gone",
      doc: extension,
      options: without("extension/dashboards/overview.json"),
      lines: [lineOf(extension, "path: ./dashboards/overview.json")],
      messageId: "missing",
      data: { path: "./dashboards/overview.json", file: "extension/dashboards/overview.json" },
    },
    {
      name: "a documents.dashboards file gone",
      doc: extension,
      options: without("extension/documents/overview.json"),
      lines: [lineOf(extension, "path: documents/overview.json")],
      messageId: "missing",
      data: { file: "extension/documents/overview.json" },
    },
    {
      name: "every listed file gone, one renamed in its folder, the extension.yaml at the repository's root",
      doc: extension,
      options: {
        path: "extension.yaml",
        files: { paths: ["extension.yaml", "README.md", "alerts/cpu.json"] },
      },
      lines: [
        lineOf(extension, "path: alerts/cpu-high.json"),
        lineOf(extension, "path: ./dashboards/overview.json"),
        lineOf(extension, "path: documents/overview.json"),
      ],
      messageId: "missing",
      data: [
        { file: "alerts/cpu-high.json" },
        { file: "dashboards/overview.json" },
        { file: "documents/overview.json" },
      ],
    },
  ],
});
