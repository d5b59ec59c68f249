/** What every part of one migration shares: the descriptor, where its members are, and the notes made so far. */
import type { JsonNode } from "../core/json/parse.js";
import { displayPath } from "../core/json/pointer.js";
import { LineIndex, resolvePointer } from "../core/locate.js";
import type { Note, NoteKind, Phrase } from "./notes.js";
import type { WrittenPlace } from "./written.js";

/** What stops a descriptor from being converted: why, and where (a JSON pointer). */
export interface Blocker {
  pointer: string;
  text: Phrase;
  /** What to do about it (MIGRATION.md of a descriptor that is not converted). */
  fix?: Phrase;
}

export class DescriptorMigration {
  readonly notes: Note[] = [];
  readonly blockers: Blocker[] = [];
  private readonly index: LineIndex;
  /** Lines already found: metric-keys.json and .csv ask for each metric's. */
  private readonly lines = new Map<string, number>();

  constructor(
    readonly doc: Record<string, unknown>,
    private readonly root: JsonNode,
    text: string,
  ) {
    this.index = new LineIndex(text);
  }

  /** A note on the EF1 member at `pointer`; a to-do also names where it is done in the written project. */
  note(kind: NoteKind, pointer: string, text: Phrase, written?: WrittenPlace): void {
    this.notes.push({ kind, pointer, member: displayPath(pointer), text, ...(written ? { written } : {}) });
  }

  block(pointer: string, text: Phrase, fix?: Phrase): void {
    this.blockers.push({ pointer, text, ...(fix ? { fix } : {}) });
  }

  /** The 1-based line of the member a pointer names (its key's line; the nearest existing ancestor's). */
  line(pointer: string): number {
    let line = this.lines.get(pointer);
    if (line === undefined) {
      const r = resolvePointer(this.root, pointer);
      line = this.index.position(r.keyStart ?? r.node.start).line;
      this.lines.set(pointer, line);
    }
    return line;
  }
}
