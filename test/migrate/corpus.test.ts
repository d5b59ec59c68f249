/**
 * `migrate` over the real corpus (../shared/corpus/real/, public descriptors): every JMX and Python descriptor
 * converts (one that cannot says why, and only where a member truly has no EF2 form), its extension.yaml
 * validates against schemas/extension.schema.json, metric-keys.json names an EF2 metric present in it for every
 * EF1 metric, and the same text gives the same bytes. Each JMX descriptor's mapping (queries, attributes, types,
 * dimensions, keys) is pinned in expected-jmx.ts. Skipped when the corpus is not beside the repository.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { migrate } from "../../src/migrate/migrate.js";
import { plain } from "../../src/migrate/notes.js";
import { describeUnless } from "../helpers.js";
import { EXPECTED_JMX } from "./expected-jmx.js";
import { extensionOf, file, missingMetrics, schemaErrors, subgroupsOf } from "./helpers.js";

const CORPUS = new URL("../../../shared/corpus/real/", import.meta.url);
const exists = existsSync(CORPUS);
const files = exists
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".json"))
      .sort()
  : Object.keys(EXPECTED_JMX);
const read = (f: string) => readFileSync(new URL(f, CORPUS), "utf8");
const typeOf = (f: string) => (JSON.parse(read(f)) as { type?: unknown }).type;

describeUnless(!exists && `${CORPUS.pathname} is absent`)("migrate over the real corpus", () => {
  it("pins every JMX descriptor of the corpus, and only those", () => {
    expect(Object.keys(EXPECTED_JMX).sort()).toEqual(files.filter((f) => typeOf(f) === "JMX"));
  });

  it.each(files)("%s", (f) => {
    const text = read(f);
    const r = migrate(text);
    const expected = EXPECTED_JMX[f];
    if (expected && "notConverted" in expected) {
      expect(r.converted).toBe(false);
      if (!r.converted) expect(plain(r.reasons[0]!.text)).toBe(expected.notConverted);
      return;
    }
    if (!r.converted) expect.fail(r.reasons.map((x) => plain(x.text)).join("; "));
    const ext = extensionOf(r);
    expect(schemaErrors(ext)).toEqual([]);
    expect(missingMetrics(r)).toEqual([]);
    for (const a of (ext.alerts as { path: string }[] | undefined) ?? [])
      expect(schemaErrors(JSON.parse(file(r, `extension/${a.path}`)), "metricEvent"), a.path).toEqual([]);
    if (ext.python)
      expect(
        schemaErrors(JSON.parse(file(r, "extension/activationSchema.json")), "activationSchema"),
      ).toEqual([]);
    const lines = text.split("\n").length;
    for (const n of r.notes) if (n.line !== undefined) expect(n.line).toBeLessThanOrEqual(lines);
    expect(migrate(text)).toEqual(r);

    if (!expected) return;
    const groups = (ext.jmx as { groups: unknown[] }).groups;
    const rows = subgroupsOf(r).flatMap((s) =>
      s.metrics.map((m) => {
        const ef1 = r.keyMap.metrics.find((x) => x.ef2.key === m.key)!.ef1.key;
        const dims = (s.dimensions ?? []).map((d) => `${d.key}=${d.value}`).join(",");
        return `${ef1} → ${m.key} (${m.type}) ${s.query} ${m.value}${dims ? ` [${dims}]` : ""}`;
      }),
    );
    expect({ name: r.name, groups: groups.length, subgroups: r.subgroups, metrics: rows }).toEqual(expected);
  });
});
