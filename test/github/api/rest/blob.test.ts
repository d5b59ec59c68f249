/**
 * A blob read through REST is the file GitHub described or nothing: a body cut short (a connection that
 * closed) would otherwise be reviewed as the file, its findings new and its size under the review's budget.
 */
import { describe, expect, it } from "vitest";
import { TransientReviewError } from "../../../../src/github/api/errors.js";
import type { Octokit } from "../../../../src/github/api/octokit/octokit.js";
import { readBlob } from "../../../../src/github/api/rest/blob.js";

/** An Octokit whose blob request answers `chunks` as the body's stream; counts the chunks read. */
function serving(chunks: string[]): { octokit: Octokit; read: () => number } {
  let read = 0;
  const octokit = {
    request: () =>
      Promise.resolve({
        data: (async function* () {
          for (const c of chunks) {
            read++;
            yield new TextEncoder().encode(c);
          }
        })(),
      }),
  } as unknown as Octokit;
  return { octokit, read: () => read };
}

const where = { owner: "acme", repo: "plugins" };

describe("readBlob", () => {
  it("returns the bytes when the body is exactly the size GitHub gave", async () => {
    const { octokit } = serving(['{"na', 'me": 1}']);
    const bytes = await readBlob(octokit, where, "a".repeat(40), 11);
    expect(new TextDecoder().decode(bytes)).toBe('{"name": 1}');
  });

  it("refuses a body that ends before that size: tried again, never reviewed cut", async () => {
    const cut = readBlob(serving(['{"name": ']).octokit, where, "b".repeat(40), 12);
    await expect(cut).rejects.toBeInstanceOf(TransientReviewError);
    await expect(cut).rejects.toThrow(
      "GitHub's blob bbbbbbbbbbbb ended before the 12 bytes it said the file has",
    );
  });

  it("stops reading a body that goes past that size", async () => {
    const { octokit, read } = serving(["0123456789", "0123456789", "0123456789", "0123456789"]);
    await expect(readBlob(octokit, where, "c".repeat(40), 12)).rejects.toThrow(/went past the 12 bytes/);
    expect(read()).toBe(2);
  });
});
