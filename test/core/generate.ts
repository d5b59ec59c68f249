/**
 * Generated descriptors for property tests that must run on a fresh clone (without ../shared): the shipped
 * examples (written for this project: the valid host and remote plugins and one descriptor per kind of
 * mistake) and random edits of them, as a pull request edits a file. The generator is seeded, so a failure
 * can be replayed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { parseJson, type JsonNode } from "../../src/core/json/parse.js";
import { ROOT } from "../helpers.js";

export interface Sample {
  name: string;
  text: string;
}

/** Every descriptor under examples/ (heads and bases), sorted by path. */
export function exampleSamples(): Sample[] {
  return (
    (readdirSync(join(ROOT, "examples"), { recursive: true }) as string[])
      // Descriptors only: an extension's activationSchema.json, dashboards and alerts are JSON of other kinds.
      .filter((p) => /(^|[\\/])plugin(\.base)?\.json$/.test(p))
      .map((p) => p.split(sep).join("/"))
      .sort()
      .map((p) => ({ name: `examples/${p}`, text: readFileSync(join(ROOT, "examples", p), "utf8") }))
  );
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function nodes(root: JsonNode): JsonNode[] {
  const out: JsonNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop() as JsonNode;
    out.push(n);
    if (n.kind === "object") for (const m of n.members) stack.push(m.value);
    if (n.kind === "array") stack.push(...n.items);
  }
  return out;
}

const SCALARS = [
  '"x"',
  '""',
  '"Count"',
  '"custom.remote.python.renamed"',
  '"HOST"',
  '"CUSTOM_DEVICE"',
  '"{severity} {nope}"',
  '"^(a+)+$"',
  '"Ünïcödé ✓"',
  "0",
  "-1",
  "3.5",
  "true",
  "null",
  "[]",
  "{}",
];

/** One edit: a node replaced, an element or member removed, added or written twice, a key renamed, a stray character. */
export function edit(text: string, next: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const parsed = parseJson(text);
  if (!parsed.ok) return text.slice(0, -1);
  const all = nodes(parsed.root);
  const node = pick(all);
  const splice = (start: number, end: number, s: string) => text.slice(0, start) + s + text.slice(end);
  switch (Math.floor(next() * 7)) {
    case 0:
      return splice(node.start, node.end, pick(SCALARS));
    case 1:
    case 2: {
      const arrays = all.filter((n) => n.kind === "array" && n.items.length > 0);
      if (!arrays.length) return splice(node.start, node.end, pick(SCALARS));
      const a = pick(arrays) as Extract<JsonNode, { kind: "array" }>;
      const items = a.items.map((i) => text.slice(i.start, i.end));
      const i = Math.floor(next() * items.length);
      if (next() < 0.5) items.splice(i, 1);
      else items.splice(i, 0, items[i] as string);
      return splice(a.start, a.end, `[${items.join(", ")}]`);
    }
    case 3:
    case 4: {
      const objects = all.filter((n) => n.kind === "object" && n.members.length > 0);
      if (!objects.length) return splice(node.start, node.end, pick(SCALARS));
      const o = pick(objects) as Extract<JsonNode, { kind: "object" }>;
      const members = o.members.map((m) => text.slice(m.keyStart, m.value.end));
      const i = Math.floor(next() * members.length);
      const member = members[i] as string;
      const r = next();
      if (r < 0.3) members.splice(i, 1);
      else if (r < 0.55) members.splice(i, 0, member);
      else if (r < 0.8) members.splice(i, 0, `"unknownMember": ${pick(SCALARS)}`);
      else {
        const m = o.members[i]!;
        members[i] = JSON.stringify(`${m.key}x`) + text.slice(m.keyEnd, m.value.end);
      }
      return splice(o.start, o.end, `{${members.join(", ")}}`);
    }
    case 5:
      return text.replace(/"version"\s*:\s*"[^"]*"/, `"version": "${pick(["0.0", "1.0", "9.9.9", "x"])}"`);
    default: {
      const at = Math.floor(next() * text.length);
      return splice(at, at + Math.floor(next() * 2), pick(["", " ", ",", '"', "}", "1"]));
    }
  }
}

/** The samples that parse, each followed by `perSample` random edits of it that parse too (one or two edits each). */
export function generatedDocuments(samples: readonly Sample[], perSample: number, seed: number): Sample[] {
  const next = random(seed);
  const out: Sample[] = [];
  for (const s of samples) {
    if (!parseJson(s.text).ok) continue;
    out.push(s);
    for (let n = 0; n < perSample; n++) {
      let t = edit(s.text, next);
      if (next() < 0.3) t = edit(t, next);
      if (parseJson(t).ok) out.push({ name: `${s.name} (edit ${n})`, text: t });
    }
  }
  return out;
}

/** Replaces, deletes or inserts at a random path of a JSON value (`mode` 0, 1, 2), as a property test mangles one. */
export function mutate(doc: unknown, path: number[], replacement: unknown, mode: number): unknown {
  if (path.length === 0 || doc === null || typeof doc !== "object")
    return mode === 0 ? undefined : replacement;
  const [step, ...rest] = path as [number, ...number[]];
  if (Array.isArray(doc)) {
    if (doc.length === 0) return mode === 2 ? [replacement] : doc;
    const i = step % doc.length;
    const copy = [...doc];
    const v = mutate(copy[i], rest, replacement, mode);
    if (v === undefined) copy.splice(i, 1);
    else copy[i] = v;
    return copy;
  }
  const o = { ...(doc as Record<string, unknown>) };
  const keys = Object.keys(o);
  if (keys.length === 0 || (mode === 2 && rest.length === 0)) {
    o[`added${step}`] = replacement;
    return o;
  }
  const k = keys[step % keys.length]!;
  const v = mutate(o[k], rest, replacement, mode);
  if (v === undefined) delete o[k];
  else o[k] = v;
  return o;
}
