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

const three = make(validHost(), (d) => {
  at<unknown[]>(d, "ui", "keymetrics").push({ key: "latency" }, { key: "requests", aggregation: "max" });
});
const fourRemote = make(validRemote(), (d) => {
  at<unknown[]>(d, "ui", "keymetrics").push({ key: "cpu" }, { key: "cpu" }, { key: "cpu" });
});

ruleTable("keymetrics-limit", {
  valid: [
    { name: "host example (one key metric)", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "exactly two",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "ui", "keymetrics").push({ key: "latency" });
      }),
    },
    {
      name: "an empty list",
      doc: make(validHost(), (d) => {
        at(d, "ui").keymetrics = [];
      }),
    },
    {
      name: "three keycharts and three charts (no limit there)",
      doc: make(validHost(), (d) => {
        const chart = { group: "G", title: "T", series: [{ key: "latency" }] };
        at<unknown[]>(d, "ui", "keycharts").push(chart, chart);
        at<unknown[]>(d, "ui", "charts").push(chart, chart);
      }),
    },
    {
      name: "no ui at all",
      doc: make(validHost(), (d) => {
        delete d.ui;
      }),
    },
    { name: "rule turned off", doc: three, options: { config: { rules: { "keymetrics-limit": "off" } } } },
  ],
  invalid: [
    {
      name: "host: three entries, at the keymetrics key",
      doc: three,
      lines: [lineOf(three, '"keymetrics"')],
      message: "`ui.keymetrics` has 3 entries; at most two are allowed",
      severity: "error",
    },
    {
      name: "remote: four entries, one finding",
      doc: fourRemote,
      lines: [lineOf(fourRemote, '"keymetrics"')],
      message: "has 4 entries",
    },
    {
      name: "lowered to a warning in configuration",
      doc: three,
      lines: [lineOf(three, '"keymetrics"')],
      severity: "warning",
      options: { config: { rules: { "keymetrics-limit": "warning" } } },
    },
  ],
});
