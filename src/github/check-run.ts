/**
 * The `plugin-review` check run: exactly one per analysed head commit (an existing one is reused on
 * redelivery and re-runs), `in_progress` while working, completed with every finding as annotations.
 */
import { ANNOTATIONS_PER_REQUEST, OUTPUT_LIMIT, type Annotation } from "./render.js";
import type { Octokit } from "./types.js";

export const CHECK_NAME = "plugin-review";

export interface CheckRunRef {
  owner: string;
  repo: string;
  id: number;
  /** False when this head commit had no plugin-review run before: nothing was analysed or posted for it yet. */
  existed: boolean;
}

/** Starts (or restarts) the check run for a head commit. */
export async function startCheckRun(
  octokit: Octokit,
  owner: string,
  repo: string,
  headSha: string,
  appId: number | undefined,
): Promise<CheckRunRef> {
  const { data } = await octokit.rest.checks.listForRef({
    owner,
    repo,
    ref: headSha,
    check_name: CHECK_NAME,
    filter: "latest",
    per_page: 100,
  });
  // Only our own runs: another app may use the same name.
  const existing = data.check_runs.find(
    (r) => r.head_sha === headSha && r.name === CHECK_NAME && (appId === undefined || r.app?.id === appId),
  );
  if (existing) {
    await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: existing.id,
      status: "in_progress",
      started_at: new Date().toISOString(),
    });
    return { owner, repo, id: existing.id, existed: true };
  }
  const { data: run } = await octokit.rest.checks.create({
    owner,
    repo,
    name: CHECK_NAME,
    head_sha: headSha,
    status: "in_progress",
    started_at: new Date().toISOString(),
  });
  return { owner, repo, id: run.id, existed: false };
}

export interface CheckResult {
  conclusion: "success" | "failure";
  title: string;
  summary: string;
  annotations: Annotation[];
}

/** Completes the run; annotations go in batches of 50 (GitHub's per-request limit), the last one completing it. */
export async function completeCheckRun(
  octokit: Octokit,
  run: CheckRunRef,
  result: CheckResult,
): Promise<void> {
  const output = { title: result.title.slice(0, 255), summary: result.summary.slice(0, OUTPUT_LIMIT) };
  const batches: Annotation[][] = [];
  for (let i = 0; i < result.annotations.length; i += ANNOTATIONS_PER_REQUEST) {
    batches.push(result.annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  }
  // All but the last batch while still in progress; annotations accumulate across updates.
  for (const batch of batches.slice(0, -1)) {
    await octokit.rest.checks.update({
      owner: run.owner,
      repo: run.repo,
      check_run_id: run.id,
      output: { ...output, annotations: batch },
    });
  }
  const last = batches[batches.length - 1];
  await octokit.rest.checks.update({
    owner: run.owner,
    repo: run.repo,
    check_run_id: run.id,
    status: "completed",
    conclusion: result.conclusion,
    completed_at: new Date().toISOString(),
    output: last ? { ...output, annotations: last } : output,
  });
}
