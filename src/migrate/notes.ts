/**
 * What MIGRATION.md lists: everything of the EF1 descriptor that the EF2 extension does not carry over, or
 * carries with another meaning, or that needs a person, each with the EF1 line it comes from. A note's text is
 * our words with the descriptor's own text marked apart (`said` below), so that each output renders the
 * descriptor's text inert its own way: escaped in Markdown, quoted on a terminal or in JSON.
 */
import { codeSpan as inertCodeSpan } from "../format/markdown.js";
import { printable } from "../format/printable.js";
import type { WrittenPlace } from "./written.js";

/** Text from the descriptor: untrusted, rendered inert wherever it is written. */
export interface Quoted {
  quoted: string;
}

/** Our words (which may hold `code` of our own) and quoted descriptor text, in order. */
export type Phrase = readonly (string | Quoted)[];

/** A piece of the descriptor's text, to be quoted (never interpreted) where the phrase is rendered. */
export function q(text: unknown): Quoted {
  return { quoted: typeof text === "string" ? text : (JSON.stringify(text) ?? String(text)) };
}

/** A phrase from a template: the literal parts are ours, `q(…)` parts are quoted, numbers are ours too. */
export function said(strings: TemplateStringsArray, ...values: (string | number | Quoted)[]): Phrase {
  const out: (string | Quoted)[] = [];
  strings.forEach((s, i) => {
    if (s) out.push(s);
    if (i < values.length) {
      const v = values[i]!;
      out.push(typeof v === "object" ? v : String(v));
    }
  });
  return out;
}

/**
 * - `dropped`: not carried over (no EF2 counterpart, or none that can be derived);
 * - `changed`: carried over with another meaning, or another form than Dynatrace's converter would give;
 * - `todo`: carried over, but a person must finish it (the author, the plugin's code).
 */
export type NoteKind = "dropped" | "changed" | "todo";

export interface Note {
  kind: NoteKind;
  /** JSON pointer of the EF1 member the note is about. */
  pointer: string;
  /** The member as people name it: `metrics[3].source.aggregation`. */
  member: string;
  text: Phrase;
  /** A to-do's place in the written project, where a person finishes it (MIGRATION.md names its file and line). */
  written?: WrittenPlace;
}

/** A phrase as plain text for a terminal or JSON: descriptor text quoted as a JSON string (controls escaped). */
export function plain(p: Phrase): string {
  return printable(p.map((part) => (typeof part === "string" ? part : JSON.stringify(part.quoted))).join(""));
}

/** A phrase as Markdown: descriptor text in code spans, where nothing it holds is interpreted. */
export function markdown(p: Phrase): string {
  return p.map((part) => (typeof part === "string" ? part : codeSpan(part.quoted))).join("");
}

/**
 * Descriptor text as an inert Markdown code span (format/markdown.ts, the one place untrusted text meets
 * Markdown); an empty text reads "(empty)".
 */
export function codeSpan(s: string): string {
  return s === "" ? "(empty)" : inertCodeSpan(s);
}
