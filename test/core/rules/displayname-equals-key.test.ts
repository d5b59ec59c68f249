import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

const hostSame = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").displayname = "requests";
});
const hostBoth = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").displayname = "requests";
  at(d, "metrics", 1, "timeseries").displayname = "latency";
});
const remoteSame = make(validRemote(), (d) => {
  at(d, "metrics", 0, "timeseries").displayname = "cpu";
});

ruleTable("displayname-equals-key", {
  valid: [
    { name: "host example", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "a displayname differing from the key only by case",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 0, "timeseries").displayname = "REQUESTS";
      }),
    },
    {
      name: "a displayname with extra whitespace",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 1, "timeseries").displayname = "latency ";
      }),
    },
    {
      name: "a statetimeseries whose displayname equals its key (the rule is about timeseries)",
      doc: make(validRemote(), (d) => {
        at(d, "metrics", 1, "statetimeseries").displayname = "status";
      }),
    },
    {
      name: "a keymetric or series displayname equal to the key",
      doc: make(validHost(), (d) => {
        at(d, "ui", "keymetrics", 0).displayname = "requests";
        at(d, "ui", "keycharts", 0, "series", 0).displayname = "requests";
      }),
    },
    {
      name: "rule turned off",
      doc: hostSame,
      options: { config: { rules: { "displayname-equals-key": "off" } } },
    },
  ],
  invalid: [
    {
      name: "host: displayname equal to the key, at the displayname value",
      messageId: "same",
      data: { key: "requests" },
      doc: hostSame,
      lines: [lineOf(hostSame, '"displayname": "requests"')],
      message: "`displayname` must differ from the key `requests`",
      severity: "error",
    },
    {
      name: "host: two metrics, two findings",
      messageId: "same",
      doc: hostBoth,
      lines: [lineOf(hostBoth, '"displayname": "requests"'), lineOf(hostBoth, '"displayname": "latency"')],
      message: "human-readable name",
    },
    {
      name: "remote timeseries",
      messageId: "same",
      doc: remoteSame,
      lines: [lineOf(remoteSame, '"displayname": "cpu"')],
      message: "the key `cpu`",
    },
  ],
});
