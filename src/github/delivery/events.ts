/**
 * The webhook events the App acts on (app.ts subscribes to them; the Lambda receiver drops the rest; the
 * recovery looks for them in GitHub's delivery log), and what a delivery needs of its payload.
 */
export const PULL_REQUEST_ACTIONS = ["opened", "synchronize", "reopened", "ready_for_review"] as const;

export const HANDLED: Readonly<Record<string, readonly string[]>> = {
  // `edited` only when the base branch changed (see `isHandled`).
  pull_request: [...PULL_REQUEST_ACTIONS, "edited"],
  check_run: ["rerequested"],
  check_suite: ["requested", "rerequested"],
  merge_group: ["checks_requested"],
  // Only `/plugin-review recheck` on a pull request (see `isHandled`).
  issue_comment: ["created"],
};

/**
 * A comment line asking for a review of the pull request's current head (interfaces.md): indented at most
 * three spaces, as a paragraph's line (four, or a tab, make it code).
 */
const RECHECK = /^ {0,3}\/plugin-review[ \t]+recheck[ \t]*$/i;
/** A code fence's opening or closing line (CommonMark: three or more backticks or tildes, indented up to three). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The comment without its HTML comments (hidden on GitHub), in one pass: one left open runs to the end. */
function withoutHtmlComments(body: string): string {
  let out = "";
  let at = 0;
  for (let open = body.indexOf("<!--"); open !== -1; open = body.indexOf("<!--", at)) {
    out += body.slice(at, open);
    const close = body.indexOf("-->", open + 4);
    if (close === -1) return out;
    at = close + 3;
  }
  return out + body.slice(at);
}

/**
 * Whether a comment asks for a recheck: a line of its own `/plugin-review recheck`, as people read the
 * comment. The command quoted is not asked for: in a quote (`> `), a code span, a fenced or indented code
 * block (documentation of the command, a log pasted), or an HTML comment, which GitHub does not show.
 */
export function isRecheckCommand(body: unknown): boolean {
  if (typeof body !== "string" || !/recheck/i.test(body)) return false;
  let fence: string | undefined;
  for (const line of withoutHtmlComments(body).split(/\r?\n|\r/)) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      // A fence closes on a line of the same character, at least as long, and nothing after it.
      if (
        marker !== undefined &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        line.trim() === marker
      )
        fence = undefined;
    } else if (marker !== undefined) fence = marker;
    else if (RECHECK.test(line)) return true;
  }
  return false;
}

/** A pull request edit that retargeted it to another base branch (a title or body edit changes nothing we review). */
export function isBaseChange(payload: { changes?: unknown }): boolean {
  const changes = payload.changes as { base?: unknown } | undefined;
  return typeof changes === "object" && changes !== null && changes.base !== undefined;
}

type Payload = { action?: unknown; changes?: unknown; issue?: unknown; comment?: unknown };

/** Whether the App acts on this delivery. */
export function isHandled(name: string, payload: Payload): boolean {
  const { action } = payload;
  if (typeof action !== "string" || !(HANDLED[name] ?? []).includes(action)) return false;
  if (name === "pull_request" && action === "edited") return isBaseChange(payload);
  if (name === "issue_comment") {
    const issue = payload.issue as { pull_request?: unknown } | null | undefined;
    const comment = payload.comment as { body?: unknown } | null | undefined;
    return !!issue?.pull_request && isRecheckCommand(comment?.body);
  }
  return true;
}

/** The commit a delivery asks to review, where its payload says (a recheck names only its pull request). */
export interface HeadRef {
  owner: string;
  repo: string;
  sha: string;
  installation?: number;
}

/** The head commit a handled delivery is about, or undefined when its payload does not name one. */
export function headOf(name: string, payload: Record<string, unknown>): HeadRef | undefined {
  const repository = payload.repository as { name?: unknown; owner?: { login?: unknown } } | undefined;
  const owner = repository?.owner?.login;
  const repo = repository?.name;
  if (typeof owner !== "string" || typeof repo !== "string") return undefined;
  const sha =
    name === "pull_request"
      ? (payload.pull_request as { head?: { sha?: unknown } } | undefined)?.head?.sha
      : name === "check_suite" || name === "check_run" || name === "merge_group"
        ? (payload[name] as { head_sha?: unknown } | undefined)?.head_sha
        : undefined;
  if (typeof sha !== "string") return undefined;
  const installation = (payload.installation as { id?: unknown } | undefined)?.id;
  return { owner, repo, sha, ...(typeof installation === "number" ? { installation } : {}) };
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

/**
 * What the App needs of a payload: the fields app.ts reads, nothing else. A delivery is kept in this form
 * where it waits (the Lambda queue, whose messages are limited to 256 KB; the server's store on disk).
 */
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
  if (name === "issue_comment") {
    const issue = payload.issue as Json | undefined;
    out.issue = { ...pick(issue, ["number"]), pull_request: pick(issue?.pull_request, ["url"]) ?? null };
    const comment = payload.comment as Json | undefined;
    // The command's line is what matters; a long comment is not carried whole.
    const body = typeof comment?.body === "string" ? comment.body : "";
    out.comment = {
      ...pick(comment, ["id", "html_url"]),
      body: isRecheckCommand(body) ? "/plugin-review recheck" : "",
      user: pick(comment?.user, ["login", "type"]),
    };
  }
  return out;
}
