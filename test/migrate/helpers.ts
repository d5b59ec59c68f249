/** What the migration tests share: a migration that must convert, its files read back, and the EF2 schema. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { expect } from "vitest";
import { parse } from "yaml";
import { migrate, type Converted, type MigrateOptions } from "../../src/migrate/migrate.js";
import { plain } from "../../src/migrate/notes.js";
import { ROOT } from "../helpers.js";

export type Json = Record<string, unknown>;

/** A descriptor's migration, which must convert (its reasons shown when it does not). */
export function converted(doc: string | Json, options: MigrateOptions = {}): Converted {
  const r = migrate(typeof doc === "string" ? doc : JSON.stringify(doc, null, 2), options);
  if (!r.converted) expect.fail(`not converted: ${r.reasons.map((x) => plain(x.text)).join("; ")}`);
  return r;
}

export function file(r: Converted, path: string): string {
  const f = r.files.find((x) => x.path === path);
  if (!f) expect.fail(`no ${path} among ${r.files.map((x) => x.path).join(", ")}`);
  return f.content;
}

/** extension.yaml read back as a YAML 1.1 reader (SnakeYAML, Dynatrace's) and a 1.2 one both read it. */
export function extensionOf(r: Converted): Json {
  const text = file(r, "extension/extension.yaml");
  const v12 = parse(text, { version: "1.2" }) as Json;
  expect(parse(text, { version: "1.1" })).toEqual(v12);
  return v12;
}

export interface Subgroup {
  subgroup: string;
  query: string;
  dimensions?: { key: string; value: string }[];
  metrics: { key: string; value: string; type: string }[];
}

export function subgroupsOf(r: Converted): Subgroup[] {
  const jmx = extensionOf(r).jmx as { groups: { subgroups: Subgroup[] }[] } | undefined;
  return (jmx?.groups ?? []).flatMap((g) => g.subgroups);
}

/** The schema of schemas/, compiled here by a validator of its own (not the one migrate uses). */
const schema = JSON.parse(readFileSync(join(ROOT, "schemas/extension.schema.json"), "utf8")) as Json;
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(schema);
const ID = schema.$id as string;

export function schemaErrors(value: unknown, definition?: string): string[] {
  const validate = ajv.getSchema(definition ? `${ID}#/definitions/${definition}` : ID)!;
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/**
 * What "every EF1 metric reaches the EF2 extension" means: the EF2 metric metric-keys.json names for each EF1
 * metric is collected by extension.yaml's JMX data source, or (Python) described in its `metrics:`; a rate's
 * calculated metric is described there too.
 */
export function missingMetrics(r: Converted): string[] {
  const ext = extensionOf(r);
  const collected = new Set(subgroupsOf(r).flatMap((s) => s.metrics.map((m) => m.key)));
  const described = new Set(((ext.metrics as { key: string }[] | undefined) ?? []).map((m) => m.key));
  const keys = JSON.parse(file(r, "metric-keys.json")) as {
    metrics: { ef1: { key: string }; ef2: { key: string; rateKey?: string } }[];
  };
  const missing: string[] = [];
  for (const m of keys.metrics) {
    const present = ext.jmx ? collected.has(m.ef2.key) : described.has(m.ef2.key);
    if (!present || !described.has(m.ef2.key)) missing.push(`${m.ef1.key} → ${m.ef2.key}`);
    if (m.ef2.rateKey && !described.has(m.ef2.rateKey)) missing.push(`${m.ef1.key} → ${m.ef2.rateKey}`);
  }
  return missing;
}
