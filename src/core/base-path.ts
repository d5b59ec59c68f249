/**
 * Which version of a changed file its change rules and its baseline (new or existing findings) compare it
 * with: one rule for the App, `pr`, `check --base-ref` and the language server. A finding counts as
 * `existing` (and, with the default `existing: report`, does not fail the check) only when the base's review
 * could have seen it, so a base is only a file that review read. A renamed file's old path is its base only
 * when the base's configuration reviews that path; a file renamed from anywhere else (a fixture, a folder
 * outside `paths`) is new, every finding new. What `ignore` covers at the old path the base's review did not
 * show either: the analysis leaves those rules' base findings out (analyse.ts, `base.configPath`). A file
 * renamed from another kind of descriptor (an extension.yaml made a plugin.json, or the reverse) was reviewed
 * by the other kind's rules, so it is new too. Pure: paths in, a path out.
 */
import { formatOf } from "./ef2/pairing.js";

/** A changed file as the App's file list or git names it. */
export interface FileChange {
  path: string;
  /** GitHub's statuses (`added`, `modified`, `renamed`, `copied`, `changed`) and git's alike. */
  status: string;
  /** The old path of a rename. */
  previousPath?: string | undefined;
}

/** Where a changed file's base is, if anywhere. */
export interface BaseChoice {
  /** The path at the base to compare with; absent: the file is new, all its findings new. */
  path?: string;
  /** A rename's old path that the base did not review: why a renamed file has no base (worth a note). */
  notReviewedFrom?: string;
}

/**
 * The base of a changed file: none for an added one; the old path of a rename when `reviewedAtBase` says the
 * base's review read it, else none; its own path otherwise (a file modified in place is read under the
 * same configuration at both ends). `reviewedAtBase` answers "would the base's review have read this
 * path?": `reviewedPathMatcher` (ef2/pairing.ts) over the base's configuration's `paths`, the same question
 * that decides which changed files a review reads, for a plugin.json and an extension.yaml alike.
 */
export function baseOf(change: FileChange, reviewedAtBase: (path: string) => boolean): BaseChoice {
  if (change.status === "added") return {};
  const from = change.previousPath;
  if (change.status !== "renamed" || from === undefined || from === change.path) return { path: change.path };
  return reviewedAtBase(from) && formatOf(from) === formatOf(change.path)
    ? { path: from }
    : { notReviewedFrom: from };
}

/**
 * The renames whose old path cannot be their base, by path: a base is one file's, and a rename leaves its old
 * path. GitHub pairs renames by similarity: a file it lists as renamed from a path that another changed file of
 * the change still has (a rewritten file paired with a new one), or that an earlier rename was paired with
 * already, is a copy of that path's base, not its continuation. Its base would be claimed twice, and the base's
 * findings pass as existing in two files: such a file is reviewed as added, every finding new.
 */
export function copiedRenames(changes: readonly FileChange[]): Map<string, string> {
  const kept = new Set(changes.filter((c) => c.status !== "removed").map((c) => c.path));
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const c of changes) {
    const from = c.previousPath;
    if (c.status !== "renamed" || from === undefined || from === c.path) continue;
    if (kept.has(from) || taken.has(from)) out.set(c.path, from);
    taken.add(from);
  }
  return out;
}

/** The note that says why a file GitHub lists as renamed was reviewed as new (copiedRenames). */
export function copiedRenameNote(path: string, from: string, quote: (s: string) => string): string {
  return `${quote(path)} is reviewed as a new file: GitHub lists it as renamed from ${quote(from)}, which this change still has or another file was renamed from, so it is a copy and every finding is new.`;
}

/** The note that says why a renamed file was reviewed as new (the App's summary, the CLI's notes). */
export function notReviewedRenameNote(path: string, from: string, quote: (s: string) => string): string {
  const why =
    formatOf(from) === formatOf(path)
      ? "which the configuration's `paths` do not review, so nothing of it was reviewed before and"
      : `which was reviewed as ${formatOf(from) === "plugin.json" ? "a plugin.json" : "an extension.yaml"}, by other rules, so`;
  return `${quote(path)} is reviewed as a new file: it was renamed from ${quote(from)}, ${why} every finding is new.`;
}
