import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJson, type JsonNode } from "../../src/core/json/parse.js";
import { childPointer } from "../../src/core/json/pointer.js";
import { LineIndex, locate, locateAll, pointerLocator } from "../../src/core/locate.js";
import { parseYaml } from "../../src/core/yaml/parse.js";
import { parseYamlAsDynatrace } from "../../src/core/yaml/snakeyaml.js";
import type { RawFinding } from "../../src/core/types.js";
import { lineOf, text, validHost } from "../helpers.js";

function at(text: string, pointer: string, target: "key" | "value" = "value") {
  const r = parseJson(text);
  if (!r.ok) throw new Error(r.error.message);
  const f: RawFinding = { ruleId: "x", severity: "error", message: "", messageId: "m", pointer, target };
  return locate(new LineIndex(text), r.root, f);
}

describe("locate", () => {
  const doc = '{\n  "name": "x",\n  "metrics": [\n    { "timeseries": { "key": "a" } }\n  ]\n}\n';

  it("points at a member's key or its value", () => {
    expect(at(doc, "/name", "key")).toEqual({ line: 2, column: 3, endLine: 2, endColumn: 9 });
    expect(at(doc, "/name", "value")).toEqual({ line: 2, column: 11, endLine: 2, endColumn: 14 });
    expect(at(doc, "/metrics/0/timeseries/key")).toEqual({ line: 4, column: 30, endLine: 4, endColumn: 33 });
  });

  it("falls back to the key of the nearest existing ancestor for a missing member", () => {
    expect(at(doc, "/metrics/0/timeseries/unit")).toEqual({ line: 4, column: 7, endLine: 4, endColumn: 19 });
    expect(at(doc, "/metrics/7/timeseries")).toEqual({ line: 3, column: 3, endLine: 3, endColumn: 12 });
  });

  it("puts a member missing at the root on line 1", () => {
    expect(at("\n\n  {}", "/version", "key")).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 2 });
  });

  it("is not shifted by CRLF line endings, tabs, a missing final newline or non-ASCII text", () => {
    const crlf = doc.replace(/\n/g, "\r\n").trimEnd();
    expect(at(crlf, "/metrics/0/timeseries/key")).toEqual(at(doc, "/metrics/0/timeseries/key"));
    const tabs = '{\n\t"name":\t"x",\n\t"version": "1.0"\n}';
    expect(at(tabs, "/version")).toEqual({ line: 3, column: 13, endLine: 3, endColumn: 18 });
    const accents = '{\n  "displayname": "Größe 中文 😀", "key": "k"\n}';
    // One column per character (code point), whatever its encoding.
    expect(at(accents, "/key")).toEqual({ line: 2, column: 39, endLine: 2, endColumn: 42 });
  });

  it("uses the last of duplicate members, like JSON.parse", () => {
    expect(at('{"a": 1,\n "a": 2}', "/a")).toEqual({ line: 2, column: 7, endLine: 2, endColumn: 8 });
  });

  it("reads line texts without their line endings", () => {
    const index = new LineIndex("a\r\nb\n\nc");
    expect([1, 2, 3, 4, 5].map((l) => index.lineText(l))).toEqual(["a", "b", "", "c", ""]);
    expect(index.lineCount).toBe(4);
  });
});

/** Every JSON file under `dir`. */
function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? jsonFiles(p) : n.endsWith(".json") ? [p] : [];
  });
}

/** Every node's pointer, and beside each container a missing member, an index past its end and a step into a scalar. */
function pointers(node: JsonNode, at = ""): string[] {
  const out = [at, childPointer(at, "no such member"), childPointer(at, "01")];
  if (node.kind === "object") {
    node.members.forEach((m) => out.push(...pointers(m.value, childPointer(at, m.key))));
  } else if (node.kind === "array") {
    out.push(childPointer(at, node.items.length));
    node.items.forEach((item, i) => out.push(...pointers(item, childPointer(at, i))));
  }
  return out;
}

describe("locating findings by scanning the text once (no tree of positions)", () => {
  // Keys and strings that hold what a scanner could stumble on: escapes, brackets, quotes, backslashes.
  const tricky =
    ' \n{"a\\"b": {"x": "]}\\\\", "y" : [ [] , {}, "\\"", -1.5e3, true, null ] },\r\n' +
    '\t"\\u0041": {"":[{"k":"}{"}]}, "c/d~e": 0, "\\\\": false, "é😀": "Größe"\n}\n ';
  const texts: [string, string][] = [
    ["tricky", tricky],
    ...jsonFiles("examples").map((f): [string, string] => [f, readFileSync(f, "utf8")]),
  ];
  const corpus = "../shared/corpus/real";
  if (existsSync(corpus))
    texts.push(...jsonFiles(corpus).map((f): [string, string] => [f, readFileSync(f, "utf8")]));

  it("finds what the tree finds, for every member, element and missing place, key and value", () => {
    let compared = 0;
    for (const [name, text] of texts) {
      const parsed = parseJson(text);
      if (name === "tricky") expect(parsed.ok && !parsed.duplicates.length).toBe(true);
      if (!parsed.ok || parsed.duplicates.length) continue;
      const index = new LineIndex(text);
      const findings = pointers(parsed.root).flatMap((pointer) =>
        (["key", "value"] as const).map((target): RawFinding => ({
          ruleId: "x",
          severity: "error",
          message: "",
          messageId: "m",
          pointer,
          target,
        })),
      );
      const label = (f: RawFinding) => `${f.pointer} ${f.target}`;
      const tree = findings.map((f) => [label(f), locate(index, parsed.root, f)]);
      // Every pointer in one scan, in document order and reversed (the scan stops at the last it needs).
      expect(
        locateAll(text, parsed, findings).map((l, i) => [label(findings[i]!), l]),
        name,
      ).toEqual(tree);
      const reversed = [...findings].reverse();
      expect(locateAll(text, parsed, reversed).reverse(), name).toEqual(tree.map((t) => t[1]));
      // And each alone (the scan stops early, and goes on to a value's end only when its range is asked).
      for (const [i, f] of findings.entries())
        if (i % 29 === 0) expect(locateAll(text, parsed, [f])[0], `${name} ${label(f)}`).toEqual(tree[i]![1]);
      compared += findings.length;
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe("locate in YAML (an extension.yaml): the same walk over the YAML parse's tree", () => {
  const yaml =
    "name: custom:x\njmx:\n  groups:\n    - group: g\n      subgroups:\n        - query: 'd:type=Größe😀'\n          metrics:\n            - key: x.a\n              type: gauge\n";
  function atYaml(text: string, pointer: string, target: "key" | "value" = "value") {
    const r = parseYaml(text);
    if (!r.ok) throw new Error(r.error.message);
    const f: RawFinding = { ruleId: "x", severity: "error", message: "", messageId: "m", pointer, target };
    return locateAll(text, r, [f], "yaml")[0];
  }

  it("points at a member's key or its value, columns in code points", () => {
    expect(atYaml(yaml, "/name", "key")).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 5 });
    expect(atYaml(yaml, "/name")).toEqual({ line: 1, column: 7, endLine: 1, endColumn: 15 });
    const q = "/jmx/groups/0/subgroups/0/query";
    // The quotes belong to the value; "ö" and "😀" are one column each.
    expect(atYaml(yaml, q)).toEqual({ line: 6, column: 18, endLine: 6, endColumn: 33 });
    expect(atYaml(yaml, "/jmx/groups/0/subgroups/0/metrics/0/type")).toEqual({
      line: 9,
      column: 21,
      endLine: 9,
      endColumn: 26,
    });
  });

  it("falls back to the key of the nearest existing ancestor; the root's to line 1", () => {
    expect(atYaml(yaml, "/jmx/groups/0/subgroups/0/dimensions", "key")).toEqual(
      atYaml(yaml, "/jmx/groups/0/subgroups/0", "key"),
    );
    expect(atYaml(yaml, "/jmx/groups/3")).toEqual({ line: 3, column: 3, endLine: 3, endColumn: 9 });
    expect(atYaml(yaml, "/metrics", "key")).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 2 });
  });

  it("a block collection ends at its last character, not on the next line", () => {
    expect(atYaml(yaml, "/jmx/groups/0/subgroups/0/metrics/0")).toEqual({
      line: 8,
      column: 15,
      endLine: 9,
      endColumn: 26,
    });
  });

  it("is not shifted by CRLF line endings", () => {
    const crlf = yaml.replace(/\n/g, "\r\n");
    const p = "/jmx/groups/0/subgroups/0/metrics/0/type";
    expect(atYaml(crlf, p)).toEqual(atYaml(yaml, p));
    expect(atYaml(crlf, "/jmx/groups/0/subgroups/0/metrics/0")).toEqual(
      atYaml(yaml, "/jmx/groups/0/subgroups/0/metrics/0"),
    );
  });

  it("is not shifted by a byte order mark, which editors neither show nor count (as the review reads it)", () => {
    const bom = `\uFEFF${yaml}`;
    const r = parseYamlAsDynatrace(bom);
    if (!r.ok) throw new Error(r.error.message);
    const at = (pointer: string, target: "key" | "value") => {
      const f: RawFinding = { ruleId: "x", severity: "error", message: "", messageId: "m", pointer, target };
      return locateAll(bom, r, [f], "yaml")[0];
    };
    expect(at("/name", "key")).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 5 });
    expect(at("/name", "value")).toEqual({ line: 1, column: 7, endLine: 1, endColumn: 15 });
    expect(at("/jmx/groups/0/subgroups/0/metrics/0/type", "value")).toEqual(
      atYaml(yaml, "/jmx/groups/0/subgroups/0/metrics/0/type"),
    );
  });

  it("a pointer into an alias is placed in the node its anchor names, where the text to edit is", () => {
    const text =
      "snmp:\n  - group: a\n    dimensions: &dims\n      - key: Dev\n        value: oid:1\n  - group: b\n    dimensions: *dims\n";
    for (const parse of [parseYaml, parseYamlAsDynatrace]) {
      const r = parse(text);
      if (!r.ok) throw new Error(r.error.message);
      const at = (pointer: string, target: "key" | "value" = "value") => {
        const f: RawFinding = {
          ruleId: "x",
          severity: "error",
          message: "",
          messageId: "m",
          pointer,
          target,
        };
        return locateAll(text, r, [f], "yaml")[0];
      };
      // Inside the alias: at the anchored value itself, its key, and a missing member at the anchored element.
      expect(at("/snmp/1/dimensions/0/key")).toEqual(at("/snmp/0/dimensions/0/key"));
      expect(at("/snmp/1/dimensions/0/key")?.line).toBe(4);
      expect(at("/snmp/1/dimensions/0/key", "key")).toEqual(at("/snmp/0/dimensions/0/key", "key"));
      expect(at("/snmp/1/dimensions/0/filter", "key")).toEqual(at("/snmp/0/dimensions/0/filter", "key"));
      // The alias itself is where a pointer ends at it: its text, or the key it is the value of.
      expect(at("/snmp/1/dimensions")).toEqual({ line: 7, column: 17, endLine: 7, endColumn: 22 });
      expect(at("/snmp/1/dimensions", "key")).toEqual({ line: 7, column: 5, endLine: 7, endColumn: 15 });
    }
  });

  it("pointerLocator places a pointer of a parsed text without a finding (the EF1 line a migration names)", () => {
    const r = parseJson(text(validHost()));
    if (!r.ok) throw new Error(r.error.message);
    const where = pointerLocator(text(validHost()), r.root);
    expect(where("/metrics/1/timeseries/key").line).toBe(lineOf(text(validHost()), '"key": "latency"'));
  });
});
