import { EF2, edit, EXTENSION, lineOf, ruleTable } from "../../helpers.js";

const versioned = edit(EXTENSION, 'version: "1.4.0"', "version: <%=version%>");
const named = edit(EXTENSION, "name: custom:example.snmp-router", "name: custom:<%= extensionName %>");

ruleTable("build-placeholder", {
  valid: [
    { name: "the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "`<%` alone is no placeholder",
      doc: edit(EXTENSION, "displayName: Uptime", 'displayName: "Uptime <% of the day"'),
      options: EF2,
    },
  ],
  invalid: [
    {
      name: "the version a build writes",
      doc: versioned,
      options: EF2,
      lines: [lineOf(versioned, "version:")],
      messageId: "placeholder",
      data: { path: "version", value: "<%=version%>" },
      message:
        "`version` holds a build placeholder (`<%=version%>`): the build that packages the extension writes the value, so this review does not judge it",
      severity: "notice",
    },
    {
      name: "a name and a metadata value, each said once, in the order of the file",
      doc: edit(named, "displayName: Uptime", "displayName: <%=uptimeName%>"),
      options: EF2,
      lines: [1, lineOf(named, "displayName: Uptime")],
      messageId: "placeholder",
      data: [
        { path: "name", value: "custom:<%= extensionName %>" },
        { path: "metrics[0].metadata.displayName" },
      ],
    },
  ],
});
