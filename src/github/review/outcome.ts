/** What a review of a commit ends with: what its check run says, and what was posted on its pull request. */
import type { FileFindings } from "../../core/analyse.js";
import type { PublishResult } from "./pull-review/publish.js";

export interface ReviewOutcome {
  conclusion: "success" | "neutral" | "failure";
  files: FileFindings[];
  review?: PublishResult;
  error?: string;
}
