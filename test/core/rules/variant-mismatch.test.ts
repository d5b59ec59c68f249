import { describe, expect, it } from "vitest";
import { check, ruleTable, validHost, validRemote, lineOf, set } from "../../helpers.js";

const remoteJmx = set(validRemote(), [], "type", "JMX");
const remotePythonCase = set(validRemote(), [], "type", "Python");
const remoteEntity = set(validRemote(), [], "entity", "PROCESS_GROUP_INSTANCE");
const remoteHostEntity = set(validRemote(), [], "entity", "HOST");
const hostNameCustomDevice = set(validHost(), [], "entity", "CUSTOM_DEVICE");
const hostNameCustomDeviceX = set(validHost(), [], "entity", "CUSTOM_DEVICE_X");
const hostState = set(validHost(), ["metrics", 1], "statetimeseries", {
  key: "state",
  states: ["UP", "DOWN"],
  displayname: "State",
});
const hostTextarea = set(validHost(), ["properties", 0], "type", "Textarea");
const hostDropdown = set(validHost(), ["properties", 1], "type", "DROPDOWN");
const hostActivationRemote = set(validHost(), ["source"], "activation", "Remote");
const remoteSnapshot = set(validRemote(), ["source"], "activation", "SnapshotEntry");

ruleTable("variant-mismatch", {
  valid: [
    { name: "the host example", doc: validHost() },
    { name: "the remote example (statetimeseries, Textarea and Dropdown properties)", doc: validRemote() },
    { name: "host type JMX", doc: set(validHost(), [], "type", "JMX") },
    { name: "host entity HOST (host-entity warns)", doc: set(validHost(), [], "entity", "HOST") },
    {
      name: "remote activation Singleton (as in the spec's remote example)",
      doc: set(validRemote(), ["source"], "activation", "Singleton"),
    },
    {
      name: "host activation SnapshotEntry",
      doc: set(validHost(), ["source"], "activation", "SnapshotEntry"),
    },
    {
      name: "host property types in remote spelling",
      doc: set(validHost(), ["properties", 0], "type", "String"),
    },
    {
      name: "a host type that is no type at all is an invalid value",
      doc: set(validHost(), [], "type", "java"),
    },
    {
      name: "remote without type: required-member, not a mismatch",
      doc: (() => {
        const d = validRemote();
        delete d.type;
        return d;
      })(),
    },
  ],
  invalid: [
    {
      name: "remote type JMX: at the value",
      messageId: "notAllowed",
      data: { path: "type", value: '"JMX"', allowed: "`python`" },
      doc: remoteJmx,
      lines: [lineOf(remoteJmx, '"JMX"')],
      message: '`type` is "JMX"; allowed: `python` (remote plugin)',
    },
    {
      name: "remote type is case-sensitive",
      messageId: "notAllowedNear",
      doc: remotePythonCase,
      lines: [lineOf(remotePythonCase, '"Python"')],
      message: "Did you mean `python`?",
    },
    {
      name: "remote entity PROCESS_GROUP_INSTANCE",
      messageId: "notAllowed",
      doc: remoteEntity,
      lines: [lineOf(remoteEntity, '"PROCESS_GROUP_INSTANCE"')],
      message: "allowed: `CUSTOM_DEVICE`",
    },
    {
      name: "remote entity HOST",
      messageId: "notAllowed",
      doc: remoteHostEntity,
      lines: [lineOf(remoteHostEntity, '"HOST"')],
      message: "(remote plugin)",
    },
    {
      name: "host name with entity CUSTOM_DEVICE (the entity makes it remote)",
      messageId: "hostName",
      doc: hostNameCustomDevice,
      lines: [lineOf(hostNameCustomDevice, '"CUSTOM_DEVICE"')],
      message:
        "entity `CUSTOM_DEVICE` makes this a remote plugin, but the name `custom.python.demo_plugin` is a host plugin name",
    },
    {
      name: "host name with entity CUSTOM_DEVICE_X: reported once",
      messageId: "notAllowedNear",
      doc: hostNameCustomDeviceX,
      lines: [lineOf(hostNameCustomDeviceX, '"CUSTOM_DEVICE_X"')],
      message: "Did you mean `CUSTOM_DEVICE`?",
    },
    {
      name: "host statetimeseries: at its key",
      messageId: "statetimeseries",
      doc: hostState,
      lines: [lineOf(hostState, '"statetimeseries"')],
      message: "`statetimeseries` is only supported by remote plugins",
    },
    {
      name: "host property type Textarea: at the value",
      messageId: "propertyType",
      doc: hostTextarea,
      lines: [lineOf(hostTextarea, '"Textarea"')],
      message: "property type `Textarea` is only supported by remote plugins",
    },
    {
      name: "host property type Dropdown in any case",
      messageId: "propertyType",
      doc: hostDropdown,
      lines: [lineOf(hostDropdown, '"DROPDOWN"')],
      message: "host types are STRING, BOOLEAN, INTEGER, FLOAT, PASSWORD",
    },
    {
      name: "host activation Remote",
      messageId: "remoteActivation",
      doc: hostActivationRemote,
      lines: [lineOf(hostActivationRemote, '"Remote"')],
      message: "activation `Remote` is for remote plugins",
    },
    {
      name: "remote activation SnapshotEntry",
      messageId: "snapshotEntry",
      doc: remoteSnapshot,
      lines: [lineOf(remoteSnapshot, '"SnapshotEntry"')],
      message: "is for host plugins",
    },
    {
      name: "severity can be lowered",
      messageId: "notAllowed",
      doc: remoteJmx,
      lines: [lineOf(remoteJmx, '"JMX"')],
      severity: "warning",
      options: { config: { rules: { "variant-mismatch": "warning" } } },
    },
  ],
});

describe("variant-mismatch", () => {
  it("a host name with a CUSTOM_DEVICE entity is judged as remote (name-format also reports the name)", () => {
    const ids = check(hostNameCustomDevice).map((f) => f.ruleId);
    expect(ids).toContain("name-format");
    expect(ids.filter((id) => id === "variant-mismatch")).toHaveLength(1);
  });

  it("can be turned off", () => {
    expect(
      check(remoteJmx, { config: { rules: { "variant-mismatch": "off" } } }).filter(
        (f) => f.ruleId === "variant-mismatch",
      ),
    ).toEqual([]);
  });
});
