/**
 * Pure parts of the webhook receiver: signature check on the raw body, which events to keep, and the
 * slim message put on the queue (SQS messages are limited to 256 KB; webhook payloads are not).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { isHandled } from "../github/delivery/events.js";

/** `X-Hub-Signature-256` is `sha256=` and the hex HMAC of the exact bytes GitHub sent. */
export function verifySignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || !header.startsWith("sha256=")) return false;
  const expected = Buffer.from("sha256=" + createHmac("sha256", secret).update(body).digest("hex"));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type Json = Record<string, unknown>;
const pick = (o: unknown, keys: string[]): Json | undefined => {
  if (typeof o !== "object" || o === null) return undefined;
  const out: Json = {};
  for (const k of keys) if (k in o) out[k] = (o as Json)[k];
  return out;
};

function slimRepo(r: unknown): Json | undefined {
  const repo = pick(r, ["id", "name", "full_name"]);
  if (repo) repo.owner = pick((r as Json).owner, ["login", "type", "id"]);
  return repo;
}

function slimPull(p: unknown): Json | undefined {
  const pr = pick(p, ["number", "id", "draft", "state"]);
  if (!pr) return undefined;
  const ref = (side: unknown) => {
    const s = pick(side, ["sha", "ref"]);
    if (s) s.repo = (side as Json).repo ? slimRepo((side as Json).repo) : null;
    return s;
  };
  pr.head = ref((p as Json).head);
  pr.base = ref((p as Json).base);
  return pr;
}

/** What the worker needs of a payload: the fields app.ts reads, nothing else (keeps messages small). */
export function slimPayload(name: string, payload: Json): Json {
  const out: Json = {
    action: payload.action,
    installation: pick(payload.installation, ["id", "app_id"]),
    repository: slimRepo(payload.repository),
  };
  if (name === "pull_request") {
    out.number = payload.number;
    out.pull_request = slimPull(payload.pull_request);
    // An edit is reviewed only when it changed the base branch: keep that, not the edited title or body.
    const base = (payload.changes as Json | undefined)?.base;
    if (base !== undefined) out.changes = { base };
  }
  if (name === "merge_group")
    out.merge_group = pick(payload.merge_group, ["head_sha", "head_ref", "base_sha", "base_ref"]);
  for (const key of ["check_run", "check_suite"] as const) {
    if (name !== key) continue;
    const c = payload[key] as Json | undefined;
    out[key] = {
      ...pick(c, ["id", "head_sha", "name"]),
      app: pick(c?.app, ["id", "slug"]),
      pull_requests: (Array.isArray(c?.pull_requests) ? c.pull_requests : []).map(slimPull),
    };
  }
  return out;
}

export interface QueuedDelivery {
  id: string;
  name: string;
  payload: Json;
}

export type Verdict =
  | { status: 400 | 401; reason: string }
  | { status: 200; reason: string }
  | { status: 202; delivery: QueuedDelivery; group: string };

/** Decides what to do with one HTTP delivery. Header names are lower-case (API Gateway v2 lower-cases them). */
export function judgeDelivery(
  secret: string,
  headers: Record<string, string | undefined>,
  rawBody: Buffer,
): Verdict {
  const name = headers["x-github-event"];
  const id = headers["x-github-delivery"];
  if (!name || !id) return { status: 400, reason: "missing X-GitHub-Event or X-GitHub-Delivery header" };
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
  const repo = (slim.repository as Json | undefined)?.full_name ?? "unknown";
  // One FIFO group per pull request, else per head commit (merge groups): its deliveries are processed in
  // order (SQS holds a group's later messages back while one is being handled or waits for its retry),
  // others in parallel. A push's `check_suite.requested` names its pull request, so it lands in the
  // same group as the push's `pull_request.synchronize` and the two never run at once.
  const stubs = (slim[name] as Json | undefined)?.pull_requests as Json[] | undefined;
  const number = (slim.pull_request as Json | undefined)?.number ?? stubs?.[0]?.number;
  const headSha = (slim[name] as Json | undefined)?.head_sha;
  const group =
    number !== undefined ? `${String(repo)}#${String(number)}` : `${String(repo)}@${String(headSha ?? id)}`;
  return { status: 202, delivery: { id, name, payload: slim }, group };
}
