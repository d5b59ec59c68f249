/**
 * core/base-path.ts: a changed file's base is its own path, a rename's old path only when the base's review read
 * it (`reviewedPathMatcher` over the configuration's `paths`, which pairs an extension.yaml with a reviewed
 * plugin.json), else none: the file is new.
 */
import { describe, expect, it } from "vitest";
import { baseOf, copiedRenames } from "../../src/core/base-path.js";
import { reviewedPathMatcher } from "../../src/core/ef2/pairing.js";

const reviewed = reviewedPathMatcher(["plugins/**/plugin.json"]);

describe("baseOf", () => {
  it.each([
    ["added", { path: "plugins/a/plugin.json", status: "added" }, {}],
    [
      "modified in place",
      { path: "plugins/a/plugin.json", status: "modified" },
      { path: "plugins/a/plugin.json" },
    ],
    [
      "renamed from a reviewed path",
      { path: "plugins/b/plugin.json", status: "renamed", previousPath: "plugins/a/plugin.json" },
      { path: "plugins/a/plugin.json" },
    ],
    [
      "renamed from a path `paths` do not name",
      { path: "plugins/b/plugin.json", status: "renamed", previousPath: "fixtures/bad.json" },
      { notReviewedFrom: "fixtures/bad.json" },
    ],
    [
      "renamed from an extension.yaml beside a reviewed plugin.json",
      {
        path: "plugins/b/extension/extension.yaml",
        status: "renamed",
        previousPath: "plugins/a/extension/extension.yaml",
      },
      { path: "plugins/a/extension/extension.yaml" },
    ],
    [
      "renamed from an extension.yaml beside no reviewed path",
      { path: "plugins/b/extension.yaml", status: "renamed", previousPath: "vendor/x/extension.yaml" },
      { notReviewedFrom: "vendor/x/extension.yaml" },
    ],
    [
      "renamed from another kind of descriptor: an extension.yaml made a plugin.json",
      { path: "plugins/a/plugin.json", status: "renamed", previousPath: "plugins/a/extension.yaml" },
      { notReviewedFrom: "plugins/a/extension.yaml" },
    ],
    [
      "renamed from another kind of descriptor: a plugin.json made an extension.yaml",
      { path: "plugins/a/extension.yaml", status: "renamed", previousPath: "plugins/a/plugin.json" },
      { notReviewedFrom: "plugins/a/plugin.json" },
    ],
    [
      "copied (GitHub): its own path, which the base lacks",
      { path: "plugins/c/plugin.json", status: "copied" },
      { path: "plugins/c/plugin.json" },
    ],
  ])("%s", (_, change, expected) => {
    expect(baseOf(change, reviewed)).toEqual(expected);
  });
});

describe("copiedRenames", () => {
  it("a rename from a path another changed file still has, or another rename took: a copy; others are renames", () => {
    const changes = [
      { path: "a/plugin.json", status: "modified" },
      { path: "b/plugin.json", status: "renamed", previousPath: "a/plugin.json" },
      { path: "c/plugin.json", status: "renamed", previousPath: "x/plugin.json" },
      { path: "d/plugin.json", status: "renamed", previousPath: "x/plugin.json" },
      { path: "e/plugin.json", status: "renamed", previousPath: "gone/plugin.json" },
      { path: "gone/plugin.json", status: "removed" },
      { path: "f/plugin.json", status: "copied", previousPath: "e/plugin.json" },
    ];
    expect([...copiedRenames(changes)]).toEqual([
      ["b/plugin.json", "a/plugin.json"],
      ["d/plugin.json", "x/plugin.json"],
    ]);
  });
});
