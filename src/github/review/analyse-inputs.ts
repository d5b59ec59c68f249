/**
 * The second stage of a review (pipeline.ts): the core's analysis of the descriptors, a batch at a time as
 * the first stage reads them (the session keeps their findings, not their texts: a review's memory does not
 * grow with the pull request), where the entry point runs it (analyser.ts: an analysis thread on the server
 * and on Lambda), and the verdict.
 */
import type { FileFindings } from "../../core/analyse.js";
import type { ResolvedConfig } from "../../core/config.js";
import { NOT_AN_EXTENSION, NOT_EXTENSIONS } from "../../core/ef2/extension-document.js";
import { checkConclusion } from "../../core/verdict.js";
import { IN_THIS_THREAD, type Analyser } from "./analyser.js";
import { quote } from "../../format/markdown.js";
import type { CollectedInputs, DescriptorsRead } from "./read-inputs.js";

/** What the check run and the pull request's review are written from. */
export interface Analysis extends CollectedInputs {
  config: ResolvedConfig;
  /** Each reviewed descriptor's findings, in the order read. */
  files: FileFindings[];
  conclusion: "success" | "neutral" | "failure";
}

export async function analyseInputs(
  read: DescriptorsRead,
  analyser: Analyser = IN_THIS_THREAD,
): Promise<Analysis> {
  const { config, batches } = read;
  const run = analyser.start(config);
  let analysed: FileFindings[];
  let next;
  try {
    next = await batches.next();
    for (; !next.done; next = await batches.next()) await run.add(next.value);
    analysed = await run.finish();
  } finally {
    run.close();
  }
  // Another tool's extension.yaml (core/ef2/extension-document.ts) is no descriptor of the review: said, not shown.
  const files = analysed.filter((r) => !r.notAnExtension);
  const others = analysed.filter((r) => r.notAnExtension).map((r) => r.path);
  const collected = next.value;
  if (others.length)
    collected.notes.push(
      `${others.map(quote).join(", ")}: ${others.length === 1 ? NOT_AN_EXTENSION : NOT_EXTENSIONS}.`,
    );
  const conclusion = checkConclusion(
    files.flatMap((r) => r.findings),
    config,
    collected.notReviewed,
  );
  return { ...collected, config, files, conclusion };
}
