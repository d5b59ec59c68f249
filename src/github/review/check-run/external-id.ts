/**
 * A run's `external_id`: what the App wrote on it, stored on GitHub with the run, so that a later review of
 * the same commit (a redelivery, a retry, a restart, another release) knows what the run already holds
 * without listing its annotations. Defined and parsed here alone.
 *
 * Version 2 (this release): `plugin-review:v2:<shows>`, with `:holds=<digest>` or `:mixed` after it when the
 * run's annotations are not the first `n` of the result it shows. Version 1 (the first releases, still read):
 * `plugin-review:<shows>`, with `+holds:plugin-review:<digest>` or `+earlier`. A digest is 40 hex digits.
 */

/** What a run holds, as its `external_id` says. */
export interface RunState {
  /** The digest of the result the run shows (its conclusion, title, summary and annotations). */
  shows: string;
  /**
   * The digest of the result whose first `n` annotations the run holds (`n` its annotation count: usually
   * the result it shows, or another when a result without annotations, such as a failure report, was
   * written over them), or "mixed" when they are a mix of several results' (read before sending more).
   */
  holds: string | "mixed";
}

const DIGEST = "[0-9a-f]{40}";
const V2 = new RegExp(`^plugin-review:v2:(${DIGEST})(?::holds=(${DIGEST})|:(mixed))?$`);
const V1 = new RegExp(`^plugin-review:(${DIGEST})(?:\\+holds:plugin-review:(${DIGEST})|\\+(earlier))?$`);

export function formatExternalId(state: RunState): string {
  const base = `plugin-review:v2:${state.shows}`;
  if (state.holds === state.shows) return base;
  return state.holds === "mixed" ? `${base}:mixed` : `${base}:holds=${state.holds}`;
}

/** What a run's `external_id` says, in this version's format or the previous one; undefined when neither. */
export function parseExternalId(externalId: string | null | undefined): RunState | undefined {
  const m = V2.exec(externalId ?? "") ?? V1.exec(externalId ?? "");
  if (!m) return undefined;
  const shows = m[1] as string;
  return { shows, holds: m[3] ? "mixed" : (m[2] ?? shows) };
}

/** Whether two states say the same. */
export function sameState(a: RunState | undefined, b: RunState): boolean {
  return a !== undefined && a.shows === b.shows && a.holds === b.holds;
}
