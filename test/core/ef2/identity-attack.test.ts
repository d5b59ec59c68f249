/**
 * Nothing new may pass as existing (interfaces.md "A finding's identity": the place named by content, never
 * by array index). For each kind of element of an extension.yaml, a base with a mistake in one element, and
 * a head that puts a different element with the same mistake where the old one was (before it): the new
 * element's finding is new, whether the old one is fixed (it took the old one's place) or kept (it stays
 * existing). Unchanged and reordered, every finding stays existing.
 *
 * The mistake is a member written twice (duplicate-key), which any element can carry; elements without a name
 * of their own (a message card's button, a threshold, a topology source without a condition…) and elements
 * whose name a sibling shares (two charts with one title, two rules of one `idPattern`) were named by their
 * order among such siblings, so that the first of them took the old one's findings.
 */
import { describe, expect, it } from "vitest";
import { check, EF2 } from "../../helpers.js";

const HEAD =
  'name: custom:example.attack\nversion: 1.0.0\nminDynatraceVersion: "1.300"\nauthor:\n  name: Example\n';

/** A YAML list of mappings (each given as its lines) at `indent` spaces. */
function list(indent: number, elements: readonly (readonly string[])[]): string {
  const pad = " ".repeat(indent);
  return elements.map((lines) => lines.map((l, i) => `${pad}${i ? "  " : "- "}${l}\n`).join("")).join("");
}

/** The element with its first member written twice: a duplicate-key finding on that member. */
const bad = (lines: readonly string[]) => [lines[0]!, ...lines];

interface Place {
  /** What the elements are. */
  name: string;
  /** The array's pointer. */
  at: string;
  /** The document around the array's elements. */
  doc: (elements: readonly (readonly string[])[]) => string;
  /** The base's element, and the different one the pull request adds. */
  old: readonly string[];
  added: readonly string[];
}

const screen = (body: string) => `${HEAD}screens:\n  - entityType: example:router\n${body}`;
const chartsCard = (charts: string) =>
  screen(`    chartsCards:\n      - key: traffic\n        displayName: Traffic\n        charts:\n${charts}`);

const PLACES: Place[] = [
  {
    name: "a screen's property",
    at: "/screens/0/propertiesCard/properties",
    doc: (e) => screen(`    propertiesCard:\n      properties:\n${list(8, e)}`),
    old: ["type: ATTRIBUTE", "attribute:", "  key: device.name", "  displayName: Name"],
    added: ["type: ATTRIBUTE", "attribute:", "  key: device.address", "  displayName: Address"],
  },
  {
    name: "an entities list's column",
    at: "/screens/0/entitiesListCards/0/columns",
    doc: (e) => screen(`    entitiesListCards:\n      - key: routers\n        columns:\n${list(10, e)}`),
    old: [
      "type: RELATION",
      "relation:",
      "  entitySelectorTemplate: type(host),toRelationships.runsOn($(entityConditions))",
    ],
    added: [
      "type: RELATION",
      "relation:",
      "  entitySelectorTemplate: type(example:port),fromRelationships.isChildOf($(entityConditions))",
    ],
  },
  {
    name: "a message card's button",
    at: "/screens/0/messageCards/0/card/buttons",
    doc: (e) =>
      screen(
        `    messageCards:\n      - key: hint\n        card:\n          title: Docs\n          buttons:\n${list(12, e)}`,
      ),
    old: ["text: Documentation", "actionExpression: seaOtterLink|id=https://example.com/docs"],
    added: ["text: Demo", "actionExpression: seaOtterLink|id=https://example.com/demo"],
  },
  {
    name: "a layout card without a key",
    at: "/screens/0/detailsSettings/layout/cards",
    doc: (e) =>
      screen(
        `    detailsSettings:\n      layout:\n        autoGenerate: false\n        cards:\n${list(10, e)}`,
      ),
    old: ["type: INJECTIONS"],
    added: ["type: LOGS"],
  },
  {
    name: "a breadcrumb",
    at: "/screens/0/detailsSettings/staticContent/breadcrumbs",
    doc: (e) => screen(`    detailsSettings:\n      staticContent:\n        breadcrumbs:\n${list(10, e)}`),
    old: [
      "type: ENTITY_REF",
      "entitySelectorTemplate: type(example:site),toRelationships.isChildOf($(entityConditions))",
    ],
    added: [
      "type: ENTITY_REF",
      "entitySelectorTemplate: type(example:rack),toRelationships.isChildOf($(entityConditions))",
    ],
  },
  {
    name: "a chart's threshold",
    at: "/screens/0/chartsCards/0/charts/0/singleValueConfig/thresholds",
    doc: (e) =>
      chartsCard(
        `          - displayName: Uptime\n            visualizationType: SINGLE_VALUE\n            singleValueConfig:\n              thresholds:\n${list(16, e)}`,
      ),
    old: ["value: 1", "color: '#FF0000'"],
    added: ["value: 5", "color: '#00FF00'"],
  },
  {
    name: "a chart whose title another chart has",
    at: "/screens/0/chartsCards/0/charts",
    doc: (e) => chartsCard(list(10, e)),
    old: ["displayName: Traffic", "visualizationType: GRAPH_CHART"],
    added: ["displayName: Traffic", "visualizationType: SINGLE_VALUE"],
  },
  {
    name: "a topology source without a condition",
    at: "/topology/types/0/rules/0/sources",
    doc: (e) =>
      `${HEAD}topology:\n  types:\n    - name: example:router\n      displayName: Router\n      rules:\n        - idPattern: router_{device}\n          sources:\n${list(12, e)}`,
    old: ["sourceType: Logs"],
    added: ["sourceType: Spans"],
  },
  {
    name: "a topology rule whose idPattern another rule has",
    at: "/topology/types/0/rules",
    doc: (e) =>
      `${HEAD}topology:\n  types:\n    - name: example:router\n      displayName: Router\n      rules:\n${list(8, e)}`,
    old: ["idPattern: router_{device}", "instanceNamePattern: '{device}'"],
    added: ["idPattern: router_{device}", "instanceNamePattern: 'Router {device}'"],
  },
  {
    name: "a relationship source's mapping rule",
    at: "/topology/relationships/0/sources/0/mappingRules",
    doc: (e) =>
      `${HEAD}topology:\n  relationships:\n    - fromType: example:router\n      typeOfRelation: RUNS_ON\n      toType: host\n      sources:\n        - sourceType: Entities\n          mappingRules:\n${list(12, e)}`,
    old: ["sourceProperty: dt.ip_addresses", "destinationProperty: dt.ip_addresses"],
    added: ["sourceProperty: dt.ip_addresses", "destinationProperty: ipAddress"],
  },
  {
    name: "a subgroup whose name another subgroup has",
    at: "/snmp/0/subgroups",
    doc: (e) => `${HEAD}snmp:\n  - group: router\n    subgroups:\n${list(6, e)}`,
    old: ["subgroup: interfaces", "table: true"],
    added: ["subgroup: interfaces", "table: false"],
  },
];

/** Each duplicate-key finding in the place's array: [the element's index, new or existing]. */
function states(place: Place, head: readonly (readonly string[])[], base: readonly (readonly string[])[]) {
  return check(place.doc(head), { ...EF2, base: place.doc(base), isNew: false })
    .filter((f) => f.ruleId === "duplicate-key" && f.pointer.startsWith(`${place.at}/`))
    .map((f) => [Number(f.pointer.slice(place.at.length + 1).split("/")[0]), f.baseline])
    .sort();
}

describe.each(PLACES)("nothing new passes as existing: $name", (place) => {
  const { old, added } = place;

  it("the base's mistake is found there", () => {
    expect(states(place, [bad(old)], [bad(old)])).toEqual([[0, "existing"]]);
  });

  it("a different element with the same mistake, put in place of the fixed old one: new", () => {
    expect(states(place, [bad(added), old], [bad(old)])).toEqual([[0, "new"]]);
  });

  it("a different element with the same mistake, inserted before the old one: it new, the old existing", () => {
    expect(states(place, [bad(added), bad(old)], [bad(old)])).toEqual([
      [0, "new"],
      [1, "existing"],
    ]);
  });

  it("unchanged or reordered: every finding existing", () => {
    const both = [bad(old), bad(added)];
    expect(states(place, both, both)).toEqual([
      [0, "existing"],
      [1, "existing"],
    ]);
    expect(states(place, [bad(added), bad(old)], both)).toEqual([
      [0, "existing"],
      [1, "existing"],
    ]);
  });
});
