import {
  ruleTable,
  validHost,
  validRemote,
  lineOf,
  at,
  make,
  EF2,
  EXTENSION,
  pythonExtension,
} from "../../helpers.js";

const oneGone = make(validHost(), (d) => {
  at<unknown[]>(d, "properties").splice(1, 1);
});
const allGone = make(validHost(), (d) => {
  delete d.properties;
});
const remote = make(validRemote(), (d) => {
  at<unknown[]>(d, "properties").pop();
  at(d, "properties", 0).key = "hostname";
});

const efNoVar = EXTENSION.replace(
  "vars:\n  - id: if_name_filter\n    displayName: Interfaces to monitor (a pattern on their names)\n    type: pattern\n\n",
  "",
).replace("            filter: var:if_name_filter\n", "");
const py = pythonExtension();

ruleTable("property-removed", {
  valid: [
    {
      name: "extension.yaml: its variables kept",
      doc: EXTENSION.replace("displayName: Uptime", "displayName: Up"),
      options: { ...EF2, base: EXTENSION },
    },
    { name: "unchanged", doc: validHost(), options: { base: validHost() } },
    {
      name: "a property added, others reordered",
      doc: make(validHost(), (d) => {
        const p = at<unknown[]>(d, "properties");
        p.reverse();
        p.push({ key: "verbose", type: "BOOLEAN", defaultValue: false });
      }),
      options: { base: validHost() },
    },
    {
      name: "a property's type or default changed",
      doc: make(validHost(), (d) => {
        Object.assign(at(d, "properties", 1), { type: "FLOAT", defaultValue: 2.5 });
      }),
      options: { base: validHost() },
    },
    {
      name: "only its configUI field removed",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "configUI", "properties").pop();
      }),
      options: { base: validHost() },
    },
    { name: "no base", doc: oneGone },
    {
      name: "rule turned off",
      doc: oneGone,
      options: { base: validHost(), config: { rules: { "property-removed": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: the variables removed (with their use): at the root, which lacks `vars`",
      doc: efNoVar,
      options: { ...EF2, base: EXTENSION },
      lines: [1],
      messageId: "variable",
      data: { key: "if_name_filter" },
      severity: "warning",
    },
    {
      name: "extension.yaml: an activation schema property removed",
      doc: py.extension,
      options: {
        ...py.options,
        base: py.extension,
        files: {
          ...py.options.files!,
          baseContents: new Map([["extension/activationSchema.json", py.schema]]),
          contents: new Map([
            ["extension/activationSchema.json", py.schema.replace(/"password": \{[^}]*\},\n\s*/, "")],
          ]),
        },
      },
      lines: [lineOf(py.extension, "path: activationSchema.json")],
      messageId: "activation",
      data: { path: "activationSchema.json", key: "pythonRemote.password" },
    },
    {
      name: "host: one property removed, at head's properties key",
      messageId: "removed",
      data: { key: "timeout" },
      doc: oneGone,
      lines: [lineOf(oneGone, '"properties": [', 2)],
      message: "property `timeout` was removed; existing configurations of this plugin that set it break",
      severity: "warning",
      options: { base: validHost() },
    },
    {
      name: "properties member gone: one finding per property, at line 1",
      messageId: "removed",
      doc: allGone,
      lines: [1, 1, 1],
      message: /^property `(url|timeout|password)` was removed/,
      options: { base: validHost() },
    },
    {
      name: "remote: one removed, one renamed",
      messageId: "removed",
      doc: remote,
      lines: [lineOf(remote, '"properties": [', 2), lineOf(remote, '"properties": [', 2)],
      message: /^property `(host|notes)` was removed/,
      options: { base: validRemote() },
    },
  ],
});
