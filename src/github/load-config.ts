/**
 * The policy a pull request is checked against: the organisation's `.github` repository file, the file a
 * repository `_extends`, and the repository's own file, all read from default branches — never from
 * the pull request's head, so a pull request cannot loosen the checks it is judged by.
 */
import {
  CONFIG_PATH,
  ConfigError,
  parseConfig,
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
  const layer = async (o: string, r: string, path: string): Promise<RawConfig | undefined> => {
    const key = `${o}/${r}:${path}`;
    const text = prefetched.has(key) ? prefetched.get(key) : await readText(octokit, o, r, path);
    if (text === undefined) return undefined;
    const source = `${o}/${r}:${path}`;
    sources.push(source);
    return parseConfig(text, source);
  };
  try {
    // Only organisations have a policy repository; for a user's repository `<user>/.github` is not policy.
    const orgIsSelf = repo === ".github";
    const org =
      ownerType === "Organization" && !orgIsSelf ? await layer(owner, ".github", CONFIG_PATH) : undefined;
    let repoCfg = await layer(owner, repo, CONFIG_PATH);
    if (repoCfg?._extends) {
      const target = parseExtends(repoCfg._extends, owner);
      if (!target)
        throw new ConfigError(`${owner}/${repo}:${CONFIG_PATH}`, [
          `_extends: cannot read \`${repoCfg._extends}\` (use \`repo\`, \`owner/repo\` or \`owner/repo:path\`)`,
        ]);
      const isOrgFile =
        target.owner === owner &&
        target.repo === ".github" &&
        target.path === CONFIG_PATH &&
        org !== undefined;
      const base = isOrgFile ? undefined : await layer(target.owner, target.repo, target.path);
      if (!isOrgFile && base === undefined) {
        throw new ConfigError(`${owner}/${repo}:${CONFIG_PATH}`, [
          `_extends: \`${repoCfg._extends}\` has no ${target.path}`,
        ]);
      }
      // The extended file is a default the repository overrides (but it cannot lock rules).
      if (base)
        repoCfg = {
          ...base,
          ...repoCfg,
          rules: { ...base.rules, ...repoCfg.rules },
          locked: repoCfg.locked ?? [],
        };
    }
    const layers: { org?: RawConfig; repo?: RawConfig } = {};
    if (org) layers.org = org;
    if (repoCfg) layers.repo = repoCfg;
    return { ok: true, config: resolveConfig(layers), sources };
  } catch (e) {
    if (e instanceof ConfigError) return { ok: false, error: e.message, sources };
    throw e;
  }
}
