/**
 * An identity that cannot be forged (issue 39): a finding's fingerprint is SHA-256 of its identity, and new
 * and existing findings are matched by the identities themselves. Before, the fingerprint was a 64-bit hash
 * whose every step is invertible (cyrb53's mixing); a metric key whose finding took a base finding's
 * fingerprint was found by a meet-in-the-middle search over those steps (35 s on this machine), and its new
 * invalid unit was reported as existing, which the default `existing: report` does not fail.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { analyseDescriptors } from "../../src/core/analyse.js";
import { resolveConfig } from "../../src/core/config.js";
import { fingerprint, identityKey, problemFingerprint, problemKey } from "../../src/core/identity.js";
import type { Finding } from "../../src/core/types.js";
import { reviewEntries } from "../../src/github/review/pull-review/repeated.js";
import { text, validHost } from "../helpers.js";
import { exampleSamples } from "./generate.js";

/**
 * A metric key of the length of `requests`, found once by searching (a table of 2^24 states forward from
 * `metric="req`, 2^24 backward from `metric="requests`, met through one free character): its label leaves the
 * old hash exactly where `requests`'s does.
 */
const FORGED = "req\u5988\u5cea\ucc62\u53dd\u5199";

/** The previous fingerprint, as identity.ts computed it, for the one place this test needs. */
class OldHash {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;
  add(s: string, prefix = -1): this {
    let { h1, h2 } = this;
    if (prefix >= 0) {
      h1 = Math.imul(h1 ^ prefix, 2654435761);
      h2 = Math.imul(h2 ^ prefix, 1597334677);
    }
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    const end = 0x10000 + s.length;
    this.h1 = Math.imul(h1 ^ end, 2654435761);
    this.h2 = Math.imul(h2 ^ end, 1597334677);
    return this;
  }
  digest(): string {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, "0") + (h1 >>> 0).toString(16).padStart(8, "0");
  }
}

/** The old fingerprint of an invalid-value finding at `/metrics/<i>/timeseries/unit`, the metric named by its key. */
function oldFingerprint(file: string, metricKey: string, f: Finding): string {
  const h = new OldHash().add(f.ruleId).add(file);
  h.add("metrics", 0x2e).add(`metric=${JSON.stringify(metricKey)}`, 0x5b);
  h.add("timeseries", 0x2e).add("unit", 0x2e);
  h.add("\u0000").add(f.messageId);
  // Data by key, positions (path, suggestion) left out; all strings here.
  for (const k of Object.keys(f.data ?? {}).sort())
    if (k !== "path" && k !== "suggestion") h.add(k).add(String(f.data![k]), 0x27);
  return h.digest();
}

const FILE = "plugins/demo/plugin.json";
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The attack: the base has `requests` with an invalid unit (an existing finding); the pull request fixes it
 * and adds a metric under the forged key with an invalid unit.
 */
function attack(): { base: Json; head: Json } {
  const base: Json = validHost();
  base.metrics[0].timeseries.unit = "Countz";
  const head: Json = structuredClone(base);
  head.version = "9.9.9";
  head.metrics[0].timeseries.unit = "Count";
  head.metrics.push({ timeseries: { ...structuredClone(base.metrics[0].timeseries), key: FORGED } });
  return { base, head };
}

const unitFinding = (findings: readonly Finding[], i: number) =>
  findings.find((f) => f.ruleId === "invalid-value" && f.pointer === `/metrics/${i}/timeseries/unit`);

describe("a finding's identity cannot be forged", () => {
  it("a metric key whose finding took a base finding's old fingerprint is reported new", () => {
    const { base, head } = attack();
    const [baseFile] = analyseDescriptors([{ path: FILE, content: text(base) }], resolveConfig());
    const [headFile] = analyseDescriptors(
      [{ path: FILE, content: text(head), base: { path: FILE, content: text(base) } }],
      resolveConfig(),
    );
    const was = unitFinding(baseFile!.findings, 0)!;
    const forged = unitFinding(headFile!.findings, head.metrics.length - 1)!;
    expect(was).toBeDefined();
    expect(forged).toBeDefined();
    // Under the old fingerprint the two are one finding: the forged one would pass as the fixed one.
    expect(oldFingerprint(FILE, FORGED, forged)).toBe(oldFingerprint(FILE, "requests", was));
    // Now they are two: the forged one is new, and the base's is fixed.
    expect(forged.fingerprint).not.toBe(was.fingerprint);
    expect(forged.baseline).toBe("new");
    expect(headFile!.fixed).toBe(1);
    expect(unitFinding(headFile!.findings, 0)).toBeUndefined();
  });

  it("fingerprints are the first 32 hex digits of SHA-256 over the identity", () => {
    let seen = 0;
    for (const s of exampleSamples()) {
      const [file] = analyseDescriptors([{ path: s.name, content: s.text }], resolveConfig());
      let doc: unknown;
      try {
        doc = JSON.parse(s.text);
      } catch {
        doc = undefined;
      }
      for (const f of file!.findings) {
        expect(f.fingerprint).toMatch(/^[0-9a-f]{32}$/);
        const sha = createHash("sha256")
          .update(identityKey(doc, s.name, f))
          .digest("hex");
        expect(f.fingerprint).toBe(sha.slice(0, 32));
        expect(fingerprint(doc, s.name, f)).toBe(f.fingerprint);
        seen++;
      }
      // A repeated problem's entry (one review thread for all its findings) is SHA-256 too.
      for (const e of reviewEntries(s.name, file!.findings))
        if (e.kind === "repeated") {
          expect(e.fingerprint).toMatch(/^[0-9a-f]{32}$/);
          const sha = createHash("sha256")
            .update(`p8:repeatedf${s.name.length}:${s.name}p${e.problem.length}:${e.problem}`)
            .digest("hex");
          expect(e.fingerprint).toBe(sha.slice(0, 32));
          expect(e.problem).toBe(problemKey(e.findings[0]!));
          expect(problemFingerprint(s.name, e.problem)).toBe(e.fingerprint);
        }
    }
    expect(seen).toBeGreaterThan(50);
  });

  it("an identity is written so that no two different identities read alike", () => {
    const f = { ruleId: "r", pointer: "", messageId: "m" };
    // Data values that run into the next key, a key holding the separator, a number against its digits.
    const pairs: [Record<string, string | number>, Record<string, string | number>][] = [
      [{ a: "1k1:b'1:c" }, { a: "1", b: "c" }],
      [{ a: 1 }, { a: "1" }],
      [{ "a'1:b": "c" }, { a: "b'1:c" }],
    ];
    for (const [x, y] of pairs)
      expect(identityKey(undefined, "f", { ...f, data: x })).not.toBe(
        identityKey(undefined, "f", { ...f, data: y }),
      );
    // A file name that looks like the rest of an identity.
    expect(identityKey(undefined, "am1:m", { ...f, ruleId: "r" })).not.toBe(
      identityKey(undefined, "a", { ...f, messageId: "m1:m" }),
    );
  });
});
