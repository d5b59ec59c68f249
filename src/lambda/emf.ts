/**
 * The Lambda functions' metrics in CloudWatch's embedded metric format (EMF), through Powertools for AWS
 * Lambda's metrics: the same figures the server serves at `/metrics`, as log lines CloudWatch turns into
 * metrics (namespace `plugin-review`, dimension `function`). Published at the end of each invocation.
 */
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { AppMetrics } from "../github/delivery/metrics.js";

export interface EmfMetrics extends AppMetrics {
  /** Writes what was counted in this invocation (one EMF log line, and one per dimensioned figure). */
  publish(): void;
}

export function emfMetrics(fn: string): EmfMetrics {
  const metrics = new Metrics({
    namespace: "plugin-review",
    serviceName: "plugin-review",
    defaultDimensions: { function: fn },
  });
  /** A figure with its own dimension (a status, an outcome): written at once, as Powertools does. */
  const dimensioned = (name: string, dimension: string, value: string, count = 1) => {
    const single = metrics.singleMetric();
    single.addDimension(dimension, value);
    single.addMetric(name, MetricUnit.Count, count);
  };
  let any = false;
  return {
    deliveryReceived: (event) => {
      any = true;
      dimensioned("DeliveriesReceived", "event", event);
    },
    reviewFinished: (outcome, seconds) => {
      any = true;
      dimensioned("Reviews", "outcome", outcome);
      metrics.addMetric("ReviewDuration", MetricUnit.Seconds, seconds);
    },
    recovered: (source, count) => {
      any = true;
      dimensioned("ReviewsRecovered", "source", source, count);
    },
    requestFailed: (status) => {
      any = true;
      dimensioned("GitHubRequestFailures", "status", status);
    },
    publish: () => {
      // Nothing counted, nothing written (Powertools would warn of an empty publish).
      if (any) metrics.publishStoredMetrics();
      any = false;
    },
  };
}
