/**
 * One review per analysed push. Findings on lines of the diff become line comments; the others go to the
 * review body. Fingerprints (the findings' identities) make it idempotent: a finding with an open thread of
 * ours is not commented again, wherever its element moved, a push already reviewed is not reviewed twice,
 * and a thread whose finding is gone is answered (and resolved where GraphQL works) with a reply naming the
 * fixing commit; a finding that comes back after its thread was resolved is new again, so it gets a new
 * comment. Ours: written by the App's own account (`<slug>[bot]`); a marker that anyone else wrote, a
 * person or another bot, counts for nothing.
 *
 * Writes (through the port, api/port.ts): the review is one request; when the push also fixed threads, the review goes in the
 * same GraphQL document that answers and resolves them, so a review is never more than one write beside the
 * check run. When GitHub refuses the review because a line comment is outside the diff (REST 422, GraphQL
 * UNPROCESSABLE), it is posted again with every finding in the body, so nothing is lost (and the check run
 * carries every finding anyway).
 */
import type { ExistingMode, ReviewMode } from "../../../core/config.js";
import type { FileFindings } from "../../../core/analyse.js";
import { isQuietExisting } from "../../../core/verdict.js";
import { plural } from "../../../format/summary.js";
import {
  writtenBy,
  type AppIdentity,
  type ChangedDescriptor,
  type Dismissal,
  type FixedThread,
  type GitHubGateway,
  type Logger,
  type PublicationWritten,
  type PullHead,
  type PullTarget,
  type RequestingReview,
  type ReviewBody,
  type ReviewToPost,
  type ThreadComment,
} from "../../api/port.js";
import { BudgetedText } from "../markdown.js";
import { commentableLines } from "./commentable-lines.js";
import { bodyItem, COMMENT_LIMIT, commentBody, repeatedBodyItem, repeatedCommentBody } from "./comments.js";
import { FIXED_MARKER, isFixedReply, readFingerprint, readFingerprints } from "./fingerprint.js";
import { reviewEntries } from "./repeated.js";

/** Line comments in one review; beyond this they go to the body (a review with hundreds of comments is unreadable and slow to create). */
export const MAX_LINE_COMMENTS = 50;
const HEAD_MARKER = (sha: string) => `<!-- plugin-review:head=${sha} -->`;

export interface ReviewPlan {
  comments: { path: string; line: number; side: "RIGHT"; body: string }[];
  /** The same findings as `comments`, as review-body lines: the fallback when GitHub refuses line comments. */
  commentsAsBodyItems: string[];
  bodyItems: string[];
  /** Our open threads whose finding no longer exists (root comment id, thread node id): they are resolved. */
  fixed: FixedThread[];
}

/** One of the App's own threads, and whether it is closed (resolved, or answered by the App as fixed). */
export type OwnThread = Pick<ThreadComment, "id" | "threadId" | "path" | "line" | "body"> & {
  closed: boolean;
};

/**
 * The App's own words on the pull request: the threads it started, closed when resolved or when it answered
 * them as fixed, and the bodies of its reviews. Whatever anyone else wrote (a person, another bot), even
 * with the App's markers copied in, is not there.
 */
function ownWords(
  app: AppIdentity,
  threads: readonly ThreadComment[],
  reviews: readonly ReviewBody[],
): { threads: OwnThread[]; bodies: string[] } {
  const own = (x: ReviewBody) => writtenBy(app, x.author) && ours(x.body);
  return {
    threads: threads.filter(own).map((t) => ({
      id: t.id,
      ...(t.threadId !== undefined ? { threadId: t.threadId } : {}),
      path: t.path,
      line: t.line,
      body: t.body,
      closed: t.resolved || t.replies.some((r) => writtenBy(app, r.author) && isFixedReply(r.body)),
    })),
    bodies: reviews.filter(own).map((r) => r.body),
  };
}

/**
 * Decides what to post (pure, given what is already there): `ownThreads` and `ownBodies` are the App's own
 * (`ownWords`).
 */
export function planReview(
  files: readonly FileFindings[],
  descriptors: readonly ChangedDescriptor[],
  ownThreads: readonly OwnThread[],
  ownBodies: readonly string[],
  existing: ExistingMode = "report",
): ReviewPlan {
  const patches = new Map(descriptors.map((d) => [d.path, commentableLines(d.patch)]));
  const fingerprintsInComments = new Set<string>();
  // Only our open threads count as "already said", on whatever line GitHub now shows them: a finding whose
  // thread was resolved as fixed and that comes back is new again.
  for (const c of ownThreads) {
    const fp = readFingerprint(c.body);
    if (!fp || c.closed) continue;
    fingerprintsInComments.add(fp);
  }
  const inBodies = new Set(ownBodies.flatMap((b) => readFingerprints(b)));
  const current = new Set<string>();
  const plan: ReviewPlan = { comments: [], commentsAsBodyItems: [], bodyItems: [], fixed: [] };
  const byFile = new Map(files.map((r) => [r.path, r]));
  for (const r of files) {
    const lines = patches.get(r.path) ?? new Set<number>();
    // Every finding is current (a thread about an existing finding is not "fixed"), but existing ones that
    // do not count get no comment: the review is about what the pull request adds.
    for (const f of r.findings) current.add(f.fingerprint);
    const said = r.findings.filter((f) => !isQuietExisting(f, { existing }));
    for (const entry of reviewEntries(r.path, said)) {
      if (entry.kind === "repeated") {
        const fp = entry.fingerprint;
        current.add(fp);
        if (fingerprintsInComments.has(fp)) continue;
        const at = entry.findings.find((f) => lines.has(f.line));
        if (at && plan.comments.length < MAX_LINE_COMMENTS) {
          plan.comments.push({
            path: r.path,
            line: at.line,
            side: "RIGHT",
            body: repeatedCommentBody(r.path, entry.findings, fp),
          });
          plan.commentsAsBodyItems.push(repeatedBodyItem(r.path, entry.findings, fp));
        } else if (!inBodies.has(fp)) {
          plan.bodyItems.push(repeatedBodyItem(r.path, entry.findings, fp));
        }
        continue;
      }
      const f = entry.finding;
      if (fingerprintsInComments.has(f.fingerprint)) continue;
      if (lines.has(f.line) && plan.comments.length < MAX_LINE_COMMENTS) {
        plan.comments.push({
          path: r.path,
          line: f.line,
          side: "RIGHT",
          body: commentBody(r.path, f, r.lines.get(f.line), true),
        });
        plan.commentsAsBodyItems.push(bodyItem(r.path, f));
      } else if (!inBodies.has(f.fingerprint)) {
        plan.bodyItems.push(bodyItem(r.path, f));
      }
    }
  }
  for (const c of ownThreads) {
    const fp = readFingerprint(c.body);
    // Only the App's own open threads; only on files this push reviewed (a file no longer in the diff says
    // nothing about its findings).
    if (!fp || c.closed || current.has(fp)) continue;
    if (byFile.has(c.path)) plan.fixed.push({ id: c.id, threadId: c.threadId });
  }
  return plan;
}

function reviewEvent(mode: ReviewMode, failed: boolean): "COMMENT" | "REQUEST_CHANGES" {
  return mode === "request-changes" && failed ? "REQUEST_CHANGES" : "COMMENT";
}

export interface PublishResult {
  posted: boolean;
  lineComments: number;
  bodyItems: number;
  fixedReplies: number;
  fallback: boolean;
  /** The App's earlier "changes requested" reviews dismissed because its verdict no longer requests changes. */
  dismissed: number;
  skipped?: string;
}

/** Carries one of our markers (what the App writes; who wrote it is asked too: `ownWords`). */
const ours = (body: string | null | undefined) => !!body && body.includes("plugin-review:");

/** Why the App's verdict no longer requests changes, for the dismissal's message. */
type NoLongerRequesting = "passes" | "comment" | "none" | "no-descriptor";

/** The dismissal's message: short, naming the commit as of which it no longer applies. */
export function dismissMessage(sha: string, why: NoLongerRequesting): string {
  const at = `\`${sha.slice(0, 7)}\``;
  const reason = {
    passes: `${at} passes the \`plugin-review\` check`,
    comment: `as of ${at} the configuration says \`review: comment\``,
    none: `as of ${at} the configuration says \`review: none\``,
    "no-descriptor": `as of ${at} this pull request changes no descriptor`,
  }[why];
  return `plugin-review no longer requests changes: ${reason}.`;
}

export async function publishReview(
  gw: GitHubGateway,
  pr: PullTarget,
  files: readonly FileFindings[],
  descriptors: readonly ChangedDescriptor[],
  opts: {
    mode: ReviewMode;
    failed: boolean;
    log: Logger;
    /** The App's own account (learned once per process): only its words on the pull request count. */
    app: () => Promise<AppIdentity>;
    firstLook?: boolean;
    existing?: ExistingMode;
  },
): Promise<PublishResult> {
  const none: PublishResult = {
    posted: false,
    lineComments: 0,
    bodyItems: 0,
    fixedReplies: 0,
    fallback: false,
    dismissed: 0,
  };
  // Review state follows the code: unless this verdict requests changes, the App's earlier reviews that
  // did are dismissed (people's reviews are never touched).
  const event = reviewEvent(opts.mode, opts.failed);
  const why: NoLongerRequesting | undefined =
    event === "REQUEST_CHANGES"
      ? undefined
      : // A failing head with no review (its descriptors not read) still changes descriptors.
        files.length === 0 && !opts.failed
        ? "no-descriptor"
        : opts.mode === "request-changes"
          ? "passes"
          : opts.mode;
  const dismissalOf = (app: AppIdentity, found: readonly RequestingReview[]): Dismissal | undefined => {
    const stale = why ? found.filter((r) => writtenBy(app, r.author) && ours(r.body)) : [];
    return stale.length ? { reviews: stale, message: dismissMessage(pr.headSha, why!) } : undefined;
  };
  // A review of a head the pull request has moved on from (a retry, a slow review overtaken by a push) or
  // of a closed one posts nothing: its replies, review and dismissals would speak for the wrong commit (its
  // check run is written: it is that commit's). The pull request's head comes with the reads below.
  const gone = (head: PullHead | undefined): PublishResult | undefined => {
    if (!head || (head.sha === pr.headSha && head.open)) return undefined;
    const skipped = head.open
      ? `the pull request moved on to ${head.sha.slice(0, 7)}`
      : "the pull request is closed";
    opts.log.info(`not publishing the review of ${pr.headSha.slice(0, 7)}: ${skipped}`);
    return { ...none, skipped };
  };
  // Nothing to review (`review: none`, or no descriptor left in the pull request): only a dismissal may be
  // due. A pull request seen for the first time (just opened) has nothing of ours on it.
  if (opts.mode === "none" || files.length === 0) {
    const skipped = opts.mode === "none" ? "review: none" : "no descriptor to review";
    if (opts.firstLook) return { ...none, skipped };
    const [app, found] = await Promise.all([opts.app(), gw.changesRequested(pr)]);
    const dismissal = dismissalOf(app, found.reviews);
    return (
      gone(found.head) ?? {
        ...none,
        skipped,
        dismissed: dismissal ? await gw.dismissReviews(pr, dismissal) : 0,
      }
    );
  }
  // A pull request seen for the first time (just opened, its head never analysed) has nothing of ours to
  // find: a call saved. Any later event reads what is there (threads and reviews), so that nothing is
  // posted twice, and keeps what the App itself wrote.
  const state = opts.firstLook
    ? undefined
    : await Promise.all([opts.app(), gw.pullState(pr)]).then(([app, read]) => ({
        ...read,
        own: ownWords(app, read.threads, read.reviews),
        dismissal: dismissalOf(app, read.changesRequested),
      }));
  const moved = gone(state?.head);
  if (moved) return moved;
  const dismissal = state?.dismissal;
  const mine = state?.own.bodies ?? [];
  if (mine.some((b) => b.includes(HEAD_MARKER(pr.headSha)))) {
    // The push was reviewed; a verdict that changed since (the configuration) may still owe a dismissal.
    const dismissed = dismissal ? await gw.dismissReviews(pr, dismissal) : 0;
    return { ...none, dismissed, skipped: "this push was already reviewed" };
  }
  const plan = planReview(files, descriptors, state?.own.threads ?? [], mine, opts.existing);
  const intro = `**plugin-review** found ${plural(plan.comments.length + plan.bodyItems.length, "new finding")} in this push; the \`plugin-review\` check lists them all.`;
  // Within GitHub's limit for a review body, whatever the number of findings: the check run has them all.
  const body = (items: string[]) => {
    const out = new BudgetedText(COMMENT_LIMIT - 1).add(intro);
    const marker = HEAD_MARKER(pr.headSha);
    if (items.length) {
      out.add("", "Findings not on a line of this diff:", "");
      out.addItems(
        items,
        marker.length + 2,
        (n) => `- …and ${plural(n, "more finding")}: the \`plugin-review\` check run lists them all.`,
      );
    }
    return out.add("", marker).toString();
  };
  const toSay = plan.comments.length > 0 || plan.bodyItems.length > 0;
  const review: ReviewToPost | undefined = toSay
    ? { event, body: body(plan.bodyItems), comments: plan.comments }
    : undefined;
  const fixedBody = `Fixed in ${pr.headSha.slice(0, 7)}: this finding is gone. ${FIXED_MARKER}`;
  // One write for everything (GraphQL): the review, the fixed threads and the dismissals.
  const written: PublicationWritten =
    plan.fixed.length || dismissal
      ? await gw.publish(pr, {
          ...(state?.pullRequestId ? { pullRequestId: state.pullRequestId } : {}),
          fixed: plan.fixed,
          fixedReply: fixedBody,
          ...(review ? { review } : {}),
          ...(dismissal ? { dismissal } : {}),
        })
      : { closed: 0, ...(review ? { review: await gw.postReview(pr, review) } : {}) };
  const dismissed = written.dismissed ?? 0;
  if (!review) return { ...none, fixedReplies: written.closed, dismissed, skipped: "nothing new to say" };
  const posted = { posted: true, fixedReplies: written.closed, fallback: false, dismissed };
  if (written.review === "posted")
    return { ...posted, lineComments: plan.comments.length, bodyItems: plan.bodyItems.length };
  // GitHub would not place a line comment (the diff moved under us): every finding in the body instead.
  const all = [...plan.commentsAsBodyItems, ...plan.bodyItems];
  await gw.postReview(pr, { event, body: body(all), comments: [] });
  return { ...posted, lineComments: 0, bodyItems: all.length, fallback: true };
}
