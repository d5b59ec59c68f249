import { ruleTable, validHost, validRemote, text } from "../../helpers.js";

type J = Record<string, unknown>;
function withoutGroup(doc: J): J {
  delete doc.metricGroup;
  return doc;
}
const host = text(withoutGroup(validHost()));
const remote = text(withoutGroup(validRemote()));

ruleTable("metric-group-missing", {
  valid: [
    { name: "the host example", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    { name: "a new plugin with metricGroup", doc: validHost(), options: { isNew: true } },
    { name: "an existing plugin with metricGroup", doc: validRemote(), options: { isNew: false } },
    {
      name: "an empty metricGroup is present (metric-group-format reports it)",
      doc: { ...validHost(), metricGroup: "" },
    },
    {
      name: "metricGroup null is present (invalid-type reports it)",
      doc: { ...validHost(), metricGroup: null },
    },
    { name: "turned off", doc: host, options: { config: { rules: { "metric-group-missing": "off" } } } },
  ],
  invalid: [
    {
      name: "host, new or existing unknown (plain check): warning at line 1 naming the default",
      messageId: "missing",
      doc: host,
      lines: [1],
      severity: "warning",
      message:
        'defaults to the plugin name `custom.python.demo_plugin` and can never be changed afterwards (set `"metricGroup": "custom.python.demo_plugin"`',
    },
    {
      name: "remote, existing plugin: warning",
      messageId: "missing",
      doc: remote,
      lines: [1],
      severity: "warning",
      message: "`custom.remote.python.demo_device`",
      options: { isNew: false },
    },
    {
      name: "host, added by the change: error",
      messageId: "newPlugin",
      doc: host,
      lines: [1],
      severity: "error",
      message: "new plugins must set `metricGroup`",
      options: { isNew: true },
    },
    {
      name: "remote, added by the change: error",
      messageId: "newPlugin",
      doc: remote,
      lines: [1],
      severity: "error",
      message: /can never be changed/,
      options: { isNew: true },
    },
    {
      name: "without a name either, the message still explains the default",
      messageId: "missing",
      doc: text(withoutGroup({ ...validHost(), name: 5 })),
      lines: [1],
      message: "defaults to the plugin name and",
    },
    {
      name: "an existing plugin's warning can be raised to error",
      messageId: "missing",
      doc: host,
      lines: [1],
      severity: "error",
      options: { config: { rules: { "metric-group-missing": "error" } } },
    },
    {
      name: "configured severity also applies to new plugins",
      messageId: "newPlugin",
      doc: host,
      lines: [1],
      severity: "notice",
      options: { isNew: true, config: { rules: { "metric-group-missing": "notice" } } },
    },
  ],
});
