/**
 * Lambda behind `POST /api/github/webhooks`: verifies the signature on the raw body, drops events the
 * app does not handle, and enqueues the rest on the FIFO queue (deduplicated by delivery id), answering
 * well within GitHub's 10-second limit. No review logic here.
 */
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { logLine } from "./log.js";
import { loadSecrets } from "./secrets.js";
import { judgeDelivery, refuseByHeaders, type Verdict } from "./webhook.js";

export interface HttpEvent {
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
}

export interface HttpResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Exported, with the SSM client, so that tests can mock both inside the bundle (aws-sdk-client-mock). */
export const sqs = new SQSClient({});
export { clearSecretsCache, ssm } from "./secrets.js";

function reply(statusCode: number, body: Record<string, unknown>): HttpResult {
  return { statusCode, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

export async function handler(event: HttpEvent): Promise<HttpResult> {
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(event.headers ?? {})) headers[k.toLowerCase()] = v;
  const delivery = headers["x-github-delivery"];
  // Anyone can reach the URL: a request whose headers say it is no delivery costs neither the secret's read
  // nor the body's decoding. (The body itself is bounded by AWS: 6 MB per Lambda invocation.)
  let verdict: Verdict | undefined = refuseByHeaders(headers);
  if (!verdict) {
    let secret: string;
    try {
      // No secret, no delivery: never a default secret that anyone could sign with.
      secret = (await loadSecrets(["webhookSecret"])).webhookSecret as string;
    } catch (e) {
      logLine("error", "cannot read the webhook secret", { delivery, error: (e as Error).message });
      return reply(500, { error: "server misconfigured" });
    }
    const raw = Buffer.from(event.body ?? "", event.isBase64Encoded ? "base64" : "utf8");
    verdict = judgeDelivery(secret, headers, raw);
  }
  if (verdict.status !== 202) {
    logLine(verdict.status === 200 ? "info" : "warn", verdict.reason, {
      delivery,
      event: headers["x-github-event"],
      status: verdict.status,
    });
    return reply(verdict.status, { message: verdict.reason });
  }
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: process.env.QUEUE_URL,
      MessageBody: JSON.stringify(verdict.delivery),
      MessageGroupId: verdict.group,
      // GitHub redelivers with the same id: SQS drops the copy within its 5-minute window, and the app's
      // fingerprints make any later copy harmless.
      MessageDeduplicationId: verdict.delivery.id,
    }),
  );
  logLine("info", "queued", {
    delivery,
    event: `${verdict.delivery.name}.${String(verdict.delivery.payload.action)}`,
    group: verdict.group,
  });
  return reply(202, { queued: verdict.delivery.id });
}
