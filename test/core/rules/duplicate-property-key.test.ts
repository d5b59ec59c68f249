import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

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
  ],
});
