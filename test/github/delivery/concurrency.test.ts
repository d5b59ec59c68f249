/**
 * One review at a time per head commit: simultaneous duplicate deliveries and the pair every push sends
 * (`pull_request.synchronize` and `check_suite.requested`), through the real app against the fake GitHub;
 * and the lock and the background pool on their own.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AnswersFirst,
  BackgroundPool,
  CheckRunsFirst,
  KeyedLock,
  ShuttingDownError,
  TakeTurns,
} from "../../../src/github/delivery/concurrency.js";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, LATER_REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  BASE_SHA,
  checkSuitePayload,
  deliver,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** A modified descriptor whose changed line carries a finding (a line comment) and whose version was not bumped. */
function modified(gh: FakeGitHub) {
  const before = text(validHost());
  const after = before.replace('"metricGroup": "tech.python.demo"', '"metricGroup": "tech.python.other"');
  const line = after.split("\n").findIndex((l) => l.includes('"metricGroup"')) + 1;
  gh.prFiles = [
    { filename: "p/plugin.json", status: "modified", patch: `@@ -${line},1 +${line},1 @@\n-x\n+x` },
  ];
  gh.file(R, BASE_SHA, "p/plugin.json", before).file(R, HEAD_SHA, "p/plugin.json", after);
}

/** Every annotation sent to GitHub, over every request (GitHub appends them on each update). */
function annotationsSent(gh: FakeGitHub): string[] {
  return gh.requests
    .filter((r) => /\/check-runs(\/\d+)?$/.test(r.path) && r.method !== "GET")
    .flatMap((r) => (r.body as { output?: { annotations?: object[] } }).output?.annotations ?? [])
    .map((a) => JSON.stringify(a));
}

function expectOneReviewOfTheCommit(gh: FakeGitHub) {
  expect(gh.runsFor(HEAD_SHA)).toEqual([
    expect.objectContaining({ status: "completed", conclusion: "failure" }),
  ]);
  // The deliveries after the first found the run already saying what they found: it is not written again.
  expect(gh.runsFor(HEAD_SHA)[0]!.updates).toBe(0);
  const sent = annotationsSent(gh);
  expect(sent.length).toBeGreaterThan(0);
  expect(new Set(sent).size).toBe(sent.length);
  expect(gh.reviews).toHaveLength(1);
  const roots = gh.comments.filter((c) => !c.in_reply_to_id).map((c) => `${c.path}:${c.line}`);
  expect(new Set(roots).size).toBe(roots.length);
}

describe("GitHub App: one review at a time per head commit", () => {
  it("five copies of a delivery at the same moment give one check run, one review, no annotation twice", async () => {
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
    const { probot } = makeProbot();
    modified(gh);
    const payload = pullRequestPayload("synchronize");
    await Promise.all(Array.from({ length: 5 }, () => deliver(probot, "pull_request", payload)));
    expectOneReviewOfTheCommit(gh);
    gh.assertClean();
  });

  it("a push's synchronize and check_suite.requested at the same moment give one check run, one review, no annotation twice", async () => {
    const gh = new FakeGitHub([...LATER_REVIEW_ROUTES, "getPull"]);
    const { probot } = makeProbot();
    modified(gh);
    const pr = pullRequestPayload("synchronize");
    gh.pulls.set(7, structuredClone(pr.pull_request));
    const suite = checkSuitePayload(pr);
    await Promise.all([deliver(probot, "pull_request", pr), deliver(probot, "check_suite", suite)]);
    expectOneReviewOfTheCommit(gh);
    gh.assertClean();
  });
});

describe("KeyedLock", () => {
  it("runs jobs of one key one at a time, in order, and other keys alongside", async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a1 = lock.run("a", async () => {
      events.push("a1 start");
      await gate;
      events.push("a1 end");
    });
    const a2 = lock.run("a", async () => void events.push("a2"));
    const b = lock.run("b", async () => void events.push("b"));
    await b;
    expect(events).toEqual(["a1 start", "b"]);
    release();
    await Promise.all([a1, a2]);
    expect(events).toEqual(["a1 start", "b", "a1 end", "a2"]);
    expect(lock.size).toBe(0);
  });

  it("a failing job releases the key", async () => {
    const lock = new KeyedLock();
    await expect(lock.run("k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(lock.run("k", async () => 42)).resolves.toBe(42);
  });
});

describe("BackgroundPool", () => {
  it("runs at most `concurrency` jobs at once, reports failures, and drains before it stops", async () => {
    const errors: unknown[] = [];
    const pool = new BackgroundPool(2, (e) => errors.push(e));
    let running = 0;
    let peak = 0;
    const job =
      (fail = false) =>
      async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (fail) throw new Error("review failed");
      };
    for (let i = 0; i < 6; i++) pool.submit(job(i === 3));
    expect(pool.pending).toBe(6);
    await expect(pool.drain(5_000)).resolves.toBe(true);
    expect(peak).toBe(2);
    expect(errors).toHaveLength(1);
    expect(() => pool.submit(job())).toThrow(ShuttingDownError);
  });

  it("stops waiting at the drain deadline", async () => {
    const pool = new BackgroundPool(1, () => {});
    pool.submit(() => new Promise(() => {})); // never ends
    await expect(pool.drain(20)).resolves.toBe(false);
  });

  it("gives a slot back when a job releases it, and still drains that job", async () => {
    const pool = new BackgroundPool(1, () => {});
    const order: string[] = [];
    let finishFirst!: () => void;
    pool.submit(async (release) => {
      order.push("first written");
      release();
      release(); // idempotent: the slot is not given back twice
      await new Promise<void>((r) => (finishFirst = r));
      order.push("first posted");
    });
    pool.submit(async () => void order.push("second"));
    pool.submit(async () => void order.push("third"));
    // However loaded the machine, the two later jobs get the slot the first gave back.
    for (let i = 0; i < 200 && order.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(["first written", "second", "third"]);
    expect(pool.pending).toBe(1);
    const drained = pool.drain(1_000);
    finishFirst();
    await expect(drained).resolves.toBe(true);
    expect(order.at(-1)).toBe("first posted");
  });

  it("lets a yielding job (a recovered review) run only while no other job waits, a few at a time", async () => {
    const pool = new BackgroundPool(2, () => {}, undefined, 1);
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const job = (name: string) => async () => {
      order.push(`${name} starts`);
      await new Promise<void>((r) => gates.set(name, r));
    };
    const until = async (n: number) => {
      for (let i = 0; i < 200 && order.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    pool.submit(job("recovered 1"), undefined, true);
    pool.submit(job("recovered 2"), undefined, true);
    pool.submit(job("live 1"));
    await until(2);
    // One yielding job at a time; the live one takes the second slot at once.
    expect(order).toEqual(["recovered 1 starts", "live 1 starts"]);
    pool.submit(job("live 2"));
    gates.get("recovered 1")!();
    await until(3);
    // The freed slot goes to the live job that waits, not to the recovered one.
    expect(order).toEqual(["recovered 1 starts", "live 1 starts", "live 2 starts"]);
    gates.get("live 1")!();
    await until(4);
    expect(order.at(-1)).toBe("recovered 2 starts");
    gates.get("live 2")!();
    gates.get("recovered 2")!();
    await expect(pool.drain(1_000)).resolves.toBe(true);
  });

  it("gives one installation at most half the slots: another's job starts while its jobs hold theirs", async () => {
    const pool = new BackgroundPool(4, () => {});
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const job = (name: string) => async () => {
      started.push(name);
      await new Promise<void>((r) => gates.set(name, r));
    };
    const until = async (n: number) => {
      for (let i = 0; i < 200 && started.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    for (let i = 1; i <= 6; i++) pool.submit(job(`a${i}`), undefined, false, ["inst a", `pr ${i}`]);
    await until(2);
    await new Promise((r) => setTimeout(r, 20));
    // Two slots stay free while installation a's first two jobs run: its others wait.
    expect(started).toEqual(["a1", "a2"]);
    pool.submit(job("b1"), undefined, false, ["inst b", "pr 1"]);
    await until(3);
    expect(started).toEqual(["a1", "a2", "b1"]);
    // A slot a's job gives back goes to a's next one.
    gates.get("a1")!();
    await until(4);
    expect(started).toEqual(["a1", "a2", "b1", "a3"]);
    for (const n of [2, 3, 4]) {
      gates.get(`a${n}`)!();
      await until(n + 3);
    }
    for (const name of ["a5", "a6", "b1"]) gates.get(name)!();
    await expect(pool.drain(1_000)).resolves.toBe(true);
    expect(started.sort()).toEqual(["a1", "a2", "a3", "a4", "a5", "a6", "b1"]);
  });

  it("asks for a slot only once the job is ready", async () => {
    const pool = new BackgroundPool(1, () => {});
    const order: string[] = [];
    let ready!: () => void;
    pool.submit(async () => void order.push("waited"), new Promise<void>((r) => (ready = r)));
    pool.submit(async () => void order.push("ready"));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(["ready"]);
    ready();
    await expect(pool.drain(1_000)).resolves.toBe(true);
    expect(order).toEqual(["ready", "waited"]);
  });
});

describe("TakeTurns", () => {
  it("serves one key after another at every level, first in first out under the same keys", () => {
    const turns = new TakeTurns<string>();
    for (let i = 1; i <= 4; i++) turns.push(["inst 1", "pr 1"], `1/1 push ${i}`);
    turns.push(["inst 1", "pr 2"], "1/2");
    turns.push(["inst 2", "pr 9"], "2/9");
    expect(turns.length).toBe(6);
    const served = Array.from({ length: 6 }, () => turns.shift());
    expect(served).toEqual(["1/1 push 1", "2/9", "1/2", "1/1 push 2", "1/1 push 3", "1/1 push 4"]);
    expect(turns.shift()).toBeUndefined();
    expect(turns.length).toBe(0);
  });

  it("passes over a widest key that may not be served now, which keeps its place", () => {
    const turns = new TakeTurns<string>();
    turns.push(["inst 1", "pr 1"], "1/1");
    turns.push(["inst 2", "pr 1"], "2/1");
    turns.push(["inst 1", "pr 2"], "1/2");
    const notInst1 = (key: string) => key !== "inst 1";
    expect(turns.has(notInst1)).toBe(true);
    expect(turns.shift(notInst1)).toBe("2/1");
    expect(turns.has(notInst1)).toBe(false);
    expect(turns.shift(notInst1)).toBeUndefined();
    expect(turns.length).toBe(2);
    expect([turns.shift(), turns.shift()]).toEqual(["1/1", "1/2"]);
  });
});

describe("AnswersFirst", () => {
  it("holds background work while a request is being answered, and lets it go once none is", async () => {
    const answers = new AnswersFirst(5_000);
    const order: string[] = [];
    const first = answers.enter();
    const second = answers.enter();
    const work = answers.quiet().then(() => order.push("work"));
    first();
    first(); // idempotent: one answer is not counted twice
    await new Promise((r) => setTimeout(r, 20));
    order.push("second answered");
    second();
    await work;
    expect(order).toEqual(["second answered", "work"]);
    // With nothing being answered, work waits only for the next turn of the event loop.
    await expect(answers.quiet()).resolves.toBeUndefined();
  });

  it("does not hold work longer than its limit (a steady stream must not starve reviews)", async () => {
    const answers = new AnswersFirst(20);
    answers.enter(); // never answered
    // Ordered, not timed: timers fire in the order they are due, so a 5-ms one fires before the 20-ms
    // limit lets work through, and a 1-s one after it.
    const order: string[] = [];
    setTimeout(() => order.push("5 ms"), 5);
    const late = setTimeout(() => order.push("1 s"), 1000);
    await answers.quiet();
    order.push("quiet");
    clearTimeout(late);
    expect(order).toEqual(["5 ms", "quiet"]);
  });

  it("is what a background pool waits for before it starts a job", async () => {
    const answers = new AnswersFirst(5_000);
    const pool = new BackgroundPool(
      2,
      () => {},
      () => answers.quiet(),
    );
    const answered = answers.enter();
    let started = false;
    pool.submit(async () => void (started = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(started).toBe(false);
    answered();
    await expect(pool.drain(1_000)).resolves.toBe(true);
    expect(started).toBe(true);
  });
});

describe("CheckRunsFirst", () => {
  it("holds a review back while its installation has check runs to write, and not longer", async () => {
    const order = new CheckRunsFirst(5_000);
    const a = order.expect("100");
    const b = order.expect("100");
    let posted = false;
    const review = order.quiet("100").then(() => (posted = true));
    await expect(order.quiet("200")).resolves.toBeUndefined(); // another installation does not wait
    a();
    a(); // idempotent
    await new Promise((r) => setTimeout(r, 10));
    expect(posted).toBe(false);
    b();
    await review;
    expect(posted).toBe(true);
  });

  it("stops holding back after its maximum wait", async () => {
    const order = new CheckRunsFirst(20);
    order.expect("100"); // never written
    await expect(order.quiet("100")).resolves.toBeUndefined();
  });
});
