import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { check, validHost, validRemote } from "../helpers.js";

describe("shipped valid examples", () => {
  it("the valid host example has no findings", () => {
    expect(check(validHost())).toEqual([]);
  });
  it("the valid remote example has no findings", () => {
    expect(check(validRemote())).toEqual([]);
  });
  it("the valid examples stay clean against themselves as base (no change, no change finding)", () => {
    expect(check(validHost(), { base: validHost() })).toEqual([]);
    expect(check(validRemote(), { base: validRemote() })).toEqual([]);
  });
  it("examples/ has a folder per case", () => {
    expect(readdirSync(new URL("../../examples", import.meta.url))).toEqual(
      expect.arrayContaining(["host-valid", "remote-valid"]),
    );
  });
});
