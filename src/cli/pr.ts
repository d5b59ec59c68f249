/**
 * `plugin-review pr <owner>/<repo>#<number>`: runs exactly the App's review of a pull request with a token
 * from GITHUB_TOKEN, and prints what the App would post (check run, annotations, review) without writing:
 * every request that would change something is recorded and answered locally instead of being sent.
 * A person's token cannot ask GitHub which App it is (`GET /app` takes the App's JWT): `--app` names it
 * (default `plugin-review`, app.yml's name), and only what `<slug>[bot]` wrote counts as the App's. (The
 * check runs' `app.slug` would not do: any App on the repository may name a run `plugin-review`.)
 */
import { pino } from "pino";
import { gatewayFor, GraphqlAvailability } from "../github/api/gateway.js";
import { appIdentity } from "../github/api/port.js";
import { DEFAULT_APP_SLUG } from "../github/audit/collect.js";
import { repoRef, toPullTarget } from "../github/delivery/pull-target.js";
import { reviewPullRequest } from "../github/review/pipeline.js";
import { REAL_TIME } from "../github/api/clock.js";
import { describeRequestError } from "../github/api/errors.js";
import { isGraphqlUrl, tokenOctokit, type DryWrite, type Octokit } from "../github/api/octokit/octokit.js";
import { escaped, jsonText, printableLines } from "../format/printable.js";
import { githubAccess } from "./github-access.js";

export interface PrOptions {
  target: string;
  apiUrl?: string;
  format: "text" | "json";
  /** The App's slug (default plugin-review): its account's words on the pull request are the App's. */
  app?: string;
}

export interface PrIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

type Write = DryWrite;

export interface DryRun {
  pullRequest: string;
  headSha: string;
  checkRun: { conclusion?: string; title?: string; summary?: string; annotations: Record<string, unknown>[] };
  review?: { event?: string; body?: string; comments: Record<string, unknown>[] };
  replies: { comment_id: string; body: string }[];
  /** The App's earlier "changes requested" reviews it would dismiss (node id through GraphQL, id through REST). */
  dismissals: { review_id: string; message: string }[];
}

export function parseTarget(s: string): { owner: string; repo: string; number: number } | undefined {
  const m = /^([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+)#(\d+)$/.exec(s.trim());
  return m ? { owner: m[1] as string, repo: m[2] as string, number: Number(m[3]) } : undefined;
}

/** An Octokit that reads for real and records (without sending) anything that would write. */
function dryOctokit(token: string, baseUrl: string, writes: Write[]): Octokit {
  let nextId = 1;
  return tokenOctokit({
    token,
    baseUrl,
    userAgent: "plugin-review-dry-run",
    warn: () => {},
    writes: (write) => (writes.push(write), { id: nextId++, ...write.body }),
  });
}

function collect(pr: string, headSha: string, writes: Write[]): DryRun {
  const run: DryRun = {
    pullRequest: pr,
    headSha,
    checkRun: { annotations: [] },
    replies: [],
    dismissals: [],
  };
  for (const w of writes) {
    if (/\/check-runs(\/\d+)?$/.test(w.url)) {
      const output = w.body.output as
        { title?: string; summary?: string; annotations?: Record<string, unknown>[] } | undefined;
      if (w.body.conclusion) run.checkRun.conclusion = String(w.body.conclusion);
      if (output?.title) run.checkRun.title = output.title;
      if (output?.summary) run.checkRun.summary = output.summary;
      run.checkRun.annotations.push(...(output?.annotations ?? []));
    } else if (/\/pulls\/\d+\/reviews\/\d+\/dismissals$/.test(w.url)) {
      const id = /\/reviews\/(\d+)\/dismissals$/.exec(w.url)![1]!;
      run.dismissals.push({ review_id: id, message: String(w.body.message) });
    } else if (/\/pulls\/\d+\/reviews$/.test(w.url)) {
      run.review = {
        event: String(w.body.event),
        body: String(w.body.body ?? ""),
        comments: (w.body.comments as Record<string, unknown>[]) ?? [],
      };
    } else if (isGraphqlUrl(w.url)) {
      // The resolution of fixed threads: a reply (the same body) to each thread, then resolved; and the
      // push's review when the push also has something new to say (its line comments are `threads`).
      const vars = (w.body.variables ?? {}) as Record<string, unknown>;
      const review = vars.review as
        { event?: string; body?: string; threads?: Record<string, unknown>[] } | undefined;
      if (review)
        run.review = { event: String(review.event), body: review.body ?? "", comments: review.threads ?? [] };
      for (const [k, id] of Object.entries(vars)) {
        if (/^t\d+$/.test(k)) run.replies.push({ comment_id: String(id), body: String(vars.body) });
        if (/^d\d+$/.test(k))
          run.dismissals.push({ review_id: String(id), message: String(vars.dismissMessage) });
      }
    }
  }
  return run;
}

function render(r: DryRun): string {
  const out: string[] = [];
  out.push(
    `plugin-review dry run of ${r.pullRequest} at ${r.headSha.slice(0, 7)} — nothing was written to GitHub.`,
    "",
  );
  out.push(
    `Check run "plugin-review": ${r.checkRun.conclusion ?? "(not completed)"} — ${r.checkRun.title ?? ""}`,
    "",
  );
  if (r.checkRun.summary) out.push(r.checkRun.summary, "");
  out.push(`Annotations (${r.checkRun.annotations.length}):`);
  for (const a of r.checkRun.annotations)
    out.push(
      `  ${escaped(String(a.path))}:${String(a.start_line)}  ${String(a.annotation_level)}  ${String(a.title)}  ${escaped(String(a.message))}`,
    );
  out.push("");
  if (r.review) {
    out.push(`Review (${r.review.event}):`, r.review.body ?? "", "");
    out.push(`Line comments (${r.review.comments.length}):`);
    for (const c of r.review.comments)
      out.push(
        `  ${escaped(String(c.path))}:${String(c.line)}`,
        ...String(c.body)
          .split("\n")
          .map((l) => `    ${l}`),
      );
  } else {
    out.push("Review: none (nothing new to say, or `review: none`).");
  }
  for (const rep of r.replies) out.push("", `Resolve thread ${rep.comment_id}, replying: ${rep.body}`);
  for (const d of r.dismissals) out.push("", `Dismiss the App's review ${d.review_id}: ${d.message}`);
  // For a terminal: what the descriptors put in the Markdown is inert there, and no control character of
  // theirs reaches the terminal either (annotations are plain text, and their paths: escaped above, `a\nb`, so
  // that a line break in a path or in a name a message quotes does not read as a space, naming another file).
  return printableLines(out.join("\n")) + "\n";
}

/** A slug as GitHub makes them (letters, digits, hyphens), also written as its bot's login (`<slug>[bot]`). */
function parseSlug(s: string): string | undefined {
  return /^([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\[bot\])?$/.exec(s.trim())?.[1];
}

export async function runPr(opts: PrOptions, io: PrIo): Promise<number> {
  const target = parseTarget(opts.target);
  if (!target) {
    io.stderr(`plugin-review: expected <owner>/<repo>#<number>, not '${escaped(opts.target)}'\n`);
    return 2;
  }
  const slug = parseSlug(opts.app ?? DEFAULT_APP_SLUG);
  if (!slug) {
    io.stderr(
      `plugin-review: pr --app takes the App's slug (https://github.com/apps/<slug>), not '${escaped(String(opts.app))}'\n`,
    );
    return 2;
  }
  const app = appIdentity(slug);
  const access = githubAccess(opts.apiUrl, io, "the repository (and its organisation's .github repository)");
  if (!access) return 2;
  const { token, baseUrl } = access;
  const writes: Write[] = [];
  const octokit = dryOctokit(token, baseUrl, writes);
  const log = pino({ level: io.env.LOG_LEVEL ?? "warn" }, { write: (s: string) => io.stderr(s) });
  let pr;
  try {
    ({ data: pr } = await octokit.rest.pulls.get({
      owner: target.owner,
      repo: target.repo,
      pull_number: target.number,
    }));
  } catch (e) {
    io.stderr(`plugin-review: ${describeRequestError(e, `reading ${opts.target}`)}\n`);
    return 2;
  }
  const t = toPullTarget(
    pr,
    repoRef(pr.base.repo as { name: string; owner: { login: string; type?: string } }),
  );
  let outcome;
  try {
    const gw = gatewayFor(octokit, { log, installation: "cli", availability: new GraphqlAvailability() });
    outcome = await reviewPullRequest(gw, t, { log, clock: REAL_TIME, app: async () => app });
  } catch (e) {
    io.stderr(`plugin-review: the review failed: ${printableLines((e as Error).message)}\n`);
    return 2;
  }
  const result = collect(opts.target, t.headSha, writes);
  io.stdout(opts.format === "json" ? jsonText(result, 2) + "\n" : render(result));
  if (outcome.error && !outcome.files.length) io.stderr(`plugin-review: ${printableLines(outcome.error)}\n`);
  return result.checkRun.conclusion === "failure" ? 1 : 0;
}
