/**
 * What `npm start` runs on top of Probot's own server and webhook middleware (Probot's `run()`): every
 * delivery is acknowledged as soon as its signature is verified, and reviewed in the background, a bounded
 * number at a time, each starting once no delivery is being answered (answers first, under a burst);
 * bodies over GitHub's 25 MB are refused before they are read; on shutdown the server stops taking
 * deliveries and finishes the reviews it has, for a while.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { run, type ApplicationFunction, type Probot } from "probot";
import { createApp } from "./app.js";
import { warmUpSchemas } from "./core/schema.js";
import { PluginReviewOctokit } from "./github/api/octokit/app-octokit.js";
import { REAL_TIME, type Clock } from "./github/api/clock.js";
import { ReviewScheduler, type SchedulerLog } from "./github/delivery/scheduler.js";
import { AnswersFirst } from "./github/delivery/serialize.js";

/** GitHub never sends a webhook body larger than this (it caps payloads at 25 MB). */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;
/** Reviews at once: enough to keep every installation's write queue busy, few enough to bound memory. */
export const REVIEW_CONCURRENCY = 16;
/** How long a shutdown (SIGTERM) waits for the reviews in flight. */
export const SHUTDOWN_GRACE_MS = 25_000;

/**
 * Reads a POST body up to `limit` bytes and hands it to Probot's middleware as `req.body` (which it then
 * takes instead of reading the stream); answers 413 to a larger one, at once when Content-Length says so,
 * else as soon as the bytes read pass the limit, and closes the connection. True when it refused.
 */
export async function refuseOversized(
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
  limit = MAX_WEBHOOK_BYTES,
): Promise<boolean> {
  if (req.method !== "POST") return false;
  const refuse = () => {
    res
      .writeHead(413, { "content-type": "application/json", connection: "close" })
      .end(JSON.stringify({ error: `webhook body over ${limit} bytes` }));
    // Nothing more of the body is read: the connection closes once the answer is out.
    res.once("finish", () => req.destroy());
    return true;
  };
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return refuse();
  const chunks: Buffer[] = [];
  let seen = 0;
  const within = await new Promise<boolean>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= limit) return void chunks.push(chunk);
      req.off("data", onData);
      req.pause();
      chunks.length = 0;
      resolve(false);
    };
    req.on("data", onData);
    req.once("end", () => resolve(true));
    req.once("error", reject);
  });
  if (!within) return refuse();
  req.body = Buffer.concat(chunks).toString("utf8");
  return false;
}

/**
 * Puts the size check in front of the webhook middleware Probot's server takes from this instance, and
 * counts the deliveries being answered in `answers` (until the answer is written or the connection drops).
 */
function guardBodies(probot: Probot, answers?: AnswersFirst): void {
  const middleware = probot.getNodeMiddleware.bind(probot);
  probot.getNodeMiddleware = async (options) => {
    const handle = await middleware(options);
    return async (req: IncomingMessage, res: ServerResponse, next?: Parameters<typeof handle>[2]) => {
      if (answers) {
        const answered = answers.enter();
        res.once("finish", answered).once("close", answered);
      }
      return (await refuseOversized(req, res)) ? true : handle(req, res, next);
    };
  };
}

/**
 * The app as the server runs it: reviews go to `scheduler` (in the background), so the delivery's answer
 * does not wait for them; `answers` (the scheduler's gate before a review starts) is told which deliveries
 * are still being answered.
 */
export function serverApp(
  scheduler: ReviewScheduler,
  answers?: AnswersFirst,
  clock: Clock = REAL_TIME,
): ApplicationFunction {
  const app = createApp({ scheduler, clock });
  return (probot, options) => {
    guardBodies(probot, answers);
    return app(probot, options);
  };
}

/** The server's scheduler: reviews in the background, `concurrency` at a time, each once deliveries are answered. */
export function serverScheduler(
  answers: AnswersFirst,
  log: SchedulerLog,
  concurrency = REVIEW_CONCURRENCY,
  clock: Clock = REAL_TIME,
): ReviewScheduler {
  return new ReviewScheduler({
    background: { concurrency, beforeStart: () => answers.quiet() },
    log,
    clock,
  });
}

export interface RunningServer {
  scheduler: ReviewScheduler;
  /** Stops taking deliveries, then waits for the reviews in flight (at most `graceMs`); false when some were cut off. */
  stop(graceMs?: number): Promise<boolean>;
}

export async function startServer(concurrency = REVIEW_CONCURRENCY): Promise<RunningServer> {
  // Compile the schemas before listening: done by the first review, it would hold up the first answers.
  warmUpSchemas();
  let log: Probot["log"] | undefined;
  const answers = new AnswersFirst();
  // Probot's log exists once `run` has loaded the app.
  const scheduler = serverScheduler(
    answers,
    { warn: (msg) => log?.warn(msg), error: (obj, msg) => log?.error(obj, msg) },
    concurrency,
  );
  const app = serverApp(scheduler, answers);
  const server = await run(
    (probot, options) => {
      log = probot.log;
      return app(probot, options);
    },
    { Octokit: PluginReviewOctokit },
  );
  return {
    scheduler,
    async stop(graceMs = SHUTDOWN_GRACE_MS) {
      const drained = scheduler.drain(graceMs);
      await server.stop().catch(() => undefined);
      return drained;
    },
  };
}
