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
import extension from "../../schemas/extension.schema.json" with { type: "json" };
import { hasPlaceholder } from "./ef2/placeholders.js";
import { childPointer, displayPath, escapeSegment, valueAt } from "./json/pointer.js";
import { closest, didYouMeanText, listOf } from "./suggest.js";
import type { FileFormat, Fix, MessageData, Suggestion, Target, Variant } from "./types.js";
import { quote } from "./quote.js";
import { appendErrorsInPlace } from "./ajv-code.js";

/**
 * The messages of the schema rules (schema-rule.ts): which one a schema finding uses is its `messageId`, filled
 * from its `data`. `path` and `where` name the place with indices and `suggestion` is a hint: positional
 * (not part of the identity); `value` quotes the offending value, cut short, and `fullValue` holds all of it
 * when cut (both set aside when grouping repeated findings).
 */
export const SCHEMA_MESSAGES = {
  missingTop: "missing required member `{{member}}`",
  missing: "`{{path}}` is missing required member `{{member}}`",
  unknownNear: "unknown member `{{member}}`{{where}}: did you mean `{{suggestion}}`?",
  misplaced: "unknown member `{{member}}`{{where}}: {{hint}}",
  unknownKnown: "unknown member `{{member}}`{{where}} (known members: {{known}})",
  unknown: "unknown member `{{member}}`{{where}}",
  type: "`{{path}}` must be {{expected}}, not {{actual}} {{value}}",
  typeNull: "`{{path}}` must be {{expected}}, not null",
  notAllowed: "`{{path}}` is {{value}}; allowed: {{allowed}}",
  notAllowedNear: "`{{path}}` is {{value}}; allowed: {{allowed}}. Did you mean `{{suggestion}}`?",
  format: "`{{path}}` is {{value}}: it {{expected}}",
} as const;
export type SchemaMessageId = keyof typeof SCHEMA_MESSAGES;
export const SCHEMA_POSITIONAL_DATA = ["path", "where", "suggestion"] as const;
export const SCHEMA_NAME_DATA = ["value", "fullValue"] as const;

export interface SchemaFinding {
  ruleId: string;
  messageId: SchemaMessageId;
  data: MessageData;
  pointer: string;
  target: Target;
  /**
   * A value or member name that differs only in letter case from exactly one allowed value or known member
   * is fixed to it: that spelling is the only one the platform reads, no judgement is needed.
   */
  fix?: Fix;
  /** Guesses: the closest allowed value by edit distance, the known member an unknown one misspells. */
  suggestions?: Suggestion[];
}

let ajvInstance: Ajv | undefined;
/** A descriptor's schema is its variant's; an extension.yaml's, schemas/extension.schema.json. */
type SchemaKind = Variant | "extension";

/**
 * A variant's schema compiled as Ajv runs it, in parts: the root's own keywords (its type, the members
 * required, unknown members, `if`/`else`) with every member's schema set to `true`, and each member's
 * schema alone, in the order of the schema's `properties`. Run in that order they give exactly the errors
 * of the whole schema, in its order (test/core/schema.test.ts holds this), and a member's errors depend on
 * its value alone, so that a base's member that is head's very value is not validated twice. A document
 * validated without another version is validated whole, in one pass: most have no error (the parts cost
 * about twice as much then), and the whole's errors are told part by part by where they are.
 */
interface Validators {
  /** The whole schema: what tells at once that a document has no error, as most have none. */
  whole: ValidateFunction;
  root: ValidateFunction;
  /** Each member's name, its validator, and its name as a pointer's segment. */
  members: readonly (readonly [string, ValidateFunction, string])[];
}
const validators: Partial<Record<Variant, Validators>> = {};
let extensionValidator: ValidateFunction | undefined;

/**
 * The Ajv the descriptor schemas are compiled with; `process` rewrites its generated code (its test compares
 * the code as Ajv writes it).
 */
export function makeAjv(process: (source: string) => string = appendErrorsInPlace): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    // A descriptor's size decides how many errors there are, never time in its square (ajv-code.ts).
    code: { process },
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
function validatorFor(variant: Variant): Validators {
  const known = validators[variant];
  if (known) return known;
  const ajv = (ajvInstance ??= makeAjv());
  const schema = variant === "host" ? host : remote;
  // Added, not compiled: its parts are compiled below (the whole only for validateWhole).
  if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema);
  const names = Object.keys(schema.properties);
  const root = ajv.compile({
    ...schema,
    $id: schema.$id.replace(/\.schema\.json$/, ".root.schema.json"),
    properties: Object.fromEntries(names.map((n) => [n, true])),
  });
  const members = names.map((n) => {
    const segment = escapeSegment(n);
    return [n, ajv.compile({ $ref: `${schema.$id}#/properties/${segment}` }), segment] as const;
  });
  const whole = ajv.getSchema(schema.$id) as ValidateFunction;
  return (validators[variant] = { whole, root, members });
}

/** The extension's schema, compiled whole on first use (an extension.yaml is validated at once, not in parts). */
function extensionValidatorFor(): ValidateFunction {
  return (extensionValidator ??= (ajvInstance ??= makeAjv()).compile(extension));
}

const UNITS: ReadonlySet<unknown> = new Set(common.definitions.unit.enum);

const EXTENSION_UNITS: ReadonlySet<unknown> = new Set(extension.definitions.unit.enum);

/** `v` is one of Dynatrace's units, as an extension's metadata takes them. */
export function isExtensionUnit(v: unknown): boolean {
  return EXTENSION_UNITS.has(v);
}

const EXTENSION_METRIC_KEY = new RegExp(extension.definitions.metricKey.pattern);

/** `v` is a metric key as a data source of an extension writes it (the schema's `metricKey`). */
export function isExtensionMetricKey(v: unknown): boolean {
  return typeof v === "string" && EXTENSION_METRIC_KEY.test(v);
}

/** Every value a data source's metric `type` takes in the extension's schema (the enums that hold `gauge`). */
const EXTENSION_METRIC_TYPES: ReadonlySet<unknown> = (() => {
  const out = new Set<unknown>();
  const stack: unknown[] = [extension];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...(v as unknown[]));
    else if (v !== null && typeof v === "object") {
      const e = (v as { enum?: unknown }).enum;
      if (Array.isArray(e) && e.includes("gauge")) for (const t of e) out.add(t);
      stack.push(...Object.values(v));
    }
  }
  return out;
})();

/** `v` is a metric type some data source of an extension takes (`gauge`, `count`, `count,delta`, …). */
export function isExtensionMetricType(v: unknown): boolean {
  return EXTENSION_METRIC_TYPES.has(v);
}

/** `v` is one of the metric units the schema allows (exactly, as the server reads them). */
export function isUnit(v: unknown): boolean {
  return UNITS.has(v);
}

/** Structural hints for members written at the wrong level (seen in real descriptors and extensions). */
const MISPLACED: Record<SchemaKind, Record<string, string>> = {
  host: {
    "/activation": "`activation` belongs inside `source`",
    "/activation_name_pattern": "`activation_name_pattern` belongs inside `source`",
    "/className": "`className` belongs inside `source`",
    "/package": "`package` belongs inside `source`",
  },
  remote: {},
  extension: {
    "/activation": "`activation` belongs inside `python`",
    "/runtime": "`runtime` belongs inside `python`",
    "/featureSets":
      "`featureSets` belongs inside `python` (a declarative data source names feature sets with `featureSet`)",
    "/groups": "`groups` belongs inside `jmx`",
  },
};
MISPLACED.remote = MISPLACED.host;

/**
 * Data sources written under the database's other name (a real extension wrote `sqlMssql`): the member meant,
 * which the nearest spelling is not (`sqlMssql` is two letters from `sqlMySql`, another database). By lower
 * case, at the top level of an extension.yaml.
 */
const DATA_SOURCE_NAMES: Readonly<Record<string, string>> = {
  sqlmssql: "sqlServer",
  mssql: "sqlServer",
  sqlsqlserver: "sqlServer",
  sqlmicrosoft: "sqlServer",
  sqlpostgresql: "sqlPostgres",
  postgresql: "sqlPostgres",
};

/**
 * The offending value as data: `value`, what the message quotes (cut short past 60 characters), and when
 * cut, `fullValue`, all of it, which the message does not show but the identity reads (two values that
 * differ past the cut are two findings).
 */
/** A value as a message quotes it: as JSON, cut past 60 characters (the whole kept as `fullValue`). */
export function valueData(v: unknown): { value: string; fullValue?: string } {
  const s = JSON.stringify(v);
  if (s === undefined) return { value: String(v) };
  return cut(s);
}

function cut(s: string): { value: string; fullValue?: string } {
  return s.length > 60 ? { value: s.slice(0, 57) + "…", fullValue: s } : { value: s };
}

/**
 * A number's `actual` and `value` as the file writes it: `1.10` is parsed as 1.1 and `1.0` as the integer
 * 1, and a message quoting those would send the author to a version that is not theirs.
 */
export function writtenNumberData(written: string): { actual: string; value: string; fullValue?: string } {
  return { actual: /^-?\d+$/.test(written) ? "integer" : "number", ...cut(written) };
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/**
 * `written` differs from `near` only in letter case, and no other candidate does: the one right spelling, so
 * replacing it needs no judgement (a fix, which `--fix` applies). Every other closest name is a suggestion.
 */
function caseOnly(written: string, near: string, candidates: readonly string[]): boolean {
  const lower = written.toLowerCase();
  return (
    written !== near &&
    near.toLowerCase() === lower &&
    candidates.filter((c) => c.toLowerCase() === lower).length === 1
  );
}

/**
 * What is said of a schema node once for all its errors (a descriptor may break one pattern hundreds of times):
 * by the node, which the schemas hold for the process's life.
 */
const said = new WeakMap<object, { known?: readonly string[]; knownList?: string; expected?: string }>();

function saidOf(node: object): { known?: readonly string[]; knownList?: string; expected?: string } {
  let out = said.get(node);
  if (!out) said.set(node, (out = {}));
  return out;
}

/** Allowed values are listed in a message up to this many. */
const LISTED_MAX = 25;

/** Where the schema defines what the value breaks (`#/definitions/unit/enum`: the definition's name). */
function schemaPath(e: ErrorObject): string {
  const m = /#\/definitions\/([^/]+)/.exec(e.schemaPath);
  return m ? `/${m[1]}` : e.instancePath;
}

function classify(e: ErrorObject, kind: SchemaKind): SchemaFinding | undefined {
  const at = e.instancePath;
  const path = displayPath(at);
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case "required": {
      const member = (e.params as { missingProperty: string }).missingProperty;
      return {
        ruleId: "required-member",
        pointer: childPointer(at, member),
        target: "key",
        ...(at === ""
          ? { messageId: "missingTop", data: { member } }
          : { messageId: "missing", data: { path, member } }),
      };
    }
    case "additionalProperties": {
      const member = (e.params as { additionalProperty: string }).additionalProperty;
      const pointer = childPointer(at, member);
      const node = saidOf(parent);
      const known = (node.known ??= Object.keys((parent.properties as Record<string, unknown>) ?? {}));
      const meant = kind === "extension" && at === "" ? DATA_SOURCE_NAMES[member.toLowerCase()] : undefined;
      const near = meant ?? closest(member, known);
      const hint = MISPLACED[kind][pointer];
      const where = at === "" ? "" : ` in ${quote(path)}`;
      const f: SchemaFinding = near
        ? {
            ruleId: "unknown-member",
            messageId: "unknownNear",
            data: { member, where, suggestion: near },
            pointer,
            target: "key",
          }
        : hint
          ? {
              ruleId: "unknown-member",
              messageId: "misplaced",
              data: { member, where, hint },
              pointer,
              target: "key",
            }
          : known.length
            ? {
                ruleId: "unknown-member",
                messageId: "unknownKnown",
                data: { member, where, known: (node.knownList ??= known.map((k) => quote(k)).join(", ")) },
                pointer,
                target: "key",
              }
            : {
                ruleId: "unknown-member",
                messageId: "unknown",
                data: { member, where },
                pointer,
                target: "key",
              };
      // Renaming is only offered when the member it misspells is absent (else it would become a duplicate key).
      if (near && !Object.prototype.hasOwnProperty.call(e.data ?? {}, near)) {
        const edit = {
          replacement: JSON.stringify(near),
          description: `rename to ${quote(near)}`,
          target: "key" as const,
        };
        // A name that differs only in letter case from exactly one known member is that member: a fix, as for
        // values below. Any other near name is a guess.
        if (caseOnly(member, near, known)) f.fix = edit;
        else f.suggestions = [edit];
      }
      return f;
    }
    case "type": {
      const type = String((e.params as { type: string | string[] }).type).replace(/,/g, " or ");
      const expected = `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
      return {
        ruleId: "invalid-type",
        ...(e.data === null
          ? { messageId: "typeNull" as const, data: { path, expected } }
          : {
              messageId: "type" as const,
              data: { path, expected, actual: jsonType(e.data), ...valueData(e.data) },
            }),
        pointer: at,
        target: "value",
      };
    }
    case "if":
    case "anyOf":
      return undefined; // reported by the branch that failed
  }
  const routed = typeof parent["x-rule"] === "string" ? (parent["x-rule"] as string) : undefined;
  if (e.keyword === "enum" || e.keyword === "x-enumIgnoreCase" || e.keyword === "const") {
    const allowedValues = ((e.keyword === "enum" ? parent.enum : parent[e.keyword]) ?? []) as string[];
    // Two allowed values that differ only in case make a case-only mistake ambiguous: no suggestion then.
    const sameCase = (v: string) => allowedValues.filter((a) => a.toLowerCase() === v.toLowerCase()).length;
    const near =
      typeof e.data === "string" && sameCase(e.data) <= 1 ? closest(e.data, allowedValues) : undefined;
    const caseNote = e.keyword === "x-enumIgnoreCase" ? " (any case)" : "";
    // A long list (an extension's units) is named, not written out: the suggestion says the value meant.
    const allowed =
      allowedValues.length > LISTED_MAX
        ? `one of the ${allowedValues.length} values of ${quote(displayPath(schemaPath(e)))} in the schema`
        : listOf(allowedValues);
    const data: MessageData = { path, ...valueData(e.data), allowed: allowed + caseNote };
    const f: SchemaFinding = {
      ruleId: routed ?? "invalid-value",
      messageId: near ? "notAllowedNear" : "notAllowed",
      data: near ? { ...data, suggestion: near } : data,
      pointer: at,
      target: "value",
    };
    if (near) {
      const edit = { replacement: JSON.stringify(near), description: `use ${quote(near)}` };
      if (caseOnly(String(e.data), near, allowedValues)) f.fix = edit;
      else f.suggestions = [edit];
    }
    return f;
  }
  const expected =
    typeof parent["x-message"] === "string"
      ? (parent["x-message"] as string)
      : e.keyword === "pattern"
        ? (saidOf(parent).expected ??= `must match ${quote(String(parent.pattern))}`)
        : (e.message ?? "has an invalid format");
  return {
    ruleId: routed ?? "invalid-format",
    messageId: "format",
    data: { path, ...valueData(e.data), expected },
    pointer: at,
    target: "value",
  };
}

/**
 * An extension.yaml's members that a rule of their own reports whole (its findings, not the schema's): the
 * version (`ef2-version-format`, which reads what YAML wrote), and the name's pattern (`name-format`, as in
 * a descriptor; the schema's own keyword stays out of the file, which editors and `migrate` read as it is).
 */
function extensionOwner(f: SchemaFinding): string | undefined {
  if (f.pointer === "/version") return "ef2-version-format";
  if (f.pointer === "/name" && f.ruleId === "invalid-format") return "name-format";
  return undefined;
}

/**
 * Validates a parsed document against its schema: a descriptor's variant's, or (`extension.yaml`) the
 * extension's. In an extension, a value holding a build placeholder (`<%=version%>`) is not judged (the
 * build replaces it; `build-placeholder` says so). Never throws.
 */
export function validateSchema(
  value: unknown,
  variant: Variant,
  format: FileFormat = "plugin.json",
): SchemaFinding[] {
  return [...validateParts(value, variant, format).findings];
}

/**
 * A failed `anyOf`'s errors from the branches the value may have meant: Ajv reports every branch, and a
 * branch of another type than the value's (a `type` error at the anyOf's own place) is dropped when another
 * branch has its type, so that an interval's `minutes: 0` is told its range, not that it must be text. When
 * every branch is of another type, all are kept (the value's type is what is wrong). A branch is dropped for
 * that value alone (at and below its place): another value under the same schema (a second interval) may have
 * meant the other branch. A `$ref` branch's errors carry the referenced schema's path (`#/definitions/…`), so
 * that path names the branch too (a JMX value's `{attribute, accessor}` object).
 */
function meantBranches(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  // Looked up, not searched: a document of thousands of wrong values has thousands of anyOf errors.
  const typeErrorsAt = new Map<string, string[]>();
  for (const e of errors)
    if (e.keyword === "type") {
      const list = typeErrorsAt.get(e.instancePath);
      if (list) list.push(e.schemaPath);
      else typeErrorsAt.set(e.instancePath, [e.schemaPath]);
    }
  let dropped: Map<string, string[]> | undefined;
  for (const a of errors) {
    if (a.keyword !== "anyOf" || !Array.isArray(a.schema)) continue;
    const typeErrors = typeErrorsAt.get(a.instancePath) ?? [];
    const otherType: string[] = [];
    let branches = 0;
    (a.schema as unknown[]).forEach((schema, i) => {
      const paths = branchPaths(a.schemaPath, schema, i);
      if (typeErrors.some((path) => paths.some((p) => path.startsWith(p)))) {
        otherType.push(...paths);
        branches++;
      }
    });
    if (!branches || branches === a.schema.length) continue;
    dropped ??= new Map();
    dropped.set(a.instancePath, [...(dropped.get(a.instancePath) ?? []), ...otherType]);
  }
  if (!dropped) return errors;
  const drops = dropped;
  return errors.filter((e) => {
    // The error's place and each place above it, where an anyOf may have dropped the branch it comes from.
    for (let at = e.instancePath; ; at = at.slice(0, at.lastIndexOf("/"))) {
      const paths = drops.get(at);
      if (paths?.some((p) => e.schemaPath.startsWith(p))) return false;
      if (!at) return true;
    }
  });
}

/** The schema paths a branch's errors carry: its place in the anyOf, and the schema its `$ref` names. */
function branchPaths(anyOfPath: string, branch: unknown, i: number): string[] {
  const paths = [`${anyOfPath}/${i}/`];
  const ref = typeof branch === "object" && branch !== null ? (branch as { $ref?: unknown }).$ref : undefined;
  if (typeof ref === "string" && ref.includes("#")) paths.push(`${ref.slice(ref.indexOf("#"))}/`);
  return paths;
}

/**
 * Ajv's errors as findings: classified, a value of the wrong type reported once (as invalid-type, not again
 * for its enum or pattern), and one finding per rule and place. `prefix` is the pointer of the value the
 * errors are about (a member's, when validated alone); `doc` the whole document (an extension's
 * placeholders are looked up there).
 */
function findingsOf(
  all: readonly ErrorObject[],
  prefix: string,
  kind: SchemaKind,
  doc: unknown,
): SchemaFinding[] {
  const errors = meantBranches(all);
  const out: SchemaFinding[] = [];
  const seen = new Set<string>();
  const wrongType = new Set(errors.filter((e) => e.keyword === "type").map((e) => e.instancePath));
  for (const e of errors) {
    if (
      e.keyword !== "type" &&
      e.keyword !== "required" &&
      e.keyword !== "additionalProperties" &&
      wrongType.has(e.instancePath)
    )
      continue;
    const f = classify(prefix ? { ...e, instancePath: prefix + e.instancePath } : e, kind);
    if (!f) continue;
    if (kind === "extension") {
      if (f.ruleId !== "required-member" && hasPlaceholder(valueAt(doc, f.pointer))) continue;
      f.ruleId = extensionOwner(f) ?? f.ruleId;
    }
    const key = `${f.ruleId}\0${f.pointer}`;
    if (seen.has(key)) continue; // an enum and a pattern on one node would otherwise say it twice
    seen.add(key);
    out.push(f);
  }
  return out;
}

/**
 * A document's schema findings and where they come from: the root's own (which depend on its members'
 * names, in order, and its `type`) and each member's (which depend on its value alone).
 */
export interface SchemaValidation {
  kind: SchemaKind;
  findings: readonly SchemaFinding[];
  /** `keys` are its members' names, in order, when it is an object (a value that is not has none). */
  root: { keys: readonly string[] | undefined; type: unknown; findings: readonly SchemaFinding[] };
  members: ReadonlyMap<string, { value: unknown; findings: readonly SchemaFinding[] }>;
}

const EMPTY: readonly SchemaFinding[] = [];

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Validates a parsed descriptor against its variant's schema, part by part (Validators). With `like`, the
 * validation of another version of it (head's, for its base): the parts whose inputs are the very same
 * there are taken from it, findings and all, rather than validated again. An extension.yaml is validated
 * whole (validateSchema says how). Never throws.
 */
export function validateParts(
  value: unknown,
  variant: Variant,
  format: FileFormat = "plugin.json",
  like?: SchemaValidation,
): SchemaValidation {
  if (format === "extension.yaml") {
    const validate = extensionValidatorFor();
    const findings = validate(value) ? EMPTY : findingsOf(validate.errors ?? [], "", "extension", value);
    return {
      kind: "extension",
      findings,
      root: { keys: undefined, type: undefined, findings },
      members: new Map(),
    };
  }
  const { whole, root, members } = validatorFor(variant);
  const reuse = like?.kind === variant ? like : undefined;
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  const doc = value as Record<string, unknown>;
  const keys = isObject ? Object.keys(doc) : undefined;
  const type = isObject ? doc.type : undefined;
  const byMember = new Map<string, { value: unknown; findings: readonly SchemaFinding[] }>();
  if (!reuse) {
    // Validated whole, once: its errors are the parts' in their order, each under the part it is of (the
    // root's own at its pointer "", a member's under its name).
    if (whole(value)) {
      if (isObject)
        for (const [name] of members) {
          const v = doc[name];
          if (v !== undefined) byMember.set(name, { value: v, findings: EMPTY });
        }
      return { kind: variant, findings: EMPTY, root: { keys, type, findings: EMPTY }, members: byMember };
    }
    const errors = whole.errors ?? [];
    if (!isObject) {
      const findings = findingsOf(errors, "", variant, value);
      return { kind: variant, findings, root: { keys, type, findings }, members: byMember };
    }
    const bySegment = new Map<string, ErrorObject[]>();
    const rootErrors: ErrorObject[] = [];
    for (const e of errors) {
      const at = e.instancePath;
      if (at === "") {
        rootErrors.push(e);
        continue;
      }
      const end = at.indexOf("/", 1);
      const segment = end < 0 ? at.slice(1) : at.slice(1, end);
      const list = bySegment.get(segment);
      if (list) list.push(e);
      else bySegment.set(segment, [e]);
    }
    const rootFindings = rootErrors.length ? findingsOf(rootErrors, "", variant, value) : EMPTY;
    const findings = [...rootFindings];
    for (const [name, , segment] of members) {
      const v = doc[name];
      if (v === undefined) continue;
      const own = bySegment.get(segment);
      const memberFindings = own ? findingsOf(own, "", variant, value) : EMPTY;
      byMember.set(name, { value: v, findings: memberFindings });
      for (const f of memberFindings) findings.push(f);
    }
    return { kind: variant, findings, root: { keys, type, findings: rootFindings }, members: byMember };
  }
  let rootFindings: readonly SchemaFinding[];
  // A root that was not an object (no keys) has findings of its own, whatever this one's keys.
  if (reuse?.root.keys && keys && Object.is(reuse.root.type, type) && sameKeys(reuse.root.keys, keys))
    rootFindings = reuse.root.findings;
  else rootFindings = root(value) ? EMPTY : findingsOf(root.errors ?? [], "", variant, value);
  const findings = [...rootFindings];
  if (isObject) {
    for (const [name, validate] of members) {
      const v = doc[name];
      if (v === undefined) continue;
      const known = reuse?.members.get(name);
      const own =
        known && Object.is(known.value, v)
          ? known.findings
          : validate(v)
            ? EMPTY
            : findingsOf(validate.errors ?? [], "/" + escapeSegment(name), variant, value);
      byMember.set(name, { value: v, findings: own });
      for (const f of own) findings.push(f);
    }
  }
  return { kind: variant, findings, root: { keys, type, findings: rootFindings }, members: byMember };
}

/**
 * The whole schema validated at once, as it is written: what validateParts must equal (its test), and the
 * benchmarks' yardstick (JSON.parse + Ajv).
 */
export function validateWhole(value: unknown, variant: Variant): SchemaFinding[] {
  const { whole } = validatorFor(variant);
  return whole(value) ? [] : findingsOf(whole.errors ?? [], "", variant, value);
}

/** Compiles a document's schema when it is not yet (once per process), so that its time can be told apart. */
export function compileSchema(variant: Variant, format: FileFormat = "plugin.json"): void {
  if (format === "extension.yaml") extensionValidatorFor();
  else validatorFor(variant);
}

/**
 * An activationSchema.json's problems against Dynatrace's activation schema format (the `activationSchema`
 * definition of schemas/extension.schema.json): where, and what Ajv says. Never throws.
 */
export function validateActivationSchema(value: unknown): { pointer: string; message: string }[] {
  extensionValidatorFor();
  const validate = ajvInstance!.getSchema(`${extension.$id}#/definitions/activationSchema`);
  if (!validate || validate(value)) return [];
  const seen = new Set<string>();
  const out: { pointer: string; message: string }[] = [];
  // A property's `type` is text or a `{"$ref"}` object: text is told the types there are, not also "must be object".
  for (const e of meantBranches(validate.errors ?? [])) {
    if (e.keyword === "if" || e.keyword === "anyOf") continue; // said by the branch that failed
    const allowed =
      e.keyword === "enum" ? (e.params as { allowedValues?: unknown[] }).allowedValues : undefined;
    const missing =
      e.keyword === "required" ? (e.params as { missingProperty: string }).missingProperty : undefined;
    const message =
      missing !== undefined
        ? `${quote(displayPath(e.instancePath))} is missing ${quote(missing)}`
        : allowed?.every((v): v is string => typeof v === "string") && typeof e.data === "string"
          ? `${quote(displayPath(e.instancePath))} is ${quote(e.data)}, not one of ${listOf(allowed)}${didYouMeanText(closest(e.data, allowed))}`
          : e.keyword === "additionalProperties"
            ? `${quote(displayPath(e.instancePath))} has ${quote((e.params as { additionalProperty: string }).additionalProperty)}, which the format does not have`
            : `${quote(displayPath(e.instancePath))} ${e.message ?? "is not valid"}`;
    if (seen.has(message)) continue;
    seen.add(message);
    out.push({ pointer: e.instancePath, message });
  }
  return out;
}

/** Compiles the schemas now rather than on first use (the benchmark does, so that compiling is not timed). */
export function warmUpSchemas(): void {
  validatorFor("host");
  validatorFor("remote");
  extensionValidatorFor();
}
