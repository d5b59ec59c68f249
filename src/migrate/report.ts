/**
 * What MIGRATION.md says beyond its notes: the EF2 selector of every EF1 metric id (what dashboards, SLOs,
 * alerts and scripts must query after the migration), the dashboard made of the charts, and, for a descriptor
 * that is not converted, why and what to do, line by line. Descriptor text is inert in it: in code spans
 * (format/markdown.ts), in table cells too.
 */
import { codeSpan as inertCodeSpan } from "../format/markdown.js";
import type { KeyMap } from "../core/ef2/key-map.js";
import { codeSpan, markdown, type Phrase } from "./notes.js";

const cell = (s: string) => (s === "" ? "(empty)" : inertCodeSpan(s, { cell: true }));

/** The section listing each EF1 metric id with the EF2 selector of the same series, and its line. */
export function queriesSection(keyMap: KeyMap, line: (pointer: string) => number): string[] {
  const lines = [
    "## In dashboards, SLOs, alerts and scripts",
    "",
    "Each EF1 metric as users query it, and the EF2 metric selector that gives the same series (`plugin-review migrate --rewrite` replaces them in exported JSON and text files):",
    "",
    "| line | EF1 metric | EF2 selector |",
    "| ---: | --- | --- |",
  ];
  for (const x of keyMap.metrics)
    lines.push(
      `| ${line(x.pointer)} | ${cell(x.ef1.selector ?? x.ef1.key)} | ${cell(x.ef2.selector)}${x.ef2.sumsInsteadOf ? ` (EF1 took the ${x.ef2.sumsInsteadOf === "max" ? "maximum" : x.ef2.sumsInsteadOf === "min" ? "minimum" : "average"} of the MBeans': see "Changed in meaning")` : ""} |`,
    );
  return lines;
}

/** The sentence about the dashboard, with a link to it (our path: made of a valid EF2 name). */
export function dashboardSentence(dashboard: { path: string; tiles: number }): string {
  const path = `extension/${dashboard.path}`;
  return `The EF1 charts and key metrics are the dashboard [${path}](${path}) (${dashboard.tiles} ${dashboard.tiles === 1 ? "tile" : "tiles"}, one per chart and key metric), listed in extension.yaml's \`dashboards:\`.`;
}

/** A reason a descriptor is not converted, with what to do about it. */
export interface Refusal {
  line?: number;
  text: Phrase;
  fix?: Phrase;
}

/**
 * MIGRATION.md of a descriptor that is not converted: nothing else is written for it, so this says why, line
 * by line, what to do, and which metrics (and their ids in dashboards) wait for a new home.
 */
export function refusedMigrationMd(input: {
  ef1Name?: string;
  ef1Version?: string;
  type?: string;
  reasons: readonly Refusal[];
  metrics: readonly { line: number; id?: string; key: string }[];
  notes: readonly { line?: number; member: string; text: Phrase; kind: string }[];
}): string {
  const name = input.ef1Name === undefined ? "this descriptor" : codeSpan(input.ef1Name);
  const lines = [
    `# ${input.ef1Name === undefined ? "This descriptor" : codeSpan(input.ef1Name)} was not migrated`,
    "",
    `plugin-review migrate did not convert ${name}${input.ef1Version !== undefined ? ` version ${codeSpan(input.ef1Version)}` : ""}${input.type !== undefined ? ` (${codeSpan(input.type)})` : ""} to an Extensions 2.0 extension: this file is all it wrote for it. Each entry names the line of the EF1 plugin.json it is about.`,
    "",
    "## Why",
    "",
  ];
  for (const r of input.reasons)
    lines.push(`- ${r.line !== undefined ? `line ${r.line}: ` : ""}${markdown(r.text)}`);
  const fixes = input.reasons.filter((r) => r.fix !== undefined);
  lines.push("", "## What to do", "");
  if (!fixes.length)
    lines.push("- Fix what is listed above in the plugin.json, then run `plugin-review migrate` again.");
  // One fix for several reasons (a plugin's copies, each a collision of its own) is said once.
  const fixLines = new Set<string>();
  for (const r of fixes)
    fixLines.add(`- ${r.line !== undefined ? `line ${r.line}: ` : ""}${markdown(r.fix!)}`);
  lines.push(...fixLines);
  if (input.metrics.length) {
    lines.push(
      "",
      "## Its metrics",
      "",
      "Until a replacement reports them, dashboards, SLOs and alerts that query these EF1 metrics show no data once EF1 stops:",
      "",
    );
    for (const x of input.metrics) lines.push(`- line ${x.line}: ${codeSpan(x.id ?? x.key)}`);
  }
  const notes = input.notes.filter((n) => n.kind === "dropped" || n.kind === "changed");
  if (notes.length) {
    lines.push("", "## Also not carried over, had it been converted", "");
    for (const n of notes)
      lines.push(
        n.line === undefined
          ? `- ${markdown(n.text)}`
          : `- line ${n.line}, ${codeSpan(n.member)}: ${markdown(n.text)}`,
      );
  }
  return lines.join("\n") + "\n";
}
