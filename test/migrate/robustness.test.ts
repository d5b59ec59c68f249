/**
 * No descriptor, however edited, makes `migrate` throw; what it converts is always a valid extension (the
 * schema, every EF1 metric present) whose notes point inside the file, and what it does not convert says why.
 * The shipped examples and seeded random edits of them (test/core/generate.ts), so that it runs on a fresh clone,
 * and the JMX and Python examples with any JSON value put anywhere (fast-check).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrate } from "../../src/migrate/migrate.js";
import { plain } from "../../src/migrate/notes.js";
import { exampleSamples, generatedDocuments, mutate } from "../core/generate.js";
import { ROOT, validHost, validRemote } from "../helpers.js";
import { extensionOf, missingMetrics, schemaErrors } from "./helpers.js";

describe("migrate on edited descriptors", () => {
  const samples = generatedDocuments(exampleSamples(), 6, 33);

  it("runs over enough of them to mean something", () => {
    expect(samples.length).toBeGreaterThan(300);
  });

  it("converts to a valid extension, or says why not, and never throws", () => {
    let converted = 0;
    for (const s of samples) {
      const r = migrate(s.text);
      if (!r.converted) {
        expect(r.reasons.length, s.name).toBeGreaterThan(0);
        for (const x of r.reasons) expect(plain(x.text), s.name).not.toBe("");
        continue;
      }
      converted++;
      expect(schemaErrors(extensionOf(r)), s.name).toEqual([]);
      expect(missingMetrics(r), s.name).toEqual([]);
      const lines = s.text.split("\n").length;
      for (const n of r.notes) if (n.line !== undefined) expect(n.line, s.name).toBeLessThanOrEqual(lines);
    }
    expect(converted).toBeGreaterThan(samples.length / 2);
  });
});

describe("migrate on mangled descriptors", () => {
  const jmx = JSON.parse(readFileSync(join(ROOT, "examples/jmx-valid/plugin.json"), "utf8")) as unknown;
  const mutation = fc.tuple(
    fc.array(fc.nat(), { maxLength: 6 }),
    fc.jsonValue({ maxDepth: 3 }),
    fc.integer({ min: 0, max: 2 }),
  );
  const doc = fc
    .tuple(
      fc.constantFrom(jmx, validHost(), validRemote()),
      fc.array(mutation, { minLength: 1, maxLength: 6 }),
    )
    .map(([start, ms]) => ms.reduce<unknown>((d, [p, r, m]) => mutate(d, p, r, m) ?? null, start));

  it("converts to a valid extension, or says why not, and never throws", () => {
    fc.assert(
      fc.property(doc, (d) => {
        const r = migrate(JSON.stringify(d, null, 2));
        if (!r.converted) return r.reasons.length > 0;
        expect(schemaErrors(extensionOf(r))).toEqual([]);
        expect(missingMetrics(r)).toEqual([]);
        return true;
      }),
      { numRuns: 300, seed: 33 },
    );
  });
});
