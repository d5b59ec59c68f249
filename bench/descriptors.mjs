// Descriptors the benchmarks share (bench/run.mjs, bench/compare.mjs).

import { Buffer } from "node:buffer";

/**
 * A string of one piece, as a text read from a file or from GitHub is: the result of `replace` is a rope,
 * and the first review to read it would pay for joining it, which no real base costs.
 */
export const flat = (text) => Buffer.from(text, "utf8").toString("utf8");

const bases = new Map();
/**
 * A change of the descriptor that leaves it valid, so that every change rule compares in full: made once per
 * text (the timed review reads a base it is given, as the App and the CLI do).
 */
export function baseOf(text) {
  let base = bases.get(text);
  if (base === undefined) {
    base = flat(text.replace(/"version"\s*:\s*"[^"]*"/, '"version": "0.0"'));
    bases.set(text, base);
  }
  return base;
}

/** Metrics of the generated large descriptor. */
export const N = 2000;

/** A generated large descriptor: `n` metrics with alerts, n/10 key charts and n/2 charts (about 2 MB at 2,000). */
export function largeDescriptor(n = N) {
  return {
    name: "custom.python.bench_large",
    version: "1.0.0",
    type: "python",
    entity: "PROCESS_GROUP_INSTANCE",
    metricGroup: "tech.bench",
    processTypeNames: ["PYTHON"],
    source: {
      package: "bench",
      className: "Bench",
      activation: "SnapshotEntry",
      activation_name_pattern: "^bench-(?P<id>\\d+)$",
    },
    metrics: Array.from({ length: n }, (_, i) => ({
      timeseries: {
        key: `metric_${i}`,
        unit: "Count",
        aggregation: "sum",
        dimensions: ["rx_pid", "queue"],
        displayname: `Metric number ${i}`,
      },
      alert_settings: [
        {
          alert_id: `alert_${i}`,
          event_type: "PERFORMANCE_EVENT",
          event_name: `Metric ${i} is high`,
          description:
            "{severity} on {entityname} is {alert_condition} {threshold} for {violating_samples} samples",
          threshold: 100.5,
          alert_condition: "ABOVE",
          samples: 5,
          violating_samples: 3,
          dealerting_samples: 5,
        },
      ],
    })),
    ui: {
      keymetrics: [{ key: "metric_0", aggregation: "avg", mergeaggregation: "sum", displayname: "First" }],
      keycharts: Array.from({ length: n / 10 }, (_, i) => ({
        group: "Key",
        title: `Key chart ${i}`,
        series: [{ key: `metric_${i}`, displayname: "Value", seriestype: "area", color: "#00a6fb" }],
      })),
      charts: Array.from({ length: n / 2 }, (_, i) => ({
        group: `Group ${i % 20}`,
        title: `Chart ${i}`,
        description: "A chart of two metrics",
        series: [
          {
            key: `metric_${2 * i}`,
            displayname: "Even",
            seriestype: "line",
            color: "rgba(42, 182, 244, 0.6)",
            dimensions: ["queue"],
          },
          {
            key: `metric_${2 * i + 1}`,
            displayname: "Odd",
            seriestype: "bar",
            stacked: true,
            rightaxis: true,
          },
        ],
      })),
    },
    configUI: { displayName: "Bench", properties: [{ key: "url", displayName: "URL", displayOrder: 1 }] },
    properties: [{ key: "url", type: "STRING", defaultValue: "http://localhost" }],
  };
}
