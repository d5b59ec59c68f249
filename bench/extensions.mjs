#!/usr/bin/env node
// Extensions 2.0 (issue 41): the review of every extension.yaml of ../shared/corpus/ef2/ (extensions Dynatrace
// publishes; a median of 10 KB, the largest 274 KB) beside js-yaml's `load` of the same text, the parse alone of
// the fastest YAML parser on npm, in the same run. Target: the review within 3x that parse. The review is
// everything `check` does to a file (parse with positions, schema, every rule, locate, identity); "with a base"
// adds a changed base (another version, another display name): the change rules and the base's own findings.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { load } from "js-yaml";
import { resolveConfig } from "../dist/src/core/config.js";
import { analyseDescriptors } from "../dist/src/core/analyse.js";
import { warmUpSchemas } from "../dist/src/core/schema.js";
import { median, ms, time } from "./lib.mjs";

const corpus = fileURLToPath(new URL("../../shared/corpus/ef2/", import.meta.url));
if (!existsSync(corpus)) {
  console.log("Extensions 2.0 corpus: ../shared/corpus/ef2 not found, skipped");
  process.exit(0);
}
const config = resolveConfig();
const PATH = "extension/extension.yaml";
const review = (content, base) =>
  analyseDescriptors(
    [{ path: PATH, content, ...(base ? { base: { path: PATH, content: base } } : {}) }],
    config,
  );
/** Another version of the file: its version and a display name changed, as a release changes them. */
const baseOf = (text) =>
  text.replace(/^version: .*$/m, 'version: "0.0.1"').replace(/displayName: /, "displayName: Old ");

warmUpSchemas();
const rows = [];
for (const f of readdirSync(corpus)
  .filter((n) => n.endsWith(".yaml"))
  .sort()) {
  const text = readFileSync(corpus + f, "utf8");
  const runs = text.length > 100_000 ? 15 : text.length > 20_000 ? 40 : 150;
  const findings = review(text)[0].findings.length;
  const r = time(() => review(text), runs, 3);
  const b = time(() => review(text, baseOf(text)), runs, 3);
  const y = time(() => load(text), runs, 3);
  rows.push({ f: f.slice(0, 3), bytes: text.length, r, b, y, findings });
}
const sum = (k) => rows.reduce((a, x) => a + x[k], 0);
const byRatio = rows.map((x) => ({ ...x, ratio: x.r / x.y })).sort((a, b) => a.ratio - b.ratio);
const largest = rows.reduce((a, x) => (x.bytes > a.bytes ? x : a));
const bytes = rows.map((x) => x.bytes).sort((a, b) => a - b);
console.log(
  `Extensions 2.0 corpus: ${rows.length} extension.yaml files, ${bytes[0]}-${bytes[bytes.length - 1]} bytes (median ${median(bytes)})`,
);
console.log(
  `  all files: review ${ms(sum("r"))}, js-yaml load ${ms(sum("y"))}: review / load = ${(sum("r") / sum("y")).toFixed(2)}x  [target <= 3x]`,
);
console.log(
  `  per file: median review / load ${median(byRatio.map((x) => x.ratio)).toFixed(2)}x (from ${byRatio[0].ratio.toFixed(2)}x to ${byRatio[byRatio.length - 1].ratio.toFixed(2)}x, file ${byRatio[byRatio.length - 1].f})`,
);
console.log(
  `  largest (${largest.f}, ${largest.bytes} bytes): review ${ms(largest.r)}, load ${ms(largest.y)}: ${(largest.r / largest.y).toFixed(2)}x`,
);
console.log(
  `  with a changed base (change rules, the base's own findings): all files ${ms(sum("b"))}, ${(sum("b") / sum("y")).toFixed(2)}x the load`,
);
if (process.argv.includes("--files"))
  for (const x of rows)
    console.log(
      `    ${x.f} ${String(x.bytes).padStart(7)} B  review ${ms(x.r).padStart(9)}  base ${ms(x.b).padStart(9)}  load ${ms(x.y).padStart(9)}  ${(x.r / x.y).toFixed(2)}x  ${x.findings} findings`,
    );
