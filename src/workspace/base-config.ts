/**
 * `check --base-ref <ref> --config-from-base`: the configuration as the base commit has it, read from git at
 * the ref, never from the work tree. In CI on a pull request the work tree is the pull request's head, so a
 * configuration found there is the pull request's own: it could add `plugins/x/.github/plugin-review.yml`
 * with `fail_on: never` and pass. The App judges with the default branch's file; this judges with the base's,
 * which is what the Action uses. One file for every descriptor, as the App reads one: the repository's
 * `.github/plugin-review.yml` (or the `--config` file) at the ref, its globs relative to the repository root
 * (or, for a `--config` file outside a `.github/` folder, to the working directory, as `--config` is read);
 * nested configuration files are not read, at the ref or in the work tree. A file it `_extends` is merged
 * under it as the App merges it, read from that repository's default branch by the caller. The migration map
 * it names (`migration_map`) is read at the ref too, as the App reads it beside the configuration on the
 * default branch: a change cannot choose the keys its migration is judged by, nor is the map left out.
 */
import { basename, dirname, resolve } from "node:path";
import {
  CONFIG_PATH,
  extendConfig,
  parseConfig,
  resolveConfig,
  type RawConfig,
  type ResolvedConfig,
} from "../core/config.js";
import { withMigrationMap } from "../core/ef2/map-config.js";
import { realPath, type FoundConfig } from "./find-config.js";
import type { GitRepo } from "./git.js";
import { UsageError } from "./usage-error.js";

/** A configuration file beyond this is refused, as the App refuses one (github/api/port.ts CONFIG_MAX_BYTES). */
const CONFIG_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The configuration at `ref`: `config` (a path as given on the command line, relative to `cwd`) or the
 * repository's `.github/plugin-review.yml`. A named file the ref lacks is an error; the repository's file
 * missing means the built-in defaults, as it does for the App.
 */
export async function configAtRef(
  git: GitRepo,
  ref: string,
  cwd: string,
  config: string | undefined,
  /** Reads the file a configuration's `_extends` names (from GitHub: the shell's), or throws saying why not. */
  readExtended: (extending: RawConfig, label: string) => Promise<{ raw: RawConfig; source: string }>,
  /** How messages name the ref, when not by `ref` itself (HEAD before the first commit, read as the empty tree). */
  name = ref,
): Promise<FoundConfig> {
  const absolute = config !== undefined ? resolve(cwd, config) : resolve(git.root, CONFIG_PATH);
  const path = git.relative(realPath(absolute));
  if (path.startsWith("../"))
    throw new UsageError(
      `--config-from-base: '${config}' is outside the repository, so ${name} cannot hold it`,
    );
  // Globs are relative to the folder holding `.github/`, else (an explicit file elsewhere) the working directory.
  const folder = dirname(absolute);
  const root = config === undefined ? git.root : basename(folder) === ".github" ? dirname(folder) : cwd;
  const label = `${path} at ${name}`;
  let bytes: Buffer | undefined;
  try {
    bytes = await git.show(ref, path, CONFIG_MAX_BYTES);
  } catch (e) {
    throw new UsageError(`--config-from-base: cannot read ${label}: ${(e as Error).message}`);
  }
  if (bytes === undefined) {
    if (config !== undefined)
      throw new UsageError(
        `cannot read configuration '${config}' at ${name}: no such file there (--config-from-base reads it as ${name} has it, not from the work tree)`,
      );
    return {
      root,
      config: resolveConfig(),
      none: "not-found",
      label: `none (${name} has no ${CONFIG_PATH}: built-in defaults)`,
    };
  }
  if (bytes.length > CONFIG_MAX_BYTES)
    throw new UsageError(
      `--config-from-base: ${label} is ${bytes.length.toLocaleString("en-US")} bytes; a configuration may not exceed ${CONFIG_MAX_BYTES.toLocaleString("en-US")}`,
    );
  const raw = parseConfig(bytes, label);
  const withMap = (config: ResolvedConfig) => mapAtRef(git, ref, name, root, config, label);
  if (typeof raw._extends !== "string")
    return { root, config: await withMap(resolveConfig({ repo: raw })), label };
  // The file it extends is another repository's, on its default branch: what the App merges under it.
  const extended = await readExtended(raw, label);
  return {
    root,
    config: await withMap(resolveConfig({ repo: extendConfig(extended.raw, raw) })),
    label: `${label}, extending ${extended.source}`,
  };
}

/**
 * `config` with the migration map it names read at `ref` (its path from `root`, as the configuration's globs
 * are), never from the work tree; a map the ref lacks, or an invalid one, is a configuration error, as in the App.
 */
async function mapAtRef(
  git: GitRepo,
  ref: string,
  name: string,
  root: string,
  config: ResolvedConfig,
  label: string,
): Promise<ResolvedConfig> {
  const named = config.migrationMap;
  if (!named) return config;
  const path = git.relative(resolve(root, named.path));
  let bytes: Buffer | undefined;
  if (!path.startsWith("../")) {
    try {
      bytes = await git.show(ref, path, CONFIG_MAX_BYTES);
    } catch (e) {
      throw new UsageError(`--config-from-base: cannot read ${path} at ${name}: ${(e as Error).message}`);
    }
  }
  if (bytes && bytes.length > CONFIG_MAX_BYTES)
    throw new UsageError(
      `--config-from-base: the migration map ${path} at ${name} is ${bytes.length.toLocaleString("en-US")} bytes; it may not exceed ${CONFIG_MAX_BYTES.toLocaleString("en-US")}`,
    );
  return withMigrationMap(config, bytes?.toString("utf8"), { config: label, map: `${path} at ${name}` });
}
