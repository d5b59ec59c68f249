import { describe, expect, it } from "vitest";
import { check, ruleTable, validHost, validRemote, lineOf, make, edit, text } from "../../helpers.js";

type Obj = Record<string, unknown>;

const withoutGroup = (doc: Obj): Obj => {
  delete doc.metricGroup;
  return doc;
};

const changed = make(validHost(), (d) => {
  d.metricGroup = "tech.python.other";
});
const removed = make(validHost(), (d) => {
  delete d.metricGroup;
});
const addedDifferent = make(validHost(), (d) => {
  d.metricGroup = "demo";
});
const renamedNoGroup = make(withoutGroup(validHost()), (d) => {
  d.name = "custom.python.demo_plugin2";
});
const remote = make(validRemote(), (d) => {
  d.metricGroup = "tech.demo_device.v2";
});

ruleTable("metric-group-changed", {
  valid: [
    { name: "unchanged explicit group", doc: validHost(), options: { base: validHost() } },
    {
      name: "both absent, same name",
      doc: withoutGroup(validHost()),
      options: { base: withoutGroup(validHost()) },
    },
    {
      name: "metricGroup added, equal to the base's name (the group it already had)",
      doc: make(validHost(), (d) => {
        d.metricGroup = "custom.python.demo_plugin";
      }),
      options: { base: withoutGroup(validHost()) },
    },
    {
      name: "metricGroup removed where it equalled the name",
      doc: withoutGroup(validHost()),
      options: { base: { ...validHost(), metricGroup: "custom.python.demo_plugin" } },
    },
    {
      name: "renamed with an explicit, unchanged group",
      doc: make(validRemote(), (d) => {
        d.name = "custom.remote.python.demo_device2";
      }),
      options: { base: validRemote() },
    },
    {
      // plugin-renamed says it: to the server the renamed plugin is a new plugin (rules.md, change rules).
      name: "renamed without a group: silent, plugin-renamed fires instead",
      doc: renamedNoGroup,
      options: { base: withoutGroup(validHost()) },
    },
    { name: "no base", doc: changed },
    {
      name: "rule turned off",
      doc: changed,
      options: { base: validHost(), config: { rules: { "metric-group-changed": "off" } } },
    },
  ],
  invalid: [
    {
      name: "host: explicit group changed, at head's metricGroup value",
      messageId: "changed",
      data: { before: "tech.python.demo", after: "tech.python.other" },
      output: text(validHost()),
      doc: changed,
      lines: [lineOf(changed, '"metricGroup": "tech.python.other"')],
      message:
        'the metric group changed from `tech.python.demo` to `tech.python.other`; it is part of every metric key and can never change: restore `"metricGroup": "tech.python.demo"`',
      severity: "error",
      options: { base: validHost() },
    },
    {
      name: "explicit group removed: the effective group becomes the name (at line 1, the root)",
      messageId: "changed",
      doc: removed,
      lines: [1],
      message: "from `tech.python.demo` to `custom.python.demo_plugin`",
      options: { base: validHost() },
    },
    {
      name: "group added that differs from the base's name",
      messageId: "changed",
      output: edit(addedDifferent, '"metricGroup": "demo"', '"metricGroup": "custom.python.demo_plugin"'),
      doc: addedDifferent,
      lines: [lineOf(addedDifferent, '"metricGroup"')],
      message: "from `custom.python.demo_plugin` (the plugin name, as no metricGroup was set) to `demo`",
      options: { base: withoutGroup(validHost()) },
    },
    {
      name: "remote",
      messageId: "changed",
      output: text(validRemote()),
      doc: remote,
      lines: [lineOf(remote, '"metricGroup"')],
      message: 'restore `"metricGroup": "tech.demo_device"`',
      options: { base: validRemote() },
    },
  ],
});

describe("metric-group-changed fix", () => {
  const only = (head: string, base: Obj) => {
    const found = check(head, { base }).filter((f) => f.ruleId === "metric-group-changed");
    expect(found).toHaveLength(1);
    return found[0];
  };

  it("restores the base group in head's metricGroup value", () => {
    expect(only(changed, validHost())?.fix).toEqual({
      replacement: '"tech.python.demo"',
      description: "restore `tech.python.demo`",
    });
    expect(only(addedDifferent, withoutGroup(validHost()))?.fix?.replacement).toBe(
      '"custom.python.demo_plugin"',
    );
  });

  it("offers no fix when head has no metricGroup value to replace", () => {
    expect(only(removed, validHost())?.fix).toBeUndefined();
  });
});
