/**
 * `/plugin-review recheck` (interfaces.md, "Restarts, crashes and downtime"): a comment on a pull request
 * from someone with write access reviews its current head (a required check that was never created has no
 * Re-run button); anyone else gets one reply saying why nothing happened. The real `issue_comment.created`
 * example payload, the real app through Probot, the validated fake GitHub.
 */
import type { Probot } from "probot";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isHandled, isRecheckCommand } from "../../../src/github/delivery/events.js";
import { ReviewScheduler } from "../../../src/github/delivery/scheduler.js";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  addedFile,
  deliver,
  example,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  writesIn,
  type Payload,
} from "../harness.js";
import { within } from "../scenarios.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The real `issue_comment.created` example: `login` comments `body` on pull request 7 of our repository. */
function commentPayload(body: string, login = "alice", type = "User"): Payload {
  const p = example("issue_comment", "created");
  p.installation = { id: 77 };
  p.repository.name = REPO;
  p.repository.full_name = `${OWNER}/${REPO}`;
  p.repository.owner.login = OWNER;
  p.repository.owner.type = "Organization";
  p.issue.number = 7;
  p.issue.pull_request = { url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/7` };
  p.comment.body = body;
  p.comment.user.login = login;
  p.comment.user.type = type;
  return p;
}

describe("/plugin-review recheck", () => {
  it("from someone with write access: the pull request's current head is reviewed, and nothing is replied", async () => {
    const gh = new FakeGitHub([
      "token",
      "permission",
      "getPull",
      "graphql",
      "files",
      "createCheckRun",
      "createReview",
    ]);
    gh.permissions.set("alice", "write");
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    addedFile(gh, "p/plugin.json", text({ ...validHost(), version: "1" }));
    const { probot } = makeProbot();
    await deliver(probot, "issue_comment", commentPayload("Please look again.\n/plugin-review recheck\n"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure" }),
    ]);
    expect(gh.reviews).toHaveLength(1);
    expect(gh.issueComments).toEqual([]);
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /pulls/7/reviews"]);
    gh.assertClean();
  });

  it.each(["read", undefined] as const)(
    "from someone with %s access: no review, one reply saying why",
    async (permission) => {
      const gh = new FakeGitHub(["token", "permission", "issueComment"]);
      if (permission) gh.permissions.set("bob", permission);
      const { probot } = makeProbot();
      await deliver(probot, "issue_comment", commentPayload("/plugin-review recheck", "bob"));
      expect(gh.checkRuns).toEqual([]);
      expect(gh.reviews).toEqual([]);
      expect(gh.issueComments).toEqual([
        expect.objectContaining({
          pull: `${OWNER}/${REPO}#7`,
          body: expect.stringMatching(/^@bob `\/plugin-review recheck` .* write access .* nothing was done/s),
        }),
      ]);
      expect(writesIn(gh.requests)).toEqual(["POST /issues/7/comments"]);
      gh.assertClean();
    },
  );

  it("from the same person again on the same pull request: no second reply; another person, or another pull request, gets one", async () => {
    const gh = new FakeGitHub(["token", "permission", "issueComment"]);
    gh.permissions.set("bob", "read");
    const { probot } = makeProbot();
    await deliver(probot, "issue_comment", commentPayload("/plugin-review recheck", "bob"));
    // Asked again, in another case: the permission is read again (it may have changed), nothing is written.
    await deliver(probot, "issue_comment", commentPayload("/plugin-review recheck", "Bob"));
    await deliver(probot, "issue_comment", commentPayload("/plugin-review recheck", "bob"));
    await deliver(probot, "issue_comment", commentPayload("/plugin-review recheck", "carol"));
    const elsewhere = commentPayload("/plugin-review recheck", "bob");
    elsewhere.issue.number = 8;
    elsewhere.issue.pull_request = { url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/8` };
    await deliver(probot, "issue_comment", elsewhere);
    expect(gh.issueComments.map((c) => `${c.pull} ${c.body.split(" ")[0]}`)).toEqual([
      `${OWNER}/${REPO}#7 @bob`,
      `${OWNER}/${REPO}#7 @carol`,
      `${OWNER}/${REPO}#8 @bob`,
    ]);
    expect(gh.count("GET", /\/collaborators\/\w+\/permission$/)).toBe(5);
    gh.assertClean();
  });

  describe("in the server's store (received before the answer, finished once nothing is left to do)", () => {
    /** An `issue_comment` delivery with a known id (the store's key). */
    const deliverAs = (probot: Probot, id: string, payload: Payload) =>
      probot.receive({ id, name: "issue_comment", payload } as Parameters<Probot["receive"]>[0]);

    /** A journal that remembers what the app wrote to it, in order. */
    function journal() {
      const said: string[] = [];
      return {
        said,
        journal: {
          received: (d: { id: string }) => void said.push(`received ${d.id}`),
          // Whether a review started is the crash count's business (store.test.ts), not the recheck's.
          started: () => undefined,
          finished: (id: string) => void said.push(`finished ${id}`),
        },
      };
    }

    it("a writer's recheck is finished once its head's review is done; a reader's once it is replied to", async () => {
      const gh = new FakeGitHub([
        "token",
        "permission",
        "getPull",
        "graphql",
        "files",
        "createCheckRun",
        "createReview",
        "issueComment",
      ]);
      gh.permissions.set("alice", "write");
      gh.permissions.set("bob", "read");
      gh.pulls.set(7, pullRequestPayload("opened").pull_request);
      addedFile(gh, "p/plugin.json", text({ ...validHost(), version: "1" }));
      const { said, journal: j } = journal();
      const { probot } = makeProbot({ appOptions: { journal: j } });
      await deliverAs(probot, "writer", commentPayload("/plugin-review recheck"));
      await deliverAs(probot, "reader", commentPayload("/plugin-review recheck", "bob"));
      expect(said).toEqual(["received writer", "finished writer", "received reader", "finished reader"]);
      expect(gh.runsFor(HEAD_SHA)).toHaveLength(1);
      gh.assertClean();
    });

    it("a recheck GitHub keeps failing is finished when the server's retries give up, not left for a restart", async () => {
      const gh = new FakeGitHub(["token", "permission"]);
      // Every read of the permission fails: the first try, the retry plugin's retries, and the scheduler's retry.
      gh.failFor("GET", /\/collaborators\/alice\/permission$/, 60_000, { status: 502 });
      const { said, journal: j } = journal();
      const scheduler = new ReviewScheduler({ background: { concurrency: 1 }, retriesMs: [1] });
      const { probot } = makeProbot({ appOptions: { journal: j, scheduler } });
      await deliverAs(probot, "failing", commentPayload("/plugin-review recheck"));
      await within(10_000, () => said.length === 2);
      expect(await scheduler.drain(5_000)).toBe(true);
      expect(said).toEqual(["received failing", "finished failing"]);
      expect(gh.checkRuns).toEqual([]);
    });
  });

  it("ignores comments that are not the command, the App's own reply, and comments on issues", async () => {
    const gh = new FakeGitHub([]);
    const { probot } = makeProbot();
    await deliver(probot, "issue_comment", commentPayload("could someone /plugin-review recheck this?"));
    await deliver(
      probot,
      "issue_comment",
      commentPayload("/plugin-review recheck", "plugin-review[bot]", "Bot"),
    );
    const onIssue = commentPayload("/plugin-review recheck");
    delete onIssue.issue.pull_request;
    await deliver(probot, "issue_comment", onIssue);
    expect(gh.requests).toEqual([]);
    gh.assertClean();
  });

  it("knows the command on a line of its own, in any case, and nothing else (not quoted, not in code, not hidden)", () => {
    for (const body of [
      "/plugin-review recheck",
      "  /Plugin-Review   RECHECK  ",
      "Hi\r\n/plugin-review recheck\r\nthanks",
      // After a code block or a hidden comment, the command said.
      "```\n/plugin-review recheck\n```\n/plugin-review recheck",
      "<!-- a note --> \n/plugin-review recheck",
    ])
      expect(isRecheckCommand(body)).toBe(true);
    for (const body of [
      "/plugin-review",
      "/plugin-review rechecks",
      "> /plugin-review recheck",
      "`/plugin-review recheck`",
      // Quoted as people quote a command: documented in a code block, pasted in a log, hidden.
      "To ask again, comment:\n```\n/plugin-review recheck\n```",
      "~~~~text\n/plugin-review recheck\n~~~\n~~~~",
      "```\nunclosed\n/plugin-review recheck",
      "Logs:\n\n    /plugin-review recheck\n",
      "\t/plugin-review recheck",
      "<!-- template:\n/plugin-review recheck\n-->",
      "<!-- never closed\n/plugin-review recheck",
    ])
      expect(isRecheckCommand(body)).toBe(false);
    expect(isHandled("issue_comment", commentPayload("/plugin-review recheck"))).toBe(true);
    expect(
      isHandled("issue_comment", { ...commentPayload("/plugin-review recheck"), action: "edited" }),
    ).toBe(false);
  });
});
