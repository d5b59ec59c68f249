import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";
import { quote } from "../quote.js";

/** Two descriptors checked together (one CLI run, one pull request's head) share a name. */
export const rule = defineRule({
  meta: {
    id: "duplicate-plugin-name",
    kind: "set",
    members: ["name"],
    defaultSeverity: "error",
    positionalData: ["others"],
    nameData: ["name"],
    description: "Two descriptors checked together share a name.",
    messages: {
      duplicate: "plugin name `{{name}}` is also used by {{others}}; the server treats them as one plugin",
    },
  },
  checkSet(context) {
    const byName = new Map<string, string[]>();
    for (const d of context.documents) {
      const name = str(get(d.value, "name"));
      if (name === undefined) continue;
      const paths = byName.get(name) ?? [];
      if (paths.includes(d.path)) continue; // the same file given twice is one descriptor
      paths.push(d.path);
      byName.set(name, paths);
    }
    for (const [name, paths] of byName) {
      if (paths.length < 2) continue;
      for (const path of paths) {
        const others = paths.filter((p) => p !== path).map((p) => quote(p));
        context.report(path, {
          pointer: "/name",
          messageId: "duplicate",
          data: { name, others: others.join(", ") },
        });
      }
    }
  },
});
