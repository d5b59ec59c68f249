import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

const typo = make(validHost(), (d) => {
  at(d, "configUI", "properties", 0).key = "urll";
});
const caseDiffers = make(validRemote(), (d) => {
  at(d, "configUI", "properties", 0).key = "Host";
});
const noProperties = make(validHost(), (d) => {
  delete d.properties;
});

ruleTable("config-property-unknown", {
  valid: [
    { name: "host example", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "a property without a configUI field (only fields need a property)",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "configUI", "properties").pop();
      }),
    },
    {
      name: "no configUI properties and no properties",
      doc: make(validHost(), (d) => {
        delete d.configUI;
        delete d.properties;
      }),
    },
    {
      name: "a configUI field without a key is for required-member",
      doc: make(validHost(), (d) => {
        delete at(d, "configUI", "properties", 0).key;
      }),
    },
    {
      name: "rule turned off",
      doc: typo,
      options: { config: { rules: { "config-property-unknown": "off" } } },
    },
  ],
  invalid: [
    {
      name: "host: a typo, at the configUI key value, with a suggestion",
      messageId: "unknown",
      data: { key: "urll", suggestion: ": did you mean `url`?" },
      doc: typo,
      lines: [lineOf(typo, '"key": "urll"')],
      message: "`urll` matches no top-level property: did you mean `url`?",
      severity: "error",
    },
    {
      name: "remote: keys are case-sensitive",
      messageId: "unknown",
      doc: caseDiffers,
      lines: [lineOf(caseDiffers, '"key": "Host"')],
      message: "did you mean `host`?",
    },
    {
      name: "no top-level properties at all: every field is reported",
      messageId: "unknown",
      doc: noProperties,
      lines: [
        lineOf(noProperties, '"key": "url"'),
        lineOf(noProperties, '"key": "timeout"'),
        lineOf(noProperties, '"key": "password"'),
      ],
      message: /^`(url|timeout|password)` matches no top-level property$/,
    },
  ],
});
