import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

type Obj = Record<string, unknown>;

const alert = (id: string): Obj => ({
  alert_id: id,
  event_type: "ERROR_EVENT",
  event_name: "Slow",
  threshold: 500,
  alert_condition: "ABOVE",
  samples: 5,
  violating_samples: 3,
  dealerting_samples: 5,
});

const sameMetric = make(validHost(), (d) => {
  at<unknown[]>(d, "metrics", 0, "alert_settings").push(alert("requests_high"));
});
const acrossMetrics = make(validHost(), (d) => {
  at(d, "metrics", 1).alert_settings = [alert("latency_high"), alert("requests_high")];
});
const remote = make(validRemote(), (d) => {
  at<unknown[]>(d, "metrics", 0, "alert_settings").push(alert("cpu_high"), alert("cpu_high"));
});

ruleTable("duplicate-alert-id", {
  valid: [
    { name: "host example", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "distinct ids on several metrics",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 1).alert_settings = [alert("latency_high"), alert("latency_very_high")];
      }),
    },
    {
      name: "ids differing only by case",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 1).alert_settings = [alert("Requests_High")];
      }),
    },
    {
      name: "an alert_id equal to a metric key or an event_name equal to another alert's",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 1).alert_settings = [{ ...alert("requests"), event_name: "Too many requests" }];
      }),
    },
    {
      name: "rule turned off",
      doc: sameMetric,
      options: { config: { rules: { "duplicate-alert-id": "off" } } },
    },
  ],
  invalid: [
    {
      name: "host: twice in one metric, at the second alert_id value",
      messageId: "duplicate",
      data: { id: "requests_high", first: "metrics[0].alert_settings[0]" },
      doc: sameMetric,
      lines: [lineOf(sameMetric, '"alert_id": "requests_high"', 2)],
      message: "alert_id `requests_high` is already used by `metrics[0].alert_settings[0]`",
      severity: "error",
    },
    {
      name: "host: the same id on another metric",
      messageId: "duplicate",
      doc: acrossMetrics,
      lines: [lineOf(acrossMetrics, '"alert_id": "requests_high"', 2)],
      message: "unique within the plugin",
    },
    {
      name: "remote: three uses give two findings",
      messageId: "duplicate",
      doc: remote,
      lines: [lineOf(remote, '"alert_id": "cpu_high"', 2), lineOf(remote, '"alert_id": "cpu_high"', 3)],
      message: "already used by `metrics[0].alert_settings[0]`",
    },
  ],
});
