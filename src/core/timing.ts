/**
 * Where an analysis spends its time (`TIMING=1` and `--timing` on `check`, `npm run bench`), after ESLint's
 * TIMING: each rule's own time, and the steps the rules share or the runner takes around them (parsing,
 * the schema's validation, locating, identities, …). A step that runs inside a rule (a shared fact built on a
 * rule's first read) counts as the step's, not the rule's, so that the rule that happened to ask first is
 * not blamed for what all of them use.
 *
 * Collected only when the caller passes one (AnalysisOptions.timing): an analysis without it reads no clock.
 */

/** Where the time went: a rule, by its id, or one of the analysis' own steps. */
export type TimedKind = "rule" | "step";

export interface TimedEntry {
  kind: TimedKind;
  /** A rule's id, or a step's name (`parse`, `schema validation`, …). */
  name: string;
  /** Milliseconds of its own, not counting the steps measured inside it. */
  ms: number;
  /** How many times it ran. */
  runs: number;
}

export class AnalysisTiming {
  /** The entries by kind, then name: no key is built per measurement (the table's own cost counts as "other"). */
  private readonly entries: Record<TimedKind, Map<string, TimedEntry>> = { rule: new Map(), step: new Map() };
  /** Time measured so far by entries nested in the running one, which it does not count as its own. */
  private inner = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Runs `fn`, counting its time (without the time of entries measured inside it) under `kind` and `name`. */
  measure<T>(kind: TimedKind, name: string, fn: () => T): T {
    const outer = this.inner;
    this.inner = 0;
    const start = this.now();
    try {
      return fn();
    } finally {
      const total = this.now() - start;
      const own = total - this.inner;
      this.inner = outer + total;
      const byName = this.entries[kind];
      const entry = byName.get(name);
      if (entry) {
        entry.ms += own;
        entry.runs++;
      } else byName.set(name, { kind, name, ms: own, runs: 1 });
    }
  }

  /** Every entry, the slowest first (ties by name, so that the order is stable). */
  results(): TimedEntry[] {
    return [...this.entries.step.values(), ...this.entries.rule.values()]
      .map((e) => ({ ...e }))
      .sort((a, b) => b.ms - a.ms || a.name.localeCompare(b.name));
  }

  /** The time of everything measured: the analysis' whole time, each moment counted once. */
  get total(): number {
    let sum = 0;
    for (const byName of [this.entries.step, this.entries.rule]) for (const e of byName.values()) sum += e.ms;
    return sum;
  }
}

/**
 * `fn` timed under `name` when a timing is given; otherwise just `fn()`. The runner's and the rule
 * context's one way to measure, so that an analysis without timing pays nothing but this check.
 */
export function timed<T>(timing: AnalysisTiming | undefined, kind: TimedKind, name: string, fn: () => T): T {
  return timing ? timing.measure(kind, name, fn) : fn();
}
