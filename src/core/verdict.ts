/**
 * The verdict, in one place: which findings fail (`fail_on`), which count at all (`existing`), the check
 * run's conclusion, and whether a review fails (the CLI's exit status, the App's check). Every surface (the
 * CLI, the App, the Action's annotations, the language server) asks here, so that they cannot disagree.
 */
import type { FailOn, ResolvedConfig } from "./config.js";
import type { AnalysedFile } from "./analyse.js";
import { SEVERITY_RANK, type Severity } from "./types.js";

/** Does the configuration make a finding of this severity fail the check? */
export function fails(severity: Severity, failOn: FailOn): boolean {
  return failOn !== "never" && SEVERITY_RANK[severity] >= SEVERITY_RANK[failOn];
}

/** Does this finding count towards the verdict? Existing ones only with `existing: fail` (never with `report`). */
export function findingCounts(
  f: { baseline?: "new" | "existing" },
  config: Pick<ResolvedConfig, "existing">,
): boolean {
  return f.baseline !== "existing" || config.existing === "fail";
}

/** Does this finding decide the verdict: it counts, at or above the failing level? */
export function findingFails(
  f: { severity: Severity; baseline?: "new" | "existing" },
  config: Pick<ResolvedConfig, "failOn" | "existing">,
): boolean {
  return fails(f.severity, config.failOn) && findingCounts(f, config);
}

/**
 * Changed descriptors a review could not judge, and why: unreadable at the head commit, beyond the
 * review's ceiling, or not even listed (`paths` empty: GitHub would not list every file). A head not judged
 * never passes: any of these fails the check whatever the configuration (`fail_on`, `rules`, `ignore`), so
 * that no setting and no pull request can turn "not read" into a green check.
 */
export interface NotReviewed {
  /** The descriptors, by path (none when what is missing cannot be named). */
  paths: readonly string[];
  /** Why, as a sentence for people: what happened and what would change it. */
  why: string;
}

/**
 * The check run's conclusion, in the Checks API's meaning: `failure` when a finding fails or a changed
 * descriptor was not reviewed (NotReviewed); `neutral` when findings count but none fails (`fail_on:
 * never`, or all below the failing level), which passes a required check while showing there is something
 * to look at; `success` otherwise. Existing findings reported under `existing: report` decide nothing, here
 * as for failure.
 */
export function checkConclusion(
  findings: Iterable<{ severity: Severity; baseline?: "new" | "existing" }>,
  config: Pick<ResolvedConfig, "failOn" | "existing">,
  notReviewed: readonly NotReviewed[] = [],
): "success" | "neutral" | "failure" {
  if (notReviewed.length) return "failure";
  let counted = false;
  for (const f of findings) {
    if (findingFails(f, config)) return "failure";
    counted ||= !isQuietExisting(f, config);
  }
  return counted ? "neutral" : "success";
}

/** An existing finding that is reported but does not count (`existing: report`): no comment, a notice annotation. */
export function isQuietExisting(
  f: { baseline?: "new" | "existing" },
  config: Pick<ResolvedConfig, "existing">,
): boolean {
  return f.baseline === "existing" && config.existing === "report";
}

/**
 * The one verdict of the CLI's exit status and the App's conclusion: a finding reaches the failing level
 * (`fail_on`) and is new, or existing findings count too (`existing: fail`).
 */
export function hasFailures(files: readonly AnalysedFile[], config: ResolvedConfig): boolean {
  return files.some((r) => r.findings.some((f) => findingFails(f, config)));
}
