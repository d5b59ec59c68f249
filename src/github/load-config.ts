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
} from "../core/config.js";
import { fetchFile } from "./fetch-content.js";
import { CONFIG_MAX_BYTES } from "./graphql-reads.js";
import type { Octokit } from "./types.js";

export type LoadedConfig =
  { ok: true; config: ResolvedConfig; sources: string[] } | { ok: false; error: string; sources: string[] };

/**
 * A configuration file on the default branch, or undefined when there is none. Read like a descriptor
 * (fetch-content.ts): a file over 1 MB comes through the blob API, never as an empty configuration.
 */
async function readText(
  octokit: Octokit,
  owner: string,
  repo: string,
  path: string,
): Promise<string | undefined> {
  const file = await fetchFile(octokit, { owner, repo, path }, CONFIG_MAX_BYTES);
  if (file.kind === "missing") return undefined;
  if (file.kind === "too-large")
    throw new ConfigError(`${owner}/${repo}:${path}`, [
      `the file is ${file.size.toLocaleString("en-US")} bytes; a configuration may not exceed ${CONFIG_MAX_BYTES.toLocaleString("en-US")}`,
    ]);
  return Buffer.from(file.content).toString("utf8");
}

/** `_extends: other` / `owner/repo` / `owner/repo:path`, as Probot reads it. */
function parseExtends(
  value: string,
  owner: string,
): { owner: string; repo: string; path: string } | undefined {
  const m = /^(?:([a-z\d](?:[a-z\d-]{0,38}))\/)?([-_.\w\d]+)(?::([^\s]+))?$/i.exec(value.trim());
  if (!m) return undefined;
  return { owner: m[1] ?? owner, repo: m[2] as string, path: m[3] ?? CONFIG_PATH };
}

export async function loadConfig(
  octokit: Octokit,
  owner: string,
  repo: string,
  ownerType: string,
  /** Files already read (`owner/repo:path` → text, undefined when absent), as readReviewStart reads them. */
  prefetched: ReadonlyMap<string, string | undefined> = new Map(),
): Promise<LoadedConfig> {
  const sources: string[] = [];
  /** Every file's problems, reported together: fixing one file never reveals another's problems later. */
  const errors: ConfigError[] = [];
  const layer = async (o: string, r: string, path: string): Promise<RawConfig | undefined> => {
    const source = `${o}/${r}:${path}`;
    let text: string | undefined;
    try {
      text = prefetched.has(source) ? prefetched.get(source) : await readText(octokit, o, r, path);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      errors.push(e);
      return undefined;
    }
    if (text === undefined) return undefined;
    sources.push(source);
    const read = readConfig(text, source);
    if (read.problems.length) errors.push(new ConfigError(source, read.problems));
    return read.raw;
  };
  // Only organisations have a policy repository; for a user's repository `<user>/.github` is not policy.
  const orgIsSelf = repo === ".github";
  const org =
    ownerType === "Organization" && !orgIsSelf ? await layer(owner, ".github", CONFIG_PATH) : undefined;
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
            message: target
              ? `_extends: \`${repoCfg._extends}\` has no ${target.path}`
              : `_extends: cannot read \`${repoCfg._extends}\` (use \`repo\`, \`owner/repo\` or \`owner/repo:path\`)`,
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
  const config = resolveConfig(layers);
  if (errors.length) {
    // What the merge refused (a lock the repository tried to loosen) is listed with the problems.
    const all = ConfigError.all(errors);
    const error = config.notes.length
      ? `${all.message}\nAlso refused by the organisation's locks:\n${config.notes.map((n) => `  - ${n}`).join("\n")}`
      : all.message;
    return { ok: false, error, sources };
  }
  return { ok: true, config, sources };
}
