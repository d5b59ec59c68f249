/**
 * A blob read through REST is the file GitHub described or nothing: a body cut short (a connection that
 * closed) would otherwise be reviewed as the file, its findings new and its size under the review's budget.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { TransientReviewError } from "../../../../src/github/api/errors.js";
import { tokenOctokit, type Octokit } from "../../../../src/github/api/octokit/octokit.js";
import { readBlob } from "../../../../src/github/api/rest/blob.js";
import { collectGarbage } from "../../../gc.js";

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

describe("readBlob through the App's Octokit and a real connection", () => {
  it("reads the whole blob when garbage is collected before its body is read", async () => {
    // Fetch cancels the body of a Response collected before it is read, and Octokit drops the Response once it
    // hands the body over: a collection in that gap ended the stream as if the file ended there (on a loaded
    // machine, a 2 MB descriptor read as 0 bytes, which let a review past max_total_size).
    const file = Buffer.alloc(2_000_000, "x");
    const server = createServer((_req, res) => res.writeHead(200).end(file));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      const octokit = tokenOctokit({
        token: "not-a-real-token",
        baseUrl: `http://127.0.0.1:${port}`,
        userAgent: "plugin-review-test",
        warn: () => {},
        writes: "refuse",
      });
      // The gap as a loaded process has it: timers between the answer and the reading, a collection in each.
      (octokit as unknown as { hook: { after(n: string, f: () => Promise<void>): void } }).hook.after(
        "request",
        async () => {
          for (let i = 0; i < 3; i++) {
            await sleep(10);
            collectGarbage();
          }
        },
      );
      for (let i = 0; i < 3; i++) {
        const bytes = await readBlob(octokit, where, "d".repeat(40), file.length);
        expect(bytes.length).toBe(file.length);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
