/**
 * The check run's annotations when a run is written again (review/check-run/write.ts): GitHub appends the annotations of
 * every update and removes none. A run holding the first annotations of this very result (a write cut off
 * after some batches) is sent the rest by count, reading nothing; a run written with another result for the
 * same head commit (the pull request moved to another base branch) is listed and sent exactly the new
 * result's annotations it lacks. Real app, real payloads, GitHub faked over nock with every request and
 * answer checked against GitHub's OpenAPI description.
 */
import { isDeepStrictEqual } from "node:util";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHECK_NAME, type Annotation } from "../../../../src/github/api/port.js";
import { RestGateway } from "../../../../src/github/api/rest/gateway.js";
import { formatExternalId } from "../../../../src/github/review/check-run/external-id.js";
import { toAnnotation } from "../../../../src/github/review/check-run/output.js";
import type { Finding } from "../../../../src/core/types.js";
import {
  resultDigest,
  writeCheckRun,
  type CheckResult,
} from "../../../../src/github/review/check-run/write.js";
import { text, validHost } from "../../../helpers.js";
import {
  APP_ID,
  completesRun,
  FakeGitHub,
  REVIEW_ROUTES,
  type CheckRun,
  type Route,
} from "../../fake-github.js";
import { cleanup, disableNetwork } from "../../github-mock.js";
import {
  addedFile,
  BASE_SHA,
  deliver,
  editedPayload,
  FastOctokit,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  rewritePatch,
} from "../../harness.js";

const R = `${OWNER}/${REPO}`;
const NEW_BASE = "e".repeat(40);
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Sent = Record<string, unknown>;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The old base: 60 metrics with dotted keys (invalid-format) that the new base, the shipped example, lacks. */
function oldBase(): Json {
  const d: Json = validHost();
  for (let i = 0; i < 60; i++)
    d.metrics.push({ timeseries: { key: `old.metric${i}`, unit: "Count", displayname: `Old ${i}` } });
  return d;
}

/** The head: the old base, its version bumped, and two new metrics with a unit that does not exist (invalid-value). */
function head(): Json {
  const d = oldBase();
  d.version = "1.2.1";
  for (let i = 0; i < 2; i++)
    d.metrics.push({ timeseries: { key: `new_metric${i}`, unit: "Secs", displayname: `New ${i}` } });
  return d;
}

/** A fake GitHub with the pull request's head, both bases, and the files as compared against `base`. */
function fake(routes: readonly Route[], base: Json): FakeGitHub {
  const gh = new FakeGitHub(routes);
  gh.file(R, HEAD_SHA, "p/plugin.json", text(head()))
    .file(R, BASE_SHA, "p/plugin.json", text(oldBase()))
    .file(R, NEW_BASE, "p/plugin.json", text(validHost()));
  gh.prFiles = [
    { filename: "p/plugin.json", status: "modified", patch: rewritePatch(text(base), text(head())) },
  ];
  return gh;
}

/**
 * The run a review of the head against the new base writes when it is the commit's first (its verdict,
 * output and annotations), from a GitHub of its own.
 */
async function freshRunAgainstNewBase(): Promise<CheckRun> {
  const gh = fake([...REVIEW_ROUTES, "updateCheckRun"], validHost());
  const p = pullRequestPayload("opened");
  p.pull_request.base.sha = NEW_BASE;
  gh.retarget(7, NEW_BASE);
  await deliver(makeProbot().probot, "pull_request", p);
  gh.assertClean();
  const [run] = gh.runsFor(HEAD_SHA);
  cleanup();
  disableNetwork();
  return run!;
}

/** The annotations the check run writes among `requests` sent. */
function sentAnnotations(requests: readonly { method: string; path: string; body?: unknown }[]): Sent[] {
  return requests
    .filter((r) => r.method !== "GET" && /\/check-runs/.test(r.path))
    .flatMap((r) => (r.body as { output?: { annotations?: Sent[] } }).output?.annotations ?? []);
}

const occurrences = (list: readonly Sent[], a: Sent) => list.filter((x) => isDeepStrictEqual(x, a)).length;

/** Where the gateway-level tests write: the harness's repository and head commit. */
const where = { owner: OWNER, repo: REPO, headSha: HEAD_SHA };

/** The App's REST gateway over the fake GitHub (an installation token; retries that do not wait). */
const gateway = () =>
  new RestGateway(new FastOctokit({ auth: { token: "ghs_test" } }), pino({ level: "silent" }));

/** A one-line annotation of line `i + 1`, as the App sends them. */
const annotation = (i: number, message: string): Annotation => ({
  path: "p/plugin.json",
  start_line: i + 1,
  end_line: i + 1,
  start_column: 5,
  end_column: 9,
  annotation_level: "failure",
  title: "invalid-format",
  message,
});

/** The `external_id` of a run showing `result` and holding the first of its annotations. */
const holdsAll = (result: CheckResult) =>
  formatExternalId({ shows: resultDigest(result), holds: resultDigest(result) });

/** Run 7 of the App on the head commit, completed, holding `annotations`, as earlier writes left it. */
function heldRun(externalId: string, annotations: Annotation[]): CheckRun {
  return {
    id: 7,
    name: CHECK_NAME,
    head_sha: HEAD_SHA,
    status: "completed",
    conclusion: "failure",
    output: { title: "earlier", summary: "earlier" },
    external_id: externalId,
    annotations: annotations as unknown as Sent[],
    app: { id: APP_ID, slug: "plugin-review" },
    updates: 0,
  };
}

/** The edit that moves pull request 7 to the new base, which GitHub (`gh`) now answers too. */
const retargeted = (gh: FakeGitHub) => {
  gh.retarget(7, NEW_BASE);
  return editedPayload({ base: { ref: { from: "release" }, sha: { from: BASE_SHA } } }, NEW_BASE);
};

describe("check run annotations: a run written with another result for the same head", () => {
  it("pull_request.edited with a changed base: one run, every annotation of the new result once, nothing it held sent again", async () => {
    const fresh = await freshRunAgainstNewBase();
    const expected = fresh.annotations;
    // Against the new base the 60 dotted keys are new errors, not existing notices: 62 errors.
    expect(expected.map((a) => a.annotation_level)).toEqual(Array(62).fill("failure"));

    const gh = fake([...REVIEW_ROUTES, "updateCheckRun", "listAnnotations"], oldBase());
    const { probot } = makeProbot();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [first] = gh.runsFor(HEAD_SHA);
    const held = [...first!.annotations];
    // Against the old base: the 2 new errors, and the 60 existing findings as notices.
    expect(held.filter((a) => a.annotation_level === "notice")).toHaveLength(60);
    expect(held).toHaveLength(62);

    gh.prFiles = [
      { filename: "p/plugin.json", status: "modified", patch: rewritePatch(text(validHost()), text(head())) },
    ];
    const before = gh.requests.length;
    await deliver(probot, "pull_request", retargeted(gh));
    const edit = gh.requests.slice(before);
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run!.id).toBe(first!.id);
    // The verdict, title and summary are the new result's.
    expect(run).toMatchObject({ status: "completed", conclusion: fresh.conclusion, output: fresh.output });
    // Every annotation of the new result is on the run exactly once; the old notices stay (GitHub cannot
    // remove them), and nothing the run held was sent again.
    for (const a of expected) expect(occurrences(run!.annotations, a)).toBe(1);
    const sent = sentAnnotations(edit);
    expect(sent).toHaveLength(60);
    for (const a of sent) expect(occurrences(held, a)).toBe(0);
    expect(run!.annotations).toEqual([...held, ...sent]);
    // Read once, 100 at a time: the run held 62.
    const listings = edit.filter((r) => r.method === "GET" && /\/annotations$/.test(r.path));
    expect(listings.map((r) => [r.path, r.query.per_page])).toEqual([
      [`/repos/${R}/check-runs/${run!.id}/annotations`, "100"],
    ]);

    // The edit delivered again: the run already says all of it (read again to know), so nothing is written.
    const again = gh.requests.length;
    await deliver(probot, "pull_request", retargeted(gh));
    const redelivery = gh.requests.slice(again);
    const relisted = redelivery.filter((r) => /\/annotations$/.test(r.path));
    expect(relisted.map((r) => r.query.page)).toEqual([undefined, "2"]); // 122 annotations, 100 a page
    expect(redelivery.filter((r) => r.method !== "GET" && /\/check-runs/.test(r.path))).toEqual([]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(122);
    gh.assertClean();
  });

  it("the new result's write cut off after its first batch: the run is listed again and sent only what it still lacks", async () => {
    const expected = (await freshRunAgainstNewBase()).annotations;
    const gh = fake([...REVIEW_ROUTES, "updateCheckRun", "listAnnotations", "listCheckRuns"], oldBase());
    const { probot } = makeProbot();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const held = [...gh.runsFor(HEAD_SHA)[0]!.annotations];
    gh.prFiles = [
      { filename: "p/plugin.json", status: "modified", patch: rewritePatch(text(validHost()), text(head())) },
    ];
    // The edit's write completes the run with 50 annotations; GitHub fails the next batch (it does not make it).
    gh.failFor("PATCH", /\/check-runs\/\d+$/, 3_600_000, { when: (b) => !completesRun(b) });
    const before = gh.requests.length;
    await deliver(probot, "pull_request", retargeted(gh));
    const edit = gh.requests.slice(before);
    expect(gh.failed).toEqual([`PATCH /repos/${R}/check-runs/${gh.runsFor(HEAD_SHA)[0]!.id}`]);
    const writes = edit.filter((r) => r.method === "PATCH");
    expect(writes.map((w) => [completesRun(w.body), sentAnnotations([w]).length])).toEqual([
      [true, 50],
      [false, 10],
      [true, 10],
    ]);
    // Listed before the first write, and again before the last: the run then held 62 + 50, two pages.
    const listings = edit.filter((r) => /\/annotations$/.test(r.path));
    expect(listings.map((r) => r.query.page)).toEqual([undefined, undefined, "2"]);
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    for (const a of expected) expect(occurrences(run!.annotations, a)).toBe(1);
    expect(run!.annotations).toHaveLength(held.length + 60);
    gh.assertClean();
  });
});

describe("check run annotations: a write of this very result cut off", () => {
  it("resumes by count: only the missing batches are sent, and the run's annotations are not listed", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "updateCheckRun", "listCheckRuns"]);
    const { probot } = makeProbot();
    const doc = validHost();
    doc.metrics = Array.from({ length: 120 }, (_, i) => ({
      timeseries: { key: `m${i}`, unit: "Count", displayname: `m${i}` },
    }));
    delete doc.ui;
    addedFile(gh, "big/plugin.json", text(doc));
    // GitHub makes the second batch but fails to answer it: the run then holds the first 100.
    gh.failFor("PATCH", /\/check-runs\/\d+$/, 3_600_000, { when: (b) => !completesRun(b), applied: 1 });
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const writes = gh.requests.filter((r) => r.method !== "GET" && /\/check-runs/.test(r.path));
    expect(writes.map((w) => `${w.method} ${sentAnnotations([w]).length}`)).toEqual([
      "POST 50",
      "PATCH 50",
      "PATCH 20",
    ]);
    expect(gh.requests.filter((r) => /\/annotations$/.test(r.path))).toEqual([]);
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run!.status).toBe("completed");
    expect(run!.annotations).toHaveLength(120);
    expect(new Set(run!.annotations.map((a) => JSON.stringify(a))).size).toBe(120);
    gh.assertClean();
  });
});

describe("check run annotations: a failure report written over a cut-off write", () => {
  it("keeps the count-based resume: the report adds none, and the result's retry sends the rest, reading nothing", async () => {
    const gh = new FakeGitHub(["updateCheckRun"]);
    const result: CheckResult = {
      conclusion: "failure",
      title: "120 errors",
      summary: "**Failing**",
      annotations: Array.from({ length: 120 }, (_, i) => annotation(i, "now")),
    };
    const report: CheckResult = {
      conclusion: "failure",
      title: "plugin-review could not complete",
      summary: "GitHub did not answer in time",
      annotations: [],
    };
    // The result's write was cut off after its first batch, and the review's deadline passed.
    gh.checkRuns.push(heldRun(holdsAll(result), result.annotations.slice(0, 50)));
    const gw = gateway();
    const run = gh.checkRuns[0]!;
    const known = () => ({
      id: 7,
      status: run.status,
      annotations: run.annotations.length,
      externalId: run.external_id,
    });
    await writeCheckRun(gw, where, known(), report);
    expect(run).toMatchObject({
      output: { title: report.title },
      annotations: result.annotations.slice(0, 50),
    });
    // The retry, with the run as GitHub lists it: the 70 annotations the run lacks, in two writes.
    await writeCheckRun(gw, where, known(), result);
    expect(gh.requests.map((r) => `${r.method} ${sentAnnotations([r]).length}`)).toEqual([
      "PATCH 0",
      "PATCH 50",
      "PATCH 20",
    ]);
    expect(run).toMatchObject({ output: { title: result.title }, annotations: result.annotations });
    // Written once more: the run says all of it, nothing is sent.
    await writeCheckRun(gw, where, known(), result);
    expect(gh.requests).toHaveLength(3);
    gh.assertClean();
  });
});

describe("check run annotations: the cap counts what the run holds", () => {
  it("a run holding 990 annotations, 5 of them the new result's, gets the first 10 of the 25 it lacks and a summary that says so", async () => {
    const gh = new FakeGitHub(["listAnnotations", "updateCheckRun"]);
    const earlier = Array.from({ length: 985 }, (_, i) => annotation(i, "earlier"));
    const wanted = Array.from({ length: 30 }, (_, i) => annotation(i, "now"));
    gh.checkRuns.push(heldRun("plugin-review:earlier", [...earlier, ...wanted.slice(0, 5)]));
    const result: CheckResult = {
      conclusion: "failure",
      title: "30 errors",
      summary: "**Failing**",
      annotations: wanted,
    };
    const gw = gateway();
    const existing = { id: 7, status: "completed", annotations: 990, externalId: "plugin-review:earlier" };
    expect(await writeCheckRun(gw, where, existing, result)).toBe(7);

    const run = gh.checkRuns[0]!;
    expect(run.annotations).toHaveLength(1000);
    expect(run.annotations.slice(990)).toEqual(wanted.slice(5, 15));
    expect(run.output!.summary).toBe(
      "**Failing**\n\n> 15 more findings are not annotated: this check run keeps 985 annotations of an earlier review of this commit (GitHub cannot remove them), and GitHub shows at most 1,000 annotations per check run.",
    );
    // Listed 100 at a time, in 10 pages; one write.
    expect(gh.requests.filter((r) => r.method === "GET")).toHaveLength(10);
    expect(gh.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
    expect(run.external_id).not.toBe(resultDigest(result));
    expect(run.external_id).toContain(resultDigest(result));
    // What it shows is this result, and what it holds is mixed: later writes must not resume by count.
    expect(run.external_id).toBe(formatExternalId({ shows: resultDigest(result), holds: "mixed" }));

    // Written again with the same result: the run says it already, nothing is sent.
    const listed = { ...existing, annotations: 1000, externalId: run.external_id! };
    expect(await writeCheckRun(gw, where, listed, result)).toBe(7);
    expect(gh.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
    gh.assertClean();
  });
});

describe("check run annotations: a run written by the previous release (external_id version 1)", () => {
  /** The version-1 form of a version-2 `external_id`, as the previous release wrote it. */
  const v1 = (externalId: string): string => {
    const m =
      /^plugin-review:v2:([0-9a-f]{40})(?::holds=([0-9a-f]{40})|:(mixed))?(?::failing=[\d,more]+)?(?::pulls=[\d,]+)?$/.exec(
        externalId,
      );
    if (!m) throw new Error(`not a version-2 external_id: ${externalId}`);
    const tail = m[3] ? "+earlier" : m[2] ? `+holds:plugin-review:${m[2]}` : "";
    return `plugin-review:${m[1]}${tail}`;
  };

  /** A just-opened pull request whose descriptor has 120 findings (three batches of annotations). */
  function bigPullRequest(gh: FakeGitHub): void {
    const doc = validHost();
    doc.metrics = Array.from({ length: 120 }, (_, i) => ({
      timeseries: { key: `m${i}`, unit: "Count", displayname: `m${i}` },
    }));
    delete doc.ui;
    addedFile(gh, "big/plugin.json", text(doc));
  }

  it("a redelivery finds the run complete with the same result: no annotation is sent again", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "updateCheckRun"]);
    bigPullRequest(gh);
    const { probot } = makeProbot();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run!.annotations).toHaveLength(120);
    run!.external_id = v1(run!.external_id!);
    const before = gh.requests.length;
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    const writes = gh.requests.slice(before).filter((r) => r.method !== "GET" && /\/check-runs/.test(r.path));
    // The previous release's run does not name the failing pull request (external-id.ts `failing`), nor
    // the reviewed ones: one write adds them, and nothing else.
    expect(run!.conclusion).toBe("failure");
    expect(writes.map((w) => w.method)).toEqual(["PATCH"]);
    expect((writes[0]!.body as { output?: { annotations?: unknown[] } }).output?.annotations).toBeUndefined();
    expect(run!.external_id).toMatch(/:failing=7:pulls=7$/);
    expect(run!.annotations).toHaveLength(120);
    expect(gh.runsFor(HEAD_SHA)).toHaveLength(1);
    gh.assertClean();
  });

  it("a write the previous release cut off after its first batch: resumed by count, nothing listed or sent twice", async () => {
    // What the review writes, and the run as the previous release left it when GitHub failed its second
    // batch: completed with the first 50 annotations and its version-1 external_id.
    const done = new FakeGitHub([...REVIEW_ROUTES, "updateCheckRun"]);
    bigPullRequest(done);
    await deliver(makeProbot().probot, "pull_request", pullRequestPayload("opened"));
    const [full] = done.runsFor(HEAD_SHA);
    cleanup();
    const gh = new FakeGitHub(["token", "graphql", "files", "updateCheckRun", "createReview"]);
    bigPullRequest(gh);
    gh.checkRuns.push({
      ...heldRun(v1(full!.external_id!), full!.annotations.slice(0, 50) as unknown as Annotation[]),
      id: full!.id,
      output: full!.output!,
    });
    const { probot } = makeProbot();
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    expect(gh.requests.filter((r) => /\/annotations$/.test(r.path))).toEqual([]);
    expect(
      gh.requests
        .filter((r) => r.method === "PATCH")
        .map((w) => [completesRun(w.body), sentAnnotations([w]).length]),
    ).toEqual([
      [true, 50],
      [false, 20],
    ]);
    const [resumed, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(resumed!.annotations).toEqual(full!.annotations);
    gh.assertClean();
  });

  it("every version-1 form is read: the result it shows, and whose annotations it holds", async () => {
    const gh = new FakeGitHub(["updateCheckRun", "listAnnotations"]);
    const wanted = Array.from({ length: 60 }, (_, i) => annotation(i, "now"));
    const result: CheckResult = {
      conclusion: "failure",
      title: "60 errors",
      summary: "**Failing**",
      annotations: wanted,
    };
    const digest = resultDigest(result);
    const other = "f".repeat(40);
    const gw = gateway();
    const run = (externalId: string, held: Annotation[]) => {
      gh.checkRuns.splice(0, gh.checkRuns.length, heldRun(externalId, held));
      return { id: 7, status: "completed", annotations: held.length, externalId };
    };
    const patches = () => gh.requests.filter((r) => r.method === "PATCH").length;
    const lists = () => gh.requests.filter((r) => r.method === "GET").length;
    // `plugin-review:<digest>` holding all of it: nothing to do.
    await writeCheckRun(gw, where, run(`plugin-review:${digest}`, wanted), result);
    expect([patches(), lists()]).toEqual([0, 0]);
    // `+holds:`: a failure report written over the first 50 of this result: the other 10, by count.
    await writeCheckRun(
      gw,
      where,
      run(`plugin-review:${other}+holds:plugin-review:${digest}`, wanted.slice(0, 50)),
      result,
    );
    expect([patches(), lists()]).toEqual([1, 0]);
    expect(gh.checkRuns[0]!.annotations).toHaveLength(60);
    // `+earlier`: a mix, listed before anything is sent; only what it lacks is sent.
    await writeCheckRun(gw, where, run(`plugin-review:${other}+earlier`, wanted.slice(0, 30)), result);
    expect([patches(), lists()]).toEqual([2, 1]);
    expect(gh.checkRuns[0]!.annotations).toHaveLength(60);
    expect(new Set(gh.checkRuns[0]!.annotations.map((a) => JSON.stringify(a))).size).toBe(60);
    gh.assertClean();
  });
});

describe("check run annotations: what GitHub refuses, the fake refuses", () => {
  it("answers 422 to more than 50 annotations, a range ending before it starts, or columns across lines; takes the App's", async () => {
    const gh = new FakeGitHub(["createCheckRun"]);
    const gw = gateway();
    const write = (annotations: Annotation[]) =>
      gw.createCheckRun(where, {
        status: "completed",
        conclusion: "failure",
        output: { title: "t", summary: "s", annotations },
      });
    const one = annotation(0, "m");
    const { start_column: _, end_column: __, ...lines } = one;
    for (const refused of [
      Array.from({ length: 51 }, (_, i) => annotation(i, "m")),
      [{ ...lines, start_line: 3, end_line: 2 }],
      [{ ...one, end_line: 2 }],
      [{ ...one, start_column: 9, end_column: 5 }],
      [{ ...one, title: "t".repeat(256) }],
    ])
      await expect(write(refused)).rejects.toMatchObject({ status: 422 });
    expect(gh.checkRuns).toEqual([]);
    // The App's own: a finding over several lines gets no columns; on one line, an inclusive end column.
    const finding = { ruleId: "r", severity: "error", message: "m", messageId: "x", pointer: "" };
    const wide = toAnnotation("p/plugin.json", {
      ...finding,
      line: 2,
      column: 7,
      endLine: 4,
      endColumn: 2,
    } as unknown as Finding);
    const empty = toAnnotation("p/plugin.json", {
      ...finding,
      line: 3,
      column: 5,
      endLine: 3,
      endColumn: 5,
    } as unknown as Finding);
    await write([wide, empty]);
    expect(gh.checkRuns.map((r) => r.annotations)).toEqual([[wide, empty]]);
    expect(empty).toMatchObject({ start_column: 5, end_column: 5 });
    expect(wide.start_column).toBeUndefined();
  });
});
