import { ruleTable, validHost, validRemote, lineOf, at, make, pythonExtension } from "../../helpers.js";

type Obj = Record<string, unknown>;

const prop = (doc: Obj, p: Obj): string =>
  make(doc, (d) => {
    at<unknown[]>(d, "properties").push(p);
  });

const intString = prop(validHost(), { key: "port", type: "INTEGER", defaultValue: "8080" });
const intFraction = prop(validHost(), { key: "retries", type: "INTEGER", defaultValue: 1.5 });
const boolString = prop(validHost(), { key: "verbose", type: "BOOLEAN", defaultValue: "true" });
const floatString = prop(validHost(), { key: "ratio", type: "FLOAT", defaultValue: "0.5" });
const stringNumber = prop(validHost(), { key: "path", type: "STRING", defaultValue: 5 });
const passwordBool = prop(validHost(), { key: "secret", type: "PASSWORD", defaultValue: false });
const stringNull = prop(validHost(), { key: "label", type: "STRING", defaultValue: null });
const remoteInteger = prop(validRemote(), { key: "port", type: "Integer", defaultValue: "161" });
const remoteTextarea = prop(validRemote(), { key: "query", type: "textarea", defaultValue: 0 });
// A version-like default written as a number: 1.10 to the author, the number 1.1 once parsed.
const stringVersionNumber = prop(validHost(), {
  key: "api_version",
  type: "STRING",
  defaultValue: 0,
}).replace('"defaultValue": 0', '"defaultValue": 1.10');
const remoteDropdown = make(validRemote(), (d) => {
  at(d, "properties", 1).defaultValue = 1;
  at(d, "properties", 1).dropdownValues = [1, 2];
});

// An activation schema (extensions-2.md §3): its findings are at the path in extension.yaml that names it.
const python = pythonExtension();
const schemaAt = lineOf(python.extension, "path: activationSchema.json");
const URL_TYPE = '"type": "text",';
/** The example schema with its `url` property of `type` and with `member` (a `default`, say) added. */
const activation = (type: string, member: string): typeof python.options => {
  if (!python.schema.includes(URL_TYPE)) throw new Error("the example schema changed");
  const schema = python.schema.replace(URL_TYPE, `"type": ${type}, ${member},`);
  return pythonExtension({ "extension/activationSchema.json": schema }).options;
};
const remoteAndLocal = python.extension.replace(
  "    remote:\n      path: activationSchema.json\n",
  "    remote:\n      path: activationSchema.json\n    local:\n      path: activationSchema.json\n",
);

ruleTable("property-default-type", {
  valid: [
    { name: "host example", doc: validHost() },
    { name: "the Python extension's activation schema", doc: python.extension, options: python.options },
    {
      name: "activation schema defaults that fit (an integer fits float)",
      doc: python.extension,
      options: activation(
        '"float"',
        '"default": 2 }, "b": { "displayName": "B", "type": "boolean", "default": false',
      ),
    },
    {
      name: "activation schema null default (a nullable property's unset value)",
      doc: python.extension,
      options: activation('"text"', '"nullable": true, "default": null'),
    },
    {
      name: "activation schema type whose value format §3 does not give is left alone",
      doc: python.extension,
      options: activation('"local_date"', '"default": 20260101'),
    },
    { name: "remote example", doc: validRemote() },
    {
      name: "each host type with a fitting default (an integer fits FLOAT)",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "properties").push(
          { key: "a", type: "BOOLEAN", defaultValue: false },
          { key: "b", type: "INTEGER", defaultValue: -3 },
          { key: "c", type: "FLOAT", defaultValue: 2 },
          { key: "d", type: "FLOAT", defaultValue: 0.25 },
          { key: "e", type: "PASSWORD", defaultValue: "" },
        );
      }),
    },
    {
      name: "type matched in any case",
      doc: prop(validRemote(), { key: "n", type: "iNtEgEr", defaultValue: 7 }),
    },
    {
      name: "no defaultValue",
      doc: prop(validHost(), { key: "n", type: "INTEGER" }),
    },
    {
      name: "an unknown type is for invalid-value, not this rule",
      doc: prop(validHost(), { key: "n", type: "NUMBER", defaultValue: "x" }),
    },
    {
      name: "rule turned off",
      doc: intString,
      options: { config: { rules: { "property-default-type": "off" } } },
    },
  ],
  invalid: [
    {
      name: "a number quoted as written (1.10, not 1.1)",
      messageId: "mismatch",
      doc: stringVersionNumber,
      lines: [lineOf(stringVersionNumber, '"defaultValue": 1.10')],
      data: { value: "1.10" },
      message: /^`defaultValue` 1\.10 does not fit type `STRING`: it must be a string$/,
    },
    {
      name: "INTEGER with a string, at the defaultValue value",
      messageId: "mismatch",
      data: { value: '"8080"', type: "INTEGER", expected: "an integer" },
      doc: intString,
      lines: [lineOf(intString, '"defaultValue": "8080"')],
      message: '`defaultValue` "8080" does not fit type `INTEGER`: it must be an integer',
      severity: "error",
    },
    {
      name: "INTEGER with a fraction",
      messageId: "mismatch",
      doc: intFraction,
      lines: [lineOf(intFraction, '"defaultValue": 1.5')],
      message: "must be an integer",
    },
    {
      name: "BOOLEAN with a string",
      messageId: "mismatch",
      doc: boolString,
      lines: [lineOf(boolString, '"defaultValue": "true"')],
      message: "must be a boolean (true or false)",
    },
    {
      name: "FLOAT with a string",
      messageId: "mismatch",
      doc: floatString,
      lines: [lineOf(floatString, '"defaultValue": "0.5"')],
      message: "must be a number",
    },
    {
      name: "STRING with a number",
      messageId: "mismatch",
      doc: stringNumber,
      lines: [lineOf(stringNumber, '"defaultValue": 5')],
      message: "does not fit type `STRING`: it must be a string",
    },
    {
      name: "PASSWORD with a boolean",
      messageId: "mismatch",
      doc: passwordBool,
      lines: [lineOf(passwordBool, '"defaultValue": false')],
      message: "must be a string",
    },
    {
      name: "STRING with null (null is not a string)",
      messageId: "mismatch",
      doc: stringNull,
      lines: [lineOf(stringNull, '"defaultValue": null')],
      message: "`defaultValue` null does not fit",
    },
    {
      name: "remote Integer with a string",
      messageId: "mismatch",
      doc: remoteInteger,
      lines: [lineOf(remoteInteger, '"defaultValue": "161"')],
      message: "type `Integer`",
    },
    {
      name: "remote textarea (any case) with a number",
      messageId: "mismatch",
      doc: remoteTextarea,
      lines: [lineOf(remoteTextarea, '"defaultValue": 0')],
      message: "must be a string",
    },
    {
      name: "remote Dropdown defaults must be strings, even with numeric choices",
      messageId: "mismatch",
      doc: remoteDropdown,
      lines: [lineOf(remoteDropdown, '"defaultValue": 1')],
      message: "type `Dropdown`: it must be a string",
    },
    {
      name: "activation schema text with a number, at the path naming the schema",
      messageId: "activation",
      doc: python.extension,
      options: activation('"text"', '"default": 8080'),
      lines: [schemaAt],
      data: { path: "activationSchema.json", key: "pythonRemote.url", value: "8080", type: "text" },
      message:
        "`activationSchema.json`: the `default` 8080 of property `pythonRemote.url` does not fit type `text`: it must be a string",
      severity: "error",
    },
    {
      name: "activation schema integer with a string",
      messageId: "activation",
      doc: python.extension,
      options: activation('"integer"', '"default": "15"'),
      lines: [schemaAt],
      message:
        'the `default` "15" of property `pythonRemote.url` does not fit type `integer`: it must be an integer',
    },
    {
      name: "activation schema boolean with a string",
      messageId: "activation",
      doc: python.extension,
      options: activation('"boolean"', '"default": "true"'),
      lines: [schemaAt],
      message: "must be a boolean (true or false)",
    },
    {
      name: "activation schema secret with a boolean",
      messageId: "activation",
      doc: python.extension,
      options: activation('"secret"', '"default": false'),
      lines: [schemaAt],
      message: "must be a string",
    },
    {
      name: "activation schema enum with a number (its items' values are strings)",
      messageId: "activation",
      doc: python.extension,
      options: activation('{ "$ref": "#/enums/mode" }', '"default": 1'),
      lines: [schemaAt],
      message: "type `#/enums/mode`: it must be a string",
    },
    {
      name: "one activation schema named by remote and local: said once",
      messageId: "activation",
      doc: remoteAndLocal,
      options: activation('"float"', '"default": "0.5"'),
      lines: [schemaAt],
    },
  ],
});
