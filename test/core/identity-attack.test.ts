/**
 * Nothing new may pass as existing, in a plugin.json (interfaces.md "A finding's identity"): a different element
 * with an old mistake, put where the old one was while the old one is fixed, is new. An alert without an
 * `alert_id` was named by its order among unnamed alerts, and a renamed chart by its series numbered by order
 * among the renamed: the first of them took the old one's findings.
 */
import { describe, expect, it } from "vitest";
import { analyseDescriptors } from "../../src/core/analyse.js";
import { resolveConfig } from "../../src/core/config.js";
import { text, validHost } from "../helpers.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** [pointer, new or existing] of the head's findings of `rule`, compared with `base`. */
function states(head: Json, base: Json, rule: string): [string, string | undefined][] {
  const [r] = analyseDescriptors(
    [
      {
        path: "plugin.json",
        content: text(head),
        base: { path: "plugin.json", content: text(base) },
        isNew: false,
      },
    ],
    resolveConfig(),
  );
  return r!.findings.filter((f) => f.ruleId === rule).map((f) => [f.pointer, f.baseline]);
}

const bumped = (d: Json): Json => ({ ...structuredClone(d), version: "9.9.9" });

describe("an alert without alert_id", () => {
  /** The example's alert without its alert_id, with samples 0 (alert-samples). */
  const alert = (threshold: number, samples: number): Json => {
    const a = structuredClone((validHost() as Json).metrics[0].alert_settings[0]);
    delete a.alert_id;
    return { ...a, threshold, samples };
  };
  const withAlerts = (alerts: Json[]) => {
    const d: Json = validHost();
    d.metrics[0].alert_settings = alerts;
    return d;
  };
  const base = withAlerts([alert(100, 0)]);

  it("a different unnamed alert with the old mistake, before the fixed old one: new", () => {
    const head = bumped(withAlerts([alert(500, 0), alert(100, 5)]));
    expect(states(head, base, "alert-samples")).toEqual([["/metrics/0/alert_settings/0/samples", "new"]]);
  });

  it("inserted before the old one kept: it new, the old one existing", () => {
    const head = bumped(withAlerts([alert(500, 0), alert(100, 0)]));
    expect(states(head, base, "alert-samples")).toEqual([
      ["/metrics/0/alert_settings/0/samples", "new"],
      ["/metrics/0/alert_settings/1/samples", "existing"],
    ]);
  });

  it("unchanged or reordered: existing", () => {
    const both = withAlerts([alert(100, 0), alert(500, 0)]);
    const reordered = bumped(withAlerts([alert(500, 0), alert(100, 0)]));
    for (const head of [bumped(both), reordered])
      expect(states(head, both, "alert-samples").map(([, s]) => s)).toEqual(["existing", "existing"]);
  });
});

describe("renamed charts that show the same series", () => {
  /** The example's chart under `title`, its first series with an unknown member when `mistaken`. */
  const chart = (title: string, mistaken: boolean): Json => {
    const c = structuredClone((validHost() as Json).ui.charts[0]);
    c.title = title;
    if (mistaken) c.series[0].colour = "#fff";
    return c;
  };
  const withCharts = (charts: Json[]) => {
    const d: Json = validHost();
    d.ui.charts = charts;
    return d;
  };

  it("a new chart with the old one's series and mistake, before the old one renamed and fixed: new", () => {
    const base = withCharts([chart("Latency", true)]);
    const head = bumped(withCharts([chart("Errors", true), chart("Latency by endpoint", false)]));
    expect(states(head, base, "unknown-member")).toEqual([["/ui/charts/0/series/0/colour", "new"]]);
  });

  it("a renamed chart alone keeps its findings (its series name it)", () => {
    const base = withCharts([chart("Latency", true)]);
    const head = bumped(withCharts([chart("Latency by endpoint", true)]));
    expect(states(head, base, "unknown-member")).toEqual([["/ui/charts/0/series/0/colour", "existing"]]);
  });
});
