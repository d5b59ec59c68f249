/** A run's `external_id`, as this release writes it (version 2) and as it reads the previous release's (version 1). */
import { describe, expect, it } from "vitest";
import {
  formatExternalId,
  parseExternalId,
  type RunState,
} from "../../../../src/github/review/check-run/external-id.js";

const D = "a".repeat(40);
const H = "b".repeat(40);

describe("external_id", () => {
  it.each<[RunState, string]>([
    [{ shows: D, holds: D }, `plugin-review:v2:${D}`],
    [{ shows: D, holds: H }, `plugin-review:v2:${D}:holds=${H}`],
    [{ shows: D, holds: "mixed" }, `plugin-review:v2:${D}:mixed`],
  ])("writes %o as %s, and reads it back", (state, id) => {
    expect(formatExternalId(state)).toBe(id);
    expect(parseExternalId(id)).toEqual(state);
  });

  it.each<[string, RunState]>([
    [`plugin-review:${D}`, { shows: D, holds: D }],
    [`plugin-review:${D}+holds:plugin-review:${H}`, { shows: D, holds: H }],
    [`plugin-review:${D}+earlier`, { shows: D, holds: "mixed" }],
  ])("reads the previous release's %s", (id, state) => {
    expect(parseExternalId(id)).toEqual(state);
  });

  it.each([
    null,
    undefined,
    "",
    "another-app:123",
    `plugin-review:v3:${D}`,
    `plugin-review:v2:${D.slice(1)}`,
  ])(
    "knows nothing of %s (a run it did not write, or a later format): its annotations are read before more are sent",
    (id) => {
      expect(parseExternalId(id)).toBeUndefined();
    },
  );
});
