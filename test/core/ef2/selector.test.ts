/** The metric selector reader: the metrics a chart's selector names, and the dimensions it splits or filters by. */
import { describe, expect, it } from "vitest";
import { selectorReferences } from "../../../src/core/ef2/selector.js";

describe("selectorReferences", () => {
  it.each<[string, { key: string; dimensions: string[] }[]]>([
    ["ext.cpu", [{ key: "ext.cpu", dimensions: [] }]],
    [
      'ext.cpu:splitBy("dt.entity.host","core"):sum',
      [{ key: "ext.cpu", dimensions: ["dt.entity.host", "core"] }],
    ],
    ["ext.cpu:splitBy(core):avg:auto", [{ key: "ext.cpu", dimensions: ["core"] }]],
    [
      '(ext.in.count:splitBy("if"))+(ext.out.count:filter(and(eq("if","eth0"),not(existsKey(vlan)))))',
      [
        { key: "ext.in.count", dimensions: ["if"] },
        { key: "ext.out.count", dimensions: ["if", "vlan"] },
      ],
    ],
    ["builtin:host.cpu.usage:splitBy()", [{ key: "builtin:host.cpu.usage", dimensions: [] }]],
    ["func:ext.rate * 100", [{ key: "func:ext.rate", dimensions: [] }]],
    [
      'ext.a:filter(in("k",entitySelector("type(HOST),tag(a)"))):rate(1m)',
      [{ key: "ext.a", dimensions: ["k"] }],
    ],
    ['"ext.quoted".count:sum', [{ key: "ext.quoted.count", dimensions: [] }]],
  ])("%s", (selector, expected) => {
    expect(selectorReferences(selector)).toEqual(expected);
  });

  it.each([
    "ext.a:splitBy(",
    "(ext.a",
    "ext.a ext.b",
    "",
    "ext.a:filter(eq(",
    `${"(".repeat(100)}a${")".repeat(100)}`,
  ])("reads nothing from what it cannot read: %s", (selector) => {
    expect(selectorReferences(selector)).toEqual([]);
  });
});
