import { describe, expect, it } from "vitest";
import {
  check,
  ruleTable,
  validHost,
  validRemote,
  lineOf,
  at,
  make,
  text,
  EF2,
  EXTENSION,
} from "../../helpers.js";

const host = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").unit = "PerMinute";
});
const both = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").unit = "Count";
  at(d, "metrics", 1, "timeseries").unit = "Second";
});
const moved = make(validHost(), (d) => {
  const m = at<unknown[]>(d, "metrics");
  m.reverse();
  at(d, "metrics", 0, "timeseries").unit = "MicroSecond";
});
const remote = make(validRemote(), (d) => {
  at(d, "metrics", 0, "timeseries").unit = "Ratio";
});

ruleTable("metric-unit-changed", {
  valid: [
    {
      name: "extension.yaml: the same unit",
      doc: EXTENSION.replace("displayName: Uptime", "displayName: Up"),
      options: { ...EF2, base: EXTENSION },
    },
    { name: "unchanged", doc: validHost(), options: { base: validHost() } },
    {
      name: "a new metric with any unit",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "metrics").push({
          timeseries: { key: "bytes", unit: "Byte", displayname: "Bytes" },
        });
      }),
      options: { base: validHost() },
    },
    {
      name: "a renamed key with a new unit (a new metric, see metric-removed)",
      doc: make(validHost(), (d) => {
        Object.assign(at(d, "metrics", 1, "timeseries"), { key: "latency_s", unit: "Second" });
      }),
      options: { base: validHost() },
    },
    {
      name: "only the displayed unit of a chart series changed",
      doc: make(validRemote(), (d) => {
        at(d, "ui", "keycharts", 0, "series", 0).unit = "Ratio";
      }),
      options: { base: validRemote() },
    },
    {
      name: "a metric's unit removed is required-member's business",
      doc: make(validHost(), (d) => {
        delete at(d, "metrics", 0, "timeseries").unit;
      }),
      options: { base: validHost() },
    },
    {
      name: "the base's unit is not a unit (the server never took it): fixing it is no unit change",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 0, "timeseries").unit = "Percent";
      }),
      options: {
        base: make(validHost(), (d) => {
          at(d, "metrics", 0, "timeseries").unit = "percent";
        }),
      },
    },
    {
      name: "extension.yaml: head's unit in the wrong case is no unit (invalid-value fixes it), not another unit",
      doc: EXTENSION.replace("unit: Second", "unit: second"),
      options: { ...EF2, base: EXTENSION },
    },
    {
      name: "extension.yaml: head's unit misspelt is no unit (invalid-value names the closest), not another unit",
      doc: EXTENSION.replace("unit: Second", "unit: Seconds"),
      options: { ...EF2, base: EXTENSION },
    },
    {
      name: "head's unit is not a unit: invalid-value's business, not a unit change",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 0, "timeseries").unit = "persecond";
      }),
      options: { base: validHost() },
    },
    { name: "no base", doc: host },
    {
      name: "rule turned off",
      doc: host,
      options: { base: validHost(), config: { rules: { "metric-unit-changed": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: a metadata unit changed: the fix restores it",
      doc: EXTENSION.replace("unit: Second", "unit: MilliSecond"),
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(EXTENSION, "unit: Second")],
      messageId: "changedExtension",
      data: { key: "example.router.uptime", was: "Second", unit: "MilliSecond" },
      output: EXTENSION,
    },
    {
      name: "host: unit changed, at head's unit value",
      messageId: "changed",
      data: { key: "requests", was: "PerSecond", unit: "PerMinute" },
      output: text(validHost()),
      doc: host,
      lines: [lineOf(host, '"unit": "PerMinute"')],
      message:
        "the unit of metric `requests` changed from `PerSecond` to `PerMinute`; the server rejects this",
      severity: "error",
      options: { base: validHost() },
    },
    {
      name: "two metrics",
      messageId: "changed",
      output: text(validHost()),
      doc: both,
      lines: [lineOf(both, '"unit": "Count"'), lineOf(both, '"unit": "Second"')],
      message: /the unit of metric `(requests|latency)` changed/,
      options: { base: validHost() },
    },
    {
      name: "matched by key, not position",
      messageId: "changed",
      output: make(validHost(), (d) => void at<unknown[]>(d, "metrics").reverse()),
      doc: moved,
      lines: [lineOf(moved, '"unit": "MicroSecond"')],
      message: "`latency` changed from `MilliSecond` to `MicroSecond`",
      options: { base: validHost() },
    },
    {
      name: "remote",
      messageId: "changed",
      output: text(validRemote()),
      doc: remote,
      lines: [lineOf(remote, '"unit": "Ratio"')],
      message: "from `Percent` to `Ratio`",
      options: { base: validRemote() },
    },
  ],
});

describe("metric-unit-changed fix", () => {
  it("restores the base unit", () => {
    const found = check(host, { base: validHost() }).filter((f) => f.ruleId === "metric-unit-changed");
    expect(found.map((f) => f.fix)).toEqual([
      { replacement: '"PerSecond"', description: "restore `PerSecond`" },
    ]);
  });

  it("leaves a head unit that is no unit to invalid-value, which says it once, at the unit", () => {
    for (const [doc, options] of [
      [EXTENSION.replace("unit: Second", "unit: second"), { ...EF2, base: EXTENSION }],
      [
        make(validHost(), (d) => {
          at(d, "metrics", 0, "timeseries").unit = "persecond";
        }),
        { base: validHost() },
      ],
    ] as const) {
      const found = check(doc, options).filter((f) => /unit/.test(f.pointer));
      expect(found.map((f) => f.ruleId)).toEqual(["invalid-value"]);
    }
  });
});
