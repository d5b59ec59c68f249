/** Real-shaped AWS events for the bundled handlers: API Gateway HTTP API (payload 2.0) and SQS. */
import { createHmac, randomUUID } from "node:crypto";

export const WEBHOOK_SECRET = "test-webhook-secret-not-real";

export function signedHttpEvent(
  name: string,
  payload: unknown,
  opts: { secret?: string; base64?: boolean; delivery?: string; signature?: string | null } = {},
) {
  const body = JSON.stringify(payload);
  const signature =
    opts.signature === undefined
      ? "sha256=" +
        createHmac("sha256", opts.secret ?? WEBHOOK_SECRET)
          .update(body)
          .digest("hex")
      : opts.signature;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "GitHub-Hookshot/abc123",
    "x-github-event": name,
    "x-github-delivery": opts.delivery ?? randomUUID(),
    "x-github-hook-id": "1",
  };
  if (signature !== null) headers["x-hub-signature-256"] = signature;
  return {
    version: "2.0",
    routeKey: "POST /api/github/webhooks",
    rawPath: "/api/github/webhooks",
    rawQueryString: "",
    headers,
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      domainName: "abc123.execute-api.us-east-1.amazonaws.com",
      http: {
        method: "POST",
        path: "/api/github/webhooks",
        protocol: "HTTP/1.1",
        sourceIp: "140.82.115.1",
        userAgent: "GitHub-Hookshot/abc123",
      },
      requestId: "req-1",
      routeKey: "POST /api/github/webhooks",
      stage: "$default",
      time: "21/Nov/2026:06:00:00 +0000",
      timeEpoch: 1795500000000,
    },
    body: opts.base64 ? Buffer.from(body).toString("base64") : body,
    isBase64Encoded: opts.base64 ?? false,
  };
}

export function sqsEvent(bodies: string[], receiveCount = 1) {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `msg-${i}-${randomUUID()}`,
      receiptHandle: `rh-${i}`,
      body,
      attributes: {
        ApproximateReceiveCount: String(receiveCount),
        SentTimestamp: "1795500000000",
        SenderId: "AIDAEXAMPLE",
        ApproximateFirstReceiveTimestamp: "1795500000001",
        MessageGroupId: "acme/plugins#7",
        MessageDeduplicationId: "d",
      },
      messageAttributes: {},
      md5OfBody: "",
      eventSource: "aws:sqs",
      eventSourceARN: "arn:aws:sqs:us-east-1:123456789012:plugin-review-prod-deliveries.fifo",
      awsRegion: "us-east-1",
    })),
  };
}
