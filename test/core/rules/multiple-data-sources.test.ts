import { EF2, edit, EXTENSION, lineOf, pythonExtension, ruleTable } from "../../helpers.js";

// EXTENSION (an SNMP extension) with a JMX data source added after its `snmp:`.
const JMX = `jmx:
  groups:
    - group: pool
      subgroups:
        - subgroup: connections
          query: com.example:type=Pool,*
          metrics:
            - key: example.pool.active
              value: attribute:Active
`;
const snmpAndJmx = edit(EXTENSION, "\nmetrics:\n", `\n${JMX}\nmetrics:\n`);
// The same, the JMX source written first: the second in the file is reported, whichever it is.
const jmxFirst = edit(EXTENSION, "\nsnmp:\n", `\n${JMX}\nsnmp:\n`);
const three = edit(
  snmpAndJmx,
  "\nmetrics:\n",
  "\nprometheus:\n  - group: app\n    metrics: []\n\nmetrics:\n",
);
const python = pythonExtension();
const pythonAndJmx = `${python.extension.trimEnd()}\n\n${JMX}`;
// An extension of metadata, dashboards and alerts only (Dynatrace's own have such), without a data source.
const noSource =
  "name: custom:example.dashboards\nversion: 1.0.0\nminDynatraceVersion: '1.285'\nauthor:\n  name: Example\n";

ruleTable("multiple-data-sources", {
  valid: [
    { name: "one data source (SNMP)", doc: EXTENSION, options: EF2 },
    { name: "one data source (Python)", doc: python.extension, options: python.options },
    { name: "no data source", doc: noSource, options: EF2 },
    {
      name: "rule turned off",
      doc: snmpAndJmx,
      options: { ...EF2, config: { rules: { "multiple-data-sources": "off" } } },
    },
  ],
  invalid: [
    {
      name: "snmp and jmx: at the second one's key",
      messageId: "second",
      data: { source: "jmx", first: "snmp" },
      doc: snmpAndJmx,
      options: EF2,
      lines: [lineOf(snmpAndJmx, "jmx:")],
      severity: "error",
      message:
        "data source `jmx` beside `snmp`: an extension has exactly one data source; make one extension per data source",
    },
    {
      name: "jmx written before snmp: snmp is the second",
      messageId: "second",
      data: { source: "snmp", first: "jmx" },
      doc: jmxFirst,
      options: EF2,
      lines: [lineOf(jmxFirst, "\nsnmp:") + 1],
    },
    {
      name: "python and jmx",
      messageId: "second",
      data: { source: "jmx", first: "python" },
      doc: pythonAndJmx,
      options: python.options,
      lines: [lineOf(pythonAndJmx, "\njmx:") + 1],
    },
    {
      name: "three data sources: each after the first",
      messageId: "second",
      doc: three,
      options: EF2,
      lines: [lineOf(three, "\njmx:") + 1, lineOf(three, "\nprometheus:") + 1],
    },
  ],
});
