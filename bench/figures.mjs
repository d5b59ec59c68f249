// The review figures bench/compare.mjs prints and bench/gate.mjs judges: two builds (a previous commit's and
// this one's) loaded side by side and timed in alternating rounds, so that the load of a shared machine
// falls on both alike.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { baseOf, flat, largeDescriptor } from "./descriptors.mjs";
import { median, ROOT, time } from "./lib.mjs";

/** A build's analysis, loaded from `root`/dist (a checkout built with tsconfig.build.json). */
export async function loadBuild(name, root) {
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
export function comparable(prevResults, results) {
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
/** The real descriptors of ../shared (absent on a fresh clone: then the corpus figures are not measured). */
export const corpus = existsSync(corpusDir)
  ? readdirSync(corpusDir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => ({ f, text: readFileSync(join(corpusDir, f), "utf8") }))
  : [];
export const largeText = JSON.stringify(largeDescriptor(), null, 2);
/** A base that differs inside `metrics` (four fifths of the text): one metric's unit. */
const largeMetricBase = flat(largeText.replace('"unit": "Count"', '"unit": "Second"'));

/**
 * Times both builds in `rounds` alternating rounds; each figure is the median over the rounds (a corpus
 * figure: the median file, each file's time its median over the rounds). `timer(fn, runs, warm, budget)` times
 * one measurement (lib.mjs `time` unless said; `budget`, in ms, is a hint a timer may stop at).
 */
export function measure(builds, rounds, timer = time) {
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
        rows[i].corpus[k].push(timer(() => builds[i].withBase(f, text), 30, 5, 100));
        rows[i].corpusAlone[k].push(timer(() => builds[i].alone(f, text), 30, 5, 100));
        rows[i].corpusOff[k].push(timer(() => builds[i].off(f, text), 30, 5, 100));
      }
    });
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      rows[i].large.push(timer(() => builds[i].withBase("large.json", largeText), 15, 3, 1500));
      rows[i].largeAlone.push(timer(() => builds[i].alone("large.json", largeText), 15, 3, 1500));
      rows[i].largeMetric.push(
        timer(() => builds[i].withBase("large.json", largeText, largeMetricBase), 9, 2, 1500),
      );
      rows[i].positions.push(timer(() => builds[i].positions(largeText), 9, 2, 1500));
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
  const figures = rows.map((row) => {
    const out = {};
    if (corpus.length) {
      out["corpus median, with the base comparison"] = corpusMedian(row.corpus);
      out["corpus median, without a base"] = corpusMedian(row.corpusAlone);
      out["corpus median, 40 rules off"] = corpusMedian(row.corpusOff);
      out[`slowest corpus file (${corpus[slowest].f}), with its base`] = median(row.corpus[slowest]);
    }
    out["2 MB, with the base comparison"] = median(row.large);
    out["2 MB, without a base"] = median(row.largeAlone);
    out["2 MB, base differs in one metric's unit"] = median(row.largeMetric);
    out["2 MB parsed with positions (parseJsonFast + tree)"] = median(row.positions);
    return out;
  });
  return { figures, rows, tParse: median(corpusParse), tAjv: median(ajv) };
}

/**
 * The judged figures of both builds timed side by side at a finer grain than `measure`'s (the speed gate's):
 * each measurement runs the two builds in turn, one call each (which goes first alternating), so that both
 * meet the machine's load of the same moment, and `pairTimer(fns, runs, warm, budget)` returns each build's
 * time and their ratio (the second build's over the first's). A figure's ratio is the median over the rounds
 * (a corpus figure's: the median file's, each file's ratio its median over the rounds); its times, for
 * reading, are measure's.
 */
export function measurePaired(builds, rounds, pairTimer) {
  const both = (call) => builds.map((b) => () => call(b));
  const figures = [
    ...(corpus.length
      ? [
          ["corpus median, with the base comparison", (b, f, text) => b.withBase(f, text)],
          ["corpus median, without a base", (b, f, text) => b.alone(f, text)],
          ["corpus median, 40 rules off", (b, f, text) => b.off(f, text)],
        ].map(([name, call]) => ({ name, corpus: true, call }))
      : []),
    { name: "2 MB, with the base comparison", call: (b) => b.withBase("large.json", largeText) },
    { name: "2 MB, without a base", call: (b) => b.alone("large.json", largeText) },
    {
      name: "2 MB, base differs in one metric's unit",
      call: (b) => b.withBase("large.json", largeText, largeMetricBase),
    },
    { name: "2 MB parsed with positions (parseJsonFast + tree)", call: (b) => b.positions(largeText) },
  ].map((fig) => ({ ...fig, samples: fig.corpus ? corpus.map(() => []) : [[]] }));
  // Budgets (CPU ms a build a measurement) above what a build as fast as the reference spends (about 10 and
  // 500), so that only a much slower build, such as the planted one, is cut short.
  for (let r = 0; r < rounds; r++)
    for (const fig of figures) {
      if (fig.corpus)
        corpus.forEach(({ f, text }, k) =>
          fig.samples[k].push(
            pairTimer(
              both((b) => fig.call(b, f, text)),
              30,
              5,
              30,
            ),
          ),
        );
      else fig.samples[0].push(pairTimer(both(fig.call), 9, 2, 1000));
    }
  /** The median file (or the one sample list) of `pick`'s medians over the rounds. */
  const of = (fig, pick) => median(fig.samples.map((xs) => median(xs.map(pick))));
  return Object.fromEntries(
    figures.map((fig) => [
      fig.name,
      {
        ratio: of(fig, (x) => x.ratio),
        wall: of(fig, (x) => x.wall),
        times: [0, 1].map((i) => of(fig, (x) => x.times[i])),
      },
    ]),
  );
}
