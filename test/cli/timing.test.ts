/**
 * `TIMING=1 plugin-review check` and `--timing` (ESLint's TIMING): the built CLI prints, on stderr, a table of
 * the rules and steps that took the most time, each with its milliseconds and its share, so that a JSON or
 * SARIF report on stdout stays whole.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_IDS } from "../../src/core/rules/index.js";
import { text, validHost } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-timing-"));
  const base = validHost();
  const head = { ...validHost(), version: "9.9.9" };
  writeFileSync(join(dir, "base.json"), text(base));
  writeFileSync(join(dir, "plugin.json"), text(head));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = /^Rule +\| Time \(ms\) \| Relative$/;
const RULE_LINE = /^:-+\|-+:\|-+:$/;
const ROW = /^(\S+(?: \S+)*) +\| +(\d+\.\d{3}) \| +(\d+\.\d)%$/;
const TOTAL =
  /^Total: (\d+\.\d{3}) ms; (\d+) rules ran, (\d+\.\d{3}) ms \((\d+\.\d)%\); steps in parentheses$/;

/** The table's rows, checked line by line: header, alignment line, rows slowest first, total. */
function table(stderr: string): { name: string; ms: number; share: number }[] {
  const lines = stderr.trimEnd().split("\n");
  const start = lines.findIndex((l) => HEADER.test(l));
  expect(start, stderr).toBeGreaterThanOrEqual(0);
  const body = lines.slice(start);
  expect(body[1]).toMatch(RULE_LINE);
  // Every line of the table is as wide as the header (ESLint's padding).
  for (const l of body.slice(0, -1)) expect(l.length, l).toBe(body[0]!.length);
  const rows = body.slice(2, -1).map((l) => {
    const m = ROW.exec(l);
    expect(m, l).not.toBeNull();
    return { name: m![1]!, ms: Number(m![2]), share: Number(m![3]) };
  });
  const total = TOTAL.exec(body.at(-1)!);
  expect(total, body.at(-1)).not.toBeNull();
  for (let i = 1; i < rows.length; i++) expect(rows[i]!.ms).toBeLessThanOrEqual(rows[i - 1]!.ms);
  // Each row's share is its time over the total, as printed.
  for (const r of rows) expect(Math.abs(r.share - (100 * r.ms) / Number(total![1]))).toBeLessThan(0.06);
  for (const r of rows) expect(RULE_IDS.includes(r.name) || /^\([a-z ]+\)$/.test(r.name), r.name).toBe(true);
  return rows;
}

describe("TIMING=1 plugin-review check", () => {
  it("prints the 10 slowest rules and steps on stderr after the report, the report unchanged", () => {
    const plain = cli(["check", "plugin.json", "--base", "base.json", "--format", "json"], dir);
    const timed = cli(["check", "plugin.json", "--base", "base.json", "--format", "json"], dir, {
      TIMING: "1",
    });
    expect(timed.status).toBe(plain.status);
    expect(JSON.parse(timed.stdout)).toEqual(JSON.parse(plain.stdout));
    expect(plain.stderr).not.toMatch(HEADER);
    const rows = table(timed.stderr);
    expect(rows).toHaveLength(10);
    // Rules and the analysis' own steps alike.
    expect(rows.some((r) => r.name.startsWith("("))).toBe(true);
  });

  it("--timing does the same; TIMING=all shows every rule that ran, TIMING=<n> that many rows", () => {
    const flag = table(cli(["check", "plugin.json", "--base", "base.json", "--timing"], dir).stderr);
    expect(flag).toHaveLength(10);
    const all = cli(["check", "plugin.json", "--base", "base.json"], dir, { TIMING: "all" });
    const rows = table(all.stderr);
    const total = TOTAL.exec(all.stderr.trimEnd().split("\n").at(-1)!)!;
    expect(rows.filter((r) => !r.name.startsWith("("))).toHaveLength(Number(total[2]));
    expect(rows.length).toBeGreaterThan(20);
    expect(table(cli(["check", "plugin.json"], dir, { TIMING: "12" }).stderr)).toHaveLength(12);
  });

  it("prints nothing with TIMING=0 or empty", () => {
    for (const value of ["0", ""])
      expect(cli(["check", "plugin.json"], dir, { TIMING: value }).stderr).not.toMatch(HEADER);
  });
});
