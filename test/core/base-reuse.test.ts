/**
 * The base comparison's shortcuts (review.ts, parseEdited in json/parse.ts): a base that differs from head
 * inside one top-level member is parsed as an edit of head, and a rule that read nothing the base has
 * otherwise is not run on it again (its head findings are the base's). Held here against the full base
 * review (`fullBase`: the base parsed whole, every rule run on it): the base's own findings, every head
 * finding's new/existing state, messages, hints and the fixed count must be exactly the same, over random
 * edits (either side being the base) of the shipped examples, and, when ../shared is present, of the real
 * descriptors and over the real history pairs.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { itUnless, withoutShared } from "../helpers.js";
import { resolveConfig, type ResolvedConfig } from "../../src/core/config.js";
import { analyseDescriptors, analyseOne, type DescriptorInput } from "../../src/core/analyse.js";
import { RULES, RULES_BY_ID } from "../../src/core/rules/index.js";
import { edit, exampleSamples, random, type Sample } from "./generate.js";

const REAL = new URL("../../../shared/corpus/real/", import.meta.url);
const HISTORY = new URL("../../../shared/corpus/real-history/", import.meta.url);
const haveReal = existsSync(REAL);

const CONFIGS: Record<string, ResolvedConfig> = {
  default: resolveConfig(),
  policy: resolveConfig({
    repo: {
      policy: { name_pattern: "^custom\\.python\\.", technologies: ["JAVA"], process_types: ["JAVA", 10] },
      rules: { "unknown-member": "off", "metric-kind": "error" },
      existing: "hide",
    },
  }),
};

/** The base's own findings as a sorted list (their order plays no part in matching). */
function baseFindings(input: DescriptorInput, config: ResolvedConfig, fullBase: boolean): string[] {
  const review = analyseOne(input, config, { fullBase });
  return (review.base?.findings ?? []).map((f) => JSON.stringify(f)).sort();
}

/** Rule runs so far, when counted (`countRuns`). */
let runs = () => 0;
let uncount = () => {};
/** Counts every rule's runs, by a counter rather than a spy: a spy would keep every context it was given. */
function countRuns(): void {
  let n = 0;
  const counted = RULES.filter((r) => r.check);
  const original = counted.map((r) => r.check!);
  counted.forEach((r, i) => {
    r.check = function (this: unknown, ...args: Parameters<NonNullable<typeof r.check>>) {
      n++;
      return original[i]!.apply(this, args);
    };
  });
  runs = () => n;
  uncount = () => counted.forEach((r, i) => (r.check = original[i]!));
}

/** Fast and full base reviews agree in everything; says whether head had findings to classify and whether the fast one ran fewer rules. */
function same(input: DescriptorInput, config: ResolvedConfig): { classified: boolean; reused: boolean } {
  const before = runs();
  const fast = baseFindings(input, config, false);
  const between = runs();
  expect(fast).toEqual(baseFindings(input, config, true));
  const reused = between - before < runs() - between;
  const reviews = analyseDescriptors([input], config);
  expect(reviews).toEqual(analyseDescriptors([input], config, { fullBase: true }));
  return { classified: reviews.some((r) => r.findings.length > 0), reused };
}

const corpus = haveReal
  ? readdirSync(REAL)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => ({ name: f, text: readFileSync(new URL(f, REAL), "utf8") }))
  : [];

/**
 * Random edits of each sample, either side being the base; says how many reviews had findings to classify
 * and how many took the shortcut (fewer rule runs than the full base review).
 */
function randomEdits(samples: readonly Sample[], perSample: number, seed: number) {
  countRuns();
  const next = random(seed);
  let classified = 0;
  let reused = 0;
  for (const { name, text } of samples) {
    for (let n = 0; n < perSample; n++) {
      let other = edit(text, next);
      if (next() < 0.3) other = edit(other, next);
      for (const [head, base] of [
        [text, other],
        [other, text],
      ] as const) {
        const isNew = next() < 0.5 ? undefined : false;
        const config = next() < 0.7 ? CONFIGS.default! : CONFIGS.policy!;
        const input: DescriptorInput = { path: name, content: head, base: { path: name, content: base } };
        if (isNew !== undefined) input.isNew = isNew;
        // Bytes too, as the App reads them.
        if (next() < 0.3) {
          input.content = new TextEncoder().encode(head);
          input.base = { path: name, content: new TextEncoder().encode(base) };
        }
        const r = same(input, config);
        if (r.classified) classified++;
        if (r.reused) reused++;
      }
    }
  }
  return { classified, reused };
}

describe("the base comparison's shortcuts give the full base review's results", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    uncount();
    runs = () => 0;
    uncount = () => {};
  });

  it("over random edits of every shipped example, either side being the base", () => {
    const samples = exampleSamples();
    // Five edits of each, both ways: every kind of edit (generate.ts) comes up on every kind of example.
    const { classified, reused } = randomEdits(samples, 5, 5);
    // The property is about something: most of these reviews had findings to classify, and most took
    // the shortcut (fewer rules run than in the full base review).
    expect(classified).toBeGreaterThan(samples.length * 5);
    expect(reused).toBeGreaterThan(samples.length * 5);
  });

  itUnless(withoutShared("corpus/real/"))(
    "over random edits of every real descriptor, either side being the base",
    () => {
      const { classified, reused } = randomEdits(corpus, 8, 9);
      expect(classified).toBeGreaterThan(corpus.length * 8);
      expect(reused).toBeGreaterThan(corpus.length * 8);
    },
  );

  itUnless(withoutShared("corpus/real-history/"))(
    "over every consecutive pair of the real history, both ways",
    () => {
      let pairs = 0;
      for (const plugin of readdirSync(HISTORY).sort()) {
        const dir = new URL(`${plugin}/`, HISTORY);
        const versions = readdirSync(dir)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => readFileSync(new URL(f, dir)));
        for (let i = 1; i < versions.length; i++) {
          const [older, newer] = [versions[i - 1]!, versions[i]!];
          for (const [head, base] of [
            [newer, older],
            [older, newer],
          ] as const) {
            same(
              { path: `${plugin}/plugin.json`, content: head, base: { path: "plugin.json", content: base } },
              CONFIGS.default!,
            );
            pairs++;
          }
        }
      }
      expect(pairs).toBeGreaterThan(100);
    },
  );
});

describe("a rule whose reads are the same in the base is not run on it again", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const head = JSON.stringify(
    {
      name: "custom.python.demo",
      version: "1.1",
      type: "python",
      entity: "PROCESS_GROUP_INSTANCE",
      metricGroup: "tech.demo",
      processTypeNames: ["PYTHON"],
      source: { package: "demo", className: "Demo", activation: "Singleton" },
      metrics: [
        {
          timeseries: { key: "requests", unit: "Count", dimensions: ["rx_pid"] },
          alert_settings: [
            {
              alert_id: "a",
              event_type: "PERFORMANCE_EVENT",
              event_name: "E",
              threshold: 1,
              alert_condition: "ABOVE",
              samples: 5,
              violating_samples: 9,
              dealerting_samples: 5,
              description: "{nope}",
            },
          ],
        },
      ],
    },
    null,
    2,
  );

  it("runs a metrics rule once when only the version changed, twice when the metrics changed", () => {
    const rule = RULES_BY_ID.get("alert-samples")!;
    const check = vi.spyOn(rule, "check");
    const review = (base: string) =>
      analyseDescriptors(
        [{ path: "plugin.json", content: head, base: { path: "plugin.json", content: base } }],
        CONFIGS.default!,
      );
    const [versionOnly] = review(head.replace('"1.1"', '"1.0"'));
    expect(check).toHaveBeenCalledTimes(1);
    expect(versionOnly!.findings.filter((f) => f.ruleId === "alert-samples").map((f) => f.baseline)).toEqual([
      "existing",
    ]);
    check.mockClear();
    const [metricsToo] = review(
      head.replace('"1.1"', '"1.0"').replace('"violating_samples": 9', '"violating_samples": 3'),
    );
    expect(check).toHaveBeenCalledTimes(2);
    expect(metricsToo!.findings.filter((f) => f.ruleId === "alert-samples").map((f) => f.baseline)).toEqual([
      "new",
    ]);
  });
});
