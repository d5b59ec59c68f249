import { hasPlaceholder } from "../ef2/placeholders.js";
import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";
import { quote } from "../quote.js";

/**
 * Two descriptors checked together (one CLI run, one pull request's head) share a name, or two extensions do:
 * each kind of file apart (an EF1 plugin's name and an extension's are names on different servers).
 */
export const rule = defineRule({
  meta: {
    id: "duplicate-plugin-name",
    kind: "set",
    files: ["plugin.json", "extension.yaml"],
    members: ["name"],
    defaultSeverity: "error",
    positionalData: ["others"],
    nameData: ["name"],
    description: "Two descriptors (or two extensions) checked together share a name.",
    messages: {
      duplicate: "plugin name `{{name}}` is also used by {{others}}; the server treats them as one plugin",
      duplicateExtension:
        "extension name `{{name}}` is also used by {{others}}; Dynatrace takes them as one extension, of which one version is active at a time",
    },
  },
  checkSet(context) {
    const byName = new Map<string, { name: string; extension: boolean; paths: string[] }>();
    for (const d of context.documents) {
      const name = str(get(d.value, "name"));
      const extension = d.format === "extension.yaml";
      // A build template's name is its build's to write (build-placeholder): templates share theirs.
      if (name === undefined || (extension && hasPlaceholder(name))) continue;
      const id = `${d.format}\0${name}`;
      let entry = byName.get(id);
      if (!entry) byName.set(id, (entry = { name, extension, paths: [] }));
      if (entry.paths.includes(d.path)) continue; // the same file given twice is one descriptor
      entry.paths.push(d.path);
    }
    for (const { name, extension, paths } of byName.values()) {
      if (paths.length < 2) continue;
      for (const path of paths) {
        const others = paths.filter((p) => p !== path).map((p) => quote(p));
        context.report(path, {
          pointer: "/name",
          messageId: extension ? "duplicateExtension" : "duplicate",
          data: { name, others: others.join(", ") },
        });
      }
    }
  },
});
