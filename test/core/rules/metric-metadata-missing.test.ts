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
  ],
  invalid: [
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
      name: "a Python feature set's metric without metadata",
      doc: pythonUndescribed,
      options,
      lines: [lineOf(pythonUndescribed, "- key: example.queue.consumers")],
      messageId: "missing",
      data: { key: "example.queue.consumers" },
    },
  ],
});
