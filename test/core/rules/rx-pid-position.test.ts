import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

const second = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").dimensions = ["endpoint", "rx_pid"];
});
const firstAndThird = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").dimensions = ["rx_pid", "endpoint", "rx_pid"];
});
const remoteState = make(validRemote(), (d) => {
  at(d, "metrics", 1, "statetimeseries").dimensions = ["zone", "rx_pid"];
});
const twoMetrics = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").dimensions = ["endpoint", "rx_pid"];
  at(d, "metrics", 1, "timeseries").dimensions = ["a", "b", "rx_pid"];
});

ruleTable("rx-pid-position", {
  valid: [
    { name: "host example (rx_pid at index 0)", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "rx_pid alone",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 1, "timeseries").dimensions = ["rx_pid"];
      }),
    },
    {
      name: "names that only look like rx_pid (case, suffix) at a later index",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 1, "timeseries").dimensions = ["endpoint", "RX_PID", "rx_pid2", "rx-pid"];
      }),
    },
    {
      name: "rx_pid at index 1 of a chart series' dimensions (not a metric definition)",
      doc: make(validHost(), (d) => {
        at(d, "ui", "charts", 0, "series", 1).dimensions = ["endpoint", "rx_pid"];
      }),
    },
    { name: "rule turned off", doc: second, options: { config: { rules: { "rx-pid-position": "off" } } } },
  ],
  invalid: [
    {
      name: "host: rx_pid second, at the dimension value",
      messageId: "notFirst",
      data: { index: 1 },
      doc: second,
      lines: [lineOf(second, '"rx_pid"')],
      message: "here it is at index 1",
      severity: "warning",
    },
    {
      name: "rx_pid at 0 and again at 2: only the later one",
      messageId: "notFirst",
      doc: firstAndThird,
      lines: [lineOf(firstAndThird, '"rx_pid"', 2)],
      message: "index 2",
    },
    {
      name: "remote statetimeseries dimensions are checked too",
      messageId: "notFirst",
      doc: remoteState,
      lines: [lineOf(remoteState, '"rx_pid"')],
      message: "only as the first dimension (index 0)",
    },
    {
      name: "one finding per metric",
      messageId: "notFirst",
      doc: twoMetrics,
      lines: [lineOf(twoMetrics, '"rx_pid"'), lineOf(twoMetrics, '"rx_pid"', 2)],
      message: /at index [12]/,
    },
    {
      name: "raised to error in configuration",
      messageId: "notFirst",
      doc: second,
      lines: [lineOf(second, '"rx_pid"')],
      severity: "error",
      options: { config: { rules: { "rx-pid-position": "error" } } },
    },
  ],
});
