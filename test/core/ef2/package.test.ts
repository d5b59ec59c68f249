/** What a caller passes of an extension's files: the paths the review reads, and the Python SDK's project folder. */
import { describe, expect, it } from "vitest";
import {
  extensionPackage,
  extensionReads,
  projectFolder,
  resolveFrom,
} from "../../../src/core/ef2/package.js";

describe("the files beside an extension.yaml", () => {
  it("names the activation schemas it reads, as repository paths", () => {
    const value = {
      python: { activation: { remote: { path: "activationSchema.json" }, local: { path: "../local.json" } } },
    };
    expect(extensionReads("ext/extension/extension.yaml", value)).toEqual([
      "ext/extension/activationSchema.json",
      "ext/local.json",
    ]);
    expect(
      extensionReads("extension.yaml", { python: { activation: { remote: { path: "../../x.json" } } } }),
    ).toEqual([]);
    expect(extensionReads("extension.yaml", "not a mapping")).toEqual([]);
  });

  it("finds the SDK's project beside an extension/ folder", () => {
    expect(projectFolder("extension/extension.yaml")).toBe("");
    expect(projectFolder("queue/extension/extension.yaml")).toBe("queue/");
    expect(projectFolder("src/extension.yaml")).toBe("src/");
    expect(projectFolder("extension.yaml")).toBe("");
    expect(resolveFrom("a/b/", "./c/../d.json")).toBe("a/b/d.json");
  });

  it("reads a file once, and says why one cannot be read", () => {
    const files = {
      paths: ["e/extension.yaml", "e/a.json", "e/b.json"],
      contents: new Map<string, string | Uint8Array>([
        ["e/a.json", "{}"],
        ["e/b.json", new Uint8Array([0xff, 0xfe])],
      ]),
    };
    const pkg = extensionPackage("e/extension.yaml", files, 100);
    expect(pkg.read("a.json")).toEqual({ text: "{}" });
    expect(pkg.read("b.json")).toEqual({ problem: "is not UTF-8 text" });
    expect(pkg.read("c.json")).toBeUndefined();
    expect(pkg.read("a.json", true)).toBeUndefined();
    expect(extensionPackage("e/extension.yaml", files, 1).read("a.json")).toEqual({
      problem: "is larger than max_file_size (1 bytes)",
    });
  });
});
