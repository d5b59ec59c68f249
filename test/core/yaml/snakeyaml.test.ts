/**
 * An extension.yaml read as Dynatrace (SnakeYAML) reads it: a quoted value whose lines are no deeper than its key
 * gives the value SnakeYAML's origin, PyYAML, gives (the differential test runs when python3 has PyYAML), with its
 * offsets in the text as written; everything else is the strict parse's.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonNode } from "../../../src/core/json/parse.js";
import { parseYaml } from "../../../src/core/yaml/parse.js";
import { parseYamlAsDynatrace } from "../../../src/core/yaml/snakeyaml.js";
import { itUnless, ROOT } from "../../helpers.js";

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

/** The extension.yaml files shipped in examples/, and those of ../shared/corpus/ef2/ when it is there. */
function extensions(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const examples = join(ROOT, "examples");
  for (const p of readdirSync(examples, { recursive: true }) as string[])
    if (p.endsWith(".yaml"))
      out.push({ name: `examples/${p}`, text: readFileSync(join(examples, p), "utf8") });
  const corpus = join(ROOT, "..", "shared", "corpus", "ef2");
  if (existsSync(corpus))
    for (const f of readdirSync(corpus))
      if (f.endsWith(".yaml")) out.push({ name: f, text: readFileSync(join(corpus, f), "utf8") });
  return out;
}

/** A tree with its collections' ends left out. */
function withoutCollectionEnds(node: JsonNode): unknown {
  if (node.kind === "object")
    return {
      start: node.start,
      members: node.members.map((m) => ({ ...m, value: withoutCollectionEnds(m.value) })),
    };
  if (node.kind === "array") return { start: node.start, items: node.items.map(withoutCollectionEnds) };
  return node;
}

describe("parseYamlAsDynatrace", () => {
  it("gives every extension the value and the tree of offsets the yaml package gives", () => {
    let compared = 0;
    for (const { name, text } of extensions()) {
      const strict = parseYaml(text);
      const ours = parseYamlAsDynatrace(text);
      if (!strict.ok) continue; // invalid YAML 1.2: the mistakes' examples, and what SnakeYAML reads (below)
      expect(ours.ok, name).toBe(true);
      if (!ours.ok) continue;
      expect(ours.value, name).toEqual(strict.value);
      // A block collection ends here with its last element, there after the comments that follow it.
      expect(withoutCollectionEnds(ours.root), name).toEqual(withoutCollectionEnds(strict.root));
      expect(ours.duplicates, name).toEqual(strict.duplicates);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });

  // The styles users write by hand: each must give the tree the yaml package gives, so that a finding is at its
  // value and a fix edits it (a flow collection on a line of its own, an anchor or a tag before one, a BOM).
  it.each([
    "metrics:\n  - {key: a.b, metadata: {unit: count}}\n  - key: c.d\n",
    "a:\n  - [x, y]\n  - - {p: q}\n    - [1]\n",
    "a:\n  {key: z, b: [1, 2]}\n",
    "a:\n  - &m {key: z}\n  - *m\n",
    "- !!map {a: b}\n",
    "\uFEFFname: custom:a\nmetrics:\n  - {key: k, metadata: {unit: x}}\n",
    "\uFEFFa: 1\r\nb:\r\n  - c\r\n",
  ])("gives the yaml package's tree for hand-written styles: %j", (text) => {
    const strict = parseYaml(text);
    const ours = parseYamlAsDynatrace(text);
    expect(strict.ok && ours.ok).toBe(true);
    if (!strict.ok || !ours.ok) return;
    expect(ours.value).toEqual(strict.value);
    expect(withoutCollectionEnds(ours.root)).toEqual(withoutCollectionEnds(strict.root));
    // A flow collection ends at its bracket, past its anchor or tag.
    const stack = [ours.root];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.kind === "object") stack.push(...n.members.map((m) => m.value));
      if (n.kind === "array") stack.push(...n.items);
      if (n.kind !== "string" && /^(?:[&!]\S*\s+)*[[{]/.test(text.slice(n.start)))
        expect(text.charAt(n.end - 1), text.slice(n.start, n.end)).toMatch(/[\]}]/);
    }
  });

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

  // Where YAML 1.2 wants a value's continuation lines: past its key; a sequence item's past its `- `; a flow
  // collection's wherever its items start (inside it, a quoted value's too), its closing bracket and comments
  // anywhere. The warning is given exactly where the yaml package refuses the text.
  it.each([
    ["a flow list continued at its key's column", "a: [x,\ny]\n", true],
    ["a flow mapping so", "a: {x: 1,\ny: 2}\n", true],
    ["a flow list of a nested key so", "m:\n  a: [x,\n  y]\n", true],
    ["a flow list of a key in a sequence item so", "l:\n  - k: [x,\n    y]\n", true],
    ["a flow list item at its `- `'s column", "l:\n  - [x,\n  y]\n", true],
    ["a quoted item at its `- `'s column", 'l:\n  - "x\n  y"\n', true],
    ["a flow list indented past its key", "m:\n  a: [x,\n   y]\n", false],
    ["a flow list closed at its key's column", "a: [\n  x,\n]\n", false],
    ["a comment at the flow list's key's column", "a: [x,\n# c\n  y]\n", false],
    ["a flow list item past its `- `", "l:\n  - [x,\n   y]\n", false],
    ["an item of an item", "- - [x,\n   y]\n", false],
    ["a quoted item past its `- `", 'l:\n  - "x\n   y"\n', false],
    ["a quoted value inside a flow list, past the list's key", 'a: [\n    "x\n    y"]\n', false],
    ["a flow list inside one", "a: [\n  [x,\n  y]]\n", false],
    ["the document's root", "[x,\ny]\n", false],
  ])("warns of what YAML 1.2 refuses, exactly: %s", (_, text, refused) => {
    expect(parseYaml(text).ok).toBe(!refused);
    const r = parseYamlAsDynatrace(text);
    expect(r.ok).toBe(true);
    expect(r.ok && r.lenient?.message).toEqual(
      refused ? expect.stringMatching(/continuation lines are not indented more than its key/) : undefined,
    );
  });

  it("says the first such value, on its first line, and what it is", () => {
    const text = "a: ok\nm:\n  b: [x,\n  y]\n  c: 'p\n  q'\n";
    const r = parseYamlAsDynatrace(text);
    expect(r.ok && r.lenient).toEqual({
      message: "a flow collection's (`[…]`, `{…}`) continuation lines are not indented more than its key",
      offset: text.indexOf("  b:"),
      end: text.indexOf("\n", text.indexOf("  b:")),
    });
  });

  it("reads valid YAML as the yaml package does, and refuses what neither reads", () => {
    expect(parseYamlAsDynatrace(valid)).toEqual(parseYaml(valid));
    for (const broken of ["a: [1\n", "a: 'never closed\n", "a:\n\tb: 1\n", "a: 1\n---\nb: 2\n"]) {
      expect(parseYaml(broken).ok).toBe(false);
      expect(parseYamlAsDynatrace(broken).ok, broken).toBe(false);
    }
  });

  it("reads a byte order mark and a sequence of 200,000 items (400 KB, within the size limit) without throwing", () => {
    const text = `\ufeffxs: [${Array<string>(200_000).fill("1").join(",")}]\n`;
    const r = parseYamlAsDynatrace(text);
    expect(r.ok).toBe(true);
    const xs = r.ok && r.root.kind === "object" ? r.root.members[0]!.value : undefined;
    // Every item's offsets counted from the start of the text, past the mark.
    expect(xs?.kind === "array" && xs.items.length).toBe(200_000);
    if (xs?.kind === "array") expect(text.slice(xs.items[199_999]!.start, xs.items[199_999]!.end)).toBe("1");
  });

  itUnless(noPyYaml)("gives the values PyYAML (SnakeYAML's origin) gives", () => {
    for (const text of lenient) {
      const r = parseYamlAsDynatrace(text);
      expect(r.ok && r.value, text).toEqual(pyYaml(text));
    }
  });
});
