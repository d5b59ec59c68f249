/**
 * An extension.yaml's findings keep their identity when other elements move (rules.md "New and existing
 * findings"): a subgroup inserted before the one a finding is in, a variable before the one it is about, leave
 * the finding existing; changing what it is about makes it new.
 */
import { describe, expect, it } from "vitest";
import { identityPath } from "../../../src/core/identity.js";
import { check, EF2, EXTENSION } from "../../helpers.js";

/** Two mistakes: `if.out.bytes` without metadata, and a variable `community` that nothing uses. */
const base = EXTENSION.replace(
  "  - key: example.router.if.out.bytes.count\n    metadata:\n      displayName: Bytes sent\n      unit: Byte\n",
  "",
).replace("vars:\n", "vars:\n  - id: community\n    displayName: Community\n    type: text\n");

const SUBGROUP =
  "      - subgroup: temperature\n        table: false\n        metrics:\n          - key: example.router.temperature\n            value: oid:1.3.6.1.4.1.9.9.13.1.3.1.3\n";
const moved = base
  .replace("      - subgroup: uptime\n", `${SUBGROUP}      - subgroup: uptime\n`)
  .replace("vars:\n", "vars:\n  - id: site\n    displayName: Site\n    type: text\n")
  .replace(
    "  - key: example.router.uptime\n    metadata:",
    "  - key: example.router.temperature\n    metadata:\n      unit: Unspecified\n  - key: example.router.uptime\n    metadata:",
  )
  .replace(
    "filter: var:if_name_filter",
    "filter: var:if_name_filter\n          - key: site\n            value: var:site",
  );

const state = (doc: string, rule: string) =>
  check(doc, { ...EF2, base, isNew: false })
    .filter((f) => f.ruleId === rule)
    .map((f) => [f.data?.key ?? f.data?.id, f.baseline]);

describe("an extension.yaml's finding identity", () => {
  it("keeps a finding existing when a subgroup or a variable is inserted before it", () => {
    expect(state(moved, "metric-metadata-missing")).toEqual([
      ["example.router.if.out.bytes.count", "existing"],
    ]);
    expect(state(moved, "var-unused")).toEqual([["community", "existing"]]);
  });

  it("makes it new when what it is about changes", () => {
    const renamed = base.replace(
      "- key: example.router.if.out.bytes\n",
      "- key: example.router.if.tx.bytes\n",
    );
    expect(state(renamed, "metric-metadata-missing")).toEqual([["example.router.if.tx.bytes.count", "new"]]);
  });
});

/**
 * Screens and topology types have names of their own (a screen its `entityType`, a topology type its `name`):
 * a screen or type added before another leaves the other's findings existing, and a new screen or type carrying
 * an old mistake is another place, its finding new also when the old one is fixed.
 */
describe("an extension.yaml's screens and topology types are named by what they are for", () => {
  const SCREEN = "screens:\n  - entityType: example:router\n";
  const TYPES = "topology:\n  types:\n";
  const ROUTER_TYPE = "    - name: example:router\n";
  /** A screen chart on a metric that nothing reports, and a type made from a prefix no metric has. */
  const mistaken = EXTENSION.replace("example.router.uptime:splitBy", "example.router.nope:splitBy").replace(
    "$prefix(example.router.)",
    "$prefix(example.nope.)",
  );
  const screenFor = (entityType: string, selector: string) =>
    `  - entityType: ${entityType}\n    chartsCards:\n      - key: traffic\n        displayName: Traffic\n        charts:\n          - displayName: Bytes received by interface\n            visualizationType: GRAPH_CHART\n            graphChartConfig:\n              metrics:\n                - metricSelector: example.router.if.in.bytes.count\n          - displayName: Uptime\n            visualizationType: SINGLE_VALUE\n            singleValueConfig:\n              metric:\n                metricSelector: ${selector}\n`;
  const typeFor = (name: string, prefix: string) =>
    `    - name: ${name}\n      displayName: Switch\n      rules:\n        - idPattern: example_router_{device.name}\n          instanceNamePattern: "{device.name}"\n          sources:\n            - sourceType: Metrics\n              condition: $prefix(${prefix})\n          attributes:\n            - key: device_name\n              pattern: "{device.name}"\n              displayName: Name\n`;
  const states = (doc: string) =>
    check(doc, { ...EF2, base: mistaken, isNew: false })
      .filter((f) => f.ruleId === "unknown-metric-reference")
      .map((f) => [f.pointer, f.baseline])
      .sort();

  it("finds the two mistakes in the base", () => {
    expect(states(mistaken)).toEqual([
      ["/screens/0/chartsCards/0/charts/1/singleValueConfig/metric/metricSelector", "existing"],
      ["/topology/types/0/rules/0/sources/0/condition", "existing"],
    ]);
  });

  it("keeps them existing when a screen and a type are added before theirs", () => {
    const head = mistaken
      .replace(SCREEN, `screens:\n${screenFor("example:switch", "example.router.uptime")}${SCREEN.slice(9)}`)
      .replace(TYPES + ROUTER_TYPE, TYPES + typeFor("example:switch", "example.router.") + ROUTER_TYPE);
    expect(states(head)).toEqual([
      ["/screens/1/chartsCards/0/charts/1/singleValueConfig/metric/metricSelector", "existing"],
      ["/topology/types/1/rules/0/sources/0/condition", "existing"],
    ]);
  });

  it("makes a new screen's and a new type's copy of an old mistake new, also when the old one is fixed", () => {
    const head = EXTENSION.replace(
      SCREEN,
      `screens:\n${screenFor("example:switch", "example.router.nope")}${SCREEN.slice(9)}`,
    ).replace(TYPES + ROUTER_TYPE, TYPES + typeFor("example:switch", "example.nope.") + ROUTER_TYPE);
    expect(states(head)).toEqual([
      ["/screens/0/chartsCards/0/charts/1/singleValueConfig/metric/metricSelector", "new"],
      ["/topology/types/0/rules/0/sources/0/condition", "new"],
    ]);
  });
});

describe("the other unnamed elements of screens and topology, named by what they are for", () => {
  const relationship = (from: string) => ({
    fromType: from,
    typeOfRelation: "RUNS_ON",
    toType: "example:router",
    sources: [{ sourceType: "Metrics", condition: "$prefix(example.router.)" }],
  });
  const chart = (displayName: string, selector: string) => ({
    displayName,
    graphChartConfig: { metrics: [{ metricSelector: selector }] },
  });
  const doc = (inserted: boolean) => ({
    topology: {
      relationships: [...(inserted ? [relationship("example:switch")] : []), relationship("example:port")],
    },
    screens: [
      {
        entityType: "example:router",
        chartsCards: [
          {
            key: "traffic",
            charts: [
              ...(inserted ? [chart("Errors", "example.router.if.errors.count")] : []),
              chart("Uptime", "x"),
            ],
          },
        ],
      },
    ],
  });
  const places = (inserted: boolean) => {
    const i = inserted ? 1 : 0;
    return [
      `/topology/relationships/${i}/sources/0/condition`,
      `/screens/0/chartsCards/0/charts/${i}/graphChartConfig/metrics/0/metricSelector`,
    ].map((p) => identityPath(doc(inserted), p));
  };

  it("keeps a relationship's and a chart's places when another is inserted before them", () => {
    expect(places(true)).toEqual(places(false));
  });

  it("tells a second relationship and a second chart from the first", () => {
    const d = doc(true);
    expect(identityPath(d, "/topology/relationships/0")).not.toEqual(
      identityPath(d, "/topology/relationships/1"),
    );
    expect(identityPath(d, "/screens/0/chartsCards/0/charts/0")).not.toEqual(
      identityPath(d, "/screens/0/chartsCards/0/charts/1"),
    );
  });
});
