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
import { comparable, corpus, largeText, loadBuild, measure } from "./figures.mjs";
import { ms, ROOT, withBuiltCommit } from "./lib.mjs";

const ref = process.argv[2] ?? "HEAD~1";
const rounds = Number(process.argv[3] ?? 7);

await withBuiltCommit(ref, async (prev) => {
  const builds = [await loadBuild(`previous (${ref})`, prev), await loadBuild("this commit", ROOT)];
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
  const { figures, rows, tParse, tAjv } = measure(builds, rounds);
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
