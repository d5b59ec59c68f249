import { describe, expect, it } from "vitest";
import { check, EF2, EXTENSION, lineOf, ruleTable } from "../../helpers.js";

const BASE = { ...EF2, base: EXTENSION };
/** The gauge `uptime` made a count, its key given `.count` (what real SNMP releases did). */
const counted = EXTENSION.replace(
  "          - key: example.router.uptime\n            value: oid:1.3.6.1.2.1.1.3.0\n            type: gauge\n",
  "          - key: example.router.uptime.count\n            value: oid:1.3.6.1.2.1.1.3.0\n            type: count\n",
);
/** The count `if.errors` made a gauge under the key written the same. */
const gauged = EXTENSION.replace(
  "            type: count\n            featureSet: errors\n",
  "            type: gauge\n            featureSet: errors\n",
);
const countKeyed = (type: string) =>
  EXTENSION.replace(
    "          - key: example.router.uptime\n            value: oid:1.3.6.1.2.1.1.3.0\n            type: gauge\n",
    `          - key: example.router.uptime.count\n            value: oid:1.3.6.1.2.1.1.3.0\n            type: ${type}\n`,
  );

/** A Prometheus extension whose one metric is of `type` (a histogram is ingested under three keys). */
const prometheus = (type: string, version = "1.0.0") =>
  [
    "name: custom:example.requests",
    `version: "${version}"`,
    'minDynatraceVersion: "1.285"',
    "author:",
    "  name: Example team",
    "prometheus:",
    "  - group: server",
    "    metrics:",
    "      - key: example.requests.latency",
    "        value: metric:http_request_duration_seconds",
    `        type: ${type}`,
    "",
  ].join("\n");
const histogram = prometheus("histogram");

ruleTable("metric-type-changed", {
  valid: [
    { name: "unchanged", doc: EXTENSION, options: BASE },
    {
      name: "a count's key written with `.count`: the same metric, the same type",
      doc: EXTENSION.replace("- key: example.router.if.errors\n", "- key: example.router.if.errors.count\n"),
      options: BASE,
    },
    { name: "no base", doc: counted, options: EF2 },
  ],
  invalid: [
    {
      name: "a gauge made a count, `.count` added to its key",
      doc: counted,
      options: BASE,
      lines: [lineOf(counted, "type: count")],
      messageId: "newKey",
      data: {
        key: "example.router.uptime",
        was: "a gauge",
        now: "a count",
        ingested: "example.router.uptime.count",
      },
      severity: "error",
    },
    {
      name: "a count made a gauge: its key loses the `.count` Dynatrace gave it",
      doc: gauged,
      options: BASE,
      lines: [lineOf(gauged, "- key: example.router.if.errors")],
      messageId: "newKey",
      data: { key: "example.router.if.errors.count", was: "a count", ingested: "example.router.if.errors" },
    },
    {
      name: "a key ending in `.count`, gauge then count: the same key, another type",
      doc: countKeyed("count"),
      options: { ...EF2, base: countKeyed("gauge") },
      lines: [lineOf(countKeyed("count"), "type: count")],
      messageId: "sameKey",
      data: { key: "example.router.uptime.count", was: "a gauge", now: "a count" },
    },
    {
      name: "Prometheus: a gauge made a histogram is said to be a histogram, with every key Dynatrace ingests",
      doc: prometheus("histogram", "1.0.1"),
      options: { ...EF2, base: prometheus("gauge") },
      lines: [lineOf(histogram, "type: histogram")],
      messageId: "newKeys",
      message:
        "metric `example.requests.latency` was a gauge and is now a Prometheus histogram, which Dynatrace ingests as `example.requests.latency_count`, `example.requests.latency_sum.count` and `example.requests.latency_bucket.count`: its data starts over under another key, and dashboards, alerts and SLOs on `example.requests.latency` stop receiving data",
    },
    {
      name: "Prometheus: a histogram made a gauge is said to have been a histogram",
      doc: prometheus("gauge", "1.0.1"),
      options: { ...EF2, base: histogram },
      lines: [lineOf(histogram, "- key: example.requests.latency")],
      messageId: "newKey",
      data: { key: "example.requests.latency_count", was: "a Prometheus histogram", now: "a gauge" },
    },
  ],
});

describe("a type Dynatrace does not take (`Count`): its ingested key is a guess", () => {
  const miscased = EXTENSION.replace(
    "            type: count\n            featureSet: errors\n",
    "            type: Count\n            featureSet: errors\n",
  );
  const bumped = (doc: string) => doc.replace(/^version: .*$/m, 'version: "9.9.9"');
  const ids = (doc: string, base: string) =>
    check(doc, { ...EF2, base })
      .map((f) => f.ruleId)
      .filter((id) => /^metric-(type-changed|removed)$/.test(id));

  it("the base's `Count` fixed to `count` (invalid-value's fix) is no change of the metric", () => {
    const base = check(miscased, EF2).find((f) => f.ruleId === "invalid-value");
    expect(base?.fix?.replacement).toBe('"count"');
    expect(ids(bumped(EXTENSION), miscased)).toEqual([]);
  });

  it("head's `Count`: invalid-value says so, and no metric is said to change type or to be removed", () => {
    const found = check(bumped(miscased), { ...EF2, base: EXTENSION }).map((f) => f.ruleId);
    expect(found).toContain("invalid-value");
    expect(ids(bumped(miscased), EXTENSION)).toEqual([]);
  });

  it("a type that is no string (`5`) in the base, then `count`: not compared either", () => {
    const numbered = miscased.replace("type: Count\n", "type: 5\n");
    expect(ids(bumped(EXTENSION), numbered)).toEqual([]);
  });
});

describe("a Prometheus histogram made a gauge: one change, not a change and two removals", () => {
  it("the histogram's other keys are not said to be removed beside its change of type", () => {
    const found = check(prometheus("gauge", "1.0.1"), { ...EF2, base: histogram })
      .filter((f) => /^metric-(type-changed|removed)$/.test(f.ruleId))
      .map((f) => f.ruleId);
    expect(found).toEqual(["metric-type-changed"]);
  });
});
