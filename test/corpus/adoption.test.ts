/**
 * Adoption (issue 9): a team installs plugin-review on a repository of real descriptors that already have problems.
 * For every real descriptor (../shared/corpus/real/) whose version is numeric, a routine edit (version bumped, one
 * display name changed) reviewed against the original passes with the default configuration; the same edit plus one
 * new mistake fails, and the new mistake is the only new finding. Skipped, saying so, when ../shared is absent.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { describeUnless, withoutShared } from "../helpers.js";
import { resolveConfig } from "../../src/core/config.js";
import { analyseDescriptors, type AnalysedFile } from "../../src/core/analyse.js";
import { hasFailures } from "../../src/core/verdict.js";

const CORPUS = new URL("../../../shared/corpus/real/", import.meta.url);
const exists = existsSync(CORPUS);

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

interface Case {
  file: string;
  text: string;
  doc: Json;
}

const cases: Case[] = [];
const skipped: string[] = [];
for (const file of exists
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".json"))
      .sort()
  : []) {
  const text = readFileSync(new URL(file, CORPUS), "utf8");
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    skipped.push(`${file}: not JSON`);
    continue;
  }
  if (!isObj(doc) || typeof doc.version !== "string" || !/^\d+(\.\d+)*$/.test(doc.version)) {
    skipped.push(`${file}: version ${JSON.stringify(isObj(doc) ? doc.version : undefined)} is not numeric`);
    continue;
  }
  cases.push({ file, text, doc });
}

/** The version with its last segment increased, keeping its width (`1.07` → `1.08`). */
function bump(version: string): string {
  const segs = version.split(".");
  const last = segs.pop() as string;
  return [...segs, String(Number(last) + 1).padStart(last.length, "0")].join(".");
}

const metrics = (d: Json): Json[] => (Array.isArray(d.metrics) ? d.metrics.filter(isObj) : []);
const charts = (d: Json): Json[] => {
  const ui = isObj(d.ui) ? d.ui : {};
  return [ui.charts, ui.keycharts].flatMap((c) => (Array.isArray(c) ? c.filter(isObj) : []));
};

/** Routine edits: version bumped and one display name changed (a metric's, a chart's title, or the configUI's). */
function routineEdits(doc: Json): { what: string; doc: Json }[] {
  const edits: { what: string; doc: Json }[] = [];
  const edit = (what: string, change: (d: Json) => boolean) => {
    const d = structuredClone(doc);
    d.version = bump(doc.version as string);
    if (change(d)) edits.push({ what, doc: d });
  };
  edit("metric displayname", (d) => {
    const ts = metrics(d)
      .map((m) => m.timeseries)
      .find((t): t is Json => isObj(t) && typeof t.displayname === "string");
    if (ts) ts.displayname = `${ts.displayname as string} (renamed)`;
    return ts !== undefined;
  });
  edit("chart title", (d) => {
    const chart = charts(d).find((c) => typeof c.title === "string");
    if (chart) chart.title = `${chart.title as string} (renamed)`;
    return chart !== undefined;
  });
  edit("configUI displayName", (d) => {
    const ui = isObj(d.configUI) ? d.configUI : undefined;
    if (ui) ui.displayName = `${typeof ui.displayName === "string" ? ui.displayName : "Plugin"} (renamed)`;
    return ui !== undefined;
  });
  return edits;
}

function review(file: string, head: Json, base: string): AnalysedFile {
  const [r] = analyseDescriptors(
    [
      {
        path: file,
        content: JSON.stringify(head, null, 2),
        base: { path: file, content: base },
        isNew: false,
      },
    ],
    resolveConfig(),
  );
  return r!;
}

describeUnless(withoutShared("corpus/real/"))(
  "adoption over the real corpus: judged on what the change adds",
  () => {
    const summary = { passed: 0, edits: 0, existing: 0 };

    it("has real descriptors with numeric versions (the others are skipped, with the reason)", () => {
      expect(cases.length).toBeGreaterThan(0);
      console.log(
        [
          `adoption: ${cases.length} descriptors with a numeric version, ${skipped.length} skipped`,
          ...skipped,
        ].join("\n  "),
      );
    });

    it.each(cases.map((c) => [c.file, c] as const))(
      "%s: a routine edit passes; one new mistake fails, alone",
      (_f, c) => {
        const edits = routineEdits(c.doc);
        expect(edits.length).toBeGreaterThan(0);
        for (const { what, doc } of edits) {
          const routine = review(c.file, doc, c.text);
          const fresh = routine.findings.filter((f) => f.baseline !== "existing");
          expect(
            fresh.map((f) => `${f.ruleId} ${f.pointer}: ${f.message}`),
            what,
          ).toEqual([]);
          expect(hasFailures([routine], resolveConfig()), what).toBe(false);
          summary.edits++;
          summary.existing += routine.findings.length;

          // The same edit plus one new mistake: a new metric with a unit that does not exist.
          const worse = structuredClone(doc);
          if (!Array.isArray(worse.metrics)) continue; // nothing to add a metric to (metrics is not a list)
          worse.metrics.push({
            timeseries: { key: "adoption_check", unit: "Secs", displayname: "Adoption check" },
          });
          const r = review(c.file, worse, c.text);
          const added = r.findings.filter((f) => f.baseline === "new");
          expect(
            added.map((f) => [f.ruleId, f.pointer]),
            what,
          ).toEqual([["invalid-value", `/metrics/${worse.metrics.length - 1}/timeseries/unit`]]);
          expect(hasFailures([r], resolveConfig()), what).toBe(true);
        }
        summary.passed++;
      },
    );

    it("reports the totals", () => {
      console.log(
        `adoption: ${summary.passed} of ${cases.length} descriptors pass (${summary.edits} routine edits, ${summary.existing} existing findings not counted)`,
      );
      expect(summary.passed).toBe(cases.length);
    });
  },
);
