/**
 * Where `migrate` keeps what it made of each descriptor (its files, the plugin's text and code) between
 * converting the fleet and writing it: a temporary file, so that the memory a run takes is bounded by its
 * largest plugin, not by the number of plugins (the names and keys of all must be compared before anything is
 * written). The file is removed as soon as it is open (where the system allows it), so that nothing is left
 * behind however the run ends; where it cannot be made or written, what it would hold stays in memory.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";

/** A value kept: its place in the file, or the value itself (no file). */
export type Kept<T> = { offset: number; length: number } | { value: T };

export class Stage {
  private fd: number | undefined;
  private folder: string | undefined;
  private size = 0;

  constructor() {
    try {
      this.folder = mkdtempSync(join(tmpdir(), "plugin-review-migrate-"));
      const file = join(this.folder, "stage");
      this.fd = openSync(file, "w+", 0o600);
      // Gone from the folder at once: the open file lives until the process ends, however it ends.
      try {
        rmSync(this.folder, { recursive: true, force: true });
        this.folder = undefined;
      } catch {
        // Windows keeps an open file: removed by close().
      }
    } catch {
      this.close();
    }
  }

  put<T>(value: T): Kept<T> {
    if (this.fd === undefined) return { value };
    try {
      const bytes = serialize(value);
      let done = 0;
      while (done < bytes.length)
        done += writeSync(this.fd, bytes, done, bytes.length - done, this.size + done);
      const kept = { offset: this.size, length: bytes.length };
      this.size += bytes.length;
      return kept;
    } catch {
      // A full disk: the rest is held in memory, as without a file.
      return { value };
    }
  }

  get<T>(kept: Kept<T>): T {
    if ("value" in kept) return kept.value;
    const bytes = Buffer.alloc(kept.length);
    let done = 0;
    while (done < kept.length) {
      const n = readSync(this.fd!, bytes, done, kept.length - done, kept.offset + done);
      if (n === 0) throw new Error("the migration's temporary file ended early");
      done += n;
    }
    return deserialize(bytes) as T;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }
}

/**
 * A copy of a value whose strings are its own. A string the JSON parser took from a descriptor's text is a slice
 * of that text, and holds all of it in memory: a metric key kept for the run's summary kept the whole plugin.json.
 */
export function detached<T>(value: T): T {
  return deserialize(serialize(value)) as T;
}
