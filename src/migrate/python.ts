/**
 * The Python data source: `python.runtime` (the module python-project.ts names), the remote activation for a remote
 * plugin and the local one for a host plugin, `metrics:` metadata for every EF1 metric, and activationSchema.json
 * from `properties` and `configUI` (every EF1 property type, display names, hints, order and defaults).
 */
import { detectVariant } from "../core/analyse.js";
import { arr, get, isObj, obj, str, type Obj } from "../core/guards.js";
import type { DescriptorMigration } from "./context.js";
import { PROCESS_DIMENSION, RX_PID, STATE_DIMENSION, type Ef1Metric } from "../core/ef2/key-map.js";
import { dimensionKey } from "../core/ef2/names.js";
import { q, said } from "./notes.js";
import { TOPOLOGY_DIMENSIONS } from "./python-project.js";
import { ef2Unit } from "./units.js";
import type { YamlValue } from "./yaml.js";

export const ACTIVATION_FILE = "activationSchema.json";
/** The Python the EF2 SDK's template asks for (dt-extensions-python-sdk's extension.yaml template). */
const PYTHON_MIN = "3.10";
/** What the plugin code's packaging members become (the class and install_requires: python-project.ts). */
const SOURCE_NOTES: Record<string, string> = {
  packages: "Python packaging goes to the EF2 extension's setup.py, not extension.yaml",
  package_data: "Python packaging goes to the EF2 extension's setup.py, not extension.yaml",
  modules: "Python packaging goes to the EF2 extension's setup.py, not extension.yaml",
};

export interface PythonSource {
  python: YamlValue;
  metadata: YamlValue[];
  activation: object;
  remote: boolean;
}

function metadataOf(m: DescriptorMigration, metrics: readonly Ef1Metric[], remote: boolean): YamlValue[] {
  const out: YamlValue[] = [];
  const described = new Set<string>();
  for (const metric of metrics) {
    if (metric.spec.aggregation !== undefined)
      m.note(
        "dropped",
        `${metric.pointer}/aggregation`,
        said`EF2's metric metadata has no default chart aggregation`,
      );
    if (metric.spec.topxconfig !== undefined)
      m.note(
        "dropped",
        `${metric.pointer}/topxconfig`,
        said`EF2's metric metadata has no top-X configuration`,
      );
    if (metric.ef1.kind === "statetimeseries")
      m.note(
        "changed",
        metric.pointer,
        said`EF2 has no state metrics: ${q(metric.ef1.key)} is the gauge \`${metric.ef2.key}\`, which the code reports as 1 with dimension \`${STATE_DIMENSION}\` set to the current state (${arr(metric.spec.states).length} states)`,
      );
    if (described.has(metric.ef2.key)) {
      m.note(
        "dropped",
        metric.pointer,
        said`metric ${q(metric.ef1.key)} is listed twice: EF2 describes it once`,
      );
      continue;
    }
    described.add(metric.ef2.key);
    const displayName = str(metric.spec.displayname) ?? metric.ef1.key;
    const states = arr(metric.spec.states).filter((s): s is string => typeof s === "string");
    const description =
      metric.ef1.kind === "statetimeseries"
        ? `${displayName}: 1 for the current ${STATE_DIMENSION} (${states.join(", ")})`
        : displayName;
    const entry: Record<string, YamlValue> = { displayName, description };
    if (metric.ef1.kind === "timeseries") {
      const unit = ef2Unit(metric.spec.unit);
      if (unit === undefined)
        m.note(
          "changed",
          `${metric.pointer}/unit`,
          said`${q(metric.spec.unit ?? "(none)")} is not a unit: EF2 says \`Unspecified\``,
        );
      entry.unit = unit ?? "Unspecified";
    } else entry.unit = "Count";
    const dims = metric.ef2.dimensions.map((key) => ({
      key,
      displayName:
        metric.dimensions.find((d) => d.ef2 === key)?.ef1 ?? (key === STATE_DIMENSION ? "State" : key),
    }));
    for (const { ef1, ef2 } of metric.dimensions) {
      const rule = ef1 === RX_PID ? PROCESS_DIMENSION : dimensionKey(ef1);
      if (ef2 === undefined || ef2 === rule) continue;
      const taken = metric.dimensions.some((d) => d.ef1 !== ef1 && d.ef2 === rule)
        ? "another of its dimensions already (EF2 dimension keys are lower case)"
        : rule === STATE_DIMENSION
          ? "the dimension its current state is sent in"
          : "the dimension the plugin's group or device is sent as";
      m.note(
        "changed",
        `${metric.pointer}/dimensions`,
        said`dimension ${q(ef1)} of metric ${q(metric.ef1.key)} is \`${ef2}\`: \`${rule}\` is ${taken}`,
      );
    }
    // A remote plugin's groups and devices are dimensions of its metrics (ef1compat sends them).
    if (remote)
      for (const d of TOPOLOGY_DIMENSIONS) if (!dims.some((x) => x.key === d.key)) dims.push({ ...d });
    if (dims.length) entry.dimensions = dims;
    out.push({ key: metric.ef2.key, metadata: entry });
  }
  return out;
}

/** A property's EF2 type, and its default as that type (undefined when there is none, or it does not fit). */
interface PropertyType {
  type: YamlValue;
  subType?: string;
  enumItems?: string[];
}

function propertyType(m: DescriptorMigration, property: Obj, pointer: string): PropertyType {
  const type = str(property.type)?.toLowerCase();
  switch (type) {
    case "string":
      return { type: "text" };
    case "textarea":
      return { type: "text", subType: "multiline" };
    case "json":
      m.note(
        "changed",
        `${pointer}/type`,
        said`EF2 has no JSON property type: it is \`text\`, which the code parses`,
      );
      return { type: "text", subType: "multiline" };
    case "password":
      return { type: "secret" };
    case "integer":
    case "float":
    case "boolean":
      return { type };
    case "dropdown": {
      const items = arr(property.dropdownValues).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
      return { type: { $ref: `#/enums/${str(property.key)!}` }, enumItems: items };
    }
    default:
      m.note(
        "changed",
        `${pointer}/type`,
        said`${q(property.type ?? "(none)")} is not an EF1 property type: it is \`text\``,
      );
      return { type: "text" };
  }
}

/** An EF1 default as the EF2 type holds it; undefined when it does not fit (said in a note). */
function defaultOf(m: DescriptorMigration, value: unknown, t: PropertyType, pointer: string): unknown {
  const fits = (v: unknown) => {
    m.note("dropped", pointer, said`the default ${q(value)} is not a value of its type: EF2 gets none`);
    return v;
  };
  switch (t.type) {
    case "integer": {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      return typeof n === "number" && Number.isInteger(n) ? n : fits(undefined);
    }
    case "float": {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      return typeof n === "number" && Number.isFinite(n) ? n : fits(undefined);
    }
    case "boolean":
      if (typeof value === "boolean") return value;
      if (value === "true" || value === "false") return value === "true";
      return fits(undefined);
    default:
      if (t.enumItems)
        return typeof value === "string" && t.enumItems.includes(value) ? value : fits(undefined);
      return typeof value === "string" ? value : typeof value === "number" ? String(value) : fits(undefined);
  }
}

/** activationSchema.json: one type, `custom_extension`, holding the properties in their display order. */
function activationSchema(m: DescriptorMigration, remote: boolean): object {
  const doc = m.doc;
  const config = obj(doc.configUI);
  const fields = arr(get(config, "properties"));
  const fieldOf = (key: string) => fields.find((f) => isObj(f) && f.key === key) as Obj | undefined;
  const properties = arr(doc.properties)
    .map((p, i) => ({ p, i, pointer: `/properties/${i}` }))
    .filter((x): x is { p: Obj; i: number; pointer: string } => isObj(x.p) && typeof x.p.key === "string");
  fields.forEach((f, i) => {
    const key = str(get(f, "key"));
    if (key !== undefined && !properties.some((x) => x.p.key === key))
      m.note("dropped", `/configUI/properties/${i}`, said`no property ${q(key)} exists to show`);
  });
  // EF2 shows a type's properties in the order it lists them: EF1's displayOrder, then the rest as written.
  const order = (x: { p: Obj; i: number }) => {
    const o = Number(get(fieldOf(x.p.key as string), "displayOrder"));
    return Number.isFinite(o) ? o : Number.POSITIVE_INFINITY;
  };
  properties.sort((a, b) => order(a) - order(b) || a.i - b.i);
  const out: Record<string, object> = {};
  const enums: Record<string, object> = {};
  const typed = properties.map((x) => ({ ...x, t: propertyType(m, x.p, x.pointer) }));
  for (const { p, pointer, t } of typed) {
    const key = p.key as string;
    const field = fieldOf(key);
    const property: Record<string, unknown> = { displayName: str(get(field, "displayName")) ?? key };
    const hint = str(get(field, "displayHint"));
    if (hint !== undefined) property.description = hint;
    property.type = t.type;
    if (t.subType) property.subType = t.subType;
    let value: unknown;
    if (p.defaultValue !== undefined) {
      if (t.type === "secret")
        m.note(
          "dropped",
          `${pointer}/defaultValue`,
          said`a secret's default would be readable in the extension package: EF2 gets none`,
        );
      else value = defaultOf(m, p.defaultValue, t, `${pointer}/defaultValue`);
    }
    property.nullable = value === undefined;
    if (value !== undefined) property.default = value;
    out[key] = property;
    if (t.enumItems) {
      if (t.enumItems.length === 0)
        m.note(
          "changed",
          `${pointer}/dropdownValues`,
          said`a dropdown without values: EF2's enum needs one, so it holds \`\` (empty)`,
        );
      enums[key] = {
        displayName: str(get(field, "displayName")) ?? key,
        type: "enum",
        items: (t.enumItems.length ? t.enumItems : [""]).map((v) => ({ value: v, displayName: v })),
      };
    }
  }
  const title = str(get(config, "displayName")) ?? str(doc.name) ?? "Extension";
  // The summary names a configuration by its first property that is not a secret.
  const first = typed.find((x) => x.t.type !== "secret");
  const root = remote ? "pythonRemote" : "pythonLocal";
  const endpoint: Record<string, unknown> = { type: "object", displayName: title, properties: out };
  if (first) endpoint.summaryPattern = `${title} - {${first.p.key as string}}`;
  return {
    types: {
      custom_extension: endpoint,
      [root]: {
        type: "object",
        displayName: remote ? "Python Remote Extension" : "Python Local Extension",
        properties: {
          endpoints: {
            displayName: "Endpoint",
            type: "list",
            items: { type: { $ref: "#/types/custom_extension" } },
            nullable: false,
            minItems: 1,
            // A remote plugin's configurations each monitored one endpoint; EF2 takes up to 100 in one. A host
            // plugin runs once where it is activated.
            maxItems: remote ? 100 : 1,
            metaData: { addItemButton: "Add endpoint" },
          },
        },
      },
    },
    ...(Object.keys(enums).length ? { enums } : {}),
    dynatrace: "1",
    description: `${title} configuration`,
    schemaId: "python-extension.activation",
    displayName: `${title} configuration`,
    ownerProductManagement: "dynatrace",
    ownerDevelopment: "dynatrace",
    maturity: "GENERAL_AVAILABILITY",
    allowedScopes: ["tenant"],
    multiObject: false,
    properties: {
      [root]: {
        displayName: remote ? "Python Remote Extension" : "Python Local Extension",
        type: { $ref: `#/types/${root}` },
      },
    },
  };
}

/** Whether a Python plugin is a remote one (ActiveGate), as the review tells the variants apart. */
export function isRemote(doc: Obj): boolean {
  return detectVariant(doc) === "remote";
}

/** The python data source of a plugin whose module (the EF2 package) is `module`. */
export function pythonSource(
  m: DescriptorMigration,
  metrics: readonly Ef1Metric[],
  module: string,
): PythonSource {
  const remote = isRemote(m.doc);
  const source = obj(m.doc.source);
  for (const [member, why] of Object.entries(SOURCE_NOTES))
    if (source && source[member] !== undefined) m.note("todo", `/source/${member}`, said`${why}`);
  // A host plugin's activation is applied to OneAgent's process snapshot by the compatibility layer (ef1compat).
  if (source?.activation !== undefined)
    m.note(
      remote ? "dropped" : "changed",
      "/source/activation",
      remote
        ? said`EF2 runs a remote extension for each endpoint of a monitoring configuration`
        : said`EF2 runs a local extension once per host its monitoring configuration names: there, the compatibility layer makes ${source.activation === "Singleton" ? "one object of the plugin's class for the process group instances of OneAgent's process snapshot the plugin matches" : "one object of the plugin's class per process group instance of OneAgent's process snapshot the plugin matches"}, as the EF1 agent did`,
    );
  if (source?.activation_name_pattern !== undefined)
    m.note(
      remote ? "dropped" : "changed",
      "/source/activation_name_pattern",
      remote
        ? said`EF2 activates an extension by monitoring configuration, not by process group name`
        : said`EF2 activates an extension by monitoring configuration, not by process group name: on the hosts it names, the compatibility layer runs the plugin only for the process groups of OneAgent's process snapshot whose name the pattern finds, as the EF1 agent did`,
    );
  return {
    python: {
      runtime: { module, version: { min: PYTHON_MIN } },
      activation: { [remote ? "remote" : "local"]: { path: ACTIVATION_FILE } },
    },
    metadata: metadataOf(m, metrics, remote),
    activation: activationSchema(m, remote),
    remote,
  };
}
