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
  ],
  invalid: [
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
