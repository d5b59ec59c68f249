/**
 * The schema validated in parts (schema.ts validateParts): the root's own keywords, then each member's schema
 * alone, must give exactly the findings of the whole schema validated at once, in the same order (a rule's
 * findings keep that order, and of two findings at one place the first is kept). And another version's parts
 * whose values are the very same are reused, findings and all, without being validated again.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectVariant } from "../../src/core/analyse.js";
import { validateParts, validateWhole } from "../../src/core/schema.js";
import { edit, exampleSamples, random, type Sample } from "./generate.js";

const REAL = new URL("../../../shared/corpus/real/", import.meta.url);

function samples(): Sample[] {
  const out = exampleSamples();
  if (existsSync(REAL))
    for (const f of readdirSync(REAL).filter((n) => n.endsWith(".json")))
      out.push({ name: f, text: readFileSync(new URL(f, REAL), "utf8") });
  return out;
}

/** Edits that reach the root's own keywords: members missing, unknown, misspelt, `type` JMX without `source`. */
function rootEdits(doc: Record<string, unknown>): Record<string, unknown>[] {
  const { name: _name, source: _source, ...rest } = doc;
  return [
    { ...rest, type: "JMX" },
    { ...rest, type: "python", Source: {}, bogus: 1 },
    { ...doc, version: 3, metricgroup: "x", metrics: "none" },
    Object.fromEntries(Object.entries(doc).reverse()),
  ];
}

describe("validateParts", () => {
  it("gives the whole schema's findings, in its order, for every descriptor and edit of one", () => {
    const next = random(40);
    let compared = 0;
    for (const s of samples()) {
      const docs: unknown[] = [];
      let text = s.text;
      for (let i = 0; i < 4; i++) {
        text = edit(text, next);
        try {
          docs.push(JSON.parse(text));
        } catch {
          text = s.text;
        }
      }
      try {
        const doc = JSON.parse(s.text) as Record<string, unknown>;
        docs.push(doc, ...rootEdits(doc));
      } catch {
        // a sample that is not JSON (an example of a syntax error)
      }
      for (const doc of docs)
        for (const variant of ["host", "remote"] as const) {
          const whole = validateParts(doc, variant);
          expect(whole.findings, s.name).toEqual(validateWhole(doc, variant));
          // Without another version, the whole schema's errors are told part by part; with one that shares
          // no part, each part is validated alone: the same findings, part for part.
          const apart = validateParts(doc, variant, "plugin.json", validateParts(null, variant));
          expect(apart.findings, s.name).toEqual(whole.findings);
          expect(apart.root.findings, s.name).toEqual(whole.root.findings);
          expect([...apart.members.keys()], s.name).toEqual([...whole.members.keys()]);
          for (const [name, part] of apart.members)
            expect(part.findings, `${s.name} ${name}`).toEqual(whole.members.get(name)!.findings);
          compared++;
        }
    }
    for (const odd of [null, [], 5, "x", {}, { metrics: [] }])
      expect(validateParts(odd, "host").findings).toEqual(validateWhole(odd, "host"));
    expect(compared).toBeGreaterThan(100);
  });

  it("takes another version's parts whose values are the very same, and validates the rest", () => {
    for (const s of exampleSamples()) {
      let head: Record<string, unknown>;
      try {
        head = JSON.parse(s.text) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (typeof head !== "object" || head === null || Array.isArray(head)) continue;
      const variant = detectVariant(head);
      const before = validateParts(head, variant);
      // A base that changed the version (and nothing else): every other member is head's very value.
      const base = { ...head, version: "0.0.0" };
      const reused = validateParts(base, variant, "plugin.json", before);
      expect(reused.findings, s.name).toEqual(validateWhole(base, variant));
      for (const [name, part] of reused.members)
        if (name !== "version")
          expect(part.findings, `${s.name} ${name}`).toBe(before.members.get(name)!.findings);
      expect(reused.root.findings).toBe(before.root.findings);
      // A value that is equal but not the same object is validated again, with the same findings.
      const copy = structuredClone(head);
      const again = validateParts(copy, variant, "plugin.json", before);
      expect(again.findings).toEqual(before.findings);
      const metrics = again.members.get("metrics");
      if (metrics?.findings.length)
        expect(metrics.findings).not.toBe(before.members.get("metrics")!.findings);
      // The root's own findings follow its members' names and order.
      const renamed = Object.fromEntries(
        Object.entries(head).map(([k, v]) => [k === "version" ? "Version" : k, v]),
      );
      expect(validateParts(renamed, variant, "plugin.json", before).findings).toEqual(
        validateWhole(renamed, variant),
      );
    }
  });

  it("does not take the root's findings of another version that was not an object", () => {
    // `[]` and `{}` have the same (no) members and no type, but `[]` is not an object and `{}` misses members.
    for (const other of [[], null, "x", 5])
      for (const doc of [{}, []]) {
        const like = validateParts(other, "host");
        expect(validateParts(doc, "host", "plugin.json", like).findings).toEqual(validateWhole(doc, "host"));
      }
  });
});
