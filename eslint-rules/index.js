/**
 * The project's own lint rules: the layering of src/ (which folder may import which) and no import cycles
 * among src/ files, type-only imports included. Imports are resolved as TypeScript resolves them here
 * (NodeNext: `./x.js` is `./x.ts`); packages and Node's modules are not the layers' concern.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import picomatch from "picomatch";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The project file a relative specifier names, or undefined (a package, a missing file). */
function resolveSpecifier(fromFile, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const target = resolve(dirname(fromFile), specifier);
  for (const candidate of [target.replace(/\.js$/, ".ts"), target.replace(/\.js$/, ".d.ts"), target])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

/** A file's imports (static, re-exports, type-only and `import()` alike), resolved; cached by mtime. */
const importsCache = new Map();
function importsOf(file) {
  const mtime = statSync(file).mtimeMs;
  const cached = importsCache.get(file);
  if (cached?.mtime === mtime) return cached.imports;
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const imports = [
    ...new Set(info.importedFiles.map((f) => resolveSpecifier(file, f.fileName)).filter(Boolean)),
  ];
  importsCache.set(file, { mtime, imports });
  return imports;
}

/** A path of imports from `start` back to `target`, or undefined. */
function pathBack(start, target, inScope) {
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length) {
    const path = queue.shift();
    for (const next of importsOf(path[path.length - 1])) {
      if (next === target) return [...path, next];
      if (seen.has(next) || !inScope(next)) continue;
      seen.add(next);
      queue.push([...path, next]);
    }
  }
  return undefined;
}

/** The import declarations of a file as ESLint sees them, with their specifiers. */
function importNodes(visit) {
  const check = (node) => {
    if (node.source && typeof node.source.value === "string") visit(node, node.source.value);
  };
  return {
    ImportDeclaration: check,
    ExportNamedDeclaration: check,
    ExportAllDeclaration: check,
    ImportExpression: check,
  };
}

const rel = (file) => relative(ROOT, file);

const noImportCycle = {
  meta: {
    type: "problem",
    docs: { description: "No import cycles among src/ files, type-only imports included" },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const inScope = (f) => rel(f).startsWith("src/");
    if (!inScope(file)) return {};
    return importNodes((node, specifier) => {
      const target = resolveSpecifier(file, specifier);
      if (!target || !inScope(target)) return;
      const back = target === file ? [file] : pathBack(target, file, inScope);
      if (back)
        context.report({
          node,
          message: `Import cycle: ${[file, ...back].map(rel).join(" → ")}`,
        });
    });
  },
};

const layers = {
  meta: {
    type: "problem",
    docs: { description: "Which folders of src/ may import which" },
    schema: [
      {
        type: "array",
        items: {
          type: "object",
          properties: {
            from: { type: "string" },
            allow: { type: "array", items: { type: "string" } },
            deny: { type: "array", items: { type: "string" } },
            because: { type: "string" },
          },
          required: ["from", "because"],
          additionalProperties: false,
        },
      },
    ],
  },
  create(context) {
    const file = rel(context.filename);
    const rules = (context.options[0] ?? [])
      .filter((r) => picomatch(r.from)(file))
      .map((r) => ({
        ...r,
        allowed: r.allow && picomatch(r.allow),
        denied: r.deny && picomatch(r.deny),
      }));
    if (!rules.length) return {};
    return importNodes((node, specifier) => {
      const resolved = resolveSpecifier(context.filename, specifier);
      if (!resolved) return;
      const target = rel(resolved);
      for (const r of rules)
        if ((r.allowed && !r.allowed(target)) || (r.denied && r.denied(target)))
          context.report({ node, message: `${file} may not import ${target}: ${r.because}` });
    });
  },
};

export default { rules: { "no-import-cycle": noImportCycle, layers } };
