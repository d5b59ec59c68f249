#!/usr/bin/env node
// This commit's review speed beside a previous commit's, in one process (`npm run build` first):
//   node bench/compare.mjs [previous-ref] [rounds]      (default: HEAD~1, 7 rounds)
// The previous commit is checked out in a temporary git worktree and built; both builds are imported and
// timed in alternating rounds, so that the load of a shared machine falls on both alike. Prints, per
// build, the medians over the rounds of the review figures of bench/run.mjs: the review of the corpus
// files with and without the base comparison and with 40 rules off (median file), the slowest file, the
// generated 2 MB descriptor with and without a base (the version changed, or one metric's unit) beside
// JSON.parse + Ajv of the same text, and that text parsed with positions; then each figure's ratio, this
// commit over the previous one. The builds' results are compared first, on the fields both produce.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { baseOf, largeDescriptor } from "./descriptors.mjs";
import { median, ms, time, withBuiltCommit } from "./lib.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ref = process.argv[2] ?? "HEAD~1";
const rounds = Number(process.argv[3] ?? 7);

async function load(name, root) {
  const dist = (p) => pathToFileURL(join(root, "dist/src/core", p)).href;
  const { resolveConfig } = await import(dist("config.js"));
  // The core's analysis, as this build names it (analyse.js) or an earlier one did (review.js).
  const core = existsSync(fileURLToPath(dist("analyse.js")))
    ? await import(dist("analyse.js"))
    : await import(dist("review.js"));
  const analyseDescriptors = core.analyseDescriptors ?? core.reviewDescriptors;
  const { RULE_IDS } = await import(dist("rules/index.js"));
  const { parseJsonFast } = await import(dist("json/parse.js"));
  const schema = await import(dist("schema.js"));
  schema.warmUpSchemas();
  const config = resolveConfig();
  // As bench/run.mjs: every rule after the first seven of the catalog off.
  const offIds = RULE_IDS.slice(7);
  const fortyOff = resolveConfig({ repo: { rules: Object.fromEntries(offIds.map((id) => [id, "off"])) } });
  return {
    name,
    schema,
    offIds,
    withBase: (path, text, base = baseOf(text), cfg = config) =>
      analyseDescriptors([{ path, content: text, base: { path, content: base } }], cfg),
    alone: (path, text) => analyseDescriptors([{ path, content: text }], config),
    off: (path, text) =>
      analyseDescriptors([{ path, content: text, base: { path, content: baseOf(text) } }], fortyOff),
    positions: (text) => parseJsonFast(text).root,
  };
}

/**
 * The results with only the fields the previous build gives (a later build may add fields, such as a
 * finding's identity), and a previous `fix` that is now offered as the same single suggestion read as
 * that suggestion (rules whose edits are guesses now offer them instead of applying them).
 */
function comparable(prevResults, results) {
  const added = new Set();
  const keep = (p, r) =>
    p.map((pf, i) => {
      const f = r[i] ?? {};
      for (const k of Object.keys(f)) if (!(k in pf)) added.add(k);
      const out = Object.fromEntries(Object.keys(pf).map((k) => [k, f[k]]));
      if (pf.fix && !f.fix && JSON.stringify(f.suggestions) === JSON.stringify([pf.fix])) {
        out.fix = pf.fix;
        added.add("suggestions (a previous fix, now a suggestion)");
      }
      return out;
    });
  const strip = (rs, others) =>
    rs.map((x, i) => ({ ...x, findings: keep(x.findings, others[i]?.findings ?? []) }));
  return { a: JSON.stringify(prevResults), b: JSON.stringify(strip(prevResults, results)), added };
}

const corpusDir = join(ROOT, "../shared/corpus/real");
const corpus = existsSync(corpusDir)
  ? readdirSync(corpusDir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => ({ f, text: readFileSync(join(corpusDir, f), "utf8") }))
  : [];
const largeText = JSON.stringify(largeDescriptor(), null, 2);
/** A base that differs inside `metrics` (four fifths of the text): one metric's unit. */
const largeMetricBase = largeText.replace('"unit": "Count"', '"unit": "Second"');

await withBuiltCommit(ref, async (prev) => {
  const builds = [await load(`previous (${ref})`, prev), await load("this commit", ROOT)];
  let differ = 0;
  const added = new Set();
  for (const { f, text } of [...corpus, { f: "large.json", text: largeText }]) {
    const [p, t] = builds.map((x) => x.withBase(f, text));
    const c = comparable(p, t);
    c.added.forEach((k) => added.add(k));
    if (c.a !== c.b) {
      differ++;
      console.log(`results differ: ${f}`);
    }
  }
  console.log(
    `same results on ${corpus.length + 1 - differ} of ${corpus.length + 1} descriptors (with the base comparison)` +
      (added.size ? `, on the previous build's fields (this commit adds: ${[...added].join(", ")})` : ""),
  );
  if (builds[0].offIds.join() !== builds[1].offIds.join())
    console.log("note: the builds turn different rules off for the 40-rules-off figure");
  // Per corpus file, per build: the time of each round; the two builds timed back to back, file by file.
  const rows = builds.map(() => ({
    corpus: corpus.map(() => []),
    corpusAlone: corpus.map(() => []),
    corpusOff: corpus.map(() => []),
    large: [],
    largeAlone: [],
    largeMetric: [],
    positions: [],
  }));
  const ajv = [];
  const corpusParse = corpus.map(({ text }) => time(() => JSON.parse(text), 30, 5));
  for (let r = 0; r < rounds; r++) {
    corpus.forEach(({ f, text }, k) => {
      for (const i of (r + k) % 2 ? [1, 0] : [0, 1]) {
        rows[i].corpus[k].push(time(() => builds[i].withBase(f, text), 30, 5));
        rows[i].corpusAlone[k].push(time(() => builds[i].alone(f, text), 30, 5));
        rows[i].corpusOff[k].push(time(() => builds[i].off(f, text), 30, 5));
      }
    });
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      rows[i].large.push(time(() => builds[i].withBase("large.json", largeText), 15, 3));
      rows[i].largeAlone.push(time(() => builds[i].alone("large.json", largeText), 15, 3));
      rows[i].largeMetric.push(
        time(() => builds[i].withBase("large.json", largeText, largeMetricBase), 9, 2),
      );
      rows[i].positions.push(time(() => builds[i].positions(largeText), 9, 2));
    }
    ajv.push(
      time(
        () => {
          const v = JSON.parse(largeText);
          // The yardstick is the whole schema as Ajv runs it (validateWhole; validateSchema before it existed).
          const { schema } = builds[0];
          (schema.validateWhole ?? schema.validateSchema)(v, "host");
        },
        15,
        3,
      ),
    );
  }
  /** The median file of the corpus, each file's time being its median over the rounds. */
  const corpusMedian = (perFile) => median(perFile.map(median));
  // The slowest file is the previous build's slowest, timed in both.
  const perFile = rows[0].corpus.map(median);
  const slowest = perFile.indexOf(Math.max(...perFile));
  const tAjv = median(ajv);
  const tParse = median(corpusParse);
  const figures = rows.map((row) => ({
    "corpus median, with the base comparison": corpusMedian(row.corpus),
    "corpus median, without a base": corpusMedian(row.corpusAlone),
    "corpus median, 40 rules off": corpusMedian(row.corpusOff),
    [`slowest corpus file (${corpus[slowest]?.f ?? "none"}), with its base`]: median(
      row.corpus[slowest] ?? [NaN],
    ),
    "2 MB, with the base comparison": median(row.large),
    "2 MB, without a base": median(row.largeAlone),
    "2 MB, base differs in one metric's unit": median(row.largeMetric),
    "2 MB parsed with positions (parseJsonFast + tree)": median(row.positions),
  }));
  console.log(
    `${rounds} alternating rounds; corpus median JSON.parse ${ms(tParse)}; 2 MB JSON.parse + Ajv: ${ms(tAjv)}`,
  );
  builds.forEach((b, i) => {
    const f = figures[i];
    console.log(`${b.name}:`);
    for (const [k, v] of Object.entries(f)) {
      const of = k.startsWith("corpus median") ? tParse : k.startsWith("2 MB,") ? tAjv : undefined;
      const ratio = of
        ? ` (${(v / of).toFixed(1)}x ${of === tParse ? "JSON.parse" : "JSON.parse + Ajv"})`
        : "";
      console.log(`  ${k}: ${ms(v)}${ratio}`);
    }
    console.log(`  2 MB with base, each round: ${rows[i].large.map((x) => x.toFixed(1)).join(", ")} ms`);
  });
  console.log("this commit / previous (above 1.10 is more than 10% worse):");
  for (const k of Object.keys(figures[0]))
    console.log(`  ${(figures[1][k] / figures[0][k]).toFixed(3)}  ${k}`);
});
