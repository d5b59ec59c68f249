/**
 * The second stage of a review (pipeline.ts): the core's analysis of the descriptors, a batch at a time as
 * the first stage reads them (the session keeps their findings, not their texts: a review's memory does not
 * grow with the pull request), where the entry point runs it (analyser.ts: an analysis thread on the server
 * and on Lambda), and the verdict.
 */
import type { FileFindings } from "../../core/analyse.js";
import type { ResolvedConfig } from "../../core/config.js";
import { checkConclusion } from "../../core/verdict.js";
import { IN_THIS_THREAD, type Analyser } from "./analyser.js";
import type { CollectedInputs, DescriptorsRead } from "./read-inputs.js";

/** What the check run and the pull request's review are written from. */
export interface Analysis extends CollectedInputs {
  config: ResolvedConfig;
  /** Each reviewed descriptor's findings, in the order read. */
  reviews: FileFindings[];
  conclusion: "success" | "neutral" | "failure";
}

export async function analyseInputs(
  read: DescriptorsRead,
  analyser: Analyser = IN_THIS_THREAD,
): Promise<Analysis> {
  const { config, batches } = read;
  const run = analyser.start(config);
  let reviews: FileFindings[];
  let next;
  try {
    next = await batches.next();
    for (; !next.done; next = await batches.next()) await run.add(next.value);
    reviews = await run.finish();
  } finally {
    run.close();
  }
  const collected = next.value;
  const conclusion = checkConclusion(
    reviews.flatMap((r) => r.findings),
    config,
    collected.notReviewed,
  );
  return { ...collected, config, reviews, conclusion };
}
