import { EF2, edit, EXTENSION, lineOf, ruleTable } from "../../helpers.js";

const typo = edit(EXTENSION, "filter: var:if_name_filter", "filter: var:if_names_filter");
const inValue = edit(EXTENSION, "value: oid:1.3.6.1.2.1.1.5.0", "value: var:device_label");

ruleTable("var-undeclared", {
  valid: [
    { name: "the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "Dynatrace's own variables (`ext.activationtag`)",
      doc: edit(EXTENSION, "value: oid:1.3.6.1.2.1.1.5.0", "value: var:ext.activationtag"),
      options: EF2,
    },
    {
      name: "`var:` inside a word is no variable",
      doc: edit(EXTENSION, "value: oid:1.3.6.1.2.1.1.5.0", "value: const:envvar:x"),
      options: EF2,
    },
  ],
  invalid: [
    {
      name: "a typo in a filter's variable",
      doc: typo,
      options: EF2,
      lines: [lineOf(typo, "var:if_names_filter")],
      messageId: "undeclared",
      data: { id: "if_names_filter" },
      message: /did you mean `if_name_filter`\?$/,
      severity: "error",
    },
    {
      name: "a dimension's value from a variable nobody declared",
      doc: inValue,
      options: EF2,
      lines: [lineOf(inValue, "var:device_label")],
      messageId: "undeclared",
      data: { id: "device_label" },
    },
  ],
});
