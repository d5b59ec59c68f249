/**
 * Where a review's analysis runs: the core's AnalysisSession (core/analyse.ts), fed a batch of descriptors at a
 * time, then finished. In this thread by default (the CLI's `pr`, tests); on the server and on Lambda in an
 * analysis thread (analysis-threads.ts), so that no descriptor keeps the event loop from answering webhooks
 * and `/healthz`, nor other installations' reviews from going on.
 */
import { AnalysisSession, type DescriptorInput, type FileFindings } from "../../core/analyse.js";
import type { ResolvedConfig } from "../../core/config.js";

/** One review's analysis: its descriptors added as they are read, then every file's findings. */
export interface AnalysisRun {
  add(inputs: readonly DescriptorInput[]): Promise<void>;
  finish(): Promise<FileFindings[]>;
  /** The review ends without finishing (it failed, or ran out of time): nothing more is analysed for it. */
  close(): void;
}

export interface Analyser {
  start(config: ResolvedConfig): AnalysisRun;
}

/** The analysis in this thread, as the core runs it. */
export const IN_THIS_THREAD: Analyser = {
  start(config) {
    const session = new AnalysisSession(config);
    return {
      add: (inputs) => Promise.resolve(void session.add(inputs)),
      finish: () => Promise.resolve(session.finish()),
      close: () => undefined,
    };
  },
};
