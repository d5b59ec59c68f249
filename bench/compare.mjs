#!/usr/bin/env node
// This commit's review speed beside a previous commit's, in one process (`npm run build` first):
//   node bench/compare.mjs [previous-ref] [rounds]      (default: HEAD~1, 7 rounds)
// The previous commit is checked out in a temporary git worktree and built; both builds are imported and
// timed in alternating rounds, so that the load of a shared machine falls on both alike. Prints, per
// build, the medians over the rounds of: the review of the 45 corpus files with and without the base
// comparison (median file), and of the generated 2 MB descriptor with and without a base (the version
// changed, or one metric's unit), beside JSON.parse + Ajv of the same text. The builds' results are
// compared first: they must be the same.
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
  const { reviewDescriptors } = await import(dist("review.js"));
  const schema = await import(dist("schema.js"));
  schema.warmUpSchemas();
  const config = resolveConfig();
  return {
    name,
    schema,
    withBase: (path, text, base = baseOf(text)) =>
      reviewDescriptors([{ path, content: text, base: { path, content: base } }], config),
    alone: (path, text) => reviewDescriptors([{ path, content: text }], config),
  };
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
  for (const { f, text } of [...corpus, { f: "large.json", text: largeText }]) {
    const [a, b] = builds.map((x) => JSON.stringify(x.withBase(f, text)));
    if (a !== b) {
      differ++;
      console.log(`results differ: ${f}`);
    }
  }
  console.log(
    `same results on ${corpus.length + 1 - differ} of ${corpus.length + 1} descriptors (with the base comparison)`,
  );
  // Per corpus file, per build: the time of each round; the two builds timed back to back, file by file.
  const rows = builds.map(() => ({
    corpus: corpus.map(() => []),
    corpusAlone: corpus.map(() => []),
    large: [],
    largeAlone: [],
    largeMetric: [],
  }));
  const ajv = [];
  for (let r = 0; r < rounds; r++) {
    corpus.forEach(({ f, text }, k) => {
      for (const i of (r + k) % 2 ? [1, 0] : [0, 1]) {
        rows[i].corpus[k].push(time(() => builds[i].withBase(f, text), 30, 5));
        rows[i].corpusAlone[k].push(time(() => builds[i].alone(f, text), 30, 5));
      }
    });
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      rows[i].large.push(time(() => builds[i].withBase("large.json", largeText), 15, 3));
      rows[i].largeAlone.push(time(() => builds[i].alone("large.json", largeText), 15, 3));
      rows[i].largeMetric.push(
        time(() => builds[i].withBase("large.json", largeText, largeMetricBase), 9, 2),
      );
    }
    ajv.push(
      time(
        () => {
          const v = JSON.parse(largeText);
          builds[1].schema.validateSchema(v, "host");
        },
        15,
        3,
      ),
    );
  }
  /** The median file of the corpus, each file's time being its median over the rounds. */
  const corpusMedian = (perFile) => median(perFile.map(median));
  const tAjv = median(ajv);
  console.log(`${rounds} alternating rounds; 2 MB JSON.parse + Ajv: ${ms(tAjv)}`);
  builds.forEach((b, i) => {
    const row = rows[i];
    const large = median(row.large);
    console.log(`${b.name}:`);
    console.log(
      `  corpus median review with the base comparison ${ms(corpusMedian(row.corpus))}, without a base ${ms(corpusMedian(row.corpusAlone))}`,
    );
    console.log(
      `  2 MB review with the base comparison ${ms(large)} (${(large / tAjv).toFixed(1)}x JSON.parse + Ajv) [target <= 6x], without a base ${ms(median(row.largeAlone))}`,
    );
    console.log(
      `  2 MB review when the base differs in one metric's unit (inside \`metrics\`): ${ms(median(row.largeMetric))}`,
    );
    console.log(`  2 MB with base, each round: ${row.large.map((x) => x.toFixed(1)).join(", ")} ms`);
  });
});
