/**
 * The App's Octokit (the server, the Lambda worker): Probot's, whose throttling and retry plugins and
 * installation authentication stay on, with the settings of octokit.ts. Apart from octokit.ts so that the
 * CLI's bundle does not take in Probot.
 */
import { ProbotOctokit } from "probot";
import { withAppSettings } from "./octokit.js";

export const PluginReviewOctokit: typeof ProbotOctokit = withAppSettings(ProbotOctokit);
