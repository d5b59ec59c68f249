/** The App's Probot in a Lambda function (the worker, the recovery), from the secrets and the environment. */
import { pino } from "pino";
import { Probot } from "probot";
import { createApp, type AppOptions } from "../app.js";
import { PluginReviewOctokit } from "../github/api/octokit/app-octokit.js";
import type { AppMetrics } from "../github/delivery/metrics.js";
import { loadSecrets } from "./secrets.js";

export async function lambdaProbot(fn: string, app: AppOptions, metrics: () => AppMetrics): Promise<Probot> {
  const { appId, privateKey } = await loadSecrets(["appId", "privateKey"]);
  const p = new Probot({
    appId: appId as string,
    privateKey: (privateKey as string).replace(/\\n/g, "\n"),
    Octokit: PluginReviewOctokit.defaults({
      pluginReview: { requestFailed: (status: string) => metrics().requestFailed(status) },
    }),
    log: pino({ level: process.env.LOG_LEVEL ?? "info", base: { fn } }),
    ...(process.env.GHE_HOST
      ? { baseUrl: `${process.env.GHE_PROTOCOL ?? "https"}://${process.env.GHE_HOST}/api/v3` }
      : {}),
  });
  await p.load(createApp(app));
  return p;
}
