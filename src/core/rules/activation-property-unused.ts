import { rootOf } from "../ef2/activation.js";
import { defineRule } from "../rule.js";

/**
 * What an activationSchema.json defines that the extension never reads: a root (`pythonLocal`) that no
 * `python.activation` entry names with this file (Dynatrace offers that configuration, and the extension never
 * runs it), and types or enums that no `$ref` names (fields nobody fills in).
 */
export const rule = defineRule({
  meta: {
    id: "activation-property-unused",
    kind: "document",
    defaultSeverity: "warning",
    files: ["extension.yaml"],
    nameData: ["name"],
    description: "The activation schema defines a root, type or enum that the extension never reads.",
    messages: {
      root: "`{{path}}` defines `properties.{{name}}`, but `python.activation.{{where}}` does not name this file: that configuration is never run",
      definition: "`{{path}}` defines `{{name}}`, which no `$ref` names: nothing reads it",
    },
  },
  check(context) {
    const schemas = context.activationSchemas();
    schemas.forEach((a, i) => {
      const { path, pointer, facts } = a;
      // One file named twice (remote and local) is judged once, against both.
      if (!facts || schemas.findIndex((b) => b.path === path) !== i) return;
      const read = new Set(schemas.filter((b) => b.path === path).map((b) => rootOf(b.where)));
      for (const where of ["remote", "local"] as const) {
        const name = rootOf(where);
        if (facts.roots.includes(name) && !read.has(name))
          context.report({ pointer, messageId: "root", data: { path, name, where } });
      }
      const named = new Set(facts.refs.map((r) => r.ref));
      for (const [kind, names] of [
        ["types", facts.types],
        ["enums", facts.enums],
      ] as const)
        for (const name of names)
          if (!named.has(`#/${kind}/${name}`))
            context.report({ pointer, messageId: "definition", data: { path, name: `${kind}.${name}` } });
    });
  },
});
