/**
 * The App's review of one pull request head: check run, configuration from the default branches,
 * changed descriptors, the core's findings, annotations and review. Whatever fails midway, the check run
 * is completed (as failure, with the reason), never left in progress.
 */
import { CONFIG_PATH, type ResolvedConfig } from "../core/config.js";
import { hasFailures, reviewDescriptors, type DescriptorInput, type FileReview } from "../core/review.js";
import { completeCheckRun, startCheckRun, type CheckRunRef } from "./check-run.js";
import { fetchFile, type FileContent } from "./fetch-content.js";
import { listChangedDescriptors, PR_FILES_CAP, type ChangedDescriptor } from "./fetch-files.js";
import { loadConfig } from "./load-config.js";
import { publishReview, type PublishResult } from "./publish-review.js";
import { allAnnotations, checkSummary, checkTitle } from "./render.js";
import { describeRequestError, httpStatus, type Logger, type Octokit, type PullTarget } from "./types.js";

export interface ReviewOutcome {
  conclusion: "success" | "failure";
  reviews: FileReview[];
  review?: PublishResult;
  error?: string;
}

/** Which permission a failing call needs, for the check summary and the log. */
const PERMISSION: Record<string, string> = {
  config: "contents: read",
  files: "pull_requests: read",
  content: "contents: read",
  review: "pull_requests: write",
};

class StepError extends Error {
  constructor(
    readonly step: keyof typeof PERMISSION,
    readonly original: unknown,
  ) {
    super(describeRequestError(original, step));
  }
}

async function step<T>(name: keyof typeof PERMISSION, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw new StepError(name, e);
  }
}

function explain(e: unknown): string {
  if (e instanceof StepError) {
    const status = httpStatus(e.original);
    const hint =
      status === 403 || status === 404
        ? ` If the app was installed without it, grant the \`${PERMISSION[e.step]}\` permission.`
        : "";
    return `${e.message}.${hint}`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** Descriptors read at once: enough to overlap round trips, few enough to stay clear of abuse limits. */
const FETCH_CONCURRENCY = 4;

/** `fn` over `items` with at most `limit` calls in flight; results in the items' order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
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

export interface ReviewOptions {
  appId?: number;
  log: Logger;
  /** The event opened the pull request (so no earlier review of it can exist). */
  opened?: boolean;
}

export async function reviewPullRequest(
  octokit: Octokit,
  pr: PullTarget,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  const log = opts.log.child({ pr: `${pr.owner}/${pr.repo}#${pr.number}`, head: pr.headSha.slice(0, 12) });
  let run: CheckRunRef;
  try {
    run = await startCheckRun(octokit, pr.owner, pr.repo, pr.headSha, opts.appId);
  } catch (e) {
    // Without a check run there is nowhere to report; the log says what to fix.
    log.error(
      { status: httpStatus(e) },
      `${describeRequestError(e, "creating the check run")}; the app needs the \`checks: write\` permission`,
    );
    throw e;
  }
  try {
    const loaded = await step("config", () => loadConfig(octokit, pr.owner, pr.repo, pr.ownerType));
    if (!loaded.ok) {
      const summary = `The configuration is invalid, so the pull request was not reviewed:\n\n\`\`\`\n${loaded.error}\n\`\`\`\n\nFix \`${CONFIG_PATH}\` on the default branch (or the organisation's \`.github\` repository); plugin-review never falls back to defaults silently.`;
      await completeCheckRun(octokit, run, {
        conclusion: "failure",
        title: "Invalid plugin-review configuration",
        summary,
        annotations: [],
      });
      log.warn({ sources: loaded.sources }, "invalid configuration");
      return { conclusion: "failure", reviews: [], error: loaded.error };
    }
    const config: ResolvedConfig = loaded.config;
    const changed = await step("files", () => listChangedDescriptors(octokit, pr, config.paths));
    const inputs: DescriptorInput[] = [];
    const notes = [...config.notes];
    // Head and base of every descriptor, a few files at a time (reads are not throttled, but a pull
    // request may change hundreds of descriptors), in the order of the file list.
    const read = (d: ChangedDescriptor) =>
      step("content", () =>
        Promise.all([
          fetchFile(
            octokit,
            { owner: pr.headOwner, repo: pr.headRepo, path: d.path, ref: pr.headSha },
            config.maxFileSize,
          ),
          d.status === "added"
            ? Promise.resolve(undefined)
            : fetchFile(
                octokit,
                { owner: pr.owner, repo: pr.repo, path: d.previousPath ?? d.path, ref: pr.baseSha },
                config.maxFileSize,
              ),
        ]),
      );
    const contents = await mapLimit(changed.descriptors, FETCH_CONCURRENCY, read);
    changed.descriptors.forEach((d, i) => {
      const [head, base] = contents[i] as [FileContent, FileContent | undefined];
      const input = toInput(d, head, base);
      if (input) inputs.push(input);
      else notes.push(`\`${d.path}\` could not be read at the head commit and was not reviewed.`);
    });
    if (changed.capped)
      notes.push(
        `GitHub lists at most ${PR_FILES_CAP.toLocaleString("en-US")} files of a pull request; files beyond that were not seen.`,
      );
    if (changed.removed.length)
      notes.push(
        `${changed.removed.length} removed descriptor(s) are not reviewed: ${changed.removed.map((p) => `\`${p}\``).join(", ")}.`,
      );
    const reviews = reviewDescriptors(inputs, config);
    const failed = hasFailures(reviews, config);
    const conclusion = failed ? "failure" : "success";
    await completeCheckRun(octokit, run, {
      conclusion,
      title: checkTitle(reviews),
      summary: checkSummary({ reviews, failed, failOn: config.failOn, notes }),
      annotations: allAnnotations(reviews),
    });
    log.info(
      {
        descriptors: reviews.length,
        findings: reviews.reduce((n, r) => n + r.findings.length, 0),
        conclusion,
      },
      "check run completed",
    );
    const outcome: ReviewOutcome = { conclusion, reviews };
    if (reviews.length > 0) {
      try {
        outcome.review = await publishReview(octokit, pr, reviews, changed.descriptors, {
          mode: config.review,
          failed,
          log,
          firstLook: opts.opened === true && !run.existed,
        });
        log.info({ ...outcome.review }, "review published");
      } catch (e) {
        // The check run already carries every finding: nothing is lost, the log says why there is no review.
        const why = describeRequestError(e, "posting the review");
        log.error(
          { status: httpStatus(e) },
          `${why}; the findings are in the check run (the app needs \`${PERMISSION.review}\` to review)`,
        );
        outcome.error = why;
      }
    }
    return outcome;
  } catch (e) {
    const reason = explain(e);
    log.error(
      { status: e instanceof StepError ? httpStatus(e.original) : undefined },
      `review failed: ${reason}`,
    );
    try {
      await completeCheckRun(octokit, run, {
        conclusion: "failure",
        title: "plugin-review could not complete",
        summary: `The review could not be completed: ${reason}\n\nRe-run the check to try again.`,
        annotations: [],
      });
    } catch (e2) {
      log.error(`${describeRequestError(e2, "completing the check run")}; it may stay in progress`);
    }
    if (isTransient(e instanceof StepError ? e.original : e)) {
      // GitHub failing or throttling: raise, so that the delivery is retried (the queue's redrive in
      // Lambda; Probot's server answers 500 and the delivery can be redelivered). The check run says why meanwhile.
      throw new TransientReviewError(reason);
    }
    return { conclusion: "failure", reviews: [], error: reason };
  }
}

/** A review that failed for a reason that may pass (GitHub 5xx, rate limits, network): worth retrying. */
export class TransientReviewError extends Error {}

export function isTransient(e: unknown): boolean {
  const status = httpStatus(e);
  const message = (e as { message?: string }).message ?? "";
  if (status === undefined) return true; // network failure, timeout
  if (status >= 500 || status === 429) return true;
  return status === 403 && /rate limit/i.test(message);
}
