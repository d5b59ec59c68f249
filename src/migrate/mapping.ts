/**
 * The migration map written back (`migrate --map <file> --out <dir>`): the entries it was read with, each
 * converted descriptor's entry set to what the run gave it (its EF2 name, key prefix and metric keys), new ones
 * after the others in the order given. The layout is always this one, so that a map read again and written by
 * the same run is the same bytes; plugin names and values are quoted and escaped as extension.yaml's are
 * (yaml.ts). The format and its reading: core/ef2/mapping.ts.
 */
import type { MigrationMap } from "../core/ef2/mapping.js";
import type { MapUpdate } from "./fleet.js";
import { toYaml, type YamlValue } from "./yaml.js";

const HEADER = [
  "# plugin-review migrate's map: for each EF1 plugin (by its `name`), the EF2 extension it becomes.",
  "# `plugin-review migrate --map <this file>` reads it and writes it back; the review of a migration reads",
  '# the one `.github/plugin-review.yml` names (`migration_map`). docs/migrate.md, "Migrating a fleet".',
];

/** The map's text: `map`'s entries with `updates` applied. */
export function writeMigrationMap(map: MigrationMap | undefined, updates: readonly MapUpdate[]): string {
  // A Map, then own properties: a plugin may be named `__proto__`.
  const plugins = new Map<string, Record<string, YamlValue>>();
  for (const entry of map?.entries.values() ?? [])
    plugins.set(entry.plugin, {
      ...(entry.name !== undefined ? { name: entry.name } : {}),
      ...(entry.keyPrefix !== undefined ? { key_prefix: entry.keyPrefix } : {}),
      ...(entry.metrics.length ? { metrics: entry.metrics } : {}),
    });
  for (const u of updates)
    plugins.set(u.plugin, {
      name: u.name,
      key_prefix: u.keyPrefix,
      ...(u.metrics.length ? { metrics: u.metrics } : {}),
    });
  // An empty mapping is `{}` (toYaml); a map with no plugin is still a map.
  return `${HEADER.join("\n")}\n${toYaml({ plugins: Object.fromEntries(plugins) })}`;
}
