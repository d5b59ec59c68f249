/**
 * The metrics a Dynatrace metric selector names (`screens`' charts: `key:splitBy("dim"):sum`,
 * `(a:filter(eq("dim",x)))/(b)`) and the dimensions each is split or filtered by. A small reader of the
 * selector's grammar (expressions of metric keys and numbers, `:transformation(arguments)` after a key), not
 * an evaluator: what it cannot read gives no reference at all, so that a selector it does not understand never
 * becomes a finding. Pure.
 */

export interface SelectorReference {
  /** The metric key as written (quotes removed; a `builtin:`, `ext:`, `func:`… key keeps its prefix). */
  key: string;
  /** The dimensions named by `splitBy(…)` and by the conditions of `filter(…)`. */
  dimensions: string[];
}

/** Conditions of `filter(…)` whose first argument is a dimension. */
const DIMENSION_CONDITIONS = new Set([
  "eq",
  "ne",
  "in",
  "prefix",
  "suffix",
  "contains",
  "existsKey",
  "otherwise",
]);
/** Prefixes of metric keys that hold a `:` (the others' `:` starts a transformation). */
const KEY_PREFIXES = new Set(["builtin", "ext", "func", "calc", "dsfm", "legacy", "log", "apps"]);
/** Deeper nesting than this is not read (a selector is a few levels deep). */
const MAX_DEPTH = 50;

class Unreadable extends Error {}

class Reader {
  private i = 0;
  readonly out: SelectorReference[] = [];

  constructor(private readonly s: string) {}

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private peek(): string {
    this.ws();
    return this.s[this.i] ?? "";
  }

  private expect(c: string): void {
    if (this.peek() !== c) throw new Unreadable();
    this.i++;
  }

  /** A quoted string (`"…"`, `\` escapes), its content. */
  private quoted(): string {
    this.expect('"');
    let out = "";
    while (this.i < this.s.length && this.s[this.i] !== '"') {
      if (this.s[this.i] === "\\") this.i++;
      out += this.s[this.i++] ?? "";
    }
    this.expect('"');
    return out;
  }

  private word(): string {
    this.ws();
    const m = /^[A-Za-z0-9_.\-$~]+/.exec(this.s.slice(this.i));
    if (!m) throw new Unreadable();
    this.i += m[0].length;
    return m[0];
  }

  read(): SelectorReference[] {
    this.expression(0);
    if (this.peek() !== "") throw new Unreadable();
    return this.out;
  }

  private expression(depth: number): void {
    if (depth > MAX_DEPTH) throw new Unreadable();
    this.term(depth);
    while ("+-*/".includes(this.peek()) && this.peek() !== "") {
      this.i++;
      this.term(depth);
    }
  }

  private term(depth: number): void {
    const c = this.peek();
    if (c === "(") {
      this.i++;
      this.expression(depth + 1);
      this.expect(")");
      this.transformations(undefined, depth);
      return;
    }
    if (c === "-" || /[0-9]/.test(c)) {
      const m = /^-?[0-9]+(\.[0-9]+)?/.exec(this.s.slice(this.i));
      if (m) {
        this.i += m[0].length;
        return;
      }
    }
    let key = c === '"' ? this.quoted() : this.word();
    // A key whose prefix holds a `:` (`builtin:host.cpu.usage`); `"key".count`: the suffix after the quotes.
    while (this.s[this.i] === ":" && KEY_PREFIXES.has(key)) {
      this.i++;
      key += `:${this.word()}`;
    }
    if (this.s[this.i] === ".") key += this.word();
    const reference: SelectorReference = { key, dimensions: [] };
    this.out.push(reference);
    this.transformations(reference, depth);
  }

  /** `:name` or `:name(arguments)`, any number of them; dimensions go to `reference`. */
  private transformations(reference: SelectorReference | undefined, depth: number): void {
    while (this.peek() === ":") {
      this.i++;
      const name = this.word();
      if (this.peek() !== "(") continue;
      this.i++;
      if (name === "splitBy") this.dimensionList(reference);
      else if (name === "filter") this.condition(reference, depth + 1);
      else this.skipArguments(depth + 1);
      this.expect(")");
    }
  }

  private dimensionList(reference: SelectorReference | undefined): void {
    if (this.peek() === ")") return;
    for (;;) {
      const d = this.peek() === '"' ? this.quoted() : this.word();
      reference?.dimensions.push(d);
      if (this.peek() !== ",") return;
      this.i++;
    }
  }

  /** A condition of `filter(…)`: `and(…)`, `or(…)`, `not(…)`, or `eq(dim, value)` and its kind. */
  private condition(reference: SelectorReference | undefined, depth: number): void {
    if (depth > MAX_DEPTH) throw new Unreadable();
    const name = this.word();
    this.expect("(");
    if (name === "and" || name === "or" || name === "not") {
      if (this.peek() !== ")")
        for (;;) {
          this.condition(reference, depth + 1);
          if (this.peek() !== ",") break;
          this.i++;
        }
    } else if (DIMENSION_CONDITIONS.has(name)) {
      const d = this.peek() === '"' ? this.quoted() : this.word();
      reference?.dimensions.push(d);
      this.skipArguments(depth + 1);
    } else this.skipArguments(depth + 1);
    this.expect(")");
  }

  /** The rest of an argument list, up to its closing parenthesis (not consumed), strings and nesting kept. */
  private skipArguments(depth: number): void {
    if (depth > MAX_DEPTH) throw new Unreadable();
    for (;;) {
      const c = this.peek();
      if (c === "") throw new Unreadable();
      if (c === ")") return;
      if (c === '"') this.quoted();
      else if (c === "(") {
        this.i++;
        this.skipArguments(depth + 1);
        this.expect(")");
      } else this.i++;
    }
  }
}

/** The metrics a selector names, with their dimensions; none when the selector cannot be read. */
export function selectorReferences(selector: string): SelectorReference[] {
  try {
    return new Reader(selector).read();
  } catch (e) {
    if (e instanceof Unreadable) return [];
    throw e;
  }
}
