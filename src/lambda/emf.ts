/**
 * The Lambda functions' operator metrics in CloudWatch's embedded metric format (EMF), through Powertools
 * for AWS Lambda's metrics: the same figures the server serves at `/metrics`, as log lines CloudWatch turns
 * into metrics (namespace `plugin-review`, dimension `function`). Published at the end of each invocation.
 */
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { OperatorMetrics } from "../github/delivery/operator-metrics.js";

export interface EmfOperatorMetrics extends OperatorMetrics {
  /** Writes what was counted in this invocation (one EMF log line, and one per dimensioned figure). */
  publish(): void;
}

export function emfOperatorMetrics(fn: string): EmfOperatorMetrics {
  const powertools = new Metrics({
    namespace: "plugin-review",
    serviceName: "plugin-review",
    defaultDimensions: { function: fn },
  });
  /** A figure with its own dimension (a status, an outcome): written at once, as Powertools does. */
  const dimensioned = (name: string, dimension: string, value: string, count = 1) => {
    const single = powertools.singleMetric();
    single.addDimension(dimension, value);
    single.addMetric(name, MetricUnit.Count, count);
  };
  return {
    deliveryReceived: (event) => dimensioned("DeliveriesReceived", "event", event),
    reviewFinished: (outcome, seconds) => {
      dimensioned("Reviews", "outcome", outcome);
      powertools.addMetric("ReviewDuration", MetricUnit.Seconds, seconds);
    },
    recovered: (source, count) => dimensioned("ReviewsRecovered", "source", source, count),
    requestFailed: (status) => dimensioned("GitHubRequestFailures", "status", status),
    publish: () => {
      // Nothing stored, nothing written: Powertools would log a warning about an empty publish. The dimensioned
      // figures are written already and store nothing.
      if (powertools.hasStoredMetrics()) powertools.publishStoredMetrics();
    },
  };
}
