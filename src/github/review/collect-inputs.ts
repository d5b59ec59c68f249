/**
 * The first stage of a review: what the core needs, read from GitHub. Which descriptors changed comes
 * from the caller (a pull request's file list, or the trees of a merge group's base and head), so that
 * every kind of target shares the rest: head and base contents, and notes on what could not be seen.
 */
import { globMatcher, type ResolvedConfig } from "../../core/config.js";
import { formatOf, replacedDescriptorPaths } from "../../core/ef2/pairing.js";
import type { DescriptorInput } from "../../core/review.js";
import { quote } from "../../format/markdown.js";
import { step } from "../api/errors.js";
import {
  PR_FILES_CAP,
  type ChangedDescriptor,
  type ChangedFiles,
  type CommitTarget,
  type FileAt,
  type FileContent,
  type GitHubGateway,
} from "../api/port.js";

/** Lists the descriptors changed between the target's base and head, given the configured paths. */
export type ListChanged = (paths: readonly string[]) => Promise<ChangedFiles>;

export interface CollectedInputs {
  inputs: DescriptorInput[];
  /** The changed descriptors, with their patches (commentable lines). */
  descriptors: ChangedDescriptor[];
  /** For the summary: configuration notes, unreadable or removed files, listing limits. */
  notes: string[];
}

function toInput(
  d: ChangedDescriptor,
  head: FileContent,
  base: FileContent | undefined,
): DescriptorInput | undefined {
  if (head.kind === "missing") return undefined;
  const input: DescriptorInput =
    head.kind === "file"
      ? { path: d.path, content: head.content }
      : { path: d.path, content: new Uint8Array(0), size: head.size };
  if (base && base.kind !== "missing") {
    const basePath = d.previousPath ?? d.path;
    input.base =
      base.kind === "file"
        ? { path: basePath, content: base.content }
        : { path: basePath, content: new Uint8Array(0), size: base.size };
  }
  input.isNew = !base || base.kind === "missing";
  return input;
}

/** The plugin.json an extension.yaml replaces, as the base holds it, and what the change does with it. */
function replacedInput(
  path: string,
  base: Exclude<FileContent, { kind: "missing" }>,
  changed: ChangedFiles,
): NonNullable<DescriptorInput["replaces"]> {
  const status = changed.removed.includes(path)
    ? "deleted"
    : changed.descriptors.some((d) => d.path === path)
      ? "changed"
      : "kept";
  return base.kind === "file"
    ? { path, content: base.content, status }
    : { path, content: new Uint8Array(0), size: base.size, status };
}

export async function collectInputs(
  gw: GitHubGateway,
  target: CommitTarget,
  config: ResolvedConfig,
  listChanged: ListChanged,
): Promise<CollectedInputs> {
  const changed = await step("files", () => listChanged(config.paths));
  const notes = [...config.notes];
  // Head and base of every descriptor (not the base of an added one), in as few queries as GitHub allows.
  const files: FileAt[] = [];
  const at = changed.descriptors.map((d) => {
    const head =
      files.push({ owner: target.headOwner, repo: target.headRepo, ref: target.headSha, path: d.path }) - 1;
    const base =
      d.status === "added"
        ? undefined
        : files.push({
            owner: target.owner,
            repo: target.repo,
            ref: target.baseSha,
            path: d.previousPath ?? d.path,
          }) - 1;
    return { head, base };
  });
  // An extension.yaml is compared with the plugin.json the base holds beside it: its candidates are read at
  // the base commit in the same queries.
  const replaced = changed.descriptors.map((d) =>
    replacedDescriptorPaths(d.path).map((path) => ({
      path,
      at: files.push({ owner: target.owner, repo: target.repo, ref: target.baseSha, path }) - 1,
    })),
  );
  const contents = await step("content", () => gw.readFiles(files, config.maxFileSize));
  const inputs: DescriptorInput[] = [];
  const migrated = new Map<string, string>();
  const named = globMatcher(config.paths);
  changed.descriptors.forEach((d, i) => {
    const { head, base } = at[i]!;
    const input = toInput(d, contents[head]!, base === undefined ? undefined : contents[base]);
    if (input && formatOf(d.path) === "extension.yaml") {
      const ef1 = replaced[i]!.map((c) => ({ path: c.path, file: contents[c.at]! })).find(
        (c) => c.file.kind !== "missing",
      );
      if (ef1 && ef1.file.kind !== "missing") {
        input.replaces = replacedInput(ef1.path, ef1.file, changed);
        migrated.set(ef1.path, d.path);
      } else if (!named(d.path)) return; // an extension of its own, not a migration: `paths` does not name it
    }
    if (input) inputs.push(input);
    else notes.push(`${quote(d.path)} could not be read at the head commit and was not reviewed.`);
  });
  if (changed.capped)
    notes.push(
      `GitHub lists at most ${PR_FILES_CAP.toLocaleString("en-US")} files of a pull request, and the commits' trees were too large to list whole; some files were not seen.`,
    );
  const removed = changed.removed.filter((p) => !migrated.has(p));
  if (removed.length)
    notes.push(`${removed.length} removed descriptor(s) are not reviewed: ${removed.map(quote).join(", ")}.`);
  for (const p of changed.removed.filter((p) => migrated.has(p)))
    notes.push(
      `${quote(p)} is removed; ${quote(migrated.get(p)!)}, which replaces it, was compared with it (the migration rules).`,
    );
  return { inputs, descriptors: changed.descriptors, notes };
}
