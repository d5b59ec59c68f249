/**
 * GitHub misbehaving the way it does during incidents, for the check run guarantee: every analysed head
 * commit ends with exactly one completed run within 3 minutes, no annotation and no comment sent twice.
 * The same scenarios run against `npm start` (test/serve-guarantee.test.ts) and the bundled Lambda worker
 * (test/lambda/handlers.test.ts), on the validated fake GitHub.
 *
 * Time runs 5 times as fast as in production in those tests (SCALE: the App's clocks through
 * an injected clock, the fake's failures here): 30 s of failures take 6 s, the 3 minutes 36 s, the review's
 * 2-minute deadline 24 s. What is not the App's (the throttling plugin's 1 s between writes) keeps its own
 * time, which only makes the tests slower.
 */
import { expect, onTestFailed } from "vitest";
import { collectGarbage } from "../gc.js";
import { text, validHost } from "../helpers.js";
import { completesRun, type FakeGitHub, type Route } from "./fake-github.js";
import { HEAD_SHA, OWNER, REPO } from "./harness.js";

export const SCALE = 0.2;
/** The guarantee's bound: a completed run within 3 minutes of the delivery. */
export const WITHIN_MS = 180_000 * SCALE;

export interface Scenario {
  name: string;
  /** Routes the review uses under this fault, beside those of a healthy review (SCENARIO_ROUTES). */
  routes: Route[];
  /** Puts the fault on the fake. */
  fault(gh: FakeGitHub): void;
  /** That the fault did happen while the review ran (the test proves nothing otherwise). */
  met(gh: FakeGitHub): void;
}

/** What a healthy review of the scenarios' pull request uses: two batches of annotations, and a review. */
export const SCENARIO_ROUTES: readonly Route[] = [
  "token",
  "graphql",
  "files",
  "createCheckRun",
  "updateCheckRun",
  "createReview",
];

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "30 s of 500s on every write that completes the check run",
    routes: ["listCheckRuns"],
    fault: (gh) => {
      gh.failFor("POST", /\/check-runs$/, 30_000 * SCALE, { when: completesRun });
      gh.failFor("PATCH", /\/check-runs\/\d+$/, 30_000 * SCALE, { when: completesRun });
    },
    met: (gh) => expect(gh.failed.length).toBeGreaterThan(1),
  },
  {
    name: "the installation token revoked 0.5 s after it was issued, fresh tokens working",
    routes: [],
    fault: (gh) => gh.revokeAfterIssue(500),
    met: (gh) => {
      expect(gh.refused.length).toBeGreaterThan(0);
      expect(gh.tokens).toHaveLength(2);
    },
  },
  {
    name: "every GraphQL request held open forever while REST answers",
    routes: ["listCheckRuns", "contents"],
    fault: (gh) => {
      gh.hang("POST", /^\/graphql$/);
      // The process collects garbage while the request waits (on Node.js 20, a request timeout held only
      // weakly was collected with it, and the review waited for its deadline).
      setTimeout(collectGarbage, 1000).unref();
    },
    met: (gh) => expect(gh.hung.length).toBeGreaterThan(0),
  },
];

/** The descriptor of the scenarios' pull request: its findings, annotations and line comments. */
export const FINDINGS = 61;

/**
 * A just-opened pull request adding a descriptor with 61 findings (two requests of annotations): a version
 * that is not one (an error) and 60 metrics whose display name is their key (one problem repeated, one
 * comment listing its lines); every line is in the diff, so both are line comments.
 */
export function openPullRequest(gh: FakeGitHub): void {
  const doc = { ...validHost(), version: "1" } as Record<string, unknown>;
  doc.metrics = Array.from({ length: FINDINGS - 1 }, (_, i) => ({
    timeseries: { key: `m${i}`, unit: "Count", displayname: `m${i}` },
  }));
  delete doc.ui;
  const content = text(doc);
  const lines = content.replace(/\n$/, "").split("\n");
  gh.prFiles = [
    {
      filename: "p/plugin.json",
      status: "added",
      patch: `@@ -0,0 +1,${lines.length} @@\n` + lines.map((l) => `+${l}`).join("\n"),
    },
  ];
  gh.file(`${OWNER}/${REPO}`, HEAD_SHA, "p/plugin.json", content);
}

/**
 * When the test fails, prints what the fake GitHub saw from now on: each request with its time, and the
 * requests it failed, left unanswered or refused, so that an intermittent failure says what waited.
 */
export function timelineOnFailure(gh: FakeGitHub): void {
  const started = Date.now();
  onTestFailed(() => {
    const lines = gh.requests.map((r) => `+${r.at - started} ms ${r.method} ${r.path}`);
    lines.push(`failed: ${gh.failed.join(", ") || "none"}`, `unanswered: ${gh.hung.join(", ") || "none"}`);
    lines.push(`refused (401): ${gh.refused.join(", ") || "none"}`);
    console.error(lines.join("\n"));
  });
}

/** The head commit's run is completed, when it is (for waiting on it). */
export function completed(gh: FakeGitHub): boolean {
  return gh.runsFor(HEAD_SHA).some((r) => r.status === "completed" && r.conclusion === "failure");
}

/** Exactly one run, completed with the review's verdict; every annotation once; one review, each comment once. */
export function expectExactlyOnce(gh: FakeGitHub): void {
  const runs = gh.runsFor(HEAD_SHA);
  expect(runs).toEqual([
    expect.objectContaining({
      status: "completed",
      conclusion: "failure",
      output: expect.objectContaining({
        title: `${FINDINGS} errors, 0 warnings, 0 notices in 1 descriptor`,
      }),
    }),
  ]);
  const annotations = runs[0]!.annotations.map((a) => JSON.stringify(a));
  expect(annotations).toHaveLength(FINDINGS);
  expect(new Set(annotations).size).toBe(FINDINGS);
  expect(gh.reviews).toHaveLength(1);
  const comments = gh.comments.map((c) => `${c.path}:${c.line}:${c.body}`);
  expect(comments).toHaveLength(2);
  expect(new Set(comments).size).toBe(2);
}

/** Resolves with the milliseconds until `done` holds, or rejects once `ms` passed. */
export async function within(ms: number, done: () => boolean): Promise<number> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error(`not done within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}
