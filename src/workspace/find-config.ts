/**
 * Which configuration applies to a file, found as ESLint and Prettier find theirs: the nearest
 * `.github/plugin-review.yml` walking up from the file's folder, up to the repository root (the folder
 * holding `.git`), or up to the filesystem root outside any repository. `--config` names one file for every
 * descriptor; `--no-config` means the built-in defaults. Shared by `check` (files and `--stdin-filename`)
 * and editors: it watches nothing, and a caller whose files change makes a new finder to forget them.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { CONFIG_PATH, parseConfig, resolveConfig, type ResolvedConfig } from "../core/config.js";
import { withMigrationMap } from "../core/ef2/map-config.js";
import { describeErrno, UsageError } from "./usage-error.js";

export interface FoundConfig {
  /** The configuration file read (absolute); undefined for the built-in defaults. */
  path?: string;
  /**
   * The folder that `paths` and `ignore` globs are relative to, as they are to the repository in the App:
   * the one holding `.github/`; else the repository root, else the working directory.
   */
  root: string;
  config: ResolvedConfig;
  /** Why there is no file (`path` undefined): `--no-config`, or none found. */
  none?: "disabled" | "not-found";
  /** How the output names a configuration that is no file of the work tree (one read from git at a ref). */
  label?: string;
}

export interface FinderOptions {
  /** Relative paths are resolved against it; it is the root of an explicit `--config` outside `.github/`. */
  cwd: string;
  /** `--config <file>`: this file for every descriptor. */
  config?: string;
  /** `--no-config`: the built-in defaults, whatever files exist. */
  noConfig?: boolean;
  /** A configuration already read, for every descriptor (`--config-from-base`: the base commit's). */
  given?: FoundConfig;
}

/** How one descriptor is named (ConfigFinder.locate): for its configuration, in its identity, for git. */
export interface Located {
  found: FoundConfig;
  /** The file's absolute path with its folders' symbolic links resolved, as git and the App see it. */
  real: string;
  /**
   * What the configuration's `paths` and `ignore` globs read: relative to its root (`FoundConfig.root`);
   * a file outside that root (a `--config` elsewhere) relative to the folder given as its fallback (the
   * directory argument it was found under), else by its name alone.
   */
  configPath: string;
  /**
   * The finding's file in its identity, as the App names it: relative to the repository root (the folder
   * holding `.git`), wherever the command runs; outside any repository, as `configPath`.
   */
  path: string;
  /** The repository root (the folder holding `.git`, links resolved) that `path` is relative to; none outside one. */
  repository?: string;
}

/** A folder's real path; one that does not exist (a `--stdin-filename`) below its nearest existing parent's. */
function realFolder(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    const parent = dirname(dir);
    return parent === dir ? dir : join(realFolder(parent), basename(dir));
  }
}

/**
 * A file's path with its folders' symbolic links resolved, as git names it (the file itself may be a link,
 * or not exist yet). The CLI and the editor compare it with git's repository root.
 */
export function realPath(absolute: string): string {
  return join(realFolder(dirname(absolute)), basename(absolute));
}

/** `absolute` relative to `root` with forward slashes, when it is inside `root`. */
function under(root: string, absolute: string): string | undefined {
  const rel = relative(root, absolute);
  return rel && !/^\.\.(?:[\\/]|$)/.test(rel) && !isAbsolute(rel) ? rel.split("\\").join("/") : undefined;
}

/**
 * Is there something at `p`? Something that cannot be looked at (a loop of symbolic links, a
 * folder that may not be entered) is there: reading it then says what is wrong, rather than the defaults
 * applying in silence.
 */
const exists = (p: string) => {
  try {
    statSync(p);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
};

const isDirectory = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The name of a file outside the configuration's root and any repository (`check /tmp/migrated`): its own name,
 * with the SDK's `extension/` folder when that holds it, since an extension.yaml's project is the folder above
 * it (its Python module, its activation schema: what `migrate --out` writes there is then checked, wherever it is).
 */
function outsideName(real: string): string {
  return basename(dirname(real)) === "extension" ? `extension/${basename(real)}` : basename(real);
}

export class ConfigFinder {
  /** Per folder, what applies there (many descriptors share a folder chain). */
  private readonly byDir = new Map<string, FoundConfig>();
  /** Per configuration file, its parse: one object per file, so callers can group descriptors by it. */
  private readonly byFile = new Map<string, FoundConfig>();
  private explicit?: FoundConfig;
  /** Per folder, its real path, and the repository root above it (null outside any repository). */
  private readonly realDirs = new Map<string, string>();
  private readonly repoRoots = new Map<string, string | null>();

  constructor(private readonly options: FinderOptions) {
    if (options.config !== undefined && options.noConfig)
      throw new UsageError("use either --config or --no-config, not both");
  }

  /** The configuration for a descriptor (it need not exist: a `--stdin-filename` names a path only). */
  findFor(filePath: string): FoundConfig {
    return this.findForDir(dirname(resolve(this.options.cwd, filePath)));
  }

  /**
   * A descriptor's configuration and its names (the one place they are derived: `check`, `--base-ref` and
   * the editor all use it). Symbolic links are resolved first, so that a file reached through a linked
   * folder has the same names as through its real one.
   */
  locate(filePath: string, fallbackRoot?: string): Located {
    const absolute = resolve(this.options.cwd, filePath);
    const dir = this.realDir(dirname(absolute));
    const real = join(dir, basename(absolute));
    const found = this.findForDir(dir);
    const configPath =
      under(found.root, real) ??
      (fallbackRoot !== undefined
        ? under(this.realDir(resolve(this.options.cwd, fallbackRoot)), real)
        : undefined) ??
      outsideName(real);
    const repo = this.repositoryRoot(dir);
    const inRepo = repo !== undefined ? under(repo, real) : undefined;
    return inRepo !== undefined
      ? { found, real, configPath, path: inRepo, repository: repo }
      : { found, real, configPath, path: configPath };
  }

  private realDir(dir: string): string {
    let real = this.realDirs.get(dir);
    if (real === undefined) this.realDirs.set(dir, (real = realFolder(dir)));
    return real;
  }

  /** The nearest folder holding `.git` at or above a (real) folder; undefined outside any repository. */
  private repositoryRoot(dir: string): string | undefined {
    let root = this.repoRoots.get(dir);
    if (root === undefined) {
      const parent = dirname(dir);
      root = exists(join(dir, ".git")) ? dir : parent === dir ? null : (this.repositoryRoot(parent) ?? null);
      this.repoRoots.set(dir, root);
    }
    return root ?? undefined;
  }

  /** The configuration for the files of a folder (a directory argument: its `paths` decide what is found). */
  findForDir(dir: string): FoundConfig {
    const { cwd, config, noConfig, given } = this.options;
    if (given) return given;
    if (noConfig) return (this.explicit ??= { root: cwd, config: resolveConfig(), none: "disabled" });
    if (config !== undefined) return (this.explicit ??= this.readExplicit(config));
    const visited: string[] = [];
    let found: FoundConfig | undefined;
    for (let d = resolve(cwd, dir); ;) {
      found = this.byDir.get(d);
      if (found) break;
      visited.push(d);
      const file = join(d, CONFIG_PATH);
      // A folder there is read too, and refused: a configuration meant to apply never gives way to the defaults.
      if (exists(file)) {
        found = this.read(file, d);
        break;
      }
      const parent = dirname(d);
      if (exists(join(d, ".git")) || parent === d) {
        found = {
          root: exists(join(d, ".git")) ? d : cwd,
          config: resolveConfig(),
          none: "not-found",
        };
        break;
      }
      d = parent;
    }
    for (const d of visited) this.byDir.set(d, found);
    return found;
  }

  private readExplicit(file: string): FoundConfig {
    const absolute = resolve(this.options.cwd, file);
    // Not only a regular file: a pipe (`--config <(…)`) is read as one.
    if (!exists(absolute)) throw new UsageError(`cannot read configuration '${file}': no such file`);
    if (isDirectory(absolute)) throw new UsageError(`cannot read configuration '${file}': it is a directory`);
    // Globs are relative to the repository: the folder holding `.github/`, else where the command runs.
    const dir = dirname(absolute);
    return this.read(absolute, basename(dir) === ".github" ? dirname(dir) : this.options.cwd);
  }

  private read(absolute: string, root: string): FoundConfig {
    const cached = this.byFile.get(absolute);
    if (cached) return cached;
    const shown = displayPath(absolute, this.options.cwd);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(absolute);
    } catch (e) {
      throw new UsageError(`cannot read configuration '${shown}': ${describeErrno(e)}`);
    }
    let config = resolveConfig({ repo: parseConfig(bytes, shown) });
    if (config.migrationMap) {
      // The migration map, beside the configuration as on the default branch: relative to the repository.
      const mapFile = join(root, config.migrationMap.path);
      let mapText: string | undefined;
      try {
        mapText = readFileSync(mapFile, "utf8");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT")
          throw new UsageError(
            `cannot read the migration map '${displayPath(mapFile, this.options.cwd)}': ${describeErrno(e)}`,
          );
      }
      config = withMigrationMap(config, mapText, {
        config: shown,
        map: displayPath(mapFile, this.options.cwd),
      });
    }
    const found = { path: absolute, root, config };
    this.byFile.set(absolute, found);
    return found;
  }
}

/** The configuration for one descriptor, read afresh (a one-off: `ConfigFinder` caches for many files). */
export function findConfigFor(filePath: string, options: FinderOptions): FoundConfig {
  return new ConfigFinder(options).findFor(filePath);
}

/**
 * A path as the user would type it from `cwd`: relative (`../.github/plugin-review.yml` from a subfolder),
 * absolute when the two share nothing but the filesystem root (or a drive apart).
 */
export function displayPath(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  const ups = rel.split(/[\\/]/).filter((s) => s === "..").length;
  const depth = resolve(cwd).split(/[\\/]/).filter(Boolean).length;
  return rel && !isAbsolute(rel) && ups < depth ? rel.split("\\").join("/") : absolute;
}
