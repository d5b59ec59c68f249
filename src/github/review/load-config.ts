/**
 * The policy a pull request is checked against: the organisation's `.github` repository file, the file a
 * repository `_extends`, and the repository's own file, all read from default branches — never from
 * the pull request's head, so a pull request cannot loosen the checks it is judged by.
 */
import {
  CONFIG_PATH,
  ConfigError,
  extendConfig,
  locateIn,
  readConfig,
  resolveConfig,
  type RawConfig,
  type ResolvedConfig,
} from "../../core/config.js";
import { withMigrationMap } from "../../core/ef2/map-config.js";
import { quotedText } from "../../format/markdown.js";
import { CONFIG_MAX_BYTES, type GitHubGateway } from "../api/port.js";

/** What loading a configuration reads of GitHub (the audit reads it with a token's REST gateway). */
export type ConfigReader = Pick<GitHubGateway, "readDefaultBranchFile" | "repositoryVisible"> &
  /**
   * Which repositories the reader sees (an installation knows: all of the owner's, or selected ones); absent
   * or undefined when unknown (a person's token). Asked only when `<org>/.github` answers as not found.
   */
  Partial<Pick<GitHubGateway, "repositorySelection">>;

/**
 * Whether the organisation's configuration was read. `unreadable`: GitHub answers as if `<org>/.github` did
 * not exist, which is also its answer when the reader may not see it (an App installed on selected
 * repositories, not on `.github`); `absent`: the repository is there without the file, or the reader sees
 * every repository of the organisation, so `.github` does not exist.
 */
export interface OrganisationConfig {
  repository: string;
  state: "read" | "absent" | "unreadable";
}

export type LoadedConfig = (
  | { ok: true; config: ResolvedConfig }
  | {
      ok: false;
      error: string;
      /** The check run's title and Markdown summary, when not those of an invalid configuration. */
      title?: string;
      summary?: string;
    }
) & {
  sources: string[];
  /** Only for a repository of an organisation (other than `.github` itself). */
  organisation?: OrganisationConfig;
};

/** How the configuration is read beyond the files themselves. */
export interface LoadOptions {
  /** Repositories the prefetching read answered as not found (GraphQL: `null` with NOT_FOUND). */
  unseen?: ReadonlySet<string>;
  /** Known beforehand whether the reader sees `<org>/.github` (the audit asks once for all repositories). */
  orgRepositoryVisible?: () => Promise<boolean>;
  /** Known beforehand that the App cannot read `<org>/.github` (the audit, from the installation's repositories). */
  orgUnreadable?: boolean;
  /** The deployment setting: an organisation configuration that cannot be read is a configuration error. */
  requireOrgConfig?: boolean;
}

/** The environment variable of the deployment setting (server and Lambda). */
export const REQUIRE_ORG_CONFIG_ENV = "PLUGIN_REVIEW_REQUIRE_ORG_CONFIG";

/** The deployment setting from the environment; a value that is neither on nor off is refused, never guessed. */
export function requireOrgConfigFrom(env: NodeJS.ProcessEnv): boolean {
  const raw = (env[REQUIRE_ORG_CONFIG_ENV] ?? "").trim().toLowerCase();
  if (["", "0", "false", "no", "off"].includes(raw)) return false;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  throw new Error(`${REQUIRE_ORG_CONFIG_ENV} must be true or false, not '${env[REQUIRE_ORG_CONFIG_ENV]}'`);
}

/**
 * What the check run says when the organisation's configuration could not be read (or, with the setting,
 * fails with): plain text that quotes code with backticks, as every note is (the summary renders it).
 */
export function orgUnreadableMessage(org: string, required: boolean): string {
  const repo = `${org}/.github`;
  const why = `GitHub answers as if \`${repo}\` did not exist, which is also its answer when the App is not installed on it.`;
  const fix = `install the App on \`${repo}\` too (organisation settings → GitHub Apps → the App → Repository access), or give it access to all repositories`;
  return required
    ? `The organisation's configuration (\`${repo}\`, \`${CONFIG_PATH}\`) could not be read: ${why} This deployment requires it (\`${REQUIRE_ORG_CONFIG_ENV}\`), so no pull request is reviewed without it: ${fix}, then re-run the check.`
    : `The organisation's configuration was not read. ${why} Only this repository's configuration was applied, so the organisation's rules and locks were not. If \`${repo}\` holds \`${CONFIG_PATH}\`, ${fix}.`;
}

/**
 * A configuration file's bytes on the default branch, or undefined when there is none. Read like a descriptor:
 * a file over 1 MB comes through the blob API, never as an empty configuration. Bytes, not text: readConfig
 * says when they are not UTF-8.
 */
async function readBytes(
  reader: Pick<ConfigReader, "readDefaultBranchFile">,
  owner: string,
  repo: string,
  path: string,
): Promise<Uint8Array | undefined> {
  const file = await reader.readDefaultBranchFile({ owner, repo, path }, CONFIG_MAX_BYTES);
  if (file.kind === "missing") return undefined;
  if (file.kind === "too-large")
    throw new ConfigError(`${owner}/${repo}:${path}`, [
      `the file is ${file.size.toLocaleString("en-US")} bytes; a configuration may not exceed ${CONFIG_MAX_BYTES.toLocaleString("en-US")}`,
    ]);
  return file.content;
}

/** `_extends: other` / `owner/repo` / `owner/repo:path`, as Probot reads it (`owner` undefined: not named, not known). */
function parseExtends<O extends string | undefined>(
  value: string,
  owner: O,
): { owner: string | O; repo: string; path: string } | undefined {
  const m = /^(?:([a-z\d](?:[a-z\d-]{0,38}))\/)?([-_.\w\d]+)(?::([^\s]+))?$/i.exec(value.trim());
  if (!m) return undefined;
  return { owner: m[1] ?? owner, repo: m[2] as string, path: m[3] ?? CONFIG_PATH };
}

/** What is wrong with `_extends: <value>`: it names no file (`path` undefined), or its file is not there. */
function extendsProblem(value: string, path?: string): string {
  return path === undefined
    ? `_extends: cannot read \`${value}\` (use \`repo\`, \`owner/repo\` or \`owner/repo:path\`)`
    : `_extends: \`${value}\` has no ${path}`;
}

/**
 * The file a configuration's `_extends` names, read as the App reads it: from the default branch of that
 * repository (`owner`, the repository's own, when the value names none). For `check --config-from-base`,
 * which reads the repository's file from git and this one from GitHub. A value that names no file, a file
 * that is not there or not valid is a ConfigError on `source` (the `_extends` line), as in the App.
 */
export async function readExtendedConfig(
  reader: Pick<ConfigReader, "readDefaultBranchFile">,
  extending: RawConfig,
  source: string,
  owner: string | undefined,
): Promise<{ raw: RawConfig; source: string }> {
  const value = String(extending._extends);
  const refuse = (message: string): never => {
    throw new ConfigError(source, [{ message, ...locateIn(extending, ["_extends"]) }]);
  };
  const target = parseExtends(value, owner);
  if (!target) return refuse(extendsProblem(value));
  if (target.owner === undefined)
    return refuse(
      `_extends: \`${value}\` names a repository of this one's owner, which is not known here: name it as \`owner/${target.repo}\` (or set GITHUB_REPOSITORY to \`owner/repo\`)`,
    );
  const { repo, path } = target;
  const bytes = await readBytes(reader, target.owner, repo, path);
  if (bytes === undefined) return refuse(extendsProblem(value, path));
  const extendedSource = `${target.owner}/${repo}:${path}`;
  const read = readConfig(bytes, extendedSource);
  if (read.problems.length) throw new ConfigError(extendedSource, read.problems);
  return { raw: read.raw, source: extendedSource };
}

export async function loadConfig(
  reader: ConfigReader,
  owner: string,
  repo: string,
  ownerType: string,
  /** Files already read (`owner/repo:path` → bytes, undefined when absent), as readReviewStart reads them. */
  prefetched: ReadonlyMap<string, Uint8Array | undefined> = new Map(),
  options: LoadOptions = {},
): Promise<LoadedConfig> {
  const sources: string[] = [];
  /** Every file's problems, reported together: fixing one file never reveals another's problems later. */
  const errors: ConfigError[] = [];
  const fetchBytes = async (o: string, r: string, path: string): Promise<Uint8Array | undefined> => {
    const source = `${o}/${r}:${path}`;
    try {
      return prefetched.has(source) ? prefetched.get(source) : await readBytes(reader, o, r, path);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      errors.push(e);
      return undefined;
    }
  };
  const parse = (
    o: string,
    r: string,
    path: string,
    bytes: Uint8Array | undefined,
  ): RawConfig | undefined => {
    if (bytes === undefined) return undefined;
    const source = `${o}/${r}:${path}`;
    sources.push(source);
    const read = readConfig(bytes, source);
    if (read.problems.length) errors.push(new ConfigError(source, read.problems));
    return read.raw;
  };
  const layer = async (o: string, r: string, path: string) => parse(o, r, path, await fetchBytes(o, r, path));
  // Only organisations have a policy repository; for a user's repository `<user>/.github` is not policy.
  const withOrg = ownerType === "Organization" && repo !== ".github";
  let org: RawConfig | undefined;
  let organisation: OrganisationConfig | undefined;
  if (withOrg) {
    const repository = `${owner}/.github`;
    const failedBefore = errors.length;
    const bytes = options.orgUnreadable ? undefined : await fetchBytes(owner, ".github", CONFIG_PATH);
    org = parse(owner, ".github", CONFIG_PATH, bytes);
    // A file too large to read was seen: its error is reported with the others.
    const state =
      bytes !== undefined || errors.length > failedBefore
        ? "read"
        : options.orgUnreadable || (await orgRepositoryUnseen(reader, owner, prefetched, options))
          ? "unreadable"
          : "absent";
    organisation = { repository, state };
    if (state === "unreadable" && options.requireOrgConfig) {
      return {
        ok: false,
        title: "The organisation's plugin-review configuration could not be read",
        error: `the organisation's configuration could not be read (${repository} answers as not found) and this deployment requires it (${REQUIRE_ORG_CONFIG_ENV})`,
        summary: quotedText(orgUnreadableMessage(owner, true)),
        sources,
        organisation,
      };
    }
  }
  let repoCfg = await layer(owner, repo, CONFIG_PATH);
  const repoSource = `${owner}/${repo}:${CONFIG_PATH}`;
  if (typeof repoCfg?._extends === "string") {
    const target = parseExtends(repoCfg._extends, owner);
    const isOrgFile =
      target !== undefined &&
      target.owner === owner &&
      target.repo === ".github" &&
      target.path === CONFIG_PATH &&
      org !== undefined;
    const base = !target || isOrgFile ? undefined : await layer(target.owner, target.repo, target.path);
    if (!target || (!isOrgFile && base === undefined)) {
      errors.push(
        new ConfigError(repoSource, [
          {
            message: extendsProblem(repoCfg._extends, target?.path),
            ...locateIn(repoCfg, ["_extends"]),
          },
        ]),
      );
    }
    // The extended file is a default the repository overrides (but it cannot lock rules).
    if (base) repoCfg = extendConfig(base, repoCfg);
  }
  const layers: { org?: RawConfig; repo?: RawConfig } = {};
  if (org) layers.org = org;
  if (repoCfg) layers.repo = repoCfg;
  let config = resolveConfig(layers);
  const withOrgState = organisation ? { organisation } : {};
  // The repository's migration map, from its default branch as the configuration: read only when named.
  if (config.migrationMap && !errors.length) {
    const path = config.migrationMap.path;
    const source = `${owner}/${repo}:${path}`;
    const bytes = await fetchBytes(owner, repo, path);
    const text = bytes === undefined ? undefined : Buffer.from(bytes).toString("utf8");
    if (text !== undefined) sources.push(source);
    try {
      if (!errors.length)
        config = withMigrationMap(config, text, { config: `${owner}/${repo}:${CONFIG_PATH}`, map: source });
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      errors.push(e);
    }
  }
  if (errors.length) {
    // What the merge refused (a lock the repository tried to loosen) is listed with the problems.
    const all = ConfigError.all(errors);
    const error = config.notes.length
      ? `${all.message}\nAlso refused by the organisation's locks:\n${config.notes.map((n) => `  - ${n}`).join("\n")}`
      : all.message;
    return { ok: false, error, sources, ...withOrgState };
  }
  // Never silent: the summary says the organisation's policy was not applied, and how to fix that.
  if (organisation?.state === "unreadable") config.notes.unshift(orgUnreadableMessage(owner, false));
  return { ok: true, config, sources, ...withOrgState };
}

/**
 * `<org>/.github` gave no configuration file: is that because the reader cannot see the repository? GraphQL
 * says so in the prefetched read (`unseen`); through REST a 404 for the file is the same either way, so the
 * repository itself is asked for, unless the reader sees every repository (then it is simply absent).
 */
async function orgRepositoryUnseen(
  reader: ConfigReader,
  owner: string,
  prefetched: ReadonlyMap<string, Uint8Array | undefined>,
  options: LoadOptions,
): Promise<boolean> {
  const repository = `${owner}/.github`;
  const prefetchedHere = prefetched.has(`${repository}:${CONFIG_PATH}`);
  if (prefetchedHere && !options.unseen?.has(repository)) return false; // the repository answered, without the file
  if (options.orgRepositoryVisible) return !(await options.orgRepositoryVisible());
  if ((await reader.repositorySelection?.()) === "all") return false; // it sees them all: there is no `.github`
  if (prefetchedHere) return true;
  return !(await reader.repositoryVisible({ owner, repo: ".github" }));
}
