import { ruleTable, validHost, validRemote, text, lineOf } from "../../helpers.js";

type Obj = Record<string, unknown>;

/** The object or array at `path` in a fixture; throws on a wrong path so that no case is vacuous. */
function at<T = Obj>(doc: unknown, ...path: (string | number)[]): T {
  let cur: unknown = doc;
  for (const k of path) {
    if (typeof cur !== "object" || cur === null) throw new Error(`fixture has no ${path.join("/")}`);
    cur = (cur as Record<string | number, unknown>)[k];
  }
  if (typeof cur !== "object" || cur === null) throw new Error(`fixture has no ${path.join("/")}`);
  return cur as T;
}

function make(doc: Obj, edit: (d: Obj) => void): string {
  edit(doc);
  return text(doc);
}

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
      doc: typo,
      lines: [lineOf(typo, '"key": "urll"')],
      message: "`urll` matches no top-level property: did you mean `url`?",
      severity: "error",
    },
    {
      name: "remote: keys are case-sensitive",
      doc: caseDiffers,
      lines: [lineOf(caseDiffers, '"key": "Host"')],
      message: "did you mean `host`?",
    },
    {
      name: "no top-level properties at all: every field is reported",
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
