/**
 * A blob's bytes, through the REST blob API (files over the contents API's and GraphQL's 1 MB), as GitHub
 * serves them raw (`application/vnd.github.raw+json`), read from the response's stream: no JSON or base64 of
 * megabytes on the event loop (Octokit parses a JSON answer with a regular expression over all of it, which
 * took half a second per 4.5 MB file), and the bytes exactly as stored, whatever the content type says.
 */
import { TransientReviewError } from "../errors.js";
import type { Octokit } from "../octokit/octokit.js";

export async function readBlob(
  octokit: Octokit,
  where: { owner: string; repo: string },
  sha: string,
  /** The size GitHub gave for the file: a body that ends before it, or goes past it, is not the file. */
  size: number,
): Promise<Uint8Array> {
  const { data } = await octokit.request("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", {
    owner: where.owner,
    repo: where.repo,
    file_sha: sha,
    mediaType: { format: "raw" },
    // The body as it arrives, unparsed (still under the request's timeout, whose signal reads it).
    request: { parseSuccessResponseBody: false },
  });
  const body = data as unknown as AsyncIterable<Uint8Array> | null;
  const chunks: Uint8Array[] = [];
  let read = 0;
  for await (const chunk of body ?? []) {
    read += chunk.length;
    if (read > size) break; // never more than the file GitHub described is held
    chunks.push(chunk);
  }
  // A cut body would be reviewed as the file (its findings new, its size under the review's budget): tried again.
  if (read !== size)
    throw new TransientReviewError(
      `GitHub's blob ${sha.slice(0, 12)} ${read > size ? "went past" : "ended before"} the ${size.toLocaleString("en-US")} bytes it said the file has`,
    );
  return new Uint8Array(Buffer.concat(chunks, read));
}
