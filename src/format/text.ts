/**
 * Human output, laid out like ESLint's `stylish`: per file its path, then one row per finding with
 * `line:column`, severity, message and rule id in columns aligned within the file; then the summary. The message
 * column wraps, at word boundaries, to fit the width given (the terminal's) and never grows past
 * `MESSAGE_MAX`, so that one long message neither widens its file's rows nor runs off the screen.
 * What comes from a file (its path, messages quoting it, notes quoting a configuration) is printed with its
 * control characters escaped (printable.ts `escaped`): one line that still says what it holds; only the
 * colours are ours.
 */
import { fixableFindings } from "../core/fix.js";
import type { AnalysedFile } from "../core/analyse.js";
import type { Severity } from "../core/types.js";
import { fitLine } from "./fit.js";
import { escaped } from "./printable.js";
import { countBySeverity, describeBaseline, describeCounts, plural } from "./summary.js";

const COLOURS: Record<Severity | "dim" | "bold" | "ok" | "underline", [number, number]> = {
  error: [31, 39],
  warning: [33, 39],
  notice: [36, 39],
  ok: [32, 39],
  dim: [2, 22],
  bold: [1, 22],
  underline: [4, 24],
};

/** The widest the message column grows, whatever the width: longer lines are hard to read. */
export const MESSAGE_MAX = 100;
/** The narrowest it is made to fit a narrow terminal: a narrower column is mostly line breaks. */
export const MESSAGE_MIN = 30;

export interface TextOptions {
  colour: boolean;
  /** Extra lines for the summary (e.g. unchanged files skipped). */
  notes?: string[];
  /** The width the findings' rows should fit (a terminal's columns); without it, only `MESSAGE_MAX` applies. */
  width?: number;
  /**
   * Whether the run fails (its exit status): the summary's mark says so, ✖ or ✔, so that findings that do
   * not fail it (notices, existing ones, anything below `fail_on`) do not read as a failure. Unset: any finding.
   */
  failed?: boolean;
}

type Paint = (kind: keyof typeof COLOURS, s: string) => string;

/** `text` in lines of at most `width` characters, broken between words (a longer word is cut). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (let word of paragraph.split(" ")) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = "";
      }
      while (word.length > width) {
        lines.push(word.slice(0, width));
        word = word.slice(width);
      }
      line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}

/** One file's findings as rows whose columns line up; widths count characters, so colour codes stay out. */
function rows(file: AnalysedFile, paint: Paint, width: number | undefined): string[] {
  // Existing findings (already in the base) are marked, so the eye goes to what the change adds.
  const MARK = "(existing)";
  const cells = file.findings.map((f) => ({
    where: [String(f.line), String(f.column)] as const,
    severity: f.severity,
    // Escaped, as the file's name above (`a\nb`): a path or a name quoted in a message is one line that still
    // names what it names; `printable` would make its line break a space (another file) and drop its escapes.
    message: escaped(f.message),
    existing: f.baseline === "existing",
    ruleId: f.ruleId,
  }));
  const widest = (of: (c: (typeof cells)[number]) => string) => Math.max(...cells.map((c) => of(c).length));
  const line = widest((c) => c.where[0]);
  const column = widest((c) => c.where[1]);
  const severity = widest((c) => c.severity);
  const ruleId = widest((c) => c.ruleId);
  // `  line:column  severity  ` before the message, `  rule-id` after it.
  const before = 2 + line + 1 + column + 2 + severity + 2;
  const room =
    width === undefined
      ? MESSAGE_MAX
      : Math.min(MESSAGE_MAX, Math.max(MESSAGE_MIN, width - before - 2 - ruleId));
  const wrapped = cells.map((c) => {
    const lines = wrap(c.message, room).map((text) => ({ text, mark: false }));
    if (c.existing) {
      const last = lines[lines.length - 1]!;
      if (last.text.length + 2 + MARK.length <= room) last.mark = true;
      else lines.push({ text: "", mark: true });
    }
    return lines.map((l) => ({
      ...l,
      length: l.text.length + (l.mark ? (l.text ? 2 : 0) + MARK.length : 0),
    }));
  });
  const message = Math.max(...wrapped.flatMap((lines) => lines.map((l) => l.length)));
  const indent = " ".repeat(before);
  return cells.flatMap((c, i) => {
    const where = `${c.where[0].padStart(line)}:${c.where[1].padEnd(column)}`;
    const pad = (n: number) => " ".repeat(n);
    const text = (l: { text: string; mark: boolean }) =>
      l.mark ? `${l.text}${l.text ? "  " : ""}${paint("dim", MARK)}` : l.text;
    const [first, ...rest] = wrapped[i]!;
    return [
      `  ${paint("dim", where)}  ${paint(c.severity, c.severity)}${pad(severity - c.severity.length)}` +
        `  ${text(first!)}${pad(message - first!.length)}  ${paint("dim", c.ruleId)}`,
      ...rest.map((l) => `${indent}${text(l)}`),
    ];
  });
}

export function formatText(
  files: readonly AnalysedFile[],
  display: (path: string) => string,
  opts: TextOptions,
): string {
  const paint: Paint = (kind, s) => {
    if (!opts.colour) return s;
    const [a, b] = COLOURS[kind];
    return `\u001b[${a}m${s}\u001b[${b}m`;
  };
  const lines: string[] = [];
  for (const r of files) {
    if (r.findings.length === 0) continue;
    // The file's name on one line, escaped (`a\nb/plugin.json`): a space there would name another file.
    lines.push(paint("underline", escaped(display(r.path))), ...rows(r, paint, opts.width), "");
  }
  const counts = countBySeverity(files);
  const withFindings = files.filter((r) => r.findings.length > 0).length;
  const total = counts.error + counts.warning + counts.notice;
  const checked = plural(files.length, "descriptor");
  const failed = opts.failed ?? total > 0;
  // The lines below the rows fit the terminal too (when its width is known), broken between words.
  const fit = (line: string) => (opts.width === undefined ? line : fitLine(line, opts.width));
  const summary =
    total === 0
      ? paint(failed ? "error" : "ok", fit(`${failed ? "✖" : "✔"} ${checked} checked: no findings`))
      : paint(
          counts.error ? "error" : counts.warning ? "warning" : "notice",
          fit(
            `${failed ? "✖" : "✔"} ${plural(total, "finding")} (${describeCounts(counts)}) in ${withFindings} of ${checked}` +
              (failed ? "" : ", none failing"),
          ),
        );
  lines.push(paint("bold", summary));
  const baseline = describeBaseline(files);
  if (baseline) lines.push(fit(baseline));
  for (const n of opts.notes ?? []) lines.push(fit(escaped(n)));
  // Last, as ESLint does: what `--fix` would do about what is left.
  if (total > 0) {
    const fixable = fixableFindings(files).size;
    lines.push(
      fixable
        ? `${plural(fixable, "finding")} can be fixed with \`--fix\``
        : "no finding can be fixed with `--fix`",
    );
  }
  return lines.join("\n") + "\n";
}
