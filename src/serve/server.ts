/**
 * What `npm start` runs on top of Probot's own server and webhook middleware (Probot's `run()`): every
 * delivery is acknowledged as soon as its signature is verified, and reviewed in the background, a bounded
 * number at a time, each starting once no delivery is being answered (answers first, under a burst);
 * nothing of a request is trusted before its signature is verified (guard.ts: what is no delivery by its
 * method, path and headers is refused unread, and unverified bodies share a bounded budget, read within
 * GitHub's own timeout); it refuses to start with an APP_ID and no WEBHOOK_SECRET; on shutdown it stops taking
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
import { SHUTDOWN_GRACE_MS } from "../github/time-budget.js";
import { ReceivingDeliveries } from "../github/delivery/terms.js";
import type { OperatorMetrics } from "../github/delivery/operator-metrics.js";
import { probotRecovery } from "../github/delivery/probot-recovery.js";
import { prometheusOperatorMetrics } from "./operator-metrics.js";
import { ReviewScheduler, type SchedulerLog } from "../github/delivery/scheduler.js";
import { AnswersFirst } from "../github/delivery/concurrency.js";
import { DeliveryStore } from "../github/delivery/store.js";
import { operatorEndpoints, setupModeEndpoints } from "./endpoints.js";
import { applyTimeouts, ByteBudget, webhookGuard } from "./guard.js";
import { aroundProbotStart } from "./probot-server.js";
import { setupChannel } from "./webhook-channel.js";
import {
  applyDotEnv,
  DEFAULT_UNVERIFIED_MB,
  DEFAULT_WEBHOOK_PATH,
  RECOVERY_INTERVAL_ENV,
  serverSettings,
  SettingsError,
} from "./settings.js";

/** Reviews at once: enough to keep every installation's write queue busy, few enough to bound memory. */
export const REVIEW_CONCURRENCY = 16;

/** What the server adds around the app's webhook route. */
export interface ServerAppOptions {
  /** What deliveries are signed with: checked before Probot's middleware sees a body. */
  secret: string;
  /** The webhook path (default: Probot's). */
  webhookPath?: string;
  /** Bytes of bodies held at once before their signature is verified (default: 64 MB). */
  unverifiedBytes?: number;
  /** How long a delivery's body may take to arrive (default: GitHub's 10 s). */
  bodyTimeoutMs?: number;
  /** Deliveries being answered, which reviews wait for (the scheduler's gate before a review starts). */
  answers?: AnswersFirst;
  clock?: Clock;
  /** Whether the server drains for a shutdown: deliveries are then refused (503), for the recovery to pick up. */
  draining?: () => boolean;
  operatorMetrics?: OperatorMetrics;
  journal?: DeliveryJournal;
  deliveries?: ReceivingDeliveries;
  /** Called with the Probot instance once the app is loaded (the server's recovery and endpoints). */
  onLoad?: (probot: Probot, addHandler: (handler: Handler) => void) => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/**
 * Puts the guard (guard.ts) in front of the webhook middleware Probot's server takes from this instance:
 * a request is refused before its body is read unless it is a delivery by its method, path and headers;
 * its body is read within the budget shared by unverified bodies and its signature checked; deliveries are
 * refused while the server drains (503: GitHub records the delivery as failed, and the recovery finds it
 * in GitHub's log after the restart). A delivery whose body is read counts in `answers` until answered.
 */
function guardBodies(probot: Probot, opts: ServerAppOptions): void {
  const middleware = probot.getNodeMiddleware.bind(probot);
  const budget = new ByteBudget(opts.unverifiedBytes ?? DEFAULT_UNVERIFIED_MB * 1024 * 1024);
  probot.getNodeMiddleware = async (options) => {
    const handle = await middleware(options);
    const guard = webhookGuard({
      secret: opts.secret,
      path: options?.path ?? opts.webhookPath ?? DEFAULT_WEBHOOK_PATH,
      budget,
      ...(opts.bodyTimeoutMs ? { bodyTimeoutMs: opts.bodyTimeoutMs } : {}),
      ...(opts.draining ? { draining: opts.draining } : {}),
      ...(opts.answers ? { answers: opts.answers } : {}),
    });
    return async (req: IncomingMessage, res: ServerResponse, next?: Parameters<typeof handle>[2]) =>
      (await guard(req, res)) || handle(req, res, next);
  };
}

/**
 * The app as the server runs it: reviews go to `scheduler` (in the background), so the delivery's answer
 * does not wait for them.
 */
export function serverApp(scheduler: ReviewScheduler, opts: ServerAppOptions): ApplicationFunction {
  const app = createApp({
    scheduler,
    clock: opts.clock ?? REAL_TIME,
    ...(opts.operatorMetrics ? { operatorMetrics: opts.operatorMetrics } : {}),
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
  applyDotEnv();
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
  const operatorMetrics = prometheusOperatorMetrics(() => scheduler.load);
  const deliveries = new ReceivingDeliveries();
  let draining = false;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  let store: DeliveryStore | undefined;
  let loaded = false;
  let operators: Handler | undefined;
  let setupLog: Probot["log"] | undefined;
  // Without credentials, the webhook proxy channel Probot's setup page registers the App with (or why none).
  const channel = await setupChannel(process.env);
  aroundProbotStart({
    handlers: () => [],
    // /healthz and /metrics answer before Probot's request log, which would log an intended 503 (setup mode,
    // draining) as an error with a stack trace: one line each. Probot's setup mode (no credentials) loads
    // no app: there they say so rather than 404.
    first: () => (loaded ? (operators ? [operators] : []) : [setupModeEndpoints()]),
    setup: (probotLog) => {
      setupLog = probotLog;
      if (channel.warning) probotLog.child({ name: "setup" }).warn(channel.warning);
    },
    log: () => log ?? setupLog,
    started: applyTimeouts,
  });
  // Probot loads the app only with credentials: its setup mode keeps no store and runs no recovery.
  const app: ApplicationFunction = (probot, options) => {
    loaded = true;
    // The settings refuse APP_ID without it; never Probot's default secret, whatever the way here.
    if (!settings.webhookSecret) throw new SettingsError("WEBHOOK_SECRET is not set");
    const opened = openStore(settings.stateDir);
    store = opened.store;
    return serverApp(scheduler, {
      secret: settings.webhookSecret,
      webhookPath: settings.webhookPath,
      unverifiedBytes: settings.unverifiedBytes,
      answers,
      draining: () => draining,
      operatorMetrics,
      deliveries,
      ...(store ? { journal: store } : {}),
      onLoad: (probot) => {
        log = probot.log;
        log.info(opened.note);
        for (const warning of store?.warnings ?? []) log.warn(warning);
        operators = operatorEndpoints({
          registry: operatorMetrics.registry,
          metricsToken: settings.metricsToken,
          draining: () => draining,
        });
        if (!settings.recovery) {
          log.warn(`recovery of missed deliveries is off (${RECOVERY_INTERVAL_ENV}=0)`);
          return;
        }
        const recovery = probotRecovery(probot, {
          ...(store ? { store } : {}),
          deliveries,
          windowMs: settings.recoveryWindowMs,
          operatorMetrics,
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
    })(probot, options);
  };
  const server = await run(app, {
    Octokit: PluginReviewOctokit.defaults({ pluginReview: { requestFailed: operatorMetrics.requestFailed } }),
    ...(channel.SmeeClient ? { SmeeClient: channel.SmeeClient } : {}),
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
