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
import type { Clock } from "../../api/clock.js";
import { retryWithBackoff } from "../../api/deadline.js";
import type {
  Annotation,
  CheckRunRef,
  ExistingRun,
  GitHubGateway,
  HeldAnnotation,
  Logger,
  RunWrite,
} from "../../api/port.js";
import {
  FAILING_MAX,
  formatExternalId,
  parseExternalId,
  pullsNamed,
  REVIEWED_MAX,
  sameState,
  type RunState,
} from "./external-id.js";
import { annotationsToAdd } from "./held-annotations.js";
import { ANNOTATIONS_PER_REQUEST, earlierAnnotationsNote, OUTPUT_LIMIT, outputSize } from "./output.js";
import { clipLines } from "../markdown.js";

/** What a review found, as the check run shows it. */
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
  return hash.digest("hex").slice(0, 40);
}

/** What a write of a result sends: the run's `external_id`, its summary, and the annotations it lacks. */
interface Write {
  state: RunState;
  summary: string;
  annotations: Annotation[];
}

/**
 * What to send to `existing` for `result`, or undefined when the run is completed with this very result and
 * holds every annotation of it that fits. `replaced`: the run a Re-run replaces, whose pull requests the new
 * run takes over (see `namingRun`). A run holding no annotations, or the first `n` of this result's (a
 * write of it cut off after some batches, perhaps followed by a failure report), is sent the rest without
 * reading anything. A run holding annotations of another result keeps them (GitHub removes none): a result
 * without annotations adds none, and any other reads what the run holds (`held`) and is sent those of its
 * annotations the run lacks, within the cap that what the run holds counts towards.
 */
async function planWrite(
  existing: ExistingRun | undefined,
  result: CheckResult,
  held: (runId: number) => Promise<HeldAnnotation[]>,
  pull: number | undefined,
  replaced?: ExistingRun,
): Promise<Write | undefined> {
  const digest = resultDigest(result);
  const count = existing?.annotations ?? 0;
  const was = parseExternalId(existing?.externalId);
  const holds = count === 0 ? digest : was?.holds;
  let write: Write;
  if (holds === digest) {
    write = {
      state: { shows: digest, holds: digest },
      summary: result.summary,
      annotations: result.annotations.slice(count),
    };
  } else if (!result.annotations.length) {
    // Nothing to send, so nothing to read: the run keeps what it holds, and says so.
    write = { state: { shows: digest, holds: holds ?? "mixed" }, summary: result.summary, annotations: [] };
  } else {
    const plan = annotationsToAdd(result.annotations, await held(existing!.id));
    const note = plan.omitted ? earlierAnnotationsNote(plan.omitted, plan.earlier) : "";
    write = {
      state: { shows: digest, holds: "mixed" },
      summary: note
        ? `${clipLines(result.summary, OUTPUT_LIMIT - outputSize(note) - 2, outputSize)}\n\n${note}`
        : result.summary,
      annotations: plan.send,
    };
  }
  const named = namingRun(existing, replaced);
  const wasNamed = named === existing ? was : parseExternalId(named?.externalId);
  if (pull !== undefined && result.conclusion === "failure")
    write.state.failing = failingPulls(named, wasNamed, pull);
  if (pull !== undefined) write.state.reviewed = reviewedPulls(wasNamed, pull);
  const written =
    existing?.status === "completed" && sameState(was, write.state) && !write.annotations.length;
  return written ? undefined : write;
}

/**
 * The run whose pull requests (failing, reviewed) the written run goes on naming: `existing`, unless it is a
 * Re-run's new run (none yet, or the one it started in progress after a failed write), which stands for the
 * commit's other pull requests as the run it replaces did. Otherwise a Re-run whose event names only some of
 * them (GitHub's stubs name the pull requests of the suite's head branch; a fork's, none) would forget another
 * one's failure, and a later passing review of a pull request it did name would be written over that failure.
 */
function namingRun(
  existing: ExistingRun | undefined,
  replaced: ExistingRun | undefined,
): ExistingRun | undefined {
  return existing?.externalId || !replaced ? existing : replaced;
}

/**
 * The pull requests whose reviews of this commit fail once `pull`'s failing review is written over
 * `existing`: those its failing run names, and `pull` (external-id.ts `failing`).
 */
function failingPulls(
  existing: ExistingRun | undefined,
  was: RunState | undefined,
  pull: number,
): NonNullable<RunState["failing"]> {
  // A run in progress names the pull requests whose failing results GitHub has not taken yet (startCheckRun).
  const before =
    existing?.status !== "completed" || existing.conclusion === "failure" ? was?.failing : undefined;
  const pulls = [...new Set([...(before?.pulls ?? []), pull])];
  return { pulls: pulls.slice(0, FAILING_MAX), more: (before?.more ?? false) || pulls.length > FAILING_MAX };
}

/**
 * The pull requests reviewed at this commit once `pull`'s review is written over a run saying `was`: those it
 * names (pullsNamed) and `pull`, the latest REVIEWED_MAX. A pull request it already names keeps its place, so
 * that a redelivery writes nothing new.
 */
function reviewedPulls(was: RunState | undefined, pull: number): number[] {
  const named = pullsNamed(was);
  return (named.includes(pull) ? named : [...named, pull]).slice(-REVIEWED_MAX);
}

/** Which commit's run, and for a pull request's review, which pull request's (external-id.ts `failing`). */
export type RunWhere = CheckRunRef & { pull?: number };

/**
 * Writes a review's result: creates the run (completed, with the first batch of annotations) or
 * completes `existing` with the annotations it does not hold yet (planWrite; `held` lists a run's
 * annotations); further batches of 50 (GitHub's limit per request) follow as updates. The conclusion is
 * set by the first write, so a failure later on leaves a completed run with the right verdict. Nothing is
 * sent when `existing` is completed with this very result and holds all its annotations. Returns the
 * run's id.
 */
export async function writeCheckRun(
  gw: Pick<GitHubGateway, "createCheckRun" | "updateCheckRun" | "runAnnotations">,
  where: RunWhere,
  existing: ExistingRun | undefined,
  result: CheckResult,
  replaced?: ExistingRun,
): Promise<number> {
  const write = await planWrite(existing, result, (id) => gw.runAnnotations(where, id), where.pull, replaced);
  if (!write) return existing!.id;
  // The summary and title are built within GitHub's limits (output.ts; planWrite makes room for its note).
  const output = { title: result.title, summary: write.summary };
  const batches: Annotation[][] = [];
  for (let i = 0; i < write.annotations.length; i += ANNOTATIONS_PER_REQUEST)
    batches.push(write.annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  const first = batches.shift();
  const completed: RunWrite = {
    externalId: formatExternalId(write.state),
    status: "completed",
    conclusion: result.conclusion,
    completedAt: new Date().toISOString(),
    output: first ? { ...output, annotations: first } : output,
  };
  const id = existing
    ? (await gw.updateCheckRun(where, existing.id, completed), existing.id)
    : await gw.createCheckRun(where, completed);
  for (const batch of batches)
    await gw.updateCheckRun(where, id, { output: { ...output, annotations: batch } });
  return id;
}

/** What a run in progress shows while GitHub fails to take a review's result (startCheckRun). */
const STARTED = {
  title: "Completing the review",
  summary: "GitHub failed to take the review's result; plugin-review is sending it again.",
};

/**
 * Creates the run in progress, with no annotation: the commit has its run whatever happens next. Its
 * `external_id` already names the pull requests a write of `result` would (planWrite): a failing one among
 * them, while GitHub has not taken its result, keeps another pull request's passing review of this commit
 * from completing the run (complete.ts `failingPull`) until that result is written, or it is closed.
 */
async function startCheckRun(
  gw: Pick<GitHubGateway, "createCheckRun">,
  where: RunWhere,
  result: CheckResult,
  replaced: ExistingRun | undefined,
): Promise<ExistingRun> {
  const shows = resultDigest({ conclusion: "neutral", ...STARTED, annotations: [] });
  const state: RunState = { shows, holds: shows };
  const was = parseExternalId(replaced?.externalId);
  if (where.pull !== undefined && result.conclusion === "failure")
    state.failing = failingPulls(replaced, was, where.pull);
  if (where.pull !== undefined) state.reviewed = reviewedPulls(was, where.pull);
  const externalId = formatExternalId(state);
  const id = await gw.createCheckRun(where, { externalId, status: "in_progress", output: STARTED });
  return { id, status: "in_progress", annotations: 0, externalId };
}

/** What a review knows of its run: the run, that there is none, or nothing ("unknown": list it again). */
export type KnownRun = ExistingRun | undefined | "unknown";

/**
 * Writes `result` (writeCheckRun), trying again with backoff while GitHub fails (5xx, rate limits, no
 * answer), until the deadline the caller runs it under (api/deadline.ts) rejects. After a failure the run is
 * listed again before the next write, so that a write GitHub made without answering is not sent twice
 * (annotations would be appended again); when there is still no run, one is created in progress first.
 * `replaces`: the run a Re-run must not complete (the new run is the one to write, naming that run's pull
 * requests: `namingRun`). Returns the run's id.
 */
export async function completeRun(
  gw: Pick<GitHubGateway, "latestRun" | "createCheckRun" | "updateCheckRun" | "runAnnotations">,
  where: RunWhere & { appId: number | undefined },
  known: KnownRun,
  result: CheckResult,
  opts: { log: Logger; clock: Clock; replaces?: ExistingRun },
): Promise<number> {
  // After a failure, GitHub may have made the write without answering: list the run again.
  return retryWithBackoff("completing the check run", opts.log, opts.clock, async (attempt) => {
    let run: KnownRun = attempt === 0 ? known : "unknown";
    if (run === "unknown") {
      const latest = await gw.latestRun(where, where.appId);
      run = latest?.id === opts.replaces?.id ? undefined : latest;
    }
    if (run === undefined && attempt > 0) run = await startCheckRun(gw, where, result, opts.replaces);
    return writeCheckRun(gw, where, run, result, opts.replaces);
  });
}
