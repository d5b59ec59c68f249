import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

const stackedLine = make(validHost(), (d) => {
  at(d, "ui", "charts", 0, "series", 0).stacked = true;
});
const upperCase = make(validHost(), (d) => {
  Object.assign(at(d, "ui", "keycharts", 0, "series", 0), { seriestype: "LINE", stacked: true });
});
const remote = make(validRemote(), (d) => {
  at(d, "ui", "keycharts", 0, "series", 0).stacked = true;
});

ruleTable("stacked-line", {
  valid: [
    { name: "host example (stacked area)", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "stacked: false on a line series",
      doc: make(validHost(), (d) => {
        at(d, "ui", "charts", 0, "series", 0).stacked = false;
      }),
    },
    {
      name: "stacked bar",
      doc: make(validHost(), (d) => {
        at(d, "ui", "charts", 0, "series", 1).stacked = true;
      }),
    },
    {
      name: "stacked without seriestype (the default is area)",
      doc: make(validHost(), (d) => {
        const s = at(d, "ui", "keycharts", 0, "series", 0);
        delete s.seriestype;
      }),
    },
    {
      name: 'stacked as the string "true" is for invalid-type',
      doc: make(validHost(), (d) => {
        at(d, "ui", "charts", 0, "series", 0).stacked = "true";
      }),
    },
    { name: "rule turned off", doc: stackedLine, options: { config: { rules: { "stacked-line": "off" } } } },
  ],
  invalid: [
    {
      name: "host chart line series, at the stacked value (a notice)",
      messageId: "noEffect",
      doc: stackedLine,
      lines: [lineOf(stackedLine, '"stacked": true', 2)],
      message: "`stacked` has no effect on a `line` series; only area and bar series stack",
      severity: "notice",
    },
    {
      name: "seriestype in any case",
      messageId: "noEffect",
      doc: upperCase,
      lines: [lineOf(upperCase, '"stacked": true')],
      message: "no effect",
    },
    {
      name: "remote keychart",
      messageId: "noEffect",
      doc: remote,
      lines: [lineOf(remote, '"stacked": true')],
      severity: "notice",
    },
    {
      name: "raised to warning in configuration",
      messageId: "noEffect",
      doc: remote,
      lines: [lineOf(remote, '"stacked": true')],
      severity: "warning",
      options: { config: { rules: { "stacked-line": "warning" } } },
    },
  ],
});
