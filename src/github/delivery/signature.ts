/**
 * GitHub's webhook signature, checked by whatever receives deliveries (the server's guard, the Lambda
 * receiver) on the exact bytes GitHub sent, before anything else of the body is read.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** `X-Hub-Signature-256` is `sha256=` and the hex HMAC of the exact bytes GitHub sent. */
export function verifySignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || !header.startsWith("sha256=")) return false;
  const expected = Buffer.from("sha256=" + createHmac("sha256", secret).update(body).digest("hex"));
  const given = Buffer.from(header);
  // The expected length is public (a sha256 in hex): comparing it first leaks nothing.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
