import { finding, get, str, type Rule } from "../rule.js";

/** Two descriptors checked together (one CLI run, one pull request's head) share a name. */
export const rule: Rule = {
  meta: {
    id: "duplicate-plugin-name",
    kind: "set",
    defaultSeverity: "error",
    description: "Two descriptors checked together share a name.",
  },
  checkSet(docs) {
    const byName = new Map<string, string[]>();
    for (const d of docs) {
      const name = str(get(d.value, "name"));
      if (name === undefined) continue;
      const paths = byName.get(name) ?? [];
      if (paths.includes(d.path)) continue; // the same file given twice is one descriptor
      paths.push(d.path);
      byName.set(name, paths);
    }
    const out: ReturnType<NonNullable<Rule["checkSet"]>> = [];
    for (const [name, paths] of byName) {
      if (paths.length < 2) continue;
      for (const path of paths) {
        const others = paths.filter((p) => p !== path);
        out.push({
          path,
          finding: finding(
            this.meta,
            "/name",
            `plugin name \`${name}\` is also used by ${others.map((p) => `\`${p}\``).join(", ")}; the server treats them as one plugin`,
          ),
        });
      }
    }
    return out;
  },
};
