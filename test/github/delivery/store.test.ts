/**
 * The server's store (src/github/delivery/store.ts): a delivery is on disk when `received` returns, a crash
 * that cuts a line short loses nothing before it, and reopening keeps only what is still needed.
 */
import {
  appendFileSync,
  chmodSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The flush itself is watched: reading the file back would see the page cache, flushed or not.
vi.mock("node:fs", async (actual) => {
  const fs = await actual<typeof import("node:fs")>();
  return { ...fs, fsyncSync: vi.fn(fs.fsyncSync) };
});
import { DeliveryStore, STORE_FILE } from "../../../src/github/delivery/store.js";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "plugin-review-store-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const delivery = (id: string, at = Date.now()) => ({
  id,
  name: "pull_request",
  payload: { action: "opened", number: 7 },
  at,
});
const lines = () =>
  readFileSync(join(dir, STORE_FILE), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string });

describe("the delivery store", () => {
  it("has a delivery on disk as soon as it is received, before anything is closed", () => {
    const store = DeliveryStore.open(dir);
    store.received(delivery("d1"));
    // Read by another handle, as a process started after a kill -9 would.
    expect(lines()).toEqual([expect.objectContaining({ t: "received", id: "d1" })]);
    store.received(delivery("d1")); // the same delivery again (a redelivery): recorded once
    expect(lines()).toHaveLength(1);
    store.close();
  });

  it("flushes a delivery to disk before `received` returns, and nothing else (an end lost costs a look again)", () => {
    const store = DeliveryStore.open(dir);
    const flushes = vi.mocked(fsyncSync);
    flushes.mockClear();
    store.received(delivery("d1"));
    expect(flushes).toHaveBeenCalledTimes(1);
    store.finished("d1");
    store.settle("guid");
    store.sweptTo(1234);
    expect(flushes).toHaveBeenCalledTimes(1);
    store.close();
  });

  it("keeps its file near the size of what is still needed while the server runs, not only at open", () => {
    const store = DeliveryStore.open(dir, 100);
    for (let i = 0; i < 1000; i++) {
      store.received(delivery(`d${i}`));
      if (i % 100 !== 0) store.finished(`d${i}`);
    }
    // 1,990 lines appended; 10 deliveries are still pending.
    expect(lines().length).toBeLessThanOrEqual(100 + 10);
    expect(store.pending()).toHaveLength(10);
    store.received(delivery("last"));
    // The process dies: the next one finds exactly what was not finished.
    const next = DeliveryStore.open(dir);
    expect(next.inherited().map((d) => d.id)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `d${i * 100}`),
      "last",
    ]);
    next.close();
    store.close();
  });

  it("gives the next process what this one received and did not finish, and nothing it finished", () => {
    const first = DeliveryStore.open(dir);
    first.received(delivery("d1"));
    first.received(delivery("d2"));
    first.finished("d1");
    // The process dies: no close.
    const second = DeliveryStore.open(dir);
    expect(second.inherited().map((d) => d.id)).toEqual(["d2"]);
    second.received(delivery("d3"));
    expect(second.pending().map((d) => d.id)).toEqual(["d2", "d3"]);
    expect(second.inherited().map((d) => d.id)).toEqual(["d2"]);
    second.close();
  });

  it("ignores a last line a crash cut short, and keeps every whole line before it", () => {
    const store = DeliveryStore.open(dir);
    store.received(delivery("d1"));
    store.close();
    appendFileSync(join(dir, STORE_FILE), '{"t":"received","id":"d2","name":"pull_req');
    const reopened = DeliveryStore.open(dir);
    expect(reopened.inherited().map((d) => d.id)).toEqual(["d1"]);
    reopened.close();
  });

  it("rewrites itself at open with what is still needed: pending deliveries, recent settled ones, the last sweep", () => {
    const store = DeliveryStore.open(dir);
    for (let i = 0; i < 50; i++) {
      store.received(delivery(`d${i}`));
      if (i !== 7) store.finished(`d${i}`);
    }
    store.settle("old-guid", Date.now() - 5 * 24 * 3600_000);
    store.settle("recent-guid");
    store.sweptTo(1234);
    store.close();
    const reopened = DeliveryStore.open(dir);
    expect(lines().map((l) => l.t)).toEqual(["received", "settled", "swept"]);
    expect(reopened.pending().map((d) => d.id)).toEqual(["d7"]);
    expect([reopened.isSettled("recent-guid"), reopened.isSettled("old-guid")]).toEqual([true, false]);
    expect(reopened.sweptUntil).toBe(1234);
    reopened.close();
  });

  it("keeps what it holds to its owner: the directory 0700 and the file 0600, also when they were made open to others", () => {
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    const fresh = join(dir, "fresh");
    DeliveryStore.open(fresh).close();
    expect([mode(fresh), mode(join(fresh, STORE_FILE))]).toEqual(["700", "600"]);
    // Made by hand, or by a version that did not care: the modes are tightened at open.
    const loose = join(dir, "loose");
    mkdirSync(loose, { mode: 0o755 });
    chmodSync(loose, 0o755);
    writeFileSync(join(loose, STORE_FILE), "", { mode: 0o644 });
    chmodSync(join(loose, STORE_FILE), 0o644);
    const store = DeliveryStore.open(loose);
    store.received(delivery("d1"));
    expect([mode(loose), mode(join(loose, STORE_FILE))]).toEqual(["700", "600"]);
    expect(store.warnings).toEqual([]);
    store.close();
  });

  it("counts, per delivery, the processes that stopped while its review ran; not those that stopped before it started", () => {
    const flushes = vi.mocked(fsyncSync);
    const first = DeliveryStore.open(dir, 4);
    first.received(delivery("killer"));
    first.received(delivery("queued"));
    first.received(delivery("done"));
    flushes.mockClear();
    first.started("killer");
    first.started("killer"); // a retry in the same process: one crash at most
    first.started("done");
    first.finished("done");
    // Not flushed: a process that dies leaves its writes to the operating system.
    expect(flushes).not.toHaveBeenCalled();
    // The process dies (a rewrite of the file on the way keeps that the review started).
    const second = DeliveryStore.open(dir);
    expect(second.inherited().map((d) => [d.id, d.crashes])).toEqual([
      ["killer", 1],
      ["queued", undefined],
    ]);
    second.started("killer");
    // It dies again; the third process sees two crashes, also after a clean rewrite at open.
    const third = DeliveryStore.open(dir);
    expect(third.inherited().map((d) => [d.id, d.crashes])).toEqual([
      ["killer", 2],
      ["queued", undefined],
    ]);
    third.close();
    const fourth = DeliveryStore.open(dir);
    expect(fourth.inherited().map((d) => [d.id, d.crashes])).toEqual([
      ["killer", 2],
      ["queued", undefined],
    ]);
    fourth.close();
    for (const s of [first, second]) s.close();
  });

  it("refuses a directory it cannot make, so that the server says so", () => {
    const file = join(dir, "a-file");
    appendFileSync(file, "");
    expect(() => DeliveryStore.open(join(file, "state"))).toThrow(/ENOTDIR|EEXIST/);
  });
});
