/**
 * What `migrate --out` wrote in a migration's folder: each file's path and SHA-256, kept in the folder itself
 * (MANIFEST_FILE), so that a later run tells a file it wrote and nobody changed since (updated freely) from one a
 * person edited, or one that was there before (kept, unless `--force`). Sorted, without a date: the same files
 * give the same bytes, like every file of a migration.
 */
import { createHash } from "node:crypto";
import { isObj } from "../core/guards.js";
import { parseJsonFast } from "../core/json/parse.js";

export const MANIFEST_FILE = ".plugin-review-migrate.json";

/** A file's path in the migration's folder (`extension/extension.yaml`) -> the SHA-256 (hex) of what was written. */
export type Manifest = Map<string, string>;

export function digest(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The descriptor the folder's migration was made from, as the manifest names it (its path from the folder), so that
 * a later run finds the folder of a plugin.json whose migration goes elsewhere now (refused: its MIGRATION.md
 * stays where its extension was; renamed: the old folder is not left beside the new one).
 */
export function manifestFrom(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const parsed = parseJsonFast(text);
  const from = parsed.ok && isObj(parsed.value) ? parsed.value.from : undefined;
  return typeof from === "string" && from !== "" ? from : undefined;
}

/** The manifest's entries; none when the text is not one (a hand-made or damaged file vouches for nothing). */
export function readManifest(text: string | undefined): Manifest {
  const entries: Manifest = new Map();
  if (text === undefined) return entries;
  const parsed = parseJsonFast(text);
  const files = parsed.ok && isObj(parsed.value) ? parsed.value.files : undefined;
  if (!isObj(files)) return entries;
  for (const [path, sha] of Object.entries(files))
    if (typeof sha === "string" && /^[0-9a-f]{64}$/.test(sha)) entries.set(path, sha);
  return entries;
}

export function manifestText(manifest: Manifest, from?: string): string {
  const files = [...manifest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return (
    JSON.stringify(
      {
        about:
          "plugin-review migrate: the files it wrote in this folder, with their SHA-256. A later run overwrites only those unchanged since; it keeps the others unless given --force (docs/migrate.md).",
        ...(from !== undefined ? { from } : {}),
        files: Object.fromEntries(files),
      },
      null,
      2,
    ) + "\n"
  );
}
