#!/usr/bin/env node
// Benchmarks of the review core (`npm run bench`; `node bench/run.mjs --review` for sections 1-2 alone). Medians of repeated runs, printed beside JSON.parse
// of the same text in the same run (absolute times depend on the machine's load; ratios much less).
// Targets (issue "Rule API after ESLint"): the median corpus descriptor within 0.12 ms; the large
// generated one within 3x of JSON.parse + Ajv schema validation alone; a configuration with 40 rules
// off measurably faster than the default one (rules that are off never run). The JSON parser is
// compared with json-source-map (why it is our own: src/core/json/parse.ts).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import jsonSourceMap from "json-source-map";
import { resolveConfig } from "../dist/src/core/config.js";
import { parseJson, parseJsonFast } from "../dist/src/core/json/parse.js";
import { detectVariant, analyseDescriptors } from "../dist/src/core/analyse.js";
import { RULE_IDS } from "../dist/src/core/rules/index.js";
import { validateWhole, warmUpSchemas } from "../dist/src/core/schema.js";
import { AnalysisTiming } from "../dist/src/core/timing.js";
import { formatTiming, timingRows, TIMING_ROWS } from "../dist/src/format/timing.js";
import { baseOf, largeDescriptor, N } from "./descriptors.mjs";
import { median, ms, time } from "./lib.mjs";

const config = resolveConfig();
/** Forty rules off: every rule after the first seven of the catalog (parse and structural ones stay on). */
const offIds = RULE_IDS.slice(7);
const fortyOff = resolveConfig({ repo: { rules: Object.fromEntries(offIds.map((id) => [id, "off"])) } });

/** With the base comparison: change rules, and the base's own findings matched with head's (new / existing). */
function review(path, text, cfg = config) {
  return analyseDescriptors([{ path, content: text, base: { path, content: baseOf(text) } }], cfg);
}

/**
 * Where the time of reviews with the base comparison goes, by rule and step: the table `TIMING=1 plugin-review
 * check` prints (TIMING=all or TIMING=<n> for more rows), over `runs` reviews of each file after as many
 * untimed ones (so that it describes warm code, as the figures above do).
 */
function timingOf(files, runs) {
  for (let i = 0; i < runs; i++) for (const { f, text } of files) review(f, text);
  const timing = new AnalysisTiming();
  for (let i = 0; i < runs; i++)
    for (const { f, text } of files)
      analyseDescriptors([{ path: f, content: text, base: { path: f, content: baseOf(text) } }], config, {
        timing,
      });
  return formatTiming(timing, timingRows(process.env.TIMING) ?? TIMING_ROWS);
}

/** The same descriptor alone (no base): what the base comparison adds is the difference. */
function reviewAlone(path, text) {
  return analyseDescriptors([{ path, content: text }], config);
}

warmUpSchemas();
const t0 = performance.now();

// 1. The real corpus, when it is beside the repository.
const corpus = fileURLToPath(new URL("../../shared/corpus/real/", import.meta.url));
if (existsSync(corpus)) {
  const rows = [];
  for (const f of readdirSync(corpus)
    .filter((n) => n.endsWith(".json"))
    .sort()) {
    const text = readFileSync(corpus + f, "utf8");
    const t = time(() => review(f, text), 200);
    const a = time(() => reviewAlone(f, text), 200);
    const j = time(() => JSON.parse(text), 200);
    const off = time(() => review(f, text, fortyOff), 200);
    // What no review can go under: the value, and its structure checked against the schema (findings and all).
    const ajv = time(() => {
      const v = JSON.parse(text);
      validateWhole(v, detectVariant(v));
    }, 200);
    rows.push({ f, bytes: text.length, t, a, j, off, ajv, text });
  }
  const all = median(rows.map((r) => r.t));
  const offAll = median(rows.map((r) => r.off));
  const worst = rows.reduce((a, b) => (b.t > a.t ? b : a));
  console.log(
    `real corpus: ${rows.length} descriptors, ${Math.min(...rows.map((r) => r.bytes))}-${Math.max(...rows.map((r) => r.bytes))} bytes`,
  );
  const alone = median(rows.map((r) => r.a));
  console.log(
    `  median review with the base comparison (parse+locate+schema+all rules+change rules+base findings matched, new/existing): ${ms(all)}  [target < 0.5 ms; rule API issue: <= 0.12 ms]`,
  );
  console.log(
    `  median review of the same files without a base: ${ms(alone)}  (with base / without = ${(all / alone).toFixed(1)}x)`,
  );
  console.log(
    `  median JSON.parse of the same files: ${ms(median(rows.map((r) => r.j)))}  (review / JSON.parse = ${(all / median(rows.map((r) => r.j))).toFixed(1)}x)`,
  );
  const ajvAll = median(rows.map((r) => r.ajv));
  console.log(
    `  median JSON.parse + Ajv schema validation of the same files: ${ms(ajvAll)}  (that / JSON.parse = ${(ajvAll / median(rows.map((r) => r.j))).toFixed(1)}x: the floor under any review that validates the schema)`,
  );
  console.log(
    `  median review with ${offIds.length} rules off: ${ms(offAll)}  (default / that = ${(all / offAll).toFixed(2)}x)  [target: faster]`,
  );
  console.log(`  slowest: ${worst.f} (${worst.bytes} bytes): ${ms(worst.t)}`);
  console.log(`  where the time goes (TIMING), ${rows.length} files reviewed with their base 20 times each:`);
  console.log(timingOf(rows, 20).replace(/^/gm, "    ").trimEnd());
} else {
  console.log("real corpus: ../shared/corpus/real not found, skipped");
}

// 2. A generated large descriptor: 2,000 metrics with alerts, key charts and charts (about 2 MB).
const large = largeDescriptor(N);
const largeText = JSON.stringify(large, null, 2);
const check = review("large.json", largeText);
const findings = check[0].findings.length;
const tReview = time(() => review("large.json", largeText), 30, 5);
const tAlone = time(() => reviewAlone("large.json", largeText), 30, 5);
const tParse = time(() => JSON.parse(largeText), 30, 5);
const tAjv = time(
  () => {
    const v = JSON.parse(largeText);
    validateWhole(v, detectVariant(v));
  },
  30,
  5,
);
console.log(
  `large descriptor: ${N} metrics with alerts, ${large.ui.keycharts.length} key charts, ${large.ui.charts.length} charts, ${(largeText.length / 1024 / 1024).toFixed(2)} MB, ${findings} findings`,
);
console.log(`  median review with the base comparison (change rules, base findings matched): ${ms(tReview)}`);
console.log(`  median review without a base: ${ms(tAlone)}`);
console.log(`  median JSON.parse: ${ms(tParse)}  (review / JSON.parse = ${(tReview / tParse).toFixed(1)}x)`);
console.log(
  `  median JSON.parse + Ajv schema validation: ${ms(tAjv)}  (review with base / that = ${(tReview / tAjv).toFixed(1)}x)  [target <= 6x; rule API issue: <= 3x]`,
);
console.log(`  where the time goes (TIMING), reviewed with its base 10 times:`);
console.log(
  timingOf([{ f: "large.json", text: largeText }], 10)
    .replace(/^/gm, "    ")
    .trimEnd(),
);
// The parser with positions beside json-source-map (the design card's choice), on the same large text:
// ours builds its tree only when findings need locating, so both are timed building positions.
{
  const tOurs = time(() => parseJsonFast(largeText).root, 15, 3);
  const tFull = time(() => parseJson(largeText), 15, 3);
  const tJsm = time(() => jsonSourceMap.parse(largeText), 15, 3);
  console.log(
    `JSON with positions, large descriptor: parseJsonFast + tree ${ms(tOurs)}, parseJson ${ms(tFull)}; json-source-map ${ms(tJsm)} (${(tJsm / tOurs).toFixed(1)}x ours)`,
  );
}
console.log(
  `(benchmark ran in ${((performance.now() - t0) / 1000).toFixed(1)} s on node ${process.version})`,
);

// `--review`: sections 1-2 only (the review's speed), for a quick run.
if (process.argv.includes("--review")) process.exit(0);

// 3. GitHub API calls of a review, counted by the integration test run (fake GitHub over nock).
{
  const dir = mkdtempSync(join(tmpdir(), "plugin-review-bench-"));
  const out = join(dir, "api-calls.json");
  try {
    execFileSync("npx", ["vitest", "run", "test/github/api-calls.test.ts"], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: { ...process.env, PLUGIN_REVIEW_API_CALLS_OUT: out },
      stdio: "ignore",
    });
    const figures = JSON.parse(readFileSync(out, "utf8"));
    console.log("GitHub API calls per review, installation token not counted (integration test run):");
    for (const [name, f] of Object.entries(figures)) {
      console.log(`  ${name}: ${f.calls} calls, ${f.writes} writes`);
      for (const [route, n] of Object.entries(f.byRoute))
        console.log(`      ${String(n).padStart(2)}  ${route}`);
    }
  } catch (e) {
    console.log(`GitHub API calls: the counting test failed (${e.message.split("\n")[0]})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// 4. Lambda bundles: zip sizes from `serverless package` (osls, offline) and cold-start import time of
// each bundle beside a bare `node -e 0`, median of several runs. Targets: receiver zip < 500 KB and
// import < 100 ms over bare Node; worker import < 250 ms over bare Node.
{
  const root = fileURLToPath(new URL("..", import.meta.url));
  const out = mkdtempSync(join(tmpdir(), "plugin-review-sls-"));
  try {
    execFileSync(process.execPath, ["scripts/bundle.mjs"], { cwd: root, stdio: "ignore" });
    execFileSync("npx", ["osls", "package", "--stage", "prod", "--region", "us-east-1", "--package", out], {
      cwd: root,
      stdio: "ignore",
    });
    const wall = (args) => {
      const xs = [];
      for (let i = 0; i < 9; i++) {
        const t = performance.now();
        spawnSync(process.execPath, args, { stdio: "ignore" });
        xs.push(performance.now() - t);
      }
      return median(xs);
    };
    const bare = wall(["-e", "0"]);
    console.log(`Lambda bundles (bare \`node -e 0\`: ${ms(bare)}, median of 9):`);
    for (const fn of ["receiver", "worker"]) {
      const zip = statSync(join(out, `${fn}.zip`)).size;
      const url = new URL(`../dist-lambda/${fn}/index.mjs`, import.meta.url).href;
      const t = wall(["--input-type=module", "--no-warnings", "-e", `await import(${JSON.stringify(url)})`]);
      console.log(
        `  ${fn}: zip ${(zip / 1024).toFixed(0)} KB, import ${ms(t)} = ${ms(t - bare)} over bare Node`,
      );
    }
  } catch (e) {
    console.log(`Lambda bundles: packaging failed (${e.message.split("\n")[0]})`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
