/**
 * Which plugin.json an extension.yaml replaces: the EF2 extension of a descriptor `<dir>/plugin.json` is
 * `<dir>/extension.yaml` or, in the layout Dynatrace's tools and `plugin-review migrate` write,
 * `<dir>/extension/extension.yaml`. The App and `check --base-ref` pair files by these paths alike. Pure: paths
 * in, paths out.
 */
import { globMatcher } from "../config.js";
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

/**
 * The files a change's review reads: those the configuration's `paths` name, and each extension.yaml beside a
 * path they name (which is reviewed when the base holds that plugin.json).
 */
export function reviewedPathMatcher(paths: readonly string[]): (path: string) => boolean {
  const match = globMatcher(paths);
  return (path) => match(path) || replacedDescriptorPaths(path).some(match);
}
