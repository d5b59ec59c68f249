/**
 * Pure parts of the webhook receiver: signature check on the raw body, which events to keep, and the
 * slim message put on the queue (SQS messages are limited to 256 KB; webhook payloads are not).
 */
import { createHash } from "node:crypto";
import { isHandled, slimPayload } from "../github/delivery/events.js";
import { verifySignature } from "../github/delivery/signature.js";

type Json = Record<string, unknown>;

export interface QueuedDelivery {
  id: string;
  name: string;
  payload: Json;
}

export type Verdict =
  | { status: 400 | 401; reason: string }
  | { status: 200; reason: string }
  | { status: 202; delivery: QueuedDelivery; group: string };

type Headers = Record<string, string | undefined>;

/**
 * A request that cannot be a delivery by its headers alone, refused before its body or the secret is read;
 * undefined when it may be one.
 */
export function refuseByHeaders(headers: Headers): (Verdict & { status: 400 | 401 }) | undefined {
  if (!headers["x-github-event"] || !headers["x-github-delivery"])
    return { status: 400, reason: "missing X-GitHub-Event or X-GitHub-Delivery header" };
  if (!headers["x-hub-signature-256"]) return { status: 401, reason: "missing X-Hub-Signature-256 header" };
  return undefined;
}

/** Decides what to do with one HTTP delivery. Header names are lower-case (API Gateway v2 lower-cases them). */
export function judgeDelivery(secret: string, headers: Headers, rawBody: Buffer): Verdict {
  const refused = refuseByHeaders(headers);
  if (refused) return refused;
  const name = headers["x-github-event"]!;
  const id = headers["x-github-delivery"]!;
  if (!verifySignature(secret, rawBody, headers["x-hub-signature-256"])) {
    return { status: 401, reason: "signature does not match (X-Hub-Signature-256)" };
  }
  let payload: Json;
  try {
    payload = JSON.parse(rawBody.toString("utf8")) as Json;
  } catch {
    return { status: 400, reason: "body is not JSON" };
  }
  if (typeof payload !== "object" || payload === null)
    return { status: 400, reason: "body is not a JSON object" };
  if (name === "ping") return { status: 200, reason: "pong" };
  if (!isHandled(name, payload)) return { status: 200, reason: `ignored: ${name}.${String(payload.action)}` };
  const slim = slimPayload(name, payload);
  return { status: 202, delivery: { id, name, payload: slim }, group: deliveryGroup(name, slim, id) };
}

/**
 * The message group of delivery `id` of event `name`, its payload slimmed (slimPayload): the receiver's,
 * and the recovery's for a delivery that never reached the receiver (recovery.ts), so that both queue it
 * where the head's other deliveries wait.
 */
export function deliveryGroup(name: string, slim: Json, id: string): string {
  const repo = (slim.repository as Json | undefined)?.full_name ?? "unknown";
  // One FIFO group per head commit, as the server reviews a commit's deliveries one at a time: SQS holds a
  // group's later messages back while one is handled or waits for its retry, and runs other groups in
  // parallel. By commit, not by pull request: one check run serves every pull request of a head, and two
  // of them reviewed at once could each write over the other's result (a second pull request from the same
  // branch, into a branch where its change passes, racing the first's failure). A push's
  // `pull_request.synchronize` and `check_suite.requested` name the same head; an `edited` that moved the
  // base keeps it. A recheck comment names no commit: its pull request's group.
  const event = slim[name] as Json | undefined;
  const headSha = ((slim.pull_request as Json | undefined)?.head as Json | undefined)?.sha ?? event?.head_sha;
  const number = (slim.issue as Json | undefined)?.number;
  // Its review is queued in its head's group by the worker, once it has read that head (worker.ts).
  return typeof headSha === "string"
    ? headGroup(repo, headSha)
    : queueGroup(number !== undefined ? `${String(repo)}#${String(number)}` : `${String(repo)}@${id}`);
}

/**
 * The message group of a head commit's deliveries: `repo` is the queued payload's `repository.full_name`.
 * The worker queues a recheck's review in it too, so both must compute it here.
 */
export function headGroup(repo: unknown, headSha: string): string {
  return queueGroup(`${String(repo)}@${headSha}`);
}

/** SQS's longest message group id. */
const GROUP_MAX = 128;

/**
 * The message group id of a group key (or a deduplication id): the key itself where SQS takes it, else its
 * digest. A repository's full name may be 140 characters (a 39-character owner, a 100-character name), and
 * SQS refuses the message of a longer id: every delivery of that repository would fail.
 */
export function queueGroup(key: string): string {
  return key.length <= GROUP_MAX ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;
}
