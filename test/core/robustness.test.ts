/** Property-based: no input, however mangled, makes the core throw, hang, or report nonsense locations. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { analyseDescriptors } from "../../src/core/analyse.js";
import { RULE_IDS } from "../../src/core/rules/index.js";
import { parseYaml } from "../../src/core/yaml/parse.js";
import { stringify } from "yaml";
import { MIGRATION, text, validHost, validRemote } from "../helpers.js";
import { mutate } from "./generate.js";

type Json = unknown;

const mutation = fc.tuple(
  fc.array(fc.nat(), { maxLength: 6 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 0, max: 2 }),
);
const mutatedDoc = fc
  .tuple(fc.boolean(), fc.array(mutation, { minLength: 1, maxLength: 6 }))
  .map(([remote, ms]) =>
    ms.reduce<Json>((d, [p, r, m]) => mutate(d, p, r, m) ?? null, remote ? validRemote() : validHost()),
  );

function assertSane(inputs: Parameters<typeof analyseDescriptors>[0]) {
  const reviews = analyseDescriptors(inputs, resolveConfig());
  for (const r of reviews) {
    const lines = r.text.split("\n").length;
    for (const f of r.findings) {
      expect(RULE_IDS).toContain(f.ruleId);
      expect(f.message).not.toMatch(/internal error/);
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.column).toBeGreaterThanOrEqual(1);
      expect(f.endLine).toBeGreaterThanOrEqual(f.line);
      expect(f.line).toBeLessThanOrEqual(Math.max(1, lines));
    }
  }
  return reviews;
}

describe("robustness of the core", () => {
  it("survives mangled descriptors, alone and as head or base of a change", () => {
    fc.assert(
      fc.property(mutatedDoc, mutatedDoc, (head, base) => {
        assertSane([
          {
            path: "a/plugin.json",
            content: text(head),
            base: { path: "a/plugin.json", content: text(base) },
          },
          { path: "b/plugin.json", content: text(base), isNew: true },
        ]);
      }),
      { numRuns: 400 },
    );
  });

  it("survives mangled extension.yaml files beside mangled plugin.json files, and any text as YAML", () => {
    const mangled = (start: () => Json) =>
      fc
        .array(mutation, { minLength: 1, maxLength: 6 })
        .map((ms) => ms.reduce<Json>((d, [p, r, m]) => mutate(d, p, r, m) ?? null, start()));
    const extension = mangled(
      () => parseYaml(MIGRATION.extension).ok && (parseYaml(MIGRATION.extension) as { value: Json }).value,
    );
    const jmx = mangled(() => JSON.parse(MIGRATION.plugin) as Json);
    fc.assert(
      fc.property(
        extension,
        fc.oneof(jmx, mutatedDoc),
        fc.string({ unit: "binary", maxLength: 300 }),
        (e, ef1, s) => {
          assertSane([
            {
              path: "a/extension/extension.yaml",
              content: stringify(e),
              isNew: true,
              replaces: { path: "a/plugin.json", content: text(ef1), status: "deleted" },
            },
            {
              path: "b/extension.yaml",
              content: s,
              base: { path: "b/extension.yaml", content: stringify(e) },
              replaces: { path: "b/plugin.json", content: MIGRATION.plugin },
            },
          ]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("survives arbitrary text and bytes", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }),
        (s, bytes) => {
          assertSane([
            { path: "s.json", content: s, base: { path: "s.json", content: bytes } },
            { path: "b.json", content: bytes },
          ]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("survives hostile activation_name_pattern values without running them", () => {
    const hostile = fc.oneof(
      fc.string({
        unit: fc.constantFrom(
          "(",
          ")",
          "a",
          "+",
          "*",
          "?",
          "|",
          "[",
          "]",
          "\\",
          "{",
          "}",
          "1",
          ",",
          "^",
          "$",
          "P",
          "<",
          ">",
          "=",
          "!",
        ),
        maxLength: 200,
      }),
      fc.constant("(a+)+$".repeat(2000)),
      fc.constant("(".repeat(5000) + "a" + ")".repeat(5000)),
    );
    fc.assert(
      fc.property(hostile, (pattern) => {
        const doc = validHost();
        (doc.source as Record<string, unknown>).activation_name_pattern = pattern;
        assertSane([{ path: "p.json", content: text(doc) }]);
      }),
      { numRuns: 300 },
    );
  });

  it("survives deep nesting, huge arrays and long strings", () => {
    const doc = validHost();
    doc.metrics = Array.from({ length: 3000 }, (_, i) => ({
      timeseries: { key: `m${i % 50}`, unit: "Count", displayname: "x".repeat(i % 7) },
    }));
    (doc.source as Record<string, unknown>).nested = JSON.parse("[".repeat(900) + "]".repeat(900));
    doc.name = "custom.python." + "a".repeat(100_000);
    const [r] = assertSane([{ path: "big.json", content: text(doc) }]);
    expect(r!.findings.some((f) => f.ruleId === "duplicate-metric-key")).toBe(true);
  });
});
