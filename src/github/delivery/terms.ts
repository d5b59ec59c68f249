/**
 * What an entry point knows of a delivery that decides how its review runs: which try it is and when its
 * reviews must end. The Lambda worker knows both from the queue's message and the invocation; the server's
 * deliveries are first tries with the review's own deadline. Probot hands the app only the delivery's id,
 * name and payload, so the entry point registers the context by delivery id around `probot.receive`, and
 * the app (app.ts) reads it from there, once, when it schedules the review.
 */
export interface DeliveryContext {
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
}

/** A first try, with no end but the review's own deadline. */
const FIRST_TRY: DeliveryContext = { attempt: 0 };

/** The contexts of the deliveries being received, by delivery id. */
export class DeliveryContexts {
  private readonly byId = new Map<string, DeliveryContext>();

  /** Runs `receive` (the delivery's handling) with `context` registered for delivery `id`. */
  async during<T>(id: string, context: DeliveryContext, receive: () => Promise<T>): Promise<T> {
    this.byId.set(id, context);
    try {
      return await receive();
    } finally {
      this.byId.delete(id);
    }
  }

  /** The delivery's context: the one registered for it, or a first try. */
  of(id: string): DeliveryContext {
    return this.byId.get(id) ?? FIRST_TRY;
  }
}
