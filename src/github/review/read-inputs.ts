/**
 * The first stage of a review (pipeline.ts): what the core needs, read from GitHub. One query finds the
 * commit's check run and the configuration files of the default branches; then the policy, and the changed
 * descriptors. Which descriptors changed comes from the caller (a pull request's file list, or the trees of
 * a merge group's base and head), so that every kind of target shares the rest: head and base contents,
 * read a batch at a time as the analysis asks for them (a review holds one batch's bytes, never the whole
 * pull request's), within the review's ceiling; and what could not be reviewed, which fails the check
 * (core/verdict.ts NotReviewed).
 */
import { baseOf, copiedRenameNote, copiedRenames, notReviewedRenameNote } from "../../core/base-path.js";
import type { ResolvedConfig } from "../../core/config.js";
import { formatOf, replacedDescriptorPaths, reviewedPathMatcher } from "../../core/ef2/pairing.js";
import type { DescriptorInput } from "../../core/analyse.js";
import type { NotReviewed } from "../../core/verdict.js";
import { quote } from "../../format/markdown.js";
import { plural } from "../../format/summary.js";
import { step } from "../api/errors.js";
import {
  FILES_PER_READ,
  PR_FILES_CAP,
  type ChangedDescriptor,
  type ChangedFiles,
  type CommitTarget,
  type ExistingRun,
  type FileAt,
  type FileContent,
  type GitHubGateway,
  type Logger,
} from "../api/port.js";
import { invalidConfigSummary, tryOnceMore } from "./check-run/output.js";
import { addExtensionFiles, alertsNotRead, projectsNotListed } from "./extension-files.js";
import {
  extensionPlaces,
  placesInTree,
  placesNotFound,
  PLACES_READ_MAX,
  projectNote,
} from "./extension-projects.js";
import type { CheckResult } from "./check-run/write.js";
import { loadConfig } from "./load-config.js";

/** Lists the descriptors changed between the target's base and head, given the configured paths. */
export type ListChanged = (paths: readonly string[]) => Promise<ChangedFiles>;

/**
 * A batch in two, each with about half of its extension.yaml files (addExtensionFiles asks for it only when it
 * holds more than one): the other descriptors go with the first half.
 */
function halves(inputs: readonly DescriptorInput[]): [DescriptorInput[], DescriptorInput[]] {
  const extensions = inputs.filter((i) => formatOf(i.path) === "extension.yaml");
  const second = new Set(extensions.slice(Math.ceil(extensions.length / 2)));
  return [inputs.filter((i) => !second.has(i)), inputs.filter((i) => second.has(i))];
}

/** The changed descriptors, a batch at a time (not kept by the reader), and then what else was learned. */
export type DescriptorBatches = AsyncGenerator<DescriptorInput[], CollectedInputs, void>;

/** A commit whose descriptors are to be analysed. */
export interface DescriptorsRead {
  kind: "descriptors";
  /** The commit's check run, when it has one. */
  run: ExistingRun | undefined;
  config: ResolvedConfig;
  batches: DescriptorBatches;
}

/** A commit that is not analysed: its check run says why. */
export interface NothingToAnalyse {
  kind: "not-analysed";
  run: ExistingRun | undefined;
  result: CheckResult;
  error: string;
}

export interface CollectedInputs {
  /** The changed descriptors, with their patches (commentable lines). */
  descriptors: ChangedDescriptor[];
  /** For the summary: configuration notes, removed files. */
  notes: string[];
  /** Changed descriptors not reviewed, and why: each fails the check. */
  notReviewed: NotReviewed[];
}

function toInput(
  d: ChangedDescriptor,
  head: FileContent,
  basePath: string | undefined,
  base: FileContent | undefined,
): DescriptorInput | undefined {
  if (head.kind === "missing") return undefined;
  const input: DescriptorInput =
    head.kind === "file"
      ? { path: d.path, content: head.content }
      : { path: d.path, content: new Uint8Array(0), size: head.size };
  if (basePath !== undefined && base && base.kind !== "missing") {
    input.base =
      base.kind === "file"
        ? { path: basePath, content: base.content }
        : { path: basePath, content: new Uint8Array(0), size: base.size };
    // A renamed file: what the base's review ignored at its old path was never seen there (core/analyse.ts).
    if (basePath !== d.path) input.base.configPath = basePath;
  }
  input.isNew = !base || base.kind === "missing";
  return input;
}

/** The bytes a file read brought (one over max_file_size is not downloaded: none). */
const bytesOf = (f: FileContent | undefined) => (f?.kind === "file" ? f.content.length : 0);

/** Why a changed descriptor's head could not be read (GitHub's answer, as people read it). */
function unreadable(head: Extract<FileContent, { kind: "missing" }>, sha: string): string {
  const at = `at the head commit ${sha.slice(0, 7)}`;
  return head.notFile
    ? `GitHub has something other than a file ${at} (a folder, a submodule or a symbolic link to outside the repository), so it could not be read`
    : `GitHub has no such file ${at} (it answered "not found"), so it could not be read`;
}

/**
 * The files a descriptor's review reads: its head, its base (when it has one: core/base-path.ts), and for an
 * extension.yaml the plugin.json files at the base it may replace.
 */
const readsOf = (d: ChangedDescriptor, basePath: (d: ChangedDescriptor) => string | undefined) =>
  (basePath(d) === undefined ? 1 : 2) + replacedDescriptorPaths(d.path).length;

/** Descriptors in batches of at most FILES_PER_READ file reads (readsOf), one batch at least one descriptor. */
function batches(
  descriptors: readonly ChangedDescriptor[],
  basePath: (d: ChangedDescriptor) => string | undefined,
): ChangedDescriptor[][] {
  const out: ChangedDescriptor[][] = [];
  let files = FILES_PER_READ;
  for (const d of descriptors) {
    const n = readsOf(d, basePath);
    if (files + n > FILES_PER_READ) {
      out.push([]);
      files = 0;
    }
    out[out.length - 1]!.push(d);
    files += n;
  }
  return out;
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

/**
 * The check run of a delivery whose review the server died in, again and again (ReviewOptions.abandoned).
 * `mergeGroup`: a merge group's run, which the queue retries, not a Re-run.
 */
function abandonedResult(mergeGroup: boolean): CheckResult {
  return {
    conclusion: "failure",
    title: "plugin-review could not review this commit",
    summary: `**Failing**: this commit could not be reviewed. plugin-review's server stopped while reviewing it, more than once (its process died: perhaps the descriptors of this pull request are more than it can hold), so it was not tried again; a commit that was not reviewed cannot pass.\n\n${tryOnceMore(mergeGroup)} If it fails again, the server's operators will find the delivery in its log.`,
    annotations: [],
  };
}

/** How a review reads its inputs, as its entry point decides. */
export interface ReadOptions {
  appId?: number;
  log: Logger;
  /** The deployment setting: an organisation configuration the App cannot read fails the check. */
  requireOrgConfig?: boolean;
  /** The server died while reviewing this delivery, again and again: nothing is read beyond the run. */
  abandoned?: boolean;
  /** A merge group's commit (no pull request): its failures say how the queue retries it. */
  mergeGroup?: boolean;
}

/**
 * Stage 1: the commit's run and its policy, and the changed descriptors to be read as they are analysed;
 * or why nothing is analysed (the review was abandoned, the configuration is invalid).
 */
export async function readInputs(
  gw: GitHubGateway,
  target: CommitTarget,
  listChanged: ListChanged,
  opts: ReadOptions,
): Promise<DescriptorsRead | NothingToAnalyse> {
  const { owner, repo, headSha, ownerType } = target;
  // One query: this commit's run and the configuration files.
  const begun = await step("config", () => gw.reviewStart({ owner, repo, headSha, ownerType }, opts.appId));
  const run = begun.run;
  if (opts.abandoned) {
    opts.log.error(
      "not reviewed: the server stopped while reviewing this delivery, again and again; its check run is completed as failure",
    );
    return {
      kind: "not-analysed",
      run,
      result: abandonedResult(opts.mergeGroup === true),
      error: "could not be reviewed",
    };
  }
  const loaded = await step("config", () =>
    loadConfig(gw, owner, repo, ownerType, begun.configs, {
      ...(begun.unseen ? { unseen: begun.unseen } : {}),
      ...(opts.requireOrgConfig ? { requireOrgConfig: true } : {}),
    }),
  );
  if (!loaded.ok) {
    opts.log.warn({ sources: loaded.sources }, "invalid configuration");
    const result: CheckResult = {
      conclusion: "failure",
      title: loaded.title ?? "Invalid plugin-review configuration",
      summary: loaded.summary ?? invalidConfigSummary(loaded.error),
      annotations: [],
    };
    return { kind: "not-analysed", run, result, error: loaded.error };
  }
  const config = loaded.config;
  return { kind: "descriptors", run, config, batches: readDescriptors(gw, target, config, listChanged) };
}

/**
 * Lists the changed descriptors and reads them a batch at a time, yielding each batch. Stops at the
 * review's ceiling (`max_descriptors`, `max_total_size`): a descriptor that would take the bytes read past
 * it is not reviewed, nor is any after it (nothing more is read).
 */
async function* readDescriptors(
  gw: GitHubGateway,
  target: CommitTarget,
  config: ResolvedConfig,
  listChanged: ListChanged,
): DescriptorBatches {
  const changed = await step("files", () => listChanged(config.paths));
  const notes = [...config.notes];
  const notReviewed: NotReviewed[] = [];
  // What the configuration reviews. A base is only what the base's review read (core/base-path.ts): the policy
  // is the default branches', so its `paths` are what reviewed the base; a file renamed from elsewhere is new.
  const reviewed = reviewedPathMatcher(config.paths);
  const unread: { path: string; why: string }[] = [];
  const beyondCount: string[] = [];
  const beyondBytes: string[] = [];
  const unlisted: string[] = [];
  const alertsUnread: string[] = [];
  const migrated = new Map<string, string>();
  const bases = new Map<ChangedDescriptor, ReturnType<typeof baseOf>>();
  const basePath = (d: ChangedDescriptor) => bases.get(d)?.path;
  // Batches to read; descriptors join as they are found (max_descriptors counts them all, in order).
  const pending: ChangedDescriptor[][] = [];
  let admitted = 0;
  // Listed as renamed from a path the change still has, or that another rename took: copies, with no base.
  const copied = copiedRenames(changed.descriptors);
  const admit = (descriptors: readonly ChangedDescriptor[]) => {
    const room = Math.max(0, config.maxDescriptors - admitted);
    const taken = descriptors.slice(0, room);
    beyondCount.push(...descriptors.slice(room).map((d) => d.path));
    admitted += taken.length;
    for (const d of taken) {
      const from = copied.get(d.path);
      if (from !== undefined) {
        bases.set(d, {});
        notes.push(copiedRenameNote(d.path, from, quote));
        continue;
      }
      const base = baseOf(d, reviewed);
      bases.set(d, base);
      if (base.notReviewedFrom !== undefined)
        notes.push(notReviewedRenameNote(d.path, base.notReviewedFrom, quote));
    }
    pending.push(...batches(taken, basePath));
  };
  admit(changed.descriptors);
  // The extensions whose project files changed beside an extension.yaml the change leaves alone are changed
  // too (review/extension-projects.ts): a few places are read with the first batch, many found in the tree.
  const places = extensionPlaces(
    changed.others,
    reviewed,
    new Set([...changed.descriptors.map((d) => d.path), ...changed.removed]),
  );
  const found = (paths: readonly string[]) => {
    const descriptors = paths.map((path): ChangedDescriptor => ({ path, status: "modified" }));
    changed.descriptors.push(...descriptors);
    notes.push(...paths.map((p) => projectNote(p, changed.others)));
    admit(descriptors);
  };
  let unlooked = places.length <= PLACES_READ_MAX ? places : [];
  if (places.length > PLACES_READ_MAX) {
    const inTree = await placesInTree(gw, target, places);
    if (inTree) found(inTree);
    else notReviewed.push(placesNotFound(places.length));
  }
  if (!pending.length && unlooked.length) pending.push([]);
  let bytes = 0;
  for (let batch = pending.shift(); batch; batch = pending.shift()) {
    if (beyondBytes.length) {
      beyondBytes.push(...batch.map((d) => d.path));
      continue;
    }
    // Head and base by sha from the base repository, a fork pull request's head too (port.ts CommitTarget);
    // an extension.yaml's candidate plugin.json files at the base commit, in the same queries.
    const files: FileAt[] = [];
    const read = (ref: string, path: string) =>
      files.push({ owner: target.owner, repo: target.repo, ref, path }) - 1;
    const at = batch.map((d) => {
      const from = basePath(d);
      return {
        head: read(target.headSha, d.path),
        base: from === undefined ? undefined : read(target.baseSha, from),
        replaced: replacedDescriptorPaths(d.path).map((path) => ({ path, at: read(target.baseSha, path) })),
      };
    });
    const looked = unlooked.map((path) => ({ path, at: read(target.headSha, path) }));
    unlooked = [];
    const contents = await step("content", () => gw.readFiles(files, config.maxFileSize));
    found(looked.filter((p) => contents[p.at]!.kind !== "missing").map((p) => p.path));
    const inputs: DescriptorInput[] = [];
    batch.forEach((d, i) => {
      const { head: h, base: b, replaced } = at[i]!;
      const head = contents[h]!;
      const base = b === undefined ? undefined : contents[b];
      if (beyondBytes.length) return void beyondBytes.push(d.path);
      if (head.kind === "missing")
        return void unread.push({ path: d.path, why: unreadable(head, target.headSha) });
      const input = toInput(d, head, basePath(d), base)!;
      let size = bytesOf(head) + bytesOf(base);
      if (formatOf(d.path) === "extension.yaml") {
        const ef1 = replaced
          .map((c) => ({ path: c.path, file: contents[c.at]! }))
          .find((c) => c.file.kind !== "missing");
        // Compared with the plugin.json it replaces too, when the base holds one beside it (a migration).
        if (ef1 && ef1.file.kind !== "missing") {
          input.replaces = replacedInput(ef1.path, ef1.file, changed);
          migrated.set(ef1.path, d.path);
          size += bytesOf(ef1.file);
        }
      }
      if (bytes + size > config.maxTotalSize) return void beyondBytes.push(d.path);
      bytes += size;
      inputs.push(input);
    });
    if (!inputs.length) continue;
    // A Python extension's project files and activation schema, for the rules that read them; the batch in
    // halves when its extensions' alert and dashboard files are more than one call reads (addExtensionFiles `split`).
    const parts = [inputs];
    for (let part = parts.shift(); part; part = parts.shift()) {
      const project = await addExtensionFiles(gw, target, part, config.maxFileSize, changed.others);
      if (project.split) {
        parts.unshift(...halves(part));
        continue;
      }
      notes.push(...project.notes);
      unlisted.push(...project.unlisted);
      alertsUnread.push(...project.unread);
      bytes += project.bytes;
      yield part;
    }
  }
  notReviewed.push(...unread.map((u) => ({ paths: [u.path], why: u.why })));
  if (unlisted.length) notReviewed.push(projectsNotListed(unlisted));
  if (alertsUnread.length) notReviewed.push(alertsNotRead(alertsUnread));
  if (beyondCount.length)
    notReviewed.push({
      paths: beyondCount,
      why: `This commit changes ${plural(changed.descriptors.length, "descriptor")}; a review takes at most ${config.maxDescriptors.toLocaleString("en-US")} (\`max_descriptors\` in \`.github/plugin-review.yml\`), so these were not reviewed`,
    });
  if (beyondBytes.length)
    notReviewed.push({
      paths: beyondBytes,
      why: `A review reads at most ${config.maxTotalSize.toLocaleString("en-US")} bytes of descriptors, head and base versions together (\`max_total_size\` in \`.github/plugin-review.yml\`); reading these would have gone past it, so they were not reviewed`,
    });
  if (changed.capped)
    notReviewed.push({
      paths: [],
      why: `GitHub lists at most ${PR_FILES_CAP.toLocaleString("en-US")} files of a pull request, and the commits' trees were too large to list whole, so some changed files were not seen`,
    });
  const removed = changed.removed.filter((p) => !migrated.has(p));
  if (removed.length)
    notes.push(
      `${plural(removed.length, "removed descriptor")} ${removed.length === 1 ? "is" : "are"} not reviewed: ${removed.map(quote).join(", ")}.`,
    );
  for (const p of changed.removed.filter((p) => migrated.has(p)))
    notes.push(
      `${quote(p)} is removed; ${quote(migrated.get(p)!)}, which replaces it, was compared with it (the migration rules).`,
    );
  return { descriptors: changed.descriptors, notes, notReviewed };
}
