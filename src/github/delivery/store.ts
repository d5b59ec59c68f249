/**
 * The server's own record of what it received and did not finish, so that a review cut short by a crash
 * (`kill -9`, an out-of-memory kill, a node that dies) is done after the restart even though GitHub saw
 * its delivery answered. Embedded: one append-only file (JSON lines) in a directory of the App's, nothing
 * to install or run beside it. A delivery is written and flushed to disk (fsync) before it is
 * acknowledged; the start of its review is noted, and its end is appended when its review is done. A
 * delivery whose review had started and not ended when the process stopped counts one crash more at the
 * next open (`crashes`), so that one whose review kills the process is not handed back forever
 * (recovery.ts gives up on it). The recovery (recovery.ts) also keeps here
 * the deliveries of GitHub's log it has settled and where its last sweep reached. Only a delivery's arrival
 * is flushed: an end, a settled mark or a sweep's reach lost with the machine costs at most a look again
 * after the restart (a review of a head whose run is complete writes nothing). At open, and whenever what
 * was appended outgrows what is still needed, the file is rewritten with only that (a line cut short by a
 * crash is ignored).
 *
 * One directory per process: two servers must not share one. What it keeps (repositories, pull requests,
 * commenters of deliveries) is for its owner alone: the directory is made 0700 and the file 0600, also when
 * they were there with looser modes (a directory whose mode cannot be changed is said in `warnings`).
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { SETTLED_FOR_MS } from "../time-budget.js";

/** A delivery as the server received it (its payload slimmed: events.ts slimPayload). */
export interface StoredDelivery {
  id: string;
  name: string;
  payload: Record<string, unknown>;
  /** When it was received (epoch ms). */
  at: number;
  /** How many processes stopped (crashed, were killed) while its review ran; absent: none. */
  crashes?: number;
}

type Entry =
  | ({ t: "received" } & StoredDelivery)
  | { t: "started"; id: string }
  | { t: "finished"; id: string }
  | { t: "settled"; guid: string; at: number }
  | { t: "swept"; at: number };

export const STORE_FILE = "deliveries.jsonl";

/** Lines appended before the file is rewritten with what is still needed (when that is much less). */
const COMPACT_AFTER_LINES = 10_000;

/** Makes a directory its owner's alone (0700); what to say when its mode stays open to others. */
function ownerOnly(dir: string): string | undefined {
  const mode = statSync(dir).mode & 0o777;
  if (!(mode & 0o077)) return undefined;
  try {
    chmodSync(dir, 0o700);
    return undefined;
  } catch (e) {
    return `the store's directory ${dir} is open to others (mode ${mode.toString(8)}) and its mode cannot be changed (${(e as NodeJS.ErrnoException).code}): make it 0700, owned by the server's user`;
  }
}

export class DeliveryStore {
  /** What the server should say of the store at start (a directory others can read, whose mode stayed). */
  readonly warnings: string[] = [];
  private readonly pendingById = new Map<string, StoredDelivery>();
  /** The deliveries pending when the store was opened: an earlier process's. */
  private readonly inheritedIds: ReadonlySet<string>;
  /** Pending deliveries whose review started (in this process, once the store is open). */
  private readonly startedIds = new Set<string>();
  private readonly settledAt = new Map<string, number>();
  private swept: number | undefined;
  private fd: number;
  /** Lines appended since the file was last rewritten. */
  private appended = 0;

  private constructor(
    private readonly file: string,
    private readonly compactAfter: number,
  ) {
    this.load();
    this.inheritedIds = new Set(this.pendingById.keys());
    // A review that had started and not ended when the last process stopped: that process crashed with it.
    for (const id of this.startedIds) {
      const d = this.pendingById.get(id);
      if (d) d.crashes = (d.crashes ?? 0) + 1;
    }
    this.startedIds.clear();
    this.compact();
    this.fd = openSync(file, "a", 0o600);
  }

  /**
   * Opens (creating it) the store in `dir`; throws when the directory cannot be written. `compactAfter`:
   * how many lines may be appended before the file is rewritten (tests make it small).
   */
  static open(dir: string, compactAfter = COMPACT_AFTER_LINES): DeliveryStore {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const warning = ownerOnly(dir);
    const store = new DeliveryStore(join(dir, STORE_FILE), compactAfter);
    if (warning) store.warnings.push(warning);
    return store;
  }

  /** A delivery received: on disk (flushed) before this returns. */
  received(delivery: StoredDelivery): void {
    if (this.pendingById.has(delivery.id)) return;
    this.pendingById.set(delivery.id, delivery);
    this.append({ t: "received", ...delivery }, { flush: true });
  }

  /**
   * A delivery's review starts. Not flushed: a process that dies leaves it to the operating system, which
   * writes it; only a machine that dies loses it, and the delivery then gets one try more.
   */
  started(id: string): void {
    if (!this.pendingById.has(id) || this.startedIds.has(id)) return;
    this.startedIds.add(id);
    this.append({ t: "started", id });
  }

  /** A delivery's review done (completed, or failed for a reason a retry would only repeat). */
  finished(id: string): void {
    if (!this.pendingById.delete(id)) return;
    this.startedIds.delete(id);
    this.append({ t: "finished", id });
  }

  /** Deliveries received and not finished, oldest first. */
  pending(): StoredDelivery[] {
    return [...this.pendingById.values()].sort((a, b) => a.at - b.at);
  }

  /** What an earlier process received and did not finish (still pending). */
  inherited(): StoredDelivery[] {
    return this.pending().filter((d) => this.inheritedIds.has(d.id));
  }

  /** Whether the recovery settled this delivery of GitHub's log (reviewed, or found complete). */
  isSettled(guid: string): boolean {
    return this.settledAt.has(guid);
  }

  settle(guid: string, at = Date.now()): void {
    if (this.settledAt.has(guid)) return;
    this.settledAt.set(guid, at);
    this.append({ t: "settled", guid, at });
  }

  /** Up to when (epoch ms) the last completed sweep read GitHub's log; undefined before the first. */
  get sweptUntil(): number | undefined {
    return this.swept;
  }

  sweptTo(at: number): void {
    this.swept = at;
    this.append({ t: "swept", at });
  }

  close(): void {
    closeSync(this.fd);
  }

  private append(entry: Entry, opts: { flush?: boolean } = {}): void {
    writeSync(this.fd, JSON.stringify(entry) + "\n");
    // On disk, not in the page cache only: a machine that dies keeps what was acknowledged.
    if (opts.flush) fsyncSync(this.fd);
    // A server that runs for months: the file is kept near the size of what is still needed.
    const needed = this.pendingById.size + this.startedIds.size + this.settledAt.size + 1;
    if (++this.appended >= this.compactAfter && this.appended > 2 * needed) {
      closeSync(this.fd);
      this.compact();
      this.fd = openSync(this.file, "a");
    }
  }

  private load(): void {
    if (!existsSync(this.file)) return;
    for (const line of readFileSync(this.file, "utf8").split("\n")) {
      if (!line) continue;
      let e: Entry;
      try {
        e = JSON.parse(line) as Entry;
      } catch {
        continue; // the last line, cut short by a crash
      }
      if (e.t === "received")
        this.pendingById.set(e.id, {
          id: e.id,
          name: e.name,
          payload: e.payload,
          at: e.at,
          ...(e.crashes ? { crashes: e.crashes } : {}),
        });
      else if (e.t === "started") this.startedIds.add(e.id);
      else if (e.t === "finished") {
        this.pendingById.delete(e.id);
        this.startedIds.delete(e.id);
      } else if (e.t === "settled") this.settledAt.set(e.guid, e.at);
      else if (e.t === "swept") this.swept = e.at;
    }
  }

  /** Rewrites the file with what is still needed, atomically (a crash leaves the old file or the new). */
  private compact(): void {
    const now = Date.now();
    for (const [guid, at] of this.settledAt) if (now - at > SETTLED_FOR_MS) this.settledAt.delete(guid);
    const entries: Entry[] = [
      ...this.pending().map((d): Entry => ({ t: "received", ...d })),
      // This process's started reviews (a rewrite while they run keeps that they started).
      ...[...this.startedIds].map((id): Entry => ({ t: "started", id })),
      ...[...this.settledAt].map(([guid, at]): Entry => ({ t: "settled", guid, at })),
      ...(this.swept === undefined ? [] : [{ t: "swept", at: this.swept } as Entry]),
    ];
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, "w", 0o600);
    try {
      // A file left by a crash keeps the mode it was made with.
      fchmodSync(fd, 0o600);
      writeSync(fd, entries.map((e) => JSON.stringify(e) + "\n").join(""));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    this.appended = 0;
  }
}
