/**
 * How MIGRATION.md ends: the commands that check the written extension against the plugin.json it replaces
 * and build it, to be run in the migration's folder, and where the documentation says more (its section).
 */
import type { Framework } from "../core/ef2/key-map.js";

/** docs/migrate.md as published, for a written project that lives apart from any clone or installed package. */
export const MIGRATE_DOCS = "https://github.com/plugin-review/plugin-review/blob/main/docs/migrate.md";

/** Where a developer certificate is by default: where `dt-sdk gencerts` writes it, and where `dt-sdk build` reads it. */
const DEVELOPER_PEM = "~/.dynatrace/certificates/developer.pem";

/**
 * A path as one word of a POSIX shell command: as it is when nothing in it means anything to the shell, else
 * quoted (control characters as `$'\x1b'` escapes, so that no terminal acts on them when the file is shown).
 */
export function shellWord(s: string): string {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f]/g;
  if (control.test(s))
    return `$'${s.replace(/[\\']/g, (c) => `\\${c}`).replace(control, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}'`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A fenced code block that nothing in it can close (a fence longer than any run of backticks it holds). */
function codeBlock(language: string, lines: readonly string[]): string[] {
  const longest = Math.max(
    0,
    ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))),
  );
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [fence + language, ...lines, fence];
}

/**
 * The closing section of MIGRATION.md: `source` is the plugin.json's path from the migration's folder (as the
 * CLI computed it from where it wrote the files).
 */
export function nextSteps(framework: Framework, source: string): string[] {
  const check = `npx plugin-review check --base ${shellWord(source)} extension/extension.yaml`;
  const build =
    framework === "JMX"
      ? [
          "dt ext assemble --source extension --output dist/extension.zip",
          `dt ext sign --src dist/extension.zip --key ${DEVELOPER_PEM} --output dist/bundle.zip`,
        ]
      : ["dt-sdk build ."];
  return [
    "## Check and build",
    "",
    `In this folder: the first command reviews the extension against the plugin.json it replaces (no metric, key or dimension lost on the way); ${
      framework === "JMX"
        ? "the others build the extension and sign it with Dynatrace's tools, ready to upload"
        : "the second builds the extension (the plugin's code, the compatibility layer and their dependencies) and signs it with Dynatrace's Python SDK, ready to upload"
    }. [docs/migrate.md](${MIGRATE_DOCS}#check-and-build-the-extension) says what they need (a developer certificate: \`dt-sdk gencerts\`).`,
    "",
    ...codeBlock("sh", [check, ...build]),
  ];
}
