import { ruleTable, validHost, validRemote, lineOf, make } from "../../helpers.js";

type Obj = Record<string, unknown>;

const techs = (doc: Obj, list: unknown[]): string =>
  make(doc, (d) => {
    d.technologies = list;
  });

const hostTypo = techs(validHost(), ["PYTHON", "PYTHONN"]);
const hostUnknown = techs(validHost(), ["acme_engine"]);
const hostTwo = techs(validHost(), ["TOMCATT", "python", "Reddis"]);
const policy = { policy: { technologies: ["PYTHON", "Demo Device"] } };
const hostPolicy = techs(validHost(), ["PYTHON", "TOMCAT"]);
const remotePolicy = techs(validRemote(), ["Demo Device", "Demo Devise"]);

ruleTable("unknown-technology", {
  valid: [
    { name: "host example", doc: validHost() },
    { name: "remote example (a new technology tile)", doc: validRemote() },
    { name: "host: known names in any case", doc: techs(validHost(), ["python", "Tomcat", "REDIS"]) },
    { name: "host: no technologies", doc: techs(validHost(), []) },
    {
      name: "remote without a configured list never fires",
      doc: techs(validRemote(), ["Brand New Thing", "PYTHONN"]),
    },
    {
      name: "host: a non-string entry is for invalid-type",
      doc: techs(validHost(), ["PYTHON", 42]),
    },
    {
      name: "host with a policy: the policy list replaces the built-in one, in any case",
      doc: techs(validHost(), ["python", "demo device"]),
      options: { config: policy },
    },
    {
      name: "remote with a policy: listed names pass",
      doc: validRemote(),
      options: { config: policy },
    },
    {
      name: "a policy from the organisation applies too",
      doc: validRemote(),
      options: { org: policy },
    },
    {
      name: "rule turned off",
      doc: hostTypo,
      options: { config: { rules: { "unknown-technology": "off" } } },
    },
    {
      name: "rule turned off also silences the policy",
      doc: hostPolicy,
      options: { config: { ...policy, rules: { "unknown-technology": "off" } } },
    },
  ],
  invalid: [
    {
      name: "host: a typo, at the entry, with a suggestion (warning)",
      messageId: "unknown",
      data: { technology: "PYTHONN", suggestion: ": did you mean `PYTHON`?" },
      doc: hostTypo,
      lines: [lineOf(hostTypo, '"PYTHONN"')],
      message:
        "`PYTHONN` is not a known technology, so it never matches and cannot activate the plugin: did you mean `PYTHON`?",
      severity: "warning",
    },
    {
      name: "host: an unknown name without a close match",
      messageId: "unknown",
      doc: hostUnknown,
      lines: [lineOf(hostUnknown, '"acme_engine"')],
      message:
        /^`acme_engine` is not a known technology, so it never matches and cannot activate the plugin$/,
    },
    {
      name: "host: one finding per unknown entry",
      messageId: "unknown",
      doc: hostTwo,
      lines: [lineOf(hostTwo, '"TOMCATT"'), lineOf(hostTwo, '"Reddis"')],
      message: /is not a known technology.*did you mean `(TOMCAT|REDIS)`/,
    },
    {
      name: "host with a policy: a built-in technology not in the policy is an error",
      messageId: "notAllowed",
      doc: hostPolicy,
      lines: [lineOf(hostPolicy, '"TOMCAT"')],
      message: "technology `TOMCAT` is not allowed by the organisation's policy",
      severity: "error",
      options: { config: policy },
    },
    {
      name: "remote with a policy: checked too, as an error",
      messageId: "notAllowed",
      doc: remotePolicy,
      lines: [lineOf(remotePolicy, '"Demo Devise"')],
      message: "not allowed by the organisation's policy: did you mean `Demo Device`?",
      severity: "error",
      options: { config: policy },
    },
    {
      name: "policy from the organisation layer",
      messageId: "notAllowed",
      doc: remotePolicy,
      lines: [lineOf(remotePolicy, '"Demo Devise"')],
      severity: "error",
      options: { org: policy },
    },
    {
      name: "a configured severity overrides the policy's error",
      messageId: "notAllowed",
      doc: hostPolicy,
      lines: [lineOf(hostPolicy, '"TOMCAT"')],
      severity: "warning",
      options: { config: { ...policy, rules: { "unknown-technology": "warning" } } },
    },
  ],
});
