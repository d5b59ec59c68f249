/**
 * Reads a file at a commit. The contents API returns the bytes of files up to 1 MB; for larger ones it
 * returns no content, so they are read through the blob API. Files over the configured limit are not
 * downloaded at all: the caller reports file-too-large.
 */
import { httpStatus } from "../errors.js";
import type { Octokit } from "../octokit/octokit.js";
import type { FileContent } from "../port.js";
import { readBlob } from "./blob.js";

export async function fetchFile(
  octokit: Octokit,
  /** Without `ref`: the default branch. */
  where: { owner: string; repo: string; path: string; ref?: string },
  maxSize: number,
): Promise<FileContent> {
  let data: unknown;
  try {
    ({ data } = await octokit.rest.repos.getContent(where));
  } catch (e) {
    if (httpStatus(e) === 404) return { kind: "missing" };
    throw e;
  }
  const file = data as { type?: string; size?: number; encoding?: string; content?: string; sha?: string };
  // A folder's listing, a submodule, or a symbolic link whose target is not a file of the repository.
  if (Array.isArray(data) || file.type !== "file") return { kind: "missing", notFile: true };
  const size = file.size ?? 0;
  if (size > maxSize) return { kind: "too-large", size };
  if (
    file.encoding === "base64" &&
    typeof file.content === "string" &&
    (file.content.length > 0 || size === 0)
  ) {
    return { kind: "file", content: new Uint8Array(Buffer.from(file.content, "base64")), size };
  }
  // Over 1 MB: `encoding: "none"` and empty content. The blob API serves up to 100 MB.
  const bytes = await readBlob(octokit, where, file.sha ?? "", size);
  return { kind: "file", content: bytes, size };
}
