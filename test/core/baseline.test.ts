/**
 * New and existing findings (rules.md "New and existing findings"): matching by content, not index; property-based
 * tests that inserting and reordering unrelated elements keeps every existing finding existing, and that changing the
 * offending value makes it new.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveConfig, type RawConfig } from "../../src/core/config.js";
import { identityPath } from "../../src/core/identity.js";
import { analyseDescriptors, type AnalysedFile } from "../../src/core/analyse.js";
import { hasFailures } from "../../src/core/verdict.js";
import { text, validHost } from "../helpers.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function review(head: Json | string, base: Json | string | undefined, raw: RawConfig = {}): AnalysedFile {
  const config = resolveConfig({ repo: raw });
  const content = typeof head === "string" ? head : text(head);
  const [r] = analyseDescriptors(
    [
      {
        path: "plugin.json",
        content,
        ...(base !== undefined
          ? { base: { path: "plugin.json", content: typeof base === "string" ? base : text(base) } }
          : {}),
        isNew: base === undefined,
      },
    ],
    config,
  );
  return r!;
}

/** A descriptor with one mistake of many kinds, each in a different kind of array element. */
function withMistakes(): Json {
  const d: Json = validHost();
  d.metrics.push(
    { timeseries: { key: "queue.depth", unit: "Count", displayname: "Queue depth" } }, // invalid-format
    { timeseries: { key: "no_name", unit: "Count" } }, // required-member
    { timeseries: { key: "size", unit: "Count", displayname: "size", dimensions: ["a", "rx_pid"] } }, // 2 findings
  );
  d.metrics[0].alert_settings[0].samples = 0; // alert-samples
  d.metrics[0].alert_settings[0].description = "{nope} is high"; // alert-placeholder
  d.ui.charts[0].series[0].colour = "#fff"; // unknown-member
  d.ui.charts.push({ group: "Other", title: "Ghost", series: [{ key: "ghost" }] }); // unknown-metric-reference
  d.properties.push({ key: "flag", type: "BOOLEAN", defaultValue: "yes" }); // property-default-type
  d.version = "1.2.0";
  return d;
}

const bumped = (d: Json): Json => ({ ...structuredClone(d), version: "1.2.1" });

describe("identity of a finding's place", () => {
  const doc = withMistakes();
  it("names array elements by content: metric key, alert_id, property key, chart group and title, series key", () => {
    expect(identityPath(doc, "/metrics/2/timeseries/key")).toBe(
      '/metrics/[metric="queue.depth"]/timeseries/key',
    );
    expect(identityPath(doc, "/metrics/0/alert_settings/0/samples")).toBe(
      '/metrics/[metric="requests"]/alert_settings/[alert_id="requests_high"]/samples',
    );
    expect(identityPath(doc, `/properties/${doc.properties.length - 1}/defaultValue`)).toBe(
      '/properties/[key="flag"]/defaultValue',
    );
    expect(identityPath(doc, "/ui/charts/0/series/0/colour")).toBe(
      '/ui/charts/[chart=["Performance","Latency by endpoint"]]/series/[key="latency"]/colour',
    );
    expect(identityPath(doc, "/technologies/0")).toBe('/technologies/[="PYTHON"]');
  });
  it("tells repeated identities apart by occurrence, and keeps pointers past the end as they are", () => {
    const d = { properties: [{ key: "a" }, { key: "b" }, { key: "a" }] };
    // Copies alike in every member: their content's digest, then their occurrence among themselves, from #1.
    expect(identityPath(d, "/properties/2/key")).toMatch(/^\/properties\/\[key="a"@[0-9a-f]{32}#2\]\/key$/);
    expect(identityPath(d, "/properties/0/key")).toMatch(/^\/properties\/\[key="a"@[0-9a-f]{32}#1\]\/key$/);
    expect(identityPath(d, "/properties/1/key")).toBe('/properties/[key="b"]/key');
    expect(identityPath(d, "/properties/7")).toBe("/properties/7");
  });
  it("matches what a finding says by message id and data, positions aside, not by its message text", () => {
    const base = withMistakes();
    base.metrics.push({ timeseries: { key: "size", unit: "Count", displayname: "Size again" } });
    const head = bumped(base);
    head.metrics.unshift({ timeseries: { key: "first", unit: "Count", displayname: "First" } });
    const [was, now] = [review(base, undefined), review(head, base)].map((r) =>
      r.findings.find((f) => f.ruleId === "duplicate-metric-key")!,
    );
    // The message names the first definition by its index, which moved; the finding did not.
    expect(now!.message).not.toBe(was!.message);
    expect(now!.fingerprint).toBe(was!.fingerprint);
    expect(now!.baseline).toBe("existing");
  });
});

describe("new and existing findings", () => {
  it("a routine edit of a descriptor with old mistakes: every finding existing, none fails the check", () => {
    const base = withMistakes();
    const head = bumped(base);
    head.metrics[1].timeseries.displayname = "Latency (ms)";
    const r = review(head, base);
    expect(r.findings.length).toBeGreaterThan(6);
    expect(r.findings.filter((f) => f.baseline !== "existing")).toEqual([]);
    expect(r.fixed).toBe(0);
    expect(hasFailures([r], resolveConfig())).toBe(false);
    expect(hasFailures([r], resolveConfig({ repo: { existing: "fail" } }))).toBe(true);
  });

  it("one new mistake is the only new finding, and it fails the check", () => {
    const base = withMistakes();
    const head = bumped(base);
    head.metrics[1].timeseries.aggregation = "averge";
    const r = review(head, base);
    expect(r.findings.filter((f) => f.baseline === "new").map((f) => [f.ruleId, f.pointer])).toEqual([
      ["invalid-value", "/metrics/1/timeseries/aggregation"],
    ]);
    expect(hasFailures([r], resolveConfig())).toBe(true);
  });

  it("an unchanged file (text or bytes): the same findings as a reviewed base, all existing, none fixed", () => {
    const d = withMistakes();
    const same = text(d);
    // A trailing newline makes the base differ, so it is reviewed in full: the reference.
    const reviewed = review(same, same + "\n");
    const [bytes] = analyseDescriptors(
      [
        {
          path: "plugin.json",
          content: new TextEncoder().encode(same),
          base: { path: "plugin.json", content: new TextEncoder().encode(same) },
        },
      ],
      resolveConfig(),
    );
    for (const r of [review(same, same), bytes!]) {
      expect(r.findings).toEqual(reviewed.findings);
      expect(r.findings.length).toBeGreaterThan(6);
      expect(r.findings.every((f) => f.baseline === "existing")).toBe(true);
      expect(r.fixed).toBe(0);
    }
  });

  it("counts base findings gone from head as fixed", () => {
    const base = withMistakes();
    const head = bumped(base);
    head.metrics[0].alert_settings[0].samples = 5;
    head.properties.find((p: Json) => p.key === "flag").defaultValue = true;
    const r = review(head, base);
    expect(r.fixed).toBe(2);
    expect(r.findings.every((f) => f.baseline === "existing")).toBe(true);
  });

  it("change rules only ever produce new findings", () => {
    const base = withMistakes();
    const r = review(base, base); // same version, and the same text: nothing changed, nothing to say
    expect(r.findings.every((f) => f.baseline === "existing")).toBe(true);
    const head = { ...base, metrics: base.metrics.slice(1) }; // metric removed, version not bumped
    const changed = review(head, base);
    const change = changed.findings.filter((f) =>
      ["metric-removed", "version-not-bumped"].includes(f.ruleId),
    );
    expect(change.map((f) => f.ruleId).sort()).toEqual(["metric-removed", "version-not-bumped"]);
    expect(change.every((f) => f.baseline === "new")).toBe(true);
  });

  it("in an added descriptor every finding is new; without a base and not added, no state at all", () => {
    const added = review(withMistakes(), undefined);
    expect(added.findings.length).toBeGreaterThan(0);
    expect(added.findings.every((f) => f.baseline === "new")).toBe(true);
    const [plain] = analyseDescriptors([{ path: "p.json", content: text(withMistakes()) }], resolveConfig());
    expect(plain!.findings.every((f) => f.baseline === undefined)).toBe(true);
    expect(plain!.fixed).toBeUndefined();
  });

  it("existing: hide leaves existing findings out; new ones stay", () => {
    const base = withMistakes();
    const head = bumped(base);
    head.metrics[1].timeseries.aggregation = "averge";
    const r = review(head, base, { existing: "hide" });
    expect(r.findings.map((f) => f.ruleId)).toEqual(["invalid-value"]);
  });

  it("a base that is not JSON: the head's findings are new", () => {
    const r = review(bumped(withMistakes()), "{ not json");
    expect(
      r.findings.filter((f) => f.ruleId !== "base-invalid-json").every((f) => f.baseline === "new"),
    ).toBe(true);
  });

  it("renaming a chart keeps the findings inside it existing", () => {
    const base = withMistakes();
    const head = bumped(base);
    head.ui.charts[0].title = "Latency and requests";
    const r = review(head, base);
    expect(r.findings.find((f) => f.ruleId === "unknown-member")?.baseline).toBe("existing");
  });

  it("a new chart with an old chart's mistake is new, though the old chart fixed it (no rename)", () => {
    const base = bumped(validHost());
    base.ui.charts[0].series[0].seriestype = "lines"; // invalid-value, in "Latency by endpoint"
    const head = bumped(base);
    head.version = "1.2.2";
    head.ui.charts[0].series[0].seriestype = "line";
    head.ui.charts.unshift({
      group: base.ui.charts[0].group,
      title: "Another latency chart",
      series: structuredClone(base.ui.charts[0].series), // the same series, the same mistake
    });
    const r = review(head, base);
    expect(r.findings.map((f) => [f.ruleId, f.pointer, f.baseline])).toEqual([
      ["invalid-value", "/ui/charts/0/series/0/seriestype", "new"],
    ]);
    expect(r.fixed).toBe(1);
    expect(hasFailures([r], resolveConfig())).toBe(true);
  });

  it("a renamed chart keeps its findings existing while a chart that kept its name is beside it", () => {
    const base = withMistakes();
    base.ui.charts.push({ group: "Other", title: "Kept", series: [{ key: "latency" }] });
    const head = bumped(base);
    head.ui.charts[0].title = "Latency and requests";
    const r = review(head, base);
    expect(r.findings.find((f) => f.ruleId === "unknown-member")?.baseline).toBe("existing");
    expect(r.fixed).toBe(0);
  });

  it("a second copy of an element with an old mistake is new, also when the first copy's mistake is fixed", () => {
    const base = bumped(validHost());
    base.ui.charts[0].series[0].colour = "#fff"; // unknown-member
    base.metrics.push({ timeseries: { key: "q", unit: "Secs", displayname: "Q" } }); // invalid-value
    const head = bumped(base);
    head.version = "1.2.2";
    const series = head.ui.charts[0].series;
    // The copy differs from the old element (its colour): a verbatim copy is the old element by content.
    series.push({ ...series[0], color: "rgba(42, 182, 244, 0.9)" });
    delete series[0].colour;
    head.metrics.at(-1).timeseries.unit = "Second";
    head.metrics.push({ timeseries: { key: "q", unit: "Secs", displayname: "Q again" } });
    const r = review(head, base);
    const copy = head.metrics.length - 1;
    expect(r.findings.map((f) => [f.ruleId, f.pointer, f.baseline])).toEqual([
      ["duplicate-metric-key", `/metrics/${copy}/timeseries/key`, "new"],
      ["invalid-value", `/metrics/${copy}/timeseries/unit`, "new"],
      ["unknown-member", `/ui/charts/0/series/${series.length - 1}/colour`, "new"],
    ]);
    expect(r.fixed).toBe(2);
  });

  it("duplicate-plugin-name that both bases already had is existing", () => {
    const a = bumped(withMistakes());
    const inputs = ["a/plugin.json", "b/plugin.json"].map((path) => ({
      path,
      content: text(a),
      base: { path, content: text(withMistakes()) },
    }));
    const reviews = analyseDescriptors(inputs, resolveConfig());
    const dup = reviews.flatMap((r) => r.findings).filter((f) => f.ruleId === "duplicate-plugin-name");
    expect(dup.length).toBe(2);
    expect(dup.every((f) => f.baseline === "existing")).toBe(true);
  });

  it("a rename out of a path `ignore` covers: what the base's review ignored there is new, renamed as is or edited", () => {
    const was = withMistakes();
    const ignores: { paths: string[]; rules?: string[] }[][] = [
      [{ paths: ["legacy/**"] }],
      [{ paths: ["legacy/**"], rules: ["invalid-format", "duplicate-plugin-name"] }],
    ];
    for (const ignore of ignores)
      for (const head of [was, bumped(was)]) {
        const inputs = ["a/plugin.json", "b/plugin.json"].map((path) => ({
          path,
          content: text(head),
          base: { path: `legacy/${path}`, content: text(was), configPath: `legacy/${path}` },
          isNew: false,
        }));
        const config = resolveConfig({ repo: { ignore } });
        const [moved] = analyseDescriptors(inputs, config);
        const newRules = new Set(moved!.findings.filter((f) => f.baseline === "new").map((f) => f.ruleId));
        // Every rule when the whole folder was ignored; else the ignored rules' (change rules aside).
        if (ignore[0]!.rules) expect(newRules).toEqual(new Set(ignore[0]!.rules));
        else
          expect(
            moved!.findings.filter((f) => f.baseline === "existing" && f.ruleId !== "version-not-bumped"),
          ).toEqual([]);
        expect(newRules.has("invalid-format")).toBe(true);
        expect(newRules.has("duplicate-plugin-name")).toBe(true);
        expect(hasFailures([moved!], config)).toBe(true);
        // Under the same configuration, a rename from a path it does not ignore keeps them existing.
        const [kept] = analyseDescriptors(
          inputs.map((i) => ({
            ...i,
            base: { ...i.base, path: `old/${i.path}`, configPath: `old/${i.path}` },
          })),
          config,
        );
        expect(
          kept!.findings.filter((f) => f.baseline === "new" && f.ruleId !== "version-not-bumped"),
        ).toEqual([]);
      }
  });
});

// ---- properties --------------------------------------------------------------------------------------------------

/** Valid elements that have nothing to do with any mistake. */
const extraMetric = (i: number) => ({
  timeseries: { key: `zz_extra_${i}`, unit: "Count", displayname: `Extra ${i}` },
});
const extraChart = (i: number) => ({
  group: "Extra",
  title: `Extra chart ${i}`,
  series: [{ key: "latency" }],
});
const extraProperty = (i: number) => ({ key: `zz_extra_${i}`, type: "STRING" });
const extraAlert = (i: number) => ({
  alert_id: `zz_extra_${i}`,
  event_type: "PERFORMANCE_EVENT",
  event_name: "Extra",
  threshold: 1,
  alert_condition: "ABOVE",
  samples: 5,
  violating_samples: 3,
  dealerting_samples: 5,
});

type Edit = { where: "metrics" | "charts" | "properties" | "alerts"; at: number; n: number };

function arrayOf(d: Json, where: Edit["where"]): Json[] {
  if (where === "metrics") return d.metrics;
  if (where === "charts") return d.ui.charts;
  if (where === "properties") return d.properties;
  return requests(d).alert_settings;
}

const requests = (d: Json): Json => d.metrics.find((m: Json) => m.timeseries?.key === "requests");

function insert(d: Json, edits: Edit[]): void {
  edits.forEach((e, k) => {
    const list = arrayOf(d, e.where);
    const make = { metrics: extraMetric, charts: extraChart, properties: extraProperty, alerts: extraAlert }[
      e.where
    ];
    list.splice(e.at % (list.length + 1), 0, ...Array.from({ length: e.n }, (_, j) => make(k * 10 + j)));
  });
}

function permute<T>(list: T[], keys: number[]): T[] {
  const tagged = list.map((x, i) => ({ x, k: keys[i % keys.length]! * 1000 + i }));
  return tagged.sort((a, b) => a.k - b.k).map((t) => t.x);
}

const editArb = fc.record({
  where: fc.constantFrom("metrics", "charts", "properties", "alerts") as fc.Arbitrary<Edit["where"]>,
  at: fc.nat(20),
  n: fc.integer({ min: 1, max: 3 }),
});

describe("properties of the matching", () => {
  it("random insertions and permutations of unrelated elements keep every existing finding existing", () => {
    const base = withMistakes();
    const baseReview = review(base, undefined);
    fc.assert(
      fc.property(
        fc.array(editArb, { maxLength: 6 }),
        fc.array(fc.nat(50), { minLength: 1, maxLength: 12 }),
        (edits, keys) => {
          const head = bumped(base);
          insert(head, edits);
          head.metrics = permute(head.metrics, keys);
          head.ui.charts = permute(head.ui.charts, keys);
          head.properties = permute(head.properties, keys);
          requests(head).alert_settings = permute(requests(head).alert_settings, keys);
          const r = review(head, base);
          expect(r.findings.filter((f) => f.baseline !== "existing").map((f) => f.message)).toEqual([]);
          expect(r.findings.length).toBe(baseReview.findings.length);
          expect(r.fixed).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("changing the offending value makes the finding new, whatever else moved", () => {
    const base = withMistakes();
    // Each mutation changes one offending value to another offending value.
    const mutations: [string, (d: Json) => void][] = [
      [
        "invalid-format",
        (d) =>
          (d.metrics.find((m: Json) => m.timeseries?.key === "queue.depth").timeseries.key = "queue.size"),
      ],
      [
        "property-default-type",
        (d) => (d.properties.find((p: Json) => p.key === "flag").defaultValue = "no"),
      ],
      [
        "alert-samples",
        (d) => (requests(d).alert_settings.find((a: Json) => a.alert_id === "requests_high").samples = -1),
      ],
      [
        "unknown-metric-reference",
        (d) => (d.ui.charts.find((c: Json) => c.title === "Ghost").series[0].key = "phantom"),
      ],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...mutations),
        fc.array(editArb, { maxLength: 4 }),
        fc.array(fc.nat(50), { minLength: 1, maxLength: 8 }),
        ([rule, mutate], edits, keys) => {
          const head = bumped(base);
          insert(head, edits);
          head.metrics = permute(head.metrics, keys);
          head.properties = permute(head.properties, keys);
          mutate(head);
          const r = review(head, base);
          // Renaming a metric key also removes the old metric: that change finding is new too, by definition.
          const fresh = r.findings.filter((f) => f.baseline === "new" && f.ruleId !== "metric-removed");
          expect(fresh.map((f) => f.ruleId)).toEqual([rule]);
          expect(r.fixed).toBe(1);
        },
      ),
      { numRuns: 40 },
    );
  });
});
