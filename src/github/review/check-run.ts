/**
 * The `plugin-review` check run: exactly one per analysed head commit. A review writes its result once,
 * creating the run completed with its first annotations (one write), or completing the run already
 * there. GitHub appends the annotations of every update, so a run that already holds annotations is only
 * sent those it lacks, and an explicit Re-run gets a new run: no annotation is ever sent twice. A run that
 * already says exactly what a review found (a duplicate delivery, the second event of a push) is not
 * written again: its `external_id` carries a digest of the result it holds.
 *
 * A run written with another result for the same commit (the pull request moved to another base branch,
 * the configuration changed before a redelivery) keeps that result's annotations, which GitHub cannot
 * remove: its annotations are listed and the new result's that it lacks are sent (held-annotations.ts),
 * and the summary and conclusion become the new result's.
 *
 * When GitHub fails that write, `completeRun` tries again with backoff until the review's deadline, each
 * time after reading what GitHub holds (a write GitHub made but failed to answer is not made twice), and
 * creates the run in progress as soon as GitHub takes a write, so that the commit is never without one.
 */
import { createHash } from "node:crypto";
import { retryWithBackoff } from "../api/deadline.js";
import type { GitHubGateway } from "../api/gateway.js";
import { annotationsToAdd, type HeldAnnotation } from "./held-annotations.js";
import {
  ANNOTATIONS_PER_REQUEST,
  clip,
  earlierAnnotationsNote,
  OUTPUT_LIMIT,
  type Annotation,
} from "./render.js";
import type { Logger, Octokit } from "../api/types.js";

export const CHECK_NAME = "plugin-review";

export interface CheckRunRef {
  owner: string;
  repo: string;
  headSha: string;
}

/** This app's run for a head commit, as GitHub lists it (graphql-reads.ts). */
export interface ExistingRun {
  id: number;
  status: string;
  /** How many annotations the run holds already. */
  annotations: number;
  /**
   * Its `external_id`, when this app wrote it: the digest of the result it shows (`resultDigest`), followed
   * by what its annotations are when they are not the first `n` of that result's (planWrite).
   */
  externalId?: string | null;
}

export interface CheckResult {
  conclusion: "success" | "neutral" | "failure";
  title: string;
  summary: string;
  /** In a stable order (allAnnotations): a run holding the first `n` (and nothing else) is sent the rest. */
  annotations: Annotation[];
}

/** A digest of everything a result writes (conclusion, title, summary, every annotation), for `external_id`. */
export function resultDigest(result: CheckResult): string {
  const hash = createHash("sha256");
  for (const part of [result.conclusion, result.title, result.summary, JSON.stringify(result.annotations)])
    hash.update(part).update("\0");
  return `plugin-review:${hash.digest("hex").slice(0, 40)}`;
}

/**
 * What a run's `external_id` says beside the digest of the result it shows (`resultDigest`), when its
 * annotations are not the first `n` of that result's: HOLDS and the digest of the result whose first `n`
 * they are (a result without annotations, such as a failure report, written over them), or EARLIER when
 * they are a mix of several results' (read before anything more is sent).
 */
const HOLDS = "+holds:";
const EARLIER = "+earlier";

/** The result whose first `n` annotations a run holds, as its `external_id` says; undefined when unknown. */
function prefixOf(externalId: string | null | undefined): string | undefined {
  const [shown = "", holds = shown] = (externalId ?? "").split(HOLDS);
  const digest = /^plugin-review:[0-9a-f]{40}$/;
  return digest.test(shown) && digest.test(holds) ? holds : undefined;
}

/** What a write of a result sends: the run's `external_id`, its summary, and the annotations it lacks. */
interface Write {
  externalId: string;
  summary: string;
  annotations: Annotation[];
}

/**
 * What to send to `existing` for `result`, or undefined when the run is completed with this very result and
 * holds every annotation of it that fits. A run holding no annotations, or the first `n` of this result's (a
 * write of it cut off after some batches, perhaps followed by a failure report), is sent the rest without
 * reading anything. A run holding annotations of another result keeps them (GitHub removes none): a result
 * without annotations adds none, and any other reads what the run holds (`held`) and is sent those of its
 * annotations the run lacks, within the cap that what the run holds counts towards.
 */
async function planWrite(
  existing: ExistingRun | undefined,
  result: CheckResult,
  held: (runId: number) => Promise<HeldAnnotation[]>,
): Promise<Write | undefined> {
  const digest = resultDigest(result);
  const count = existing?.annotations ?? 0;
  const holds = count === 0 ? digest : prefixOf(existing?.externalId);
  let write: Write;
  if (holds === digest) {
    write = { externalId: digest, summary: result.summary, annotations: result.annotations.slice(count) };
  } else if (!result.annotations.length) {
    // Nothing to send, so nothing to read: the run keeps what it holds, and says so.
    write = {
      externalId: digest + (holds ? HOLDS + holds : EARLIER),
      summary: result.summary,
      annotations: [],
    };
  } else {
    const plan = annotationsToAdd(result.annotations, await held(existing!.id));
    const note = plan.omitted ? earlierAnnotationsNote(plan.omitted, plan.earlier) : "";
    write = {
      externalId: digest + EARLIER,
      summary: note ? `${clip(result.summary, OUTPUT_LIMIT - note.length - 2)}\n\n${note}` : result.summary,
      annotations: plan.send,
    };
  }
  const written =
    existing?.status === "completed" && existing.externalId === write.externalId && !write.annotations.length;
  return written ? undefined : write;
}

/**
 * Writes a review's result: creates the run (completed, with the first batch of annotations) or
 * completes `existing` with the annotations it does not hold yet (planWrite; `held` lists a run's
 * annotations); further batches of 50 (GitHub's limit per request) follow as updates. The conclusion is
 * set by the first write, so a failure later on leaves a completed run with the right verdict. Nothing is
 * sent when `existing` is completed with this very result and holds all its annotations. Returns the
 * run's id.
 */
export async function writeCheckRun(
  octokit: Octokit,
  where: CheckRunRef,
  existing: ExistingRun | undefined,
  result: CheckResult,
  held: (runId: number) => Promise<HeldAnnotation[]>,
): Promise<number> {
  const write = await planWrite(existing, result, held);
  if (!write) return existing!.id;
  // The summary and title are built within GitHub's limits (render.ts; planWrite makes room for its note).
  const output = { title: result.title, summary: write.summary };
  const batches: Annotation[][] = [];
  for (let i = 0; i < write.annotations.length; i += ANNOTATIONS_PER_REQUEST)
    batches.push(write.annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  const first = batches.shift();
  const completed = {
    external_id: write.externalId,
    status: "completed" as const,
    conclusion: result.conclusion,
    completed_at: new Date().toISOString(),
    output: first ? { ...output, annotations: first } : output,
  };
  const repo = { owner: where.owner, repo: where.repo };
  const id = existing
    ? (await octokit.rest.checks.update({ ...repo, check_run_id: existing.id, ...completed }), existing.id)
    : (await octokit.rest.checks.create({ ...repo, name: CHECK_NAME, head_sha: where.headSha, ...completed }))
        .data.id;
  for (const batch of batches)
    await octokit.rest.checks.update({
      ...repo,
      check_run_id: id,
      output: { ...output, annotations: batch },
    });
  return id;
}

/** Creates the run in progress, with no annotation: the commit has its run whatever happens next. */
export async function startCheckRun(octokit: Octokit, where: CheckRunRef): Promise<ExistingRun> {
  const { data } = await octokit.rest.checks.create({
    owner: where.owner,
    repo: where.repo,
    name: CHECK_NAME,
    head_sha: where.headSha,
    status: "in_progress",
    output: {
      title: "Completing the review",
      summary: "GitHub failed to take the review's result; plugin-review is sending it again.",
    },
  });
  return { id: data.id, status: "in_progress", annotations: 0, externalId: null };
}

/** What a review knows of its run: the run, that there is none, or nothing ("unknown": list it again). */
export type KnownRun = ExistingRun | undefined | "unknown";

/**
 * Writes `result` (writeCheckRun), trying again with backoff while GitHub fails (5xx, rate limits, no
 * answer), until the deadline the caller runs it under (deadline.ts) rejects. After a failure the run is
 * listed again before the next write, so that a write GitHub made without answering is not sent twice
 * (annotations would be appended again); when there is still no run, one is created in progress first.
 * `replaces`: the run a Re-run must not complete (the new run is the one to write). Returns the run's id.
 */
export async function completeRun(
  gw: Pick<GitHubGateway, "latestRun" | "writeCheckRun" | "startCheckRun">,
  where: CheckRunRef & { appId: number | undefined },
  known: KnownRun,
  result: CheckResult,
  opts: { log: Logger; replaces?: number },
): Promise<number> {
  // After a failure, GitHub may have made the write without answering: list the run again.
  return retryWithBackoff("completing the check run", opts.log, async (attempt) => {
    let run: KnownRun = attempt === 0 ? known : "unknown";
    if (run === "unknown") {
      const latest = await gw.latestRun(where, where.appId);
      run = latest?.id === opts.replaces ? undefined : latest;
    }
    if (run === undefined && attempt > 0) run = await gw.startCheckRun(where);
    return gw.writeCheckRun(where, run, result);
  });
}
