/**
 * The configuration's `migration_map` read: the map's text, as its reader found it (the App: the default
 * branch; the CLI and the editor: the working tree beside the configuration), parsed into the configuration
 * the review uses, or the problems that make the configuration invalid (a map that is named but absent is
 * one: a review that compared with the wrong keys would be noise, one that silently ignored the map worse).
 * Pure.
 */
import { ConfigError, type ResolvedConfig } from "../config.js";
import { readMigrationMap } from "./mapping.js";
import { quote } from "../quote.js";

/**
 * `config` with its migration map read from `text` (undefined: the file is not there); throws ConfigError
 * naming the configuration when the map is absent, the map (`owner/repo:path`, or the file) when invalid.
 */
export function withMigrationMap(
  config: ResolvedConfig,
  text: string | undefined,
  sources: { config: string; map: string },
): ResolvedConfig {
  const named = config.migrationMap;
  if (!named) return config;
  if (text === undefined)
    throw new ConfigError(sources.config, [
      `\`migration_map\` names ${quote(named.path)}, which is not there: add the map (\`plugin-review migrate --map ${named.path} --out …\` writes it) or remove the setting`,
    ]);
  const read = readMigrationMap(text, named.path);
  if (!read.ok) throw new ConfigError(sources.map, read.problems);
  return { ...config, migrationMap: { path: named.path, map: read.map } };
}
