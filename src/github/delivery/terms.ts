/**
 * The terms a delivery is reviewed on, as its entry point knows them: which try it is and when its reviews
 * must end. The Lambda worker knows both from the queue's message and the invocation; the server's
 * deliveries are first tries with the review's own deadline. Probot hands the app only the delivery's id,
 * name and payload, so the entry point registers the terms by delivery id around `probot.receive`, and the
 * app (app.ts) reads them from there, once, when it schedules the review. (Not "context": that is Probot's
 * event, and the Lambda runtime's invocation.)
 */
import type { PullTarget } from "../api/port.js";

export interface DeliveryTerms {
  /** How many times this delivery was tried before (a retry then finds what an earlier try wrote). */
  attempt: number;
  /** When (epoch ms) the reviews it starts must end at the latest (the Lambda invocation, less a margin). */
  endsBy?: number;
  /** Handed to the App by the recovery (its reviews yield to live deliveries' for a slot). */
  recovered?: boolean;
  /**
   * Not to be reviewed: the server died while reviewing it, again and again (recovery.ts). Its check run is
   * completed as `failure`, saying it could not be reviewed.
   */
  abandoned?: true;
  /**
   * The last try: the queue gives the delivery up after it (Lambda's dead-letter queue). A run that is not
   * completed yet is completed as `failure` before the review starts, so that a try that dies again (the
   * worker out of memory, killed) leaves a failing run rather than a check that waits forever.
   */
  lastTry?: true;
  /**
   * A recheck whose asker was allowed and whose pull request's head was read by an earlier message, which
   * queued this one in that head's group (the Lambda worker): the pull request is reviewed at that head now.
   */
  recheckOf?: PullTarget;
}

/** A first try, with no end but the review's own deadline. */
const FIRST_TRY: DeliveryTerms = { attempt: 0 };

/** The deliveries being received, each with its terms, by delivery id. */
export class ReceivingDeliveries {
  private readonly byId = new Map<string, DeliveryTerms>();

  /** Runs `receive` (the delivery's handling) with `terms` registered for delivery `id`. */
  async during<T>(id: string, terms: DeliveryTerms, receive: () => Promise<T>): Promise<T> {
    this.byId.set(id, terms);
    try {
      return await receive();
    } finally {
      this.byId.delete(id);
    }
  }

  /** The delivery's terms: those registered for it, or a first try's. */
  termsOf(id: string): DeliveryTerms {
    return this.byId.get(id) ?? FIRST_TRY;
  }
}
