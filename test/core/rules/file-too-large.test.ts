import { describe, expect, it } from "vitest";
import { check, MIGRATION, ruleTable, validHost, validRemote, text } from "../../helpers.js";

const host = text(validHost());
const small = { max_file_size: 100 };
const EXTENSION = { path: "extension/extension.yaml" };
/** The migration example's extension.yaml padded with comment lines to `bytes` bytes. */
function extensionOf(bytes: number): string {
  const line = `# ${"x".repeat(97)}\n`;
  const padded =
    MIGRATION.extension + line.repeat(Math.floor((bytes - MIGRATION.extension.length) / line.length));
  return padded + "#".repeat(bytes - padded.length - 1) + "\n";
}
/** A JSON document of exactly `bytes` UTF-8 bytes, padded with `pad` (1 byte for ASCII, 2 for "é"). */
function sized(bytes: number, pad = "x"): string {
  const shell = '{"name":""}';
  const padBytes = new TextEncoder().encode(pad).length;
  let out = "";
  while (new TextEncoder().encode(shell).length + new TextEncoder().encode(out).length + padBytes <= bytes)
    out += pad;
  while (new TextEncoder().encode(shell).length + new TextEncoder().encode(out).length < bytes) out += "x";
  return `{"name":"${out}"}`;
}

ruleTable("file-too-large", {
  valid: [
    { name: "the host example under the default limit (5 MB)", doc: host },
    { name: "the remote example under the default limit", doc: text(validRemote()) },
    { name: "exactly at the limit (100 bytes of 100)", doc: sized(100), options: { config: small } },
    {
      name: "at the limit counting UTF-8 bytes, not characters",
      doc: sized(100, "é"),
      options: { config: small },
    },
    {
      name: "a configured limit above the file size",
      doc: host,
      options: { config: { max_file_size: host.length } },
    },
    {
      name: "an extension.yaml of exactly its own default limit (1 MB)",
      doc: extensionOf(1024 * 1024),
      options: EXTENSION,
    },
    {
      name: "an extension.yaml at a configured max_extension_size",
      doc: MIGRATION.extension,
      options: { ...EXTENSION, config: { max_extension_size: MIGRATION.extension.length } },
    },
    {
      name: "a plugin.json over max_extension_size: the limit is an extension.yaml's alone",
      doc: host,
      options: { config: { max_extension_size: 100 } },
    },
  ],
  invalid: [
    {
      name: "an extension.yaml over its own default limit (1 MB), far below max_file_size",
      messageId: "extensionTooLarge",
      data: { size: "1,048,577", limit: "1,048,576" },
      doc: extensionOf(1024 * 1024 + 1),
      options: EXTENSION,
      lines: [1],
      message:
        "the extension.yaml is 1,048,577 bytes, over the limit of 1,048,576 bytes (`max_extension_size`); it was not reviewed",
    },
    {
      name: "an extension.yaml over a configured max_extension_size",
      messageId: "extensionTooLarge",
      data: { limit: "100" },
      doc: MIGRATION.extension,
      options: { ...EXTENSION, config: { max_extension_size: 100 } },
      lines: [1],
    },
    {
      name: "an extension.yaml over a 100-byte limit, not parsed",
      messageId: "tooLarge",
      data: { limit: "100" },
      doc: MIGRATION.extension,
      options: { path: "extension/extension.yaml", config: small },
      lines: [1],
    },
    {
      name: "the host example over a 100-byte limit",
      messageId: "tooLarge",
      data: { limit: "100" },
      doc: host,
      lines: [1],
      message: /over the limit of 100 bytes/,
      options: { config: small },
    },
    {
      name: "one byte over the limit",
      messageId: "tooLarge",
      doc: sized(101),
      lines: [1],
      message: /101 bytes, over the limit of 100/,
      options: { config: small },
    },
    {
      name: "multi-byte characters count as their UTF-8 length",
      messageId: "tooLarge",
      doc: "é".repeat(51),
      lines: [1],
      message: /102 bytes/,
      options: { config: small },
    },
    {
      name: "a file that is not even JSON is not parsed",
      messageId: "tooLarge",
      doc: "x".repeat(101),
      lines: [1],
      message: /not reviewed/,
      options: { config: small },
    },
    {
      name: "severity can be lowered",
      messageId: "tooLarge",
      doc: host,
      lines: [1],
      severity: "warning",
      options: { config: { ...small, rules: { "file-too-large": "warning" } } },
    },
  ],
});

describe("file-too-large", () => {
  it("the size fixtures have the intended UTF-8 lengths", () => {
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    expect([bytes(sized(100)), bytes(sized(100, "é")), bytes(sized(101)), bytes("é".repeat(51))]).toEqual([
      100, 100, 101, 102,
    ]);
    expect(sized(100, "é")).toContain("é");
  });

  it("is the only finding: the file is not parsed, so no other rule runs", () => {
    const found = check("{ not json and too long ".padEnd(200, "x"), { config: small });
    expect(found.map((f) => f.ruleId)).toEqual(["file-too-large"]);
    expect(found[0]).toMatchObject({ line: 1, column: 1, severity: "error" });
  });

  it("can be turned off (then the oversized file gets no finding at all)", () => {
    expect(check(host, { config: { ...small, rules: { "file-too-large": "off" } } })).toEqual([]);
  });

  it("the organisation's limit applies when the repository sets none", () => {
    expect(check(host, { org: small }).map((f) => f.ruleId)).toEqual(["file-too-large"]);
  });
});
