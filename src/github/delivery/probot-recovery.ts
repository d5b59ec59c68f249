/**
 * The recovery sweep (recovery.ts) wired to a Probot instance, as the server and the Lambda recovery
 * function run it: GitHub's delivery log read with the App's JWT, a head commit's run read with its
 * installation's token, and a missed delivery handed to the app as a retry (so that it reads what GitHub
 * holds before it writes), or wherever the entry point says (Lambda: the delivery queue).
 */
import type { Probot } from "probot";
import { gatewayFor, GraphqlAvailability } from "../api/gateway.js";
import type { Octokit } from "../api/octokit/octokit.js";
import { pullsNamedOn } from "../review/pipeline.js";
import { restDeliveryLog } from "../api/rest/delivery-log.js";
import { appIdOnce } from "../api/rest/app-identity.js";
import type { DeliveryTerms, ReceivingDeliveries } from "./terms.js";
import type { OperatorMetrics } from "./operator-metrics.js";
import { Recovery, type Delivery, type SweepReport } from "./recovery.js";
import type { DeliveryStore } from "./store.js";

export interface ProbotRecoveryOptions {
  store?: DeliveryStore;
  deliveries: ReceivingDeliveries;
  /** When the reviews of what it hands to the app must end (Lambda: before the invocation does). */
  endsBy?: () => number | undefined;
  windowMs: number;
  operatorMetrics: OperatorMetrics;
  /**
   * Where a missed delivery goes instead of this process's app (Lambda: the delivery queue, in the group
   * the receiver would have given it, so that it takes its head commit's turn beside the worker's reviews).
   */
  hand?: (delivery: Delivery) => Promise<void>;
}

/** A recovery whose `sweep` also counts what it handed to the app. */
export function probotRecovery(
  probot: Probot,
  opts: ProbotRecoveryOptions,
): { sweep(): Promise<SweepReport> } {
  const log = probot.log.child({ name: "recovery" });
  const availability = new GraphqlAvailability();
  const app = async () => (await probot.auth()) as unknown as Octokit;
  const appId = appIdOnce(app);
  const recovery = new Recovery({
    deliveryLog: restDeliveryLog(app),
    ...(opts.store ? { store: opts.store } : {}),
    windowMs: opts.windowMs,
    log: {
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      error: (o, m) => log.error(o, m),
    },
    async hasCompletedRun(head, pulls, askedAt) {
      if (head.installation === undefined) return false;
      // The App's own runs only (another app may use the name): its id, from its JWT, costs no request.
      const octokit = (await probot.auth(head.installation)) as unknown as Octokit;
      const gw = gatewayFor(octokit, { log, installation: head.installation, availability });
      const run = await gw.latestRun(
        { owner: head.owner, repo: head.repo, headSha: head.sha },
        await appId(),
      );
      if (run?.status !== "completed") return false;
      // A run completed when a Re-run was asked (GitHub's times, to the second) may predate it: redone.
      if (askedAt !== undefined && !(run.completedAt !== undefined && run.completedAt > askedAt))
        return false;
      const named = pullsNamedOn(run);
      return named.length === 0 || pulls.every((n) => named.includes(n));
    },
    receive:
      opts.hand ??
      ((d) =>
        opts.deliveries.during(d.id, recoveredTerms(opts.endsBy?.(), d.abandoned), () =>
          probot.receive({ id: d.id, name: d.name, payload: d.payload } as Parameters<Probot["receive"]>[0]),
        )),
  });
  return {
    async sweep() {
      const report = await recovery.sweep();
      if (report.resumed) opts.operatorMetrics.recovered("store", report.resumed);
      if (report.reviewed) opts.operatorMetrics.recovered("delivery-log", report.reviewed);
      return report;
    },
  };
}

/** A recovered delivery is a retry (its review reads what GitHub holds before it writes) and yields to live ones. */
function recoveredTerms(endsBy: number | undefined, abandoned: true | undefined): DeliveryTerms {
  return {
    attempt: 1,
    recovered: true,
    ...(endsBy !== undefined ? { endsBy } : {}),
    ...(abandoned ? { abandoned } : {}),
  };
}
