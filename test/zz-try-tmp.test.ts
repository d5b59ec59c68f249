import { it } from "vitest";
import { findCatastrophicBacktracking } from "../src/core/python-regex/backtracking.js";
import { parsePythonRegex } from "../src/core/python-regex/parse.js";
const w = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join("|");
const pats: [string, string][] = [
  ["class", "[a-z]+\\d*".repeat(50_000)],
  ["dup300 x50", `(?:${w(300, () => "ab")})+`.repeat(50)],
  ["dup600 x50", `(?:${w(600, () => "ab")})+`.repeat(50)],
  ["words5000+", `(?:${w(5000, (i) => "w" + i)})+`],
  ["nest safe", "(".repeat(150) + "ab" + ")+c".repeat(150)],
  ["a?x1000 in loop", "(?:" + "a?".repeat(1000) + "b)+"],
  ["a?x60 in loop", "(?:" + "a?".repeat(60) + "b)+"],
  ["counted", "(?:(?:(?:(?:ab){10}c){10}d){10}e)+"],
  ["counted big", "(?:x{4294967294}|y)+"],
  ["counted3", "(?:(?:a{3000}){3000}|a|a)+"], ["counted4", "(?:a{2,4294967294}|b)*"], ["big dfa", "(?:[ab]{9}c|[ab]{9}d)+"],
  ["nested alt", "((a|b)+c|(a|b)+d)+"],
];
it("x", () => {
  for (const [name, p] of pats) {
    const r = parsePythonRegex(p);
    if (!r.ok) { console.log(name, "PARSE", r.error.message); continue; }
    const t = performance.now();
    const x = findCatastrophicBacktracking(r.ast);
    console.log(name.padEnd(18), (performance.now() - t).toFixed(1).padStart(8) + "ms", x ? x.message.slice(0, 150) : "-");
  }
});
