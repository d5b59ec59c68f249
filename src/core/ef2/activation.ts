/**
 * A Python extension's activationSchema.json as the rules read it (extensions-2.md §3): the roots a monitoring
 * configuration fills (`properties.pythonRemote`, `properties.pythonLocal`), the types and enums it defines,
 * the `$ref`s that name them, and every property of its types with its type. Pure; any JSON value in.
 */
import { get, isObj, obj, str } from "../guards.js";
import { escapeSegment } from "../json/pointer.js";

export interface ActivationProperty {
  /** `<type>.<property>`: a property of a type of the schema. */
  name: string;
  /** Its type as written: a name (`text`, `secret`, `list`…) or the `$ref` it names. */
  type: string;
  pointer: string;
  /** Its `default` as written (`null` included); undefined when it has none. */
  default?: unknown;
}

export interface ActivationFacts {
  /** The members of `properties` (`pythonRemote`, `pythonLocal`). */
  roots: readonly string[];
  types: readonly string[];
  enums: readonly string[];
  /** Every `$ref` (`#/types/x`, `#/enums/y`), where it is written in the schema. */
  refs: readonly { ref: string; pointer: string }[];
  properties: readonly ActivationProperty[];
  /** The `value` of each item of each enum, by enum name. */
  enumValues: ReadonlyMap<string, readonly unknown[]>;
}

/** The type of a property: its `type` when a name, else the `$ref` it holds. */
function typeOf(property: unknown): string {
  const type = get(property, "type");
  if (typeof type === "string") return type;
  const ref = str(get(type, "$ref"));
  return ref ?? JSON.stringify(type) ?? "";
}

export function activationFacts(value: unknown): ActivationFacts {
  const types = obj(get(value, "types")) ?? {};
  const enums = obj(get(value, "enums")) ?? {};
  const refs: { ref: string; pointer: string }[] = [];
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length) {
    const [v, p] = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, `${p}/${i}`]));
    else if (isObj(v))
      for (const [k, x] of Object.entries(v)) {
        const at = `${p}/${escapeSegment(k)}`;
        if (k === "$ref" && typeof x === "string") refs.push({ ref: x, pointer: at });
        else stack.push([x, at]);
      }
  }
  const properties = Object.entries(types).flatMap(([type, t]) =>
    Object.entries(obj(get(t, "properties")) ?? {}).map(([name, property]) => ({
      name: `${type}.${name}`,
      type: typeOf(property),
      pointer: `/types/${escapeSegment(type)}/properties/${escapeSegment(name)}`,
      default: get(property, "default"),
    })),
  );
  return {
    roots: Object.keys(obj(get(value, "properties")) ?? {}),
    types: Object.keys(types),
    enums: Object.keys(enums),
    refs: refs.sort((a, b) => (a.pointer < b.pointer ? -1 : 1)),
    properties,
    enumValues: new Map(
      Object.entries(enums).map(([name, e]) => {
        const items = get(e, "items");
        return [name, Array.isArray(items) ? items.map((i) => get(i, "value")) : []];
      }),
    ),
  };
}

/** The root a python.activation entry reads: `remote` → `pythonRemote`, `local` → `pythonLocal`. */
export function rootOf(where: "remote" | "local"): string {
  return where === "remote" ? "pythonRemote" : "pythonLocal";
}

/** An activation schema python.activation names, as the review could read it. */
export interface ActivationSchemaRead {
  where: "remote" | "local";
  /** As extension.yaml writes it, and where it does. */
  path: string;
  pointer: string;
  /** Why it has no value: the caller did not read it (`unread`: nothing is said), or it could not be read or parsed. */
  unread?: true;
  problem?: string;
  value?: unknown;
  facts?: ActivationFacts;
  /** Its problems against Dynatrace's activation schema format. */
  problems?: readonly { pointer: string; message: string }[];
}

/** What activationPairs reads: the activation schemas of head and of the base (rule-context.ts). */
interface ActivationSource {
  activationSchemas(base?: boolean): readonly ActivationSchemaRead[];
}

/** Each activation schema that head and base both name by the same path and both could read, side by side. */
export function activationPairs(
  context: ActivationSource,
): { path: string; pointer: string; before: ActivationFacts; after: ActivationFacts }[] {
  const base = context.activationSchemas(true);
  const head = context.activationSchemas();
  // One file named by remote and local is one file.
  return head.flatMap((a, i) => {
    if (head.findIndex((x) => x.path === a.path) !== i) return [];
    const b = base.find((x) => x.path === a.path);
    return a.facts && b?.facts ? [{ path: a.path, pointer: a.pointer, before: b.facts, after: a.facts }] : [];
  });
}

/** Each activation schema head names and could read, once per file (remote and local may name one file). */
export function readActivationSchemas(
  context: ActivationSource,
): (ActivationSchemaRead & { facts: ActivationFacts })[] {
  const head = context.activationSchemas();
  return head.flatMap((a, i) =>
    a.facts && head.findIndex((x) => x.path === a.path) === i ? [{ ...a, facts: a.facts }] : [],
  );
}
