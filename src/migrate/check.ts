/**
 * What `migrate` writes is checked before it is written: extension.yaml read back and validated against
 * schemas/extension.schema.json, then against the EF2 rules the schema cannot say (one data source, count keys
 * end in `.count`, no key twice); every alert file as a metric event and the activation schema against their
 * definitions there, every dashboard against schemas/dashboard.schema.json. A problem here means no file is
 * written.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import schema from "../../schemas/extension.schema.json" with { type: "json" };
import dashboardSchema from "../../schemas/dashboard.schema.json" with { type: "json" };
import { arr, get, str } from "../core/guards.js";
import { metricKeyProblem } from "../core/ef2/names.js";
import { readYaml } from "./yaml.js";

const ID = schema.$id;
/** The data source members of an EF2 extension (extension.yaml holds one). */
export const DATA_SOURCES = [
  "jmx",
  "python",
  "snmp",
  "wmi",
  "prometheus",
  "sqlDb2",
  "sqlServer",
  "sqlMySql",
  "sqlOracle",
  "sqlPostgres",
  "sqlHana",
  "sqlSnowflake",
];

let compiled:
  | {
      extension: ValidateFunction;
      event: ValidateFunction;
      activation: ValidateFunction;
      dashboard: ValidateFunction;
    }
  | undefined;

/** The validators, compiled once, on first use (a command other than `migrate` never pays for them). */
function validators() {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
    ajv.addSchema(schema);
    ajv.addSchema(dashboardSchema);
    compiled = {
      extension: ajv.getSchema(ID)!,
      event: ajv.getSchema(`${ID}#/definitions/metricEvent`)!,
      activation: ajv.getSchema(`${ID}#/definitions/activationSchema`)!,
      dashboard: ajv.getSchema(dashboardSchema.$id)!,
    };
  }
  return compiled;
}

function describe(file: string, errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${file}: ${e.instancePath || "(root)"} ${e.message ?? "is not valid"}`);
}

/**
 * The problems of an extension (the value written as extension.yaml) and the files beside it (paths relative to
 * extension.yaml). With `yamlText`, that text is read back too and must say exactly `extension`.
 */
export function checkExtension(
  extension: unknown,
  beside: ReadonlyMap<string, string>,
  yamlText?: string,
): string[] {
  const doc = extension;
  if (yamlText !== undefined) {
    // Read as YAML readers read it (yaml.ts, readYaml): in linear time, where a general YAML parser took most of
    // a migration's time; the tests read every extension.yaml they make with one, under YAML 1.1 and 1.2.
    const read = readYaml(yamlText);
    if (read === undefined || JSON.stringify(read) !== JSON.stringify(extension))
      return ["extension.yaml does not read back as written"];
  }
  const v = validators();
  if (!v.extension(doc)) return describe("extension.yaml", v.extension.errors);
  const problems: string[] = [];
  const sources = DATA_SOURCES.filter((s) => get(doc, s) !== undefined);
  if (sources.length !== 1)
    problems.push(`extension.yaml has ${sources.length} data sources (one is needed)`);

  const seen = new Set<string>();
  for (const group of arr(get(get(doc, "jmx"), "groups")))
    for (const sub of arr(get(group, "subgroups"))) {
      const dimensions = arr(get(sub, "dimensions")).map((d) => str(get(d, "key")));
      const twice = dimensions.find((d, i) => dimensions.indexOf(d) !== i);
      if (twice) problems.push(`subgroup ${String(get(sub, "subgroup"))} has dimension ${twice} twice`);
      for (const m of arr(get(sub, "metrics"))) {
        const key = str(get(m, "key"))!;
        if (seen.has(key)) problems.push(`extension.yaml collects metric ${key} twice`);
        seen.add(key);
        const problem = metricKeyProblem(key);
        if (problem) problems.push(`extension.yaml: metric key ${key}: ${problem}`);
        // Dynatrace's converter reads `.Count` and `_Count` as the count suffix too (its keys are ours).
        const count = /[._][cC]ount$/.test(key);
        if (get(m, "type") === "count" && !count) problems.push(`count metric ${key} does not end in .count`);
        if (get(m, "type") === "gauge" && count) problems.push(`gauge metric ${key} ends in .count`);
      }
    }
  const described = new Set<string>();
  for (const m of arr(get(doc, "metrics"))) {
    const key = str(get(m, "key"))!;
    if (described.has(key)) problems.push(`extension.yaml describes metric ${key} twice`);
    described.add(key);
  }

  for (const alert of arr(get(doc, "alerts"))) {
    const path = str(get(alert, "path"))!;
    const text = beside.get(path);
    if (text === undefined) {
      problems.push(`alert file ${path} is listed but not written`);
      continue;
    }
    const event = JSON.parse(text) as unknown;
    if (!v.event(event)) problems.push(...describe(path, v.event.errors));
  }
  for (const listed of arr(get(doc, "dashboards"))) {
    const path = str(get(listed, "path"))!;
    const text = beside.get(path);
    if (text === undefined) {
      problems.push(`dashboard ${path} is listed but not written`);
      continue;
    }
    const dashboard = JSON.parse(text) as unknown;
    if (!v.dashboard(dashboard)) problems.push(...describe(path, v.dashboard.errors));
    // Each tile's queries read metrics the extension has (collected by its JMX data source, or described).
    for (const tile of arr(get(dashboard, "tiles")))
      for (const query of arr(get(tile, "queries"))) {
        const metric = str(get(query, "metric"))!;
        if (!seen.has(metric) && !described.has(metric))
          problems.push(
            `${path}: tile ${JSON.stringify(get(tile, "name"))} queries ${metric}, which extension.yaml does not define`,
          );
      }
  }
  const activation = get(get(doc, "python"), "activation");
  for (const where of ["remote", "local"] as const) {
    const file = str(get(get(activation, where), "path"));
    if (file === undefined) continue;
    const text = beside.get(file);
    if (text === undefined) {
      problems.push(`activation schema ${file} is named but not written`);
      continue;
    }
    const parsed = JSON.parse(text) as unknown;
    if (!v.activation(parsed)) problems.push(...describe(file, v.activation.errors));
    const root = where === "remote" ? "pythonRemote" : "pythonLocal";
    if (get(get(parsed, "properties"), root) === undefined)
      problems.push(`${file} has no ${root}, which python.activation.${where} needs`);
  }
  return problems;
}
