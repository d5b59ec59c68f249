/**
 * The Lambda functions' EMF metrics (src/lambda/emf.ts) as CloudWatch reads them from the function's output: a
 * figure with a dimension of its own is written at once, the invocation's other figures in one line at its end,
 * and an invocation that stored none writes nothing then (Powertools would log a warning about an empty publish
 * into every such invocation's log).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emfOperatorMetrics } from "../../src/lambda/emf.js";

let stdout: string[] = [];
let stderr: string[] = [];
const writes = { out: process.stdout.write, err: process.stderr.write };

beforeEach(() => {
  stdout = [];
  stderr = [];
  // Powertools writes through a Console of its own on the process's streams.
  process.stdout.write = ((chunk: string | Uint8Array) =>
    stdout.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) =>
    stderr.push(String(chunk)) > 0) as typeof process.stderr.write;
});
afterEach(() => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
});

const emf = (lines: string[]) =>
  lines
    .flatMap((l) => l.split("\n"))
    .filter((l) => l.includes('"_aws"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("EMF metrics", () => {
  it("an invocation that counted only dimensioned figures ends without another line, and without a warning", () => {
    const metrics = emfOperatorMetrics("recovery");
    metrics.requestFailed("403");
    metrics.recovered("delivery-log", 2);
    metrics.publish();
    expect(stderr).toEqual([]);
    expect(emf(stdout)).toEqual([
      expect.objectContaining({ function: "recovery", status: "403", GitHubRequestFailures: 1 }),
      expect.objectContaining({ function: "recovery", source: "delivery-log", ReviewsRecovered: 2 }),
    ]);
  });

  it("an invocation that counted nothing writes nothing", () => {
    emfOperatorMetrics("worker").publish();
    expect(stderr).toEqual([]);
    expect(stdout).toEqual([]);
  });

  it("a review's duration is written at the invocation's end, once", () => {
    const metrics = emfOperatorMetrics("worker");
    metrics.reviewFinished("success", 1.5);
    const atOnce = emf(stdout).length; // the review's outcome, dimensioned
    metrics.publish();
    metrics.publish();
    expect(stderr).toEqual([]);
    expect(emf(stdout).slice(atOnce)).toEqual([
      expect.objectContaining({ function: "worker", ReviewDuration: 1.5 }),
    ]);
  });
});
