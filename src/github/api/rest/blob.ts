/**
 * A blob's bytes, through the REST blob API (files over the contents API's and GraphQL's 1 MB), as GitHub
 * serves them raw (`application/vnd.github.raw+json`), read from the response's stream: no JSON or base64 of
 * megabytes on the event loop (Octokit parses a JSON answer with a regular expression over all of it, which
 * took half a second per 4.5 MB file), and the bytes exactly as stored, whatever the content type says.
 */
import type { Octokit } from "../octokit/octokit.js";

export async function readBlob(
  octokit: Octokit,
  where: { owner: string; repo: string },
  sha: string,
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
  for await (const chunk of body ?? []) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}
