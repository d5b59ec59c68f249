/**
 * JSON Schema validation. The schemas in `schemas/` are the single source of structure; this module
 * compiles them once and turns Ajv's errors into classified, person-readable schema findings. Each
 * structural rule file (`rules/required-member.ts`, …) picks the findings classified with its id.
 *
 * A schema node may carry `x-rule` to route its value-constraint errors (enum, pattern, …) to a rule of
 * its own (`name-format`, `version-format`, `variant-mismatch`); `x-enumIgnoreCase` is an enum matched
 * without regard to case (aggregation, seriestype, property type).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import common from "../../schemas/plugin-common.schema.json" with { type: "json" };
import host from "../../schemas/plugin-host.schema.json" with { type: "json" };
import remote from "../../schemas/plugin-remote.schema.json" with { type: "json" };
import { childPointer, displayPath } from "./json/pointer.js";
import { closest, didYouMeanText, listOf } from "./suggest.js";
import type { RawFinding, Target, Variant } from "./types.js";

export interface SchemaFinding {
  ruleId: string;
  message: string;
  pointer: string;
  target: Target;
  /** A mechanical fix: the closest allowed value, or the known member an unknown one misspells. */
  fix?: RawFinding["fix"];
}

let ajvInstance: Ajv | undefined;
const validators: Partial<Record<Variant, ValidateFunction>> = {};

function makeAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    allowUnionTypes: true,
  });
  ajv.addKeyword({ keyword: "x-rule", schemaType: "string" });
  ajv.addKeyword({ keyword: "x-message", schemaType: "string" });
  ajv.addKeyword({
    keyword: "x-enumIgnoreCase",
    schemaType: "array",
    type: "string",
    errors: true,
    validate: function enumIgnoreCase(schema: string[], data: string) {
      const d = data.toLowerCase();
      return schema.some((v) => v.toLowerCase() === d);
    },
  });
  ajv.addSchema(common);
  return ajv;
}

/** Each variant's schema is compiled on first use (a CLI run over host plugins never compiles remote). */
function validatorFor(variant: Variant): ValidateFunction {
  ajvInstance ??= makeAjv();
  validators[variant] ??= ajvInstance.compile(variant === "host" ? host : remote);
  return validators[variant];
}

/** Structural hints for members written at the wrong level (seen in real descriptors). */
const MISPLACED: Record<string, string> = {
  "/activation": "`activation` belongs inside `source`",
  "/activation_name_pattern": "`activation_name_pattern` belongs inside `source`",
  "/className": "`className` belongs inside `source`",
  "/package": "`package` belongs inside `source`",
};

function valueText(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + "…" : s;
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function classify(e: ErrorObject): SchemaFinding | undefined {
  const at = e.instancePath;
  const where = displayPath(at);
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case "required": {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return {
        ruleId: "required-member",
        pointer: childPointer(at, missing),
        target: "key",
        message:
          at === ""
            ? `missing required member \`${missing}\``
            : `\`${where}\` is missing required member \`${missing}\``,
      };
    }
    case "additionalProperties": {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      const pointer = childPointer(at, extra);
      const known = Object.keys((parent.properties as Record<string, unknown>) ?? {});
      const near = closest(extra, known);
      const suggestion = didYouMeanText(near);
      const hint = MISPLACED[pointer];
      let message = `unknown member \`${extra}\`${at === "" ? "" : ` in \`${where}\``}`;
      if (suggestion) message += suggestion;
      else if (hint) message += `: ${hint}`;
      else if (known.length) message += ` (known members: ${known.map((k) => `\`${k}\``).join(", ")})`;
      const f: SchemaFinding = { ruleId: "unknown-member", pointer, target: "key", message };
      // Renaming is only a fix when the member it misspells is absent (else it would become a duplicate key).
      if (near && !Object.prototype.hasOwnProperty.call(e.data ?? {}, near))
        f.fix = { replacement: JSON.stringify(near), description: `rename to \`${near}\``, target: "key" };
      return f;
    }
    case "type": {
      const expected = String((e.params as { type: string | string[] }).type).replace(/,/g, " or ");
      return {
        ruleId: "invalid-type",
        pointer: at,
        target: "value",
        message: `\`${where}\` must be ${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}, not ${jsonType(e.data)} ${valueText(e.data)}`,
      };
    }
    case "if":
      return undefined; // reported by the branch that failed
  }
  const routed = typeof parent["x-rule"] === "string" ? (parent["x-rule"] as string) : undefined;
  if (e.keyword === "enum" || e.keyword === "x-enumIgnoreCase" || e.keyword === "const") {
    const allowed = ((e.keyword === "enum" ? parent.enum : parent[e.keyword]) ?? []) as string[];
    // Two allowed values that differ only in case make a case-only mistake ambiguous: no suggestion then.
    const sameCase = (v: string) => allowed.filter((a) => a.toLowerCase() === v.toLowerCase()).length;
    const near = typeof e.data === "string" && sameCase(e.data) <= 1 ? closest(e.data, allowed) : undefined;
    const caseNote = e.keyword === "x-enumIgnoreCase" ? " (any case)" : "";
    let message = `\`${where}\` is ${valueText(e.data)}; allowed: ${listOf(allowed)}${caseNote}`;
    if (near) message += `. Did you mean \`${near}\`?`;
    const f: SchemaFinding = { ruleId: routed ?? "invalid-value", pointer: at, target: "value", message };
    if (near) f.fix = { replacement: JSON.stringify(near), description: `use \`${near}\`` };
    return f;
  }
  const expected =
    typeof parent["x-message"] === "string"
      ? (parent["x-message"] as string)
      : e.keyword === "pattern"
        ? `must match \`${String(parent.pattern)}\``
        : (e.message ?? "has an invalid format");
  return {
    ruleId: routed ?? "invalid-format",
    pointer: at,
    target: "value",
    message: `\`${where}\` is ${valueText(e.data)}: it ${expected}`,
  };
}

/** Validates a parsed descriptor against its variant's schema. Never throws. */
export function validateSchema(value: unknown, variant: Variant): SchemaFinding[] {
  const validate = validatorFor(variant);
  if (validate(value)) return [];
  const out: SchemaFinding[] = [];
  const seen = new Set<string>();
  const errors = validate.errors ?? [];
  // A value of the wrong type is reported once, as invalid-type, not again for its enum or pattern.
  const wrongType = new Set(errors.filter((e) => e.keyword === "type").map((e) => e.instancePath));
  for (const e of errors) {
    if (
      e.keyword !== "type" &&
      e.keyword !== "required" &&
      e.keyword !== "additionalProperties" &&
      wrongType.has(e.instancePath)
    )
      continue;
    const f = classify(e);
    if (!f) continue;
    const key = `${f.ruleId}\0${f.pointer}`;
    if (seen.has(key)) continue; // an enum and a pattern on one node would otherwise say it twice
    seen.add(key);
    out.push(f);
  }
  return out;
}

/** Compiles the schemas now rather than on first use (the benchmark does, so that compiling is not timed). */
export function warmUpSchemas(): void {
  validatorFor("host");
  validatorFor("remote");
}
