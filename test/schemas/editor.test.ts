/**
 * What an editor gets from `schemas/` alone (docs/editors.md): a title and a description to show on hover
 * for every member, and a diagnostic for every purely structural mistake.
 *
 * The mistakes are checked with a plain Ajv (draft-07, like the editors), without plugin-review's custom
 * keywords (`x-rule`, `x-message`, `x-enumIgnoreCase` are unknown to editors and ignored here too).
 * plugin-review itself is only asked afterwards, to prove that each case really is the rule it names, at
 * the same place.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { describe, expect, it } from "vitest";
import { at, check, ROOT, validHost, validRemote } from "../helpers.js";

type Json = Record<string, unknown>;
type Schema = Json;

function loadSchema(name: string): Schema {
  return JSON.parse(readFileSync(join(ROOT, "schemas", name), "utf8")) as Schema;
}

const FILES = ["plugin.schema.json", "plugin-host.schema.json", "plugin-remote.schema.json"] as const;
const COMMON = "plugin-common.schema.json";
const SCHEMAS: Record<string, Schema> = Object.fromEntries(
  [...FILES, COMMON].map((f) => [f, loadSchema(f)] as const),
);

/** Follows a `$ref` as an editor does: a file name relative to `schemas/`, then a JSON pointer in it. */
function resolveRef(ref: string, file: string): { node: Schema; file: string } {
  const [target = "", pointer = ""] = ref.split("#", 2);
  const inFile = target === "" ? file : target;
  let node: unknown = SCHEMAS[inFile];
  if (node === undefined) throw new Error(`$ref ${ref} in ${file}: no schema ${inFile}`);
  for (const part of pointer.split("/").filter(Boolean)) {
    node = (node as Json)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (node === undefined) throw new Error(`$ref ${ref} in ${file} does not resolve`);
  }
  return { node: node as Schema, file: inFile };
}

interface Member {
  path: string;
  name: string;
  title?: unknown;
  description?: unknown;
}

/** Every member of every object schema reachable from plugin.schema.json, with its title and description. */
function members(): Member[] {
  const out: Member[] = [];
  const seen = new Set<Schema>();
  const visit = (node: unknown, file: string, path: string): void => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    const s = node as Schema;
    if (seen.has(s)) return;
    seen.add(s);
    if (typeof s.$ref === "string") {
      const r = resolveRef(s.$ref, file);
      visit(r.node, r.file, path);
    }
    for (const key of ["if", "then", "else", "not", "items", "additionalProperties"]) {
      visit(s[key], file, `${path}/${key}`);
    }
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const list = s[key];
      if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, file, `${path}/${key}/${i}`));
    }
    const props = s.properties;
    if (props && typeof props === "object" && !Array.isArray(props)) {
      // The variant test under `if` describes no members: nothing there is shown on hover.
      const insideIf = /\/if(\/|$)/.test(path);
      for (const [name, sub] of Object.entries(props as Record<string, Schema>)) {
        // An editor shows the member's own annotations, else those of what its $ref points to.
        const target = typeof sub.$ref === "string" ? resolveRef(sub.$ref, file).node : {};
        if (!insideIf) {
          out.push({
            path: `${path}/properties/${name}`,
            name,
            title: sub.title ?? target.title,
            description: sub.description ?? target.description,
          });
        }
        visit(sub, file, `${path}/properties/${name}`);
      }
    }
  };
  visit(SCHEMAS["plugin.schema.json"], "plugin.schema.json", "plugin.schema.json#");
  return out;
}

/** How many members the files declare, counted over the raw JSON (outside the variant test under `if`). */
function declaredMembers(): number {
  let n = 0;
  const schema = (node: unknown): void => {
    if (Array.isArray(node)) for (const x of node) schema(x);
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === "properties") n += Object.keys(v as Json).length;
      if (k === "properties" || k === "definitions") Object.values(v as Json).forEach(schema);
      else if (k !== "if" && typeof v === "object") schema(v);
    }
  };
  for (const f of [...FILES, COMMON]) schema(SCHEMAS[f]);
  return n;
}

describe("hover texts", () => {
  const all = members();

  it("reaches every member of both variants", () => {
    const names = new Set(all.map((m) => m.name));
    for (const n of [
      "$schema",
      "name",
      "metricGroup",
      "favicon",
      "activation_name_pattern",
      "timeseries",
      "statetimeseries",
      "alert_id",
      "dealerting_samples",
      "keymetrics",
      "seriestype",
      "mergeaggregation",
      "displayOrder",
      "dropdownValues",
    ]) {
      expect(names, n).toContain(n);
    }
    // Reached once each: as many members as the files declare.
    expect(all.length).toBe(declaredMembers());
  });

  it("every member of every object has a title and a description", () => {
    const missing = all
      .filter((m) => typeof m.title !== "string" || typeof m.description !== "string")
      .map((m) => m.path);
    expect(missing).toEqual([]);
    for (const m of all) {
      expect((m.title as string).trim(), m.path).not.toBe("");
      expect((m.description as string).trim(), m.path).not.toBe("");
    }
  });

  it("`$schema` is a known top-level member of both variants, so an editor hint is no warning", () => {
    for (const file of ["plugin-host.schema.json", "plugin-remote.schema.json"]) {
      const props = SCHEMAS[file]!.properties as Record<string, Schema>;
      expect(props.$schema, file).toMatchObject({ type: "string" });
    }
    const hinted = (doc: Json) => ({
      $schema: "./node_modules/plugin-review/schemas/plugin.schema.json",
      ...doc,
    });
    expect(check(hinted(validHost()))).toEqual([]);
    expect(check(hinted(validRemote()))).toEqual([]);
    const wrongType = check({ ...validHost(), $schema: 7 });
    expect(wrongType.map((f) => [f.ruleId, f.pointer])).toEqual([["invalid-type", "/$schema"]]);
  });
});

/** A plain draft-07 Ajv, as an editor validates: the combined schema and the files it refers to. */
function editorValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema(SCHEMAS[COMMON]!);
  ajv.addSchema(SCHEMAS["plugin-host.schema.json"]!);
  ajv.addSchema(SCHEMAS["plugin-remote.schema.json"]!);
  return ajv.compile(SCHEMAS["plugin.schema.json"]!);
}

/** Where an editor underlines an error: the member for a missing or unknown one, else the value. */
function pointerOf(e: ErrorObject): string {
  if (e.keyword === "required")
    return `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`;
  if (e.keyword === "additionalProperties") {
    return `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}`;
  }
  return e.instancePath;
}

/** A fixture with one member (at `path`) set, or removed for `undefined`. */
function change(doc: Json, path: (string | number)[], member: string, value: unknown): Json {
  const obj = at<Json>(doc, ...path);
  if (value === undefined) delete obj[member];
  else obj[member] = value;
  return doc;
}

interface Case {
  rule: string;
  name: string;
  doc: Json;
  /** JSON pointer of the mistake, as plugin-review reports it. */
  pointer: string;
  keyword: string;
}

const CASES: Case[] = [
  {
    rule: "required-member",
    name: "host without `version`",
    doc: change(validHost(), [], "version", undefined),
    pointer: "/version",
    keyword: "required",
  },
  {
    rule: "required-member",
    name: "remote alert setting without `threshold`",
    doc: change(validRemote(), ["metrics", 0, "alert_settings", 0], "threshold", undefined),
    pointer: "/metrics/0/alert_settings/0/threshold",
    keyword: "required",
  },
  {
    rule: "invalid-type",
    name: "a threshold written as a string",
    doc: change(validHost(), ["metrics", 0, "alert_settings", 0], "threshold", "100"),
    pointer: "/metrics/0/alert_settings/0/threshold",
    keyword: "type",
  },
  {
    rule: "invalid-type",
    name: "`metrics` as an object (remote)",
    doc: change(validRemote(), [], "metrics", {}),
    pointer: "/metrics",
    keyword: "type",
  },
  {
    rule: "invalid-value",
    name: "unit in the wrong case",
    doc: change(validHost(), ["metrics", 0, "timeseries"], "unit", "percent"),
    pointer: "/metrics/0/timeseries/unit",
    keyword: "enum",
  },
  {
    rule: "invalid-value",
    name: "unknown event type (remote)",
    doc: change(validRemote(), ["metrics", 0, "alert_settings", 0], "event_type", "PERFORMANCE"),
    pointer: "/metrics/0/alert_settings/0/event_type",
    keyword: "enum",
  },
  {
    rule: "invalid-value",
    name: "host type that is no type",
    doc: change(validHost(), [], "type", "java"),
    pointer: "/type",
    keyword: "enum",
  },
  {
    rule: "invalid-format",
    name: "metric key with a space",
    doc: change(validHost(), ["metrics", 0, "timeseries"], "key", "requests total"),
    pointer: "/metrics/0/timeseries/key",
    keyword: "pattern",
  },
  {
    rule: "invalid-format",
    name: "chart color that is no HTML color (remote)",
    doc: change(validRemote(), ["ui", "keycharts", 0, "series", 0], "color", "blue-ish"),
    pointer: "/ui/keycharts/0/series/0/color",
    keyword: "pattern",
  },
  {
    rule: "unknown-member",
    name: "`aggeragation` typo",
    doc: change(validHost(), ["metrics", 1, "timeseries"], "aggeragation", "avg"),
    pointer: "/metrics/1/timeseries/aggeragation",
    keyword: "additionalProperties",
  },
  {
    rule: "unknown-member",
    name: "`className` at the top level (remote)",
    doc: change(validRemote(), [], "className", "DemoDevicePlugin"),
    pointer: "/className",
    keyword: "additionalProperties",
  },
  {
    rule: "name-format",
    name: "host name with an unknown kind",
    doc: change(validHost(), [], "name", "custom.java.demo"),
    pointer: "/name",
    keyword: "pattern",
  },
  {
    rule: "name-format",
    name: "remote name with an empty segment",
    doc: change(validRemote(), [], "name", "custom.remote..demo"),
    pointer: "/name",
    keyword: "pattern",
  },
  {
    rule: "version-format",
    name: "one-segment version",
    doc: change(validHost(), [], "version", "1"),
    pointer: "/version",
    keyword: "pattern",
  },
  {
    rule: "version-format",
    name: "version with a `v` (remote)",
    doc: change(validRemote(), [], "version", "v2.0.3"),
    pointer: "/version",
    keyword: "pattern",
  },
  {
    rule: "metric-group-format",
    name: "metricGroup with an empty segment",
    doc: change(validHost(), [], "metricGroup", "tech..demo"),
    pointer: "/metricGroup",
    keyword: "pattern",
  },
  {
    rule: "metric-group-format",
    name: "metricGroup with a space (remote)",
    doc: change(validRemote(), [], "metricGroup", "tech.demo device"),
    pointer: "/metricGroup",
    keyword: "pattern",
  },
  {
    rule: "variant-mismatch",
    name: "remote `type` JMX",
    doc: change(validRemote(), [], "type", "JMX"),
    pointer: "/type",
    keyword: "enum",
  },
  {
    rule: "variant-mismatch",
    name: "remote `entity` PROCESS_GROUP_INSTANCE",
    doc: change(validRemote(), [], "entity", "PROCESS_GROUP_INSTANCE"),
    pointer: "/entity",
    keyword: "enum",
  },
];

/** Rules whose every finding comes from the schema (src/core/schema.ts) rather than from code. */
const STRUCTURAL = [
  "required-member",
  "invalid-type",
  "invalid-value",
  "invalid-format",
  "unknown-member",
  "name-format",
  "version-format",
  "metric-group-format",
];

describe("an editor with only the schema sees every structural mistake", () => {
  const validate = editorValidator();

  it("covers every structural rule, and the schema-routed cases of variant-mismatch", () => {
    expect(new Set(CASES.map((c) => c.rule))).toEqual(new Set([...STRUCTURAL, "variant-mismatch"]));
  });

  it.each([
    ["host", validHost()],
    ["remote", validRemote()],
  ])("accepts the valid %s example", (_name, doc) => {
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(CASES.map((c) => [`${c.rule}: ${c.name}`, c] as const))("%s", (_name, c) => {
    expect(validate(c.doc)).toBe(false);
    const errors = (validate.errors ?? []).map((e) => `${e.keyword} ${pointerOf(e)}`);
    expect(errors).toContain(`${c.keyword} ${c.pointer}`);
    // The same mistake is the named rule for plugin-review, at the same place.
    const findings = check(c.doc).map((f) => `${f.ruleId} ${f.pointer}`);
    expect(findings).toContain(`${c.rule} ${c.pointer}`);
  });

  it("cannot flag a wrong value of a case-insensitive enum (x-enumIgnoreCase), which plugin-review does", () => {
    const doc = change(validHost(), ["metrics", 0, "timeseries"], "aggregation", "average");
    expect(validate(doc)).toBe(true);
    expect(check(doc).map((f) => `${f.ruleId} ${f.pointer}`)).toEqual([
      "invalid-value /metrics/0/timeseries/aggregation",
    ]);
  });
});
