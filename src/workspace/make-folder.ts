/**
 * `mkdir -p`, failing where it cannot. Node.js's `mkdirSync(dir, { recursive: true })` never returns where
 * mkdir answers "no such file or directory" for a folder whose parent exists (`/proc/x`, a folder of a
 * virtual file system): it makes the parent, which is there, and tries the folder again, forever. Here every
 * missing folder is made once, from the nearest existing one down, and the first refusal is thrown.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Makes `dir` and its missing parents; throws the file system's error (with its `code`) where it cannot. */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ;) {
    try {
      if (statSync(at).isDirectory()) break;
    } catch (e) {
      const parent = dirname(at);
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" || parent === at) throw e;
      missing.push(at);
      at = parent;
      continue;
    }
    // Something else where a folder is wanted: mkdir's own answers (EEXIST for the folder, ENOTDIR above it).
    const code = missing.length ? "ENOTDIR" : "EEXIST";
    throw Object.assign(new Error(`${code}: not a directory, mkdir '${dir}'`), { code });
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (e) {
      // Made meanwhile by another process: what was wanted.
      if (
        (e as NodeJS.ErrnoException).code === "EEXIST" &&
        statSync(folder, { throwIfNoEntry: false })?.isDirectory()
      )
        continue;
      throw e;
    }
  }
}
