import { EF2, edit, EXTENSION, ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

// In the configUI comes before properties: `"key": "url"` occurs first in configUI.
const topLevel = make(validHost(), (d) => {
  at<unknown[]>(d, "properties").push({ key: "url", type: "STRING" });
});
const inConfigUI = make(validHost(), (d) => {
  at<unknown[]>(d, "configUI", "properties").push({ key: "timeout", displayName: "Timeout again" });
});
const remoteBoth = make(validRemote(), (d) => {
  at<unknown[]>(d, "configUI", "properties").push({ key: "mode", displayName: "Mode 2" });
  at<unknown[]>(d, "properties").push({ key: "notes", type: "String" });
});

// EXTENSION declares one variable, `if_name_filter`, which a dimension filter uses.
const addVar = (doc: string, id: string, name: string) =>
  edit(
    doc,
    "    type: pattern\n",
    `    type: pattern\n  - id: ${id}\n    displayName: ${name}\n    type: text\n`,
  );
const twoVars = addVar(EXTENSION, "if_name_filter", "Interfaces again");
const threeVars = addVar(twoVars, "if_name_filter", "And again");
const otherCase = addVar(EXTENSION, "IF_NAME_FILTER", "Upper case");

ruleTable("duplicate-property-key", {
  valid: [
    { name: "host example (each key once per list, and in both lists)", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "keys differing only by case",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "properties").push({ key: "URL", type: "STRING" });
      }),
    },
    {
      name: "a property key equal to a metric key",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "properties").push({ key: "requests", type: "STRING" });
      }),
    },
    {
      name: "rule turned off",
      doc: topLevel,
      options: { config: { rules: { "duplicate-property-key": "off" } } },
    },
    { name: "an extension: each variable once", doc: EXTENSION, options: EF2 },
    { name: "an extension: variable ids differing only by case", doc: otherCase, options: EF2 },
  ],
  invalid: [
    {
      name: "host: two top-level properties, at the second key value",
      messageId: "duplicate",
      data: { key: "url", first: 0 },
      doc: topLevel,
      lines: [lineOf(topLevel, '"key": "url"', 3)],
      message: "property key `url` is already used at index 0",
      severity: "error",
    },
    {
      name: "host: two configUI fields",
      messageId: "duplicate",
      doc: inConfigUI,
      lines: [lineOf(inConfigUI, '"key": "timeout"', 2)],
      message: "`timeout` is already used at index 1",
    },
    {
      name: "remote: one duplicate in each list",
      messageId: "duplicate",
      doc: remoteBoth,
      lines: [lineOf(remoteBoth, '"key": "mode"', 2), lineOf(remoteBoth, '"key": "notes"', 3)],
      message: /property key `(mode|notes)` is already used at index [12]/,
    },
    {
      name: "an extension: two vars with one id, at the second one's id",
      messageId: "variable",
      data: { key: "if_name_filter", first: 0 },
      doc: twoVars,
      options: EF2,
      lines: [lineOf(twoVars, "- id: if_name_filter", 2)],
      severity: "error",
      message:
        "variable `if_name_filter` is already declared at index 0 of `vars`: a monitoring configuration holds one value for both",
    },
    {
      name: "an extension: three vars with one id, each after the first",
      messageId: "variable",
      doc: threeVars,
      options: EF2,
      lines: [lineOf(threeVars, "- id: if_name_filter", 2), lineOf(threeVars, "- id: if_name_filter", 3)],
    },
  ],
});
