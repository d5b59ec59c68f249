import { EF2, EXTENSION, lineOf, ruleTable } from "../../helpers.js";

const raised = EXTENSION.replace('minDynatraceVersion: "1.285"', 'minDynatraceVersion: "1.300.0"');

ruleTable("min-version-raised", {
  valid: [
    { name: "unchanged", doc: EXTENSION, options: { ...EF2, base: EXTENSION } },
    {
      name: "lowered",
      doc: EXTENSION.replace('minDynatraceVersion: "1.285"', 'minDynatraceVersion: "1.280"'),
      options: { ...EF2, base: EXTENSION },
    },
    {
      name: "the same version written with three numbers",
      doc: EXTENSION.replace('minDynatraceVersion: "1.285"', 'minDynatraceVersion: "1.285.0"'),
      options: { ...EF2, base: EXTENSION },
    },
  ],
  invalid: [
    {
      name: "raised: a notice",
      doc: raised,
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(raised, "minDynatraceVersion")],
      messageId: "raised",
      data: { was: "1.285", now: "1.300.0" },
      severity: "notice",
    },
  ],
});
