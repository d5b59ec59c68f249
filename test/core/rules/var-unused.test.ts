import { EF2, edit, EXTENSION, lineOf, ruleTable } from "../../helpers.js";

const unused = edit(EXTENSION, "            filter: var:if_name_filter\n", "");
const second = edit(
  EXTENSION,
  "    type: pattern\n",
  "    type: pattern\n  - id: community\n    displayName: Community\n    type: text\n",
);

ruleTable("var-unused", {
  valid: [
    { name: "the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "used in a query",
      doc: `${edit(second, "\nsnmp:", "\nsnmp:")}`.replace(
        "value: oid:1.3.6.1.2.1.1.5.0",
        "value: oid:1.3.6.1.2.1.1.5.0\n        filter: const:$eq(var:community)",
      ),
      options: EF2,
    },
  ],
  invalid: [
    {
      name: "the filter that used it removed",
      doc: unused,
      options: EF2,
      lines: [lineOf(unused, "- id: if_name_filter")],
      messageId: "unused",
      data: { id: "if_name_filter" },
      severity: "warning",
    },
    {
      name: "a variable declared and never used",
      doc: second,
      options: EF2,
      lines: [lineOf(second, "- id: community")],
      messageId: "unused",
      data: { id: "community" },
    },
  ],
});
