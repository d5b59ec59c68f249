/**
 * An extension.yaml read as Dynatrace (SnakeYAML) reads it: a quoted value whose lines are no deeper than its key
 * gives the value SnakeYAML's origin, PyYAML, gives (the differential test runs when python3 has PyYAML), with its
 * offsets in the text as written; everything else is the strict parse's.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseYaml } from "../../../src/core/yaml/parse.js";
import { parseYamlAsDynatrace } from "../../../src/core/yaml/snakeyaml.js";
import { itUnless } from "../../helpers.js";

const lenient = [
  "a:\n  b: '\n  x\n  + y'\n  c: 1\n",
  'a:\n  - q: "\n    one \\"two\\"\n    three"\n    r: 2\n',
  "m:\n  - key: func:a\n    query:\n      s: '\n      (x)\n\n      /(y)'\n  - key: b\n",
  "k: 'it''s\nfine'\n",
];
const valid = "k: 'it''s\n  fine'\n";

function pyYaml(text: string): unknown {
  const out = execFileSync(
    "python3",
    ["-c", "import sys,json,yaml;print(json.dumps(yaml.safe_load(sys.stdin.read())))"],
    {
      input: text,
    },
  );
  return JSON.parse(out.toString()) as unknown;
}

const noPyYaml = (() => {
  try {
    execFileSync("python3", ["-c", "import yaml"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "python3 with PyYAML is not installed";
  }
})();

describe("parseYamlAsDynatrace", () => {
  it.each(lenient)("reads what YAML 1.2 refuses: %j", (text) => {
    expect(parseYaml(text).ok).toBe(false);
    const r = parseYamlAsDynatrace(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.lenient?.message).toMatch(/not indented more than its key/);
    // Offsets are the text's as written: every member's key is where the text has it.
    const stack = [r.root];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.kind === "object")
        for (const m of n.members) {
          expect(text.slice(m.keyStart, m.keyEnd)).toBe(m.key);
          stack.push(m.value);
        }
      if (n.kind === "array") stack.push(...n.items);
    }
  });

  it("leaves valid YAML and other errors to the strict parse", () => {
    expect(parseYamlAsDynatrace(valid)).toEqual(parseYaml(valid));
    const broken = "a: [1\n";
    expect(parseYamlAsDynatrace(broken)).toEqual(parseYaml(broken));
    const unclosed = "a: 'never closed\n";
    expect(parseYamlAsDynatrace(unclosed)).toEqual(parseYaml(unclosed));
  });

  itUnless(noPyYaml)("gives the values PyYAML (SnakeYAML's origin) gives", () => {
    for (const text of lenient) {
      const r = parseYamlAsDynatrace(text);
      expect(r.ok && r.value, text).toEqual(pyYaml(text));
    }
  });
});
