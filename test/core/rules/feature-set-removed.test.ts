import { EF2, EXTENSION, lineOf, pythonExtension, ruleTable } from "../../helpers.js";

const BASE = { ...EF2, base: EXTENSION };
const removed = EXTENSION.replace("            featureSet: errors\n", "");
const renamed = EXTENSION.replace("        featureSet: interfaces\n", "        featureSet: ifaces\n");
const { extension: python, options } = pythonExtension();
const pythonRemoved = python.replace("    - featureSet: queues\n", "    - featureSet: queue\n");

ruleTable("feature-set-removed", {
  valid: [
    { name: "unchanged", doc: EXTENSION, options: BASE },
    {
      name: "a feature set added",
      doc: EXTENSION.replace("        table: false\n", "        table: false\n        featureSet: uptime\n"),
      options: BASE,
    },
  ],
  invalid: [
    {
      name: "a metric's own feature set removed (its metric joins its subgroup's)",
      doc: removed,
      options: BASE,
      lines: [lineOf(removed, "snmp:")],
      messageId: "removed",
      data: { name: "errors" },
      severity: "warning",
    },
    {
      name: "renamed: a new name for the same metrics, said at the new name",
      doc: renamed,
      options: BASE,
      lines: [lineOf(renamed, "featureSet: ifaces")],
      messageId: "renamed",
      data: { name: "interfaces", now: "ifaces" },
    },
    {
      name: "a Python extension's feature set renamed",
      doc: pythonRemoved,
      options: { ...options, base: python },
      lines: [lineOf(pythonRemoved, "featureSet: queue")],
      messageId: "renamed",
      data: { name: "queues", now: "queue" },
    },
  ],
});
