import { EF2, edit, EXTENSION, lineOf, pythonExtension, ruleTable } from "../../helpers.js";

/** The metadata of `if.out.bytes` left out. */
const undescribed = edit(
  EXTENSION,
  "  - key: example.router.if.out.bytes.count\n    metadata:\n      displayName: Bytes sent\n      unit: Byte\n",
  "",
);
const { extension: python, options } = pythonExtension();
const pythonUndescribed = edit(
  python,
  "  - key: example.queue.consumers\n    metadata:\n      displayName: Consumers\n      unit: Count\n",
  "",
);

/** A Prometheus histogram and summary, each with metadata for one of the keys Dynatrace ingests for it. */
const PROMETHEUS = `name: custom:example.prom
version: 1.0.0
minDynatraceVersion: "1.318"
author:
  name: x
prometheus:
  - group: http
    metrics:
      - key: example.prom.http.duration
        value: metric:http_duration_seconds
        type: histogram
      - key: example.prom.rpc.duration
        value: metric:rpc_duration_seconds
        type: summary
metrics:
  - key: example.prom.http.duration_sum.count
    metadata:
      unit: Second
  - key: example.prom.rpc.duration
    metadata:
      unit: Second
`;
/** The histogram's metadata left out. */
const histogramUndescribed = edit(
  PROMETHEUS,
  "  - key: example.prom.http.duration_sum.count\n    metadata:\n      unit: Second\n",
  "",
);

ruleTable("metric-metadata-missing", {
  valid: [
    { name: "the valid extension", doc: EXTENSION, options: EF2 },
    { name: "the Python extension", doc: python, options },
    {
      name: "metadata under the key without `.count`: metric-not-reported says it",
      doc: edit(
        EXTENSION,
        "- key: example.router.if.out.bytes.count\n",
        "- key: example.router.if.out.bytes\n",
      ),
      options: EF2,
    },
    {
      name: "a histogram and a summary, each with metadata for one of its parts",
      doc: PROMETHEUS,
      options: EF2,
    },
    {
      name: "a data source's key that is no metric key (invalid-format says so): metadata for it would help nobody",
      doc: edit(undescribed, "- key: example.router.if.out.bytes\n", "- key: example.router.if out.bytes\n"),
      options: EF2,
    },
  ],
  invalid: [
    {
      name: "a histogram without metadata: said once, not once per part",
      doc: histogramUndescribed,
      options: EF2,
      lines: [lineOf(histogramUndescribed, "- key: example.prom.http.duration")],
      messageId: "partsMissing",
      data: {
        key: "example.prom.http.duration",
        kind: "histogram",
        ingested:
          "`example.prom.http.duration_count`, `example.prom.http.duration_sum.count` and `example.prom.http.duration_bucket.count`",
      },
    },
    {
      name: "a count without metadata, named by the key Dynatrace ingests",
      doc: undescribed,
      options: EF2,
      lines: [lineOf(undescribed, "- key: example.router.if.out.bytes")],
      messageId: "missing",
      data: { key: "example.router.if.out.bytes.count" },
      severity: "notice",
    },
    {
      name: "a key the build writes (`<%=prefix%>`) is judged by no schema: still said",
      doc: edit(undescribed, "- key: example.router.if.out.bytes\n", "- key: <%=prefix%>.if.out.bytes\n"),
      options: EF2,
      lines: [lineOf(undescribed, "- key: example.router.if.out.bytes")],
      messageId: "missing",
      data: { key: "<%=prefix%>.if.out.bytes.count" },
    },
    {
      name: "a Python feature set's metric without metadata",
      doc: pythonUndescribed,
      options,
      lines: [lineOf(pythonUndescribed, "- key: example.queue.consumers")],
      messageId: "missing",
      data: { key: "example.queue.consumers" },
    },
  ],
});
