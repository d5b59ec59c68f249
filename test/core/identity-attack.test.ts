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

describe("metrics that share a key (the place is the key: interfaces.md)", () => {
  /** The example's first metric under `key`, with `displayname`, its unit misspelt when `mistaken`. */
  const metric = (key: string, displayname: string, mistaken = true): Json => {
    const m = structuredClone((validHost() as Json).metrics[0]);
    m.timeseries.key = key;
    m.timeseries.displayname = displayname;
    delete m.alert_settings;
    if (mistaken) m.timeseries.unit = "Seconds";
    return m;
  };
  const withMetrics = (metrics: Json[]) => {
    const d: Json = validHost();
    d.metrics = metrics;
    delete d.ui;
    return d;
  };
  /** Every finding's rule, pointer and state, sorted. */
  const all = (head: Json, base: Json) =>
    analyseDescriptors(
      [
        {
          path: "plugin.json",
          content: text(head),
          base: { path: "plugin.json", content: text(base) },
          isNew: false,
        },
      ],
      resolveConfig(),
    )[0]!
      .findings.map((f) => `${f.ruleId} ${f.pointer} ${f.baseline}`)
      .sort();

  // Copies alike in every member (a real plugin's templated `<queuename>` metrics): a routine edit of one of
  // them turned every finding of both new, and the check red, when their identities were their contents.
  it("a routine edit of one of two identical copies: every finding existing", () => {
    const base = withMetrics([metric("<q>", "<q>"), metric("<q>", "<q>")]);
    const head = bumped(withMetrics([metric("<q>", "<q> (renamed)"), metric("<q>", "<q>")]));
    const states = all(head, base);
    expect(states.length).toBeGreaterThan(2);
    expect(states.filter((s) => !s.endsWith(" existing"))).toEqual([]);
  });

  it("a routine edit of one of two different metrics of one key: every finding existing", () => {
    const base = withMetrics([metric("load", "Load"), metric("load", "Load average")]);
    const head = bumped(withMetrics([metric("load", "Load now"), metric("load", "Load average")]));
    expect(all(head, base).filter((s) => !s.endsWith(" existing"))).toEqual([]);
  });

  it("one more metric of that key with the same mistake: it new, the others existing", () => {
    const base = withMetrics([metric("load", "Load"), metric("load", "Load average")]);
    const head = bumped(
      withMetrics([metric("load", "Load peak"), metric("load", "Load"), metric("load", "Load average")]),
    );
    const units = all(head, base).filter((s) => s.includes("/timeseries/unit"));
    expect(units).toEqual([
      expect.stringMatching(/ \/metrics\/0\/timeseries\/unit new$/),
      expect.stringMatching(/ \/metrics\/1\/timeseries\/unit existing$/),
      expect.stringMatching(/ \/metrics\/2\/timeseries\/unit existing$/),
    ]);
  });
});
