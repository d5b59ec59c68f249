import { lineOf, pythonExtension, ruleTable } from "../../helpers.js";

const { extension, schema, options } = pythonExtension();
const at = lineOf(extension, "path: activationSchema.json");
const edited = (from: string, to: string) => {
  if (!schema.includes(from)) throw new Error(`schema lacks ${from}`);
  return pythonExtension({ "extension/activationSchema.json": schema.replace(from, to) }).options;
};
const both = extension.replace(
  "    remote:\n      path: activationSchema.json\n",
  "    remote:\n      path: activationSchema.json\n    local:\n      path: activationSchema.json\n",
);
const withLocal = edited(
  '  "properties": {\n    "pythonRemote": {',
  '  "properties": {\n    "pythonLocal": { "displayName": "Local", "type": { "$ref": "#/types/pythonRemote" } },\n    "pythonRemote": {',
);

ruleTable("activation-property-unused", {
  valid: [
    { name: "the Python extension's schema", doc: extension, options },
    { name: "both roots, read by remote and local", doc: both, options: withLocal },
  ],
  invalid: [
    {
      name: "a pythonLocal root no activation reads",
      doc: extension,
      options: withLocal,
      lines: [at],
      messageId: "root",
      data: { name: "pythonLocal", where: "local" },
      severity: "warning",
    },
    {
      name: "an enum no property names",
      doc: extension,
      options: edited('"type": { "$ref": "#/enums/mode" },', '"type": "text",'),
      lines: [at],
      messageId: "definition",
      data: { name: "enums.mode" },
    },
  ],
});
