/**
 * A descriptor that is a symbolic link in the pull request is reviewed as GitHub's contents API reads it,
 * whichever adapter reads it: a link to a file of the repository as that file's text, any other link
 * (outside the repository, to nothing) as something that is not a file, which fails the check. GraphQL's
 * blob of a link is only the path it names; reviewing that would fail a valid descriptor as invalid JSON
 * through GraphQL and pass it through REST.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { addedPatch, deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "../harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** Pull request 7 adds `p/plugin.json`, a symbolic link naming `target`; `shared/plugin.json` holds `content`. */
function linkedDescriptor(gh: FakeGitHub, target: string, content: string) {
  gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: addedPatch(target) }];
  gh.file(R, HEAD_SHA, "p/plugin.json", target);
  gh.symlinks.add("p/plugin.json");
  gh.file(R, HEAD_SHA, "shared/plugin.json", content);
}

/** The routes a review takes: GraphQL's, or REST's once GraphQL is unavailable; a review only with findings. */
function setup(rest: boolean, commented: boolean) {
  const routes: Route[] = ["token", "graphql", "files", "contents", "createCheckRun"];
  if (rest) routes.push("listCheckRuns");
  if (commented) routes.push("createReview");
  const gh = new FakeGitHub(routes);
  gh.graphqlUnavailable = rest;
  return { gh, probot: makeProbot().probot };
}

const adapters = [
  ["GraphQL", false],
  ["REST (GraphQL unavailable)", true],
] as const;

describe("GitHub App: a descriptor that is a symbolic link", () => {
  it.each(adapters)("a link to a valid descriptor of the repository passes through %s", async (_, rest) => {
    const { gh, probot } = setup(rest, false);
    linkedDescriptor(gh, "../shared/plugin.json", text(validHost()));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run!.annotations.map((a) => a.title)).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    gh.assertClean();
  });

  it.each(adapters)("a link to a broken descriptor fails with its findings through %s", async (_, rest) => {
    const { gh, probot } = setup(rest, true);
    linkedDescriptor(gh, "../shared/plugin.json", text({ ...validHost(), metricGroup: undefined }));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => [a.path, a.title])).toEqual([
      ["p/plugin.json", "metric-group-missing"],
    ]);
    gh.assertClean();
  });

  it.each(adapters)(
    "a link outside the repository fails, saying it is not a file, through %s",
    async (_, rest) => {
      const { gh, probot } = setup(rest, false);
      linkedDescriptor(gh, "../../../etc/passwd", text(validHost()));
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      const [run] = gh.runsFor(HEAD_SHA);
      expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(run!.output!.summary).toContain("something other than a file");
      expect(run!.annotations.map((a) => a.title)).toEqual([]);
      gh.assertClean();
    },
  );
});
