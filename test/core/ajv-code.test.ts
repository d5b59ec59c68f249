/**
 * Ajv's generated code with its error concatenations made appends (ajv-code.ts): the same errors, in the
 * same order, as the code Ajv writes, for every descriptor schema; and no concatenation left, so that the
 * number of errors never costs time in its square. If a release of Ajv writes them otherwise, the first
 * test says so (the rewrite would silently no longer apply).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appendErrorsInPlace, concatenations } from "../../src/core/ajv-code.js";
import { makeAjv } from "../../src/core/schema.js";
import host from "../../schemas/plugin-host.schema.json" with { type: "json" };
import remote from "../../schemas/plugin-remote.schema.json" with { type: "json" };
import extension from "../../schemas/extension.schema.json" with { type: "json" };
import { parseYaml } from "../../src/core/yaml/parse.js";
import { exampleSamples, generatedDocuments } from "./generate.js";

const SCHEMAS = [host, remote, extension];
const EF2 = new URL("../../../shared/corpus/ef2/", import.meta.url);

/** Every generated function's source, as Ajv wrote it and as it runs. */
function compiled() {
  const written: string[] = [];
  const run: string[] = [];
  const ajv = makeAjv((source) => {
    written.push(source);
    const out = appendErrorsInPlace(source);
    run.push(out);
    return out;
  });
  for (const s of SCHEMAS) ajv.compile(s);
  return { written, run };
}

/** A metric with every kind of mistake its schema reports, through its `$ref`s (timeseries, alerts). */
function badMetric(i: number): unknown {
  return {
    timeseries: { key: `m${i}`, unit: "Bogus", aggregation: 3, dimensions: [1], bogus: true },
    alert_settings: [{ alert_id: 5, event_type: "NOPE", threshold: "high" }],
    extra: null,
  };
}

describe("Ajv's code with its errors appended in place", () => {
  it("finds Ajv's concatenations in every descriptor schema, and leaves none", () => {
    const { written, run } = compiled();
    expect(written.reduce((n, s) => n + concatenations(s), 0)).toBeGreaterThan(10);
    expect(run.filter((s) => s.includes("vErrors.concat("))).toEqual([]);
    // The Ajv the review compiles its schemas with rewrites its code so.
    expect(makeAjv().opts.code.process).toBe(appendErrorsInPlace);
  });

  it("gives the very errors of Ajv's own code, in its order", () => {
    const asWritten = makeAjv((source) => source);
    const asRun = makeAjv();
    const documents: unknown[] = generatedDocuments(exampleSamples(), 6, 11).flatMap((s) => {
      try {
        return [JSON.parse(s.text) as unknown];
      } catch {
        return [];
      }
    });
    documents.push(
      { name: 1, metrics: Array.from({ length: 300 }, (_, i) => badMetric(i)), ui: { charts: [{}, 3] } },
      { metrics: [badMetric(0), {}, 4, { statetimeseries: {} }], properties: [{ type: "nope" }, 1] },
    );
    if (existsSync(EF2))
      for (const f of readdirSync(EF2).filter((n) => n.endsWith(".yaml"))) {
        const parsed = parseYaml(readFileSync(new URL(f, EF2), "utf8"));
        if (parsed.ok) documents.push(parsed.value);
      }
    let failing = 0;
    for (const schema of SCHEMAS) {
      const written = asWritten.compile(schema);
      const run = asRun.compile(schema);
      for (const doc of documents) {
        const ok = written(doc);
        expect(run(doc)).toBe(ok);
        expect(run.errors).toEqual(written.errors);
        if (!ok) failing++;
      }
    }
    expect(failing).toBeGreaterThan(documents.length);
  });
});
