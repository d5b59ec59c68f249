/**
 * Which files a configuration reviews, and which plugin.json an extension.yaml replaces. Pure: paths in, paths
 * (or a yes or a no) out.
 *
 * Reviewed (`isReviewedPath`, `reviewedPathMatcher`: the one answer to "is this path a reviewed descriptor, a
 * plugin.json or an extension.yaml, under this configuration?", asked by the App of a change's files and of a
 * renamed file's old path, by `check` of a folder's files and of `--base-ref`'s renames, by the language server
 * of an open file, and by the audit of a tree): a path the configuration's `paths` name (the default names
 * `**\/plugin.json` and `**\/extension.yaml`), and an `extension.yaml` also when they name a plugin.json of its
 * project, so that `paths` written for EF1 descriptors (`plugins/*\/plugin.json`) reach the extensions that
 * replace them, in the layouts Dynatrace's tools and `plugin-review migrate` write (`<dir>/extension.yaml`,
 * `<dir>/extension/extension.yaml`, `<dir>/src/extension.yaml`, `<dir>/src/extension/extension.yaml` for
 * `<dir>/plugin.json`), whether or not that plugin.json exists. Whether a reviewed extension.yaml is an extension
 * at all is told by its content (extension-document.ts), not here.
 *
 * Replaced (`replacedDescriptorPaths`): the EF2 extension of a descriptor `<dir>/plugin.json` is
 * `<dir>/extension.yaml` or, in the layout Dynatrace's tools and `plugin-review migrate` write,
 * `<dir>/extension/extension.yaml`. The App, `check`, the language server and the audit pair files by these
 * paths alike.
 */
import { globMatcher, type ResolvedConfig } from "../config.js";
import type { FileFormat } from "../types.js";

/** The file name of an EF2 extension's descriptor. */
export const EXTENSION_FILE = "extension.yaml";
const SUBFOLDER = "extension/";

export function isExtensionPath(path: string): boolean {
  return path === EXTENSION_FILE || path.endsWith(`/${EXTENSION_FILE}`);
}

/** What a file is, by its name: `extension.yaml` is an EF2 extension; anything else the paths name, a descriptor. */
export function formatOf(path: string): FileFormat {
  return isExtensionPath(path) ? "extension.yaml" : "plugin.json";
}

/** The plugin.json paths an extension.yaml may replace, the one in its own folder first; none for other files. */
export function replacedDescriptorPaths(path: string): string[] {
  if (!isExtensionPath(path)) return [];
  const dir = path.slice(0, path.length - EXTENSION_FILE.length);
  const out = [`${dir}plugin.json`];
  if (dir === SUBFOLDER || dir.endsWith(`/${SUBFOLDER}`))
    out.push(`${dir.slice(0, dir.length - SUBFOLDER.length)}plugin.json`);
  return out;
}

/** The folders below a project folder where its extension.yaml may live, deepest first. */
const PROJECT_SUBFOLDERS = ["src/extension/", "extension/", "src/", ""];

/**
 * The plugin.json paths of an extension.yaml's project (its own folder's first, then one or two folders up
 * through `extension/` and `src/`); none for a file that is not an extension.yaml.
 */
export function projectDescriptorPaths(path: string): string[] {
  if (!isExtensionPath(path)) return [];
  const dir = path.slice(0, path.length - EXTENSION_FILE.length);
  const out: string[] = [];
  for (const sub of [...PROJECT_SUBFOLDERS].reverse()) {
    if (sub && dir !== sub && !dir.endsWith(`/${sub}`)) continue;
    const project = dir.slice(0, dir.length - sub.length);
    if (!out.includes(`${project}plugin.json`)) out.push(`${project}plugin.json`);
  }
  return out;
}

/** Does a configuration with these `paths` review this path (a descriptor, or an extension.yaml it reaches)? */
export function reviewedPathMatcher(paths: readonly string[]): (path: string) => boolean {
  const match = globMatcher(paths);
  return (path) => match(path) || projectDescriptorPaths(path).some(match);
}

const matchers = new WeakMap<object, (path: string) => boolean>();

/**
 * Is this path (relative to the folder holding the configuration's `.github/`, or the repository's root) one
 * that the configuration reviews? The matcher is made once per configuration.
 */
export function isReviewedPath(config: Pick<ResolvedConfig, "paths">, path: string): boolean {
  let match = matchers.get(config);
  if (!match) matchers.set(config, (match = reviewedPathMatcher(config.paths)));
  return match(path);
}
