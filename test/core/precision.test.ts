/**
 * Real-world precision (rules.md, issue 9): what real descriptors that work in production rely on is not reported.
 * JMX plugins need no `source`; the undocumented members table is known (type checks only, near-misses still
 * reported); activation-criteria-missing is silent for `entity: HOST`; after plugin-renamed the other change rules
 * are silent.
 */
import { describe, expect, it } from "vitest";
import { at, check, lineOf, text, validHost } from "../helpers.js";

type Obj = Record<string, unknown>;

function jmx(): Obj {
  const d = validHost();
  d.name = "custom.jmx.demo";
  d.type = "JMX";
  delete d.source;
  d.processTypeNames = ["JAVA"];
  return d;
}

const ids = (doc: Obj | string, opts?: Parameters<typeof check>[1]) => check(doc, opts).map((f) => f.ruleId);

describe("source is optional for JMX plugins only", () => {
  it("a JMX plugin without source has no finding", () => {
    expect(check(jmx())).toEqual([]);
  });
  it("a python plugin without source still gets required-member, host and remote", () => {
    const host = validHost();
    delete host.source;
    expect(ids(host)).toEqual(["required-member"]);
  });
  it("a JMX plugin that has a source still needs what a source needs", () => {
    const d = jmx();
    d.source = { package: "demo" };
    const found = check(d);
    expect(found.map((f) => [f.ruleId, f.pointer])).toEqual([["required-member", "/source/className"]]);
  });
});

describe("undocumented members (rules.md table) are known, with type checks only", () => {
  function withUndocumented(): Obj {
    const d = validHost();
    const chart = at<Obj>(d, "ui", "charts", 0);
    chart.link = "https://example.com/docs";
    chart.explanation = "What the chart shows";
    at<Obj>(d, "ui", "keycharts", 0).explanation = "Key chart";
    const series = at<Obj>(d, "ui", "charts", 0, "series", 0);
    series.metricexplanation = "Latency of requests";
    series.statechart = false;
    series.statecolors = ["#ff0000", "#00ff00"];
    at<Obj>(d, "ui", "keymetrics", 0).statemetric = false;
    at<Obj>(d, "metrics", 0, "timeseries").topxconfig = { top: 5 };
    const alert = at<Obj>(d, "metrics", 0, "alert_settings", 0);
    alert.state_name = "ok";
    alert.default_state = "ok";
    return d;
  }
  it("no finding for any member of the table", () => {
    expect(check(withUndocumented())).toEqual([]);
  });
  it("a wrong JSON type is invalid-type", () => {
    const d = withUndocumented();
    at<Obj>(d, "ui", "charts", 0, "series", 0).statechart = "yes";
    at<Obj>(d, "metrics", 0, "timeseries").topxconfig = 5;
    expect(ids(d)).toEqual(["invalid-type", "invalid-type"]);
  });
  it("a near-miss is still unknown-member, with the suggestion", () => {
    const d = validHost();
    at<Obj>(d, "ui", "charts", 0, "series", 0).metricexplaination = "x";
    const source = text(d);
    const [f, ...rest] = check(source);
    expect(rest).toEqual([]);
    expect(f?.ruleId).toBe("unknown-member");
    expect(f?.message).toMatch(/did you mean `metricexplanation`\?/);
    expect(f?.line).toBe(lineOf(source, '"metricexplaination"'));
  });
  it("case variants and members in the wrong object stay unknown-member", () => {
    const d = validHost();
    at<Obj>(d, "metrics", 1, "timeseries").displayName = "Latency";
    at<Obj>(d, "metrics", 1, "timeseries").entity = "HOST";
    at<Obj>(d, "configUI", "properties", 0).defaultValue = "x";
    expect(ids(d)).toEqual(["unknown-member", "unknown-member", "unknown-member"]);
  });
});

describe("activation-criteria-missing and entity HOST", () => {
  it("silent when entity is HOST (host-entity says so instead)", () => {
    const d = validHost();
    d.entity = "HOST";
    delete d.processTypeNames;
    delete d.technologies;
    expect(ids(d)).toEqual(["host-entity"]);
  });
  it("still fires for PROCESS_GROUP_INSTANCE", () => {
    const d = validHost();
    delete d.processTypeNames;
    delete d.technologies;
    expect(ids(d)).toEqual(["activation-criteria-missing"]);
  });
});

describe("after plugin-renamed the other change rules are silent", () => {
  it("a renamed plugin with its version, group and a unit changed: only plugin-renamed", () => {
    const base = validHost();
    const head = validHost();
    head.name = "custom.python.demo_plugin_v2";
    head.version = "1.0.0"; // lower, and not bumped either
    head.metricGroup = "tech.python.demo2";
    at<Obj>(head, "metrics", 1, "timeseries").unit = "Second";
    expect(ids(head, { base })).toEqual(["plugin-renamed"]);
  });
  it("the same changes without the rename are all reported", () => {
    const base = validHost();
    const head = validHost();
    head.version = "1.0.0";
    head.metricGroup = "tech.python.demo2";
    at<Obj>(head, "metrics", 1, "timeseries").unit = "Second";
    expect(ids(head, { base }).sort()).toEqual([
      "metric-group-changed",
      "metric-unit-changed",
      "version-decreased",
    ]);
  });
});
