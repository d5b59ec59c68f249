/**
 * The first stage of a review: what the core needs, read from GitHub. Which descriptors changed comes
 * from the caller (a pull request's file list, or the trees of a merge group's base and head), so that
 * every kind of target shares the rest: head and base contents, and notes on what could not be seen.
 */
import type { ResolvedConfig } from "../../core/config.js";
import type { DescriptorInput } from "../../core/review.js";
import { plural } from "../../format/summary.js";
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
  const contents = await step("content", () => gw.readFiles(files, config.maxFileSize));
  const inputs: DescriptorInput[] = [];
  changed.descriptors.forEach((d, i) => {
    const { head, base } = at[i]!;
    const input = toInput(d, contents[head]!, base === undefined ? undefined : contents[base]);
    if (input) inputs.push(input);
    else notes.push(`\`${d.path}\` could not be read at the head commit and was not reviewed.`);
  });
  if (changed.capped)
    notes.push(
      `GitHub lists at most ${PR_FILES_CAP.toLocaleString("en-US")} files of a pull request, and the commits' trees were too large to list whole; some files were not seen.`,
    );
  if (changed.removed.length)
    notes.push(
      `${plural(changed.removed.length, "removed descriptor")} ${changed.removed.length === 1 ? "is" : "are"} not reviewed: ${changed.removed.map((p) => `\`${p}\``).join(", ")}.`,
    );
  return { inputs, descriptors: changed.descriptors, notes };
}
