/**
 * One identity for a finding, as a pull request's author sees it: the App comments on a finding once and
 * never contradicts itself on an ordinary edit. A push that inserts, reorders or deletes other metrics gives
 * no "fixed" reply, resolves no thread and posts no second comment, wherever GitHub now shows the thread
 * (moved with its line, or outdated); a push that fixes one finding while another moves answers exactly the
 * fixed one. Comments written before findings had an identity (their marker names rule, path and raw
 * pointer) are not the App's any more: never answered, never resolved, never counted as already said.
 * Real app, real payloads, GitHub faked over nock: REST requests validated against GitHub's OpenAPI
 * description, every GraphQL document against GitHub's schema.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../../helpers.js";
import { FakeGitHub, LATER_REVIEW_ROUTES, type Comment } from "../../fake-github.js";
import { cleanup, disableNetwork } from "../../github-mock.js";
import {
  BASE_SHA,
  deliver,
  deliverPush,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  rewritePatch,
} from "../../harness.js";

const R = `${OWNER}/${REPO}`;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

const metric = (key: string, displayname: string) => ({ timeseries: { key, unit: "Count", displayname } });

/** The host example, bumped, with `metrics` (by key → displayname) added after its own two. */
function head(added: [string, string][]): string {
  const d: Json = validHost();
  d.version = "1.2.1";
  for (const [key, name] of added) d.metrics.push(metric(key, name));
  return text(d);
}

/** The line of metric `key`'s displayname in `content`. */
function displaynameLine(content: string, key: string): number {
  const at = content.indexOf('"displayname"', content.indexOf(`"key": "${key}"`));
  return content.slice(0, at).split("\n").length;
}

const BASE = text(validHost());
const roots = (gh: FakeGitHub) => gh.comments.filter((c) => !c.in_reply_to_id);
const replies = (gh: FakeGitHub) => gh.comments.filter((c) => c.in_reply_to_id);
const ours = (gh: FakeGitHub) => roots(gh).filter((c) => c.user.type === "Bot");

/** A pull request opened with `added` metrics: one thread per metric whose displayname equals its key. */
async function opened(added: [string, string][]) {
  const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
  const { probot } = makeProbot();
  const content = head(added);
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: rewritePatch(BASE, content) }];
  gh.file(R, HEAD_SHA, "p/plugin.json", content).file(R, BASE_SHA, "p/plugin.json", BASE);
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  const thread = (key: string) => ours(gh).find((c) => c.line === displaynameLine(content, key));
  return { gh, probot, content, thread };
}

/**
 * Pushes `content` as the pull request's new head. GitHub moves a thread's line with its unchanged text, or
 * marks it outdated (`line` null) when the diff around it changed: `lines` says which, per thread.
 */
async function push(
  gh: FakeGitHub,
  probot: ReturnType<typeof makeProbot>["probot"],
  sha: string,
  content: string,
  lines: (c: Comment) => number | null,
) {
  for (const c of ours(gh)) c.line = lines(c);
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: rewritePatch(BASE, content) }];
  gh.file(R, sha, "p/plugin.json", content);
  await deliverPush(probot, gh, sha);
  expect(gh.runsFor(sha)[0]).toMatchObject({ status: "completed" });
}

/** After the push: no reply, no resolved thread, no comment but the first one, no second review. */
function saidNothingMore(gh: FakeGitHub, first: Comment): void {
  expect(replies(gh)).toEqual([]);
  expect(gh.resolved.size).toBe(0);
  expect(ours(gh)).toEqual([first]);
  expect(gh.reviews).toHaveLength(1);
  gh.assertClean();
}

describe("GitHub App: one identity for a finding across pushes", () => {
  it("a metric inserted above a commented finding: no fixed reply, no resolved thread, no second comment", async () => {
    const { gh, probot, thread } = await opened([["errors", "errors"]]);
    const t = thread("errors")!;
    expect(t.body).toMatch(/displayname-equals-key/);
    const next = head([
      ["inserted", "Inserted"],
      ["errors", "errors"],
    ]);
    // GitHub moves the thread with its line.
    await push(gh, probot, "d".repeat(40), next, () => displaynameLine(next, "errors"));
    saidNothingMore(gh, t);
  });

  it("a reorder (the finding's metric moves to the top; its thread is outdated): nothing answered, nothing said again", async () => {
    const { gh, probot, thread } = await opened([
      ["other", "Other"],
      ["errors", "errors"],
    ]);
    const t = thread("errors")!;
    const d: Json = JSON.parse(
      head([
        ["other", "Other"],
        ["errors", "errors"],
      ]),
    );
    d.metrics.unshift(d.metrics.pop());
    await push(gh, probot, "d".repeat(40), text(d), () => null);
    saidNothingMore(gh, t);
  });

  it("a deleted neighbour: nothing answered, nothing said again", async () => {
    const { gh, probot, thread } = await opened([
      ["neighbour", "Neighbour"],
      ["errors", "errors"],
    ]);
    const t = thread("errors")!;
    const next = head([["errors", "errors"]]);
    await push(gh, probot, "d".repeat(40), next, () => displaynameLine(next, "errors"));
    saidNothingMore(gh, t);
  });

  it("a push that fixes one finding while another moves answers exactly the fixed one", async () => {
    const { gh, probot, thread } = await opened([
      ["errors", "errors"],
      ["warnings", "warnings"],
    ]);
    const [errors, warnings] = [thread("errors")!, thread("warnings")!];
    expect(errors.id).not.toBe(warnings.id);
    // `errors` gets a human-readable name (fixed); a metric is inserted above `warnings` (it moves).
    const next = head([
      ["errors", "Errors"],
      ["inserted", "Inserted"],
      ["warnings", "warnings"],
    ]);
    await push(gh, probot, "d".repeat(40), next, (c) =>
      c.id === warnings.id ? displaynameLine(next, "warnings") : null,
    );
    expect([...gh.resolved]).toEqual([errors.id]);
    expect(replies(gh)).toEqual([
      expect.objectContaining({
        in_reply_to_id: errors.id,
        body: expect.stringMatching(/^Fixed in ddddddd: this finding is gone\./),
      }),
    ]);
    expect(ours(gh)).toEqual([errors, warnings]);
    expect(gh.reviews).toHaveLength(1);
    gh.assertClean();
  });

  it("comments with the old marker (rule, path and raw pointer) are not ours: never answered, resolved or counted as said", async () => {
    const { gh, probot, thread } = await opened([["errors", "errors"]]);
    const t = thread("errors")!;
    // Two threads an earlier version of the App wrote: one about a finding since fixed, one about `errors`.
    const old = (id: number, line: number) => ({
      ...t,
      id,
      line,
      body: `old comment <!-- plugin-review:fingerprint=${"0123456789abcdef".slice(0, 16)} -->`,
    });
    gh.comments.push(old(11, 3), old(12, t.line!));
    // The current thread is resolved by a person: the finding is still there, and only the old marker names it.
    gh.resolved.add(t.id);
    const next = head([
      ["inserted", "Inserted"],
      ["errors", "errors"],
    ]);
    await push(gh, probot, "d".repeat(40), next, (c) => c.line);
    // The old threads: no reply, not resolved.
    expect(replies(gh)).toEqual([]);
    expect(gh.resolved.has(11) || gh.resolved.has(12)).toBe(false);
    // Not counted as already said: the finding (its own thread closed) is commented once more, with the new marker.
    const fresh = ours(gh).filter((c) => ![t.id, 11, 12].includes(c.id));
    expect(fresh).toEqual([
      expect.objectContaining({
        line: displaynameLine(next, "errors"),
        body: expect.stringMatching(/plugin-review:id=[0-9a-f]{32}/),
      }),
    ]);
    gh.assertClean();
  });
});
