/** A run's `external_id`, as this release writes it (version 2) and as it reads the previous release's (version 1). */
import { describe, expect, it } from "vitest";
import {
  formatExternalId,
  parseExternalId,
  pullsNamed,
  type RunState,
} from "../../../../src/github/review/check-run/external-id.js";

const D = "a".repeat(40);
const H = "b".repeat(40);

describe("external_id", () => {
  it.each<[RunState, string]>([
    [{ shows: D, holds: D }, `plugin-review:v2:${D}`],
    [{ shows: D, holds: H }, `plugin-review:v2:${D}:holds=${H}`],
    [{ shows: D, holds: "mixed" }, `plugin-review:v2:${D}:mixed`],
    [{ shows: D, holds: D, failing: { pulls: [7], more: false } }, `plugin-review:v2:${D}:failing=7`],
    [
      { shows: D, holds: "mixed", failing: { pulls: [12345, 8], more: true } },
      `plugin-review:v2:${D}:mixed:failing=12345,8,more`,
    ],
    [
      { shows: D, holds: D, failing: { pulls: Array.from({ length: 20 }, (_, i) => i + 1), more: false } },
      `plugin-review:v2:${D}:failing=${Array.from({ length: 20 }, (_, i) => i + 1).join(",")}`,
    ],
    [{ shows: D, holds: D, reviewed: [7] }, `plugin-review:v2:${D}:pulls=7`],
    [
      { shows: D, holds: H, failing: { pulls: [8], more: false }, reviewed: [7, 8] },
      `plugin-review:v2:${D}:holds=${H}:failing=8:pulls=7,8`,
    ],
  ])("writes %o as %s, and reads it back", (state, id) => {
    expect(formatExternalId(state)).toBe(id);
    expect(parseExternalId(id)).toEqual(state);
  });

  it("names at most 20 failing pull requests, and says when there were more", () => {
    const pulls = Array.from({ length: 21 }, (_, i) => i + 1);
    const id = formatExternalId({ shows: D, holds: D, failing: { pulls, more: false } });
    expect(parseExternalId(id)).toEqual({
      shows: D,
      holds: D,
      failing: { pulls: pulls.slice(0, 20), more: true },
    });
  });

  it("names the latest 20 reviewed pull requests, and stays short whatever it names", () => {
    const reviewed = Array.from({ length: 21 }, (_, i) => 2 ** 31 - 1 - i);
    const failing = { pulls: reviewed.slice(0, 20), more: true };
    const id = formatExternalId({ shows: D, holds: H, failing, reviewed });
    expect(parseExternalId(id)).toEqual({ shows: D, holds: H, failing, reviewed: reviewed.slice(1) });
    expect(id.length).toBeLessThan(600);
  });

  it("reads a run of an earlier version 2 release, which names only the failing pull requests", () => {
    const state = parseExternalId(`plugin-review:v2:${D}:failing=7,9`);
    expect(state).toEqual({ shows: D, holds: D, failing: { pulls: [7, 9], more: false } });
    expect(pullsNamed(state)).toEqual([7, 9]);
    expect(pullsNamed(parseExternalId(`plugin-review:v2:${D}:failing=9:pulls=7,9`))).toEqual([7, 9]);
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
    `plugin-review:v2:${D}:failing=0`,
    `plugin-review:v2:${D}:failing=7:mixed`,
    `plugin-review:v2:${D}:failing=more`,
    `plugin-review:v2:${D}:pulls=7:failing=7`,
    `plugin-review:v2:${D}:pulls=`,
    `plugin-review:v2:${D}:pulls=${Array.from({ length: 21 }, (_, i) => i + 1).join(",")}`,
    `plugin-review:v2:${D}:failing=${Array.from({ length: 21 }, (_, i) => i + 1).join(",")}`,
  ])(
    "knows nothing of %s (a run it did not write, or a later format): its annotations are read before more are sent",
    (id) => {
      expect(parseExternalId(id)).toBeUndefined();
    },
  );
});
