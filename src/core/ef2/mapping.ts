/**
 * The migration map (`migrate.yml`): for each EF1 plugin of a repository, by its `name`, the EF2 extension it
 * becomes (its `name` and the prefix of its metric keys) and the metric keys that extension has. `plugin-review
 * migrate --map` reads it, so that a fleet migrated in steps stays consistent, and writes it back; the review
 * of a migration reads the one the configuration names (`migration_map`), from the default branch in the App,
 * so that an extension whose keys have a prefix other than its name is compared with the right keys.
 *
 * ```yaml
 * plugins:
 *   custom.jmx.kafka:            # the EF1 plugin's `name`
 *     name: custom:acme.kafka    # the EF2 extension's name
 *     key_prefix: acme.kafka     # its metric keys start with it (default: the name without `custom:`)
 *     metrics: [acme.kafka.requests.count]   # written by migrate: the keys it has
 * ```
 *
 * Pure: text in, entries and problems (each with its line) out. The text is read as the review reads an
 * extension.yaml (formats.ts: the same YAML, bounded in depth, nodes and aliases), so that what the one takes
 * the other does not refuse; the file's size is its reader's.
 */
import { arr, isObj, str } from "../guards.js";
import { escapeSegment } from "../json/pointer.js";
import { FORMATS } from "../formats.js";
import { LineIndex, resolvePointer } from "../locate.js";
import { metricKeyProblem, nameProblem } from "./names.js";
import { quote } from "../quote.js";

export interface MapEntry {
  /** The EF1 plugin's `name`, the entry's key. */
  plugin: string;
  /** The EF2 extension's name. */
  name?: string;
  /** What its metric keys start with (without the dot). */
  keyPrefix?: string;
  /** The EF2 metric keys the extension has (what `migrate` wrote), for the collision checks of later runs. */
  metrics: string[];
  /** Its line in the file (1-based). */
  line: number;
}

export interface MigrationMap {
  /** Where it was read from, for messages. */
  source: string;
  entries: Map<string, MapEntry>;
}

export interface MapProblem {
  message: string;
  line?: number;
}

export type MapRead = { ok: true; map: MigrationMap } | { ok: false; problems: MapProblem[] };

const ENTRY_MEMBERS = new Set(["name", "key_prefix", "metrics"]);

/** Why a key prefix cannot start EF2 metric keys, or undefined (metric ingestion protocol sections). */
export function keyPrefixProblem(prefix: string): string | undefined {
  if (prefix === "") return "it is empty";
  const problem = metricKeyProblem(`${prefix}.x`);
  return problem && problem.replace(/ \(3 to 255\)$/, "");
}

/** Parses a migration map. An empty file is an empty map. */
export function readMigrationMap(text: string, source: string): MapRead {
  if (text.trim() === "") return { ok: true, map: { source, entries: new Map() } };
  const parsed = FORMATS["extension.yaml"].parse(text);
  const index = new LineIndex(text);
  if (!parsed.ok)
    return {
      ok: false,
      problems: [
        {
          message: `not readable as YAML: ${parsed.error.message}`,
          line: index.position(parsed.error.offset).line,
        },
      ],
    };
  const lineOf = (pointer: string) => {
    const r = resolvePointer(parsed.root, pointer);
    return index.position(r.keyStart ?? r.node.start).line;
  };
  const problems: MapProblem[] = parsed.duplicates.map((d) => ({
    message: `${quote(d.key)} is given twice`,
    line: index.position(d.keyStart).line,
  }));
  const doc = parsed.value;
  if (!isObj(doc))
    return { ok: false, problems: [{ message: "it is not a mapping with `plugins:`", line: 1 }] };
  for (const k of Object.keys(doc))
    if (k !== "plugins")
      problems.push({
        message: `unknown key ${quote(k)} (a map has \`plugins:\`)`,
        line: lineOf(`/${escapeSegment(k)}`),
      });
  const plugins = doc.plugins;
  const entries = new Map<string, MapEntry>();
  if (plugins !== undefined && plugins !== null && !isObj(plugins))
    problems.push({ message: "`plugins` is not a mapping of EF1 plugin names", line: lineOf("/plugins") });
  const byName = new Map<string, string>();
  const byKey = new Map<string, string>();
  for (const [plugin, value] of Object.entries(isObj(plugins) ? plugins : {})) {
    const at = `/plugins/${escapeSegment(plugin)}`;
    const line = lineOf(at);
    const where = `plugins.${plugin}`;
    if (!isObj(value)) {
      problems.push({ message: `${where}: not a mapping of \`name\`, \`key_prefix\`, \`metrics\``, line });
      continue;
    }
    for (const k of Object.keys(value))
      if (!ENTRY_MEMBERS.has(k))
        problems.push({
          message: `${where}: unknown key ${quote(k)} (one of \`name\`, \`key_prefix\`, \`metrics\`)`,
          line: lineOf(`${at}/${escapeSegment(k)}`),
        });
    const entry: MapEntry = { plugin, metrics: [], line };
    if (value.name !== undefined) {
      const name = str(value.name);
      const problem = name === undefined ? "it is not a string" : nameProblem(name);
      if (problem)
        problems.push({
          message: `${where}.name: not a valid EF2 name: ${problem}`,
          line: lineOf(`${at}/name`),
        });
      else {
        entry.name = name!;
        const other = byName.get(name!);
        if (other !== undefined)
          problems.push({
            message: `${where}.name: ${quote(name!)} is the name of ${quote(other)} too`,
            line: lineOf(`${at}/name`),
          });
        byName.set(name!, plugin);
      }
    }
    if (value.key_prefix !== undefined) {
      const prefix = str(value.key_prefix);
      const problem = prefix === undefined ? "it is not a string" : keyPrefixProblem(prefix);
      if (problem)
        problems.push({
          message: `${where}.key_prefix: not a prefix of EF2 metric keys: ${problem}`,
          line: lineOf(`${at}/key_prefix`),
        });
      else entry.keyPrefix = prefix!;
    }
    if (value.metrics !== undefined && !Array.isArray(value.metrics))
      problems.push({
        message: `${where}.metrics: not a list of metric keys`,
        line: lineOf(`${at}/metrics`),
      });
    arr(value.metrics).forEach((key, i) => {
      const k = str(key);
      const problem = k === undefined ? "it is not a string" : metricKeyProblem(k.replace(/^func:/, ""));
      if (problem) {
        problems.push({
          message: `${where}.metrics[${i}]: not an EF2 metric key: ${problem}`,
          line: lineOf(`${at}/metrics/${i}`),
        });
        return;
      }
      const other = byKey.get(k!);
      if (other !== undefined && other !== plugin)
        problems.push({
          message: `${where}.metrics[${i}]: ${quote(k!)} is a metric of ${quote(other)} too`,
          line: lineOf(`${at}/metrics/${i}`),
        });
      byKey.set(k!, plugin);
      entry.metrics.push(k!);
    });
    entries.set(plugin, entry);
  }
  if (problems.length) return { ok: false, problems: problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
  return { ok: true, map: { source, entries } };
}

/** The key prefix of an EF2 extension: the map's, else its name without `custom:`. */
export function keyPrefixOf(entry: MapEntry | undefined, name: string): string {
  return entry?.keyPrefix ?? name.replace(/^custom:/, "");
}
