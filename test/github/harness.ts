/** Drives the real app through Probot with real webhook payloads from @octokit/webhooks-examples. */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { pino } from "pino";
import { Probot, type ApplicationFunction } from "probot";
import { PluginReviewOctokit } from "../../src/github/api/octokit/app-octokit.js";
import { createApp, type AppOptions } from "../../src/app.js";
import { REAL_TIME, scaledClock, type Clock } from "../../src/github/api/clock.js";
import { ReceivingDeliveries, type DeliveryTerms } from "../../src/github/delivery/terms.js";
import { APP_ID, type FakeGitHub } from "./fake-github.js";

const examples = (
  await import("@octokit/webhooks-examples/api.github.com/index.json", { with: { type: "json" } })
).default as unknown as {
  name: string;
  examples: Record<string, unknown>[];
}[];

const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs1", format: "pem" })
  .toString();

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

/** The App's Octokit with retries that do not wait and no write throttling (tests only). */
export const FastOctokit = PluginReviewOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  retry: { ...(options.retry as object), retryAfterBaseValue: 1 },
  throttle: { ...(options.throttle as object), enabled: false },
})) as typeof PluginReviewOctokit;

/** Signs a test RSA key for the App (generated per run). */
export const TEST_PRIVATE_KEY = privateKey;

/**
 * A Probot instance with the app loaded; logs are captured (and checked for secrets by the tests).
 * `timeScale`: the App's clock runs its waits at this fraction of real time (api/clock.ts); `deliveries`:
 * what the entry point says of each delivery (deliverWith).
 */
export function makeProbot(
  opts: {
    productionThrottling?: boolean;
    /** Another app than createApp's (its own deliveries and clock). */
    app?: ApplicationFunction;
    /** createApp's further options; the app still reads `deliveries` and runs on the test's clock. */
    appOptions?: AppOptions;
    timeScale?: number;
    /** GitHub Enterprise Server's API (`https://<host>/api/v3`), as Probot takes it from GHE_HOST. */
    baseUrl?: string;
  } = {},
): {
  probot: Probot;
  logs: LogLine[];
  deliveries: ReceivingDeliveries;
} {
  const clock: Clock = opts.timeScale === undefined ? REAL_TIME : scaledClock(opts.timeScale);
  const deliveries = new ReceivingDeliveries();
  const logs: LogLine[] = [];
  const stream = { write: (s: string) => void logs.push(JSON.parse(s) as LogLine) };
  const probot = new Probot({
    appId: APP_ID,
    privateKey,
    // Retries stay on (a 500 is retried) but without waiting; Probot's write throttling (1 s between writes)
    // is switched off here only to keep the tests fast. Probot sets its throttle options over any static
    // default, so the override is a function applied last.
    Octokit: opts.productionThrottling ? PluginReviewOctokit : FastOctokit,
    log: pino({ level: "debug" }, stream),
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
  } as ConstructorParameters<typeof Probot>[0]);
  void probot.load(opts.app ?? createApp({ clock, deliveries, ...opts.appOptions }));
  return { probot, logs, deliveries };
}

/** Webhook payloads are edited freely by the tests; their full types would only get in the way. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Payload = Record<string, any>;

/** A deep copy of the first real example payload of an event and action. */
export function example(name: string, action: string): Payload {
  const group = examples.find((e) => e.name === name);
  const found = group?.examples.find((x) => x.action === action);
  if (!found) throw new Error(`no example payload for ${name}.${action}`);
  return structuredClone(found) as Payload;
}

export const OWNER = "acme";
export const REPO = "plugins";
export const BASE_SHA = "b".repeat(40);
export const HEAD_SHA = "c".repeat(40);

/** The real `pull_request.<action>` example, pointed at our repository and commits, as an installation receives it. */
export function pullRequestPayload(
  action = "opened",
  opts: { headSha?: string; fork?: string; ownerType?: string; number?: number } = {},
) {
  const p = example("pull_request", action);
  p.installation = { id: 77, node_id: "MDIz" };
  p.repository.name = REPO;
  p.repository.full_name = `${OWNER}/${REPO}`;
  p.repository.owner.login = OWNER;
  p.repository.owner.type = opts.ownerType ?? "Organization";
  const pr = p.pull_request;
  pr.number = p.number = opts.number ?? 7;
  pr.base.sha = BASE_SHA;
  pr.base.repo = structuredClone(p.repository);
  pr.head.sha = opts.headSha ?? HEAD_SHA;
  pr.head.repo = structuredClone(p.repository);
  if (opts.fork) {
    pr.head.repo.owner.login = opts.fork;
    pr.head.repo.name = REPO;
    pr.head.repo.full_name = `${opts.fork}/${REPO}`;
    pr.head.repo.fork = true;
  }
  return p;
}

/**
 * `pull_request.edited` for a pull request moved to another base branch (`changes` as GitHub sends them),
 * now based on `baseSha`. @octokit/webhooks-examples has no `edited` example, so the real `opened` one is
 * turned into an edit with GitHub's `changes` shape.
 */
export function editedPayload(changes: Record<string, unknown>, baseSha: string): Payload {
  const p = pullRequestPayload("opened");
  p.action = "edited";
  p.changes = changes;
  p.pull_request.base.sha = baseSha;
  return p;
}

/** A diff that adds every line of `content` (a new file: every finding is on a line of the diff). */
export function addedPatch(content: string): string {
  const lines = content.replace(/\n$/, "").split("\n");
  return `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`;
}

/** A diff that rewrites the whole file, so that every finding is on a line of the diff (and could be commented). */
export function rewritePatch(before: string, after: string): string {
  const a = before.replace(/\n$/, "").split("\n");
  const b = after.replace(/\n$/, "").split("\n");
  return `@@ -1,${a.length} +1,${b.length} @@\n${a.map((l) => `-${l}`).join("\n")}\n${b.map((l) => `+${l}`).join("\n")}`;
}

/** Pull request 7 adds `content` at `path`: among its files, and at its head commit. */
export function addedFile(gh: FakeGitHub, path: string, content: string): void {
  gh.prFiles.push({ filename: path, status: "added", patch: addedPatch(content) });
  gh.file(`${OWNER}/${REPO}`, HEAD_SHA, path, content);
}

export async function deliver(probot: Probot, name: string, payload: Record<string, unknown>): Promise<void> {
  await probot.receive({ id: randomUUID(), name, payload } as Parameters<Probot["receive"]>[0]);
}

/**
 * Delivers a webhook as an entry point that knows more of it does (the Lambda worker): `terms` says which
 * try it is and when its reviews must end.
 */
export async function deliverWith(
  probot: Probot,
  deliveries: ReceivingDeliveries,
  terms: DeliveryTerms,
  name: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const id = randomUUID();
  await deliveries.during(id, terms, () =>
    probot.receive({ id, name, payload } as Parameters<Probot["receive"]>[0]),
  );
}

/** A push to pull request 7: GitHub's pull request moves to `sha`, then the push's `synchronize` is delivered. */
export async function deliverPush(probot: Probot, gh: FakeGitHub, sha: string): Promise<void> {
  gh.push(7, sha);
  await deliver(probot, "pull_request", pullRequestPayload("synchronize", { headSha: sha }));
}

/**
 * The real `check_suite.<action>` example of the app's own suite on pull request 7's head commit (every push
 * sends `check_suite.requested` beside `pull_request.synchronize`), in the repository of `pr`.
 */
export function checkSuitePayload(pr: Payload, action = "requested"): Payload {
  const suite = example("check_suite", action);
  suite.installation = { id: 77 };
  suite.repository = pr.repository;
  suite.check_suite.head_sha = HEAD_SHA;
  suite.check_suite.app.id = APP_ID;
  suite.check_suite.pull_requests = [
    {
      number: 7,
      id: 1,
      url: "",
      head: { sha: HEAD_SHA, ref: "x", repo: { id: 1, name: REPO, url: "" } },
      base: { sha: BASE_SHA, ref: "main", repo: { id: 1, name: REPO, url: "" } },
    },
  ];
  return suite;
}

/** The real `merge_group.checks_requested` example, pointed at our repository: the queue's head and base commits. */
export function mergeGroupPayload(opts: { headSha?: string; baseSha?: string } = {}) {
  const p = example("merge_group", "checks_requested");
  p.installation = { id: 77, node_id: "MDIz" };
  p.repository.name = REPO;
  p.repository.full_name = `${OWNER}/${REPO}`;
  p.repository.owner.login = OWNER;
  p.repository.owner.type = "Organization";
  p.merge_group.head_sha = opts.headSha ?? HEAD_SHA;
  p.merge_group.base_sha = opts.baseSha ?? BASE_SHA;
  return p;
}

/**
 * A request of the App's own, made with its JWT rather than for a review: an installation token, and the
 * App's own account (`GET /app`, once per process). The budget of a review (interfaces.md) counts neither.
 */
export const isAppRequest = (r: { method: string; path: string }): boolean =>
  /\/access_tokens$/.test(r.path) || (r.method === "GET" && r.path === "/app");

/**
 * A write as the App's budget counts it: a REST request other than GET, or a GraphQL mutation (a GraphQL
 * query is a read); the installation-token request is not counted.
 */
export const isWrite = (r: { method: string; path: string; body?: unknown }): boolean =>
  r.method !== "GET" &&
  !isAppRequest(r) &&
  !(
    r.path === "/graphql" && !/^\s*mutation\b/.test(String((r.body as { query?: string } | undefined)?.query))
  );

/** The writes among `requests`, as `METHOD /path` under the repository. */
export const writesIn = (requests: readonly { method: string; path: string; body?: unknown }[]): string[] =>
  requests.filter(isWrite).map((w) => `${w.method} ${w.path.replace(/\/repos\/[^/]+\/[^/]+/, "")}`);
