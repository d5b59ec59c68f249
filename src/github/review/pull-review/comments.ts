/**
 * The pull request review's comments, pure: a finding's line comment (with its fix or suggestion as a
 * ```suggestion block), a repeated problem's, and the review body's items, each with its fingerprint.
 */
import { LineIndex } from "../../../core/locate.js";
import { ruleDocsUrl } from "../../../core/rule.js";
import type { Finding } from "../../../core/types.js";
import { codeBlock, codeSpan, findingMessage, quotedText, showsVerbatim } from "../../../format/markdown.js";
import { ICON, MESSAGE_LIMIT } from "../markdown.js";
import { fingerprintMarker } from "./fingerprint.js";

/** GitHub refuses a review body or comment longer than this. */
export const COMMENT_LIMIT = 65_536;
/** Lines longer than this get no suggestion block (the comment must stay under COMMENT_LIMIT). */
const SUGGESTED_LINE_LIMIT = 20_000;
/** A code-point-aware replacement of [column, endColumn) on one line. */
export function replaceColumns(
  lineText: string,
  column: number,
  endColumn: number,
  replacement: string,
): string {
  const chars = Array.from(lineText);
  return chars.slice(0, column - 1).join("") + replacement + chars.slice(endColumn - 1).join("");
}

/** A finding's first line: severity, rule, and its message (made inert: it quotes the descriptor). */
function headline(f: Finding, max: number): string {
  return `${ICON[f.severity]} **${f.severity}** [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}): ${findingMessage(f, { max })}`;
}

/**
 * A review comment's body: severity, rule, message, the fix or else the first suggestion as a ```suggestion
 * block (a suggestion says that it is a guess), and the fingerprint.
 */
export function commentBody(path: string, f: Finding, fileText: string, suggest: boolean): string {
  const parts = [headline(f, MESSAGE_LIMIT)];
  const edit = f.fix ?? f.suggestions?.[0];
  const line =
    // The finding's range is what a suggestion replaces: only when the edit replaces that same part.
    suggest && edit && f.line === f.endLine && (edit.target ?? "value") === f.target
      ? new LineIndex(fileText).lineText(f.line)
      : undefined;
  // A suggestion repeats the whole line: on a minified descriptor that could outgrow the comment.
  const suggested =
    line !== undefined && edit && line.length + edit.replacement.length < SUGGESTED_LINE_LIMIT
      ? replaceColumns(line, f.column, f.endColumn, edit.replacement)
      : undefined;
  // It is committed as shown: offered only when the block shows it exactly (no control character, no
  // `<!--`, which a block breaks so that no marker of ours can come from the descriptor).
  if (edit && suggested !== undefined && showsVerbatim(suggested)) {
    const description = quotedText(edit.description, { max: 1000 });
    parts.push(
      "",
      f.fix ? `Suggested fix: ${description}.` : `A guess (check it before committing it): ${description}?`,
      "",
      codeBlock(suggested, "suggestion"),
    );
  }
  parts.push("", fingerprintMarker(f.fingerprint));
  return parts.join("\n");
}

/** The lines of a repeated problem, shortened past the first twenty. */
function linesOf(findings: readonly Finding[]): string {
  const lines = [...new Set(findings.map((f) => f.line))];
  const shown = lines.slice(0, 20).join(", ");
  return lines.length > 20 ? `${shown} and ${lines.length - 20} more` : shown;
}

/** One review comment for a problem repeated in a file (repeated.ts), listing its lines. */
export function repeatedCommentBody(path: string, findings: readonly Finding[], fp: string): string {
  const f = findings[0] as Finding;
  return [
    headline(f, MESSAGE_LIMIT),
    "",
    `The same problem is reported ${findings.length} times in ${codeSpan(path)}, on lines ${linesOf(findings)}; the check run annotates each one.`,
    "",
    fingerprintMarker(fp),
  ].join("\n");
}

/** One review-body entry for a repeated problem, listing its lines. */
export function repeatedBodyItem(path: string, findings: readonly Finding[], fp: string): string {
  const f = findings[0] as Finding;
  return `- ${ICON[f.severity]} ${codeSpan(path)} [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}) ${findings.length} times, on lines ${linesOf(findings)}: ${findingMessage(f, { max: 1000 })} ${fingerprintMarker(fp)}`;
}

/** One line of the review body for a finding that is not on a line of the diff. */
export function bodyItem(path: string, f: Finding): string {
  return `- ${ICON[f.severity]} ${codeSpan(`${path}:${f.line}`)} [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}): ${findingMessage(f, { max: 1000 })} ${fingerprintMarker(f.fingerprint)}`;
}
