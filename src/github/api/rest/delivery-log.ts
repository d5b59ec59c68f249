/**
 * The App's webhook delivery log over REST (`GET /app/hook/deliveries`, `GET /app/hook/deliveries/{id}`),
 * read with the App's JWT: newest first, 100 a page, pages linked by cursor. GitHub keeps it for 3 days on
 * github.com; a GitHub Enterprise Server may not have it (404).
 */
import type { Octokit } from "../octokit/octokit.js";
import type { DeliveryAttempt, DeliveryLog, LoggedDelivery } from "../port.js";

interface ListedAttempt {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
}

/** `app`: the App's own Octokit (JWT), made when the log is first read. */
export function restDeliveryLog(app: () => Promise<Octokit>): DeliveryLog {
  return {
    async *attempts(since: number): AsyncIterable<DeliveryAttempt> {
      const appOctokit = await app();
      const pages = appOctokit.paginate.iterator("GET /app/hook/deliveries", { per_page: 100 });
      for await (const page of pages) {
        for (const a of page.data as ListedAttempt[]) {
          const deliveredAt = Date.parse(a.delivered_at);
          // Newest first: everything after the first older attempt is older still.
          if (deliveredAt < since) return;
          yield {
            id: a.id,
            guid: a.guid,
            deliveredAt,
            redelivery: a.redelivery,
            statusCode: a.status_code,
            event: a.event,
            action: a.action ?? null,
            installationId: a.installation_id ?? null,
          };
        }
      }
    },

    async delivery(attemptId: number): Promise<LoggedDelivery> {
      const { data } = await (
        await app()
      ).request("GET /app/hook/deliveries/{delivery_id}", {
        delivery_id: attemptId,
      });
      const payload = (data.request?.payload ?? {}) as Record<string, unknown>;
      return { guid: data.guid, name: data.event, payload };
    },
  };
}
