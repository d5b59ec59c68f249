/**
 * The table `TIMING=1` prints (ESLint's TIMING format): the rules and steps that took the most time, each
 * with its milliseconds and its share of the whole analysis. Steps, which are not rules, are named in
 * parentheses: `(parse)`, `(schema validation)`, …
 */
import type { AnalysisTiming, TimedEntry } from "../core/timing.js";

/** How many rows `TIMING=1` shows (ESLint's default). */
export const TIMING_ROWS = 10;

/**
 * The rows a `TIMING` value asks for, as ESLint reads it: `all` every row, a number above 10 that many,
 * any other value 10. Undefined when it asks for none: unset, empty, `0` or `false`.
 */
export function timingRows(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === "" || v === "0" || v === "false") return undefined;
  if (v === "all") return Number.POSITIVE_INFINITY;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  return n > TIMING_ROWS ? n : TIMING_ROWS;
}

const label = (e: TimedEntry) => (e.kind === "rule" ? e.name : `(${e.name})`);

/**
 * The table of the `rows` slowest entries; its last line sums up the whole (the analysis' time, the rules'
 * share of it, how many rules ran).
 */
export function formatTiming(timing: AnalysisTiming, rows: number = TIMING_ROWS): string {
  const all = timing.results();
  const total = timing.total;
  const shown = all.slice(0, rows);
  const share = (ms: number) => (total > 0 ? (100 * ms) / total : 0);
  const cells = shown.map((e) => [label(e), e.ms.toFixed(3), `${share(e.ms).toFixed(1)}%`] as const);
  const head = ["Rule", "Time (ms)", "Relative"] as const;
  const width = (i: 0 | 1 | 2) => Math.max(head[i].length, ...cells.map((c) => c[i].length));
  const [w0, w1, w2] = [width(0), width(1), width(2)];
  const row = (c: readonly [string, string, string]) =>
    `${c[0].padEnd(w0)} | ${c[1].padStart(w1)} | ${c[2].padStart(w2)}`;
  const lines = [
    row(head),
    `:${"-".repeat(w0)}|${"-".repeat(w1 + 1)}:|${"-".repeat(w2)}:`,
    ...cells.map(row),
  ];
  const rules = all.filter((e) => e.kind === "rule");
  const rulesMs = rules.reduce((n, e) => n + e.ms, 0);
  lines.push(
    `Total: ${total.toFixed(3)} ms; ${rules.length} rules ran, ${rulesMs.toFixed(3)} ms (${share(rulesMs).toFixed(1)}%);` +
      ` steps in parentheses`,
  );
  return lines.join("\n") + "\n";
}
