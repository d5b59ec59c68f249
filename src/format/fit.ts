/**
 * Text for a terminal, fitted to its width (`COLUMNS`, else the terminal's, else 80: the CLI decides): a line
 * broken between words with its continuation indented, and the commands' help reflowed, paragraphs and
 * option rows alike, so that nothing the CLI prints for people runs past the edge of the screen.
 */

/** The narrowest width text is fitted to: narrower, it would be mostly line breaks. */
const NARROWEST = 40;
/** The widest help is made: longer lines of prose are hard to read, whatever the terminal. */
const WIDEST = 100;

const clamp = (width: number) => Math.min(WIDEST, Math.max(NARROWEST, Math.floor(width)));

/**
 * Words in lines of at most `width` characters, broken at spaces; a word longer than that (a path, a URL) is
 * never cut, so that it can still be copied: it has a line of its own.
 */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ").filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = "";
    }
    line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/**
 * One line (or several, split at `\n`) in lines of at most `width` characters (at least 40), broken between
 * words; the lines it continues on are indented by `hang` spaces more than the line's own indentation.
 */
export function fitLine(text: string, width: number, hang = 2): string {
  const w = Math.max(NARROWEST, Math.floor(width));
  return text
    .split("\n")
    .map((line) => {
      if (line.length <= w) return line;
      const indent = /^ */.exec(line)![0];
      const more = indent + " ".repeat(hang);
      const [first, ...rest] = wrap(line.slice(indent.length), w - indent.length);
      const tail = rest.length ? wrap(rest.join(" "), w - more.length).map((l) => more + l) : [];
      return [indent + first, ...tail].join("\n");
    })
    .join("\n");
}

/** A help row: `  --option <v>   what it does`, its description's column, and the lines that continue it. */
const ROW = /^( +)(\S(?:\S| (?! ))*)( {2,})(\S.*)$/;

/**
 * A command's help reflowed to `width`: each paragraph (lines starting at the left edge) and each option or
 * command row (a term, two spaces or more, its description, continued on the lines below in the
 * description's column) is joined and broken again between words; a row whose term leaves too little room
 * has its description on the lines below, indented. Usage lines and other indented lines are broken with a
 * hanging indent. Written by hand at any width, the help fits every terminal.
 */
export function fitHelp(text: string, width: number): string {
  const w = clamp(width);
  const lines = text.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i]!;
    const row = ROW.exec(line);
    if (line === "" || /^\S.*:$/.test(line)) {
      // A blank line or a heading ("Options:").
      out.push(line);
      i++;
    } else if (row) {
      const column = row[1]!.length + row[2]!.length + row[3]!.length;
      const words = [row[4]!];
      for (i++; i < lines.length && continues(lines[i]!, column); i++) words.push(lines[i]!.trim());
      out.push(...fitRow(row[1]! + row[2]!, column, words.join(" "), w));
    } else if (/^\S/.test(line) && !/^Usage: /.test(line)) {
      // A paragraph: its lines up to a blank line, a heading or an indented line.
      const words = [line];
      for (i++; i < lines.length && /^\S/.test(lines[i]!) && !/:$/.test(lines[i]!); i++)
        words.push(lines[i]!);
      out.push(...wrap(words.join(" "), w));
    } else {
      // A usage line, or another indented line: kept, broken only where it is too long.
      const hang = /^Usage: /.test(line) ? "Usage: ".length + 4 : 4;
      out.push(fitLine(line, w, hang));
      i++;
    }
  }
  return out.join("\n") + "\n";
}

/** Whether a line continues a row's description: indented to the description's column, not a row of its own. */
function continues(line: string, column: number): boolean {
  const indent = /^ */.exec(line)![0].length;
  return indent === column && line.length > column;
}

/** A row's term and its description, the description in `column` (or below the term when that is too narrow). */
function fitRow(term: string, column: number, description: string, width: number): string[] {
  const room = width - column;
  if (room >= 24) {
    const [first, ...rest] = wrap(description, room);
    return [term.padEnd(column) + first, ...rest.map((l) => " ".repeat(column) + l)];
  }
  // A term too wide for its column at this width: the description below it, indented.
  const indent = " ".repeat(/^ */.exec(term)![0].length + 4);
  return [term, ...wrap(description, width - indent.length).map((l) => indent + l)];
}
