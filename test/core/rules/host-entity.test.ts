import { ruleTable, validHost, validRemote, text, lineOf, edit } from "../../helpers.js";

const hostEntity = text({ ...validHost(), entity: "HOST" });
const jmxHostEntity = text({ ...validHost(), type: "JMX", name: "custom.jmx.demo", entity: "HOST" });

ruleTable("host-entity", {
  valid: [
    { name: "the host example (PROCESS_GROUP_INSTANCE)", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    {
      name: "lower-case `host` is an invalid value, not this warning",
      doc: { ...validHost(), entity: "host" },
    },
    {
      name: "a remote plugin with entity HOST (variant-mismatch reports it)",
      doc: { ...validRemote(), entity: "HOST" },
    },
    {
      name: "HOST as a metric's entity",
      doc: edit(text(validHost()), '"metrics": [\n    {', '"metrics": [\n    {\n      "entity": "HOST",'),
    },
    { name: "turned off", doc: hostEntity, options: { config: { rules: { "host-entity": "off" } } } },
  ],
  invalid: [
    {
      name: "host entity HOST: at the value",
      messageId: "host",
      doc: hostEntity,
      lines: [lineOf(hostEntity, '"HOST"')],
      severity: "warning",
      message:
        "entity `HOST` is accepted but the plugin is then always active on every host; use `PROCESS_GROUP_INSTANCE`",
    },
    {
      name: "JMX plugin with entity HOST",
      doc: jmxHostEntity,
      lines: [lineOf(jmxHostEntity, '"HOST"')],
      messageId: "host",
    },
    {
      name: "severity can be raised",
      messageId: "host",
      doc: hostEntity,
      lines: [lineOf(hostEntity, '"HOST"')],
      severity: "error",
      options: { config: { rules: { "host-entity": "error" } } },
    },
    {
      name: "severity can be lowered",
      messageId: "host",
      doc: hostEntity,
      lines: [lineOf(hostEntity, '"HOST"')],
      severity: "notice",
      options: { config: { rules: { "host-entity": "notice" } } },
    },
  ],
});
