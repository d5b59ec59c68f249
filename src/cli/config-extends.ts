/**
 * `check --config-from-base`: the file a configuration's `_extends` names, read from GitHub as the App reads it
 * (that repository's default branch), with a token from GITHUB_TOKEN. The repository's own file comes from git
 * at the ref (workspace/base-config.ts); the trusted side of both is what the App would merge.
 */
import { ConfigError, type RawConfig } from "../core/config.js";
import { describeRequestError } from "../github/api/errors.js";
import { tokenOctokit } from "../github/api/octokit/octokit.js";
import { restConfigReader } from "../github/api/rest/gateway.js";
import { readExtendedConfig } from "../github/review/load-config.js";
import type { GitRepo } from "../workspace/git.js";
import { UsageError } from "../workspace/usage-error.js";
import { githubAccess } from "./github-access.js";

/** The owner of `owner/repo` (GITHUB_REPOSITORY) or of a GitHub remote's address (https or ssh). */
export function ownerOf(repository: string | undefined): string | undefined {
  if (!repository) return undefined;
  const m = /^(?:.*[:/])?([A-Za-z\d](?:[A-Za-z\d-]{0,38}))\/[-_.\w]+?(?:\.git)?\/?$/.exec(repository.trim());
  return m?.[1];
}

export function extendsReader(
  git: GitRepo,
  env: NodeJS.ProcessEnv,
): (extending: RawConfig, label: string) => Promise<{ raw: RawConfig; source: string }> {
  return async (extending, label) => {
    const value = String(extending._extends);
    const what = `the file named by \`_extends: ${value}\` in ${label}`;
    if (!env.GITHUB_TOKEN)
      throw new UsageError(
        `${what} is another repository's, read from GitHub as the App reads it (its default branch): set GITHUB_TOKEN to a token that can read it`,
      );
    let said = "";
    const access = githubAccess(undefined, { env, stderr: (s) => void (said += s) }, what);
    if (!access) throw new UsageError(said.replace(/^plugin-review: /, "").trim());
    // In GitHub Actions GITHUB_REPOSITORY names the repository; elsewhere its remote does.
    const owner = ownerOf(env.GITHUB_REPOSITORY) ?? ownerOf(await git.originUrl());
    const octokit = tokenOctokit({
      token: access.token,
      baseUrl: access.baseUrl,
      userAgent: "plugin-review-check",
      warn: () => {},
      writes: "refuse",
    });
    try {
      return await readExtendedConfig(restConfigReader(octokit), extending, label, owner);
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      throw new UsageError(describeRequestError(e, `cannot read ${what}`));
    }
  };
}
