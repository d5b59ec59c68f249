import { EF2, EXTENSION, lineOf, pythonExtension, ruleTable } from "../../helpers.js";

const py = pythonExtension();
const schemaWith = (from: string, to: string) => {
  if (!py.schema.includes(from)) throw new Error(`schema lacks ${from}`);
  return py.schema.replace(from, to);
};
const changed = EXTENSION.replace("    type: pattern\n", "    type: text\n");

ruleTable("property-type-changed", {
  valid: [
    { name: "unchanged", doc: EXTENSION, options: { ...EF2, base: EXTENSION } },
    {
      name: "the activation schema unchanged",
      doc: py.extension,
      options: {
        ...py.options,
        base: py.extension,
        files: {
          ...py.options.files!,
          baseContents: new Map([["extension/activationSchema.json", py.schema]]),
        },
      },
    },
  ],
  invalid: [
    {
      name: "a variable's type changed",
      doc: changed,
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(changed, "type: text")],
      messageId: "variable",
      data: { key: "if_name_filter", was: "pattern", now: "text" },
      severity: "warning",
    },
    {
      name: "an activation schema property made an enum",
      doc: py.extension,
      options: {
        ...py.options,
        base: py.extension,
        files: {
          ...py.options.files!,
          contents: new Map([
            [
              "extension/activationSchema.json",
              schemaWith('"type": "text",', '"type": { "$ref": "#/enums/mode" },'),
            ],
          ]),
          baseContents: new Map([["extension/activationSchema.json", py.schema]]),
        },
      },
      lines: [lineOf(py.extension, "path: activationSchema.json")],
      messageId: "activation",
      data: { key: "pythonRemote.url", was: "text", now: "#/enums/mode" },
    },
  ],
});
