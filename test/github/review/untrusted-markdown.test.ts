/**
 * Nothing from the pull request is rendered (interfaces.md, "Trust"): descriptor member names and values,
 * paths and configuration text that an attacker chose come back in everything the App publishes (check run
 * summary, review body, line comments) as the characters they are, never as a mention, link, autolink, HTML
 * or one of the App's own hidden markers, and the findings are still published, readable. Real app, real
 * payloads, the fake GitHub validating every request; what the App wrote is read with markdown-it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DOCS_BASE } from "../../../src/core/rule.js";
import { readFingerprints } from "../../../src/github/review/pull-review/fingerprint.js";
import { text, validHost } from "../../helpers.js";
import { codeSpans, liveParts, OWN_HTML, shownText, ZWSP } from "../../markdown.js";
import { FakeGitHub, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  addedFile,
  addedPatch,
  BASE_SHA,
  deliver,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  rewritePatch,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The issue's member name: a way out of a code span, a team mention, a link, HTML and one of the App's markers. */
const MEMBER =
  "x` @acme/admins [approve](https://evil.example/a) <img src=x> <!-- plugin-review:id=deadbeefdeadbeefdeadbeefdeadbeef --> `y";
/** A value in text (not in a template's code span): a JSON string shown as it is. */
const VALUE =
  "@acme/admins [x](https://evil.example) <b>hi</b> www.evil.example <!-- plugin-review:fixed -->";
/** Folders named like a team and holding backticks, HTML and a link. */
const PATH = "@acme/admins/x`y <img src=x> [a](https://evil.example) @octocat/plugin.json";
const BODY_PATH = "@acme/`z` <!-- plugin-review:id=0123456789abcdef0123456789abcdef -->/plugin.json";
const REMOVED = "@acme/security/``` <details open>/plugin.json";

/** A descriptor holding the hostile name and values: each a finding. */
function hostile(): Json {
  const d: Json = validHost();
  d[MEMBER] = 1; // unknown-member, its name in the template's code span
  d.technologies = ["@acme/admins <img src=x> https://evil.example/t"]; // unknown-technology
  d.properties[0].type = VALUE; // invalid-value: the value in text, as JSON
  // Four metrics whose display name is their key: one repeated problem, one comment listing its lines.
  for (let i = 0; i < 4; i++) {
    const key = `m${i}\` @acme/admins <img src=x>`;
    d.metrics.push({ timeseries: { key, unit: "Count", displayname: key } });
  }
  return d;
}

/** Every piece of Markdown the App wrote: check run summaries, texts and titles, reviews and their comments. */
function published(gh: FakeGitHub): { where: string; markdown: string }[] {
  const out: { where: string; markdown: string }[] = [];
  for (const run of gh.runsFor(HEAD_SHA))
    for (const field of ["title", "summary", "text"] as const) {
      const md = (run.output as Record<string, string | undefined> | undefined)?.[field];
      if (md) out.push({ where: `check run ${field}`, markdown: md });
    }
  for (const r of gh.reviews) out.push({ where: `review ${r.id}`, markdown: r.body });
  for (const c of gh.comments) out.push({ where: `comment on ${c.path}:${c.line}`, markdown: c.body });
  for (const c of gh.issueComments) out.push({ where: "issue comment", markdown: c.body });
  return out;
}

/** Nothing live but the App's own links (the rule docs) and HTML (its markers, `<sub>`, `<details>`). */
function expectInert(gh: FakeGitHub): void {
  const all = published(gh);
  expect(all.length).toBeGreaterThan(0);
  for (const { where, markdown } of all) {
    expect(liveParts(markdown, { href: (h) => h.startsWith(DOCS_BASE), html: OWN_HTML }), where).toEqual([]);
    // No marker from the untrusted text in the raw Markdown: only the App's own.
    for (const fp of readFingerprints(markdown))
      expect(["deadbeefdeadbeefdeadbeefdeadbeef", "0123456789abcdef"], where).not.toContain(fp);
    expect(markdown, where).not.toMatch(/<!-- plugin-review:fixed -->/);
  }
}

const plain = (spans: string[]) => spans.map((s) => s.replace(ZWSP, ""));

describe("GitHub App: nothing from the pull request is rendered", () => {
  it("a descriptor's hostile member name, values and paths: published inert, the findings readable", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    const content = text(hostile());
    // One file whose every line is in the diff (line comments), one whose findings are not (the review body).
    gh.prFiles = [
      { filename: PATH, status: "added", patch: addedPatch(content) },
      {
        filename: BODY_PATH,
        status: "modified",
        patch: '@@ -1,2 +1,2 @@\n {\n-  "name": "x",\n+  "name": "custom.python.demo",',
      },
      { filename: REMOVED, status: "removed", patch: "" },
    ];
    gh.file(R, HEAD_SHA, PATH, content);
    const before = text({ ...validHost(), name: "x" });
    gh.file(R, HEAD_SHA, BODY_PATH, content).file(R, BASE_SHA, BODY_PATH, before);
    gh.file(R, BASE_SHA, REMOVED, text(validHost()));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));

    expectInert(gh);
    // Still published: the run fails on the findings, each rule named, the member name whole in a code span.
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const summary = run!.output!.summary!;
    expect(plain(codeSpans(summary))).toEqual(expect.arrayContaining([PATH, REMOVED]));
    expect(summary).toContain(`[\`unknown-member\`](${DOCS_BASE}unknown-member.md)`);
    expect(plain(codeSpans(summary))).toContain(MEMBER);
    const comment = gh.comments.find((c) => c.path === PATH && c.body.includes("`unknown-member`"));
    expect(plain(codeSpans(comment!.body))).toContain(MEMBER);
    expect(gh.comments.some((c) => c.body.includes("`unknown-technology`"))).toBe(true);
    expect(gh.comments.some((c) => /The same problem is reported 4 times/.test(c.body))).toBe(true);
    const [review] = gh.reviews;
    expect(review!.body).toContain("`unknown-member`");
    expect(plain(codeSpans(review!.body))).toEqual(expect.arrayContaining([MEMBER]));
    expect(plain(codeSpans(review!.body)).some((c) => c.startsWith(`${BODY_PATH}:`))).toBe(true);
    gh.assertClean();
  });

  it("names a rule quotes in a list or a note (paths, dimensions, a rename's old path): whole in their code spans, no word of them outside", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    // Each a name whose backticks would close the code span it is quoted in, the words after it then the App's.
    const twin = "team/a` Approved by security, safe to merge `/plugin.json";
    const dimension = "e` LGTM `f";
    const old = "old` No findings, this descriptor passes `/plugin.json";
    // Two descriptors with one name: each finding lists the other's path (duplicate-plugin-name).
    const same = text({ ...validHost(), name: "custom.python.same" });
    addedFile(gh, twin, same);
    addedFile(gh, "team/b/plugin.json", same);
    // A metric's dimensions changed (metric-dimensions-changed lists the old and new ones).
    const before = text(validHost());
    const changed = validHost();
    changed.version = "1.3.0";
    (changed.metrics as Json[])[0]!.timeseries.dimensions = ["rx_pid", dimension];
    const after = text(changed);
    gh.prFiles.push({ filename: "m/plugin.json", status: "modified", patch: rewritePatch(before, after) });
    gh.file(R, BASE_SHA, "m/plugin.json", before).file(R, HEAD_SHA, "m/plugin.json", after);
    // A rename from a path whose old version is not JSON (base-invalid-json names the old path).
    const renamed = text({ ...validHost(), name: "custom.python.renamed" });
    gh.prFiles.push({
      filename: "r/plugin.json",
      previous_filename: old,
      status: "renamed",
      patch: addedPatch(renamed).replace("@@ -0,0", "@@ -1,1"),
    });
    gh.file(R, BASE_SHA, old, "{").file(R, HEAD_SHA, "r/plugin.json", renamed);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));

    expectInert(gh);
    const all = published(gh);
    for (const { where, markdown } of all)
      expect(shownText(markdown), where).not.toMatch(/Approved by security|LGTM|this descriptor passes/);
    // Still said: each name whole in a code span of what the App published.
    const spans = all.flatMap(({ markdown }) => plain(codeSpans(markdown)));
    for (const name of [twin, dimension, old])
      expect(
        spans.some((c) => c === name || c.includes(name)),
        name,
      ).toBe(true);
    gh.assertClean();
  });

  it("a member name of 200,000 backtick runs (400 KB): its finding published, cut, in one code span; no crash", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    const doc = validHost();
    doc["`a".repeat(200_000)] = 1; // unknown-member, its name quoted in the template's code span
    addedFile(gh, "p/plugin.json", text(doc));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    // A warning (unknown-member): published as such, not as a review that could not be completed.
    expect(run).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(run!.output!.summary).toContain("`unknown-member`");
    expect(run!.output!.summary).not.toMatch(/could not be completed/);
    const comment = gh.comments.find((c) => c.body.includes("`unknown-member`"));
    // The name cut to fit the comment, still one code span.
    expect(plain(codeSpans(comment!.body)).some((c) => /^(?:`a){100}/.test(c))).toBe(true);
    expectInert(gh);
    gh.assertClean();
  });

  it("hostile configuration text in the error the check run shows: inside its code block, nothing live", async () => {
    const gh = new FakeGitHub(["token", "graphql", "createCheckRun"]);
    const { probot } = makeProbot();
    gh.prFiles.push({ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1 @@\n+{" });
    gh.file(R, HEAD_SHA, "p/plugin.json", text(validHost()));
    const key =
      "x```\n\n@acme/admins <img src=x> [a](https://evil.example) <!-- plugin-review:id=deadbeefdeadbeefdeadbeefdeadbeef -->\n```";
    gh.file(
      R,
      "HEAD",
      ".github/plugin-review.yml",
      `${JSON.stringify(key)}: 1\nrules:\n  ${JSON.stringify(MEMBER)}: off\n`,
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      conclusion: "failure",
      output: { title: "Invalid plugin-review configuration" },
    });
    expectInert(gh);
    // The problems are still said, the unknown key and rule id among them.
    expect(run!.output!.summary).toContain("unknown rule id");
    expect(run!.output!.summary).toContain("unknown key");
    gh.assertClean();
  });
});
