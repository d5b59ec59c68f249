/**
 * The App in a Lambda container (the worker, the recovery): its Probot, from the secrets and the
 * environment, started at the first invocation (and again after a start that failed), and its metrics,
 * published as each invocation ends (CloudWatch EMF, emf.ts).
 */
import { pino } from "pino";
import { Probot } from "probot";
import { createApp } from "../github/delivery/app.js";
import { enterpriseApiUrl } from "../github/api/enterprise.js";
import type { Clock } from "../github/api/clock.js";
import { PluginReviewOctokit } from "../github/api/octokit/app-octokit.js";
import { AnalysisThreads } from "../github/review/pipeline.js";
import { ReceivingDeliveries } from "../github/delivery/terms.js";
import type { QueueRecheckReview } from "../github/delivery/review-jobs.js";
import { emfOperatorMetrics, type EmfOperatorMetrics } from "./emf.js";
import { loadSecrets } from "./secrets.js";
import { MARGIN_MS } from "../github/time-budget.js";

/** What the Lambda runtime passes as the handler's second argument (the part used here). */
export interface LambdaContext {
  getRemainingTimeInMillis(): number;
}

export interface LambdaApp {
  /** What the App reads of each delivery: which try it is, and when its reviews must end. */
  deliveries: ReceivingDeliveries;
  /** The figures counted in this container, published at the end of each invocation. */
  operatorMetrics: EmfOperatorMetrics;
  /** The started Probot (started now at the container's first invocation). */
  started(): Promise<Probot>;
  /** Runs an invocation's work, then publishes what it counted. */
  invocation<T>(run: () => Promise<T>): Promise<T>;
}

export function lambdaApp(
  fn: string,
  clock: Clock,
  opts: { queueRecheckReview?: QueueRecheckReview } = {},
): LambdaApp {
  const deliveries = new ReceivingDeliveries();
  // One per container: a container runs one invocation at a time, and publishing empties it.
  const operatorMetrics = emfOperatorMetrics(fn);
  let probot: Promise<Probot> | undefined;
  return {
    deliveries,
    operatorMetrics,
    started() {
      probot ??= start(fn, clock, deliveries, operatorMetrics, opts.queueRecheckReview).catch(
        (e: unknown) => {
          probot = undefined; // the next invocation tries again
          throw e;
        },
      );
      return probot;
    },
    async invocation(run) {
      try {
        return await run();
      } finally {
        operatorMetrics.publish();
      }
    },
  };
}

async function start(
  fn: string,
  clock: Clock,
  deliveries: ReceivingDeliveries,
  operatorMetrics: EmfOperatorMetrics,
  queueRecheckReview: QueueRecheckReview | undefined,
): Promise<Probot> {
  const baseUrl = enterpriseApiUrl(process.env);
  const { appId, privateKey } = await loadSecrets(["appId", "privateKey"]);
  const p = new Probot({
    appId: appId as string,
    privateKey: (privateKey as string).replace(/\\n/g, "\n"),
    Octokit: PluginReviewOctokit.defaults({ pluginReview: { requestFailed: operatorMetrics.requestFailed } }),
    log: pino({ level: process.env.LOG_LEVEL ?? "info", base: { fn } }),
    ...(baseUrl ? { baseUrl } : {}),
  });
  // The analysis in a thread of its own, bundled beside the function (scripts/bundle.mjs): its heap bounded
  // apart from the invocation's, so that a descriptor past it fails its review instead of the container.
  // One: a container runs one invocation at a time.
  const analyser = new AnalysisThreads({
    entry: new URL("./analysis-thread.mjs", import.meta.url),
    threads: 1,
    clock,
  });
  await p.load(
    createApp({
      clock,
      deliveries,
      operatorMetrics,
      analyser,
      ...(queueRecheckReview ? { queueRecheckReview } : {}),
    }),
  );
  return p;
}

/** When an invocation's reviews must end: before the invocation does, less the time budget's margin. */
export function reviewsEndBy(context: LambdaContext | undefined, clock: Clock): number | undefined {
  const left = context?.getRemainingTimeInMillis();
  return left === undefined ? undefined : Date.now() + left - clock.ms(MARGIN_MS);
}
