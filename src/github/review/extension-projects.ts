/**
 * The extensions a change reaches without touching their extension.yaml. Dynatrace packages an extension with the
 * files of its project (its Python module, alerts, dashboards, the activation schema: core/ef2/package.ts), so a
 * change to one of them is a change to the extension: its version must be raised (version-not-bumped), and a
 * module the change removes is python-module-missing. Such an extension is reviewed as changed, as
 * `check --base-ref` reviews it.
 *
 * Its extension.yaml is found where a project's would be for each folder above a changed file
 * (`<folder>/extension.yaml`, and the Python SDK's `<folder>/extension/extension.yaml`): read at head with the
 * first batch of descriptors (review/read-inputs.ts: no query of its own when the change has descriptors) when
 * there are few such places, else looked up in one listing of the head commit's tree.
 */
import { folderOf, projectFolder } from "../../core/ef2/package.js";
import type { NotReviewed } from "../../core/verdict.js";
import { quote } from "../../format/markdown.js";
import { step } from "../api/errors.js";
import { FILES_PER_READ, type CommitTarget, type GitHubGateway } from "../api/port.js";

/** Past this many places, the head commit's tree is listed once rather than each place read. */
export const PLACES_READ_MAX = FILES_PER_READ;

/** At most this many of a project's changed files are named in the summary's note. */
const NAMED_MAX = 3;

/** Every folder above the paths ("" the root; others ending in `/`), each once. */
function foldersAbove(paths: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    // A folder already seen has had its parents added: the walk stops there.
    for (let folder = folderOf(path); !folders.has(folder); folder = folderOf(folder.slice(0, -1))) {
      folders.add(folder);
      if (folder === "") break;
    }
  }
  return folders;
}

/**
 * Where an extension.yaml whose project holds one of `others` could be, that the configuration reviews
 * (`reviewed`) and the change does not already review or remove (`skip`).
 */
export function extensionPlaces(
  others: readonly string[],
  reviewed: (path: string) => boolean,
  skip: ReadonlySet<string>,
): string[] {
  const places = new Set<string>();
  for (const folder of foldersAbove(others))
    for (const place of [`${folder}extension.yaml`, `${folder}extension/extension.yaml`])
      if (reviewed(place) && !skip.has(place)) places.add(place);
  return [...places];
}

/** The changed files of the project of the extension.yaml at `path` (core/ef2/package.ts projectFolder). */
export function projectChanges(path: string, others: readonly string[]): string[] {
  const project = projectFolder(path);
  return others.filter((p) => p !== path && p.startsWith(project));
}

/** The extension.yaml files among `places` that the head commit's tree holds; undefined when GitHub cut it short. */
export async function placesInTree(
  gw: GitHubGateway,
  target: CommitTarget,
  places: readonly string[],
): Promise<string[] | undefined> {
  const at = { owner: target.owner, repo: target.repo, ref: target.headSha };
  const [listed] = await step("content", () => gw.folderFiles(at, [""], Number.MAX_SAFE_INTEGER));
  const wanted = new Set(places);
  return listed?.filter((p) => wanted.has(p));
}

/** Why the extensions of many places could not be found (placesInTree answered nothing). */
export function placesNotFound(count: number): NotReviewed {
  return {
    paths: [],
    why: `This change touches files in ${count.toLocaleString("en-US")} places where an extension's project could be, and GitHub cut short its listing of the head commit's tree (over 100,000 entries), so the extensions those files belong to could not be found and reviewed`,
  };
}

/** The summary's note for an extension.yaml reviewed for its project's changed files. */
export function projectNote(path: string, others: readonly string[]): string {
  const files = projectChanges(path, others);
  const named = files.slice(0, NAMED_MAX).map(quote).join(", ");
  const more =
    files.length > NAMED_MAX ? ` and ${(files.length - NAMED_MAX).toLocaleString("en-US")} more` : "";
  return `${quote(path)} is reviewed: the change does not touch it, but files of its extension's project (${named}${more}) changed.`;
}
