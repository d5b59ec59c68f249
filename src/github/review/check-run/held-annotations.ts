/**
 * Which of a result's annotations a check run still lacks, from what GitHub lists on it. GitHub appends the
 * annotations of every update and removes none, so a run written with another result for the same commit
 * (the pull request moved to another base branch, the configuration changed before a redelivery) keeps that
 * result's annotations: the new result's are sent only where the run does not hold them already. Pure.
 */
import type { Annotation, HeldAnnotation } from "../../api/port.js";
import { MAX_ANNOTATIONS } from "./output.js";

/** Every field GitHub gives back of what the App sends: two annotations with the same key look the same. */
function key(a: Annotation | HeldAnnotation): string {
  return JSON.stringify([
    a.path,
    a.start_line,
    a.end_line,
    a.start_column ?? null,
    a.end_column ?? null,
    a.annotation_level ?? null,
    a.title ?? null,
    a.message ?? null,
  ]);
}

/**
 * The annotations of `wanted` that `held` lacks (each held annotation stands for one wanted one, so an
 * annotation wanted twice is sent again if held once), in `wanted`'s order, within the cap that what the
 * run holds counts towards (errors come first in `wanted`, so the cap leaves out the least severe).
 * `omitted`: those the cap left out; `earlier`: the held annotations that are none of `wanted`'s.
 */
export function annotationsToAdd(
  wanted: readonly Annotation[],
  held: readonly HeldAnnotation[],
  cap = MAX_ANNOTATIONS,
): { send: Annotation[]; omitted: number; earlier: number } {
  const unmatched = new Map<string, number>();
  for (const a of held) {
    const k = key(a);
    unmatched.set(k, (unmatched.get(k) ?? 0) + 1);
  }
  const missing = wanted.filter((a) => {
    const k = key(a);
    const n = unmatched.get(k) ?? 0;
    if (n > 0) unmatched.set(k, n - 1);
    return n === 0;
  });
  const room = Math.max(0, cap - held.length);
  return {
    send: missing.slice(0, room),
    omitted: Math.max(0, missing.length - room),
    earlier: held.length - (wanted.length - missing.length),
  };
}
