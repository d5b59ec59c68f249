/**
 * The server's operator metrics in Prometheus's text format (prom-client, the Prometheus ecosystem's Node
 * client), served at `GET /metrics` (endpoints.ts).
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { OperatorMetrics } from "../github/delivery/operator-metrics.js";

export interface PrometheusOperatorMetrics extends OperatorMetrics {
  registry: Registry;
}

/** `pool`: the reviews running and waiting now (the scheduler's), read at each scrape. */
export function prometheusOperatorMetrics(
  pool: () => { running: number; waiting: number },
): PrometheusOperatorMetrics {
  const registry = new Registry();
  const deliveries = new Counter({
    name: "plugin_review_deliveries_received_total",
    help: "Webhook deliveries the App acts on, received (or handed to it by the recovery), by event",
    labelNames: ["event"],
    registers: [registry],
  });
  const reviews = new Counter({
    name: "plugin_review_reviews_total",
    help: "Reviews whose check run was written, by its conclusion (error: the review could not complete)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const recovered = new Counter({
    name: "plugin_review_reviews_recovered_total",
    help: "Deliveries the recovery sweep handed to the App, by where it found them (store, delivery-log)",
    labelNames: ["source"],
    registers: [registry],
  });
  const failures = new Counter({
    name: "plugin_review_github_request_failures_total",
    help: "GitHub API requests answered with an error status, or not answered (timeout, network), by status",
    labelNames: ["status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "plugin_review_review_duration_seconds",
    help: "Time from a review's start to its check run written",
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  new Gauge({
    name: "plugin_review_reviews_in_flight",
    help: "Reviews running now",
    registers: [registry],
    collect() {
      this.set(pool().running);
    },
  });
  new Gauge({
    name: "plugin_review_reviews_waiting",
    help: "Reviews waiting for a slot or for their later retry",
    registers: [registry],
    collect() {
      this.set(pool().waiting);
    },
  });
  // Every series exists from the start, so that a rate over a quiet server is 0, not absent.
  for (const outcome of ["success", "neutral", "failure", "error"]) reviews.inc({ outcome }, 0);
  for (const source of ["store", "delivery-log"]) recovered.inc({ source }, 0);
  return {
    registry,
    deliveryReceived: (event) => deliveries.inc({ event }),
    reviewFinished: (outcome, seconds) => {
      reviews.inc({ outcome });
      duration.observe(seconds);
    },
    recovered: (source, count) => recovered.inc({ source }, count),
    requestFailed: (status) => failures.inc({ status }),
  };
}
