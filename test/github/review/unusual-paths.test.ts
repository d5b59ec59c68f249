/**
 * Descriptor paths as git allows them (spaces, non-ASCII letters, `#`, `?`, `%`): read by their path through
 * GraphQL and through REST (the contents API, where the path is part of the URL), annotated and commented on
 * at that same path. Real app, real payloads, the validated fake GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { addedFile, deliver, makeProbot, pullRequestPayload } from "../harness.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

const PATH = "plug ins/café #1?%20/plugin.json";

/** A new descriptor at PATH with one error (an unknown unit) on a line of the diff. */
async function review(routes: readonly Route[], graphqlDown: boolean) {
  const gh = new FakeGitHub(routes);
  if (graphqlDown) gh.fail("POST", /^\/graphql$/, 502, Infinity, { message: "Server Error" });
  const { probot } = makeProbot();
  const d = validHost() as { metrics: { timeseries: { unit: string } }[] };
  d.metrics[0]!.timeseries.unit = "Secs";
  addedFile(gh, PATH, text(d));
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  return gh;
}

describe("GitHub App: a descriptor path with spaces, accents and URL characters", () => {
  for (const [how, routes, down] of [
    ["GraphQL", REVIEW_ROUTES, false],
    ["REST", [...REVIEW_ROUTES, "listCheckRuns", "contents"], true],
  ] as const)
    it(`is read, annotated and commented on at its path (${how})`, async () => {
      const gh = await review(routes, down);
      expect(gh.checkRuns.map((r) => r.conclusion)).toEqual(["failure"]);
      const annotated = gh.checkRuns[0]!.annotations.map((a) => a.path);
      expect(annotated.length).toBeGreaterThan(0);
      expect(new Set(annotated)).toEqual(new Set([PATH]));
      expect(gh.comments.map((c) => c.path)).toEqual([PATH]);
      if (down) expect(gh.requests.some((r) => r.path.includes("/contents/"))).toBe(true);
      gh.mock.assertAllValid();
    });
});
