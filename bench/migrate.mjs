#!/usr/bin/env node
// `plugin-review migrate`'s speed (part of `npm run bench`): every JMX and Python descriptor of the real corpus
// migrated, the time per descriptor beside a review's (without a base) of the same descriptors, in the same run
// and in alternating rounds, so that the machine's load weighs on both alike; and the audit's readiness (the
// conversion without reading extension.yaml back). Medians; the first conversion (the EF2 schema compiled) apart.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { resolveConfig } from "../dist/src/core/config.js";
import { analyseDescriptors } from "../dist/src/core/analyse.js";
import { warmUpSchemas } from "../dist/src/core/schema.js";
import { migrate, readiness } from "../dist/src/migrate/migrate.js";
import { median, ms } from "./lib.mjs";

const corpus = fileURLToPath(new URL("../../shared/corpus/real/", import.meta.url));
if (!existsSync(corpus)) {
  console.log("migrate: ../shared/corpus/real not found, skipped");
  process.exit(0);
}
const config = resolveConfig();
const texts = readdirSync(corpus)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => ({ f, text: readFileSync(corpus + f, "utf8") }))
  .filter(({ text }) => /^(jmx|python)$/i.test(String(JSON.parse(text).type)));

warmUpSchemas();
let t = performance.now();
const first = migrate(texts[0].text);
const firstCall = performance.now() - t;

const ROUNDS = 40;
const perMigrate = texts.map(() => []);
const perReadiness = texts.map(() => []);
const perReview = texts.map(() => []);
const wholeMigrate = [];
const wholeReview = [];
for (let round = 0; round < ROUNDS + 5; round++) {
  // The first rounds warm both up; each round times the whole corpus, one descriptor at a time.
  let a = 0;
  let b = 0;
  texts.forEach(({ f, text }, i) => {
    t = performance.now();
    migrate(text);
    const m = performance.now() - t;
    t = performance.now();
    readiness(text);
    const k = performance.now() - t;
    t = performance.now();
    analyseDescriptors([{ path: f, content: text }], config);
    const r = performance.now() - t;
    a += m;
    b += r;
    if (round >= 5) {
      perMigrate[i].push(m);
      perReadiness[i].push(k);
      perReview[i].push(r);
    }
  });
  if (round >= 5) {
    wholeMigrate.push(a);
    wholeReview.push(b);
  }
}
const migrateMedians = perMigrate.map(median);
const reviewMedians = perReview.map(median);
const results = texts.map(({ text }) => migrate(text));
const converted = results.filter((r) => r.converted).length;
const slowest = migrateMedians.indexOf(Math.max(...migrateMedians));
console.log(
  `migrate: ${texts.length} JMX and Python descriptors of the real corpus (${converted} converted), ${ROUNDS} rounds`,
);
console.log(
  `  median per descriptor: migrate ${ms(median(migrateMedians))}, review (no base) ${ms(median(reviewMedians))}  (migrate / review = ${(median(migrateMedians) / median(reviewMedians)).toFixed(1)}x)`,
);
console.log(
  `  median per descriptor of the audit's readiness (the same conversion, extension.yaml not read back): ${ms(median(perReadiness.map(median)))}`,
);
console.log(
  `  the whole corpus: migrate ${ms(median(wholeMigrate))}, review ${ms(median(wholeReview))}  (${ms(median(wholeMigrate) / texts.length)} per descriptor)`,
);
console.log(
  `  slowest to migrate: ${texts[slowest].f} (${texts[slowest].text.length} bytes): ${ms(migrateMedians[slowest])}, its review ${ms(reviewMedians[slowest])}`,
);
console.log(
  `  first conversion of the process (the EF2 schema compiled): ${ms(firstCall)}${first.converted ? "" : " (not converted)"}`,
);

// A generated JMX plugin.json of many metrics in one subgroup, at two sizes: migrate stays linear in its metrics
// (each metric's key and subgroup looked up, not searched: 40,000 took 13 s before, under 2 s after).
const jmx = (n) =>
  JSON.stringify({
    name: "custom.jmx.big",
    version: "1.0",
    type: "JMX",
    metricGroup: "tech.big",
    metrics: Array.from({ length: n }, (_, i) => ({
      timeseries: { key: `k${i}`, unit: "Count" },
      source: { domain: "d", attribute: "A" },
    })),
  });
const timesOf = (n) => {
  const text = jmx(n);
  t = performance.now();
  const r = migrate(text);
  const m = performance.now() - t;
  t = performance.now();
  JSON.parse(text);
  return { n, m, parse: performance.now() - t, bytes: text.length, converted: r.converted };
};
const [half, whole] = [timesOf(20_000), timesOf(40_000)];
for (const x of [half, whole])
  console.log(
    `  a generated JMX plugin.json of ${x.n.toLocaleString("en")} metrics in one subgroup (${(x.bytes / 1e6).toFixed(1)} MB): migrate ${ms(x.m)}, JSON.parse ${ms(x.parse)}${x.converted ? "" : " (not converted)"}`,
  );
console.log(
  `  twice the metrics, ${(whole.m / half.m).toFixed(1)}x the time (linear: about 2x; quadratic: about 4x)`,
);
