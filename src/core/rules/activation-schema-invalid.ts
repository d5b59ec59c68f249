import { rootOf } from "../ef2/activation.js";
import { defineRule } from "../rule.js";

/**
 * A Python extension's activationSchema.json is what monitoring configurations are made from: Dynatrace's SDK
 * refuses one that does not parse, does not follow Dynatrace's activation schema format (extensions-2.md §3),
 * names a type or enum it does not define, or lacks the root (`pythonRemote`, `pythonLocal`) that
 * `python.activation.remote` or `.local` reads. Reported at the path in extension.yaml; judged only for the
 * files the caller read (`DescriptorInput.files`).
 */
export const rule = defineRule({
  meta: {
    id: "activation-schema-invalid",
    kind: "document",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    nameData: ["path"],
    description:
      "The activationSchema.json python.activation names is missing, not JSON, or not Dynatrace's format.",
    messages: {
      absent: "`{{path}}` is not in the repository: Dynatrace's SDK cannot build the extension without it",
      unreadable: "`{{path}}` {{problem}}",
      format: "`{{path}}` is not Dynatrace's activation schema format: {{problem}}",
      ref: "`{{path}}` names `{{ref}}` at `{{at}}`, which it does not define",
      root: "`{{path}}` has no `properties.{{root}}`, which `python.activation.{{where}}` reads",
    },
  },
  check(context) {
    const pkg = context.package;
    // One file named by remote and local: its own problems are said once, at its first naming; the root each
    // entry reads, at that entry.
    const judged = new Set<string>();
    for (const a of context.activationSchemas()) {
      const pointer = a.pointer;
      const path = a.path;
      const first = !judged.has(path);
      judged.add(path);
      if (a.unread) {
        const at = pkg?.resolve(path);
        if (first && pkg?.paths && at !== undefined && !pkg.paths.has(at))
          context.report({ pointer, messageId: "absent", data: { path } });
        continue;
      }
      if (a.problem !== undefined) {
        if (first) context.report({ pointer, messageId: "unreadable", data: { path, problem: a.problem } });
        continue;
      }
      const facts = a.facts!;
      if (first) {
        for (const p of a.problems ?? [])
          context.report({ pointer, messageId: "format", data: { path, problem: p.message } });
        for (const { ref, pointer: at } of facts.refs) {
          const m = /^#\/(types|enums)\/(.+)$/.exec(ref);
          const defined = m && (m[1] === "types" ? facts.types : facts.enums).includes(m[2]!);
          if (m && !defined) context.report({ pointer, messageId: "ref", data: { path, ref, at } });
        }
      }
      const root = rootOf(a.where);
      if (!facts.roots.includes(root))
        context.report({ pointer, messageId: "root", data: { path, root, where: a.where } });
    }
  },
});
