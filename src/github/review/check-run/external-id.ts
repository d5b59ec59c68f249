/**
 * A run's `external_id`: what the App wrote on it, stored on GitHub with the run, so that a later review of
 * the same commit (a redelivery, a retry, a restart, another release) knows what the run already holds
 * without listing its annotations. Defined and parsed here alone.
 *
 * Version 2 (this release): `plugin-review:v2:<shows>`, with `:holds=<digest>` or `:mixed` after it when the
 * run's annotations are not the first `n` of the result it shows, then, on a failing run, `:failing=<n>,<n>…`:
 * the pull requests whose reviews of this commit failed (a commit may be the head of several, each reviewed
 * against its own base; on a run in progress, write.ts `startCheckRun`, those whose failing result GitHub has
 * not taken yet), `,more` after them when there were more than FAILING_MAX, then, on the run of a
 * pull request's review, `:pulls=<n>,<n>…`: the pull requests reviewed at this commit, failing or passing, the
 * REVIEWED_MAX latest (a Re-run of a fork's pull request, whose event names none, looks there). Runs written
 * before `:pulls=` was added (still read) name only the failing ones. Version 1 (the first releases, still read):
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
  /**
   * The pull requests whose reviews of this commit failed, on a failing run (none: a passing run, a merge
   * group's, or an earlier release's); `more`: there were more than FAILING_MAX of them.
   */
  failing?: { pulls: number[]; more: boolean };
  /**
   * The pull requests reviewed at this commit, failing or passing, the oldest first (none: a merge group's
   * run, or a run of an earlier release).
   */
  reviewed?: number[];
}

/** How many failing pull requests a run's `external_id` names. */
export const FAILING_MAX = 20;
/** How many reviewed pull requests a run's `external_id` names: the latest. */
export const REVIEWED_MAX = 20;

const DIGEST = "[0-9a-f]{40}";
/** A pull request's number: GraphQL's `Int`, at most 10 digits, so that the id stays short. */
const PULL = "[1-9][0-9]{0,9}";
const V2 = new RegExp(
  `^plugin-review:v2:(${DIGEST})(?::holds=(${DIGEST})|:(mixed))?(?::failing=((?:${PULL},){0,${FAILING_MAX - 1}}${PULL})(,more)?)?(?::pulls=((?:${PULL},){0,${REVIEWED_MAX - 1}}${PULL}))?$`,
);
const V1 = new RegExp(`^plugin-review:(${DIGEST})(?:\\+holds:plugin-review:(${DIGEST})|\\+(earlier))?$`);

export function formatExternalId(state: RunState): string {
  const base = `plugin-review:v2:${state.shows}`;
  const { failing } = state;
  const pulls = failing?.pulls.length
    ? `:failing=${failing.pulls.slice(0, FAILING_MAX).join(",")}${failing.more || failing.pulls.length > FAILING_MAX ? ",more" : ""}`
    : "";
  const reviewed = state.reviewed?.length ? `:pulls=${state.reviewed.slice(-REVIEWED_MAX).join(",")}` : "";
  if (state.holds === state.shows) return base + pulls + reviewed;
  return (state.holds === "mixed" ? `${base}:mixed` : `${base}:holds=${state.holds}`) + pulls + reviewed;
}

/** What a run's `external_id` says, in this version's format or the previous one; undefined when neither. */
export function parseExternalId(externalId: string | null | undefined): RunState | undefined {
  const m = V2.exec(externalId ?? "") ?? V1.exec(externalId ?? "");
  if (!m) return undefined;
  const shows = m[1] as string;
  const state: RunState = { shows, holds: m[3] ? "mixed" : (m[2] ?? shows) };
  // Only version 2 has these groups (V1's exec result has none).
  if (m[4] !== undefined) state.failing = { pulls: m[4].split(",").map(Number), more: m[5] !== undefined };
  if (m[6] !== undefined) state.reviewed = m[6].split(",").map(Number);
  return state;
}

/**
 * The pull requests a run names as reviewed at its commit: `:pulls=`, and the failing ones (all a run of an
 * earlier release names). Where to look, never what to trust: each is read from GitHub before it is reviewed.
 */
export function pullsNamed(state: RunState | undefined): number[] {
  return [...new Set([...(state?.reviewed ?? []), ...(state?.failing?.pulls ?? [])])];
}

/** Whether two states say the same. */
export function sameState(a: RunState | undefined, b: RunState): boolean {
  return (
    a !== undefined &&
    a.shows === b.shows &&
    a.holds === b.holds &&
    (a.failing?.pulls ?? []).join() === (b.failing?.pulls ?? []).join() &&
    (a.failing?.more ?? false) === (b.failing?.more ?? false) &&
    (a.reviewed ?? []).join() === (b.reviewed ?? []).join()
  );
}
