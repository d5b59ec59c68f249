/**
 * What `npm start` runs on top of Probot's own server and webhook middleware (Probot's `run()`): every
 * delivery is acknowledged as soon as its signature is verified, and reviewed in the background, a bounded
 * number at a time, each starting once no delivery is being answered (answers first, under a burst);
 * bodies over GitHub's 25 MB are refused before they are read; on shutdown the server stops taking
 * deliveries (503) and finishes the reviews it has, for a while. What it takes is kept on disk until done
 * (its store), and at start and every few minutes it recovers what it missed (the recovery sweep), so that
 * a crash, a deploy or downtime leaves no commit without its check run. `/healthz` and `/metrics` are for
 * its operators.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { run, type ApplicationFunction, type Probot } from "probot";
import { createApp, type DeliveryJournal } from "../github/delivery/app.js";
import { warmUpSchemas } from "../core/schema.js";
import { PluginReviewOctokit } from "../github/api/octokit/app-octokit.js";
import { REAL_TIME, type Clock } from "../github/api/clock.js";
import { DeliveryContexts } from "../github/delivery/context.js";
import type { AppMetrics } from "../github/delivery/metrics.js";
import { probotRecovery } from "../github/delivery/probot-recovery.js";
import { prometheusMetrics } from "./metrics.js";
import { ReviewScheduler, type SchedulerLog } from "../github/delivery/scheduler.js";
import { AnswersFirst } from "../github/delivery/serialize.js";
import { DeliveryStore } from "../github/delivery/store.js";
import { operatorEndpoints } from "./endpoints.js";
import { RECOVERY_INTERVAL_ENV, serverSettings } from "./settings.js";

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

/** What the server adds around the app's webhook route. */
export interface ServerAppOptions {
  /** Deliveries being answered, which reviews wait for (the scheduler's gate before a review starts). */
  answers?: AnswersFirst;
  clock?: Clock;
  /** Whether the server drains for a shutdown: deliveries are then refused (503), for the recovery to pick up. */
  draining?: () => boolean;
  metrics?: AppMetrics;
  journal?: DeliveryJournal;
  deliveries?: DeliveryContexts;
  /** Called with the Probot instance once the app is loaded (the server's recovery and endpoints). */
  onLoad?: (probot: Probot, addHandler: (handler: Handler) => void) => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/**
 * Puts the size check in front of the webhook middleware Probot's server takes from this instance, counts
 * the deliveries being answered in `answers` (until the answer is written or the connection drops), and
 * refuses deliveries while the server drains (503: GitHub records the delivery as failed, and the recovery
 * finds it in GitHub's log after the restart).
 */
function guardBodies(probot: Probot, opts: ServerAppOptions): void {
  const middleware = probot.getNodeMiddleware.bind(probot);
  probot.getNodeMiddleware = async (options) => {
    const handle = await middleware(options);
    return async (req: IncomingMessage, res: ServerResponse, next?: Parameters<typeof handle>[2]) => {
      if (req.method === "POST" && opts.draining?.()) {
        res
          .writeHead(503, { "content-type": "application/json", connection: "close", "retry-after": "30" })
          .end(
            JSON.stringify({
              error: "shutting down: this delivery is not taken; the App recovers it after its restart",
            }),
          );
        return true;
      }
      if (opts.answers) {
        const answered = opts.answers.enter();
        res.once("finish", answered).once("close", answered);
      }
      return (await refuseOversized(req, res)) ? true : handle(req, res, next);
    };
  };
}

/**
 * The app as the server runs it: reviews go to `scheduler` (in the background), so the delivery's answer
 * does not wait for them.
 */
export function serverApp(scheduler: ReviewScheduler, opts: ServerAppOptions = {}): ApplicationFunction {
  const app = createApp({
    scheduler,
    clock: opts.clock ?? REAL_TIME,
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    ...(opts.journal ? { journal: opts.journal } : {}),
    ...(opts.deliveries ? { deliveries: opts.deliveries } : {}),
  });
  return (probot, options) => {
    guardBodies(probot, opts);
    const loaded = app(probot, options);
    opts.onLoad?.(probot, (handler) => options.addHandler(handler as never));
    return loaded;
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
  /**
   * Stops taking deliveries (503), stops the recovery, then waits for the reviews in flight (at most
   * `graceMs`); false when some were cut off.
   */
  stop(graceMs?: number): Promise<boolean>;
}

/** The store, or none (logged) when its directory cannot be written: GitHub's delivery log alone then. */
function openStore(dir: string | undefined): { store?: DeliveryStore; note: string } {
  if (!dir)
    return { note: "no store (PLUGIN_REVIEW_STATE_DIR=off): recovery relies on GitHub's delivery log alone" };
  try {
    return { store: DeliveryStore.open(dir), note: `deliveries kept in ${dir} until their review is done` };
  } catch (e) {
    return {
      note: `cannot keep deliveries in ${dir} (${(e as Error).message}): a review cut short by a crash is recovered only when GitHub's log shows its delivery failed`,
    };
  }
}

export async function startServer(concurrency = REVIEW_CONCURRENCY): Promise<RunningServer> {
  const settings = serverSettings(process.env);
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
  const metrics = prometheusMetrics(() => scheduler.load);
  const { store, note } = openStore(settings.stateDir);
  const deliveries = new DeliveryContexts();
  let draining = false;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  const app = serverApp(scheduler, {
    answers,
    draining: () => draining,
    metrics,
    deliveries,
    ...(store ? { journal: store } : {}),
    onLoad: (probot, addHandler) => {
      log = probot.log;
      log.info(note);
      addHandler(
        operatorEndpoints({
          registry: metrics.registry,
          metricsToken: settings.metricsToken,
          draining: () => draining,
        }),
      );
      if (!settings.recovery) {
        log.warn(`recovery of missed deliveries is off (${RECOVERY_INTERVAL_ENV}=0)`);
        return;
      }
      const recovery = probotRecovery(probot, {
        ...(store ? { store } : {}),
        deliveries,
        windowMs: settings.recoveryWindowMs,
        metrics,
      });
      const sweep = () => {
        if (draining) return;
        sweeping = recovery.sweep().catch((e: unknown) => log?.error({ err: e }, "recovery sweep failed"));
      };
      // At start (once the server listens: deliveries are taken meanwhile), then periodically.
      setImmediate(sweep);
      timer = setInterval(sweep, settings.recoveryIntervalMs);
      timer.unref();
    },
  });
  const server = await run(app, {
    Octokit: PluginReviewOctokit.defaults({ pluginReview: { requestFailed: metrics.requestFailed } }),
  });
  return {
    scheduler,
    async stop(graceMs = SHUTDOWN_GRACE_MS) {
      draining = true;
      log?.info(
        `shutting down: deliveries are refused (503) from now on, the recovery picks them up after the restart; finishing the reviews in flight (at most ${graceMs / 1000} s)`,
      );
      clearInterval(timer);
      const drained = scheduler.drain(graceMs);
      await Promise.race([sweeping, new Promise((r) => setTimeout(r, graceMs).unref())]);
      await server.stop().catch(() => undefined);
      const done = await drained;
      store?.close();
      return done;
    },
  };
}
