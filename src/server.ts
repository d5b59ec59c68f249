/**
 * `npm start`: the App as a standard Probot server. Probot reads its environment (APP_ID, PRIVATE_KEY or
 * PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST, WEBHOOK_PATH, LOG_LEVEL, GHE_HOST, GHE_PROTOCOL, …) and,
 * without credentials, serves its setup page that registers the app from app.yml.
 */
import { run } from "probot";
import app from "./app.js";
import { PluginReviewOctokit } from "./github/octokit.js";

await run(app, { Octokit: PluginReviewOctokit });
