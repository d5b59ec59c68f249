import { ruleTable, validHost, validRemote, lineOf, make } from "../../helpers.js";

type Obj = Record<string, unknown>;

const names = (doc: Obj, list: unknown[]): string =>
  make(doc, (d) => {
    d.processTypeNames = list; // keeps its place before `technologies`
  });
const ids = (doc: Obj, list: unknown[]): string =>
  make(doc, (d) => {
    delete d.processTypeNames;
    d.processTypes = list;
  });

const typo = names(validHost(), ["PYTHON", "PYTHN"]);
const lowerCase = names(validHost(), ["java"]);
const unknownId = ids(validHost(), [10, 999]);
const byName = { policy: { process_types: ["JAVA", "TOMCAT"] } };
const byId = { policy: { process_types: [10] } };
const pythonName = names(validHost(), ["PYTHON"]);
const pythonId = ids(validHost(), [29]);

ruleTable("unknown-process-type", {
  valid: [
    { name: "host example", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    { name: "host: several known names", doc: names(validHost(), ["JAVA", "TOMCAT", "NODE_JS", "ENVOY"]) },
    { name: "host: known ids (0-based: 10 is JAVA, 48 the last)", doc: ids(validHost(), [0, 10, 48]) },
    {
      name: "remote: process types are ignored (ignored-member reports them), never checked",
      doc: names(validRemote(), ["NO_SUCH_TYPE"]),
    },
    {
      name: "policy by name: a listed name passes, and its id too",
      doc: make(validHost(), (d) => {
        d.processTypeNames = ["JAVA"];
        d.processTypes = [10, 12];
      }),
      options: { config: byName },
    },
    {
      name: "policy by id: the name of that id passes",
      doc: names(validHost(), ["JAVA"]),
      options: { config: byId },
    },
    {
      name: "policy from the organisation",
      doc: names(validHost(), ["TOMCAT"]),
      options: { org: byName },
    },
    { name: "rule turned off", doc: typo, options: { config: { rules: { "unknown-process-type": "off" } } } },
  ],
  invalid: [
    {
      name: "host: an unknown name, at the entry, with a suggestion",
      messageId: "name",
      data: { name: "PYTHN", suggestion: ": did you mean `PYTHON`?" },
      doc: typo,
      lines: [lineOf(typo, '"PYTHN"')],
      message:
        "`PYTHN` is not a known process type; the agent silently drops it, so the plugin may never activate: did you mean `PYTHON`?",
      severity: "warning",
    },
    {
      name: "host: names are matched exactly (case-sensitive)",
      messageId: "name",
      doc: lowerCase,
      lines: [lineOf(lowerCase, '"java"')],
      message: "did you mean `JAVA`?",
    },
    {
      name: "host: an unknown id, at the entry",
      messageId: "id",
      doc: unknownId,
      lines: [lineOf(unknownId, "999")],
      message:
        "process type id 999 is not a known process type; the agent silently drops it, so the plugin may never activate (known ids: 0 to 48)",
      severity: "warning",
    },
    {
      name: "policy by names: a built-in name outside the policy is an error",
      messageId: "name",
      doc: pythonName,
      lines: [lineOf(pythonName, '"PYTHON"')],
      message: "`PYTHON` is not allowed by the organisation's policy",
      severity: "error",
      options: { config: byName },
    },
    {
      name: "policy by names: ids are checked against the same list",
      messageId: "id",
      doc: pythonId,
      lines: [lineOf(pythonId, "29")],
      message: /^process type id 29 is not allowed by the organisation's policy$/,
      severity: "error",
      options: { config: byName },
    },
    {
      name: "policy by ids: a name whose id is not listed",
      messageId: "name",
      doc: pythonName,
      lines: [lineOf(pythonName, '"PYTHON"')],
      message: "not allowed by the organisation's policy",
      severity: "error",
      options: { config: byId },
    },
    {
      name: "a configured severity overrides the policy's error",
      messageId: "name",
      doc: pythonName,
      lines: [lineOf(pythonName, '"PYTHON"')],
      severity: "notice",
      options: { config: { ...byName, rules: { "unknown-process-type": "notice" } } },
    },
  ],
});
