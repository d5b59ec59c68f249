/**
 * The second stage of a review (pipeline.ts): the core's analysis of the descriptors, a batch at a time as
 * the first stage reads them (the session keeps their findings, not their texts: a review's memory does not
 * grow with the pull request), and the verdict.
 */
import { AnalysisSession, type FileFindings } from "../../core/analyse.js";
import type { ResolvedConfig } from "../../core/config.js";
import { NOT_AN_EXTENSION, NOT_EXTENSIONS } from "../../core/ef2/extension-document.js";
import { checkConclusion } from "../../core/verdict.js";
import { quote } from "../../format/markdown.js";
import type { CollectedInputs, DescriptorsRead } from "./read-inputs.js";

/** What the check run and the pull request's review are written from. */
export interface Analysis extends CollectedInputs {
  config: ResolvedConfig;
  /** Each reviewed descriptor's findings, in the order read. */
  reviews: FileFindings[];
  conclusion: "success" | "neutral" | "failure";
}

export async function analyseInputs(read: DescriptorsRead): Promise<Analysis> {
  const { config, batches } = read;
  const session = new AnalysisSession(config);
  let next = await batches.next();
  for (; !next.done; next = await batches.next()) session.add(next.value);
  // Another tool's extension.yaml (core/ef2/extension-document.ts) is no descriptor of the review: said, not shown.
  const analysed = session.finish();
  const reviews = analysed.filter((r) => !r.notAnExtension);
  const others = analysed.filter((r) => r.notAnExtension).map((r) => r.path);
  const collected = next.value;
  if (others.length)
    collected.notes.push(
      `${others.map(quote).join(", ")}: ${others.length === 1 ? NOT_AN_EXTENSION : NOT_EXTENSIONS}.`,
    );
  const conclusion = checkConclusion(
    reviews.flatMap((r) => r.findings),
    config,
    collected.notReviewed,
  );
  return { ...collected, config, reviews, conclusion };
}
